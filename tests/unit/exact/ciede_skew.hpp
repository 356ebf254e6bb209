// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The body of the ciede certificate tests (ciede_skew_a/b_test.cpp): each
// includes this with its own VMAFX_CE_TEST_SKEW / VMAFX_CE_REL_ERR, so the
// header's functions (internal linkage) are built with those values in each
// file; 3000 10-bit pairs through vmafx_ciede_pixel against the reference.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ciede_stress.hpp"
#include "exact/ciede.h"
#include "feature/ciede.hpp"

namespace vmafx::test {
namespace {

struct SkewRun {
  int pairs = 0, replayed = 0, wrong = 0;  // wrong: certified, yet not the reference's float
};

SkewRun run_skewed_certificate() {
  SkewRun r;
  r.pairs = 3000;
  const int bpc = 10;
  const auto s = ciede_pairs(bpc, r.pairs, 77);
  for (int k = 0; k < r.pairs; ++k) {
    const std::int32_t* p = &s[std::size_t(k) * 6];
    int ok = 0;
    const std::uint32_t got = vmafx_ciede_pixel(p[0], p[1], p[2], p[3], p[4], p[5], bpc, &ok);
    if (!ok) {
      ++r.replayed;
      continue;
    }
    const float want =
        ciede::delta_e00(ciede::lab_from_yuv(p[0], p[1], p[2], bpc), ciede::lab_from_yuv(p[3], p[4], p[5], bpc));
    std::uint32_t w;
    std::memcpy(&w, &want, 4);
    r.wrong += got != w;
  }
  std::printf("ciede skew 2^%d, bound 2^%d: %d pairs, %d replayed, %d certified but wrong\n", VMAFX_CE_TEST_SKEW,
              VMAFX_CE_REL_ERR, r.pairs, r.replayed, r.wrong);
  return r;
}

}  // namespace
}  // namespace vmafx::test
