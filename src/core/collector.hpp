// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Public header; kept here so that internal code can include "core/collector.hpp".
#include "vmaf_exact/collector.hpp"
