// SPDX-License-Identifier: BSD-3-Clause
// The ciede certificate is what makes the device exact: the same 2^-30 error
// inside a bound of 2^-28: every certified pixel is still exact (more are
// replayed).
#define VMAFX_CE_TEST_SKEW (-30)
#define VMAFX_CE_REL_ERR (-28)

#include <gtest/gtest.h>

#include "ciede_skew.hpp"

namespace vmafx {
namespace {

TEST(CiedeCertificate, SkewWithinTheBoundIsExact) {
  const test::SkewRun r = test::run_skewed_certificate();
  EXPECT_EQ(r.wrong, 0);
  EXPECT_GT(r.replayed, 0);
}

}  // namespace
}  // namespace vmafx
