// SPDX-License-Identifier: BSD-3-Clause
// src/exact/ssim_term.h against integer_ssim.c's fp64 expression, bit for bit.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

#include "exact/ssim_term.h"
#include "exact_reference.h"
#include "exact_vectors.h"

namespace {

using namespace vmafx::exact_test;

TEST(SsimTables, TapsAreTheReferenceDerivation) {
  // gaussian_filter_init(sigma 1.5, max_len 5) with KERNEL_WEIGHT 256
  const double sigma = 1.5, pi = 3.141592653589793238462643;
  const double scale = 1 / (std::sqrt(2 * pi) * sigma);
  const double nhisigma2 = -0.5 / (sigma * sigma);
  const double s = std::sqrt(0.5 * pi) * sigma * (1.0 / 256);
  const double len = s >= 1 ? 0 : std::floor(sigma * std::sqrt(-2 * std::log(s)));
  const int klen = len >= 5 ? 4 : (int)len;
  ASSERT_EQ(klen * 2 + 1, VMAFX_SSIM_TAP_COUNT);
  unsigned taps[VMAFX_SSIM_TAP_COUNT];
  unsigned sum = 0;
  for (int ci = klen; ci > 0; ci--) {
    taps[klen - ci] = taps[klen + ci] = (unsigned)(256 * scale * std::exp(nhisigma2 * ci * ci) + 0.5);
    sum += taps[klen - ci];
  }
  taps[klen] = 256 - (sum << 1);
  unsigned total = 0;
  for (int i = 0; i < VMAFX_SSIM_TAP_COUNT; ++i) {
    EXPECT_EQ((unsigned)vmafx_ssim_tap(i), taps[i]) << i;
    total += taps[i];
  }
  EXPECT_EQ(total, (unsigned)VMAFX_SSIM_TAP_SUM);
  EXPECT_EQ(VMAFX_SSIM_FULL_WEIGHT, VMAFX_SSIM_TAP_SUM * VMAFX_SSIM_TAP_SUM);
  EXPECT_EQ(VMAFX_SSIM_FULL_WEIGHT, 1 << VMAFX_SSIM_FULL_WEIGHT_LOG2);
}

TEST(SsimTables, ConstantsAreTheReferenceFolds) {
  EXPECT_EQ(VMAFX_SSIM_K1_BITS, dbits(0.01 * 0.01));
  EXPECT_EQ(VMAFX_SSIM_K1_BITS, dbits(VMAFX_ISSIM_K1));
  EXPECT_EQ(VMAFX_SSIM_K2_BITS, dbits(VMAFX_ISSIM_K2));
  EXPECT_EQ(VMAFX_SSIM_K2_BITS, dbits(0.03 * 0.03));
  for (int depth = 8; depth <= 16; ++depth) {
    EXPECT_EQ(vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K1_BITS), dbits(ref_ssim_factor(depth, 0.01 * 0.01)));
    EXPECT_EQ(vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K2_BITS), dbits(ref_ssim_factor(depth, 0.03 * 0.03)));
  }
  // the 16-bit factor is the wrapped int product's, as the reference takes it
  EXPECT_EQ(dval(vmafx_ssim_factor_bits(16, VMAFX_SSIM_K1_BITS)), -131071 * (0.01 * 0.01));
}

class SsimTerm : public ::testing::TestWithParam<int> {};

TEST_P(SsimTerm, MatchesReferenceExpression) {
  const int depth = GetParam();
  const size_t n = env_count("VMAFX_EXACT_WINDOWS", 1000000);
  const std::vector<SsimMoments> v = ssim_vectors(depth, n);
  ASSERT_GE(v.size(), n);
  const uint64_t k1f = vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K1_BITS);
  const uint64_t k2f = vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K2_BITS);
  size_t bad = 0, bad_plain = 0, integral = 0, interior = 0, nan = 0;
  std::string repro;
  for (const SsimMoments& m : v) {
    const uint64_t want = dbits(ref_ssim_term(m, depth));
    const uint64_t got = vmafx_ssim_term_bits(m.mux, m.muy, m.x2, m.xy, m.y2, m.w, k1f, k2f);
    const uint64_t plain = vmafx_ssim_term_bits_plain(m.mux, m.muy, m.x2, m.xy, m.y2, m.w, k1f, k2f);
    const bool ok = same_result(got, want, true), ok_plain = same_result(plain, want, true);
    if ((!ok || !ok_plain) && bad + bad_plain < 8) {
      char line[320];
      std::snprintf(line, sizeof line,
                    "  {%" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 "}: 0x%016" PRIx64
                    " / plain 0x%016" PRIx64 ", reference 0x%016" PRIx64 "\n",
                    m.mux, m.muy, m.x2, m.xy, m.y2, m.w, got, plain, want);
      repro += line;
    }
    bad += !ok;
    bad_plain += !ok_plain;
    integral += vmafx_ssim_term_integral(m.mux, m.muy, m.x2, m.xy, m.y2, m.w);
    interior += m.w == VMAFX_SSIM_FULL_WEIGHT;
    nan += is_nan_bits(want);
  }
  EXPECT_EQ(bad, 0u) << "of " << v.size() << " windows at " << depth << " bits:\n" << repro;
  EXPECT_EQ(bad_plain, 0u);
  // both paths and both kinds of window are exercised
  EXPECT_GT(interior, v.size() / 2);
  EXPECT_GT(v.size() - interior, 50000u);
  if (depth <= 10) {  // the shortcut covers every window at 8 and 10 bits
    EXPECT_EQ(integral, v.size());
  } else {
    EXPECT_GT(v.size() - integral, 10000u);
  }
  std::printf("[ depth %2d ] %zu windows, %zu integral shortcut, %zu interior, %zu NaN terms\n", depth, v.size(),
              integral, interior, nan);
}

INSTANTIATE_TEST_SUITE_P(Depths, SsimTerm, ::testing::Values(8, 10, 12, 16),
                         [](const ::testing::TestParamInfo<int>& i) { return "bpc" + std::to_string(i.param); });

}  // namespace
