// SPDX-License-Identifier: BSD-3-Clause
// Host checks of the arithmetic the float_psnr, float_moment and psnr_hvs
// twins share with their kernels (src/exact/float_terms.h,
// src/exact/psnr_hvs_block.h, feature/exact_sum.hpp): each against the CPU
// reference, with ==, including the paths the harness's small inputs do not
// reach (a double sum that passes 2^53 units).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "exact/float_terms.h"
#include "exact/psnr_hvs_block.h"
#include "feature/exact_sum.hpp"
#include "feature/float_moment.hpp"
#include "feature/float_psnr.hpp"
#include "feature/psnr_hvs.hpp"

namespace vmafx {
namespace {

// libvmaf's picture_copy of one sample.
float to_float(int s, int bpc) { return bpc == 8 ? float(s) : float(s) / float(1 << (bpc - 8)); }

TEST(FloatTerms, RoundToTwentyFourBits) {
  EXPECT_EQ(vmafx_rne24(0), 0u);
  EXPECT_EQ(vmafx_rne24((1u << 24) - 1), (1u << 24) - 1);
  EXPECT_EQ(vmafx_rne24((1u << 24) + 1), 1u << 24);        // tie to even (down)
  EXPECT_EQ(vmafx_rne24((1u << 24) + 3), (1u << 24) + 4);  // tie to even (up)
  EXPECT_EQ(vmafx_rne24(0xFFFFFFFFull), 0x100000000ull);   // carries into 2^32
  EXPECT_EQ(vmafx_rne24(0xFFFE0001ull), 0xFFFE0000ull);    // 65535^2
}

TEST(FloatTerms, EqualTheFloatOperationsAtEveryDepth) {
  std::mt19937 rng(7);
  for (int bpc : {8, 10, 12, 16}) {
    const int k = bpc - 8, maxv = (1 << bpc) - 1;
    std::uniform_int_distribution<int> any(0, maxv);
    for (int n = 0; n < 200000; ++n) {
      const int a = n < 4 ? (n & 1) * maxv : any(rng), b = n < 4 ? (n >> 1) * maxv : any(rng);
      const float fa = to_float(a, bpc), fb = to_float(b, bpc);
      const float d = fa - fb;
      ASSERT_EQ(std::ldexp(double(vmafx_fterm(VMAFX_FTERM_SAMPLE, a, a)), -k), double(fa));
      ASSERT_EQ(std::ldexp(double(vmafx_fterm(VMAFX_FTERM_SQUARE, a, a)), -2 * k), double(fa * fa)) << a;
      ASSERT_EQ(std::ldexp(double(vmafx_fterm(VMAFX_FTERM_ERROR, a, b)), -2 * k), double(d * d)) << a << " " << b;
    }
  }
}

// A 16-bit 4K-sized frame whose double sums pass 2^53 units a third of the
// way down: the prefix and the one-by-one rest equal the reference's loops.
TEST(ExactSum, PrefixThenOneByOneEqualsTheReference) {
  const int w = 3840, h = 2160, bpc = 16, k = 8;
  const std::size_t n = std::size_t(w) * h;
  std::vector<std::uint16_t> ra(n), da(n);
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> hi(40000, 65535), lo(0, 20000);
  for (std::size_t i = 0; i < n; ++i) {
    ra[i] = std::uint16_t(hi(rng));
    da[i] = std::uint16_t(lo(rng));
  }
  std::vector<float> rf(n), df(n);
  for (std::size_t i = 0; i < n; ++i) {
    rf[i] = to_float(ra[i], bpc);
    df[i] = to_float(da[i], bpc);
  }
  for (int kind : {VMAFX_FTERM_SAMPLE, VMAFX_FTERM_SQUARE, VMAFX_FTERM_ERROR}) {
    const int q = kind == VMAFX_FTERM_SAMPLE ? k : 2 * k;
    std::vector<std::uint64_t> rows(h, 0);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = std::size_t(y) * w + x;
        rows[y] += vmafx_fterm(kind, ra[i], da[i]);
      }
    const exact_sum::Prefix p = exact_sum::exact_prefix(rows);
    if (kind != VMAFX_FTERM_SAMPLE) {
      EXPECT_GT(p.rows, 0);
      EXPECT_LT(p.rows, h);  // the one-by-one path is taken
    } else {
      EXPECT_EQ(p.rows, h);
    }
    std::vector<std::uint32_t> rest;
    for (std::size_t i = std::size_t(p.rows) * w; i < n; ++i)
      rest.push_back(std::uint32_t(vmafx_fterm(kind, ra[i], da[i])));
    const double twin = exact_sum::finish(p, q, rest);
    if (kind == VMAFX_FTERM_ERROR) {
      const fpsnr::Peak pk = fpsnr::peak_for(bpc);
      EXPECT_EQ(fpsnr::from_noise(twin, w, h, pk), fpsnr::psnr(rf.data(), df.data(), w, h, pk));
      double plain = 0;  // the reference's loop itself
      for (std::size_t i = 0; i < n; ++i) {
        const float d = rf[i] - df[i];
        plain += d * d;
      }
      EXPECT_EQ(twin, plain);
    } else {
      const int order = kind == VMAFX_FTERM_SAMPLE ? 1 : 2;
      EXPECT_EQ(twin / (w * h), fmoment::moment(rf.data(), w, h, order));
    }
  }
}

TEST(ExactSum, ARowAtTheLimitEndsThePrefix) {
  const std::uint64_t lim = exact_sum::kExactLimit;
  const std::uint64_t rows[] = {lim - 2, 1, 1, 5};
  const exact_sum::Prefix p = exact_sum::exact_prefix(rows);
  EXPECT_EQ(p.rows, 2);
  EXPECT_EQ(p.units, lim - 1);
}

// The shared block function, run on the host over whole planes, against the
// reference's plane_error.
TEST(PsnrHvsBlock, EqualsTheReferencePlaneError) {
  std::mt19937 rng(3);
  for (int bpc : {8, 10, 12}) {
    for (auto [w, h] : {std::pair{67, 45}, std::pair{8, 8}, std::pair{7, 20}, std::pair{120, 36}}) {
      for (int plane = 0; plane < 3; ++plane) {
        const int maxv = (1 << bpc) - 1;
        std::uniform_int_distribution<int> any(0, maxv), delta(-maxv / 8, maxv / 8);
        std::vector<std::uint16_t> a(std::size_t(w) * h), b(a.size());
        std::vector<std::uint8_t> a8(a.size()), b8(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
          a[i] = std::uint16_t(any(rng));
          b[i] = std::uint16_t(std::clamp(int(a[i]) + delta(rng), 0, maxv));
          if (i % 97 == 0) b[i] = a[i];
          a8[i] = std::uint8_t(a[i]);
          b8[i] = std::uint8_t(b[i]);
        }
        const bool wide = bpc > 8;
        const PlaneView ra{wide ? reinterpret_cast<const std::uint8_t*>(a.data()) : a8.data(),
                           std::ptrdiff_t(w) * (wide ? 2 : 1), w, h};
        const PlaneView da{wide ? reinterpret_cast<const std::uint8_t*>(b.data()) : b8.data(),
                           std::ptrdiff_t(w) * (wide ? 2 : 1), w, h};
        float tables[128];
        psnr_hvs::plane_tables(plane, tables, tables + 64);
        const int nbx = psnr_hvs::blocks_along(w), nby = psnr_hvs::blocks_along(h);
        std::vector<float> terms(std::size_t(nbx) * nby * 64);
        for (int by = 0; by < nby; ++by)
          for (int bx = 0; bx < nbx; ++bx) {
            std::int32_t s[64], d[64];
            for (int i = 0; i < 8; ++i)
              for (int j = 0; j < 8; ++j) {
                const std::size_t q = std::size_t(by * 7 + i) * w + bx * 7 + j;
                s[i * 8 + j] = a[q];
                d[i * 8 + j] = b[q];
              }
            vmafx_hvs_block_terms(s, d, tables, tables + 64, psnr_hvs::kVar63, psnr_hvs::kVar15,
                                  terms.data() + (std::size_t(by) * nbx + bx) * 64);
          }
        const double twin = psnr_hvs::error_from_terms(terms.data(), std::size_t(nbx) * nby, bpc);
        const double cpu = psnr_hvs::plane_error(ra, da, bpc, plane);
        EXPECT_TRUE(twin == cpu || (std::isnan(twin) && std::isnan(cpu)))
            << bpc << "-bit " << w << "x" << h << " plane " << plane << ": " << twin << " vs " << cpu;
      }
    }
  }
}

}  // namespace
}  // namespace vmafx
