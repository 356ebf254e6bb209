// SPDX-License-Identifier: BSD-3-Clause
// SIMD rows of the integer VIF; see vif_rows.hpp for each slot's contract
// and feature/vif.cpp's scalar rows (scalar_rows()) for the reference each one
// reproduces. Compiled once per Highway target (foreach_target) and chosen at
// run time (HWY_DYNAMIC_DISPATCH); init_simd_rows() puts them in the row table
// that vif::rows() returns while vmafx::simd::enabled(). Without Highway this
// file has no rows and rows() is scalar_rows().
//
// Three kinds of lane arithmetic, each with its proof next to the code:
// - uint32 lanes (one column each) with wrapping multiplies and adds, where
//   vif.cpp's sum is a uint32 that may wrap (the means), or where a sum is
//   known to stay below 2^32. Symmetric taps are added before multiplying
//   (c*a + c*b == c*(a + b) mod 2^32).
// - 16-bit multiply-add (ReorderWidenMulAccumulate, x86's pmaddwd) on values
//   biased into int16, for the filters whose taps are below 2^15 (5, 9 and 17
//   taps): the 48-bit moment sums are formed as two exact 32-bit sums of the
//   16-bit halves of their terms. 8-bit samples are centred instead (a - 128:
//   every product fits int16 unbiased) and the sums taken back exactly
//   (StatV8PairCol). The 3-tap filter (middle tap 43728) keeps
//   the uint32 and MulEven forms.
// - 64-bit sums through MulEven (the 3-tap vertical pass), which multiplies
//   the even uint32 lanes into full uint64 products: a vector of N columns is
//   split into its even columns (the vector as is) and its odd columns (each
//   uint64 lane shifted right by 32), accumulated in two uint64 vectors, and
//   put back in column order at the end (low 32 bits of each). Where vif.cpp
//   keeps a 32-bit sum that may wrap, only the low 32 bits are used: they are
//   the wrapped sum, since the low 32 bits of a sum or product depend only on
//   the low 32 bits of the operands.
// accumulate() runs in double lanes, one column each, replaying its IEEE
// operations; its log2 table look-ups are plain loads.
//
// Row ends: when a row has at least one vector of columns the last vector is
// moved back to end at the last column (columns are independent, so
// recomputing a few gives the same values); a row narrower than one vector is
// copied into zero-filled buffers first (accumulate_row, whose sums are not
// idempotent, masks its tail instead). Nothing is read outside what the
// scalar loop reads.
#include "feature/vif_rows.hpp"

#if VMAFX_HAVE_HWY

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "exact/vif_tables.h"

#include "feature/vif.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "feature/vif_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "core/simd_madd-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace vmafx::vif::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using vmafx::simd_madd::HWY_NAMESPACE::MulAccPairs;

#if HWY_TARGET == HWY_SCALAR
// One lane cannot hold the even/odd pairs; enabled() is false on this target
// and rows() keeps the scalar rows, so these are never called.
void StatV8(const std::uint8_t* const*, const std::uint8_t* const*, const std::uint16_t*, int, int, const Shift&,
            std::uint32_t* const*) {
  HWY_ABORT("vif simd: no SIMD target");
}
void StatV16(const std::uint16_t* const*, const std::uint16_t* const*, const std::uint16_t*, int, int, const Shift&,
             std::uint32_t* const*) {
  HWY_ABORT("vif simd: no SIMD target");
}
void StatH(const std::uint32_t* const*, const std::uint16_t*, int, int, std::int32_t*, std::int32_t*, std::int32_t*,
           std::int16_t*, std::size_t) {
  HWY_ABORT("vif simd: no SIMD target");
}
void SubV8(const std::uint8_t* const*, const std::uint8_t* const*, const std::uint16_t*, int, int, std::uint32_t, int,
           std::uint32_t*, std::uint32_t*) {
  HWY_ABORT("vif simd: no SIMD target");
}
void SubV16(const std::uint16_t* const*, const std::uint16_t* const*, const std::uint16_t*, int, int, std::uint32_t,
            int, std::uint32_t*, std::uint32_t*) {
  HWY_ABORT("vif simd: no SIMD target");
}
void SubH(const std::uint32_t*, const std::uint32_t*, const std::uint16_t*, int, int, std::uint16_t*, std::uint16_t*) {
  HWY_ABORT("vif simd: no SIMD target");
}
void AccumulateRow(const std::int32_t*, const std::int32_t*, const std::int32_t*, int, double, const std::uint16_t*,
                   std::int64_t*) {
  HWY_ABORT("vif simd: no SIMD target");
}
#else

using D = hn::ScalableTag<std::uint32_t>;
using D64 = hn::Repartition<std::uint64_t, D>;
using V = hn::Vec<D>;
using V64 = hn::Vec<D64>;

constexpr int kMaxHalf = 8;                              // widest filter (17 taps) / 2
constexpr std::size_t kMaxN = HWY_LANES(std::uint32_t);  // uint32 lanes of this target

// The odd uint32 lanes moved down into the even ones (for MulEven).
HWY_INLINE V Odd(V v) { return hn::BitCast(D(), hn::ShiftRight<32>(hn::BitCast(D64(), v))); }

// Column order again from the even and odd columns' uint64 lanes: the low 32
// bits of each (the uint32 truncation of vif.cpp).
HWY_INLINE V Merge(V64 even, V64 odd) {
  const D64 d64;
  return hn::BitCast(D(), hn::Or(hn::And(even, hn::Set(d64, 0xFFFFFFFFu)), hn::ShiftLeft<32>(odd)));
}

// Calls col(j) for vectors covering [0, w); needs w >= N. The last vector
// starts at w - N and may overlap the one before.
template <class F>
HWY_INLINE void ForColumns(std::size_t w, std::size_t n, F&& col) {
  for (std::size_t j = 0; j < w; j += n) col(std::min(j, w - n));
}

// ---------------------------------------------------------------------------
// statistic, vertical, 8-bit samples (scale 0 of 8-bit video), the plain
// per-tap form: since the multiply-add form below (StatVMaddCol) it runs only
// for the 3-tap filter (the unit tests reach it; the pipeline does not).
//
// Everything stays in uint32 lanes. Proof that no lane wraps where vif.cpp's
// uint64 sums would not: a, b <= 255 and c[k] <= 65535, so c*a <= 16711425;
// each moment term c*a*b <= c[k] * 65025 and the taps of every filter sum to
// 65536 (vif_tables.h), so a moment sum is <= 65536 * 65025 = 4261478400
// < 2^32 = 4294967296. The uint32 sums are therefore the exact uint64 sums of
// vif.cpp, and with sq_round = 0 and sq_shift = 0 (8-bit scale 0) its
// uint32((xx + 0) >> 0) is that sum itself.
template <int TAPS>
HWY_INLINE void StatV8Col(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c,
                          std::size_t j, V mu_round, int mu_shift, std::uint32_t* const* t) {
  const D d;
  const hn::Rebind<std::uint8_t, D> d8;
  V mu1 = hn::Zero(d), mu2 = hn::Zero(d), xx = hn::Zero(d), yy = hn::Zero(d), xy = hn::Zero(d);
  for (int k = 0; k < TAPS; ++k) {
    const V ck = hn::Set(d, c[k]);
    const V a = hn::PromoteTo(d, hn::LoadU(d8, rr[k] + j));
    const V b = hn::PromoteTo(d, hn::LoadU(d8, dr[k] + j));
    const V ca = ck * a, cb = ck * b;
    mu1 = mu1 + ca;
    mu2 = mu2 + cb;
    xx = xx + ca * a;
    yy = yy + cb * b;
    xy = xy + ca * b;
  }
  const V m16 = hn::Set(d, 0xFFFFu);  // the uint16 truncation
  hn::StoreU(hn::And(hn::ShiftRightSame(mu1 + mu_round, mu_shift), m16), d, t[0] + j);
  hn::StoreU(hn::And(hn::ShiftRightSame(mu2 + mu_round, mu_shift), m16), d, t[1] + j);
  hn::StoreU(xx, d, t[2] + j);
  hn::StoreU(yy, d, t[3] + j);
  hn::StoreU(xy, d, t[4] + j);
}

