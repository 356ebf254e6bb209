// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The fixture of the CPU SIMD tests: runs a body once per SIMD target that is
// compiled in and that this CPU runs (dispatch pinned to it), restoring the
// normal choice afterwards; skips when there is none (no Highway, or a CPU
// without SSSE3).
#include <gtest/gtest.h>

#include <cstdint>

#include "core/simd.hpp"

namespace vmafx::test {

class SimdTargets : public ::testing::Test {
 protected:
  void TearDown() override { vmafx::simd::force_target(0); }

  template <class F>
  void each_target(F&& body) {
    const auto ts = vmafx::simd::targets();
    if (ts.empty()) GTEST_SKIP() << "no SIMD target (Highway missing or CPU without SSSE3)";
    for (const std::int64_t t : ts) {
      vmafx::simd::force_target(t);
      SCOPED_TRACE(vmafx::simd::target_name());
      body();
      if (::testing::Test::HasFailure()) return;
    }
  }
};

}  // namespace vmafx::test
