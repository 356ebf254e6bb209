// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of float_ansnr computed directly: identical and flat inputs.
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
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using namespace vmafx::test;

TEST(FloatAnsnrDirect, IdenticalAndFlat) {
  std::vector<float> z(5 * 3, 0.0f);
  const fansnr::Scores s = fansnr::compute(z.data(), z.data(), 5, 3, 255.0, 60.0);
  EXPECT_EQ(s.ansnr, 60.0);   // no noise: psnr_max
  EXPECT_EQ(s.anpsnr, 60.0);  // capped
  // The reference and distorted kernels differ (3x3 and 5x5), so identical
  // textured pictures still have noise.
  std::vector<float> a(6 * 5);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = float((i * 37) % 11) - 5.0f;
  const fansnr::Scores t = fansnr::compute(a.data(), a.data(), 6, 5, 255.0, 60.0);
  EXPECT_LT(t.ansnr, 60.0);
  EXPECT_GT(t.ansnr, 0.0);
}

}  // namespace
}  // namespace vmafx
