// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Public header (vmaf_exact/report.hpp); kept so internal code can include "output/report.hpp".
#include <cstdio>
#include <functional>
#include <string>

#include "vmaf_exact/report.hpp"

namespace vmafx {

// Writes the stream through Out-style checks: every byte of `text`, then a
// flush; throws Error (kind kOutput) "write failed: ..." on a failure.
void write_text(std::FILE* f, const std::string& text);

}  // namespace vmafx
