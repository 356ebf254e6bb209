#pragma once
// Public header (vmaf_exact/report.hpp); kept so internal code can include "output/report.hpp".
#include <cstdio>
#include <functional>
#include <string>

#include "vmaf_exact/report.hpp"

namespace vmafx {

// save_report's writing, for any writer: `write` fills the stream (throwing
// Error on a failure); the file at `path` is replaced whole or not at all.
void save_output(const std::string& path, const std::function<void(std::FILE*)>& write);

// Writes the stream through Out-style checks: every byte of `text`, then a
// flush; throws Error (kind kOutput) "write failed: ..." on a failure.
void write_text(std::FILE* f, const std::string& text);

}  // namespace vmafx
