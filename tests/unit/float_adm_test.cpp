// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of float_adm computed directly: identical and flat inputs, the CSF factors.
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

TEST(FloatAdmDirect, IdenticalInputsHaveNoAdditiveImpairment) {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> d(-128, 127);
  for (auto [w, h] : {std::pair{17, 17}, {18, 33}, {64, 40}}) {
    std::vector<float> img(std::size_t(w) * h);
    for (float& v : img) v = float(d(rng));
    const fadm::Scores s = fadm::compute(img.data(), img.data(), w, h, fadm::Params{});
    EXPECT_EQ(s.aim, 0.0) << w << "x" << h;
    EXPECT_GT(s.score, 0.9);
    EXPECT_TRUE(std::isfinite(s.score));
  }
}

TEST(FloatAdmDirect, FlatPicturesScoreOne) {
  std::vector<float> flat(20 * 20, 0.0f);
  const fadm::Scores s = fadm::compute(flat.data(), flat.data(), 20, 20, fadm::Params{});
  EXPECT_EQ(s.score, 1.0);  // num and den are the same noise floors
  EXPECT_EQ(s.aim, 0.0);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(s.num_scale[k], s.den_scale[k]);
  fadm::Params nw0;
  nw0.noise_weight = 0;  // den 0: libvmaf writes 1 and leaves aim uninitialised; we write 0
  const fadm::Scores z = fadm::compute(flat.data(), flat.data(), 20, 20, nw0);
  EXPECT_EQ(z.score, 1.0);
  EXPECT_EQ(z.aim, 0.0);
  EXPECT_EQ(z.den, 0.0);
}

TEST(FloatAdmCsf, FactorsAndOverrides) {
  fadm::Params p;
  const fadm::Factors w0 = fadm::csf_factors(0, p);
  EXPECT_GT(w0.f1, 0.0f);
  EXPECT_GT(w0.f2, 0.0f);
  EXPECT_NE(w0.f1, w0.f2);
  for (int mode : {3, 9}) {  // anything but 1 and 2 is Watson
    p.csf_mode = mode;
    EXPECT_EQ(bits(fadm::csf_factors(0, p).f1), bits(w0.f1));
  }
  p.csf_mode = 1;
  const fadm::Factors b = fadm::csf_factors(2, p);
  p.csf_scale = 2.0;
  EXPECT_EQ(fadm::csf_factors(2, p).f1, static_cast<float>(double(b.f1) * 2.0));
  p.csf_mode = 2;
  EXPECT_NE(fadm::csf_factors(1, p).f1, fadm::csf_factors(1, p).f2);
  p.f1[1] = 0.25;
  p.f2[1] = 0.0;
  EXPECT_EQ(fadm::csf_factors(1, p).f1, 0.25f);
  EXPECT_EQ(fadm::csf_factors(1, p).f2, 0.0f);
}

}  // namespace
}  // namespace vmafx
