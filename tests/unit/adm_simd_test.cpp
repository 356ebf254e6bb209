// SPDX-License-Identifier: BSD-3-Clause
// The SIMD rows of the integer ADM (feature/adm_simd.cpp) against the scalar
// rows of feature/adm.cpp (adm::scalar_rows()), for == on every integer: each
// row slot on random rows (widths 1..300 so every row-end case of every vector
// width is hit, full-range values where the int16 stores truncate and the
// int32 sums wrap, bit depths 8/10/12/16 for the DWT), on every SIMD target
// this CPU runs; and whole frames through adm::compute with the SIMD path off
// and on. Without Highway (or on a CPU without a SIMD target) the tests skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "feature/adm.hpp"
#include "feature/adm_rows.hpp"
#include "exact/adm.h"
#include "exact/adm_tables.h"
#include "core/simd.hpp"
#include "simd_targets.hpp"

namespace vmafx {
namespace {

namespace vs = ::vmafx::simd;

// The reference rows and the SIMD rows (adm::rows() with the SIMD path on;
// each slot dispatches to the target each_target pins).
const adm::Rows& ref_rows() { return adm::scalar_rows(); }
const adm::Rows& simd_rows() {
  vs::set_enabled(true);
  const adm::Rows& r = adm::rows();
  if (&r == &adm::scalar_rows()) ADD_FAILURE() << "adm::rows() gave the scalar rows with the SIMD path on";
  return r;
}

// adm.cpp's division table for the scale-0 decoupling rows (lut[o + 32768]).
const std::vector<std::int32_t>& div_lut() {
  static const std::vector<std::int32_t> v = [] {
    std::vector<std::int32_t> t(VMAFX_ADM_DIV_LOOKUP_SIZE);
    for (int i = -32768; i <= 32768; ++i) t[i + 32768] = vmafx_adm_div(i);
    return t;
  }();
  return v;
}

// The masking of one row through a row table as adm.cpp drives it: cm_box on
// the masker rows im, i, ip (into buffers filled with junk outside what it
// must write), then the masking row.
template <class T, class K>
void masking_row(const adm::Rows& R, const T* const sb[3], const T* const mm[3], const T* const m0[3],
                 const T* const mp[3], int w, int left, int right, const K& k, std::int64_t inner[3]) {
  std::vector<std::int32_t> buf(9 * std::size_t(w), 0x5A5A5A5A);
  std::int32_t *F[3], *H[3], *Z[3];
  const T* const* rows[3] = {mm, m0, mp};
  for (int q = 0; q < 3; ++q) {
    F[q] = buf.data() + std::size_t(3 * q) * w;
    H[q] = buf.data() + std::size_t(3 * q + 1) * w;
    Z[q] = buf.data() + std::size_t(3 * q + 2) * w;
    if constexpr (sizeof(T) == 2)
      R.cm_box_s0(rows[q], k, left, right, F[q], H[q], Z[q]);
    else
      R.cm_box_s123(rows[q], k, left, right, F[q], H[q], Z[q]);
  }
  const adm::CmBox box{H[0], H[1], H[2], Z[1]};
  if constexpr (sizeof(T) == 2)
    R.cm_s0(sb, box, left, right, k, inner);
  else
    R.cm_s123(sb, box, left, right, k, inner);
}

// ---------------------------------------------------------------------------

class AdmSimd : public test::SimdTargets {
 protected:
  void TearDown() override {
    vs::reset_enabled();
    test::SimdTargets::TearDown();
  }
};

// Random int16 / int32 rows: uniform, extremes, or small values.
template <class T>
void fill(std::mt19937& rng, std::vector<T>& v, int mode) {
  for (T& x : v) {
    const std::uint32_t r = rng();
    if (mode == 0)
      x = static_cast<T>(r);
    else if (mode == 1)
      x = (r & 1) ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
    else
      x = static_cast<T>(static_cast<std::int32_t>(r % 201) - 100);
  }
}

TEST_F(AdmSimd, DwtS0RowEqualsScalar) {
  std::mt19937 rng(11);
  each_target([&] {
    for (int bpc : {8, 10, 12, 16})
      for (int w = 3; w <= 300; ++w)
        for (int mode = 0; mode < 3; ++mode)
          for (bool lo_only : {false, true}) {
            const std::uint32_t maxv = (1u << bpc) - 1;
            std::vector<std::uint16_t> rows16[4];
            std::vector<std::uint8_t> rows8[4];
            for (int k = 0; k < 4; ++k) {
              rows16[k].resize(w);
              for (auto& x : rows16[k]) {
                const std::uint32_t r = rng();
                x = std::uint16_t(mode == 0 ? (r & maxv) : mode == 1 ? ((r & 1) ? maxv : 0) : (r % 3) * (maxv / 2));
              }
              rows8[k].assign(rows16[k].begin(), rows16[k].end());
            }
            const int hw = (w + 1) / 2;
            std::vector<std::int16_t> want[4], got[4];
            for (int q = 0; q < 4; ++q) {
              want[q].assign(hw, 0);
              got[q].assign(hw, 0);
            }
            if (bpc == 8) {
              const std::uint8_t* r[4] = {rows8[0].data(), rows8[1].data(), rows8[2].data(), rows8[3].data()};
              ref_rows().dwt_s0_8(r, w, bpc, lo_only, want[0].data(), want[1].data(), want[2].data(), want[3].data());
              simd_rows().dwt_s0_8(r, w, bpc, lo_only, got[0].data(), got[1].data(), got[2].data(), got[3].data());
            } else {
              const std::uint16_t* r[4] = {rows16[0].data(), rows16[1].data(), rows16[2].data(), rows16[3].data()};
              ref_rows().dwt_s0_16(r, w, bpc, lo_only, want[0].data(), want[1].data(), want[2].data(), want[3].data());
              simd_rows().dwt_s0_16(r, w, bpc, lo_only, got[0].data(), got[1].data(), got[2].data(), got[3].data());
            }
            for (int q = 0; q < (lo_only ? 1 : 4); ++q)
              ASSERT_EQ(got[q], want[q]) << "bpc " << bpc << " w " << w << " mode " << mode << " band " << q;
          }
  });
}

TEST_F(AdmSimd, CsfS0RowEqualsScalar) {
  std::mt19937 rng(12);
  each_target([&] {
    for (int w = 0; w <= 300; ++w)
      for (int mode = 0; mode < 3; ++mode)
        for (int t = 0; t < 3; ++t) {
          std::vector<std::int16_t> s(w + 4);
          fill(rng, s, mode);
          const std::int32_t factor = (mode == 1 && t == 2) ? 65535 : std::int32_t(rng() % 65536);
          std::vector<std::int16_t> wo(w + 4, 7), wf(w + 4, 7), go(w + 4, 7), gf(w + 4, 7);
          const int off = w % 3;  // unaligned starts
          ref_rows().csf_s0(s.data() + off, w, factor, vmafx_adm_s0_csf_round[t], vmafx_adm_s0_csf_shift[t],
                            wo.data() + off, wf.data() + off);
          simd_rows().csf_s0(s.data() + off, w, factor, vmafx_adm_s0_csf_round[t], vmafx_adm_s0_csf_shift[t],
                             go.data() + off, gf.data() + off);
          ASSERT_EQ(go, wo) << "w " << w << " mode " << mode;
          ASSERT_EQ(gf, wf) << "w " << w << " mode " << mode;
        }
  });
}

TEST_F(AdmSimd, CsfS123RowEqualsScalar) {
  std::mt19937 rng(13);
  each_target([&] {
    for (int w = 0; w <= 300; ++w)
      for (int mode = 0; mode < 3; ++mode) {
        std::vector<std::int32_t> s(w + 4);
        fill(rng, s, mode);
        const std::uint32_t factor = mode == 1 ? 0xFFFFFFFFu : std::uint32_t(rng());
        std::vector<std::int32_t> wo(w + 4, 7), wf(w + 4, 7), go(w + 4, 7), gf(w + 4, 7);
        const int off = w % 3;
        ref_rows().csf_s123(s.data() + off, w, factor, wo.data() + off, wf.data() + off);
        simd_rows().csf_s123(s.data() + off, w, factor, go.data() + off, gf.data() + off);
        ASSERT_EQ(go, wo) << "w " << w << " mode " << mode;
        ASSERT_EQ(gf, wf) << "w " << w << " mode " << mode;
      }
    // d = INT32_MIN (abs32 keeps it) and the largest products.
    const std::int32_t s[4] = {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(), -1,
                               1};
    for (std::uint32_t factor : {0xFFFFFFFFu, 0x80000000u, 0x10000000u, 1u}) {
      std::int32_t wo[4], wf[4], go[4], gf[4];
      ref_rows().csf_s123(s, 4, factor, wo, wf);
      simd_rows().csf_s123(s, 4, factor, go, gf);
      for (int j = 0; j < 4; ++j) {
        ASSERT_EQ(go[j], wo[j]) << factor << " " << j;
        ASSERT_EQ(gf[j], wf[j]) << factor << " " << j;
      }
    }
  });
}

TEST_F(AdmSimd, CmS0RowEqualsScalar) {
  std::mt19937 rng(14);
  each_target([&] {
    for (int w = 3; w <= 300; ++w)
      for (int mode = 0; mode < 3; ++mode) {
        // src (row i), then the masker's rows im, i, ip (3 bands each).
        std::vector<std::int16_t> buf[12];
        for (auto& b : buf) {
          b.resize(w);
          fill(rng, b, mode);
        }
        const std::int16_t* p[12];
        for (int q = 0; q < 12; ++q) p[q] = buf[q].data();
        adm::CmS0 k{};
        for (int t = 0; t < 3; ++t) {
          k.factor[t] = mode == 1 ? 65535 : std::int32_t(rng() % 65536);
          k.csf_add[t] = vmafx_adm_s0_csf_round[t];
          k.csf_shift[t] = vmafx_adm_s0_csf_shift[t];
          k.thr_shift[t] = vmafx_adm_s0_thr_shift[t];
          k.sq_round[t] = vmafx_adm_s0_sq_round[t];
          k.sq_shift[t] = vmafx_adm_s0_sq_shift[t];
          k.shift_cub[t] = int(rng() % 14);
          k.add_cub[t] = k.shift_cub[t] ? std::int64_t{1} << (k.shift_cub[t] - 1) : 0;
        }
        // Every [left, right) with 1 <= left <= right <= w - 1 for small w;
        // a few for larger ones.
        for (int left = 1; left <= w - 1; left += (w < 40 ? 1 : 7))
          for (int right = left; right <= w - 1; right += (w < 40 ? 1 : 11)) {
            std::int64_t want[3] = {5, -5, 0}, got[3] = {5, -5, 0};
            masking_row(ref_rows(), p, p + 3, p + 6, p + 9, w, left, right, k, want);
            masking_row(simd_rows(), p, p + 3, p + 6, p + 9, w, left, right, k, got);
            for (int t = 0; t < 3; ++t)
              ASSERT_EQ(got[t], want[t]) << "w " << w << " [" << left << ", " << right << ") mode " << mode << " band "
                                         << t;
          }
      }
  });
}

// decouple_s0: random bands (uniform, extremes +-32767 / -32768 / 0, small
// values with zeros), and reference bands with distorted ones nearly parallel
// (a gain in [-0.5, 3] times o plus +-1 noise, mostly within 1 degree: the
// angle branch and both gain-limit signs), for gain limits 100, 1 and 1.5.
TEST_F(AdmSimd, DecoupleS0RowEqualsScalar) {
  std::mt19937 rng(16);
  long limited = 0;
  each_target([&] {
    for (double egl : {100.0, 1.0, 1.5})
      for (int w = 0; w <= 300; ++w)
        for (int mode = 0; mode < 5; ++mode) {
          std::vector<std::int16_t> in[6], want[6], got[6];
          for (auto& v : in) {
            v.resize(w + 4);
            fill(rng, v, mode < 3 ? mode : 2);
          }
          if (mode == 1)  // extremes with zeros and +-32767
            for (auto& v : in)
              for (auto& x : v) {
                const std::uint32_t r = rng() % 5;
                x = r == 0 ? 0 : r == 1 ? 32767 : r == 2 ? -32767 : x;
              }
          if (mode >= 3) {  // t nearly parallel to o
            const int span = mode == 3 ? 32768 : 2000;
            for (std::size_t j = 0; j < in[0].size(); ++j) {
              const double g = -0.5 + 3.5 * (rng() % 1000) / 1000.0;
              for (int b = 0; b < 3; ++b) {
                const int o = int(rng() % (2 * span)) - span;
                in[b][j] = std::int16_t(std::clamp(o, -32768, 32767));
                const int t = int(g * in[b][j]) + int(rng() % 3) - 1;
                in[3 + b][j] = std::int16_t(std::clamp(t, -32768, 32767));
              }
            }
          }
          for (int q = 0; q < 6; ++q) {
            want[q].assign(w + 4, 7);
            got[q].assign(w + 4, 7);
          }
          const int off = w % 3;
          const std::int16_t* o3[3] = {in[0].data() + off, in[1].data() + off, in[2].data() + off};
          const std::int16_t* t3[3] = {in[3].data() + off, in[4].data() + off, in[5].data() + off};
          std::int16_t* wr[3] = {want[0].data() + off, want[1].data() + off, want[2].data() + off};
          std::int16_t* wa[3] = {want[3].data() + off, want[4].data() + off, want[5].data() + off};
          std::int16_t* gr[3] = {got[0].data() + off, got[1].data() + off, got[2].data() + off};
          std::int16_t* ga[3] = {got[3].data() + off, got[4].data() + off, got[5].data() + off};
          ref_rows().decouple_s0(o3, t3, w, div_lut().data(), adm::kCos1DegSq, egl, wr, wa);
          simd_rows().decouple_s0(o3, t3, w, div_lut().data(), adm::kCos1DegSq, egl, gr, ga);
          for (int q = 0; q < 6; ++q)
            ASSERT_EQ(got[q], want[q]) << "egl " << egl << " w " << w << " mode " << mode << " out " << q;
          // Coverage: the angle branch changed rst somewhere.
          for (int j = 0; j < w; ++j)
            for (int b = 0; b < 3; ++b) {
              const std::int16_t o = o3[b][j], t = t3[b][j];
              // rst without the gain limit (no angle flag)
              if (wr[b][j] != vmafx_adm_s0_restore(o, t, vmafx_adm_div(o), 0, egl)) ++limited;
            }
        }
  });
  EXPECT_GT(limited, 1000) << "the gain limit was rarely applied";
  // The 1-degree boundary: (h, v) pairs of o and t = 1.5 * o rotated by about
  // 1 degree, kept only where the float rounding of adm.cpp's dot products
  // decides the angle test (the test without it, in double, differs); d = the
  // same gain. With egl 100 the branch moves rst from o to t.
  {
    std::vector<std::int16_t> in[6];
    std::mt19937 rb(17);
    const double pi = 3.14159265358979323846;
    while (in[0].size() < 400) {
      const double a = 2 * pi * (rb() % 100000) / 100000.0;
      const double dl = (1.0 + ((rb() % 20001) / 10000.0 - 1.0) * 2e-3) * pi / 180;
      const double rr = 16000 + rb() % 16000;
      const int oh = int(std::lround(rr * std::cos(a))), ov = int(std::lround(rr * std::sin(a)));
      const int th = std::clamp(int(std::lround(1.5 * rr * std::cos(a + dl))), -32768, 32767);
      const int tv = std::clamp(int(std::lround(1.5 * rr * std::sin(a + dl))), -32768, 32767);
      const std::int64_t dp = std::int64_t{oh} * th + std::int64_t{ov} * tv;
      const std::int64_t om = std::int64_t{oh} * oh + std::int64_t{ov} * ov;
      const std::int64_t tm = std::int64_t{th} * th + std::int64_t{tv} * tv;
      const auto f = [](std::int64_t x) { return static_cast<double>(static_cast<float>(x)) / 4096.0; };
      const bool with_f = f(dp) >= 0 && f(dp) * f(dp) >= double(adm::kCos1DegSq) * f(om) * f(tm);
      const double ddp = double(dp) / 4096, dom = double(om) / 4096, dtm = double(tm) / 4096;
      const bool without = ddp >= 0 && ddp * ddp >= double(adm::kCos1DegSq) * dom * dtm;
      if (with_f == without) continue;
      const int od = int(rb() % 40000) - 20000;
      in[0].push_back(std::int16_t(oh));
      in[1].push_back(std::int16_t(ov));
      in[2].push_back(std::int16_t(od));
      in[3].push_back(std::int16_t(th));
      in[4].push_back(std::int16_t(tv));
      in[5].push_back(std::int16_t(std::clamp(od * 3 / 2, -32768, 32767)));
    }
    each_target([&] {
      const int w = int(in[0].size());
      for (double egl : {100.0, 1.5}) {
        std::vector<std::int16_t> want[6], got[6];
        for (int q = 0; q < 6; ++q) {
          want[q].assign(w, 7);
          got[q].assign(w, 7);
        }
        const std::int16_t* o3[3] = {in[0].data(), in[1].data(), in[2].data()};
        const std::int16_t* t3[3] = {in[3].data(), in[4].data(), in[5].data()};
        std::int16_t* wr[3] = {want[0].data(), want[1].data(), want[2].data()};
        std::int16_t* wa[3] = {want[3].data(), want[4].data(), want[5].data()};
        std::int16_t* gr[3] = {got[0].data(), got[1].data(), got[2].data()};
        std::int16_t* ga[3] = {got[3].data(), got[4].data(), got[5].data()};
        ref_rows().decouple_s0(o3, t3, w, div_lut().data(), adm::kCos1DegSq, egl, wr, wa);
        simd_rows().decouple_s0(o3, t3, w, div_lut().data(), adm::kCos1DegSq, egl, gr, ga);
        for (int q = 0; q < 6; ++q) ASSERT_EQ(got[q], want[q]) << "1-degree boundary, egl " << egl << " out " << q;
      }
    });
  }
  // Extreme single columns: every (o, t) in {-32768, -32767, -1, 0, 1, 32767}^2
  // per band pair, one column each.
  each_target([&] {
    const std::int16_t vals[] = {-32768, -32767, -1, 0, 1, 32767};
    std::vector<std::int16_t> in[6];
    for (int a : vals)
      for (int b : vals)
        for (int c : vals)
          for (int e : vals) {
            in[0].push_back(std::int16_t(a));
            in[1].push_back(std::int16_t(b));
            in[2].push_back(std::int16_t(c));
            in[3].push_back(std::int16_t(c == 0 ? a : e));
            in[4].push_back(std::int16_t(c == 0 ? b : -e));
            in[5].push_back(std::int16_t(e));
          }
    const int w = int(in[0].size());
    for (double egl : {100.0, 1.0, 1.5}) {
      std::vector<std::int16_t> want[6], got[6];
      for (int q = 0; q < 6; ++q) {
        want[q].assign(w, 7);
        got[q].assign(w, 7);
      }
      const std::int16_t* o3[3] = {in[0].data(), in[1].data(), in[2].data()};
      const std::int16_t* t3[3] = {in[3].data(), in[4].data(), in[5].data()};
      std::int16_t* wr[3] = {want[0].data(), want[1].data(), want[2].data()};
      std::int16_t* wa[3] = {want[3].data(), want[4].data(), want[5].data()};
      std::int16_t* gr[3] = {got[0].data(), got[1].data(), got[2].data()};
      std::int16_t* ga[3] = {got[3].data(), got[4].data(), got[5].data()};
      ref_rows().decouple_s0(o3, t3, w, div_lut().data(), adm::kCos1DegSq, egl, wr, wa);
      simd_rows().decouple_s0(o3, t3, w, div_lut().data(), adm::kCos1DegSq, egl, gr, ga);
      for (int q = 0; q < 6; ++q) ASSERT_EQ(got[q], want[q]) << "extremes, egl " << egl << " out " << q;
    }
  });
}

// The roundings and shifts of adm_tables.h that dwt_s123_row builds in (see
// adm_simd.cpp): vertical none at scale 1, (x + 2^15) >> 16 at scales 2 and 3;
// horizontal (x + 2^(s-1)) >> s with s 15 or 16; the low-pass taps sum to an
// even number, the high-pass ones to 0.
TEST(AdmSimdTables, S123DwtConstantsAsTheSimdRowsAssume) {
  EXPECT_EQ(vmafx_adm_s123_v_round[0], 0);
  EXPECT_EQ(vmafx_adm_s123_v_shift[0], 0);
  for (int s = 1; s < 3; ++s) {
    EXPECT_EQ(vmafx_adm_s123_v_round[s], 32768);
    EXPECT_EQ(vmafx_adm_s123_v_shift[s], 16);
  }
  for (int s = 0; s < 3; ++s) {
    const int hs = vmafx_adm_s123_h_shift[s];
    EXPECT_TRUE(hs == 15 || hs == 16);
    EXPECT_EQ(vmafx_adm_s123_h_round[s], 1 << (hs - 1));
  }
  int lo = 0, hi = 0, alo = 0, ahi = 0;
  for (int k = 0; k < 4; ++k) {
    lo += vmafx_adm_dwt_lo[k];
    hi += vmafx_adm_dwt_hi[k];
    alo += std::abs(vmafx_adm_dwt_lo[k]);
    ahi += std::abs(vmafx_adm_dwt_hi[k]);
    EXPECT_LT(std::abs(vmafx_adm_dwt_lo[k]), 32768);
    EXPECT_LT(std::abs(vmafx_adm_dwt_hi[k]), 32768);
  }
  EXPECT_EQ(lo, VMAFX_ADM_DWT_LO_SUM);
  EXPECT_EQ(lo % 2, 0);
  EXPECT_EQ(hi, 0);
  EXPECT_EQ(alo, 54822);
  EXPECT_EQ(ahi, 54822);
}

TEST_F(AdmSimd, DwtS123RowEqualsScalar) {
  std::mt19937 rng(21);
  each_target([&] {
    for (int w = 3; w <= 300; ++w)
      for (int mode = 0; mode < 3; ++mode) {
        const int hw = (w + 1) / 2;
        // Scale 1: int16 rows.
        {
          std::vector<std::int16_t> rows[4];
          for (auto& v : rows) {
            v.resize(w);
            fill(rng, v, mode);
          }
          const std::int16_t* r[4] = {rows[0].data(), rows[1].data(), rows[2].data(), rows[3].data()};
          std::vector<std::int32_t> want[4], got[4];
          for (int q = 0; q < 4; ++q) {
            want[q].assign(hw + 2, 7);
            got[q].assign(hw + 2, 7);
          }
          ref_rows().dwt_s123_16(r, w, 1, want[0].data(), want[1].data(), want[2].data(), want[3].data());
          simd_rows().dwt_s123_16(r, w, 1, got[0].data(), got[1].data(), got[2].data(), got[3].data());
          for (int q = 0; q < 4; ++q)
            ASSERT_EQ(got[q], want[q]) << "int16 w " << w << " mode " << mode << " band " << q;
        }
        // Scales 2 and 3: int32 rows (full range: the int64 sums' int32 casts wrap).
        for (int scale = 2; scale <= 3; ++scale) {
          std::vector<std::int32_t> rows[4];
          for (auto& v : rows) {
            v.resize(w);
            fill(rng, v, mode);
          }
          const std::int32_t* r[4] = {rows[0].data(), rows[1].data(), rows[2].data(), rows[3].data()};
          std::vector<std::int32_t> want[4], got[4];
          for (int q = 0; q < 4; ++q) {
            want[q].assign(hw + 2, 7);
            got[q].assign(hw + 2, 7);
          }
          ref_rows().dwt_s123_32(r, w, scale, want[0].data(), want[1].data(), want[2].data(), want[3].data());
          simd_rows().dwt_s123_32(r, w, scale, got[0].data(), got[1].data(), got[2].data(), got[3].data());
          for (int q = 0; q < 4; ++q)
            ASSERT_EQ(got[q], want[q]) << "int32 scale " << scale << " w " << w << " mode " << mode << " band " << q;
        }
      }
  });
}

// The int64 -> float rounding of the s123 angle test: every rounding case of
// large values (just below, at and above the float half-way points, where
// rounding through double first would differ), powers of two, the extremes,
// and random values of every magnitude.
TEST_F(AdmSimd, FloatOfInt64EqualsCast) {
  std::vector<std::int64_t> xs = {0,
                                  1,
                                  -1,
                                  std::numeric_limits<std::int64_t>::min(),
                                  std::numeric_limits<std::int64_t>::max(),
                                  std::numeric_limits<std::int64_t>::min() + 1};
  for (int e = 24; e <= 62; ++e) {
    const std::int64_t f = std::int64_t{1} << e;            // a float with an even mantissa
    const std::int64_t half = std::int64_t{1} << (e - 24);  // half a float ulp above 2^e
    for (const std::int64_t base : {f, f + 2 * half /* odd mantissa */, f + 6 * half})
      for (std::int64_t dx : {-2, -1, 0, 1, 2})
        for (const std::int64_t x : {base + half + dx, base + half + dx * 1024, base + half - (half >> 20) + dx}) {
          xs.push_back(x);
          xs.push_back(-x);
        }
  }
  std::mt19937_64 rng(22);
  for (int k = 0; k < 20000; ++k) {
    const int sh = int(rng() % 64);
    xs.push_back(static_cast<std::int64_t>(rng() >> sh) * ((rng() & 1) ? 1 : -1));
  }
  // Doubles would round some of them wrongly: make sure those are covered.
  int double_rounding_differs = 0;
  for (const std::int64_t x : xs)
    if (static_cast<float>(static_cast<double>(x)) != static_cast<float>(x)) ++double_rounding_differs;
  ASSERT_GT(double_rounding_differs, 50);
  each_target([&] {
    std::vector<float> got(xs.size());
    adm::simd::float_of_int64(xs.data(), int(xs.size()), got.data());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const float want = static_cast<float>(xs[i]);
      ASSERT_EQ(std::memcmp(&got[i], &want, sizeof want), 0) << xs[i] << " " << got[i] << " " << want;
    }
  });
}

// decouple_s123: int32 bands, uniform / extremes / small, and distorted
// bands nearly parallel to the reference at several magnitudes (the angle
// branch, both gain-limit signs, best15's shifts), for gain limits 100, 1, 1.5.
TEST_F(AdmSimd, DecoupleS123RowEqualsScalar) {
  std::mt19937 rng(23);
  long limited = 0, shifted = 0;
  const std::int32_t kMin = std::numeric_limits<std::int32_t>::min(), kMax = std::numeric_limits<std::int32_t>::max();
  const std::int32_t special[] = {kMin,  kMin + 1, -65536, -32769, -32768, -32767,  -1,       0,   1,
                                  32767, 32768,    32769,  65535,  65536,  1 << 30, kMax - 1, kMax};
  each_target([&] {
    for (double egl : {100.0, 1.0, 1.5})
      for (int w = 0; w <= 300; ++w)
        for (int mode = 0; mode < 7; ++mode) {
          std::vector<std::int32_t> in[6], want[6], got[6];
          for (auto& v : in) {
            v.resize(w + 4);
            fill(rng, v, mode < 3 ? mode : 2);
          }
          if (mode == 1)
            for (auto& v : in)
              for (auto& x : v) x = special[rng() % std::size(special)];
          if (mode >= 3) {  // t nearly parallel to o, |o| up to 2^10, 2^17, 2^24, 2^31
            const int bits = mode == 3 ? 10 : mode == 4 ? 17 : mode == 5 ? 24 : 31;
            for (std::size_t j = 0; j < in[0].size(); ++j) {
              const double g = -0.5 + 3.5 * (rng() % 1000) / 1000.0;
              for (int b = 0; b < 3; ++b) {
                const std::int64_t span = std::int64_t{1} << (bits - 1);
                const std::int64_t o = std::int64_t(rng() % std::uint64_t(2 * span)) - span;
                in[b][j] = std::int32_t(std::clamp<std::int64_t>(o, kMin, kMax));
                const double t = g * in[b][j] + double(int(rng() % 3) - 1);
                in[3 + b][j] = std::int32_t(std::clamp<double>(std::trunc(t), kMin, kMax));
              }
            }
          }
          for (int q = 0; q < 6; ++q) {
            want[q].assign(w + 4, 7);
            got[q].assign(w + 4, 7);
          }
          const int off = w % 3;
          const std::int32_t* o3[3] = {in[0].data() + off, in[1].data() + off, in[2].data() + off};
          const std::int32_t* t3[3] = {in[3].data() + off, in[4].data() + off, in[5].data() + off};
          std::int32_t* wr[3] = {want[0].data() + off, want[1].data() + off, want[2].data() + off};
          std::int32_t* wa[3] = {want[3].data() + off, want[4].data() + off, want[5].data() + off};
          std::int32_t* gr[3] = {got[0].data() + off, got[1].data() + off, got[2].data() + off};
          std::int32_t* ga[3] = {got[3].data() + off, got[4].data() + off, got[5].data() + off};
          ref_rows().decouple_s123(o3, t3, w, adm::kCos1DegSq, egl, wr, wa);
          simd_rows().decouple_s123(o3, t3, w, adm::kCos1DegSq, egl, gr, ga);
          for (int q = 0; q < 6; ++q)
            ASSERT_EQ(got[q], want[q]) << "egl " << egl << " w " << w << " mode " << mode << " out " << q;
          for (int j = 0; j < w; ++j)
            for (int b = 0; b < 3; ++b) {
              int shift = 0;
              const std::int32_t idx = vmafx_adm_s123_div_index(o3[b][j], &shift);
              // rst without the gain limit (no angle flag)
              if (want[b][j + off] != vmafx_adm_s123_restore(o3[b][j], t3[b][j], vmafx_adm_div(idx), shift, 0, egl))
                ++limited;
              if (std::abs(std::int64_t{o3[b][j]}) >= 32768) ++shifted;
            }
        }
  });
  EXPECT_GT(limited, 1000) << "the gain limit was rarely applied";
  EXPECT_GT(shifted, 1000);
  // Columns at the 1-degree boundary: (h, v) of o of magnitude 2^19 .. 2^30
  // (then 2^19 .. 2^24, where the SIMD rows take their double-product path:
  // every value of a vector below 2^26) and t = 1.5 o rotated by about 1
  // degree, kept where the float rounding of the int64 dot products decides
  // the angle test.
  for (const int span : {11, 6}) {
    std::vector<std::int32_t> in[6];
    std::mt19937 rb(24 + span);
    const double pi = 3.14159265358979323846;
    int tries = 0;
    while (in[0].size() < 300 && ++tries < 50000000) {
      const double a = 2 * pi * (rb() % 100000) / 100000.0;
      const double dl = (1.0 + ((rb() % 20001) / 10000.0 - 1.0) * 2e-3) * pi / 180;
      const double rr = std::ldexp(1.0 + (rb() % 1000) / 1000.0, 19 + int(rb() % span));
      const auto cl = [](double v) { return std::int32_t(std::clamp(std::llround(v), -2147483647LL, 2147483647LL)); };
      const std::int32_t oh = cl(rr * std::cos(a)), ov = cl(rr * std::sin(a));
      const std::int32_t th = cl(1.5 * rr * std::cos(a + dl)), tv = cl(1.5 * rr * std::sin(a + dl));
      const std::int64_t dp = std::int64_t{oh} * th + std::int64_t{ov} * tv;
      const std::int64_t om = std::int64_t{oh} * oh + std::int64_t{ov} * ov;
      const std::int64_t tm = std::int64_t{th} * th + std::int64_t{tv} * tv;
      const bool with_f = vmafx_adm_angle_ok(dp, om, tm, adm::kCos1DegSq);
      const double ddp = double(dp) / 4096, dom = double(om) / 4096, dtm = double(tm) / 4096;
      const bool without = ddp >= 0 && ddp * ddp >= double(adm::kCos1DegSq) * dom * dtm;
      if (with_f == without) continue;
      const std::int32_t od = std::int32_t(rb() % 40000000) - 20000000;
      in[0].push_back(oh);
      in[1].push_back(ov);
      in[2].push_back(od);
      in[3].push_back(th);
      in[4].push_back(tv);
      in[5].push_back(od / 2 * 3);
    }
    ASSERT_GE(in[0].size(), 100u);
    each_target([&] {
      const int w = int(in[0].size());
      for (double egl : {100.0, 1.5}) {
        std::vector<std::int32_t> want[6], got[6];
        for (int q = 0; q < 6; ++q) {
          want[q].assign(w, 7);
          got[q].assign(w, 7);
        }
        const std::int32_t* o3[3] = {in[0].data(), in[1].data(), in[2].data()};
        const std::int32_t* t3[3] = {in[3].data(), in[4].data(), in[5].data()};
        std::int32_t* wr[3] = {want[0].data(), want[1].data(), want[2].data()};
        std::int32_t* wa[3] = {want[3].data(), want[4].data(), want[5].data()};
        std::int32_t* gr[3] = {got[0].data(), got[1].data(), got[2].data()};
        std::int32_t* ga[3] = {got[3].data(), got[4].data(), got[5].data()};
        ref_rows().decouple_s123(o3, t3, w, adm::kCos1DegSq, egl, wr, wa);
        simd_rows().decouple_s123(o3, t3, w, adm::kCos1DegSq, egl, gr, ga);
        for (int q = 0; q < 6; ++q) ASSERT_EQ(got[q], want[q]) << "1-degree boundary, egl " << egl << " out " << q;
      }
    });
  }
  // Every (o, t) pair of the special values, one column each (h, v, d the same).
  each_target([&] {
    std::vector<std::int32_t> in[6];
    for (std::int32_t a : special)
      for (std::int32_t b : special)
        for (std::int32_t c : {kMin, -1, 0, 1, kMax}) {
          in[0].push_back(a);
          in[1].push_back(c);
          in[2].push_back(a);
          in[3].push_back(b);
          in[4].push_back(c == 0 ? b : std::int32_t(0u - std::uint32_t(c)));
          in[5].push_back(b);
        }
    const int w = int(in[0].size());
    for (double egl : {100.0, 1.0, 1.5}) {
      std::vector<std::int32_t> want[6], got[6];
      for (int q = 0; q < 6; ++q) {
        want[q].assign(w, 7);
        got[q].assign(w, 7);
      }
      const std::int32_t* o3[3] = {in[0].data(), in[1].data(), in[2].data()};
      const std::int32_t* t3[3] = {in[3].data(), in[4].data(), in[5].data()};
      std::int32_t* wr[3] = {want[0].data(), want[1].data(), want[2].data()};
      std::int32_t* wa[3] = {want[3].data(), want[4].data(), want[5].data()};
      std::int32_t* gr[3] = {got[0].data(), got[1].data(), got[2].data()};
      std::int32_t* ga[3] = {got[3].data(), got[4].data(), got[5].data()};
      ref_rows().decouple_s123(o3, t3, w, adm::kCos1DegSq, egl, wr, wa);
      simd_rows().decouple_s123(o3, t3, w, adm::kCos1DegSq, egl, gr, ga);
      for (int q = 0; q < 6; ++q) ASSERT_EQ(got[q], want[q]) << "extremes, egl " << egl << " out " << q;
    }
  });
}

TEST_F(AdmSimd, CmS123RowEqualsScalar) {
  std::mt19937 rng(25);
  each_target([&] {
    for (int w = 3; w <= 300; ++w)
      for (int mode = 0; mode < 3; ++mode) {
        std::vector<std::int32_t> buf[12];
        for (auto& b : buf) {
          b.resize(w);
          fill(rng, b, mode);
        }
        if (mode == 2)  // small maskers, larger bands: x above the threshold
          for (int q = 0; q < 3; ++q)
            for (auto& x : buf[q]) x = std::int32_t(rng() % 2000001) - 1000000;
        const std::int32_t* p[12];
        for (int q = 0; q < 12; ++q) p[q] = buf[q].data();
        adm::CmS123 k{};
        for (int t = 0; t < 3; ++t) k.factor[t] = mode == 1 ? 0xFFFFFFFFu : std::uint32_t(rng());
        k.shift_cub = int(rng() % 14);
        k.add_cub = k.shift_cub ? std::int64_t{1} << (k.shift_cub - 1) : 0;
        for (int left = 1; left <= w - 1; left += (w < 40 ? 1 : 7))
          for (int right = left; right <= w - 1; right += (w < 40 ? 1 : 11)) {
            std::int64_t want[3] = {5, -5, 0}, got[3] = {5, -5, 0};
            masking_row(ref_rows(), p, p + 3, p + 6, p + 9, w, left, right, k, want);
            masking_row(simd_rows(), p, p + 3, p + 6, p + 9, w, left, right, k, got);
            for (int t = 0; t < 3; ++t)
              ASSERT_EQ(got[t], want[t]) << "w " << w << " [" << left << ", " << right << ") mode " << mode << " band "
                                         << t;
          }
      }
  });
}

// cm_box of both tables against its definition (the reference CSF rows of
// the masker, summed, and the centre weights of exact/adm.h), both input
// types, every [lo, hi).
TEST_F(AdmSimd, CmBoxRowEqualsSums) {
  std::mt19937 rng(27);
  each_target([&] {
    for (int w = 3; w <= 140; ++w)
      for (int mode = 0; mode < 3; ++mode) {
        std::vector<std::int16_t> m16[3], d16[3], f16[3];
        std::vector<std::int32_t> m32[3], d32[3], f32[3];
        adm::CmS0 k0{};
        adm::CmS123 k1{};
        for (int t = 0; t < 3; ++t) {
          m16[t].resize(w);
          m32[t].resize(w);
          f16[t].resize(w);
          f32[t].resize(w);
          d16[t].resize(w);
          d32[t].resize(w);
          fill(rng, m16[t], mode);
          fill(rng, m32[t], mode);
          k0.factor[t] = mode == 1 ? 65535 : std::int32_t(rng() % 65536);
          k0.csf_add[t] = vmafx_adm_s0_csf_round[t];
          k0.csf_shift[t] = vmafx_adm_s0_csf_shift[t];
          k1.factor[t] = mode == 1 ? 0xFFFFFFFFu : std::uint32_t(rng());
          ref_rows().csf_s0(m16[t].data(), w, k0.factor[t], k0.csf_add[t], k0.csf_shift[t], d16[t].data(),
                            f16[t].data());
          ref_rows().csf_s123(m32[t].data(), w, k1.factor[t], d32[t].data(), f32[t].data());
        }
        const std::int16_t* p16[3] = {m16[0].data(), m16[1].data(), m16[2].data()};
        const std::int32_t* p32[3] = {m32[0].data(), m32[1].data(), m32[2].data()};
        for (int lo = 1; lo <= w - 1; lo += (w < 40 ? 1 : 5))
          for (int hi = lo; hi <= w - 1; hi += (w < 40 ? 1 : 3)) {
            for (int type = 0; type < 2; ++type) {
              std::vector<std::int32_t> wf(w, 7), wh(w, 7), wz(w, 7);
              const auto at = [&](int t, int j) {
                return type == 0 ? std::uint32_t(std::int32_t(f16[t][j])) : std::uint32_t(f32[t][j]);
              };
              // The centre weights of the CSF-weighted masker.
              const auto centre = [&](int t, int j) {
                return std::uint32_t(type == 0 ? vmafx_adm_s0_centre(d16[t][j]) : vmafx_adm_s123_centre(d32[t][j]));
              };
              if (hi > lo) {
                for (int j = lo - 1; j < hi + 1; ++j) {
                  wf[j] = std::int32_t(at(0, j) + at(1, j) + at(2, j));
                  wz[j] = std::int32_t(centre(0, j) + centre(1, j) + centre(2, j) - std::uint32_t(wf[j]));
                }
                for (int j = lo; j < hi; ++j)
                  wh[j] = std::int32_t(std::uint32_t(wf[j - 1]) + std::uint32_t(wf[j]) + std::uint32_t(wf[j + 1]));
              }
              for (const adm::Rows* R : {&ref_rows(), &simd_rows()}) {
                std::vector<std::int32_t> F(w, 7), H(w, 7), Z(w, 7);
                if (type == 0)
                  R->cm_box_s0(p16, k0, lo, hi, F.data(), H.data(), Z.data());
                else
                  R->cm_box_s123(p32, k1, lo, hi, F.data(), H.data(), Z.data());
                const char* which = R == &ref_rows() ? "scalar" : "simd";
                ASSERT_EQ(F, wf) << which << " w " << w << " [" << lo << ", " << hi << ") type " << type;
                ASSERT_EQ(Z, wz) << which << " w " << w << " [" << lo << ", " << hi << ") type " << type;
                ASSERT_EQ(H, wh) << which << " w " << w << " [" << lo << ", " << hi << ") type " << type;
              }
            }
          }
      }
  });
}

TEST_F(AdmSimd, DenRowsEqualScalar) {
  std::mt19937 rng(26);
  each_target([&] {
    for (int w = 0; w <= 300; ++w)
      for (int mode = 0; mode < 3; ++mode) {
        const int off = w % 3;
        std::vector<std::int16_t> b16[3];
        std::vector<std::int32_t> b32[3];
        for (int t = 0; t < 3; ++t) {
          b16[t].resize(w + 4);
          b32[t].resize(w + 4);
          fill(rng, b16[t], mode);
          fill(rng, b32[t], mode);
        }
        const std::int16_t* p16[3] = {b16[0].data() + off, b16[1].data() + off, b16[2].data() + off};
        const std::int32_t* p32[3] = {b32[0].data() + off, b32[1].data() + off, b32[2].data() + off};
        std::uint64_t want[3] = {1, 2, 3}, got[3] = {1, 2, 3};
        ref_rows().den_s0(p16, w, want);
        simd_rows().den_s0(p16, w, got);
        for (int t = 0; t < 3; ++t) ASSERT_EQ(got[t], want[t]) << "s0 w " << w << " mode " << mode;
        for (int sq : {30, 31}) {
          const int shift_cub = int(rng() % 12);
          for (std::uint64_t add_cub :
               {shift_cub ? std::uint64_t{1} << (shift_cub - 1) : 0, std::uint64_t{0}, std::uint64_t(rng())}) {
            std::uint64_t w3[3] = {0, 7, ~std::uint64_t{0}}, g3[3] = {0, 7, ~std::uint64_t{0}};
            ref_rows().den_s123(p32, w, sq, add_cub, shift_cub, w3);
            simd_rows().den_s123(p32, w, sq, add_cub, shift_cub, g3);
            for (int t = 0; t < 3; ++t) ASSERT_EQ(g3[t], w3[t]) << "s123 w " << w << " mode " << mode << " sq " << sq;
          }
        }
      }
  });
}

// Whole frames: adm::compute with the SIMD path off (the scalar rows) and on,
// on every target; every score bit-equal.
TEST_F(AdmSimd, WholeFramesEqualScalar) {
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{33, 33}, {37, 41}, {64, 48}, {131, 70}, {176, 144}, {301, 35}, {352, 288}, {517, 301}};
  std::mt19937 rng(15);
  struct Case {
    int w, h, bpc;
    adm::Params p;
    std::vector<std::uint16_t> r, d;
  };
  std::vector<Case> cases;
  int n = 0;
  for (const Size& sz : sizes)
    for (int bpc : {8, 10, 12, 16})
      for (int kind = 0; kind < 3; ++kind) {
        Case cs{sz.w, sz.h, bpc, {}, {}, {}};
        cs.p.skip_scale0 = (n % 7 == 6);
        cs.p.skip_aim = (n % 5 == 4);
        cs.p.enhn_gain_limit = (n % 3 == 1) ? 1.0 : (n % 3 == 2 && n % 2) ? 1.5 : 100.0;
        if (n % 4 == 3) {  // vmaf_v1.0.16_1d5h_2160's options
          cs.p.csf_mode = 2;
          cs.p.norm_view_dist = 1.5;
          cs.p.ref_display_height = 2160;
          cs.p.noise_weight = 0.02;
          cs.p.dlm_weight = 0.7;
          cs.p.min_val = 0.5;
        } else if (n % 4 == 1 && n % 3 != 1) {  // Barten CSF, scaled (factors far from the default's)
          cs.p.csf_mode = 1;
          cs.p.csf_scale = 3.5;
          cs.p.csf_diag_scale = 0.25;
          cs.p.norm_view_dist = 5.0;
        } else if (n % 10 == 2) {  // the MAE-fit blend
          cs.p.csf_mode = 3;
          cs.p.noise_weight = 0.5;
        }
        ++n;
        const std::size_t np = std::size_t(sz.w) * sz.h;
        cs.r.resize(np);
        cs.d.resize(np);
        const std::uint32_t maxv = (1u << bpc) - 1;
        for (int y = 0; y < sz.h; ++y)
          for (int x = 0; x < sz.w; ++x) {
            const std::size_t i = std::size_t(y) * sz.w + x;
            std::uint32_t r, d;
            if (kind == 0) {  // smooth + noise, distorted by noise and a gain
              const std::uint32_t base = ((x * 7 + y * 3) % 97) * maxv / 96;
              r = std::min(maxv, base + std::uint32_t(rng()) % (maxv / 8 + 1));
              d = (y % 4 == 0) ? std::min(maxv, 2 * r / 3 + std::uint32_t(rng()) % (maxv / 4 + 1))
                               : std::min(maxv, r + std::uint32_t(rng()) % (maxv / 16 + 1));
            } else if (kind == 1) {  // full-range noise: int16 truncations, wraps
              r = std::uint32_t(rng()) & maxv;
              d = std::uint32_t(rng()) & maxv;
            } else {  // 0 / max checkerboards
              r = ((x + y) & 1) ? maxv : 0;
              d = ((x / 2 + y) & 1) ? maxv : 0;
            }
            cs.r[i] = std::uint16_t(r);
            cs.d[i] = std::uint16_t(d);
          }
        cases.push_back(std::move(cs));
      }
  const auto run = [](const Case& cs) {
    std::vector<std::uint8_t> r8(cs.r.begin(), cs.r.end()), d8(cs.d.begin(), cs.d.end());
    const int bytes = cs.bpc == 8 ? 1 : 2;
    const PlaneView rv{cs.bpc == 8 ? r8.data() : reinterpret_cast<const std::uint8_t*>(cs.r.data()), cs.w * bytes, cs.w,
                       cs.h};
    const PlaneView dv{cs.bpc == 8 ? d8.data() : reinterpret_cast<const std::uint8_t*>(cs.d.data()), cs.w * bytes, cs.w,
                       cs.h};
    return adm::compute(rv, dv, cs.bpc, cs.p, adm::csf_factors(cs.p));
  };
  const auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  vs::set_enabled(false);
  std::vector<adm::Scores> want;
  for (const Case& cs : cases) want.push_back(run(cs));
  vs::set_enabled(true);
  each_target([&] {
    ASSERT_TRUE(vs::enabled());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const adm::Scores got = run(cases[i]);
      const adm::Scores& w = want[i];
      SCOPED_TRACE(testing::Message() << cases[i].w << "x" << cases[i].h << " bpc " << cases[i].bpc << " case " << i);
      EXPECT_TRUE(same(got.adm2, w.adm2)) << got.adm2 << " " << w.adm2;
      EXPECT_TRUE(same(got.aim, w.aim)) << got.aim << " " << w.aim;
      EXPECT_TRUE(same(got.adm3, w.adm3));
      EXPECT_TRUE(same(got.num, w.num));
      EXPECT_TRUE(same(got.den, w.den));
      for (int s = 0; s < 4; ++s) {
        EXPECT_TRUE(same(got.num_scale[s], w.num_scale[s])) << "scale " << s;
        EXPECT_TRUE(same(got.den_scale[s], w.den_scale[s])) << "scale " << s;
      }
    }
  });
  vs::set_enabled(false);
  vs::reset_enabled();
}

}  // namespace
}  // namespace vmafx
