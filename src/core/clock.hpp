// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Monotonic nanoseconds, for the timing reports (VMAFX_STATS).
#include <chrono>
#include <cstdint>

namespace vmafx {

inline std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace vmafx
