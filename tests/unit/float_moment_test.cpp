// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of float_moment computed directly: mean and mean square.
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

TEST(FloatMomentDirect, MeanAndMeanSquare) {
  std::vector<float> a = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(fmoment::moment(a.data(), 3, 2, 1), 21.0 / 6);
  EXPECT_EQ(fmoment::moment(a.data(), 3, 2, 2), 91.0 / 6);
}

}  // namespace
}  // namespace vmafx
