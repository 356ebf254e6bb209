// SPDX-License-Identifier: BSD-3-Clause
// The SIMD rows of the integer VIF (feature/vif_simd.cpp, in vif::rows() while
// SIMD is on) against the scalar rows of feature/vif.cpp (vif::scalar_rows()),
// for == on every integer: each row slot on random rows (every filter width,
// bit depths 8/10/12/16, widths 1..300 so that every row-end case of every
// vector width is hit, full-range inputs where vif.cpp's 32-bit sums wrap), on
// every SIMD target this CPU runs; accumulate_row against accumulate() (and
// the scalar row) on rows of sigmas (random, edge and limit values, the noise
// term's truncation cases, several gain limits); and whole planes through
// compute_scales with the SIMD path off and on.
// Without Highway (or on a CPU without a SIMD target) the tests skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "feature/vif.hpp"
#include "core/simd.hpp"
#include "feature/vif_rows.hpp"
#include "exact/vif_tables.h"
#include "simd_targets.hpp"

namespace vmafx {
namespace {

constexpr int kTaps[4] = {17, 9, 5, 3};
constexpr int kPad = 8;

// vif.cpp's vertical_shift().
vif::Shift shift_of(int scale, int bpc) {
  if (scale == 0) {
    const int sq = 2 * (bpc - 8);
    return {1u << (bpc - 1), bpc, sq ? std::uint64_t{1} << (sq - 1) : 0, sq};
  }
  return {32768u, 16, 32768u, 16};
}

// The reference rows, and the fixture: runs body() once per SIMD target
// (dispatch pinned to it), restoring the normal choice afterwards; skips when
// there is none.
const vif::Rows& ref_rows() { return vif::scalar_rows(); }

class VifSimd : public test::SimdTargets {
 protected:
  // The row table with the SIMD rows (each slot dispatches to the target
  // each_target pins).
  static const vif::Rows& simd_rows() {
    vmafx::simd::set_enabled(true);
    EXPECT_TRUE(vmafx::simd::enabled());
    const vif::Rows& r = vif::rows();
    EXPECT_NE(&r, &vif::scalar_rows()) << "vif::rows() gave the scalar rows with the SIMD path on";
    return r;
  }
  void TearDown() override {
    vmafx::simd::reset_enabled();
    test::SimdTargets::TearDown();
  }
};

// Rows of random samples below 2^bits, each its own exact-size allocation.
// For every fourth width the samples lean to the extremes (half of them 0 or
// the largest value), and every seventh width has all of them at the largest
// value: the largest sums the proofs in vif_simd.cpp bound.
template <class T>
std::vector<std::vector<T>> random_rows(std::mt19937& rng, int n, int w, int bits) {
  std::vector<std::vector<T>> rows(n, std::vector<T>(w));
  const std::uint32_t mask = (std::uint32_t{1} << bits) - 1;
  for (auto& r : rows)
    for (auto& v : r) {
      const std::uint32_t x = rng();
      if (w % 7 == 0)
        v = T(mask);
      else if (w % 4 == 0 && (x >> 30) < 2)
        v = T((x >> 30) ? mask : 0);
      else
        v = T(x & mask);
    }
  return rows;
}

template <class T>
std::vector<const T*> pointers(const std::vector<std::vector<T>>& rows) {
  std::vector<const T*> p;
  for (const auto& r : rows) p.push_back(r.data());
  return p;
}

// A table's vertical passes (the 8- or 16-bit slot, by sample type) on rows
// of vectors.
template <class T>
void stat_vertical(const vif::Rows& R, const std::vector<std::vector<T>>& rr, const std::vector<std::vector<T>>& dr,
                   const std::uint16_t* c, int taps, int w, const vif::Shift& vs, std::vector<std::uint32_t> (&t)[5]) {
  std::uint32_t* tp[5];
  for (int q = 0; q < 5; ++q) tp[q] = t[q].data();
  if constexpr (sizeof(T) == 1)
    R.stat_vertical_8(pointers(rr).data(), pointers(dr).data(), c, taps, w, vs, tp);
  else
    R.stat_vertical_16(pointers(rr).data(), pointers(dr).data(), c, taps, w, vs, tp);
}

template <class T>
void sub_vertical(const vif::Rows& R, const std::vector<std::vector<T>>& rr, const std::vector<std::vector<T>>& dr,
                  const std::uint16_t* c, int taps, int w, const vif::Shift& vs, std::vector<std::uint32_t>& t_ref,
                  std::vector<std::uint32_t>& t_dis) {
  if constexpr (sizeof(T) == 1)
    R.sub_vertical_8(pointers(rr).data(), pointers(dr).data(), c, taps, w, vs.mu_round, vs.mu_shift, t_ref.data(),
                     t_dis.data());
  else
    R.sub_vertical_16(pointers(rr).data(), pointers(dr).data(), c, taps, w, vs.mu_round, vs.mu_shift, t_ref.data(),
                      t_dis.data());
}

// The statistic's vertical pass. bits = the sample range: bpc at scale 0, 16
// at later scales (16-bit means).
template <class T>
void check_stat_vertical(const vif::Rows& R, std::mt19937& rng, int scale, int taps, int bpc, int bits, int w) {
  const std::uint16_t* c = vmafx_vif_filter[scale];
  const vif::Shift vs = shift_of(scale, bpc);
  const auto rr = random_rows<T>(rng, taps, w, bits);
  const auto dr = random_rows<T>(rng, taps, w, bits);
  std::vector<std::uint32_t> want[5], got[5];
  for (int q = 0; q < 5; ++q) {
    want[q].assign(w, 0);
    got[q].assign(w, 0xDEADBEEF);
  }
  stat_vertical(ref_rows(), rr, dr, c, taps, w, vs, want);
  stat_vertical(R, rr, dr, c, taps, w, vs, got);
  for (int q = 0; q < 5; ++q)
    ASSERT_EQ(got[q], want[q]) << "quantity " << q << " taps " << taps << " bpc " << bpc << " w " << w;
}

template <class T>
void check_sub_vertical(const vif::Rows& R, std::mt19937& rng, int from, int bpc, int bits, int w) {
  const int taps = kTaps[from + 1];
  const std::uint16_t* c = vmafx_vif_filter[from + 1];
  const vif::Shift vs = shift_of(from, bpc);
  const auto rr = random_rows<T>(rng, taps, w, bits);
  const auto dr = random_rows<T>(rng, taps, w, bits);
  std::vector<std::uint32_t> wr(w), wd(w), gr(w, 0xDEADBEEF), gd(w, 0xDEADBEEF);
  sub_vertical(ref_rows(), rr, dr, c, taps, w, vs, wr, wd);
  sub_vertical(R, rr, dr, c, taps, w, vs, gr, gd);
  ASSERT_EQ(gr, wr) << "from " << from << " bpc " << bpc << " w " << w;
  ASSERT_EQ(gd, wd) << "from " << from << " bpc " << bpc << " w " << w;
}

TEST_F(VifSimd, StatVerticalEqualsScalar) {
  each_target([] {
    const vif::Rows& R = simd_rows();
    std::mt19937 rng(1);
    for (int w = 1; w <= 300; ++w) {
      // 8-bit video: scale 0 only (the only place 8-bit samples are filtered);
      // every filter width for the row-end cases.
      for (int s = 0; s < 4; ++s) {
        const vif::Shift vs = shift_of(0, 8);
        const int taps = kTaps[s];
        const std::uint16_t* c = vmafx_vif_filter[s];
        const auto rr = random_rows<std::uint8_t>(rng, taps, w, 8);
        const auto dr = random_rows<std::uint8_t>(rng, taps, w, 8);
        std::vector<std::uint32_t> want[5], got[5];
        for (int q = 0; q < 5; ++q) {
          want[q].assign(w, 0);
          got[q].assign(w, 0xDEADBEEF);
        }
        stat_vertical(ref_rows(), rr, dr, c, taps, w, vs, want);
        stat_vertical(R, rr, dr, c, taps, w, vs, got);
        for (int q = 0; q < 5; ++q) ASSERT_EQ(got[q], want[q]) << "8-bit q " << q << " taps " << taps << " w " << w;
      }
      for (int bpc : {10, 12, 16}) check_stat_vertical<std::uint16_t>(R, rng, 0, 17, bpc, bpc, w);
      // Later scales: 16-bit means, any bit depth's shifts are the same.
      for (int s = 1; s < 4; ++s) check_stat_vertical<std::uint16_t>(R, rng, s, kTaps[s], 8, 16, w);
    }
  });
}

TEST_F(VifSimd, StatHorizontalEqualsScalar) {
  each_target([] {
    const vif::Rows& R = simd_rows();
    std::mt19937 rng(2);
    for (int w = 1; w <= 300; ++w)
      for (int s = 0; s < 4; ++s) {
        const int taps = kTaps[s];
        const std::uint16_t* c = vmafx_vif_filter[s];
        // Padded rows: the means uint16 (stat_horizontal's contract: the
        // vertical pass truncates them so), the moments arbitrary uint32
        // (wider than the pipeline makes them; the sigma differences wrap).
        // Some rows lean to the extremes (0, 65535, 2^32 - 1), and every fifth
        // width has every value at its maximum (the largest sums).
        std::vector<std::uint32_t> rows[5];
        const std::uint32_t* tp[5];
        for (int q = 0; q < 5; ++q) {
          rows[q].resize(std::size_t(w) + 2 * kPad);
          const std::uint32_t top = q < 2 ? 0xFFFFu : 0xFFFFFFFFu;
          for (auto& v : rows[q]) {
            const std::uint32_t r = rng();
            if (w % 5 == 0)
              v = top;
            else if (w % 3 == 1 && r % 4 == 0)
              v = (r & 8) ? top : 0;
            else
              v = r & top;
          }
          tp[q] = rows[q].data() + kPad;
        }
        std::vector<std::int32_t> want[3], got[3];
        for (int q = 0; q < 3; ++q) {
          want[q].assign(w, 0);
          got[q].assign(w, 0x5A5A5A5A);
        }
        ref_rows().stat_horizontal(tp, c, taps, w, want[0].data(), want[1].data(), want[2].data());
        R.stat_horizontal(tp, c, taps, w, got[0].data(), got[1].data(), got[2].data());
        for (int q = 0; q < 3; ++q) ASSERT_EQ(got[q], want[q]) << "sigma " << q << " taps " << taps << " w " << w;
      }
  });
}

TEST_F(VifSimd, SubsampleVerticalEqualsScalar) {
  each_target([] {
    const vif::Rows& R = simd_rows();
    std::mt19937 rng(3);
    for (int w = 1; w <= 300; ++w) {
      check_sub_vertical<std::uint8_t>(R, rng, 0, 8, 8, w);
      for (int bpc : {10, 12, 16}) check_sub_vertical<std::uint16_t>(R, rng, 0, bpc, bpc, w);
      for (int from = 1; from < 3; ++from) check_sub_vertical<std::uint16_t>(R, rng, from, 8, 16, w);
    }
  });
}

TEST_F(VifSimd, SubsampleHorizontalEqualsScalar) {
  each_target([] {
    const vif::Rows& R = simd_rows();
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
        ref_rows().sub_horizontal(r.data() + kPad, d.data() + kPad, c, taps, ow, wr.data(), wd.data());
        R.sub_horizontal(r.data() + kPad, d.data() + kPad, c, taps, ow, gr.data(), gd.data());
        ASSERT_EQ(gr, wr) << "from " << from << " w " << w;
        ASSERT_EQ(gd, wd) << "from " << from << " w " << w;
      }
  });
}

// accumulate_row against w calls of vif.cpp's accumulate(), every int64 sum
// (the SIMD row, and the scalar row too).
// The sigma rows mix full-range int32 values, values at the branch edges and
// the INT32 limits, realistic ranges, and pixels built so that the noise
// term's truncation hits its edge cases; the test also counts (with the
// scalar formulas) that every branch and edge case was reached.
namespace acc_test {

struct Coverage {
  long flat = 0, den_only = 0, num = 0, sv_neg = 0, sv_low_out = 0, sv_big = 0, limited = 0, noise_wrap = 0, frac_x = 0;
};

void note(Coverage& cv, std::int32_t s1, std::int32_t s2, std::int32_t s12, double limit) {
  if (s1 < vif::kSigmaNsq) {
    ++cv.flat;
    return;
  }
  if (!(s12 > 0 && s2 > 0)) {
    ++cv.den_only;
    return;
  }
  ++cv.num;
  const double g = double(s12) / (double(s1) + 65536 * 1.0e-10);
  const double x = double(s2) - g * double(s12);
  if (x < 0) ++cv.sv_neg;
  if (x <= -2147483649.0) ++cv.sv_low_out;
  if (x >= 2147483647.0 - vif::kSigmaNsq) ++cv.noise_wrap;  // int32 sv + 2^17 passes INT32_MAX
  if (x > 1 << 30) ++cv.sv_big;
  if (x != double(std::int64_t(x)) && x > 0) ++cv.frac_x;
  if (!(g < limit)) ++cv.limited;
}

std::int32_t edge_value(std::mt19937& rng) {
  static const std::int32_t v[] = {INT32_MIN,
                                   INT32_MIN + 1,
                                   -131072,
                                   -1,
                                   0,
                                   1,
                                   2,
                                   131071,
                                   131072,
                                   131073,
                                   262143,
                                   262144,
                                   1 << 24,
                                   (1 << 30) + 12345,
                                   INT32_MAX - 131072,
                                   INT32_MAX - 131071,
                                   INT32_MAX - 1,
                                   INT32_MAX};
  return v[rng() % (sizeof v / sizeof v[0])];
}

// One pixel, by kind.
void pixel(std::mt19937& rng, int kind, std::int32_t& s1, std::int32_t& s2, std::int32_t& s12) {
  const auto u = [&](std::uint32_t lo, std::uint32_t hi) {  // uniform in [lo, hi]
    return lo + std::uint32_t(std::uint64_t(rng()) % (std::uint64_t(hi) - lo + 1));
  };
  switch (kind) {
    case 0:  // any int32
      s1 = std::int32_t(rng());
      s2 = std::int32_t(rng());
      s12 = std::int32_t(rng());
      break;
    case 1:  // edges and limits
      s1 = edge_value(rng);
      s2 = edge_value(rng);
      s12 = edge_value(rng);
      break;
    case 2:  // realistic 8-bit-scale moments: variances up to 2^30
      s1 = std::int32_t(u(0, 1u << 30)) - (1 << 16);
      s2 = std::int32_t(u(0, 1u << 30)) - (1 << 16);
      s12 = std::int32_t(u(0, 1u << 30)) - (1 << 28);
      break;
    case 3: {  // sigma2 close to g * sigma12: x near 0, truncation of small values
      s1 = std::int32_t(u(131072, 1u << 28));
      s12 = std::int32_t(u(1, 1u << 28));
      const double g = double(s12) / (double(s1) + 65536 * 1.0e-10);
      const double p = g * double(s12);
      s2 = p < 2147483000.0 ? std::int32_t(p) + std::int32_t(u(0, 4)) - 2 : INT32_MAX;
      break;
    }
    case 4:  // big gains (noise estimate far below -2^31, the gain limit active)
      s1 = std::int32_t(u(131072, 1u << 20));
      s12 = std::int32_t(u(1u << 29, 0x7FFFFFFFu));
      s2 = std::int32_t(u(1, 1u << 20));
      break;
    default:  // noise near INT32_MAX: sigma2 large, sigma12 tiny
      s1 = std::int32_t(u(131072, 0x7FFFFFFFu));
      s12 = std::int32_t(u(1, 1000));
      s2 = std::int32_t(u(0x7FFFFFFFu - 200000, 0x7FFFFFFFu));
      break;
  }
}

}  // namespace acc_test

TEST_F(VifSimd, AccumulateRowEqualsScalar) {
  const double limits[] = {100.0, 1.0, 1.5, 37.3, 2.0 / 3.0, 0.0, 1024.0, 1e-300, 99.99999999999999};
  acc_test::Coverage cv;
  each_target([&] {
    const vif::Rows& R = simd_rows();
    std::mt19937 rng(6);
    for (int w = 1; w <= 300; ++w)
      for (int kind = 0; kind < 7; ++kind) {
        const double limit = limits[(w + kind) % (sizeof limits / sizeof limits[0])];
        std::vector<std::int32_t> s1(w), s2(w), s12(w);
        for (int j = 0; j < w; ++j) {
          // kind 6: every pixel of its own kind
          acc_test::pixel(rng, kind == 6 ? int(rng() % 6) : kind, s1[j], s2[j], s12[j]);
          acc_test::note(cv, s1[j], s2[j], s12[j], limit);
        }
        vif::Accum want;
        want.num_log = 11;  // start from nonzero sums: the row's terms are added
        want.den_log = -22;
        want.num_non_log = 33;
        want.den_non_log = 44;
        std::int64_t got[4] = {want.num_log, want.den_log, want.num_non_log, want.den_non_log};
        std::int64_t ref[4] = {want.num_log, want.den_log, want.num_non_log, want.den_non_log};
        for (int j = 0; j < w; ++j) vif::accumulate(want, s1[j], s2[j], s12[j], limit);
        ASSERT_TRUE(R.accumulate_supports(limit));
        R.accumulate_row(s1.data(), s2.data(), s12.data(), w, limit, got);
        ref_rows().accumulate_row(s1.data(), s2.data(), s12.data(), w, limit, ref);
        ASSERT_EQ(ref[0], want.num_log) << "scalar row, w " << w << " kind " << kind << " limit " << limit;
        ASSERT_EQ(ref[1], want.den_log) << "scalar row, w " << w << " kind " << kind << " limit " << limit;
        ASSERT_EQ(ref[2], want.num_non_log) << "scalar row, w " << w << " kind " << kind << " limit " << limit;
        ASSERT_EQ(ref[3], want.den_non_log) << "scalar row, w " << w << " kind " << kind << " limit " << limit;
        ASSERT_EQ(got[0], want.num_log) << "w " << w << " kind " << kind << " limit " << limit;
        ASSERT_EQ(got[1], want.den_log) << "w " << w << " kind " << kind << " limit " << limit;
        ASSERT_EQ(got[2], want.num_non_log) << "w " << w << " kind " << kind << " limit " << limit;
        ASSERT_EQ(got[3], want.den_non_log) << "w " << w << " kind " << kind << " limit " << limit;
      }
  });
  // Every case the proof distinguishes was met (counted over all targets).
  EXPECT_GT(cv.flat, 1000);
  EXPECT_GT(cv.den_only, 1000);
  EXPECT_GT(cv.num, 1000);
  EXPECT_GT(cv.sv_neg, 100);
  EXPECT_GT(cv.sv_low_out, 100);
  EXPECT_GT(cv.sv_big, 100);
  EXPECT_GT(cv.limited, 100);
  EXPECT_GT(cv.noise_wrap, 100);
  EXPECT_GT(cv.frac_x, 100);
}

// Single pixels at hand-picked edges, one per call (every row-end path of
// a one-column row) and the same pixel repeated across a row.
TEST_F(VifSimd, AccumulateRowEdgePixels) {
  struct P {
    std::int32_t s1, s2, s12;
  };
  const P ps[] = {
      {131071, 5, 5},                     // just flat
      {131072, 5, 5},                     // just log
      {131072, INT32_MAX, INT32_MAX},     // g near 2^14, then limited
      {INT32_MAX, INT32_MAX, INT32_MAX},  // g just below 1
      {INT32_MAX, INT32_MAX, 1},          // noise near INT32_MAX + 2^17
      {131072, 1, INT32_MAX},             // x far below -2^31 (INT32_MIN, clamped to 0)
      {INT32_MIN, INT32_MIN, INT32_MIN},  // flat, sigma2 clamped
      {INT32_MAX, 0, INT32_MAX},          // den only (sigma2 = 0)
      {INT32_MAX, -7, 9},                 // den only (sigma2 < 0)
      {200000, 900000, 0},                // den only (sigma12 = 0)
      {200000, 900000, 400000},
      {200000, 100000, 300000},
      // eps moves the result (see EpsMatters below)
      {399960, 9604967, 2318968},
      {414951, 10141010, 2339932},
      {451791, 7496786, 2643827},
      {949044, 4100441, 2372609},
      {925536, 15738153, 3814110},
      {954748, 1028398, 954747},
  };
  each_target([&] {
    const vif::Rows& R = simd_rows();
    for (double limit : {100.0, 1.0, 1.5, 1024.0})
      for (const P& p : ps)
        for (int w : {1, 2, 3, 7, 8, 9, 16, 17, 33}) {
          vif::Accum want;
          for (int j = 0; j < w; ++j) vif::accumulate(want, p.s1, p.s2, p.s12, limit);
          const std::vector<std::int32_t> a(w, p.s1), b(w, p.s2), c(w, p.s12);
          std::int64_t got[4] = {0, 0, 0, 0};
          R.accumulate_row(a.data(), b.data(), c.data(), w, limit, got);
          ASSERT_EQ(got[0], want.num_log) << p.s1 << " " << p.s2 << " " << p.s12 << " w " << w;
          ASSERT_EQ(got[1], want.den_log) << p.s1 << " " << p.s2 << " " << p.s12 << " w " << w;
          ASSERT_EQ(got[2], want.num_non_log) << p.s1 << " " << p.s2 << " " << p.s12 << " w " << w;
          ASSERT_EQ(got[3], want.den_non_log) << p.s1 << " " << p.s2 << " " << p.s12 << " w " << w;
        }
  });
}

// The last six pixels of AccumulateRowEdgePixels are there because gain_terms'
// eps changes their numerator term (found by a random search; about one pixel
// in four million does): without them dropping eps from the SIMD division
// passes the other tests. Checked here with the formula written without eps.
TEST(VifSimdSupport, EpsMatters) {
  const auto trunc32 = [](double x) { return x > -2147483649.0 && x < 2147483648.0 ? std::int32_t(x) : INT32_MIN; };
  const auto num_no_eps = [&](std::int32_t s1, std::int32_t s2, std::int32_t s12) {
    double g = double(s12) / double(s1);
    const std::int32_t sv = std::max(trunc32(double(s2) - g * double(s12)), 0);
    g = g < 100.0 ? g : 100.0;
    const std::uint32_t noise = std::uint32_t(sv) + std::uint32_t(vif::kSigmaNsq);
    const std::int64_t total = std::int64_t(g * g * double(s1)) + noise;
    return vif::log2_q11(std::uint64_t(total)) - vif::log2_q11(noise);
  };
  const std::int32_t ps[][3] = {{399960, 9604967, 2318968}, {414951, 10141010, 2339932}, {451791, 7496786, 2643827},
                                {949044, 4100441, 2372609}, {925536, 15738153, 3814110}, {954748, 1028398, 954747}};
  for (const auto& p : ps) {
    vif::Accum a;
    vif::accumulate(a, p[0], p[1], p[2], 100.0);
    EXPECT_NE(a.num_log, num_no_eps(p[0], p[1], p[2])) << p[0] << " " << p[1] << " " << p[2];
  }
}

// stat_horizontal's proof (vif_simd.cpp) rests on the filters' shape: each
// symmetric, each summing to 65536.
TEST(VifSimdSupport, FilterShape) {
  for (int s = 0; s < 4; ++s) {
    const int taps = vmafx_vif_filter_width[s];
    ASSERT_EQ(taps, kTaps[s]);
    std::uint32_t sum = 0;
    for (int k = 0; k < taps; ++k) {
      EXPECT_EQ(vmafx_vif_filter[s][k], vmafx_vif_filter[s][taps - 1 - k]) << "scale " << s << " tap " << k;
      sum += vmafx_vif_filter[s][k];
    }
    EXPECT_EQ(sum, 65536u) << "scale " << s;
  }
}

// The SIMD accumulate row takes gain limits up to 1024 (vif.cpp gives the
// others to the scalar row, which takes any).
TEST_F(VifSimd, GainLimitRange) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (double limit : {0.0, 1.0, 100.0, 1024.0, 1e300, inf, nan}) EXPECT_TRUE(ref_rows().accumulate_supports(limit));
  each_target([&] {
    const vif::Rows& R = simd_rows();
    EXPECT_TRUE(R.accumulate_supports(1.0));
    EXPECT_TRUE(R.accumulate_supports(100.0));
    EXPECT_TRUE(R.accumulate_supports(1024.0));
    EXPECT_FALSE(R.accumulate_supports(1024.0000000000002));
    EXPECT_FALSE(R.accumulate_supports(1e300));
    EXPECT_FALSE(R.accumulate_supports(inf));
    EXPECT_FALSE(R.accumulate_supports(nan));
  });
}

