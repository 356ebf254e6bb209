// SPDX-License-Identifier: BSD-3-Clause
// SIMD row passes of the integer ADM; see adm_rows.hpp for the contract and
// feature/adm.cpp's scalar rows (scalar_rows()) for the reference each one
// reproduces. Compiled once per Highway target (foreach_target) and chosen at
// run time (HWY_DYNAMIC_DISPATCH); init_simd_rows() puts them in the row
// table that adm::rows() returns while vmafx::simd::enabled(). Without
// Highway this file is empty and rows() is scalar_rows().
//
// Lane layout: one column per int32 lane, except where noted (the scale-0
// vertical DWT works on int16 pairs, the decoupling partly on double lanes).
// int16 samples are sign-extended into int32 lanes (PromoteTo) and stored
// back through DemoteTo, which is exact because every value stored is first
// brought into int16 range by Wrap16 (the low 16 bits, sign-extended: the
// value of adm.cpp's (int16_t) cast) or is proven to lie in it. 64-bit
// products use MulEven on the even int32 lanes; the odd columns are moved
// down into the even lanes (64-bit shift right by 32) and put back with
// OddEven.
//
// Row ends: maps (DWT, CSF, decoupling) move the last vector back to end at
// the last column (columns are independent, and no output aliases an input);
// the sums (masking, denominators) mask off the columns a moved-back vector
// has already counted. Rows narrower than one vector go through zero-filled
// copies. Nothing is read outside what the scalar loop reads, except the
// DWT's own padded row buffers (and prefetch hints, which load nothing).
#include "feature/adm_rows.hpp"

#if VMAFX_HAVE_HWY

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "exact/adm_tables.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "feature/adm_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "core/simd_madd-inl.hpp"
#include <hwy/cache_control.h>

HWY_BEFORE_NAMESPACE();
namespace vmafx::adm::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using vmafx::simd_madd::HWY_NAMESPACE::MulAccPairs;

