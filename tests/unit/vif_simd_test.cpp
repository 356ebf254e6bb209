// The SIMD row passes of the integer VIF (feature/vif_simd.cpp) against the
// scalar loops of feature/vif.cpp, for == on every integer: each row function
// on random rows (every filter width, bit depths 8/10/12/16, widths 1..300 so
// that every row-end case of every vector width is hit, full-range inputs
// where vif.cpp's 32-bit sums wrap), on every SIMD target this CPU runs; and
// whole planes through compute_scales with the SIMD path off and on.
// Without Highway (or on a CPU without a SIMD target) the tests skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "feature/vif.hpp"
#include "feature/vif_simd.hpp"
#include "feature/vif_tables.h"
#include "simd_targets.hpp"

namespace vmafx {
namespace {

namespace simd = vif::simd;

constexpr int kTaps[4] = {17, 9, 5, 3};
constexpr int kPad = 8;

// vif.cpp's vertical_shift().
simd::Shift shift_of(int scale, int bpc) {
  if (scale == 0) {
    const int sq = 2 * (bpc - 8);
    return {1u << (bpc - 1), bpc, sq ? std::uint64_t{1} << (sq - 1) : 0, sq};
  }
  return {32768u, 16, 32768u, 16};
}

// ---------------------------------------------------------------------------
// The scalar row loops, as statistic<T, TAPS> and subsample<T, TAPS> in
// vif.cpp write them (runtime taps; the integer types are the same).
template <class T>
void ref_stat_vertical(const std::vector<std::vector<T>>& rr, const std::vector<std::vector<T>>& dr,
                       const std::uint16_t* c, int taps, int w, const simd::Shift& vs,
                       std::vector<std::uint32_t> (&t)[5]) {
  for (int j = 0; j < w; ++j) {
    std::uint32_t mu1 = 0, mu2 = 0;
    std::uint64_t xx = 0, yy = 0, xy = 0;
    for (int k = 0; k < taps; ++k) {
      const std::uint32_t a = rr[k][j], b = dr[k][j];
      const std::uint32_t ca = c[k] * a, cb = c[k] * b;
      mu1 += ca;
      mu2 += cb;
      xx += std::uint64_t{ca} * a;
      yy += std::uint64_t{cb} * b;
      xy += std::uint64_t{ca} * b;
    }
    t[0][j] = std::uint16_t((mu1 + vs.mu_round) >> vs.mu_shift);
    t[1][j] = std::uint16_t((mu2 + vs.mu_round) >> vs.mu_shift);
    t[2][j] = std::uint32_t((xx + vs.sq_round) >> vs.sq_shift);
    t[3][j] = std::uint32_t((yy + vs.sq_round) >> vs.sq_shift);
    t[4][j] = std::uint32_t((xy + vs.sq_round) >> vs.sq_shift);
  }
}

// t[q] points at column 0 of a row padded by taps/2 each side.
void ref_stat_horizontal(const std::uint32_t* const* t, const std::uint16_t* c, int taps, int w,
                         std::vector<std::int32_t> (&out)[3]) {
  const int half = taps / 2;
  for (int j = 0; j < w; ++j) {
    std::uint32_t mu1 = 0, mu2 = 0;
    std::uint64_t xx = 0, yy = 0, xy = 0;
    for (int k = 0; k < taps; ++k) {
      const int x = j - half + k;
      mu1 += c[k] * t[0][x];
      mu2 += c[k] * t[1][x];
      xx += std::uint64_t{c[k]} * t[2][x];
      yy += std::uint64_t{c[k]} * t[3][x];
      xy += std::uint64_t{c[k]} * t[4][x];
    }
    const auto sq = [](std::uint32_t a, std::uint32_t b) {
      return std::uint32_t((std::uint64_t{a} * b + 0x80000000u) >> 32);
    };
    const std::uint32_t xx_f = std::uint32_t((xx + 32768) >> 16);
    const std::uint32_t yy_f = std::uint32_t((yy + 32768) >> 16);
    const std::uint32_t xy_f = std::uint32_t((xy + 32768) >> 16);
    out[0][j] = std::int32_t(xx_f - sq(mu1, mu1));
    out[1][j] = std::int32_t(yy_f - sq(mu2, mu2));
    out[2][j] = std::int32_t(xy_f - sq(mu1, mu2));
  }
}

template <class T>
void ref_sub_vertical(const std::vector<std::vector<T>>& rr, const std::vector<std::vector<T>>& dr,
                      const std::uint16_t* c, int taps, int w, std::uint32_t mu_round, int mu_shift,
                      std::vector<std::uint32_t>& t_ref, std::vector<std::uint32_t>& t_dis) {
  for (int j = 0; j < w; ++j) {
    std::uint32_t a = 0, b = 0;
    for (int k = 0; k < taps; ++k) {
      a += c[k] * std::uint32_t{rr[k][j]};
      b += c[k] * std::uint32_t{dr[k][j]};
    }
    t_ref[j] = std::uint16_t((a + mu_round) >> mu_shift);
    t_dis[j] = std::uint16_t((b + mu_round) >> mu_shift);
  }
}

void ref_sub_horizontal(const std::uint32_t* t_ref, const std::uint32_t* t_dis, const std::uint16_t* c,
                        int taps, int ow, std::vector<std::uint16_t>& o_ref,
                        std::vector<std::uint16_t>& o_dis) {
  const int half = taps / 2;
  for (int jo = 0; jo < ow; ++jo) {
    const int j = 2 * jo;
    std::uint32_t a = 0, b = 0;
    for (int k = 0; k < taps; ++k) {
      a += c[k] * t_ref[j - half + k];
      b += c[k] * t_dis[j - half + k];
    }
    o_ref[jo] = std::uint16_t((a + 32768) >> 16);
    o_dis[jo] = std::uint16_t((b + 32768) >> 16);
  }
}

// ---------------------------------------------------------------------------
// Runs body() once per SIMD target (dispatch pinned to it), restoring the
// normal choice afterwards; skips when there is none.
class VifSimd : public test::SimdTargets {};

// Rows of random samples below 2^bits, each its own exact-size allocation.
template <class T>
std::vector<std::vector<T>> random_rows(std::mt19937& rng, int n, int w, int bits) {
  std::vector<std::vector<T>> rows(n, std::vector<T>(w));
  const std::uint32_t mask = (std::uint32_t{1} << bits) - 1;
  for (auto& r : rows)
    for (auto& v : r) v = T(rng() & mask);
  return rows;
}

template <class T>
std::vector<const T*> pointers(const std::vector<std::vector<T>>& rows) {
  std::vector<const T*> p;
  for (const auto& r : rows) p.push_back(r.data());
  return p;
}

// The statistic's vertical pass. bits = the sample range: bpc at scale 0, 16
// at later scales (16-bit means).
template <class T>
void check_stat_vertical(std::mt19937& rng, int scale, int taps, int bpc, int bits, int w) {
  const std::uint16_t* c = vmafx_vif_filter[scale];
  const simd::Shift vs = shift_of(scale, bpc);
  const auto rr = random_rows<T>(rng, taps, w, bits);
  const auto dr = random_rows<T>(rng, taps, w, bits);
  std::vector<std::uint32_t> want[5], got[5];
  std::uint32_t* gp[5];
  for (int q = 0; q < 5; ++q) {
    want[q].assign(w, 0);
    got[q].assign(w, 0xDEADBEEF);
    gp[q] = got[q].data();
  }
  ref_stat_vertical(rr, dr, c, taps, w, vs, want);
  simd::stat_vertical(pointers(rr).data(), pointers(dr).data(), c, taps, w, vs, gp);
  for (int q = 0; q < 5; ++q)
    ASSERT_EQ(got[q], want[q]) << "quantity " << q << " taps " << taps << " bpc " << bpc << " w " << w;
}

template <class T>
void check_sub_vertical(std::mt19937& rng, int from, int bpc, int bits, int w) {
  const int taps = kTaps[from + 1];
  const std::uint16_t* c = vmafx_vif_filter[from + 1];
  const simd::Shift vs = shift_of(from, bpc);
  const auto rr = random_rows<T>(rng, taps, w, bits);
  const auto dr = random_rows<T>(rng, taps, w, bits);
  std::vector<std::uint32_t> wr(w), wd(w), gr(w, 0xDEADBEEF), gd(w, 0xDEADBEEF);
  ref_sub_vertical(rr, dr, c, taps, w, vs.mu_round, vs.mu_shift, wr, wd);
  simd::sub_vertical(pointers(rr).data(), pointers(dr).data(), c, taps, w, vs.mu_round, vs.mu_shift,
                     gr.data(), gd.data());
  ASSERT_EQ(gr, wr) << "from " << from << " bpc " << bpc << " w " << w;
  ASSERT_EQ(gd, wd) << "from " << from << " bpc " << bpc << " w " << w;
}

TEST_F(VifSimd, StatVerticalEqualsScalar) {
  each_target([] {
    std::mt19937 rng(1);
    for (int w = 1; w <= 300; ++w) {
      // 8-bit video: scale 0 only (the only place 8-bit samples are filtered);
      // every filter width for the row-end cases.
      for (int s = 0; s < 4; ++s) {
        const simd::Shift vs = shift_of(0, 8);
        const int taps = kTaps[s];
        const std::uint16_t* c = vmafx_vif_filter[s];
        const auto rr = random_rows<std::uint8_t>(rng, taps, w, 8);
        const auto dr = random_rows<std::uint8_t>(rng, taps, w, 8);
        std::vector<std::uint32_t> want[5], got[5];
        std::uint32_t* gp[5];
        for (int q = 0; q < 5; ++q) {
          want[q].assign(w, 0);
          got[q].assign(w, 0xDEADBEEF);
          gp[q] = got[q].data();
        }
        ref_stat_vertical(rr, dr, c, taps, w, vs, want);
        simd::stat_vertical(pointers(rr).data(), pointers(dr).data(), c, taps, w, vs, gp);
        for (int q = 0; q < 5; ++q) ASSERT_EQ(got[q], want[q]) << "8-bit q " << q << " taps " << taps << " w " << w;
      }
      for (int bpc : {10, 12, 16}) check_stat_vertical<std::uint16_t>(rng, 0, 17, bpc, bpc, w);
      // Later scales: 16-bit means, any bit depth's shifts are the same.
      for (int s = 1; s < 4; ++s) check_stat_vertical<std::uint16_t>(rng, s, kTaps[s], 8, 16, w);
    }
  });
}

TEST_F(VifSimd, StatHorizontalEqualsScalar) {
  each_target([] {
    std::mt19937 rng(2);
    for (int w = 1; w <= 300; ++w)
      for (int s = 0; s < 4; ++s) {
        const int taps = kTaps[s];
        const std::uint16_t* c = vmafx_vif_filter[s];
        // Padded rows, arbitrary uint32 (wider than the pipeline ever makes
        // them: the 32-bit mean sums and the sigma differences wrap). Every
        // third row uses realistic ranges (16-bit means) instead.
        std::vector<std::uint32_t> rows[5];
        const std::uint32_t* tp[5];
        for (int q = 0; q < 5; ++q) {
          rows[q].resize(std::size_t(w) + 2 * kPad);
          for (auto& v : rows[q]) v = (w % 3 == 0 && q < 2) ? (rng() & 0xFFFF) : std::uint32_t(rng());
          tp[q] = rows[q].data() + kPad;
        }
        std::vector<std::int32_t> want[3], got[3];
        for (int q = 0; q < 3; ++q) {
          want[q].assign(w, 0);
          got[q].assign(w, 0x5A5A5A5A);
        }
        ref_stat_horizontal(tp, c, taps, w, want);
        simd::stat_horizontal(tp, c, taps, w, got[0].data(), got[1].data(), got[2].data());
        for (int q = 0; q < 3; ++q) ASSERT_EQ(got[q], want[q]) << "sigma " << q << " taps " << taps << " w " << w;
      }
  });
}

TEST_F(VifSimd, SubsampleVerticalEqualsScalar) {
  each_target([] {
    std::mt19937 rng(3);
    for (int w = 1; w <= 300; ++w) {
      check_sub_vertical<std::uint8_t>(rng, 0, 8, 8, w);
      for (int bpc : {10, 12, 16}) check_sub_vertical<std::uint16_t>(rng, 0, bpc, bpc, w);
      for (int from = 1; from < 3; ++from) check_sub_vertical<std::uint16_t>(rng, from, 8, 16, w);
    }
  });
}

TEST_F(VifSimd, SubsampleHorizontalEqualsScalar) {
  each_target([] {
    std::mt19937 rng(4);
    for (int w = 2; w <= 301; ++w)  // the input width; ow = w / 2 outputs
      for (int from = 0; from < 3; ++from) {
        const int taps = kTaps[from + 1], ow = w / 2;
        const std::uint16_t* c = vmafx_vif_filter[from + 1];
        std::vector<std::uint32_t> r(std::size_t(w) + 2 * kPad), d(r.size());
        for (std::size_t i = 0; i < r.size(); ++i) {
          r[i] = (w % 2) ? (rng() & 0xFFFF) : std::uint32_t(rng());  // realistic / wrapping
          d[i] = std::uint32_t(rng());
        }
        std::vector<std::uint16_t> wr(ow), wd(ow), gr(ow, 0xBEEF), gd(ow, 0xBEEF);
        ref_sub_horizontal(r.data() + kPad, d.data() + kPad, c, taps, ow, wr, wd);
        simd::sub_horizontal(r.data() + kPad, d.data() + kPad, c, taps, ow, gr.data(), gd.data());
        ASSERT_EQ(gr, wr) << "from " << from << " w " << w;
        ASSERT_EQ(gd, wd) << "from " << from << " w " << w;
      }
  });
}

// Whole planes: compute_scales with the SIMD path off (vif.cpp's loops) and
// on, on every target; num and den of every scale must be equal.
TEST_F(VifSimd, WholePlanesEqualScalar) {
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{16, 16}, {17, 19}, {37, 23}, {64, 48}, {131, 70}, {176, 144}, {301, 33}};
  std::mt19937 rng(5);  // 32-bit results, taken as uint32_t below
  struct Case {
    int w, h, bpc;
    double limit;
    bool skip0;
    std::vector<std::uint16_t> r, d;
  };
  std::vector<Case> cases;
  int n = 0;
  for (const Size& sz : sizes)
    for (int bpc : {8, 10, 12, 16}) {
      Case cs{sz.w, sz.h, bpc, (n % 3 == 1) ? 1.0 : 100.0, n % 5 == 4, {}, {}};
      ++n;
      const std::size_t np = std::size_t(sz.w) * sz.h;
      cs.r.resize(np);
      cs.d.resize(np);
      const std::uint32_t maxv = (1u << bpc) - 1;
      // Smooth picture plus noise, distorted by noise and a gain, so that
      // both of accumulate()'s branches and the gain limit are reached.
      for (int y = 0; y < sz.h; ++y)
        for (int x = 0; x < sz.w; ++x) {
          const std::size_t i = std::size_t(y) * sz.w + x;
          const std::uint32_t base = ((x * 7 + y * 3) % 97) * maxv / 96;
          const std::uint32_t r = x < sz.w / 5 ? maxv / 2 : std::min(maxv, base + std::uint32_t(rng()) % (maxv / 8 + 1));
          const std::uint32_t d = (y % 4 == 0) ? std::min(maxv, 2 * r / 3 + std::uint32_t(rng()) % (maxv / 4 + 1))
                                               : std::min(maxv, r + std::uint32_t(rng()) % (maxv / 16 + 1));
          cs.r[i] = std::uint16_t(r);
          cs.d[i] = std::uint16_t(d);
        }
      cases.push_back(std::move(cs));
    }
  const auto run = [](const Case& cs) {
    std::vector<std::uint8_t> r8(cs.r.begin(), cs.r.end()), d8(cs.d.begin(), cs.d.end());
    const int bytes = cs.bpc == 8 ? 1 : 2;
    const PlaneView rv{cs.bpc == 8 ? r8.data() : reinterpret_cast<const std::uint8_t*>(cs.r.data()),
                       cs.w * bytes, cs.w, cs.h};
    const PlaneView dv{cs.bpc == 8 ? d8.data() : reinterpret_cast<const std::uint8_t*>(cs.d.data()),
                       cs.w * bytes, cs.w, cs.h};
    return vif::compute_scales(rv, dv, cs.bpc, cs.limit, cs.skip0);
  };
  simd::set_enabled(false);
  std::vector<std::array<vif::ScaleResult, 4>> want;
  for (const Case& cs : cases) want.push_back(run(cs));
  simd::set_enabled(true);
  each_target([&] {
    ASSERT_TRUE(simd::enabled());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto got = run(cases[i]);
      for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(got[s].num, want[i][s].num)
            << cases[i].w << "x" << cases[i].h << " bpc " << cases[i].bpc << " scale " << s;
        EXPECT_EQ(got[s].den, want[i][s].den)
            << cases[i].w << "x" << cases[i].h << " bpc " << cases[i].bpc << " scale " << s;
      }
    }
  });
  simd::set_enabled(false);
  EXPECT_FALSE(simd::enabled());
  simd::reset_enabled();  // back to VMAFX_SIMD's choice for the tests that follow
}

}  // namespace
}  // namespace vmafx