// statistic, vertical, 16-bit samples (scale 0 above 8 bits, every later
// scale): uint64 moment sums through MulEven, as vif.cpp's uint64_t. Used for
// the 3-tap filter (scale 3); the others take StatVMaddCol.
template <int TAPS>
HWY_INLINE void StatV16Col(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c,
                           std::size_t j, V mu_round, int mu_shift, V64 sq_round, int sq_shift,
                           std::uint32_t* const* t) {
  const D d;
  const D64 d64;
  const hn::Rebind<std::uint16_t, D> d16;
  V64 m1e = hn::Zero(d64), m1o = m1e, m2e = m1e, m2o = m1e;
  V64 xxe = m1e, xxo = m1e, yye = m1e, yyo = m1e, xye = m1e, xyo = m1e;
  for (int k = 0; k < TAPS; ++k) {
    const V ck = hn::Set(d, c[k]);
    const V a = hn::PromoteTo(d, hn::LoadU(d16, rr[k] + j));
    const V b = hn::PromoteTo(d, hn::LoadU(d16, dr[k] + j));
    const V ao = Odd(a), bo = Odd(b);
    // ca = c*a as uint32 (the low half of the product; the product is below
    // 2^32 anyway), in the even uint32 lane of each uint64.
    const V64 cae = hn::MulEven(ck, a), cao = hn::MulEven(ck, ao);
    const V64 cbe = hn::MulEven(ck, b), cbo = hn::MulEven(ck, bo);
    m1e = m1e + cae;
    m1o = m1o + cao;
    m2e = m2e + cbe;
    m2o = m2o + cbo;
    const V cae32 = hn::BitCast(d, cae), cao32 = hn::BitCast(d, cao);
    const V cbe32 = hn::BitCast(d, cbe), cbo32 = hn::BitCast(d, cbo);
    xxe = xxe + hn::MulEven(cae32, a);  // uint64{ca} * a
    xxo = xxo + hn::MulEven(cao32, ao);
    yye = yye + hn::MulEven(cbe32, b);
    yyo = yyo + hn::MulEven(cbo32, bo);
    xye = xye + hn::MulEven(cae32, b);
    xyo = xyo + hn::MulEven(cao32, bo);
  }
  const V m16 = hn::Set(d, 0xFFFFu);
  // (mu + mu_round) wraps in 32 bits, as vif.cpp's uint32 sum.
  hn::StoreU(hn::And(hn::ShiftRightSame(Merge(m1e, m1o) + mu_round, mu_shift), m16), d, t[0] + j);
  hn::StoreU(hn::And(hn::ShiftRightSame(Merge(m2e, m2o) + mu_round, mu_shift), m16), d, t[1] + j);
  const auto fin = [&](V64 e, V64 o) {
    return Merge(hn::ShiftRightSame(e + sq_round, sq_shift), hn::ShiftRightSame(o + sq_round, sq_shift));
  };
  hn::StoreU(fin(xxe, xxo), d, t[2] + j);
  hn::StoreU(fin(yye, yyo), d, t[3] + j);
  hn::StoreU(fin(xye, xyo), d, t[4] + j);
}

// Runs a vertical column kernel over [0, w): directly when w >= N, else on
// zero-filled copies of the rows (col(rr, dr, 0, out) writes N columns).
template <int TAPS, class T, class F>
HWY_INLINE void Vertical(const T* const* rr, const T* const* dr, int width, int nout, std::uint32_t* const* t,
                         F&& col) {
  const std::size_t n = hn::Lanes(D()), w = std::size_t(width);
  if (w >= n) {
    ForColumns(w, n, [&](std::size_t j) { col(rr, dr, j, t); });
    return;
  }
  HWY_ALIGN T rbuf[TAPS][kMaxN] = {};
  HWY_ALIGN T dbuf[TAPS][kMaxN] = {};
  HWY_ALIGN std::uint32_t obuf[5][kMaxN] = {};
  const T* rp[TAPS];
  const T* dp[TAPS];
  for (int k = 0; k < TAPS; ++k) {
    std::memcpy(rbuf[k], rr[k], w * sizeof(T));
    std::memcpy(dbuf[k], dr[k], w * sizeof(T));
    rp[k] = rbuf[k];
    dp[k] = dbuf[k];
  }
  std::uint32_t* op[5] = {obuf[0], obuf[1], obuf[2], obuf[3], obuf[4]};
  col(rp, dp, 0, op);
  for (int q = 0; q < nout; ++q) std::memcpy(t[q], obuf[q], w * sizeof(std::uint32_t));
}

// ---------------------------------------------------------------------------
// statistic, horizontal: the five rows filtered at the row's columns, then
// the sigmas. The filters are symmetric and each sums to 65536 (vif_tables.h;
// the unit test VifSimdSupport.FilterShape checks both). The mean rows t[0],
// t[1] hold uint16 values (vif.cpp's vertical pass truncates them so); the
// moment rows t[2..4] any uint32.
//
// Filters of 5, 9 and 17 taps (every tap below 2^15): 16-bit multiply-add.
// Each row is first written as int16 rows in the scratch: a mean row as
// v - 32768, a moment row t = 2^16 * hi + lo as two rows, lo - 32768 and
// hi - 32768 (all in [-32768, 32767]). ReorderWidenMulAccumulate (x86's
// pmaddwd; with RearrangeToOddPlusEven the same result on any target) adds
// a[2i] * b[2i] + a[2i+1] * b[2i+1] into int32 lane i: with b two taps and
// a loaded from the right column, lane i gets two taps of one column (the
// even and odd columns from the same loads, see MaddRow). So for each row of
// 16-bit values v the even and odd columns' sums S' = sum_k c[k] * (v_k -
// 32768) are formed in int32 lanes (no pmaddwd pair overflows: |a * b| <=
// 32768 * 32767) that wrap, i.e. mod 2^32, and S = sum_k c[k] * v_k = S' +
// 32768 * 65536 = S' + 2^31 (mod 2^32). Each S is below 65536 * 65536 = 2^32,
// so the uint32 lane S' + 2^31 is S exactly:
// - Means: vif.cpp's uint32 sum is S (it cannot wrap: S < 2^32).
// - Moments: vif.cpp's uint64 sum X of c[k] * t (t < 2^32) is 2^16 * H + L,
//   H and L the sums S of the hi and lo rows (X < 2^48, no wrap). Then
//   (X + 32768) >> 16 = H + ((L + 32768) >> 16) (2^16 * H does not touch the
//   low 16 bits), where L + 32768 <= 2^32 - 2^15 does not wrap; the value is
//   < 2^32 (X + 32768 < 2^48), so the wrapping uint32 add gives it, and it is
//   vif.cpp's uint32.
// - Sigmas: (x_f - sq(mu, mu)) mod 2^32, sq from 64-bit products (MulEven),
//   per column, then the even and odd columns stored interleaved.
//
// The 3-tap filter (its middle tap 43728 >= 2^15) runs in uint32 lanes:
// F(r) = c[1] * r[x] + c[0] * (r[x-1] + r[x+1]) with the wrapping 32-bit
// multiply is the sum mod 2^32 (c*a + c*b == c*(a + b) mod 2^32), and the
// moment rows are split into 16-bit halves as above (H, L < 2^32, exact).
using D16 = hn::ScalableTag<std::int16_t>;
using DI32 = hn::Repartition<std::int32_t, D16>;  // = N uint32 lanes
using VI16 = hn::Vec<D16>;
using VI32 = hn::Vec<DI32>;
constexpr std::size_t kMaxN16 = HWY_LANES(std::int16_t);

// acc0 + the pairs' products, mod 2^32 (core/simd_madd-inl.hpp: one
// vpdpwssd on AVX-512 VNNI).
HWY_INLINE void MaddAcc(VI16 a, VI16 b, VI32& acc0, VI32& acc1) { acc0 = MulAccPairs(DI32(), a, b, acc0, acc1); }

