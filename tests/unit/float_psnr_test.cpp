// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of float_psnr computed directly: peaks and the clip.
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

TEST(FloatPsnrDirect, PeaksAndClip) {
  EXPECT_EQ(fpsnr::peak_for(8).peak, 255.0);
  EXPECT_EQ(fpsnr::peak_for(10).psnr_max, 72.0);
  EXPECT_EQ(fpsnr::peak_for(12).peak, 255.9375);
  EXPECT_EQ(fpsnr::peak_for(16).psnr_max, 108.0);
  std::vector<float> a(10, 0.0f), b(10, 0.0f);
  EXPECT_EQ(fpsnr::psnr(a.data(), b.data(), 5, 2, fpsnr::peak_for(8)), 60.0);
  b[0] = 10.0f;
  EXPECT_EQ(fpsnr::psnr(a.data(), b.data(), 5, 2, fpsnr::peak_for(8)), 10 * std::log10(255.0 * 255.0 / 10.0));
}

}  // namespace
}  // namespace vmafx
