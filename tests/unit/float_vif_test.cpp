// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of float_vif's helpers: the log2 approximation, the kernels and sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "core/engine.hpp"
#include "core/error.hpp"
#include "feature/float_adm.hpp"
#include "exact/float_adm_tables.h"
#include "feature/float_ansnr.hpp"
#include "feature/float_common.hpp"
#include "feature/float_moment.hpp"
#include "feature/float_motion.hpp"
#include "feature/float_psnr.hpp"
#include "feature/float_vif.hpp"
#include "exact/float_vif_tables.h"
#include "support/float_bits.hpp"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using namespace vmafx::test;

// ---- VIF helpers --------------------------------------------------------------

TEST(FloatVifLog2, ExactAtPowersOfTwoAndClose) {
  EXPECT_EQ(fvif::log2_approx(1.0f), 0.0f);
  EXPECT_EQ(fvif::log2_approx(8.0f), 3.0f);
  EXPECT_EQ(fvif::log2_approx(0.125f), -3.0f);
  EXPECT_EQ(fvif::log2_approx(0.0f), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(fvif::log2_approx(-1.0f)));
  for (float x = 1.0f; x < 1000.0f; x *= 1.013f) EXPECT_NEAR(fvif::log2_approx(x), std::log2(x), 2e-4) << x;
}

TEST(FloatVifKernel, DefaultKernelsAreLibvmafs) {
  const unsigned* want[4] = {vmafx_fvif_kernel_bits_s0, vmafx_fvif_kernel_bits_s1, vmafx_fvif_kernel_bits_s2,
                             vmafx_fvif_kernel_bits_s3};
  for (int s = 0; s < 4; ++s) {
    const std::vector<float> k = fvif::gaussian_kernel(s, 1.0);
    ASSERT_EQ(k.size(), vmafx_fvif_kernel_taps[s]);
    for (std::size_t i = 0; i < k.size(); ++i) EXPECT_EQ(bits(k[i]), want[s][i]) << s << " " << i;
  }
}

TEST(FloatVifKernel, SizesFollowTheKernelScale) {
  auto sizes = [](double ks) {
    std::vector<std::size_t> out;
    for (int s = 0; s < 4; ++s) out.push_back(fvif::gaussian_kernel(s, ks).size());
    return out;
  };
  EXPECT_EQ(sizes(0.5), (std::vector<std::size_t>{9, 5, 3, 3}));
  EXPECT_EQ(sizes(1.5), (std::vector<std::size_t>{27, 15, 9, 5}));
  EXPECT_EQ(sizes(2.0), (std::vector<std::size_t>{35, 19, 11, 7}));
  // 1.66667 rounds up at scale 3 (3 * 1.66667 > 5), 1.6666667 does not.
  EXPECT_EQ(sizes(1.66667), (std::vector<std::size_t>{29, 17, 9, 7}));
  EXPECT_EQ(sizes(1.6666667), (std::vector<std::size_t>{29, 17, 9, 5}));
}

TEST(FloatVifKernel, ValidKernelScales) {
  for (double ks : {1.0, 0.5, 1.5, 2.0, 2.0 / 3.0, 2.4, 360.0 / 97.0, 1.66667, 3.0, 1.4746, 1.111111, 0.7405})
    EXPECT_TRUE(fvif::kernelscale_valid(ks)) << ks;
  for (double ks : {0.1, 0.9, 1.7, 2.5, 4.0, 1.0025}) EXPECT_FALSE(fvif::kernelscale_valid(ks)) << ks;
}

TEST(FloatVifSize, SmallestPictures) {
  fvif::Params p;
  EXPECT_TRUE(fvif::size_ok(16, 16, p));
  EXPECT_FALSE(fvif::size_ok(15, 16, p));
  EXPECT_FALSE(fvif::size_ok(16, 15, p));
  p.skip_scale0 = true;
  EXPECT_TRUE(fvif::size_ok(16, 16, p));
  p.skip_scale0 = false;
  p.kernelscale = 2.0;  // 35, 19, 11, 7 taps: scale 3 needs 4 rows, i.e. 32
  EXPECT_FALSE(fvif::size_ok(31, 40, p));
  EXPECT_TRUE(fvif::size_ok(32, 40, p));
}

}  // namespace
}  // namespace vmafx
