#pragma once
// Public header; kept here so that internal code can include "core/error.hpp".
#include "vmaf_exact/error.hpp"