// sq(a, b) of vif.cpp, (uint64{a} * b + 2^31) >> 32, per uint32 lane.
HWY_INLINE V SqRound(V a, V b) {
  const D d;
  const D64 d64;
  const V64 r31 = hn::Set(d64, 0x80000000u);
  const V64 e = hn::ShiftRight<32>(hn::MulEven(a, b) + r31);
  const V64 o = hn::And(hn::MulEven(Odd(a), Odd(b)) + r31, hn::Set(d64, 0xFFFFFFFF00000000ull));
  return hn::BitCast(d, hn::Or(e, o));
}

// The even and odd columns' S of one biased int16 row, r at column j (even
// columns j + 2i, odd j + 2i + 1). One set of loads serves both: L_m, loaded
// at column j - half + 2m, has columns j + 2i - half + 2m and one more in
// lanes 2i, 2i+1; for the even column j + 2i those are the taps 2m and 2m+1
// (ce[m] = c[2m], c[2m+1]), for the odd column j + 2i + 1 the taps 2m-1 and
// 2m (co[m] = c[2m-1], c[2m]), m = 0 .. half, with c[-1] = c[TAPS] = 0.
template <int TAPS>
HWY_INLINE void MaddRow(const std::int16_t* r, const VI16* ce, const VI16* co, V& even, V& odd) {
  constexpr int half = TAPS / 2;
  const D16 d16;
  const DI32 d32;
  const D d;
  VI32 e0 = hn::Zero(d32), e1 = e0, o0 = e0, o1 = e0;
  for (int m = 0; m <= half; ++m) {
    const VI16 l = hn::LoadU(d16, r - half + 2 * m);
    MaddAcc(l, ce[m], e0, e1);
    MaddAcc(l, co[m], o0, o1);
  }
  const V bias = hn::Set(d, 0x80000000u);
  even = hn::BitCast(d, hn::RearrangeToOddPlusEven(e0, e1)) + bias;
  odd = hn::BitCast(d, hn::RearrangeToOddPlusEven(o0, o1)) + bias;
}

// Columns j .. j+N16-1. r16: the 8 int16 rows (mu1, mu2, then lo, hi of xx,
// yy, xy).
template <int TAPS>
HWY_INLINE void StatHColMadd(const std::int16_t* const* r16, const VI16* ce, const VI16* co, std::size_t j,
                             std::uint32_t* const* out) {
  const D d;
  V mu1[2], mu2[2], xf[3][2];
  MaddRow<TAPS>(r16[0] + j, ce, co, mu1[0], mu1[1]);
  MaddRow<TAPS>(r16[1] + j, ce, co, mu2[0], mu2[1]);
  const V r16c = hn::Set(d, 32768u);
  for (int q = 0; q < 3; ++q) {
    V lo[2], hi[2];
    MaddRow<TAPS>(r16[2 + 2 * q] + j, ce, co, lo[0], lo[1]);
    MaddRow<TAPS>(r16[3 + 2 * q] + j, ce, co, hi[0], hi[1]);
    for (int p = 0; p < 2; ++p) xf[q][p] = hi[p] + hn::ShiftRight<16>(lo[p] + r16c);
  }
  V s[3][2];
  for (int p = 0; p < 2; ++p) {
    s[0][p] = xf[0][p] - SqRound(mu1[p], mu1[p]);
    s[1][p] = xf[1][p] - SqRound(mu2[p], mu2[p]);
    s[2][p] = xf[2][p] - SqRound(mu1[p], mu2[p]);
  }
  for (int q = 0; q < 3; ++q) hn::StoreInterleaved2(s[q][0], s[q][1], d, out[q] + j);
}

// Rows of at least N16 columns. scratch: 8 rows of stride int16 (stride >=
// w + 2 * kMaxHalf).
template <int TAPS>
HWY_INLINE void StatHRowsMadd(const std::uint32_t* const* t, const std::uint16_t* c, std::size_t w,
                              std::uint32_t* const* out, std::int16_t* scratch, std::size_t stride) {
  constexpr int half = TAPS / 2;
  const D d;
  const hn::Rebind<std::uint16_t, D> dh;                   // N uint16 lanes
  const std::size_t n = hn::Lanes(d), cnt = w + 2 * half;  // cnt >= N16 > N
  const auto bias16 = hn::Set(dh, std::uint16_t{0x8000});
  const V m16 = hn::Set(d, 0xFFFFu);
  std::int16_t* rows[8];
  for (int q = 0; q < 8; ++q) rows[q] = scratch + q * stride + kMaxHalf;
  const auto put = [&](std::int16_t* row, std::size_t x, V v) {  // 16-bit value, biased
    hn::StoreU(hn::BitCast(hn::Rebind<std::int16_t, D>(), hn::Xor(hn::TruncateTo(dh, v), bias16)),
               hn::Rebind<std::int16_t, D>(), row - half + x);
  };
  for (std::size_t x = 0; x < cnt; x += n) {
    const std::size_t x0 = std::min(x, cnt - n);
    put(rows[0], x0, hn::LoadU(d, t[0] - half + x0));
    put(rows[1], x0, hn::LoadU(d, t[1] - half + x0));
    for (int q = 0; q < 3; ++q) {
      const V v = hn::LoadU(d, t[2 + q] - half + x0);
      put(rows[2 + 2 * q], x0, hn::And(v, m16));
      put(rows[3 + 2 * q], x0, hn::ShiftRight<16>(v));
    }
  }
  // Tap pairs (MaddRow), c[-1] = c[TAPS] = 0; the low int16 of each int32 is
  // the even lane.
  const auto tap = [&](int k) -> std::uint32_t { return k >= 0 && k < TAPS ? c[k] : 0; };
  VI16 ce[half + 1], co[half + 1];
  for (int m = 0; m <= half; ++m) {
    ce[m] = hn::BitCast(D16(), hn::Set(DI32(), std::int32_t(tap(2 * m) | tap(2 * m + 1) << 16)));
    co[m] = hn::BitCast(D16(), hn::Set(DI32(), std::int32_t(tap(2 * m - 1) | tap(2 * m) << 16)));
  }
  const std::int16_t* r16[8] = {rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7]};
  ForColumns(w, hn::Lanes(D16()), [&](std::size_t j) { StatHColMadd<TAPS>(r16, ce, co, j, out); });
}

// The 3-tap filter in uint32 lanes (see above).
HWY_INLINE V FilterPaired3(const std::uint32_t* r, const std::uint16_t* c) {
  const D d;
  return hn::Set(d, c[1]) * hn::LoadU(d, r) + hn::Set(d, c[0]) * (hn::LoadU(d, r - 1) + hn::LoadU(d, r + 1));
}

HWY_INLINE void StatHCol3(const std::uint32_t* const* t, const std::uint32_t* const* sp, const std::uint16_t* c,
                          std::size_t j, std::uint32_t* const* out) {
  const D d;
  const V mu1 = FilterPaired3(t[0] + j, c);
  const V mu2 = FilterPaired3(t[1] + j, c);
  const V r16 = hn::Set(d, 32768u);
  V xf[3];
  for (int q = 0; q < 3; ++q)
    xf[q] = FilterPaired3(sp[2 * q + 1] + j, c) + hn::ShiftRight<16>(FilterPaired3(sp[2 * q] + j, c) + r16);
  hn::StoreU(xf[0] - SqRound(mu1, mu1), d, out[0] + j);
  hn::StoreU(xf[1] - SqRound(mu2, mu2), d, out[1] + j);
  hn::StoreU(xf[2] - SqRound(mu1, mu2), d, out[2] + j);
}

