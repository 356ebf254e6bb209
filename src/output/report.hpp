#pragma once
// Public header (vmaf_exact/report.hpp); kept so internal code can include "output/report.hpp".
#include "vmaf_exact/report.hpp"