// rows() is the SIMD table while SIMD is on, with every slot replaced, and the
// scalar table while it is off.
TEST_F(VifSimd, RowsFollowTheSimdSwitch) {
  each_target([] {
    const vif::Rows& R = simd_rows();
    const vif::Rows& S = ref_rows();
    EXPECT_NE(R.stat_vertical_8, S.stat_vertical_8);
    EXPECT_NE(R.stat_vertical_16, S.stat_vertical_16);
    EXPECT_NE(R.stat_horizontal, S.stat_horizontal);
    EXPECT_NE(R.accumulate_supports, S.accumulate_supports);
    EXPECT_NE(R.accumulate_row, S.accumulate_row);
    EXPECT_NE(R.sub_vertical_8, S.sub_vertical_8);
    EXPECT_NE(R.sub_vertical_16, S.sub_vertical_16);
    EXPECT_NE(R.sub_horizontal, S.sub_horizontal);
    vmafx::simd::set_enabled(false);
    EXPECT_EQ(&vif::rows(), &S);
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
      Case cs{sz.w, sz.h, bpc, (n % 3 == 1) ? 1.0 : (n % 3 == 2) ? 1.37 : 100.0, n % 5 == 4, {}, {}};
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
          const std::uint32_t r =
              x < sz.w / 5 ? maxv / 2 : std::min(maxv, base + std::uint32_t(rng()) % (maxv / 8 + 1));
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
    const PlaneView rv{cs.bpc == 8 ? r8.data() : reinterpret_cast<const std::uint8_t*>(cs.r.data()), cs.w * bytes, cs.w,
                       cs.h};
    const PlaneView dv{cs.bpc == 8 ? d8.data() : reinterpret_cast<const std::uint8_t*>(cs.d.data()), cs.w * bytes, cs.w,
                       cs.h};
    return vif::compute_scales(rv, dv, cs.bpc, cs.limit, cs.skip0);
  };
  vmafx::simd::set_enabled(false);
  std::vector<std::array<vif::ScaleResult, 4>> want;
  for (const Case& cs : cases) want.push_back(run(cs));
  vmafx::simd::set_enabled(true);
  each_target([&] {
    ASSERT_TRUE(vmafx::simd::enabled());
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
  vmafx::simd::set_enabled(false);
  EXPECT_FALSE(vmafx::simd::enabled());
  vmafx::simd::reset_enabled();  // back to VMAFX_SIMD's choice for the tests that follow
}

}  // namespace
}  // namespace vmafx
