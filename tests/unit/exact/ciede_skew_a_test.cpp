// SPDX-License-Identifier: BSD-3-Clause
// The ciede certificate is what makes the device exact: an approximation
// error of 2^-30 with the bound left at 2^-44: certified pixels come out
// wrong, so the stress test has the power to catch an unsound bound.
#define VMAFX_CE_TEST_SKEW (-30)

#include <gtest/gtest.h>

#include "ciede_skew.hpp"

namespace vmafx {
namespace {

TEST(CiedeCertificate, SkewBeyondTheBoundIsCaught) {
  const test::SkewRun r = test::run_skewed_certificate();
  EXPECT_GT(r.wrong, r.pairs / 100);
}

}  // namespace
}  // namespace vmafx