// Rows of at least N16 columns; scratch: 6 rows of stride uint32 (stride >=
// w + 2 * kMaxHalf).
HWY_INLINE void StatHRows3(const std::uint32_t* const* t, const std::uint16_t* c, std::size_t w,
                           std::uint32_t* const* out, std::uint32_t* scratch, std::size_t stride) {
  const D d;
  const std::size_t n = hn::Lanes(d), cnt = w + 2;  // cnt >= N
  const V m16 = hn::Set(d, 0xFFFFu);
  const std::uint32_t* sp[6];
  for (int q = 0; q < 3; ++q) {
    std::uint32_t* lo = scratch + (2 * q) * stride + kMaxHalf;
    std::uint32_t* hi = scratch + (2 * q + 1) * stride + kMaxHalf;
    const std::uint32_t* src = t[2 + q];
    for (std::size_t x = 0; x < cnt; x += n) {
      const std::size_t x0 = std::min(x, cnt - n);
      const V v = hn::LoadU(d, src - 1 + x0);
      hn::StoreU(hn::And(v, m16), d, lo - 1 + x0);
      hn::StoreU(hn::ShiftRight<16>(v), d, hi - 1 + x0);
    }
    sp[2 * q] = lo;
    sp[2 * q + 1] = hi;
  }
  ForColumns(w, n, [&](std::size_t j) { StatHCol3(t, sp, c, j, out); });
}

// scratch: 12 rows of stride int16, stride >= max(w, N16) + 2 * kMaxHalf + 1.
template <int TAPS>
void StatHT(const std::uint32_t* const* t, const std::uint16_t* c, int width, std::int32_t* s1, std::int32_t* s2,
            std::int32_t* s12, std::int16_t* scratch, std::size_t stride) {
  constexpr int half = TAPS / 2;
  const std::size_t n16 = hn::Lanes(D16()), w = std::size_t(width);
  // int32 and uint32 may alias each other.
  std::uint32_t* out[3] = {reinterpret_cast<std::uint32_t*>(s1), reinterpret_cast<std::uint32_t*>(s2),
                           reinterpret_cast<std::uint32_t*>(s12)};
  const auto rows = [&](const std::uint32_t* const* tt, std::size_t ww, std::uint32_t* const* oo) {
    if constexpr (TAPS == 3) {
      // The scratch seen as uint32 rows (Highway loads and stores only).
      StatHRows3(tt, c, ww, oo, reinterpret_cast<std::uint32_t*>(scratch), stride);
    } else {
      StatHRowsMadd<TAPS>(tt, c, ww, oo, scratch, stride);
    }
  };
  if (w >= n16) {
    rows(t, w, out);
    return;
  }
  // A row narrower than N16 columns: zero-filled copies, N16 columns done.
  HWY_ALIGN std::uint32_t tbuf[5][kMaxN16 + 2 * kMaxHalf] = {};
  HWY_ALIGN std::uint32_t obuf[3][kMaxN16] = {};
  const std::uint32_t* tp[5];
  for (int q = 0; q < 5; ++q) {
    std::memcpy(tbuf[q], t[q] - half, (w + 2 * half) * sizeof(std::uint32_t));
    tp[q] = tbuf[q] + half;
  }
  std::uint32_t* op[3] = {obuf[0], obuf[1], obuf[2]};
  rows(tp, n16, op);
  for (int q = 0; q < 3; ++q) std::memcpy(out[q], obuf[q], w * sizeof(std::uint32_t));
}

// ---------------------------------------------------------------------------
// statistic, vertical, 16-bit samples, filters of 5, 9 and 17 taps (every
// tap below 2^15): 16-bit multiply-add on pairs of rows. For the rows k0 =
// 2m and k1 = 2m+1 (the last row of an odd count is paired with itself and a
// zero tap) each uint32 lane gets the two samples of its column, a[k0] in
// the low and a[k1] in the high uint16; so ReorderWidenMulAccumulate with
// the taps (c[k0], c[k1]) adds both taps of the column (see the horizontal
// pass above for the bias and the wrap):
// - Means: S = sum_k c[k] * a_k from the rows biased by -32768 (S' + 2^31);
//   vif.cpp's uint32 sum of c * a is S (below 65536 * 65536, no wrap).
// - Moments: a product P = a * b < 2^32 is 2^16 * hi + lo with hi and lo the
//   unsigned high and low 16 bits of the uint16 multiply (MulHigh, Mul), both
//   in the same lanes; H and L, the sums of c * hi and c * lo, are each below
//   2^32 and exact (as S). vif.cpp's uint64 sum of uint64{c * a} * b is X =
//   2^16 * H + L, and it stores uint32((X + r) >> s) with s <= 16 and r =
//   2^(s-1) or 0. L + r < 2^32 does not wrap, 2^16 * H is divisible by 2^s,
//   so (X + r) >> s = (H << (16 - s)) + ((L + r) >> s) exactly, and its value
//   mod 2^32 is that sum formed with wrapping uint32 shifts and add.
//
// 8-bit samples (the same with T = uint8_t): a product is below 2^16 (255^2),
// its high half is 0 and H = 0, so only the low halves are summed.
template <int TAPS, class T>
HWY_INLINE void StatVMaddCol(const T* const* rr, const T* const* dr, const VI16* cp, std::size_t j, V mu_round,
                             int mu_shift, V sq_round, int sq_shift, std::uint32_t* const* t) {
  constexpr int pairs = (TAPS + 1) / 2;
  constexpr bool kWide = sizeof(T) == 2;  // products need their high halves
  const D d;
  const DI32 d32;
  const D16 d16;
  const hn::RebindToUnsigned<D16> du16;
  const hn::Rebind<T, D> dt;
  const auto bias = hn::Set(du16, std::uint16_t{0x8000});
  VI32 acc[8][2];
  for (auto& a : acc) a[0] = a[1] = hn::Zero(d32);
  const auto add = [&](int q, hn::Vec<decltype(du16)> v, VI16 c2) {
    MaddAcc(hn::BitCast(d16, hn::Xor(v, bias)), c2, acc[q][0], acc[q][1]);
  };
  HWY_UNROLL(9)  // the accumulators in registers (see StatV8PairCol)
  for (int m = 0; m < pairs; ++m) {
    const int k0 = 2 * m, k1 = 2 * m + 1 < TAPS ? 2 * m + 1 : 2 * m;
    const auto pack = [&](const T* const* r) {
      const V lo = hn::PromoteTo(d, hn::LoadU(dt, r[k0] + j));
      const V hi = hn::PromoteTo(d, hn::LoadU(dt, r[k1] + j));
      return hn::BitCast(du16, hn::Or(lo, hn::ShiftLeft<16>(hi)));
    };
    const auto a = pack(rr), b = pack(dr);
    add(0, a, cp[m]);
    add(1, b, cp[m]);
    add(2, hn::Mul(a, a), cp[m]);
    add(4, hn::Mul(b, b), cp[m]);
    add(6, hn::Mul(a, b), cp[m]);
    if constexpr (kWide) {
      add(3, hn::MulHigh(a, a), cp[m]);
      add(5, hn::MulHigh(b, b), cp[m]);
      add(7, hn::MulHigh(a, b), cp[m]);
    }
  }
  const V b31 = hn::Set(d, 0x80000000u);
  const auto sum = [&](int q) { return hn::BitCast(d, hn::RearrangeToOddPlusEven(acc[q][0], acc[q][1])) + b31; };
  const V m16 = hn::Set(d, 0xFFFFu);
  hn::StoreU(hn::And(hn::ShiftRightSame(sum(0) + mu_round, mu_shift), m16), d, t[0] + j);
  hn::StoreU(hn::And(hn::ShiftRightSame(sum(1) + mu_round, mu_shift), m16), d, t[1] + j);
  for (int q = 0; q < 3; ++q) {
    const V lo = sum(2 + 2 * q);
    const V hi = kWide ? sum(3 + 2 * q) : hn::Zero(d);
    hn::StoreU(hn::ShiftLeftSame(hi, 16 - sq_shift) + hn::ShiftRightSame(lo + sq_round, sq_shift), d, t[2 + q] + j);
  }
}

// The filter's tap pairs for StatVMaddCol.
template <int TAPS>
HWY_INLINE void TapPairs(const std::uint16_t* c, VI16* cp) {
  for (int m = 0; m < (TAPS + 1) / 2; ++m) {
    const std::uint32_t lo = c[2 * m], hi = 2 * m + 1 < TAPS ? c[2 * m + 1] : 0;
    cp[m] = hn::BitCast(D16(), hn::Set(DI32(), std::int32_t(lo | hi << 16)));
  }
}

