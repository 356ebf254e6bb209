// SPDX-License-Identifier: BSD-3-Clause
// Per-target helper (re-included for every Highway target by the files that
// use foreach_target): the 16-bit multiply-add with accumulation.
//
// MulAccPairs(d32, a, b, sum0, sum1) is hn::ReorderWidenMulAccumulate: on x86
// it returns sum0 + pmaddwd(a, b), int32 lane i being
// sum0[i] + a[2i] * b[2i] + a[2i+1] * b[2i+1], every add wrapping mod 2^32
// (sum1 stays as it is; RearrangeToOddPlusEven(sum0, sum1) is sum0 there).
// On AVX3_DL (AVX-512 VNNI, which Highway requires for that target) one
// vpdpwssd does the multiply-add and the add: its sums wrap as pmaddwd's pair
// sum and paddd do (it is the non-saturating form), so the lanes are the same
// bits. Highway 1.0's AVX3_DL flags name avxvnni, not avx512vnni, and it
// never emits vpdpwssd itself, hence the assembly (full 512-bit vectors only,
// which are EVEX-encoded whatever the assembler prefers).
#if defined(VMAFX_CORE_SIMD_MADD_INL_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef VMAFX_CORE_SIMD_MADD_INL_HPP_
#undef VMAFX_CORE_SIMD_MADD_INL_HPP_
#else
#define VMAFX_CORE_SIMD_MADD_INL_HPP_
#endif

#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace vmafx::simd_madd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D32, class V16 = hn::Vec<hn::Repartition<std::int16_t, D32>>>
HWY_INLINE hn::Vec<D32> MulAccPairs(D32 d32, V16 a, V16 b, hn::Vec<D32> sum0, hn::Vec<D32>& sum1) {
#if HWY_TARGET == HWY_AVX3_DL
  if constexpr (sizeof(sum0.raw) == 64) {
    (void)d32;
    (void)sum1;
    asm("vpdpwssd %2, %1, %0" : "+v"(sum0.raw) : "v"(a.raw), "v"(b.raw));
    return sum0;
  } else {
    return hn::ReorderWidenMulAccumulate(d32, a, b, sum0, sum1);
  }
#else
  return hn::ReorderWidenMulAccumulate(d32, a, b, sum0, sum1);
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace vmafx::simd_madd
HWY_AFTER_NAMESPACE();

#endif  // VMAFX_CORE_SIMD_MADD_INL_HPP_
