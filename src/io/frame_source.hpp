// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Public header (vmaf_exact/input.hpp); kept so internal code can include "io/frame_source.hpp".
#include "vmaf_exact/input.hpp"