// statistic, vertical, 8-bit samples, filters of 5, 9 and 17 taps, 2N
// columns per call (x86 targets; rows of at least 2N columns). The samples
// are centred, u = a - 128 and v = b - 128 in [-128, 127], so every product
// fits int16 unbiased (|u * v| <= 16384) and the multiply-add needs no bias:
// with M_u = sum_k c[k] * u_k (and X_uu, X_vv, X_uv likewise, each exact in
// int32: |sum| <= 65536 * 16384 = 2^30) and the taps summing to 65536,
//   sum c * a = M_u + 128 * 65536 = M_u + 2^23 (= S1; S2 likewise),
//   sum c * a^2 = X_uu + 256 * S1 - 2^30 (a^2 = u^2 + 256 u + 16384),
//   sum c * a * b = X_uv + 128 * (S1 + S2) - 2^30,
// formed with wrapping uint32 adds and shifts: each true value is below 2^32
// (StatV8Col's proof), so the value mod 2^32 is the value.
// Two rows' samples of one column form a pair of int16 lanes by
// InterleaveLower/Upper of the rows widened to int16: per 128-bit block, the
// lower interleave holds columns 8b .. 8b+3 of block b and the upper one
// columns 8b+4 .. 8b+7; the stores at the end put them back in column order.
template <int TAPS>
HWY_INLINE void StatV8PairCol(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const VI16* cp,
                              std::size_t j, V mu_round, int mu_shift, std::uint32_t* const* t) {
  constexpr int pairs = (TAPS + 1) / 2;
  const D d;
  const DI32 d32;
  const D16 d16;
  const hn::Rebind<std::uint8_t, D16> d8;
  const VI16 c128 = hn::Set(d16, std::int16_t{128});
  // acc[q][h][0/1]: q = M_u, M_v, X_uu, X_vv, X_uv; h = lower/upper interleave.
  VI32 acc[5][2][2];
  for (auto& q : acc)
    for (auto& h : q) h[0] = h[1] = hn::Zero(d32);
  // Unrolled whole, so that the twenty accumulators stay in registers (a
  // loop over the pairs kept them on the stack).
  HWY_UNROLL(9)
  for (int m = 0; m < pairs; ++m) {
    const int k0 = 2 * m, k1 = 2 * m + 1 < TAPS ? 2 * m + 1 : 2 * m;
    const auto row = [&](const std::uint8_t* p) { return hn::Sub(hn::PromoteTo(d16, hn::LoadU(d8, p + j)), c128); };
    const VI16 a0 = row(rr[k0]), a1 = row(rr[k1]), b0 = row(dr[k0]), b1 = row(dr[k1]);
    const VI16 u[2] = {hn::InterleaveLower(d16, a0, a1), hn::InterleaveUpper(d16, a0, a1)};
    const VI16 v[2] = {hn::InterleaveLower(d16, b0, b1), hn::InterleaveUpper(d16, b0, b1)};
    for (int h = 0; h < 2; ++h) {
      MaddAcc(u[h], cp[m], acc[0][h][0], acc[0][h][1]);
      MaddAcc(v[h], cp[m], acc[1][h][0], acc[1][h][1]);
      MaddAcc(hn::Mul(u[h], u[h]), cp[m], acc[2][h][0], acc[2][h][1]);
      MaddAcc(hn::Mul(v[h], v[h]), cp[m], acc[3][h][0], acc[3][h][1]);
      MaddAcc(hn::Mul(u[h], v[h]), cp[m], acc[4][h][0], acc[4][h][1]);
    }
  }
  const auto sum = [&](int q, int h) { return hn::BitCast(d, hn::RearrangeToOddPlusEven(acc[q][h][0], acc[q][h][1])); };
  const V b23 = hn::Set(d, 1u << 23), m30 = hn::Set(d, 0xC0000000u), m16 = hn::Set(d, 0xFFFFu);
  V out[5][2];
  for (int h = 0; h < 2; ++h) {
    const V s1 = sum(0, h) + b23, s2 = sum(1, h) + b23;
    out[0][h] = hn::And(hn::ShiftRightSame(s1 + mu_round, mu_shift), m16);
    out[1][h] = hn::And(hn::ShiftRightSame(s2 + mu_round, mu_shift), m16);
    out[2][h] = sum(2, h) + hn::ShiftLeft<8>(s1) + m30;
    out[3][h] = sum(3, h) + hn::ShiftLeft<8>(s2) + m30;
    out[4][h] = sum(4, h) + hn::ShiftLeft<7>(s1 + s2) + m30;
  }
  constexpr std::size_t n = kMaxN;  // = Lanes(d) on x86
  for (int q = 0; q < 5; ++q) {
    V lo = out[q][0], hi = out[q][1];
    if constexpr (n > 4) {  // columns 0..N-1 and N..2N-1 from the blocks' halves
      const V x = hn::ConcatLowerLower(d, hi, lo), y = hn::ConcatUpperUpper(d, hi, lo);
      if constexpr (n == 16) {  // blocks (0, 2, 1, 3) -> (0, 1, 2, 3)
        HWY_ALIGN static constexpr std::uint32_t kSwap[16] = {0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15};
        const auto idx = hn::SetTableIndices(d, kSwap);
        lo = hn::TableLookupLanes(x, idx);
        hi = hn::TableLookupLanes(y, idx);
      } else {
        lo = x;
        hi = y;
      }
    }
    hn::StoreU(lo, d, t[q] + j);
    hn::StoreU(hi, d, t[q] + j + n);
  }
}

template <int TAPS>
void StatV16T(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c, int w,
              const Shift& s, std::uint32_t* const* t) {
  const V mr = hn::Set(D(), s.mu_round);
  if constexpr (TAPS == 3) {  // the 3-tap filter's middle tap is >= 2^15
    const V64 sr = hn::Set(D64(), s.sq_round);
    Vertical<TAPS>(rr, dr, w, 5, t,
                   [&](const std::uint16_t* const* r, const std::uint16_t* const* q, std::size_t j,
                       std::uint32_t* const* o) { StatV16Col<TAPS>(r, q, c, j, mr, s.mu_shift, sr, s.sq_shift, o); });
  } else {
    HWY_ASSERT(s.sq_shift >= 0 && s.sq_shift <= 16 && s.sq_round < 65536);
    VI16 cp[(TAPS + 1) / 2];
    TapPairs<TAPS>(c, cp);
    const V sr = hn::Set(D(), std::uint32_t(s.sq_round));
    Vertical<TAPS>(
        rr, dr, w, 5, t,
        [&](const std::uint16_t* const* r, const std::uint16_t* const* q, std::size_t j, std::uint32_t* const* o) {
          StatVMaddCol<TAPS>(r, q, cp, j, mr, s.mu_shift, sr, s.sq_shift, o);
        });
  }
}

template <int TAPS>
void StatV8T(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c, int w,
             const Shift& s, std::uint32_t* const* t) {
  HWY_ASSERT(s.sq_round == 0 && s.sq_shift == 0);  // see StatV8Col's proof
  const V mr = hn::Set(D(), s.mu_round);
  if constexpr (TAPS == 3) {  // the 3-tap filter's middle tap is >= 2^15
    Vertical<TAPS>(rr, dr, w, 5, t,
                   [&](const std::uint8_t* const* r, const std::uint8_t* const* q, std::size_t j,
                       std::uint32_t* const* o) { StatV8Col<TAPS>(r, q, c, j, mr, s.mu_shift, o); });
  } else {
    VI16 cp[(TAPS + 1) / 2];
    TapPairs<TAPS>(c, cp);
#if HWY_ARCH_X86
    constexpr std::size_t n = kMaxN;  // = Lanes(D()) on x86
    if ((n == 4 || n == 8 || n == 16) && std::size_t(w) >= 2 * n) {
      ForColumns(std::size_t(w), 2 * n, [&](std::size_t j) { StatV8PairCol<TAPS>(rr, dr, cp, j, mr, s.mu_shift, t); });
      return;
    }
#endif
    const V zero = hn::Zero(D());
    Vertical<TAPS>(rr, dr, w, 5, t,
                   [&](const std::uint8_t* const* r, const std::uint8_t* const* q, std::size_t j,
                       std::uint32_t* const* o) { StatVMaddCol<TAPS>(r, q, cp, j, mr, s.mu_shift, zero, 0, o); });
  }
}