#if HWY_TARGET == HWY_SCALAR
// No SIMD target: vmafx::simd::enabled() is false and rows() keeps the scalar rows.
void DwtS0Row8(const std::uint8_t* const*, int, int, bool, std::int16_t*, std::int16_t*, std::int16_t*, std::int16_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void DwtS0Row16(const std::uint16_t* const*, int, int, bool, std::int16_t*, std::int16_t*, std::int16_t*,
                std::int16_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void CsfS0Row(const std::int16_t*, int, std::int32_t, std::int32_t, int, std::int16_t*, std::int16_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void CsfS123Row(const std::int32_t*, int, std::uint32_t, std::int32_t*, std::int32_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void CmS0Row(const std::int16_t* const*, const CmBox&, int, int, const CmS0&, std::int64_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void CmBoxRow16(const std::int16_t* const*, const CmS0&, int, int, std::int32_t*, std::int32_t*, std::int32_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void CmBoxRow32(const std::int32_t* const*, const CmS123&, int, int, std::int32_t*, std::int32_t*, std::int32_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void DecoupleS0Row(const std::int16_t* const*, const std::int16_t* const*, int, const std::int32_t*, float, double,
                   std::int16_t* const*, std::int16_t* const*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void DwtS123Row16(const std::int16_t* const*, int, int, std::int32_t*, std::int32_t*, std::int32_t*, std::int32_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void DwtS123Row32(const std::int32_t* const*, int, int, std::int32_t*, std::int32_t*, std::int32_t*, std::int32_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void DecoupleS123Row(const std::int32_t* const*, const std::int32_t* const*, int, float, double, std::int32_t* const*,
                     std::int32_t* const*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void CmS123Row(const std::int32_t* const*, const CmBox&, int, int, const CmS123&, std::int64_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
void DenS0Row(const std::int16_t* const*, int, std::uint64_t*) { HWY_ABORT("adm simd: no SIMD target"); }
void FloatOfInt64(const std::int64_t*, int, float*) { HWY_ABORT("adm simd: no SIMD target"); }
void DenS123Row(const std::int32_t* const*, int, int, std::uint64_t, int, std::uint64_t*) {
  HWY_ABORT("adm simd: no SIMD target");
}
#else

using D32 = hn::ScalableTag<std::int32_t>;
using DU32 = hn::RebindToUnsigned<D32>;
using D64 = hn::Repartition<std::int64_t, D32>;
using DU64 = hn::Repartition<std::uint64_t, D32>;
using D16 = hn::Repartition<std::int16_t, D32>;  // full int16 vector
using D16H = hn::Rebind<std::int16_t, D32>;      // one int16 per int32 lane
using V32 = hn::Vec<D32>;
using V64 = hn::Vec<D64>;
using M32 = hn::Mask<D32>;

constexpr std::size_t kMaxN = HWY_LANES(std::int32_t);

// (int16_t)x of an int32: the low 16 bits, sign-extended.
HWY_INLINE V32 Wrap16(V32 v) { return hn::ShiftRight<16>(hn::ShiftLeft<16>(v)); }
HWY_INLINE V32 Load16(const std::int16_t* p) { return hn::PromoteTo(D32(), hn::LoadU(D16H(), p)); }
// Lanes already in int16 range (Wrap16 or proven bounds): DemoteTo is exact.
HWY_INLINE void Store16(V32 v, std::int16_t* p) { hn::StoreU(hn::DemoteTo(D16H(), v), D16H(), p); }
template <class Pel>
HWY_INLINE V32 LoadPel(const Pel* p) {
  return hn::PromoteTo(D32(), hn::LoadU(hn::Rebind<Pel, D32>(), p));
}
// The odd int32 lanes moved into the even ones (for MulEven).
HWY_INLINE V32 OddDown(V32 v) { return hn::BitCast(D32(), hn::ShiftRight<32>(hn::BitCast(DU64(), v))); }
// Column order again from 64-bit lanes holding the even / odd columns' int32
// in their low halves.
HWY_INLINE V32 MergeLow(V64 even, V64 odd) {
  return hn::OddEven(hn::BitCast(D32(), hn::ShiftLeft<32>(hn::BitCast(DU64(), odd))), hn::BitCast(D32(), even));
}

// ---------------------------------------------------------------------------
// dwt_s0, one output row.
//
// Vertical: adm.cpp sums in int64 and keeps int16((al + add_v) >> bpc) with
// al = sum lo_k u_k - offset, offset = 46342 * 2^(bpc-1), and the same without
// offset for the high-pass taps. With the samples centred, c = u - 2^(bpc-1)
// (in [-2^15, 2^15): an int16, formed by wrapping int16 subtraction), al =
// sum lo_k c_k (the taps sum to 46342) and ah = sum hi_k c_k (they sum to 0).
// Rows 0 and 1 (2 and 3) interleaved give int16 pairs, and one multiply-add
// with the tap pair per row pair forms c0 u0 + c1 u1 in int32; no overflow:
// |sum| <= 54822 * 2^15 = 1796407296 and adding 2^(bpc-1) stays below 2^31.
// The arithmetic shift by bpc leaves |value| <= 27411, so adm.cpp's int16
// cast changes nothing, and the saturating pack is exact. InterleaveLower /
// Upper and the pack (ReorderDemote2To) all work within 128-bit blocks on x86,
// so the pack of the lower and upper halves' results puts every column back in
// place (the row tests check it on every target).
// The row goes into a buffer padded as dwt_indices mirrors it: P[k] is column
// k - 1, P[0] = column 1, P[w+1] = column w-1, P[w+2] = column w-2; output j
// then reads P[2j .. 2j+3] for every j (no special first / last columns).
//
// Horizontal: adm.cpp's int32 sum of four int16 times the 4 taps. The taps fit
// int16, so the sum is two pairwise int16 multiply-adds (ReorderWidenMul-
// Accumulate + RearrangeToOddPlusEven: lane j gets P[2j]*c0 + P[2j+1]*c1, then
// P[2j+2]*c2 + P[2j+3]*c3). No int32 overflow anywhere: sum |taps| = 54822 and
// |s| <= 32768 give |sum| <= 1796476416 < 2^31, as in adm.cpp. The result
// (sum + 32768) >> 16 is within int16, so DemoteTo stores it exactly.
// Two int16 taps (c0 at the even int16 lane, c1 at the odd one) in every
// int32 lane.
HWY_INLINE hn::Vec<D16> TapPair(std::int32_t c0, std::int32_t c1) {
  const std::uint32_t u = (std::uint32_t(std::uint16_t(c1)) << 16) | std::uint16_t(c0);
  return hn::BitCast(D16(), hn::Set(DU32(), u));
}

// init + the sum of a[2i] * b[2i] + a[2i+1] * b[2i+1] into int32 lane i
// (two terms; every add wraps mod 2^32, so the order is free).
HWY_INLINE V32 Madd2(V32 init, hn::Vec<D16> a0, hn::Vec<D16> b0, hn::Vec<D16> a1, hn::Vec<D16> b1) {
  const D32 d;
  V32 s1 = hn::Zero(d);
  V32 s0 = MulAccPairs(d, a0, b0, init, s1);
  s0 = MulAccPairs(d, a1, b1, s0, s1);
  return hn::RearrangeToOddPlusEven(s0, s1);
}

using D8H = hn::Rebind<std::uint8_t, D16>;
using DU16 = hn::RebindToUnsigned<D16>;
using V16 = hn::Vec<D16>;
constexpr std::size_t kMaxN16 = HWY_LANES(std::int16_t);

// Samples u - 2^(bpc-1) of columns j .. j+2N-1 as int16.
HWY_INLINE V16 Centred(const std::uint8_t* p, std::size_t j, V16 mid) {
  const D16 d16;
  return hn::Sub(hn::BitCast(d16, hn::PromoteTo(DU16(), hn::LoadU(D8H(), p + j))), mid);
}
HWY_INLINE V16 Centred(const std::uint16_t* p, std::size_t j, V16 mid) {
  const D16 d16;
  return hn::Sub(hn::BitCast(d16, hn::LoadU(DU16(), p + j)), mid);
}

template <class Pel>
HWY_INLINE void DwtV(const Pel* const* r, std::size_t j, V16 mid, V32 add, int bpc, bool lo_only, std::int16_t* plo,
                     std::int16_t* phi) {
  const D16 d16;
  const D32 d;
  const V16 c0 = Centred(r[0], j, mid), c1 = Centred(r[1], j, mid), c2 = Centred(r[2], j, mid),
            c3 = Centred(r[3], j, mid);
  const V16 p01l = hn::InterleaveLower(d16, c0, c1), p01u = hn::InterleaveUpper(d16, c0, c1);
  const V16 p23l = hn::InterleaveLower(d16, c2, c3), p23u = hn::InterleaveUpper(d16, c2, c3);
  const auto pass = [&](const std::int32_t* c, std::int16_t* out) {
    const V16 t01 = TapPair(c[0], c[1]), t23 = TapPair(c[2], c[3]);
    const V32 l = hn::ShiftRightSame(Madd2(add, p01l, t01, p23l, t23), bpc);
    const V32 u = hn::ShiftRightSame(Madd2(add, p01u, t01, p23u, t23), bpc);
    hn::StoreU(hn::ReorderDemote2To(d16, l, u), d16, out + j);
  };
  pass(vmafx_adm_dwt_lo, plo);
  if (!lo_only) pass(vmafx_adm_dwt_hi, phi);
  (void)d;
}

// Output columns j .. j+N-1 of one band pair from padded row P (see above).
HWY_INLINE V32 DwtH(const std::int16_t* P, std::size_t j, hn::Vec<D16> c01, hn::Vec<D16> c23) {
  const D32 d;
  const D16 d16;
  const hn::Vec<D16> x01 = hn::LoadU(d16, P + 2 * j), x23 = hn::LoadU(d16, P + 2 * j + 2);
  V32 s1 = hn::Zero(d);
  V32 s0 = MulAccPairs(d, x01, c01, hn::Set(d, VMAFX_ADM_S0_H_ROUND), s1);
  s0 = MulAccPairs(d, x23, c23, s0, s1);
  return hn::ShiftRight<VMAFX_ADM_S0_H_SHIFT>(hn::RearrangeToOddPlusEven(s0, s1));
}

template <class Pel>
void DwtS0RowT(const Pel* const* r, int width, int bpc, bool lo_only, std::int16_t* oa, std::int16_t* ov,
               std::int16_t* oh, std::int16_t* od) {
  const D32 d;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width), hw = (w + 1) / 2;
  // Padded rows: 1 before, 2 after, and slack for the last vector's reads.
  const std::size_t len = w + 3 + 2 * n + 2;
  thread_local std::vector<std::int16_t> buf;
  if (buf.size() < 2 * len) buf.assign(2 * len, 0);
  std::int16_t* plo = buf.data();
  std::int16_t* phi = buf.data() + len;
  const std::size_t n16 = hn::Lanes(D16());
  const V16 mid = hn::Set(D16(), std::int16_t(std::uint16_t(1u << (bpc - 1))));  // wraps to -2^15 at 16 bits
  const V32 add = hn::Set(d, std::int32_t{1} << (bpc - 1));
  if (w >= n16) {
    // The next output row reads the two source rows below r[3]: ask for them
    // now (a hint only; past the plane's end it loads nothing).
    const std::ptrdiff_t stride = reinterpret_cast<const char*>(r[3]) - reinterpret_cast<const char*>(r[2]);
    const char* next = reinterpret_cast<const char*>(r[3]) + stride;
    for (std::size_t j = 0; j < w; j += n16) {
      const std::size_t c = std::min(j, w - n16);
      hwy::Prefetch(next + c * sizeof(Pel));
      hwy::Prefetch(next + stride + c * sizeof(Pel));
      DwtV(r, c, mid, add, bpc, lo_only, plo + 1, phi + 1);
    }
  } else {
    HWY_ALIGN Pel rb[4][kMaxN16] = {};
    const Pel* rp[4];
    for (int k = 0; k < 4; ++k) {
      std::memcpy(rb[k], r[k], w * sizeof(Pel));
      rp[k] = rb[k];
    }
    HWY_ALIGN std::int16_t tl[kMaxN16], th[kMaxN16];
    DwtV(rp, 0, mid, add, bpc, lo_only, tl, th);
    std::memcpy(plo + 1, tl, w * sizeof(std::int16_t));
    if (!lo_only) std::memcpy(phi + 1, th, w * sizeof(std::int16_t));
  }
  // dwt_indices' mirrors: -1 -> 1, w -> w-1, w+1 -> w-2.
  for (std::int16_t* p : {plo, phi}) {
    if (lo_only && p == phi) break;
    p[0] = p[2];
    p[w + 1] = p[w];
    p[w + 2] = p[w - 1];
  }
  const auto lo01 = TapPair(vmafx_adm_dwt_lo[0], vmafx_adm_dwt_lo[1]);
  const auto lo23 = TapPair(vmafx_adm_dwt_lo[2], vmafx_adm_dwt_lo[3]);
  const auto hi01 = TapPair(vmafx_adm_dwt_hi[0], vmafx_adm_dwt_hi[1]);
  const auto hi23 = TapPair(vmafx_adm_dwt_hi[2], vmafx_adm_dwt_hi[3]);
  const auto col = [&](std::size_t j, std::int16_t* a, std::int16_t* v, std::int16_t* h, std::int16_t* dd) {
    Store16(DwtH(plo, j, lo01, lo23), a + j);
    if (lo_only) return;
    Store16(DwtH(plo, j, hi01, hi23), v + j);
    Store16(DwtH(phi, j, lo01, lo23), h + j);
    Store16(DwtH(phi, j, hi01, hi23), dd + j);
  };
  if (hw >= n) {
    // The last vector reads up to P[2*hw + 1] <= P[w + 2].
    for (std::size_t j = 0; j < hw; j += n) col(std::min(j, hw - n), oa, ov, oh, od);
  } else {
    // Reads up to P[2n + 1], inside the slack; outputs go through a copy.
    HWY_ALIGN std::int16_t t[4][kMaxN];
    col(0, t[0], t[1], t[2], t[3]);
    std::memcpy(oa, t[0], hw * sizeof(std::int16_t));
    if (!lo_only) {
      std::memcpy(ov, t[1], hw * sizeof(std::int16_t));
      std::memcpy(oh, t[2], hw * sizeof(std::int16_t));
      std::memcpy(od, t[3], hw * sizeof(std::int16_t));
    }
  }
}

void DwtS0Row8(const std::uint8_t* const* r, int w, int bpc, bool lo_only, std::int16_t* oa, std::int16_t* ov,
               std::int16_t* oh, std::int16_t* od) {
  DwtS0RowT(r, w, bpc, lo_only, oa, ov, oh, od);
}
void DwtS0Row16(const std::uint16_t* const* r, int w, int bpc, bool lo_only, std::int16_t* oa, std::int16_t* ov,
                std::int16_t* oh, std::int16_t* od) {
  DwtS0RowT(r, w, bpc, lo_only, oa, ov, oh, od);
}

// ---------------------------------------------------------------------------
// csf_s0, one band row. v = factor * s is adm.cpp's int32 product (|v| <=
// 32768 * 65535 < 2^31) and v + add <= 32767 * 65535 + 65535 < 2^31, so the
// int32 lanes hold the exact values; the arithmetic shift and Wrap16 give
// (int16_t)((v + add) >> shift). The filter input: 4369 * |d| + 2048 <=
// 143165440 fits int32, >> 12 then Wrap16 is adm.cpp's int16 store.
HWY_INLINE void CsfS0Col(const std::int16_t* s, std::size_t j, V32 factor, V32 add, int shift, std::int16_t* o,
                         std::int16_t* f) {
  const D32 d;
  const V32 dv = Wrap16(hn::ShiftRightSame(Load16(s + j) * factor + add, shift));
  Store16(dv, o + j);
  const V32 fv = hn::ShiftRight<VMAFX_ADM_S0_FLT_SHIFT>(hn::Set(d, VMAFX_ADM_S0_ONE_BY_30) * hn::Abs(dv) +
                                                        hn::Set(d, VMAFX_ADM_S0_FLT_ROUND));
  Store16(Wrap16(fv), f + j);
}

void CsfS0Row(const std::int16_t* s, int width, std::int32_t factor, std::int32_t add, int shift, std::int16_t* o,
              std::int16_t* f) {
  const D32 d;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width);
  const V32 fv = hn::Set(d, factor), av = hn::Set(d, add);
  if (w >= n) {
    for (std::size_t j = 0; j < w; j += n) CsfS0Col(s, std::min(j, w - n), fv, av, shift, o, f);
    return;
  }
  if (w == 0) return;
  HWY_ALIGN std::int16_t sb[kMaxN] = {}, ob[kMaxN], fb[kMaxN];
  std::memcpy(sb, s, w * sizeof(std::int16_t));
  CsfS0Col(sb, 0, fv, av, shift, ob, fb);
  std::memcpy(o, ob, w * sizeof(std::int16_t));
  std::memcpy(f, fb, w * sizeof(std::int16_t));
}

// ---------------------------------------------------------------------------
// csf_s123, one band row.
//
// d = (int32)((int64{factor} * s + 2^27) >> 28): the product of the uint32
// factor and the int32 s is MulEven of the unsigned lanes, minus factor << 32
// where s < 0 (s = s_u - 2^32), exact modulo 2^64 and so exact (|product| <
// 2^63). (int32) of the shifted value is bits 28 .. 59 of the sum, which a
// logical shift gives as well as adm.cpp's arithmetic one.
// f = (int32)((int64{143165577} * abs32(d) - 2^31) >> 32): the high half of
// the int64 sum, i.e. its odd int32 lane; Abs maps INT32_MIN to itself, as
// abs32 does, and MulEven of int32 lanes is the signed 64-bit product.
HWY_INLINE void CsfS123Col(const std::int32_t* s, std::size_t j, std::uint32_t factor, std::int32_t* o,
                           std::int32_t* f) {
  const D32 d;
  const DU32 du;
  const D64 d64;
  const DU64 du64;
  const V32 sv = hn::LoadU(d, s + j);
  const auto fu = hn::Set(du, factor);
  const auto f64 = hn::Set(du64, factor);
  const auto round = hn::Set(du64, std::uint64_t{VMAFX_ADM_S123_CSF_ROUND});
  const auto prod = [&](V32 x) {  // x: columns in the even lanes
    const auto p = hn::MulEven(hn::BitCast(du, x), fu);
    // The low half of each 64-bit lane of (x >> 31) is all ones where x < 0.
    const auto neg = hn::BitCast(du64, hn::ShiftRight<31>(x));
    const auto corr = hn::ShiftLeft<32>(hn::And(neg, f64));
    return hn::BitCast(d64, hn::ShiftRight<VMAFX_ADM_S123_CSF_SHIFT>(p - corr + round));
  };
  const V32 dv = MergeLow(prod(sv), prod(OddDown(sv)));
  hn::StoreU(dv, d, o + j);
  const V32 ad = hn::Abs(dv);
  const V32 k = hn::Set(d, VMAFX_ADM_S123_ONE_BY_30);
  const V64 r = hn::Set(d64, std::int64_t{VMAFX_ADM_S123_FLT_ROUND});
  static_assert(VMAFX_ADM_S123_FLT_SHIFT == 32, "the high half is the shifted value");
  const V64 fe = hn::MulEven(ad, k) + r, fo = hn::MulEven(OddDown(ad), k) + r;
  const V32 fv = hn::OddEven(hn::BitCast(d, fo), hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, fe))));
  hn::StoreU(fv, d, f + j);
}

void CsfS123Row(const std::int32_t* s, int width, std::uint32_t factor, std::int32_t* o, std::int32_t* f) {
  const std::size_t n = hn::Lanes(D32()), w = std::size_t(width);
  if (w >= n) {
    for (std::size_t j = 0; j < w; j += n) CsfS123Col(s, std::min(j, w - n), factor, o, f);
    return;
  }
  if (w == 0) return;
  HWY_ALIGN std::int32_t sb[kMaxN] = {}, ob[kMaxN], fb[kMaxN];
  std::memcpy(sb, s, w * sizeof(std::int32_t));
  CsfS123Col(sb, 0, factor, ob, fb);
  std::memcpy(o, ob, w * sizeof(std::int32_t));
  std::memcpy(f, fb, w * sizeof(std::int32_t));
}

// ---------------------------------------------------------------------------
// decouple_s0, one row. One column per double lane; int16 samples are widened
// to int32 (for the table index) and to double. Every integer formed below is
// exact in double (|x| < 2^53), so the double arithmetic is adm.cpp's integer
// arithmetic, and the float / double steps are the same IEEE operations as
// adm.cpp's (round to nearest, no FMA: the build has -ffp-contract=off and
// only separate Mul / Add are used here):
//
// Angle test (h and v bands):
//   ot_dp, o_mag_sq, t_mag_sq: each product of int16 has |p| <= 2^30, each sum
//   |s| <= 2^31, integers, exact in double (same value as adm.cpp's int64).
//   (float)int64 rounds that integer once to nearest float; DemoteTo rounds
//   the same (exact) value once to nearest: equal. (double)float is exact;
//   / 4096.0 is a power-of-two scaling of a value that is 0 or >= 1, exact, so
//   * 2^-12 gives the same double. dp >= 0.0f is dp >= 0.0 (0.0f is exact);
//   dp * dp and (double(cos1_sq) * om) * tm are the same products in the same
//   order as adm.cpp, per lane; the comparison is the same.
// Per band (o, t):
//   tmp_k = (int64{lut[o + 32768]} * t + 16384) >> 15: |lut| <= 2^30 (2^30 /
//   |o|), so |lut * t| <= 2^45, the sum is an exact double integer, * 2^-15 is
//   exact and Floor gives the arithmetic shift. |tmp_k| <= 2^30 + 1, so the
//   (int32_t) cast changes nothing. o == 0 -> 32768, then the clamp to
//   [0, 32768] (Max / Min on values that are never NaN).
//   rst = (k * o + 16384) >> 15: 0 <= k <= 2^15, |o| <= 2^15, |k * o| <= 2^30
//   (no int32 overflow, exact double); Floor of (.. ) * 2^-15 again. It lies in
//   [-32768, 32767] (k * o in [-2^30, 2^30 - 2^15]), so the int16_t cast is the
//   identity.
//   rst_f = (float(k) / 32768) * (float(o) / 64): both factors are exact (k,
//   |o| <= 2^15) and, when nonzero, >= 2^-15 and >= 2^-6 in magnitude, so the
//   float product cannot underflow to 0: rst_f > 0 iff k > 0 and o > 0, rst_f
//   < 0 iff k > 0 and o < 0 (k >= 0 after the clamp).
//   limit_gain: x = double(rst) * egl and y = double(t) are the same double
//   products / values; x < y ? x : y (resp. x > y ? x : y) picks per lane as
//   the scalar ternary. The pick is truncated to int16: y = t is an integer;
//   x is picked only when it lies between t and 0 (rst_f > 0: rst >= 0 and
//   egl >= 0 give 0 <= x < t <= 32767; rst_f < 0: t < x <= 0), so
//   static_cast<int16_t>(x) is defined and equals Trunc(x).
//   a = (int16_t)(t - rst): |t - rst| <= 65535, exact double, converted to
//   int32 exactly, then Wrap16.
using DD = hn::ScalableTag<double>;
using DD32 = hn::Rebind<std::int32_t, DD>;
using DD16 = hn::Rebind<std::int16_t, DD>;
using DDF = hn::Rebind<float, DD>;
using VD = hn::Vec<DD>;
using VD32 = hn::Vec<DD32>;
using MD = hn::Mask<DD>;

template <class T>
struct DecRowsT {
  const T* o[3];
  const T* t[3];
  T* r[3];
  T* a[3];
};
using DecRows = DecRowsT<std::int16_t>;
using DecRows32 = DecRowsT<std::int32_t>;

// A decoupling row through col(rows, j), which does columns j .. j + n - 1:
// columns are independent and no output aliases an input, so the last vector
// moves back to end at the last column; a row narrower than one vector goes
// through zero-filled copies (kMax >= n columns).
template <std::size_t kMax, class T, class Col>
HWY_INLINE void DecoupleRowT(const T* const* o, const T* const* t, std::size_t w, std::size_t n, T* const* r,
                             T* const* a, const Col& col) {
  if (w >= n) {
    const DecRowsT<T> rw{{o[0], o[1], o[2]}, {t[0], t[1], t[2]}, {r[0], r[1], r[2]}, {a[0], a[1], a[2]}};
    for (std::size_t j = 0; j < w; j += n) col(rw, std::min(j, w - n));
    return;
  }
  if (w == 0) return;
  HWY_ALIGN T in[6][kMax] = {}, out[6][kMax];
  DecRowsT<T> rw;
  for (int b = 0; b < 3; ++b) {
    std::memcpy(in[b], o[b], w * sizeof(T));
    std::memcpy(in[3 + b], t[b], w * sizeof(T));
    rw.o[b] = in[b];
    rw.t[b] = in[3 + b];
    rw.r[b] = out[b];
    rw.a[b] = out[3 + b];
  }
  col(rw, 0);
  for (int b = 0; b < 3; ++b) {
    std::memcpy(r[b], out[b], w * sizeof(T));
    std::memcpy(a[b], out[3 + b], w * sizeof(T));
  }
}

HWY_INLINE VD32 LoadD32(const std::int16_t* p) { return hn::PromoteTo(DD32(), hn::LoadU(DD16(), p)); }
// Integer-valued doubles in int32 range (see above): the conversion is exact.
HWY_INLINE void StoreD16(VD v, std::int16_t* p) {
  const VD32 i = hn::DemoteTo(DD32(), v);
  const VD32 w = hn::ShiftRight<16>(hn::ShiftLeft<16>(i));  // (int16_t), identity where in range
  hn::StoreU(hn::DemoteTo(DD16(), w), DD16(), p);
}

HWY_INLINE void DecoupleS0Col(const DecRows& rw, std::size_t j, const std::int32_t* lut, VD c, VD egl) {
  const DD d;
  const VD zero = hn::Zero(d);
  const VD half = hn::Set(d, 16384.0);
  const VD inv15 = hn::Set(d, 1.0 / 32768.0);  // 2^-15, exact
  const VD inv12 = hn::Set(d, 1.0 / 4096.0);   // 2^-12, exact
  VD32 oi[3];
  VD o[3], t[3];
  for (int b = 0; b < 3; ++b) {
    oi[b] = LoadD32(rw.o[b] + j);
    o[b] = hn::PromoteTo(d, oi[b]);
    t[b] = hn::PromoteTo(d, LoadD32(rw.t[b] + j));
  }
  const auto tofd = [&](VD x) {  // (double)(float)x, then / 4096
    return hn::Mul(hn::PromoteTo(d, hn::DemoteTo(DDF(), x)), inv12);
  };
  const VD dp = tofd(hn::Add(hn::Mul(o[0], t[0]), hn::Mul(o[1], t[1])));
  const VD om = tofd(hn::Add(hn::Mul(o[0], o[0]), hn::Mul(o[1], o[1])));
  const VD tm = tofd(hn::Add(hn::Mul(t[0], t[0]), hn::Mul(t[1], t[1])));
  const MD angle = hn::And(hn::Ge(dp, zero), hn::Ge(hn::Mul(dp, dp), hn::Mul(hn::Mul(c, om), tm)));
  for (int b = 0; b < 3; ++b) {
    const VD lv = hn::PromoteTo(d, hn::GatherIndex(DD32(), lut, hn::Add(oi[b], hn::Set(DD32(), 32768))));
    const VD tk = hn::Floor(hn::Mul(hn::Add(hn::Mul(lv, t[b]), half), inv15));
    const MD o0 = hn::Eq(o[b], zero);
    const VD k = hn::IfThenElse(o0, hn::Set(d, 32768.0), hn::Min(hn::Max(tk, zero), hn::Set(d, 32768.0)));
    const VD rst = hn::Floor(hn::Mul(hn::Add(hn::Mul(k, o[b]), half), inv15));
    const MD kpos = hn::And(angle, hn::Gt(k, zero));
    const MD pos = hn::And(kpos, hn::Gt(o[b], zero));
    const MD neg = hn::And(kpos, hn::Lt(o[b], zero));
    const VD x = hn::Mul(rst, egl), y = t[b];
    const VD lp = hn::Trunc(hn::IfThenElse(hn::Lt(x, y), x, y));
    const VD ln = hn::Trunc(hn::IfThenElse(hn::Gt(x, y), x, y));
    const VD rf = hn::IfThenElse(pos, lp, hn::IfThenElse(neg, ln, rst));
    StoreD16(rf, rw.r[b] + j);
    StoreD16(hn::Sub(y, rf), rw.a[b] + j);
  }
}

// decouple_s0 with an integer gain limit e (0 <= e <= 32767; libvmaf's
// option allows [1, 100], and the models use 100 and 1): the same values in
// int32 lanes, twice the columns per vector of the double-lane version above.
//
// Angle test: each int16 product is in [-2^30 + 2^15, 2^30], so the sum of two
// is in [-2^31 + 2^16, 2^31]: the wrapping int32 sum is exact except for
// 2^31 itself, which wraps to INT32_MIN (no exact sum can be INT32_MIN), and
// is put back as the float 2^31. ConvertTo(float) of the other lanes rounds
// the exact integer once to nearest, as (float)int64 does. The comparison
// runs in double lanes on the two halves, with the same double products as
// decouple_s0 except that both sides lack adm.cpp's factor 2^-24 (2^-12 per
// dot product): scaling by a power of two commutes with every rounding here
// (no value comes near the subnormal or overflow ranges: nonzero magnitudes
// are between 1 and 2^62 after the products), so the comparison is the same;
// dp >= 0 is tested on the unscaled float.
// Per band: lut[o + 32768] = L with |L| <= 2^30 by a gather; with Lh = L >> 15
// (arithmetic, |Lh| <= 2^15) and Ll = L & 0x7FFF, L * t + 2^14 = 2^15 Lh t +
// Ll t + 2^14, so tmp_k = (L t + 2^14) >> 15 = Lh t + ((Ll t + 2^14) >> 15)
// exactly, every term within int32 (|Lh t| <= 2^30, |Ll t| < 2^30, |tmp_k| <=
// 2^30 + 2^15). k * o and rst as in decouple_s0 (|k o| <= 2^30). limit_gain:
// x = rst * e is an integer below 2^30 in magnitude, exact in int32 and in
// adm.cpp's double product, so x < y ? x : y is Min and the (int16_t) of the
// pick is the pick itself (decouple_s0's argument: it lies between t and 0).
HWY_INLINE void DecoupleS0IntCol(const DecRows& rw, std::size_t j, const std::int32_t* lut, VD c, V32 egl) {
  const D32 d;
  const hn::RebindToFloat<D32> df;
  const hn::Half<decltype(df)> dfh;
  const DD dd;
  const V32 zero = hn::Zero(d);
  const V32 k32768 = hn::Set(d, 32768);
  const V32 half = hn::Set(d, 16384);
  V32 o[3], t[3];
  for (int b = 0; b < 3; ++b) {
    o[b] = Load16(rw.o[b] + j);
    t[b] = Load16(rw.t[b] + j);
  }
  const V32 imin = hn::Set(d, std::numeric_limits<std::int32_t>::min());
  const auto tof = [&](V32 x) {  // exact int32 sum in [-2^31 + 2^16, 2^31] -> float
    return hn::IfThenElse(hn::RebindMask(df, hn::Eq(x, imin)), hn::Set(df, 2147483648.0f), hn::ConvertTo(df, x));
  };
  const auto dp = tof(o[0] * t[0] + o[1] * t[1]);
  const auto om = tof(o[0] * o[0] + o[1] * o[1]);
  const auto tm = tof(t[0] * t[0] + t[1] * t[1]);
  const auto cmp = [&](hn::Vec<decltype(dfh)> p, hn::Vec<decltype(dfh)> q, hn::Vec<decltype(dfh)> u) {
    const VD pd = hn::PromoteTo(dd, p), qd = hn::PromoteTo(dd, q), ud = hn::PromoteTo(dd, u);
    return hn::BitCast(d, hn::VecFromMask(dd, hn::Ge(hn::Mul(pd, pd), hn::Mul(hn::Mul(c, qd), ud))));
  };
  const V32 ge = hn::ConcatEven(d, cmp(hn::UpperHalf(dfh, dp), hn::UpperHalf(dfh, om), hn::UpperHalf(dfh, tm)),
                                cmp(hn::LowerHalf(dfh, dp), hn::LowerHalf(dfh, om), hn::LowerHalf(dfh, tm)));
  const M32 angle = hn::And(hn::RebindMask(d, hn::Ge(dp, hn::Zero(df))), hn::MaskFromVec(ge));
  for (int b = 0; b < 3; ++b) {
    const V32 L = hn::GatherIndex(d, lut, o[b] + k32768);
    const V32 tk = hn::ShiftRight<15>(L) * t[b] + hn::ShiftRight<15>(hn::And(L, hn::Set(d, 0x7FFF)) * t[b] + half);
    const V32 k = hn::IfThenElse(hn::Eq(o[b], zero), k32768, hn::Min(hn::Max(tk, zero), k32768));
    const V32 rst = hn::ShiftRight<15>(k * o[b] + half);
    const M32 kpos = hn::And(angle, hn::Gt(k, zero));
    const M32 pos = hn::And(kpos, hn::Gt(o[b], zero));
    const M32 neg = hn::And(kpos, hn::Lt(o[b], zero));
    const V32 x = rst * egl;
    const V32 rf = hn::IfThenElse(pos, hn::Min(x, t[b]), hn::IfThenElse(neg, hn::Max(x, t[b]), rst));
    Store16(rf, rw.r[b] + j);
    Store16(Wrap16(t[b] - rf), rw.a[b] + j);
  }
}

void DecoupleS0Row(const std::int16_t* const* o, const std::int16_t* const* t, int width, const std::int32_t* lut,
                   float cos1_sq, double egl, std::int16_t* const* r, std::int16_t* const* a) {
  const DD d;
  const std::size_t w = std::size_t(width);
  const VD c = hn::Set(d, static_cast<double>(cos1_sq));
  if (egl >= 0 && egl <= 32767 && egl == std::floor(egl)) {
    const V32 ev = hn::Set(D32(), static_cast<std::int32_t>(egl));
    DecoupleRowT<kMaxN>(o, t, w, hn::Lanes(D32()), r, a,
                        [&](const DecRows& rw, std::size_t j) { DecoupleS0IntCol(rw, j, lut, c, ev); });
    return;
  }
  const VD ev = hn::Set(d, egl);
  DecoupleRowT<HWY_LANES(double)>(o, t, w, hn::Lanes(d), r, a,
                                  [&](const DecRows& rw, std::size_t j) { DecoupleS0Col(rw, j, lut, c, ev); });
}

// ---------------------------------------------------------------------------
// dwt_s123, one output row.
//
// Both passes of adm.cpp's dwt_s123 sum four int32 samples times the taps in
// int64 and keep (int32)((sum + rnd) >> sh). The sums need up to 48 bits, so
// they are formed from 16-bit halves with exact int32 arithmetic:
//
// Split. Any int32 x = 2^16 * H + 2^15 + L with H = x >> 16 (arithmetic, in
// [-2^15, 2^15)) and L = (x & 0xFFFF) - 2^15 (in [-2^15, 2^15)); L is the low
// 16 bits of x ^ 0x8000 read as int16. Both halves fit int16.
// Sum. With taps c_k (|c_k| < 2^15, sum |c_k| = 54822): sum c_k x_k =
// 2^16 * (A + K) + B with A = sum c_k H_k and B = sum c_k L_k (each at most
// 54822 * 2^15 = 1796407296 < 2^31 in magnitude: exact int32, pairwise int16
// multiply-adds) and K = 2^15 * sum c_k / 2^16 = sum c_k / 2: 23171 for the
// low-pass taps (sum 46342), 0 for the high-pass ones (sum 0).
// Rounding. For sh <= 16 and rnd = 2^(sh-1): (2^16 (A + K) + B + rnd) >> sh =
// (A + K) * 2^(16-sh) + ((B + rnd) >> sh), exactly (the first term is a
// multiple of 2^sh). B + rnd < 2^31, so the arithmetic shift of the int32 is
// exact; the int32 result wraps as the (int32_t) cast of the int64 does (both
// are the value modulo 2^32): A + K < 2^31 too, so only the doubling at
// sh = 15 wraps.
//
// Vertical pass at scale 1 (int16 rows, no rounding): the sum itself,
// |sum| <= 54822 * 32768 < 2^31, in int32 lanes. At scales 2 and 3 (int32
// rows, rnd 2^15, sh 16): the split above, where x ^ 0x8000 holds (L, H) as
// the int16 pair of each int32 lane, so a multiply-add with the tap pair
// (c, 0) gives c * L and with (0, c) gives c * H.
// The vertical results go, split into H and L, into padded int16 rows as in
// dwt_s0 (P[k] = column k - 1, P[0] = column 1, P[w+1] = column w-1, P[w+2]
// = column w-2), so the horizontal pass reads the pairs P[2j], P[2j+1] and
// P[2j+2], P[2j+3] of output j with two multiply-adds per half.

// Stores the split halves of x: H at ph, L at pl (columns j..j+N-1).
HWY_INLINE void StoreSplit(V32 x, std::int16_t* ph, std::int16_t* pl) {
  const D32 d;
  Store16(hn::ShiftRight<16>(x), ph);
  Store16(Wrap16(hn::Xor(x, hn::Set(d, 0x8000))), pl);
}

struct SplitRows {  // padded rows, each starting at column -1
  std::int16_t *hlo, *llo, *hhi, *lhi;
};

HWY_INLINE void DwtS123V(const std::int16_t* const* r, std::size_t j, const SplitRows& p) {
  const D32 d;
  const V32 u0 = Load16(r[0] + j), u1 = Load16(r[1] + j), u2 = Load16(r[2] + j), u3 = Load16(r[3] + j);
  const V32 al = hn::Set(d, vmafx_adm_dwt_lo[0]) * u0 + hn::Set(d, vmafx_adm_dwt_lo[1]) * u1 +
                 hn::Set(d, vmafx_adm_dwt_lo[2]) * u2 + hn::Set(d, vmafx_adm_dwt_lo[3]) * u3;
  const V32 ah = hn::Set(d, vmafx_adm_dwt_hi[0]) * u0 + hn::Set(d, vmafx_adm_dwt_hi[1]) * u1 +
                 hn::Set(d, vmafx_adm_dwt_hi[2]) * u2 + hn::Set(d, vmafx_adm_dwt_hi[3]) * u3;
  StoreSplit(al, p.hlo + 1 + j, p.llo + 1 + j);
  StoreSplit(ah, p.hhi + 1 + j, p.lhi + 1 + j);
}

HWY_INLINE void DwtS123V(const std::int32_t* const* r, std::size_t j, const SplitRows& p) {
  const D32 d;
  const D16 d16;
  const V32 flip = hn::Set(d, 0x8000);
  V32 s1 = hn::Zero(d);
  V32 alH = hn::Zero(d), alL = hn::Zero(d), ahH = hn::Zero(d), ahL = hn::Zero(d);
  for (int k = 0; k < 4; ++k) {
    const hn::Vec<D16> x = hn::BitCast(d16, hn::Xor(hn::LoadU(d, r[k] + j), flip));  // (L, H) pairs
    alL = MulAccPairs(d, x, TapPair(vmafx_adm_dwt_lo[k], 0), alL, s1);
    alH = MulAccPairs(d, x, TapPair(0, vmafx_adm_dwt_lo[k]), alH, s1);
    ahL = MulAccPairs(d, x, TapPair(vmafx_adm_dwt_hi[k], 0), ahL, s1);
    ahH = MulAccPairs(d, x, TapPair(0, vmafx_adm_dwt_hi[k]), ahH, s1);
  }
  const V32 z = hn::Zero(d);
  alL = hn::RearrangeToOddPlusEven(alL, z);
  alH = hn::RearrangeToOddPlusEven(alH, z);
  ahL = hn::RearrangeToOddPlusEven(ahL, z);
  ahH = hn::RearrangeToOddPlusEven(ahH, z);
  const V32 rnd = hn::Set(d, 32768);
  const V32 tl = alH + hn::Set(d, VMAFX_ADM_DWT_LO_SUM / 2) + hn::ShiftRight<16>(alL + rnd);
  const V32 th = ahH + hn::ShiftRight<16>(ahL + rnd);
  StoreSplit(tl, p.hlo + 1 + j, p.llo + 1 + j);
  StoreSplit(th, p.hhi + 1 + j, p.lhi + 1 + j);
}

// One output band at columns j..j+N-1 from the split row (ph, pl): taps c,
// K = sum c / 2, rounding 2^(sh-1), shift sh (15 or 16).
HWY_INLINE V32 DwtS123H(const std::int16_t* ph, const std::int16_t* pl, std::size_t j, hn::Vec<D16> c01,
                        hn::Vec<D16> c23, std::int32_t kc, int sh) {
  const D32 d;
  const D16 d16;
  const V32 a = Madd2(hn::Set(d, kc), hn::LoadU(d16, ph + 2 * j), c01, hn::LoadU(d16, ph + 2 * j + 2), c23);
  const V32 b = Madd2(hn::Zero(d), hn::LoadU(d16, pl + 2 * j), c01, hn::LoadU(d16, pl + 2 * j + 2), c23);
  const V32 lo = hn::ShiftRightSame(b + hn::Set(d, std::int32_t{1} << (sh - 1)), sh);
  return (sh == 15 ? hn::ShiftLeft<1>(a) : a) + lo;
}

template <class In>
void DwtS123RowT(const In* const* r, int width, int scale, std::int32_t* oa, std::int32_t* ov, std::int32_t* oh,
                 std::int32_t* od) {
  const D32 d;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width), hw = (w + 1) / 2;
  const int sh = vmafx_adm_s123_h_shift[scale - 1];
  // Padded rows: 1 before, 2 after, and slack for the last vector's reads.
  const std::size_t len = w + 3 + 2 * n + 2;
  thread_local std::vector<std::int16_t> buf;
  if (buf.size() < 4 * len) buf.assign(4 * len, 0);
  const SplitRows p{buf.data(), buf.data() + len, buf.data() + 2 * len, buf.data() + 3 * len};
  if (w >= n) {
    // Prefetch the next output row's two new source rows, as dwt_s0 does.
    const std::ptrdiff_t stride = reinterpret_cast<const char*>(r[3]) - reinterpret_cast<const char*>(r[2]);
    const char* next = reinterpret_cast<const char*>(r[3]) + stride;
    for (std::size_t j = 0; j < w; j += n) {
      const std::size_t c = std::min(j, w - n);
      hwy::Prefetch(next + c * sizeof(In));
      hwy::Prefetch(next + stride + c * sizeof(In));
      DwtS123V(r, c, p);
    }
  } else {
    HWY_ALIGN In rb[4][kMaxN] = {};
    const In* rp[4];
    for (int k = 0; k < 4; ++k) {
      std::memcpy(rb[k], r[k], w * sizeof(In));
      rp[k] = rb[k];
    }
    HWY_ALIGN std::int16_t t[4][kMaxN + 1];
    const SplitRows q{t[0], t[1], t[2], t[3]};
    DwtS123V(rp, 0, q);
    for (int k = 0; k < 4; ++k) std::memcpy((&p.hlo)[k] + 1, t[k] + 1, w * sizeof(std::int16_t));
  }
  for (std::int16_t* a : {p.hlo, p.llo, p.hhi, p.lhi}) {  // dwt_indices' mirrors
    a[0] = a[2];
    a[w + 1] = a[w];
    a[w + 2] = a[w - 1];
  }
  const auto lo01 = TapPair(vmafx_adm_dwt_lo[0], vmafx_adm_dwt_lo[1]);
  const auto lo23 = TapPair(vmafx_adm_dwt_lo[2], vmafx_adm_dwt_lo[3]);
  const auto hi01 = TapPair(vmafx_adm_dwt_hi[0], vmafx_adm_dwt_hi[1]);
  const auto hi23 = TapPair(vmafx_adm_dwt_hi[2], vmafx_adm_dwt_hi[3]);
  constexpr std::int32_t kLo = VMAFX_ADM_DWT_LO_SUM / 2;
  const auto col = [&](std::size_t j, std::int32_t* a, std::int32_t* v, std::int32_t* h, std::int32_t* dd) {
    hn::StoreU(DwtS123H(p.hlo, p.llo, j, lo01, lo23, kLo, sh), d, a + j);
    hn::StoreU(DwtS123H(p.hlo, p.llo, j, hi01, hi23, 0, sh), d, v + j);
    hn::StoreU(DwtS123H(p.hhi, p.lhi, j, lo01, lo23, kLo, sh), d, h + j);
    hn::StoreU(DwtS123H(p.hhi, p.lhi, j, hi01, hi23, 0, sh), d, dd + j);
  };
  if (hw >= n) {
    // The last vector reads up to P[2*hw + 1] <= P[w + 2].
    for (std::size_t j = 0; j < hw; j += n) col(std::min(j, hw - n), oa, ov, oh, od);
  } else {
    // Reads up to P[2n + 1], inside the slack; outputs go through a copy.
    HWY_ALIGN std::int32_t t[4][kMaxN];
    col(0, t[0], t[1], t[2], t[3]);
    std::memcpy(oa, t[0], hw * sizeof(std::int32_t));
    std::memcpy(ov, t[1], hw * sizeof(std::int32_t));
    std::memcpy(oh, t[2], hw * sizeof(std::int32_t));
    std::memcpy(od, t[3], hw * sizeof(std::int32_t));
  }
}

void DwtS123Row16(const std::int16_t* const* r, int w, int scale, std::int32_t* oa, std::int32_t* ov, std::int32_t* oh,
                  std::int32_t* od) {
  DwtS123RowT(r, w, scale, oa, ov, oh, od);
}
void DwtS123Row32(const std::int32_t* const* r, int w, int scale, std::int32_t* oa, std::int32_t* ov, std::int32_t* oh,
                  std::int32_t* od) {
  DwtS123RowT(r, w, scale, oa, ov, oh, od);
}

// ---------------------------------------------------------------------------
// decouple_s123, one row. One column per double lane, as decouple_s0 (whose
// comment gives the float / double steps), with int32 bands. What differs:
//
// Angle test: the products of int32 need up to 62 bits and adm.cpp sums them
// in int64 (wrapping: 2 * 2^62 becomes -2^63), then rounds the int64 to float
// once. Where every |value| of the vector is below 2^26, the products (< 2^52)
// and sums (< 2^53) are exact in double and DemoteTo rounds them once.
// Otherwise: exact int64 products (MulEven of the int32 values in the low
// halves of the int64 lanes), the same wrapping int64 sums, and a correctly
// rounded int64 -> float: where |x| >= 2^53 the bits below bit 11 are
// replaced by one sticky bit at bit 11 (set if any of them was), leaving at
// most 53 significant bits (63 .. 11), so the int64 -> double conversion is
// exact; the float rounding of |x| (ulp >= 2^30 there, its half-way bit >=
// bit 29) sees the same leading bits and the same "anything below" and so
// rounds to the same float. Below 2^53 the conversion is exact anyway. The
// sign is applied to the magnitude (rounding to nearest is symmetric; |x| =
// 2^63 for INT64_MIN converts as -2^63, whose Abs is the magnitude).
//
// Division: adm.cpp keeps 15 significant bits of |o| when |o| >= 2^15: shift
// s = bit_width(|o|) - 15 (else 0) and msb = (|o| + 2^(s-1)) >> s, then takes
// lut[msb] = 2^30 / msb (integer division) from its table. |o| <= 2^31 is
// exact in double; its biased exponent E gives bit_width - 1 = E - 1023, so
// s = max(E - 1037, 0), and 2^-s is built from its exponent bits. The table
// entry is computed: see the row code for why Floor of the double quotient is
// the integer one (a gather from the 256 KB table costs more here).
// tmp_k = ((lut[msb] * t) * sign + 2^(14+s)) >> (15+s) in double: when
// |lut * t| < 2^53 every step is exact (the sum may round only at >= 2^53 -
// 2^31), and then it is the integer result. Otherwise the rounded product
// keeps its sign and a magnitude >= 2^53, the sum keeps it above 2^53 - 2^31,
// and the quotient's magnitude is >= 2^20, as is the exact one's with the
// same sign: both clamp to the same 0 or 32768. Only the clamped k is used.
// rst = (k * o + 16384) >> 15: |k * o| <= 2^46, exact in double; it fits int32
// (from -2^31 to 2^31 - 1), as adm.cpp's (int32_t) cast keeps it.
// rst_f: float(o) is 0 only for o = 0 and keeps the sign; with k >= 2^0 the
// product is at least 2^-21 in magnitude (no underflow): its sign is that of
// k * o, as in decouple_s0.
// limit_gain: the picked value is t (exact) or x = rst * egl between t and 0
// (rst_f > 0: rst >= 0, so 0 <= x < t < 2^31; rst_f < 0: t < x <= 0), so the
// (int32_t) cast is a truncation in range. a = t - rst in wrapping int32 lanes.
using DD64 = hn::RebindToSigned<DD>;
using DDU64 = hn::RebindToUnsigned<DD>;
using DDW32 = hn::Repartition<std::int32_t, DD64>;  // the int32 halves of the int64 lanes
using VD64 = hn::Vec<DD64>;

// (double)(float)x of int64 lanes, rounded once (see above).
HWY_INLINE VD FloatOfI64(VD64 x) {
  const DD d;
  const DD64 d64;
  const DDU64 du;
  const auto m = hn::BitCast(du, hn::Abs(x));
  const auto low = hn::Set(du, 0x7FF);
  const auto sticky = hn::IfThenZeroElse(hn::Eq(hn::And(m, low), hn::Zero(du)), hn::Set(du, 0x800));
  const auto big = hn::Ne(hn::ShiftRight<53>(m), hn::Zero(du));
  const auto mm = hn::IfThenElse(big, hn::Or(hn::AndNot(low, m), sticky), m);
  const VD v = hn::Abs(hn::ConvertTo(d, hn::BitCast(d64, mm)));
  const VD sv = hn::IfThenElse(hn::RebindMask(d, hn::Lt(x, hn::Zero(d64))), hn::Neg(v), v);
  return hn::PromoteTo(d, hn::DemoteTo(DDF(), sv));
}

// 2^e of the int64 lanes e (-1022 <= e <= 1023).
HWY_INLINE VD Pow2(VD64 e) { return hn::BitCast(DD(), hn::ShiftLeft<52>(e + hn::Set(DD64(), 1023))); }

void FloatOfInt64(const std::int64_t* x, int n, float* out) {
  const DD d;
  const DD64 d64;
  const DDF df;
  (void)d;
  for (std::size_t j = 0; j < std::size_t(n); ++j) {
    HWY_ALIGN std::int64_t in[HWY_LANES(double)] = {};
    HWY_ALIGN float o[HWY_LANES(double)];
    in[0] = x[j];
    hn::Store(hn::DemoteTo(df, FloatOfI64(hn::Load(d64, in))), df, o);
    out[j] = o[0];
  }
}

HWY_INLINE void DecoupleS123Col(const DecRows32& rw, std::size_t j, VD c, VD egl) {
  const DD d;
  const DD64 d64;
  const DD32 d32;
  const DDW32 dw;
  const DDU64 du;
  const DDF df;
  const VD zero = hn::Zero(d);
  const VD half = hn::Set(d, 16384.0);
  const VD inv15 = hn::Set(d, 1.0 / 32768.0);  // 2^-15, exact
  const VD k32768 = hn::Set(d, 32768.0);
  VD32 oi[3], ti[3];
  VD o[3], t[3];
  for (int b = 0; b < 3; ++b) {
    oi[b] = hn::LoadU(d32, rw.o[b] + j);
    ti[b] = hn::LoadU(d32, rw.t[b] + j);
    o[b] = hn::PromoteTo(d, oi[b]);
    t[b] = hn::PromoteTo(d, ti[b]);
  }
  // The angle test without adm.cpp's factor 2^-12 on each dot product (as in
  // decouple_s0's int32 version: scaling by powers of two commutes with the
  // roundings and the comparisons).
  VD dp, om, tm;
  const VD mx = hn::Max(hn::Max(hn::Abs(o[0]), hn::Abs(o[1])), hn::Max(hn::Abs(t[0]), hn::Abs(t[1])));
  if (hn::AllTrue(d, hn::Lt(mx, hn::Set(d, 67108864.0)))) {
    // All |values| < 2^26: the products (< 2^52) and their sums (< 2^53) are
    // exact in double; DemoteTo rounds the exact integer once to float.
    const auto f = [&](VD a, VD b, VD e, VD g) {
      return hn::PromoteTo(d, hn::DemoteTo(df, hn::Add(hn::Mul(a, b), hn::Mul(e, g))));
    };
    dp = f(o[0], t[0], o[1], t[1]);
    om = f(o[0], o[0], o[1], o[1]);
    tm = f(t[0], t[0], t[1], t[1]);
  } else {
    const VD64 oh = hn::PromoteTo(d64, oi[0]), ov = hn::PromoteTo(d64, oi[1]);
    const VD64 th = hn::PromoteTo(d64, ti[0]), tv = hn::PromoteTo(d64, ti[1]);
    const auto mul = [&](VD64 a, VD64 b) { return hn::MulEven(hn::BitCast(dw, a), hn::BitCast(dw, b)); };
    dp = FloatOfI64(hn::Add(mul(oh, th), mul(ov, tv)));
    om = FloatOfI64(hn::Add(mul(oh, oh), mul(ov, ov)));
    tm = FloatOfI64(hn::Add(mul(th, th), mul(tv, tv)));
  }
  const MD angle = hn::And(hn::Ge(dp, zero), hn::Ge(hn::Mul(dp, dp), hn::Mul(hn::Mul(c, om), tm)));
  for (int b = 0; b < 3; ++b) {
    // P = 2^-s: |o|'s biased exponent E gives s = max(E - 1037, 0), so P's
    // exponent field is min(2060 - E, 1023) (1023 for o = 0 too).
    const VD ao = hn::Abs(o[b]);
    const VD64 ex = hn::BitCast(d64, hn::ShiftRight<52>(hn::BitCast(du, ao)));
    const VD p = hn::BitCast(d, hn::ShiftLeft<52>(hn::Min(hn::Set(d64, 2060) - ex, hn::Set(d64, 1023))));
    // msb = (|o| + 2^(s-1)) >> s = floor(|o| * 2^-s + 1/2) (for s = 0 too, |o|
    // being an integer); |o| * 2^-s has at most 31 significant bits, none
    // below 2^-17, so the sum is exact.
    const VD msb = hn::Floor(hn::Add(hn::Mul(ao, p), hn::Set(d, 0.5)));
    // The table's lut[32768 + msb] = 2^30 / msb in integers, i.e. the floor of
    // the quotient: the double quotient of 2^30 and msb (1 <= msb <= 2^15) is
    // within 2^30 * 2^-53 = 2^-23 of the exact one, while a non-integer
    // quotient is at least 1 / msb >= 2^-15 from the integers above and below
    // it, so its Floor is the integer quotient (an integer quotient is exact).
    // o's sign makes it the signed half of the table (lut[32768 - msb] =
    // -lut[32768 + msb]). o = 0 (msb 0) gives an infinite or NaN lane, unused:
    // k is 32768 there.
    const VD lv = hn::CopySign(hn::Floor(hn::Div(hn::Set(d, 1073741824.0), msb)), o[b]);
    // tmp_k = ((lut * t) * sign + 2^(14+s)) >> (15+s) = floor((X * 2^-s + 2^14)
    // * 2^-15) with X = lut[signed] * t: exact whenever |X + 2^(14+s)| < 2^53
    // (an integer over a power of two); otherwise clamped as argued above.
    const VD prod = hn::Mul(lv, t[b]);
    const VD tk = hn::Floor(hn::Mul(hn::Add(hn::Mul(prod, p), hn::Set(d, 16384.0)), inv15));
    const VD k = hn::IfThenElse(hn::Eq(o[b], zero), k32768, hn::Min(hn::Max(tk, zero), k32768));
    const VD rst = hn::Floor(hn::Mul(hn::Add(hn::Mul(k, o[b]), half), inv15));
    const MD kpos = hn::And(angle, hn::Gt(k, zero));
    const MD pos = hn::And(kpos, hn::Gt(o[b], zero));
    const MD neg = hn::And(kpos, hn::Lt(o[b], zero));
    // x < y ? x : y and x > y ? x : y are x86's minpd / maxpd (no NaN here);
    // DemoteTo truncates toward zero, as the (int32_t) cast.
    const VD x = hn::Mul(rst, egl), y = t[b];
    const VD rf = hn::IfThenElse(pos, hn::Min(x, y), hn::IfThenElse(neg, hn::Max(x, y), rst));
    const VD32 ri = hn::DemoteTo(d32, rf);
    hn::StoreU(ri, d32, rw.r[b] + j);
    hn::StoreU(hn::Sub(ti[b], ri), d32, rw.a[b] + j);
  }
}

void DecoupleS123Row(const std::int32_t* const* o, const std::int32_t* const* t, int width, float cos1_sq, double egl,
                     std::int32_t* const* r, std::int32_t* const* a) {
  const DD d;
  const VD c = hn::Set(d, static_cast<double>(cos1_sq));
  const VD ev = hn::Set(d, egl);
  DecoupleRowT<HWY_LANES(double)>(o, t, std::size_t(width), hn::Lanes(d), r, a,
                                  [&](const DecRows32& rw, std::size_t j) { DecoupleS123Col(rw, j, c, ev); });
}

// ---------------------------------------------------------------------------
// Contrast masking of every scale, with the CSF of the masker formed on the
// fly, as the scalar rows cm_box / cm do (exact/adm.h's vmafx_adm_s0_csf,
// _flt, _centre and _cm_term, and their scale 1-3 forms). Per masker sample m
// of band t, as the csf rows:
//   scale 0: d = (int16_t)((factor * m + add) >> shift) (csf_s0_row's
//            argument: the int32 lanes hold the exact value), the filter
//            input f = (int16_t)((4369 * |d| + 2048) >> 12) and the centre
//            weight (int16_t)((8738 * |d| + 2048) >> 12) (both below 2^31
//            before the shift; Wrap16);
//   scales 1-3: d = csf_s123's product, f and the centre the high halves of
//            (2^32 / 30 resp. 2^32 / 15) * abs32(d) - 2^31 (csf_s123_row's
//            argument, HighMulRound).
// The masking only reads those values inside the filter region (the 3x3
// block of a score-region pixel lies in it), where the reference's CSF
// planes hold them, so forming them here gives the same numbers.
//
// thr = the 8 neighbours of the three bands' f and their centre weights, in
// wrapping int32 lanes (adm.cpp's uint32 sum; integer additions modulo 2^32
// in any order). It comes from per-row sums (cm_box_row): F = the three
// bands' f, H = F's horizontal 3-sums, Z = the three centre weights less F;
// hm + h0 + hp + z0 is the 3x3 block of F less its centre plus the centre
// weights.
//
// Then per band, as adm.cpp:
//   scale 0: x0 = s * factor (|x0| <= 32768 * 65535 < 2^31: exact, never
//     INT32_MIN, so Abs is exact); x = max(|x0| - (thr << thr_shift), 0)
//     (wrapping int32); x_sq = (int32)((x * x + sq_round) >> sq_shift);
//   scales 1-3: x0 = csf_s123's product of s; x = max(abs32(x0) - thr, 0);
//     x_sq = (int32)((x * x + 2^29) >> 30);
//   x >= 0, so the unsigned MulEven is the int64 product (< 2^62), the sum
//   stays below 2^63 and the logical shift is adm.cpp's arithmetic one; the
//   low 32 bits are the int32. term = (x_sq * x + add_cub) >> shift_cub:
//   signed MulEven (int64), Highway's int64 arithmetic shift. The 64-bit sums
//   of the terms are order-independent (integer additions).

// (int32)((int64{k} * x + 2^31 * -1) >> 32) per int32 lane, x >= 0 or INT32_MIN.
HWY_INLINE V32 HighMulRound(V32 x, std::int32_t k) {
  const D32 d;
  const D64 d64;
  const DU64 du64;
  const V32 kv = hn::Set(d, k);
  const V64 r = hn::Set(d64, std::int64_t{VMAFX_ADM_S123_FLT_ROUND});
  const V64 fe = hn::MulEven(x, kv) + r, fo = hn::MulEven(OddDown(x), kv) + r;
  return hn::OddEven(hn::BitCast(d, fo), hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, fe))));
}

// (int32)((int64{factor} * s + 2^27) >> 28) per int32 lane (csf_s123's d).
HWY_INLINE V32 CsfS123Mul(V32 sv, std::uint32_t factor) {
  const DU32 du;
  const D64 d64;
  const DU64 du64;
  const auto fu = hn::Set(du, factor);
  const auto f64 = hn::Set(du64, factor);
  const auto round = hn::Set(du64, std::uint64_t{VMAFX_ADM_S123_CSF_ROUND});
  const auto prod = [&](V32 x) {
    const auto p = hn::MulEven(hn::BitCast(du, x), fu);
    const auto neg = hn::BitCast(du64, hn::ShiftRight<31>(x));
    const auto corr = hn::ShiftLeft<32>(hn::And(neg, f64));
    return hn::BitCast(d64, hn::ShiftRight<VMAFX_ADM_S123_CSF_SHIFT>(p - corr + round));
  };
  return MergeLow(prod(sv), prod(OddDown(sv)));
}

// |d| of the CSF-weighted masker at columns j..j+N-1 of band t.
HWY_INLINE V32 CsfAbs(const std::int16_t* m, std::size_t j, const CmS0& k, int t) {
  const D32 d;
  return hn::Abs(
      Wrap16(hn::ShiftRightSame(Load16(m + j) * hn::Set(d, k.factor[t]) + hn::Set(d, k.csf_add[t]), k.csf_shift[t])));
}
HWY_INLINE V32 CsfAbs(const std::int32_t* m, std::size_t j, const CmS123& k, int t) {
  return hn::Abs(CsfS123Mul(hn::LoadU(D32(), m + j), k.factor[t]));
}
// The filter input f and the centre weight from |d|.
HWY_INLINE V32 FilterInput(V32 ad, const CmS0&) {
  const D32 d;
  return Wrap16(hn::ShiftRight<VMAFX_ADM_S0_FLT_SHIFT>(hn::Set(d, VMAFX_ADM_S0_ONE_BY_30) * ad +
                                                       hn::Set(d, VMAFX_ADM_S0_FLT_ROUND)));
}
HWY_INLINE V32 FilterInput(V32 ad, const CmS123&) { return HighMulRound(ad, VMAFX_ADM_S123_ONE_BY_30); }
HWY_INLINE V32 CentreWeight(V32 ad, const CmS0&) {
  const D32 d;
  return Wrap16(hn::ShiftRight<VMAFX_ADM_S0_FLT_SHIFT>(hn::Set(d, VMAFX_ADM_S0_ONE_BY_15) * ad +
                                                       hn::Set(d, VMAFX_ADM_S0_FLT_ROUND)));
}
HWY_INLINE V32 CentreWeight(V32 ad, const CmS123&) { return HighMulRound(ad, VMAFX_ADM_S123_ONE_BY_15); }

// F and Z at columns j..j+N-1.
template <class T, class K>
HWY_INLINE void BandSums(const T* const* m, std::size_t j, const K& k, V32& f, V32& z) {
  const V32 a0 = CsfAbs(m[0], j, k, 0), a1 = CsfAbs(m[1], j, k, 1), a2 = CsfAbs(m[2], j, k, 2);
  f = FilterInput(a0, k) + FilterInput(a1, k) + FilterInput(a2, k);
  z = CentreWeight(a0, k) + CentreWeight(a1, k) + CentreWeight(a2, k) - f;
}

// cm_box_row: F and Z over [lo - 1, hi + 1), then H over [lo, hi). Columns
// are independent: the last vector moves back; rows narrower than a vector go
// through zero-filled copies (F, Z) or the plain loop (H: integer additions).
template <class T, class K>
void CmBoxRowT(const T* const* m, const K& k, int lo, int hi, std::int32_t* F, std::int32_t* H, std::int32_t* Z) {
  const D32 d;
  const std::size_t n = hn::Lanes(d);
  if (hi <= lo) return;
  const std::size_t a = std::size_t(lo) - 1, cf = std::size_t(hi - lo + 2), ch = std::size_t(hi - lo);
  V32 f, z;
  if (cf >= n) {
    for (std::size_t j = 0; j < cf; j += n) {
      const std::size_t c = a + std::min(j, cf - n);
      BandSums(m, c, k, f, z);
      hn::StoreU(f, d, F + c);
      hn::StoreU(z, d, Z + c);
    }
  } else {
    HWY_ALIGN T b[3][kMaxN] = {};
    HWY_ALIGN std::int32_t fo[kMaxN], zo[kMaxN];
    const T* bp[3] = {b[0], b[1], b[2]};
    for (int t = 0; t < 3; ++t) std::memcpy(b[t], m[t] + a, cf * sizeof(T));
    BandSums(bp, 0, k, f, z);
    hn::Store(f, d, fo);
    hn::Store(z, d, zo);
    std::memcpy(F + a, fo, cf * sizeof(std::int32_t));
    std::memcpy(Z + a, zo, cf * sizeof(std::int32_t));
  }
  if (ch >= n) {
    for (std::size_t j = 0; j < ch; j += n) {
      const std::size_t c = a + 1 + std::min(j, ch - n);
      hn::StoreU(hn::LoadU(d, F + c - 1) + hn::LoadU(d, F + c) + hn::LoadU(d, F + c + 1), d, H + c);
    }
  } else {
    for (std::size_t c = a + 1; c < a + 1 + ch; ++c)
      H[c] = std::int32_t(std::uint32_t(F[c - 1]) + std::uint32_t(F[c]) + std::uint32_t(F[c + 1]));
  }
}

void CmBoxRow16(const std::int16_t* const* m, const CmS0& k, int lo, int hi, std::int32_t* F, std::int32_t* H,
                std::int32_t* Z) {
  CmBoxRowT(m, k, lo, hi, F, H, Z);
}
void CmBoxRow32(const std::int32_t* const* m, const CmS123& k, int lo, int hi, std::int32_t* F, std::int32_t* H,
                std::int32_t* Z) {
  CmBoxRowT(m, k, lo, hi, F, H, Z);
}

template <class T>
struct CmRows {
  const T* s[3];  // the masked band (row i)
  const std::int32_t *hm, *h0, *hp, *z0;
};

// x (>= 0, int32 lanes) -> the 64-bit terms of the even and odd columns.
HWY_INLINE void CubeTerms(V32 x, hn::Vec<DU64> sqr, int sq_shift, V64 addc, int shift_cub, V64& te, V64& to) {
  const D32 d;
  const DU32 du;
  const auto term = [&](V32 xv) {  // column in the even lanes
    const auto xu = hn::BitCast(du, xv);
    const auto sq = hn::ShiftRightSame(hn::MulEven(xu, xu) + sqr, sq_shift);
    return hn::ShiftRightSame(hn::MulEven(hn::BitCast(d, sq), xv) + addc, shift_cub);
  };
  te = term(x);
  to = term(OddDown(x));
}

HWY_INLINE V32 MaskedX(const CmRows<std::int16_t>& r, std::size_t j, const CmS0& k, V32 thr, int t) {
  const D32 d;
  const V32 x0 = Load16(r.s[t] + j) * hn::Set(d, k.factor[t]);
  return hn::Max(hn::Abs(x0) - hn::ShiftLeftSame(thr, k.thr_shift[t]), hn::Zero(d));
}
HWY_INLINE V32 MaskedX(const CmRows<std::int32_t>& r, std::size_t j, const CmS123& k, V32 thr, int t) {
  const D32 d;
  return hn::Max(hn::Abs(CsfS123Mul(hn::LoadU(d, r.s[t] + j), k.factor[t])) - thr, hn::Zero(d));
}
HWY_INLINE void CubeTerms(V32 x, const CmS0& k, int t, V64& te, V64& to) {
  CubeTerms(x, hn::Set(DU64(), std::uint64_t(k.sq_round[t])), k.sq_shift[t], hn::Set(D64(), k.add_cub[t]),
            k.shift_cub[t], te, to);
}
HWY_INLINE void CubeTerms(V32 x, const CmS123& k, int, V64& te, V64& to) {
  CubeTerms(x, hn::Set(DU64(), std::uint64_t{VMAFX_ADM_S123_SQ_ROUND}), VMAFX_ADM_S123_SQ_SHIFT,
            hn::Set(D64(), k.add_cub), k.shift_cub, te, to);
}

template <bool kMasked, class T, class K>
HWY_INLINE void CmCol(const CmRows<T>& r, std::size_t j, const K& k, M32 mask, V64 acc[3]) {
  const D32 d;
  const D64 d64;
  const V32 thr = hn::LoadU(d, r.hm + j) + hn::LoadU(d, r.h0 + j) + hn::LoadU(d, r.hp + j) + hn::LoadU(d, r.z0 + j);
  V64 me, mo;
  if (kMasked) {  // 64-bit masks of the even and odd columns
    const V64 mv = hn::BitCast(d64, hn::VecFromMask(d, mask));
    me = hn::ShiftRight<32>(hn::ShiftLeft<32>(mv));
    mo = hn::ShiftRight<32>(mv);
  }
  for (int t = 0; t < 3; ++t) {
    V64 te, to;
    CubeTerms(MaskedX(r, j, k, thr, t), k, t, te, to);
    if (kMasked) {
      te = hn::And(te, me);
      to = hn::And(to, mo);
    }
    acc[t] = acc[t] + te + to;
  }
}

template <class T, class K>
void CmRowT(const T* const* src, const CmBox& box, int left, int right, const K& k, std::int64_t* inner) {
  const D32 d;
  const D64 d64;
  const std::size_t n = hn::Lanes(d);
  if (right <= left) return;
  const std::size_t l = std::size_t(left), rr = std::size_t(right), cnt = rr - l;
  V64 acc[3] = {hn::Zero(d64), hn::Zero(d64), hn::Zero(d64)};
  const CmRows<T> rows{{src[0], src[1], src[2]}, box.hm, box.h0, box.hp, box.z0};
  if (cnt >= n) {
    std::size_t j = l;
    for (; j + n <= rr; j += n) CmCol<false>(rows, j, k, hn::FirstN(d, n), acc);
    if (j < rr) {
      // Moved back to end at the last column; its first n - (rr - j) lanes
      // were counted by the previous vector.
      const std::size_t start = rr - n;
      CmCol<true>(rows, start, k, hn::Not(hn::FirstN(d, j - start)), acc);
    }
  } else {
    // Columns left .. right-1 of every row into zero-filled copies.
    HWY_ALIGN T b[3][kMaxN] = {};
    HWY_ALIGN std::int32_t bx[4][kMaxN] = {};
    for (int t = 0; t < 3; ++t) std::memcpy(b[t], src[t] + l, cnt * sizeof(T));
    const std::int32_t* const from[4] = {box.hm, box.h0, box.hp, box.z0};
    for (int q = 0; q < 4; ++q) std::memcpy(bx[q], from[q] + l, cnt * sizeof(std::int32_t));
    const CmRows<T> c{{b[0], b[1], b[2]}, bx[0], bx[1], bx[2], bx[3]};
    CmCol<true>(c, 0, k, hn::FirstN(d, cnt), acc);
  }
  for (int t = 0; t < 3; ++t) inner[t] += hn::GetLane(hn::SumOfLanes(d64, acc[t]));
}

void CmS0Row(const std::int16_t* const* src, const CmBox& box, int left, int right, const CmS0& k,
             std::int64_t* inner) {
  CmRowT(src, box, left, right, k, inner);
}
void CmS123Row(const std::int32_t* const* src, const CmBox& box, int left, int right, const CmS123& k,
               std::int64_t* inner) {
  CmRowT(src, box, left, right, k, inner);
}
// ---------------------------------------------------------------------------
// den_s0 / den_s123 row sums (uint64, wrapping; the order of integer
// additions does not matter).
// den_s0: x = |b| <= 32768 (as adm.cpp's uint16 of abs), x * x <= 2^30 in the
// int32 lanes, x * x * x <= 2^45 by the unsigned MulEven.
// den_s123: x = |b| as uint32 (<= 2^31; Abs keeps INT32_MIN, whose uint32 is
// 2^31). q = (x * x + 2^sh) >> sh = (x * x >> sh) + 1 by the unsigned
// MulEven; q < 2^32 except q = 2^32 + 1 for x = 2^31, sh = 30, so q * x is
// MulEven of q's low half plus x << 32 where q's high half is 1; q * x <=
// 2^63 + 2^31 and + add_cub (< 2^32 as adm.cpp forms it, any uint64 here:
// the sum wraps as adm.cpp's) then the logical shift.
// The odd uint32 lanes moved into the even ones.
HWY_INLINE hn::Vec<DU32> OddDownU(hn::Vec<DU32> v) {
  return hn::BitCast(DU32(), hn::ShiftRight<32>(hn::BitCast(DU64(), v)));
}
// The 64-bit masks of the even / odd int32 lanes of mask.
HWY_INLINE void SplitMask(M32 mask, hn::Vec<DU64>& me, hn::Vec<DU64>& mo) {
  const V64 m = hn::BitCast(D64(), hn::VecFromMask(D32(), mask));  // arithmetic shifts: all-ones lanes
  me = hn::BitCast(DU64(), hn::ShiftRight<32>(hn::ShiftLeft<32>(m)));
  mo = hn::BitCast(DU64(), hn::ShiftRight<32>(m));
}

// Sums col(j, mask, acc) over the columns [0, cnt) of a row: full vectors,
// then the last one moved back to end at cnt with the columns already counted
// masked off; rows narrower than a vector through copy(buffers) first, which
// must put the row into zero-filled buffers and call col on them.
template <class Col, class Narrow>
HWY_INLINE void RowSum(std::size_t cnt, const Col& col, const Narrow& narrow) {
  const D32 d;
  const std::size_t n = hn::Lanes(d);
  if (cnt == 0) return;
  if (cnt >= n) {
    std::size_t j = 0;
    for (; j + n <= cnt; j += n) col(j, hn::FirstN(d, n));
    if (j < cnt) col(cnt - n, hn::Not(hn::FirstN(d, j - (cnt - n))));
  } else {
    narrow(hn::FirstN(d, cnt));
  }
}

// Terms of den_s0 for the int32 lanes a (|a| <= 32768), masked lanes 0.
HWY_INLINE hn::Vec<DU64> DenS0Terms(V32 a, M32 mask) {
  const DU32 du;
  const auto x = hn::BitCast(du, hn::IfThenElseZero(mask, hn::Abs(a)));
  const auto x2 = x * x;
  return hn::MulEven(x2, x) + hn::MulEven(OddDownU(x2), OddDownU(x));
}

void DenS0Row(const std::int16_t* const* b, int width, std::uint64_t* inner) {
  const DU64 du64;
  const std::size_t cnt = std::size_t(width);
  for (int t = 0; t < 3; ++t) {
    auto acc = hn::Zero(du64);
    const std::int16_t* p = b[t];
    RowSum(
        cnt, [&](std::size_t j, M32 m) { acc = acc + DenS0Terms(Load16(p + j), m); },
        [&](M32 m) {
          HWY_ALIGN std::int16_t buf[kMaxN] = {};
          std::memcpy(buf, p, cnt * sizeof(std::int16_t));
          acc = acc + DenS0Terms(Load16(buf), m);
        });
    inner[t] += hn::GetLane(hn::SumOfLanes(du64, acc));
  }
}

// Terms of den_s123 for the int32 lanes a, masked lanes 0.
HWY_INLINE hn::Vec<DU64> DenS123Terms(V32 a, M32 mask, int sq_shift, hn::Vec<DU64> add_cub, int shift_cub) {
  const DU32 du;
  const DU64 du64;
  const auto one = hn::Set(du64, 1);
  const auto x = hn::BitCast(du, hn::Abs(a));
  const auto term = [&](hn::Vec<DU32> xv) {  // column in the even lanes
    const auto q = hn::ShiftRightSame(hn::MulEven(xv, xv), sq_shift) + one;
    const auto hi = hn::And(hn::ShiftLeft<32>(hn::BitCast(du64, xv)), hn::Zero(du64) - hn::ShiftRight<32>(q));
    return hn::ShiftRightSame(hn::MulEven(hn::BitCast(du, q), xv) + hi + add_cub, shift_cub);
  };
  hn::Vec<DU64> me, mo;
  SplitMask(mask, me, mo);
  return hn::And(term(x), me) + hn::And(term(OddDownU(x)), mo);
}

void DenS123Row(const std::int32_t* const* b, int width, int sq_shift, std::uint64_t add_cub, int shift_cub,
                std::uint64_t* inner) {
  const D32 d;
  const DU64 du64;
  const std::size_t cnt = std::size_t(width);
  const auto addc = hn::Set(du64, add_cub);
  for (int t = 0; t < 3; ++t) {
    auto acc = hn::Zero(du64);
    const std::int32_t* p = b[t];
    RowSum(
        cnt, [&](std::size_t j, M32 m) { acc = acc + DenS123Terms(hn::LoadU(d, p + j), m, sq_shift, addc, shift_cub); },
        [&](M32 m) {
          HWY_ALIGN std::int32_t buf[kMaxN] = {};
          std::memcpy(buf, p, cnt * sizeof(std::int32_t));
          acc = acc + DenS123Terms(hn::Load(d, buf), m, sq_shift, addc, shift_cub);
        });
    inner[t] += hn::GetLane(hn::SumOfLanes(du64, acc));
  }
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace HWY_NAMESPACE
}  // namespace vmafx::adm::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmafx::adm::simd {

HWY_EXPORT(DwtS0Row8);
HWY_EXPORT(DwtS0Row16);
HWY_EXPORT(CsfS0Row);
HWY_EXPORT(CsfS123Row);
HWY_EXPORT(CmS0Row);
HWY_EXPORT(CmBoxRow16);
HWY_EXPORT(CmBoxRow32);
HWY_EXPORT(DecoupleS0Row);
HWY_EXPORT(DwtS123Row16);
HWY_EXPORT(DwtS123Row32);
HWY_EXPORT(DecoupleS123Row);
HWY_EXPORT(CmS123Row);
HWY_EXPORT(DenS0Row);
HWY_EXPORT(DenS123Row);
HWY_EXPORT(FloatOfInt64);

void float_of_int64(const std::int64_t* x, int n, float* out) { HWY_DYNAMIC_DISPATCH(FloatOfInt64)(x, n, out); }

}  // namespace vmafx::adm::simd

namespace vmafx::adm {

// Each slot dispatches at call time, so a target forced by the tests holds.
void init_simd_rows(Rows& r) {
  using namespace simd;  // NOLINT: the dispatch tables' names
  using I16 = std::int16_t;
  using I32 = std::int32_t;
  using I64 = std::int64_t;
  using U64 = std::uint64_t;
  r.dwt_s0_8 = [](const std::uint8_t* const s[4], int w, int bpc, bool lo, I16* oa, I16* ov, I16* oh, I16* od) {
    HWY_DYNAMIC_DISPATCH(DwtS0Row8)(s, w, bpc, lo, oa, ov, oh, od);
  };
  r.dwt_s0_16 = [](const std::uint16_t* const s[4], int w, int bpc, bool lo, I16* oa, I16* ov, I16* oh, I16* od) {
    HWY_DYNAMIC_DISPATCH(DwtS0Row16)(s, w, bpc, lo, oa, ov, oh, od);
  };
  r.dwt_s123_16 = [](const I16* const s[4], int w, int scale, I32* oa, I32* ov, I32* oh, I32* od) {
    HWY_DYNAMIC_DISPATCH(DwtS123Row16)(s, w, scale, oa, ov, oh, od);
  };
  r.dwt_s123_32 = [](const I32* const s[4], int w, int scale, I32* oa, I32* ov, I32* oh, I32* od) {
    HWY_DYNAMIC_DISPATCH(DwtS123Row32)(s, w, scale, oa, ov, oh, od);
  };
  r.decouple_s0 = [](const I16* const o[3], const I16* const t[3], int n, const I32* lut, float c, double egl,
                     I16* const rr[3], I16* const a[3]) {
    HWY_DYNAMIC_DISPATCH(DecoupleS0Row)(o, t, n, lut, c, egl, rr, a);
  };
  r.decouple_s123 = [](const I32* const o[3], const I32* const t[3], int n, float c, double egl, I32* const rr[3],
                       I32* const a[3]) {
    HWY_DYNAMIC_DISPATCH(DecoupleS123Row)
    (o, t, n, c, egl, rr, a);
  };
  r.csf_s0 = [](const I16* s, int n, I32 factor, I32 add, int shift, I16* o, I16* f) {
    HWY_DYNAMIC_DISPATCH(CsfS0Row)(s, n, factor, add, shift, o, f);
  };
  r.csf_s123 = [](const I32* s, int n, std::uint32_t factor, I32* o, I32* f) {
    HWY_DYNAMIC_DISPATCH(CsfS123Row)(s, n, factor, o, f);
  };
  r.cm_box_s0 = [](const I16* const m[3], const CmS0& k, int lo, int hi, I32* F, I32* H, I32* Z) {
    HWY_DYNAMIC_DISPATCH(CmBoxRow16)(m, k, lo, hi, F, H, Z);
  };
  r.cm_box_s123 = [](const I32* const m[3], const CmS123& k, int lo, int hi, I32* F, I32* H, I32* Z) {
    HWY_DYNAMIC_DISPATCH(CmBoxRow32)(m, k, lo, hi, F, H, Z);
  };
  r.cm_s0 = [](const I16* const src[3], const CmBox& box, int left, int right, const CmS0& k, I64 inner[3]) {
    HWY_DYNAMIC_DISPATCH(CmS0Row)(src, box, left, right, k, inner);
  };
  r.cm_s123 = [](const I32* const src[3], const CmBox& box, int left, int right, const CmS123& k, I64 inner[3]) {
    HWY_DYNAMIC_DISPATCH(CmS123Row)(src, box, left, right, k, inner);
  };
  r.den_s0 = [](const I16* const b[3], int n, U64 inner[3]) { HWY_DYNAMIC_DISPATCH(DenS0Row)(b, n, inner); };
  r.den_s123 = [](const I32* const b[3], int n, int sq, U64 add_cub, int shift_cub, U64 inner[3]) {
    HWY_DYNAMIC_DISPATCH(DenS123Row)(b, n, sq, add_cub, shift_cub, inner);
  };
}

}  // namespace vmafx::adm
#endif  // HWY_ONCE

#else  // !VMAFX_HAVE_HWY: rows() is scalar_rows() and the SIMD tests skip.

#include <cstdlib>

namespace vmafx::adm::simd {
void float_of_int64(const std::int64_t*, int, float*) { std::abort(); }
}  // namespace vmafx::adm::simd

#endif  // VMAFX_HAVE_HWY
