// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A field of /proc/self/status counted in KiB ("VmRSS", "VmHWM", ...), or -1
// where it is missing: for the benches and tests that watch the process's
// own memory.
#include <fstream>
#include <string>

namespace vmafx {

inline long proc_status_kib(const std::string& field) {
  std::ifstream f("/proc/self/status");
  const std::string key = field + ":";
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(key, 0) == 0) return std::stol(line.substr(key.size()));
  return -1;
}

}  // namespace vmafx