// ---------------------------------------------------------------------------
// subsample, vertical: means only, uint32 lanes (vif.cpp's uint32 products
// and sums, wrapping alike). The filters are symmetric (c[k] == c[TAPS-1-k],
// VifSimdSupport.FilterShape): rows k and TAPS-1-k are added first, c * a +
// c * b == c * (a + b) in the integers mod 2^32 whatever wraps.
template <int TAPS, class T>
HWY_INLINE void SubVCol(const T* const* rr, const T* const* dr, const std::uint16_t* c, std::size_t j, V mu_round,
                        int mu_shift, std::uint32_t* const* t) {
  constexpr int half = TAPS / 2;
  const D d;
  const hn::Rebind<T, D> dt;
  const auto row = [&](const T* const* r, int k) { return hn::PromoteTo(d, hn::LoadU(dt, r[k] + j)); };
  V a = hn::Set(d, c[half]) * row(rr, half), b = hn::Set(d, c[half]) * row(dr, half);
  for (int k = 0; k < half; ++k) {
    const V ck = hn::Set(d, c[k]);
    a = a + ck * (row(rr, k) + row(rr, TAPS - 1 - k));
    b = b + ck * (row(dr, k) + row(dr, TAPS - 1 - k));
  }
  const V m16 = hn::Set(d, 0xFFFFu);
  hn::StoreU(hn::And(hn::ShiftRightSame(a + mu_round, mu_shift), m16), d, t[0] + j);
  hn::StoreU(hn::And(hn::ShiftRightSame(b + mu_round, mu_shift), m16), d, t[1] + j);
}

template <int TAPS, class T>
void SubVT(const T* const* rr, const T* const* dr, const std::uint16_t* c, int w, std::uint32_t mu_round, int mu_shift,
           std::uint32_t* t_ref, std::uint32_t* t_dis) {
  const V mr = hn::Set(D(), mu_round);
  std::uint32_t* t[2] = {t_ref, t_dis};
  Vertical<TAPS>(rr, dr, w, 2, t, [&](const T* const* r, const T* const* q, std::size_t j, std::uint32_t* const* o) {
    SubVCol<TAPS>(r, q, c, j, mr, mu_shift, o);
  });
}

// subsample, horizontal: N/2 outputs per vector. Loading N uint32 from
// 2*jo - half + k puts column 2*(jo+i) - half + k in even lane 2i, so MulEven
// forms exactly the products of the kept columns.
template <int TAPS>
HWY_INLINE void SubHCol(const std::uint32_t* t_ref, const std::uint32_t* t_dis, const std::uint16_t* c, std::size_t jo,
                        std::uint16_t* o_ref, std::uint16_t* o_dis) {
  constexpr int half = TAPS / 2;
  const D d;
  const D64 d64;
  const hn::Rebind<std::uint16_t, D64> d16;
  // Symmetric taps paired (see SubVCol): only the low 32 bits of the sums
  // are used, and MulEven's low 32 bits are those of c times the wrapped
  // uint32 pair sum.
  const std::ptrdiff_t x0 = 2 * std::ptrdiff_t(jo);
  const V ch = hn::Set(d, c[half]);
  V64 a = hn::MulEven(ch, hn::LoadU(d, t_ref + x0)), b = hn::MulEven(ch, hn::LoadU(d, t_dis + x0));
  for (int k = 0; k < half; ++k) {
    const V ck = hn::Set(d, c[k]);
    const std::ptrdiff_t x = x0 - half + k, y = x0 + half - k;
    a = a + hn::MulEven(ck, hn::LoadU(d, t_ref + x) + hn::LoadU(d, t_ref + y));
    b = b + hn::MulEven(ck, hn::LoadU(d, t_dis + x) + hn::LoadU(d, t_dis + y));
  }
  // uint16((a + 32768) >> 16) with a and a + 32768 wrapping in 32 bits.
  const V64 lo = hn::Set(d64, 0xFFFFFFFFu), r16 = hn::Set(d64, 32768u);
  const auto fin = [&](V64 v) { return hn::TruncateTo(d16, hn::ShiftRight<16>(hn::And(hn::And(v, lo) + r16, lo))); };
  hn::StoreU(fin(a), d16, o_ref + jo);
  hn::StoreU(fin(b), d16, o_dis + jo);
}

template <int TAPS>
void SubHT(const std::uint32_t* t_ref, const std::uint32_t* t_dis, const std::uint16_t* c, int ow, std::uint16_t* o_ref,
           std::uint16_t* o_dis) {
  constexpr int half = TAPS / 2;
  const std::size_t n = hn::Lanes(D64()), w = std::size_t(ow);
  if (w >= n) {
    ForColumns(w, n, [&](std::size_t jo) { SubHCol<TAPS>(t_ref, t_dis, c, jo, o_ref, o_dis); });
    return;
  }
  // The scalar loop reads columns -half .. 2*(ow-1) + half.
  HWY_ALIGN std::uint32_t rbuf[kMaxN + 2 * kMaxHalf] = {};
  HWY_ALIGN std::uint32_t dbuf[kMaxN + 2 * kMaxHalf] = {};
  HWY_ALIGN std::uint16_t orb[kMaxN] = {};
  HWY_ALIGN std::uint16_t odb[kMaxN] = {};
  const std::size_t cnt = 2 * w - 1 + 2 * half;
  std::memcpy(rbuf, t_ref - half, cnt * sizeof(std::uint32_t));
  std::memcpy(dbuf, t_dis - half, cnt * sizeof(std::uint32_t));
  SubHCol<TAPS>(rbuf + half, dbuf + half, c, 0, orb, odb);
  std::memcpy(o_ref, orb, w * sizeof(std::uint16_t));
  std::memcpy(o_dis, odb, w * sizeof(std::uint16_t));
}

