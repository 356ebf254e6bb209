// The ciede certificate is what makes the device exact: the same 2^-30 error inside a bound of 2^-28: every certified pixel is still exact (more are replayed).
#define VMAFX_CE_TEST_SKEW (-30)
#define VMAFX_CE_REL_ERR (-28)
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ciede_stress.hpp"
#include "exact/ciede.h"
#include "feature/ciede.hpp"

namespace vmafx {
namespace {

TEST(CiedeCertificate, SkewWithinTheBoundIsExact) {
  const int n = 3000, bpc = 10;
  const auto s = test::ciede_pairs(bpc, n, 77);
  int mismatches = 0, flagged = 0;
  for (int k = 0; k < n; ++k) {
    const std::int32_t* p = &s[std::size_t(k) * 6];
    int ok = 0;
    const std::uint32_t got = vmafx_ciede_pixel(p[0], p[1], p[2], p[3], p[4], p[5], bpc, &ok);
    if (!ok) {
      ++flagged;
      continue;
    }
    const float want = ciede::delta_e00(ciede::lab_from_yuv(p[0], p[1], p[2], bpc), ciede::lab_from_yuv(p[3], p[4], p[5], bpc));
    std::uint32_t w;
    std::memcpy(&w, &want, 4);
    mismatches += got != w;
  }
  std::printf("ciede skew 2^-30, bound 2^%d: %d pairs, %d replayed, %d certified but wrong\n", VMAFX_CE_REL_ERR, n,
              flagged, mismatches);
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace vmafx
