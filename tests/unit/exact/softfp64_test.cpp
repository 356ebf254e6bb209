// SPDX-License-Identifier: BSD-3-Clause
// src/exact/softfp64.h against the host's IEEE fp64 unit, bit for bit.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "exact/int128.h"
#include "exact/softfp64.h"
#include "exact_reference.h"
#include "exact_vectors.h"

namespace {

using namespace vmafx::exact_test;

uint64_t soft_binop(int op, uint64_t a, uint64_t b) {
  const vmafx_sd x = vmafx_sd_from_bits(a), y = vmafx_sd_from_bits(b);
  switch (op) {
    case kAdd: return vmafx_sd_to_bits(vmafx_sd_add(x, y));
    case kSub: return vmafx_sd_to_bits(vmafx_sd_sub(x, y));
    case kMul: return vmafx_sd_to_bits(vmafx_sd_mul(x, y));
    default: return vmafx_sd_to_bits(vmafx_sd_div(x, y));
  }
}

// Collects mismatches with a repro line for the first few.
struct Mismatches {
  size_t count = 0;
  std::string text;
  void add(const char* what, uint64_t a, uint64_t b, uint64_t got, uint64_t want) {
    if (count++ < 8) {
      char line[256];
      std::snprintf(line, sizeof line,
                    "  %s(0x%016" PRIx64 ", 0x%016" PRIx64 ") = 0x%016" PRIx64 ", host 0x%016" PRIx64 "\n", what, a, b,
                    got, want);
      text += line;
    }
  }
};

class SoftFp64Binop : public ::testing::TestWithParam<int> {};

TEST_P(SoftFp64Binop, RandomPairsMatchHost) {
  const int op = GetParam();
  const size_t total = binop_random_count();
  std::vector<uint64_t> a(kChunk), b(kChunk);
  Mismatches mm;
  size_t nan_results = 0, subnormal_results = 0, inf_results = 0;
  for (size_t chunk = 0, done = 0; done < total; ++chunk) {
    const size_t n = std::min(kChunk, total - done);
    fill_binop_random(op, chunk, n, a.data(), b.data());
    for (size_t i = 0; i < n; ++i) {
      const uint64_t want = host_binop(op, a[i], b[i]);
      const uint64_t got = soft_binop(op, a[i], b[i]);
      if (!same_result(got, want, is_nan_bits(a[i]) || is_nan_bits(b[i])))
        mm.add(binop_name(op), a[i], b[i], got, want);
      nan_results += is_nan_bits(want);
      subnormal_results += bexp_of(want) == 0 && (want << 1) != 0;
      inf_results += bexp_of(want) == 0x7FF && !is_nan_bits(want);
    }
    done += n;
  }
  EXPECT_EQ(mm.count, 0u) << "of " << total << " pairs:\n" << mm.text;
  // the generator reaches the special ranges it is meant to
  EXPECT_GT(subnormal_results, total / 1000);
  EXPECT_GT(inf_results, total / 1000);
  EXPECT_GT(nan_results, total / 1000);
}

TEST_P(SoftFp64Binop, StructuredPairsMatchHost) {
  const int op = GetParam();
  std::vector<uint64_t> a, b;
  binop_structured(op, a, b);
  ASSERT_GT(a.size(), 100000u);
  Mismatches mm;
  size_t ties = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const uint64_t want = host_binop(op, a[i], b[i]);
    const uint64_t got = soft_binop(op, a[i], b[i]);
    if (!same_result(got, want, is_nan_bits(a[i]) || is_nan_bits(b[i]))) mm.add(binop_name(op), a[i], b[i], got, want);
    if (op == kMul && !is_nan_bits(want)) {
      // count exact ties: the product of the significands has one bit
      // too many and it is a one
      const vmafx_sd x = vmafx_sd_from_bits(a[i]), y = vmafx_sd_from_bits(b[i]);
      if (x.c == VMAFX_SD_FINITE && y.c == VMAFX_SD_FINITE && x.m && y.m) {
        const vmafx_u128 p = vmafx_mul_u64(x.m >> __builtin_ctzll(x.m), y.m >> __builtin_ctzll(y.m));
        ties += p.hi == 0 && (64 - __builtin_clzll(p.lo)) == 54;
      }
    }
  }
  EXPECT_EQ(mm.count, 0u) << "of " << a.size() << " pairs:\n" << mm.text;
  if (op == kMul) {
    EXPECT_GT(ties, 10000u);
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, SoftFp64Binop, ::testing::Values(kAdd, kSub, kMul, kDiv),
                         [](const ::testing::TestParamInfo<int>& i) { return std::string(binop_name(i.param)); });

TEST(SoftFp64, ExactTiesRoundToEven) {
  // 2^53 + 1 is halfway between 2^53 and 2^53 + 2: stays at 2^53 (even)
  EXPECT_EQ(soft_binop(kAdd, dbits(9007199254740992.0), dbits(1.0)), dbits(9007199254740992.0));
  // 2^53 + 3 is halfway between 2^53 + 2 and 2^53 + 4: goes up to + 4
  EXPECT_EQ(soft_binop(kAdd, dbits(9007199254740994.0), dbits(1.0)), dbits(9007199254740996.0));
  // 1 - 2^-54 is halfway between 1 - 2^-53 and 1: rounds to 1
  EXPECT_EQ(soft_binop(kSub, dbits(1.0), dbits(std::ldexp(1.0, -54))), dbits(1.0));
  // x - x is +0, -0 + -0 is -0, +0 - +0 is +0, -0 - +0 is -0
  EXPECT_EQ(soft_binop(kSub, dbits(3.5), dbits(3.5)), 0u);
  EXPECT_EQ(soft_binop(kAdd, dbits(-0.0), dbits(-0.0)), dbits(-0.0));
  EXPECT_EQ(soft_binop(kSub, dbits(0.0), dbits(0.0)), 0u);
  EXPECT_EQ(soft_binop(kSub, dbits(-0.0), dbits(0.0)), dbits(-0.0));
  // min subnormal / 2 is a tie with 0 (even): +0; 3 * min / 2 goes to 2 * min
  EXPECT_EQ(soft_binop(kMul, 1u, dbits(0.5)), 0u);
  EXPECT_EQ(soft_binop(kMul, 3u, dbits(0.5)), 2u);
  // max * 2 overflows to inf; 1 / 0 is inf with the signs
  EXPECT_EQ(soft_binop(kMul, 0x7FEFFFFFFFFFFFFFull, dbits(2.0)), 0x7FF0000000000000ull);
  EXPECT_EQ(soft_binop(kDiv, dbits(-1.0), dbits(0.0)), 0xFFF0000000000000ull);
  EXPECT_EQ(soft_binop(kDiv, dbits(1.0), dbits(3.0)), dbits(1.0 / 3.0));
}

TEST(SoftFp64, BitsRoundTrip) {
  Rng r(seed_of(0xB17, 0));
  size_t bad = 0;
  for (int i = 0; i < 2000000; ++i) {
    uint64_t b = r.next();
    if (i & 1) b &= 0x800FFFFFFFFFFFFFull;  // subnormals and zeros
    bad += vmafx_sd_to_bits(vmafx_sd_from_bits(b)) != b;
  }
  EXPECT_EQ(bad, 0u);
}

TEST(SoftFp64, ConversionsFromIntegersMatchHost) {
  const std::vector<uint64_t> v = int_vectors(env_count("VMAFX_EXACT_PAIRS", 10000000));
  Mismatches mm;
  for (uint64_t x : v) {
    const uint64_t u = vmafx_sd_to_bits(vmafx_sd_from_u64(x));
    if (u != dbits((double)x)) mm.add("from_u64", x, 0, u, dbits((double)x));
    const uint64_t s = vmafx_sd_to_bits(vmafx_sd_from_i64((int64_t)x));
    if (s != dbits((double)(int64_t)x)) mm.add("from_i64", x, 0, s, dbits((double)(int64_t)x));
  }
  EXPECT_EQ(mm.count, 0u) << "of " << v.size() << " integers:\n" << mm.text;
}

TEST(SoftFp64, ComparisonsMatchHost) {
  const size_t total = binop_random_count();
  std::vector<uint64_t> a(kChunk), b(kChunk);
  Mismatches mm;
  size_t eq_true = 0, lt_true = 0;
  for (size_t chunk = 0, done = 0; done < total; ++chunk) {
    const size_t n = std::min(kChunk, total - done);
    fill_binop_random(kSub, chunk, n, a.data(), b.data());
    for (size_t i = 0; i < n; ++i) {
      const double x = dval(a[i]), y = dval(b[i]);
      const vmafx_sd sx = vmafx_sd_from_bits(a[i]), sy = vmafx_sd_from_bits(b[i]);
      const int got =
          vmafx_sd_eq(sx, sy) | vmafx_sd_lt(sx, sy) << 1 | vmafx_sd_le(sx, sy) << 2 | vmafx_sd_lt(sy, sx) << 3;
      const int want = (x == y) | (x < y) << 1 | (x <= y) << 2 | (y < x) << 3;
      if (got != want) mm.add("cmp", a[i], b[i], (uint64_t)got, (uint64_t)want);
      eq_true += x == y;
      lt_true += x < y;
    }
    done += n;
  }
  EXPECT_EQ(mm.count, 0u) << mm.text;
  EXPECT_GT(eq_true, total / 100);
  EXPECT_GT(lt_true, total / 10);
}

TEST(SoftFp64, ScalingByPowersOfTwoMatchesHost) {
  const std::vector<uint64_t> v = trunc_vectors(2000000);
  Rng r(seed_of(0x2C, 0));
  Mismatches mm;
  for (uint64_t x : v) {
    for (int k : {1, 16, -1, (int)r.range(-1074, 1023)}) {
      const uint64_t want = dbits(dval(x) * std::ldexp(1.0, k));
      const uint64_t got = vmafx_sd_to_bits(vmafx_sd_mul_pow2(vmafx_sd_from_bits(x), k));
      if (!same_result(got, want, true)) mm.add("mul_pow2", x, (uint64_t)k, got, want);
    }
    // subnormal operands scaled back up, and large values scaled into underflow
    const uint64_t y = x & 0x800FFFFFFFFFFFFFull;
    const int k = (int)r.range(-1100, 1100);
    const int kk = k < -1074 ? -1074 : (k > 1023 ? 1023 : k);
    const uint64_t want = dbits(dval(y) * std::ldexp(1.0, kk));
    const uint64_t got = vmafx_sd_to_bits(vmafx_sd_mul_pow2(vmafx_sd_from_bits(y), kk));
    if (got != want) mm.add("mul_pow2", y, (uint64_t)kk, got, want);
  }
  EXPECT_EQ(mm.count, 0u) << mm.text;
}

TEST(SoftFp64, TruncatingConversionsMatchX86) {
  const std::vector<uint64_t> v = trunc_vectors(4000000);
  Mismatches mm;
  for (uint64_t x : v) {
    const vmafx_sd s = vmafx_sd_from_bits(x);
    const int64_t w64 = x86_trunc_i64(dval(x));
    const int32_t w32 = x86_trunc_i32(dval(x));
    if (vmafx_sd_to_i64(s) != w64) mm.add("to_i64", x, 0, (uint64_t)vmafx_sd_to_i64(s), (uint64_t)w64);
    if (vmafx_sd_to_i32(s) != w32) mm.add("to_i32", x, 0, (uint64_t)vmafx_sd_to_i32(s), (uint64_t)w32);
  }
  EXPECT_EQ(mm.count, 0u) << mm.text;
}

TEST(Int128, ProductsAndDivisionMatchNative) {
  Rng r(seed_of(0x128, 0));
  size_t bad = 0;
  for (int i = 0; i < 2000000; ++i) {
    const uint64_t a = r.bits_upto(64), b = r.bits_upto(64);
    const unsigned __int128 p = (unsigned __int128)a * b;
    const vmafx_u128 q = vmafx_mul_u64(a, b);
    bad += q.hi != (uint64_t)(p >> 64) || q.lo != (uint64_t)p;
    const uint32_t d = (uint32_t)(r.bits_upto(32) | 1);
    const uint64_t n = (uint64_t)(((unsigned __int128)r.next() * ((uint64_t)d << 32)) >> 64);  // n < d 2^32
    const vmafx_divmod32 qr = vmafx_divmod_u64_u32(n, d);
    bad += qr.q != n / d || qr.r != n % d;
  }
  EXPECT_EQ(bad, 0u);
}

}  // namespace