// ---------------------------------------------------------------------------
// accumulate, one row: one column per double lane. What vif.cpp's
// accumulate() and gain_terms() do per pixel, and why each lane step gives
// the same value (the build has -ffp-contract=off and only separate
// Add / Sub / Mul / Div are used, each an IEEE round-to-nearest operation like
// the scalar one):
//
//   s1, s2, s12 are int32; PromoteTo(double) is exact. max(s2, 0) is taken in
//   int32 before the conversion. The branch tests (s1 >= 2^17, s12 > 0,
//   s2 > 0) on the exact doubles are the integer tests; they become masks.
//   Denominator: v = s1 + 2^17 <= 2^31 + 2^17, exact in double (the integer
//   vif.cpp passes to log2_q11).
//   g = s12 / (s1 + eps): the same eps (the same constant expression), the
//   same Add and Div. x = s2 - g * s12: the same Mul, the same Sub.
//   sv = vmafx_vif_trunc_i32(x), then max(sv, 0): x >= 2^31 gives INT32_MIN there,
//   then 0; x <= -2^31 - 1 gives INT32_MIN, then 0, and so does
//   max(Trunc(x), 0); in between it is Trunc(x) (an integer-valued double),
//   then max(., 0). So sv = x < 2^31 ? max(Trunc(x), 0) : 0 (x is never NaN
//   where it is used: s1 + eps > 0 there). A Trunc of -0.x giving -0.0 makes
//   no difference: sv is only used in sv + 2^17.
//   noise = sv + 2^17: vif.cpp forms it as uint32; 0 <= sv <= 2^31 - 1, so it
//   is the exact integer sv + 2^17 < 2^32, and exact in double.
//   g = g < gain_limit ? g : gain_limit, IfThenElse on the same comparison.
//   t = (g * g) * s1, the same two Muls in the same order. vif.cpp truncates
//   t to int64; Trunc(t) is that integer as a double (|t| < 2^63, below).
//   total = int64(t) + noise: after the limit g is either the raw g, picked
//   because it is below the limit, or the limit; with |gain_limit| <= 1024
//   (acc_supports) either way |g| <= 1024 (the raw g is >= 0 here), so
//   g * g <= 2^20 and 0 <= t <= 2^20 * (2^31 - 1) < 2^51. Trunc(t) + noise
//   < 2^51 + 2^32 < 2^53: both are integers, the sum is exact in double and
//   equals vif.cpp's int64 total (itself >= noise >= 2^17).
//
// log2_q11(v) for an integer 2^17 <= v < 2^53 held exactly in a double: the
// biased exponent E gives bit_width(v) = E - 1022, so log2_q11's k =
// bit_width - 16 = E - 1038 (bit_width >= 18 > 17, the max() is inactive).
// v >> k is the leading one followed by the next 15 bits of v, which are the
// top 15 bits of the double's fraction field (bits 51..37: the fraction holds
// all bits of v below the leading one, v being exact); so the table index
// (v >> k) - 32768 is (bits >> 37) & 0x7FFF. log2_q11(v) = table[index] +
// 2048 * E - 2048 * 1038; the table part is looked up by a scalar loop.
//
// Sums: every per-pixel term is an integer; the four int64 sums are order
// free. Lanes outside the row (the tail) and lanes not in a branch add 0.
using DD = hn::ScalableTag<double>;
using DDI = hn::RebindToSigned<DD>;
using DDU = hn::RebindToUnsigned<DD>;
using DD32 = hn::Rebind<std::int32_t, DD>;
using VD = hn::Vec<DD>;
using VDI = hn::Vec<DDI>;
using MD = hn::Mask<DD>;

// log2_q11's two parts for integer-valued doubles in [2^17, 2^53): the table
// index, and 2048 * E (E the biased exponent; 2048 * k = 2048 * E - 2048 * 1038).
HWY_INLINE void Log2Parts(VD v, VDI& index, VDI& e2048) {
  const DDU du;
  const DDI di;
  const auto bits = hn::BitCast(du, v);
  index = hn::BitCast(di, hn::And(hn::ShiftRight<37>(bits), hn::Set(du, 0x7FFFu)));
  e2048 = hn::BitCast(di, hn::ShiftLeft<11>(hn::ShiftRight<52>(bits)));
}

struct AccLanes {
  VDI num_log, den_log, num_non_log, den_non_log;
};

// The table look-ups are left to a scalar loop (gathers are slow on some
// CPUs): each column stores the three table indices it needs, or kNoEntry
// (an extra zero entry of the padded table) where its branch does not take
// that term. The sums of the exponent parts stay in the lanes.
constexpr std::int64_t kNoEntry = VMAFX_VIF_LOG2_SIZE;
struct AccIndex {
  std::uint16_t* den;    // + table[den]
  std::uint16_t* total;  // + table[total]
  std::uint16_t* noise;  // - table[noise]
};

HWY_INLINE void AccumulateCol(const std::int32_t* s1p, const std::int32_t* s2p, const std::int32_t* s12p, MD valid,
                              VD gl, const AccIndex& ix, std::size_t at, AccLanes& a) {
  const DD d;
  const DDI di;
  const DD32 d32;
  const hn::Rebind<std::uint16_t, DD> d16;
  const DDU du;
  const auto store = [&](VDI index, std::uint16_t* p) {
    hn::StoreU(hn::TruncateTo(d16, hn::BitCast(du, index)), d16, p + at);
  };
  const VDI none = hn::Set(di, kNoEntry);
  const auto s2i = hn::Max(hn::LoadU(d32, s2p), hn::Zero(d32));
  const VD s1 = hn::PromoteTo(d, hn::LoadU(d32, s1p));
  const VD s2 = hn::PromoteTo(d, s2i);
  const VD s12 = hn::PromoteTo(d, hn::LoadU(d32, s12p));
  const VD nsq = hn::Set(d, double(kSigmaNsq));
  const MD logm = hn::And(valid, hn::Ge(s1, nsq));
  const MD flat = hn::AndNot(logm, valid);
  // Flat branch: the clamped sigma2_sq and a count (VecFromMask is -1).
  const auto flat_i = hn::RebindMask(di, flat);
  a.num_non_log = hn::Add(a.num_non_log, hn::IfThenElseZero(flat_i, hn::PromoteTo(di, s2i)));
  a.den_non_log = hn::Sub(a.den_non_log, hn::VecFromMask(di, flat_i));
  if (hn::AllFalse(d, logm)) {
    store(none, ix.den);
    store(none, ix.total);
    store(none, ix.noise);
    return;
  }
  // Denominator: log2_q11(s1 + 2^17) - 2048 * 17.
  const auto log_i = hn::RebindMask(di, logm);
  VDI idx, e;
  Log2Parts(hn::Add(s1, nsq), idx, e);
  store(hn::IfThenElse(log_i, idx, none), ix.den);
  a.den_log = hn::Add(a.den_log, hn::IfThenElseZero(log_i, hn::Sub(e, hn::Set(di, 2048 * (1038 + 17)))));
  const VD zero = hn::Zero(d);
  const MD numm = hn::And(logm, hn::And(hn::Gt(s12, zero), hn::Gt(s2, zero)));
  if (hn::AllFalse(d, numm)) {
    store(none, ix.total);
    store(none, ix.noise);
    return;
  }
  const double eps = 65536 * 1.0e-10;  // gain_terms()'s
  VD g = hn::Div(s12, hn::Add(s1, hn::Set(d, eps)));
  const VD x = hn::Sub(s2, hn::Mul(g, s12));
  const VD sv = hn::IfThenElseZero(hn::Lt(x, hn::Set(d, 2147483648.0)), hn::Max(hn::Trunc(x), zero));
  const VD noise = hn::Add(sv, nsq);
  g = hn::IfThenElse(hn::Lt(g, gl), g, gl);
  const VD total = hn::Add(hn::Trunc(hn::Mul(hn::Mul(g, g), s1)), noise);
  // Numerator: log2_q11(total) - log2_q11(noise); the 2048 * 1038 cancel.
  const auto num_i = hn::RebindMask(di, numm);
  VDI it, et, in, en;
  Log2Parts(total, it, et);
  Log2Parts(noise, in, en);
  store(hn::IfThenElse(num_i, it, none), ix.total);
  store(hn::IfThenElse(num_i, in, none), ix.noise);
  a.num_log = hn::Add(a.num_log, hn::IfThenElseZero(num_i, hn::Sub(et, en)));
}

void AccumulateRow(const std::int32_t* s1, const std::int32_t* s2, const std::int32_t* s12, int width,
                   double gain_limit, const std::uint16_t* table, std::int64_t* acc) {
  const DD d;
  const DDI di;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width);
  const VD gl = hn::Set(d, gain_limit);
  AccLanes a{hn::Zero(di), hn::Zero(di), hn::Zero(di), hn::Zero(di)};
  const MD all = hn::FirstN(d, n);
  constexpr std::size_t kChunk = 256;  // columns per round of table look-ups
  constexpr std::size_t kMaxD = HWY_LANES(double);
  HWY_ALIGN std::uint16_t ibuf[3][kChunk + kMaxD];
  const AccIndex ix{ibuf[0], ibuf[1], ibuf[2]};
  std::int64_t num_tab = 0, den_tab = 0;
  for (std::size_t c0 = 0; c0 < w; c0 += kChunk) {
    const std::size_t cw = std::min(kChunk, w - c0);
    std::size_t j = 0;
    for (; j + n <= cw; j += n) AccumulateCol(s1 + c0 + j, s2 + c0 + j, s12 + c0 + j, all, gl, ix, j, a);
    if (j < cw) {
      // The tail in zero-filled copies; lanes past it are masked out.
      HWY_ALIGN std::int32_t b1[kMaxD] = {}, b2[kMaxD] = {}, b12[kMaxD] = {};
      const std::size_t r = cw - j;
      std::memcpy(b1, s1 + c0 + j, r * sizeof(std::int32_t));
      std::memcpy(b2, s2 + c0 + j, r * sizeof(std::int32_t));
      std::memcpy(b12, s12 + c0 + j, r * sizeof(std::int32_t));
      AccumulateCol(b1, b2, b12, hn::FirstN(d, r), gl, ix, j, a);
    }
    for (std::size_t i = 0; i < cw; ++i) {
      den_tab += table[ix.den[i]];
      num_tab += table[ix.total[i]];
      num_tab -= table[ix.noise[i]];
      // Keeps GCC from vectorizing this loop into emulated gathers (slower
      // than plain loads); changes nothing else.
      asm("" : "+r"(den_tab), "+r"(num_tab));
    }
  }
  acc[0] += hn::GetLane(hn::SumOfLanes(di, a.num_log)) + num_tab;
  acc[1] += hn::GetLane(hn::SumOfLanes(di, a.den_log)) + den_tab;
  acc[2] += hn::GetLane(hn::SumOfLanes(di, a.num_non_log));
  acc[3] += hn::GetLane(hn::SumOfLanes(di, a.den_non_log));
}

