// SPDX-License-Identifier: BSD-3-Clause
// src/exact/vif_gain.h against integer_vif.c's fp64 lines, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

#include "exact/vif_gain.h"
#include "exact_reference.h"
#include "exact_vectors.h"

namespace {

using namespace vmafx::exact_test;

TEST(VifTables, ConstantsAreTheReferences) {
  EXPECT_EQ(VMAFX_VIF_EPS_BITS, dbits(65536 * 1.0e-10));
  EXPECT_EQ(VMAFX_VIF_GAIN_LIMIT_DEFAULT_BITS, dbits(100.0));
  EXPECT_EQ(VMAFX_VIF_SIGMA_NSQ, 65536 << 1);
  for (int s = 0; s < 4; ++s) {
    int sum = 0;
    for (int i = 0; i < vmafx_vif_taps(s); ++i) sum += vmafx_vif_filter_tap(s, i);
    EXPECT_EQ(sum, 65536) << s;
  }
  for (int i = 0; i < 17; ++i) EXPECT_EQ((uint32_t)vmafx_vif_filter_tap(0, i), detail::kVifFilter0[i]);
}

TEST(VifGain, LimitModes) {
  EXPECT_EQ(vmafx_vif_limit_make(dbits(100.0)).mode, VMAFX_VIF_LIMIT_INTEGER);
  EXPECT_EQ(vmafx_vif_limit_make(dbits(100.0)).int_value, 100);
  EXPECT_EQ(vmafx_vif_limit_make(dbits(1.0)).mode, VMAFX_VIF_LIMIT_INTEGER);
  EXPECT_EQ(vmafx_vif_limit_make(dbits(127.0)).mode, VMAFX_VIF_LIMIT_INTEGER);
  EXPECT_EQ(vmafx_vif_limit_make(dbits(1.2)).mode, VMAFX_VIF_LIMIT_EXACT);
  EXPECT_EQ(vmafx_vif_limit_make(dbits(37.5)).mode, VMAFX_VIF_LIMIT_EXACT);
  EXPECT_EQ(vmafx_vif_limit_make(dbits(128.0)).mode, VMAFX_VIF_LIMIT_REPLAY);
  EXPECT_EQ(vmafx_vif_limit_make(dbits(0.5)).mode, VMAFX_VIF_LIMIT_REPLAY);
  EXPECT_EQ(vmafx_vif_limit_make(0x7FF8000000000000ull).mode, VMAFX_VIF_LIMIT_REPLAY);
}

struct VifStats {
  size_t n = 0, bad = 0, bad_replay = 0, undecided = 0, clamped = 0;
  std::string repro;
};

void check(const std::vector<VifSample>& v, size_t count, uint64_t limit_bits, bool replay_all, VifStats& st) {
  const vmafx_vif_limit lim = vmafx_vif_limit_make(limit_bits);
  const double limit = dval(limit_bits);
  for (size_t i = 0; i < count && i < v.size(); ++i) {
    const VifSample& s = v[i];
    const VifGainRef want = ref_vif_gain(s.s1, s.s12, s.s2, limit);
    const vmafx_vif_gain got = vmafx_vif_gain_terms(s.s1, s.s12, s.s2, lim);
    const bool ok = got.sv_sq == want.sv_sq && got.gg == want.gg;
    bool ok_replay = true;
    if (replay_all) {
      const vmafx_vif_gain rep = vmafx_vif_gain_replay(s.s1, s.s12, s.s2, lim);
      ok_replay = rep.sv_sq == want.sv_sq && rep.gg == want.gg;
    }
    if ((!ok || !ok_replay) && st.bad + st.bad_replay < 8) {
      char line[256];
      std::snprintf(line, sizeof line,
                    "  limit %.17g {%d, %d, %d}: sv %d gg %" PRId64 " (replayed %d), reference sv %d gg %" PRId64 "\n",
                    limit, s.s1, s.s12, s.s2, got.sv_sq, got.gg, got.replayed, want.sv_sq, want.gg);
      st.repro += line;
    }
    st.bad += !ok;
    st.bad_replay += !ok_replay;
    st.undecided += got.replayed;
    st.clamped += !(s.s12 / (s.s1 + 65536 * 1.0e-10) < limit);
    ++st.n;
  }
}

class VifGain : public ::testing::TestWithParam<int> {};

TEST_P(VifGain, MatchesReferenceExpression) {
  const int depth = GetParam();
  const size_t n = env_count("VMAFX_EXACT_WINDOWS", 1000000);
  const std::vector<VifSample> v = vif_vectors(depth, n);
  ASSERT_GE(v.size(), n);
  const std::vector<uint64_t> limits = vif_limits();
  for (size_t li = 0; li < limits.size(); ++li) {
    VifStats st;
    // every sample at the default limit and at 1.0 (the shipped models'),
    // the first 100000 at each other limit
    check(v, li < 2 ? v.size() : 100000, limits[li], li == 0, st);
    EXPECT_EQ(st.bad, 0u) << "of " << st.n << " samples at " << depth << " bits:\n" << st.repro;
    EXPECT_EQ(st.bad_replay, 0u) << st.repro;
    if (li < 2)
      std::printf("[ depth %2d ] limit %-6g %zu samples, %zu undecided (replayed), %zu clamped\n", depth,
                  dval(limits[li]), st.n, st.undecided, st.clamped);
    EXPECT_GT(st.clamped, 0u);
  }
}

TEST_P(VifGain, RealisticSamplesAreRarelyUndecided) {
  // the plane statistics (the tail of the vectors) need the replay rarely
  const int depth = GetParam();
  const std::vector<VifSample> v = vif_vectors(depth, 600000);
  const vmafx_vif_limit lim = vmafx_vif_limit_make(VMAFX_VIF_GAIN_LIMIT_DEFAULT_BITS);
  size_t undecided = 0, n = 0;
  for (size_t i = 400000; i < v.size(); ++i, ++n)
    undecided += !vmafx_vif_gain_integer(v[i].s1, v[i].s12, v[i].s2, lim).decided;
  EXPECT_LT(undecided, n / 10000 + 2) << undecided << " of " << n;
  std::printf("[ depth %2d ] plane statistics: %zu of %zu undecided\n", depth, undecided, n);
}

INSTANTIATE_TEST_SUITE_P(Depths, VifGain, ::testing::Values(8, 10, 12, 16),
                         [](const ::testing::TestParamInfo<int>& i) { return "bpc" + std::to_string(i.param); });

// The fp32 filter (vmafx_vif_gain_fp32) where it is most likely to be wrong:
// fractions a = r / sigma1_sq near d (y = d - a near 0), near 1 (y near -1)
// and near 2 d (y2 near 0), at every quotient size up to 2^32. Every sample
// it decides must be the reference's; it must decide almost all of the
// random ones and leave the near-integer ones to the integer path.
TEST(VifGainFp32, NearIntegerFractionsMatchReference) {
  Rng r(seed_of(0xF32, 0));
  const size_t n = env_count("VMAFX_EXACT_WINDOWS", 1000000);
  const double L = 100.0;
  const vmafx_vif_limit lim = vmafx_vif_limit_make(dbits(L));
  size_t decided = 0, bad = 0, bad_integer = 0;
  std::string repro;
  for (size_t i = 0; i < n; ++i) {
    const int64_t s1 = r.range(131072, 2147483647);
    // a quotient q of every size below 2^32 with sigma12 <= 2^31 - 1
    const int bits = (int)r.below(33);
    const uint64_t qmax = std::min<uint64_t>((1ull << 32) - 1, (uint64_t)(4611686014132420609ull / s1));
    const uint64_t q = std::min<uint64_t>(qmax, bits ? (r.next() >> (64 - bits)) : 0);
    // sigma12 with sigma12^2 just above q * s1 (a near 0) or just below (q - 1) s1 + s1 (a near 1)
    int64_t s12 = (int64_t)std::ceil(std::sqrt((double)q * (double)s1)) + r.range(-2, 2);
    if (i % 3 == 2) {
      // a near d or 2 d: pick the remainder from the target fraction
      const double d = ((double)q * 6.5536e-06) / (double)s1;
      const double t = (i % 6 == 2 ? d : 2 * d) + (double)r.range(-3, 3) / (double)s1;
      s12 = (int64_t)std::llround(std::sqrt((double)q * (double)s1 + t * (double)s1));
    }
    if (s12 < 1 || s12 > 2147483647) continue;
    int64_t s2 = (i & 1) ? (int64_t)q + r.range(-2, 2) : r.range(1, 2147483647);
    if (s2 < 1 || s2 > 2147483647) s2 = 1 + (int64_t)(r.next() >> 34);
    const VifGainRef want = ref_vif_gain((int32_t)s1, (int32_t)s12, (int32_t)s2, L);
    const vmafx_vif_gain_int f = vmafx_vif_gain_fp32((int32_t)s1, (int32_t)s12, (int32_t)s2, lim);
    const vmafx_vif_gain_int g = vmafx_vif_gain_integer((int32_t)s1, (int32_t)s12, (int32_t)s2, lim);
    if (f.decided) {
      ++decided;
      if (f.gain.sv_sq != want.sv_sq || f.gain.gg != want.gg) {
        ++bad;
        if (repro.size() < 800)
          repro += "  {" + std::to_string(s1) + ", " + std::to_string(s12) + ", " + std::to_string(s2) + "}: sv " +
                   std::to_string(f.gain.sv_sq) + " gg " + std::to_string(f.gain.gg) + ", reference sv " +
                   std::to_string(want.sv_sq) + " gg " + std::to_string(want.gg) + "\n";
      }
    }
    if (g.decided && (g.gain.sv_sq != want.sv_sq || g.gain.gg != want.gg)) ++bad_integer;
  }
  EXPECT_EQ(bad, 0u) << repro;
  EXPECT_EQ(bad_integer, 0u);
  // about a third of these are built to sit near an integer; the rest decide
  EXPECT_GT(decided, n / 2);
  std::printf("[ fp32 ] %zu of %zu adversarial samples decided by the fp32 filter\n", decided, n);
}

TEST_P(VifGain, Fp32FilterDecidesRealisticSamples) {
  // on the plane statistics the fp32 filter leaves (almost) nothing to the 128-bit path
  const int depth = GetParam();
  const std::vector<VifSample> v = vif_vectors(depth, 600000);
  for (const uint64_t lb : {VMAFX_VIF_GAIN_LIMIT_DEFAULT_BITS, dbits(1.0)}) {
    const vmafx_vif_limit lim = vmafx_vif_limit_make(lb);
    size_t undecided = 0, n = 0, bad = 0;
    for (size_t i = 400000; i < v.size(); ++i, ++n) {
      const vmafx_vif_gain_int f = vmafx_vif_gain_fp32(v[i].s1, v[i].s12, v[i].s2, lim);
      if (!f.decided) {
        ++undecided;
        continue;
      }
      const VifGainRef want = ref_vif_gain(v[i].s1, v[i].s12, v[i].s2, dval(lb));
      bad += f.gain.sv_sq != want.sv_sq || f.gain.gg != want.gg;
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_LT(undecided, n / 1000 + 2) << undecided << " of " << n;
    std::printf("[ depth %2d ] limit %g plane statistics: fp32 filter leaves %zu of %zu\n", depth, dval(lb), undecided,
                n);
  }
}

TEST(VifGainLimits, RandomLimitsMatchReference) {
  Rng r(seed_of(0x11A, 0));
  const std::vector<VifSample> v = vif_vectors(8, 300000);
  VifStats st;
  for (int k = 0; k < 1500; ++k) {
    // any double in [1, 128), integers and near-integers included
    uint64_t lb = make_bits(0, 1023 + r.below(7), r.next());
    if (k % 5 == 0) lb = dbits((double)(1 + r.below(127)));
    if (k % 5 == 1) lb = dbits((double)(1 + r.below(127))) + (uint64_t)r.range(-2, 2);
    std::vector<VifSample> sub;
    const double L = dval(lb);
    for (int i = 0; i < 200; ++i) {
      VifSample s = v[r.below(v.size())];
      if (i & 1) {  // sigma12 near L * sigma1: the clamp boundary
        const int64_t s1 = r.range(131072, (int64_t)(2147483647 / (L + 1)));
        const int64_t s12 = (int64_t)(L * s1) + r.range(-2, 2);
        if (s12 >= 1 && s12 <= 2147483647) s = {(int32_t)s1, (int32_t)s12, s.s2};
      }
      sub.push_back(s);
    }
    check(sub, sub.size(), lb, true, st);
  }
  EXPECT_EQ(st.bad, 0u) << st.repro;
  EXPECT_EQ(st.bad_replay, 0u) << st.repro;
  EXPECT_GT(st.clamped, st.n / 10);
}

}  // namespace
