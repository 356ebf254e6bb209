// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Public header (vmaf_exact/report.hpp); kept so internal code can include "output/report.hpp".
#include "vmaf_exact/report.hpp"