// ---------------------------------------------------------------------------
// The exported entry points: the filter width picks the instantiation.
#define VMAFX_VIF_TAPS(taps, call)                         \
  switch (taps) {                                          \
    case 17: {                                             \
      constexpr int K = 17;                                \
      call;                                                \
    } break;                                               \
    case 9: {                                              \
      constexpr int K = 9;                                 \
      call;                                                \
    } break;                                               \
    case 5: {                                              \
      constexpr int K = 5;                                 \
      call;                                                \
    } break;                                               \
    case 3: {                                              \
      constexpr int K = 3;                                 \
      call;                                                \
    } break;                                               \
    default: HWY_ABORT("vif simd: filter width %d", taps); \
  }

void StatV8(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c, int taps, int w,
            const Shift& s, std::uint32_t* const* t) {
  VMAFX_VIF_TAPS(taps, StatV8T<K>(rr, dr, c, w, s, t))
}
void StatV16(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c, int taps, int w,
             const Shift& s, std::uint32_t* const* t) {
  VMAFX_VIF_TAPS(taps, StatV16T<K>(rr, dr, c, w, s, t))
}
void StatH(const std::uint32_t* const* t, const std::uint16_t* c, int taps, int w, std::int32_t* s1, std::int32_t* s2,
           std::int32_t* s12, std::int16_t* scratch, std::size_t stride) {
  VMAFX_VIF_TAPS(taps, StatHT<K>(t, c, w, s1, s2, s12, scratch, stride))
}
void SubV8(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c, int taps, int w,
           std::uint32_t mu_round, int mu_shift, std::uint32_t* t_ref, std::uint32_t* t_dis) {
  VMAFX_VIF_TAPS(taps, (SubVT<K, std::uint8_t>(rr, dr, c, w, mu_round, mu_shift, t_ref, t_dis)))
}
void SubV16(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c, int taps, int w,
            std::uint32_t mu_round, int mu_shift, std::uint32_t* t_ref, std::uint32_t* t_dis) {
  VMAFX_VIF_TAPS(taps, (SubVT<K, std::uint16_t>(rr, dr, c, w, mu_round, mu_shift, t_ref, t_dis)))
}
void SubH(const std::uint32_t* t_ref, const std::uint32_t* t_dis, const std::uint16_t* c, int taps, int ow,
          std::uint16_t* o_ref, std::uint16_t* o_dis) {
  VMAFX_VIF_TAPS(taps, SubHT<K>(t_ref, t_dis, c, ow, o_ref, o_dis))
}
#undef VMAFX_VIF_TAPS

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace HWY_NAMESPACE
}  // namespace vmafx::vif::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmafx::vif {
namespace simd {

HWY_EXPORT(StatV8);
HWY_EXPORT(StatV16);
HWY_EXPORT(StatH);
HWY_EXPORT(SubV8);
HWY_EXPORT(SubV16);
HWY_EXPORT(SubH);
HWY_EXPORT(AccumulateRow);

namespace {

void stat_v8(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c, int taps, int w,
             const Shift& s, std::uint32_t* const* t) {
  HWY_DYNAMIC_DISPATCH(StatV8)(rr, dr, c, taps, w, s, t);
}
void stat_v16(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c, int taps, int w,
              const Shift& s, std::uint32_t* const* t) {
  HWY_DYNAMIC_DISPATCH(StatV16)(rr, dr, c, taps, w, s, t);
}
void stat_h(const std::uint32_t* const* t, const std::uint16_t* c, int taps, int w, std::int32_t* s1, std::int32_t* s2,
            std::int32_t* s12) {
  // Per-thread int16 rows for StatHT, grown once: 8 rows of int16 or 6 of
  // uint32 (the 3-tap filter), stride entries each.
  thread_local std::vector<std::int16_t> scratch;
  const std::size_t stride = std::size_t(std::max(w, 64)) + 32;
  if (scratch.size() < 12 * stride) scratch.resize(12 * stride);
  HWY_DYNAMIC_DISPATCH(StatH)(t, c, taps, w, s1, s2, s12, scratch.data(), stride);
}
void sub_v8(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c, int taps, int w,
            std::uint32_t mu_round, int mu_shift, std::uint32_t* t_ref, std::uint32_t* t_dis) {
  HWY_DYNAMIC_DISPATCH(SubV8)(rr, dr, c, taps, w, mu_round, mu_shift, t_ref, t_dis);
}
void sub_v16(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c, int taps, int w,
             std::uint32_t mu_round, int mu_shift, std::uint32_t* t_ref, std::uint32_t* t_dis) {
  HWY_DYNAMIC_DISPATCH(SubV16)(rr, dr, c, taps, w, mu_round, mu_shift, t_ref, t_dis);
}
void sub_h(const std::uint32_t* t_ref, const std::uint32_t* t_dis, const std::uint16_t* c, int taps, int ow,
           std::uint16_t* o_ref, std::uint16_t* o_dis) {
  HWY_DYNAMIC_DISPATCH(SubH)(t_ref, t_dis, c, taps, ow, o_ref, o_dis);
}

// The log2 table, then a zero entry (AccumulateRow's kNoEntry).
const std::uint16_t* log2_table_padded() {
  struct Padded {
    alignas(64) std::uint16_t v[VMAFX_VIF_LOG2_SIZE + 1];
  };
  static const Padded p = [] {
    Padded q{};
    std::memcpy(q.v, vmafx_vif_log2_table, sizeof(vmafx_vif_log2_table));
    return q;
  }();
  return p.v;
}

// AccumulateRow's exactness proof (above) needs |gain_limit| <= 1024.
bool acc_supports(double gain_limit) { return std::fabs(gain_limit) <= 1024.0; }

void acc_row(const std::int32_t* s1, const std::int32_t* s2, const std::int32_t* s12, int w, double gain_limit,
             std::int64_t* acc) {
  HWY_DYNAMIC_DISPATCH(AccumulateRow)(s1, s2, s12, w, gain_limit, log2_table_padded(), acc);
}

}  // namespace
}  // namespace simd

void init_simd_rows(Rows& r) {
  r.stat_vertical_8 = &simd::stat_v8;
  r.stat_vertical_16 = &simd::stat_v16;
  r.stat_horizontal = &simd::stat_h;
  r.accumulate_supports = &simd::acc_supports;
  r.accumulate_row = &simd::acc_row;
  r.sub_vertical_8 = &simd::sub_v8;
  r.sub_vertical_16 = &simd::sub_v16;
  r.sub_horizontal = &simd::sub_h;
}

}  // namespace vmafx::vif
#endif  // HWY_ONCE

#else  // !VMAFX_HAVE_HWY

namespace vmafx::vif {
void init_simd_rows(Rows&) {}
}  // namespace vmafx::vif

#endif  // VMAFX_HAVE_HWY
