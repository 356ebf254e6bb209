// SPDX-License-Identifier: BSD-3-Clause
// SIMD passes of CAMBI; see cambi_simd.hpp for the contract and cambi.cpp
// (namespace cambi::scalar) for the scalar reference each one reproduces.
// Compiled once per Highway target (foreach_target) and chosen at run time
// (HWY_DYNAMIC_DISPATCH).
//
// All of it is integer work (16-bit samples, counters and masks) except the
// banding confidence, where each lane does the scalar's float steps: an exact
// int32 product converted to float (round to nearest, as the C conversion),
// one float multiply by the same reciprocal-table entry, a max.
//
// Row ends: a vector pass covers the columns where a whole vector (and what
// it reads to the right) stays inside the row; the remaining columns run the
// scalar statement of the reference. Nothing outside what the scalar code
// reads is read, except where a buffer's contract gives slack (c_values'
// histograms, spatial_mask's column sums).
//
// c_values keeps libvmaf's sliding histograms (band_size rows of w counters;
// a masked pixel of value v adds 1 to row v over the columns of its window),
// so every counter holds, when a row is scored, the count the reference has
// there: the updates are additions mod 2^16 and commute. The pixels of a row
// transition are taken in runs of consecutive columns that enter (or leave)
// one histogram row; a run adds its trapezoid (per column, how many of its
// pixels' windows cover it) in a few whole vectors. The histograms are not
// cleared per call: the rows still counted at the end are taken out again,
// which leaves every counter 0 for the next call (on this thread).
#include "feature/cambi_simd.hpp"

#if VMAFX_HAVE_HWY

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "exact/cambi_tables.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "feature/cambi_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace vmafx::cambi::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// enabled() is false on this target; cambi.cpp keeps its scalar code.
void ConvertRow8(const std::uint8_t*, std::uint16_t*, int, int) { HWY_ABORT("cambi simd: no SIMD target"); }
void ConvertRow16(const std::uint16_t*, std::uint16_t*, int, int) { HWY_ABORT("cambi simd: no SIMD target"); }
std::uint16_t RowMax(const std::uint16_t*, int) { HWY_ABORT("cambi simd: no SIMD target"); }
void AntiDither(std::uint16_t*, int, int) { HWY_ABORT("cambi simd: no SIMD target"); }
void Decimate(std::uint16_t*, std::ptrdiff_t, int, int) { HWY_ABORT("cambi simd: no SIMD target"); }
void SpatialMask(const std::uint16_t*, std::ptrdiff_t, int, int, std::uint16_t, std::uint16_t*, std::uint16_t*, bool) {
  HWY_ABORT("cambi simd: no SIMD target");
}
void AntiDitherRow(std::uint16_t*, const std::uint16_t*, int) { HWY_ABORT("cambi simd: no SIMD target"); }
void ModeFilter(std::uint16_t*, std::ptrdiff_t, int, int, std::uint16_t*) { HWY_ABORT("cambi simd: no SIMD target"); }
void CValues(const std::uint16_t*, const std::uint16_t*, std::ptrdiff_t, int, int, int, const Settings&, float*,
             std::uint16_t*) {
  HWY_ABORT("cambi simd: no SIMD target");
}
FloatStats FloatStatsImpl(const float*, int) { HWY_ABORT("cambi simd: no SIMD target"); }
#else

using D16 = hn::ScalableTag<std::uint16_t>;
using D32 = hn::ScalableTag<std::uint32_t>;
using DI32 = hn::ScalableTag<std::int32_t>;
using DF = hn::ScalableTag<float>;
using D16H = hn::Rebind<std::uint16_t, D32>;  // half a vector of uint16, one per uint32 lane
using D8H = hn::Rebind<std::uint8_t, D16>;    // half a vector of uint8, one per uint16 lane

// ---------------------------------------------------------------------------
// Picture to 10 bit.

void ConvertRow8(const std::uint8_t* in, std::uint16_t* out, int w, int bpc) {
  const D16 d;
  const D8H d8;
  const int n = int(hn::Lanes(d));
  const int shift = 10 - bpc;
  int j = 0;
  for (; j + n <= w; j += n) hn::StoreU(hn::ShiftLeftSame(hn::PromoteTo(d, hn::LoadU(d8, in + j)), shift), d, out + j);
  for (; j < w; ++j) out[j] = std::uint16_t(unsigned(in[j]) << shift);
}

void ConvertRow16(const std::uint16_t* in, std::uint16_t* out, int w, int bpc) {
  const D16 d;
  const int n = int(hn::Lanes(d));
  int j = 0;
  if (bpc == 9) {
    for (; j + n <= w; j += n) hn::StoreU(hn::ShiftLeft<1>(hn::LoadU(d, in + j)), d, out + j);
    for (; j < w; ++j) out[j] = std::uint16_t(unsigned(in[j]) << 1);
    return;
  }
  if (bpc == 10) {
    std::memcpy(out, in, std::size_t(w) * sizeof(std::uint16_t));
    return;
  }
  // (v + 2^(s-1)) >> s == (v >> s) + bit s-1 of v: no 16-bit overflow.
  const int s = bpc - 10;
  const unsigned round = 1u << (s - 1);
  const auto one = hn::Set(d, 1);
  for (; j + n <= w; j += n) {
    const auto v = hn::LoadU(d, in + j);
    hn::StoreU(hn::Add(hn::ShiftRightSame(v, s), hn::And(hn::ShiftRightSame(v, s - 1), one)), d, out + j);
  }
  for (; j < w; ++j) out[j] = std::uint16_t((unsigned(in[j]) + round) >> s);
}

std::uint16_t RowMax(const std::uint16_t* in, int w) {
  const D16 d;
  const int n = int(hn::Lanes(d));
  auto m = hn::Zero(d);
  int j = 0;
  for (; j + n <= w; j += n) m = hn::Max(m, hn::LoadU(d, in + j));
  std::uint16_t out = hn::GetLane(hn::MaxOfLanes(d, m));
  for (; j < w; ++j) out = std::max(out, in[j]);
  return out;
}

// ---------------------------------------------------------------------------
// Anti-dithering, decimation, mode filter.

// Row r of the anti-dithering, nx the next row (nullptr for the last row).
void AntiDitherRow(std::uint16_t* r, const std::uint16_t* nx, int w) {
  const D16 d;
  const int n = int(hn::Lanes(d));
  int j = 0;
  // r[j + n] (read before it is written) is the last sample a vector reads.
  if (nx) {
    for (; j + n < w; j += n) {
      const auto sum = hn::Add(hn::Add(hn::LoadU(d, r + j), hn::LoadU(d, r + j + 1)),
                               hn::Add(hn::LoadU(d, nx + j), hn::LoadU(d, nx + j + 1)));
      hn::StoreU(hn::ShiftRight<2>(sum), d, r + j);
    }
    for (; j < w - 1; ++j) r[j] = std::uint16_t((r[j] + r[j + 1] + nx[j] + nx[j + 1]) >> 2);
    r[w - 1] = std::uint16_t((r[w - 1] + nx[w - 1]) >> 1);
    return;
  }
  for (; j + n < w; j += n)
    hn::StoreU(hn::ShiftRight<1>(hn::Add(hn::LoadU(d, r + j), hn::LoadU(d, r + j + 1))), d, r + j);
  for (; j < w - 1; ++j) r[j] = std::uint16_t((r[j] + r[j + 1]) >> 1);
}

void AntiDither(std::uint16_t* data, int w, int h) {
  const std::ptrdiff_t s = w;
  for (int i = 0; i < h; ++i) AntiDitherRow(data + i * s, i + 1 < h ? data + (i + 1) * s : nullptr, w);
}

void Decimate(std::uint16_t* data, std::ptrdiff_t stride, int w, int h) {
  const D16 d;
  const int n = int(hn::Lanes(d));
  for (int i = 0; i < h; ++i) {
    std::uint16_t* dst = data + i * stride;
    const std::uint16_t* src = data + 2 * i * stride;
    int j = 0;
    // Reads src[2j .. 2j + 2n - 1], at most src[2(w - 1) - 1]; the stores
    // stay behind the reads when dst and src are the same row.
    for (; j + n < w; j += n) {
      const auto lo = hn::LoadU(d, src + 2 * j);
      const auto hi = hn::LoadU(d, src + 2 * j + n);
      hn::StoreU(hn::ConcatEven(d, hi, lo), d, dst + j);
    }
    for (; j < w; ++j) dst[j] = src[2 * j];
  }
}

template <class V>
HWY_INLINE V Mode3(V a, V b, V c) {
  const auto a_dup = hn::Or(hn::Eq(a, b), hn::Eq(a, c));
  const auto b_dup = hn::Eq(b, c);
  return hn::IfThenElse(a_dup, a, hn::IfThenElse(b_dup, b, hn::Min(hn::Min(a, b), c)));
}

inline std::uint16_t mode3_scalar(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  if (a == b || a == c) return a;
  if (b == c) return b;
  return std::min({a, b, c});
}

void ModeFilter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* rows) {
  const D16 d;
  const int n = int(hn::Lanes(d));
  int cur = 0;
  for (int i = 0; i < h; ++i) {
    std::uint16_t* b = rows + std::size_t(cur) * w;
    const std::uint16_t* r = img + i * stride;
    b[0] = r[0];
    int j = 1;
    for (; j + n < w; j += n)  // reads up to r[j + n] <= r[w - 1]
      hn::StoreU(Mode3(hn::LoadU(d, r + j - 1), hn::LoadU(d, r + j), hn::LoadU(d, r + j + 1)), d, b + j);
    for (; j < w - 1; ++j) b[j] = mode3_scalar(r[j - 1], r[j], r[j + 1]);
    b[w - 1] = r[w - 1];
    if (i > 1) {
      std::uint16_t* o = img + (i - 1) * stride;
      const std::uint16_t *r0 = rows, *r1 = rows + w, *r2 = rows + 2 * std::size_t(w);
      int k = 0;
      for (; k + n <= w; k += n)
        hn::StoreU(Mode3(hn::LoadU(d, r0 + k), hn::LoadU(d, r1 + k), hn::LoadU(d, r2 + k)), d, o + k);
      for (; k < w; ++k) o[k] = mode3_scalar(r0[k], r1[k], r2[k]);
    }
    cur = cur + 1 == 3 ? 0 : cur + 1;
  }
}

// ---------------------------------------------------------------------------
// Spatial mask: column sums of the zero-derivative flags over the 7 rows
// around the current one, then a 7-wide sum along the row.

constexpr int kMaskPad = 3;

// cs[kMaskPad + c] += sign * (pixel (r, c) equals its right and lower neighbours).
void AccumulateDeriv(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, int r, bool add,
                     std::uint16_t* cs) {
  const D16 d;
  const int n = int(hn::Lanes(d));
  const std::uint16_t* a = img + r * stride;
  const std::uint16_t* below = r == h - 1 ? nullptr : a + stride;
  std::uint16_t* col = cs + kMaskPad;
  int c = 0;
  for (; c + n < w; c += n) {  // a[c + n] <= a[w - 1]
    const auto v = hn::LoadU(d, a + c);
    auto eq = hn::Eq(v, hn::LoadU(d, a + c + 1));
    if (below) eq = hn::And(eq, hn::Eq(v, hn::LoadU(d, below + c)));
    const auto s = hn::LoadU(d, col + c);
    // VecFromMask is 0xFFFF where true: subtracting it adds 1 (mod 2^16).
    hn::StoreU(add ? hn::Sub(s, hn::VecFromMask(d, eq)) : hn::Add(s, hn::VecFromMask(d, eq)), d, col + c);
  }
  for (; c < w; ++c) {
    const bool hz = c == w - 1 || a[c] == a[c + 1];
    const bool vt = !below || a[c] == below[c];
    const std::uint16_t f = std::uint16_t(hz && vt);
    col[c] = std::uint16_t(add ? col[c] + f : col[c] - f);
  }
}

template <class V>
HWY_INLINE V Sum7(D16 d, const std::uint16_t* p) {
  auto s = hn::Add(hn::LoadU(d, p), hn::LoadU(d, p + 1));
  s = hn::Add(s, hn::Add(hn::LoadU(d, p + 2), hn::LoadU(d, p + 3)));
  s = hn::Add(s, hn::Add(hn::LoadU(d, p + 4), hn::LoadU(d, p + 5)));
  return hn::Add(s, hn::LoadU(d, p + 6));
}

void SpatialMask(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t threshold,
                 std::uint16_t* mask, std::uint16_t* cs, bool half) {
  const D16 d;
  const int n = int(hn::Lanes(d));
  constexpr int pad = kMaskPad;
  // cs[0, pad) and cs[pad + w, 2 pad + w) stay 0: the row sums see zero columns outside the picture.
  std::fill(cs, cs + w + 2 * pad, std::uint16_t(0));
  const auto thr = hn::Set(d, threshold);
  const auto one = hn::Set(d, 1);
  for (int r = 0; r < pad && r < h; ++r) AccumulateDeriv(img, stride, w, h, r, true, cs);
  for (int r = 0; r < h; ++r) {
    if (r + pad < h) AccumulateDeriv(img, stride, w, h, r + pad, true, cs);
    if (r - pad - 1 >= 0) AccumulateDeriv(img, stride, w, h, r - pad - 1, false, cs);
    auto sum7 = [&](int c) {
      unsigned s = 0;
      for (int k = 0; k <= 2 * pad; ++k) s += cs[c + k];
      return s;
    };
    if (half) {  // even rows and columns only, packed: row r / 2, column c / 2
      if (r & 1) continue;
      std::uint16_t* m = mask + (r >> 1) * stride;
      int c = 0;
      for (; c + 2 * n <= w; c += 2 * n) {  // reads cs[c .. c + 2n + 5] <= cs[w + 5]
        const auto even = hn::ConcatEven(d, Sum7<decltype(thr)>(d, cs + c + n), Sum7<decltype(thr)>(d, cs + c));
        hn::StoreU(hn::IfThenElseZero(hn::Gt(even, thr), one), d, m + (c >> 1));
      }
      for (; c < w; c += 2) m[c >> 1] = std::uint16_t(sum7(c) > threshold);
      continue;
    }
    std::uint16_t* m = mask + r * stride;
    int c = 0;
    for (; c + n <= w; c += n)  // reads cs[c .. c + n + 5] <= cs[w + 5]
      hn::StoreU(hn::IfThenElseZero(hn::Gt(Sum7<decltype(thr)>(d, cs + c), thr), one), d, m + c);
    for (; c < w; ++c) m[c] = std::uint16_t(sum7(c) > threshold);
  }
}

// ---------------------------------------------------------------------------
// Banding confidence.

struct CParams {
  const Settings* st;
  int w, pad, base, band, nd, offset, vlt;
  // Bit d of pass[cv]: the value cv + offset passes difference d + 1
  // (value <= tvi[d] and value + d + 1 > vlt).
  const std::uint32_t* pass;
};

// Histogram row of a pixel: its value - base when masked and in band, else 0xFFFF.
template <class V>
HWY_INLINE V HistCode(D16 d, V img, V mask, V base, V band) {
  const auto v = hn::Sub(img, base);  // wraps below base: then >= band (base + band < 2^16)
  const auto ok = hn::And(hn::Ne(mask, hn::Zero(d)), hn::Lt(v, band));
  return hn::IfThenElse(ok, v, hn::Set(d, 0xFFFF));
}

inline int hist_code_scalar(const CParams& p, std::uint16_t img, std::uint16_t mask) {
  if (!mask) return -1;
  const int v = int(img) - p.base;
  return unsigned(v) < unsigned(p.band) ? v : -1;
}

// A run of consecutive columns [c0, c1] whose pixels enter (or leave) the
// same histogram row: their windows overlap, so together they add to column
// x the number of c in [c0, c1] with |x - c| <= pad (a trapezoid), which is
// what their one-by-one window updates add.
struct Run {
  int row = -1;  // none
  int c0 = 0, c1 = 0;
};

HWY_INLINE void RunUpdate(const CParams& p, std::uint16_t* hist, const Run& r, bool add) {
  const D16 d;
  const hn::RebindToSigned<D16> di;
  const int n = int(hn::Lanes(d));
  const int lo = std::max(r.c0 - p.pad, 0), hi = std::min(r.c1 + p.pad, p.w - 1);  // columns touched
  std::uint16_t* row = hist + std::size_t(r.row) * p.w;
  const auto c0 = hn::Set(di, std::int16_t(r.c0)), c1 = hn::Set(di, std::int16_t(r.c1));
  const auto pad = hn::Set(di, std::int16_t(p.pad)), last = hn::Set(di, std::int16_t(hi));
  const auto one = hn::Set(di, std::int16_t(1));
  for (int x = lo; x <= hi; x += n) {
    const auto xv = hn::Iota(di, std::int16_t(x));
    // max(0, min(c1, x + pad) - max(c0, x - pad) + 1), and 0 past the last touched column
    auto cnt = hn::Sub(hn::Min(c1, hn::Add(xv, pad)), hn::Max(c0, hn::Sub(xv, pad)));
    cnt = hn::Max(hn::Add(cnt, one), hn::Zero(di));
    cnt = hn::IfThenZeroElse(hn::Gt(xv, last), cnt);
    const auto inc = hn::BitCast(d, cnt);
    const auto v = hn::LoadU(d, row + x);
    hn::StoreU(add ? hn::Add(v, inc) : hn::Sub(v, inc), d, row + x);  // may spill past the row: adds 0 there
  }
}

// Extends the open run by column c of histogram row `hr`, or flushes it and opens another.
HWY_INLINE void Extend(const CParams& p, std::uint16_t* hist, Run& r, int hr, int c, bool add) {
  if (r.row == hr && r.c1 == c - 1) {
    r.c1 = c;
    return;
  }
  if (r.row >= 0) RunUpdate(p, hist, r, add);
  r.row = hr;
  r.c0 = r.c1 = c;
}

template <class M>
HWY_INLINE std::uint64_t Bits(D16 d, M m) {
  std::uint8_t b[8] = {};
  hn::StoreMaskBits(d, m, b);
  std::uint64_t out;
  std::memcpy(&out, b, sizeof out);  // little-endian: lane i is bit i
  return out;
}

// The runs of one side (entering or leaving pixels) in a vector of columns
// [col, col + n): `in` has the lanes whose pixel changes that side's row
// `rows[lane]`, `cont` those that continue the run of the previous column.
HWY_INLINE void RunsOfChunk(const CParams& p, std::uint16_t* hist, Run& r, const std::uint16_t* rows, std::uint64_t in,
                            std::uint64_t cont, int col, int n, bool add) {
  if (r.row >= 0 && !(cont & 1)) {  // the open run ended at col - 1
    RunUpdate(p, hist, r, add);
    r.row = -1;
  }
  const std::uint64_t lanes = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  const std::uint64_t starts = in & ~cont;
  // Lanes below n - 1 whose next lane does not continue them; the last lane's run stays open.
  const std::uint64_t ends = in & ~(cont >> 1) & (lanes >> 1);
  for (std::uint64_t ev = starts | ends; ev; ev &= ev - 1) {
    const int lane = __builtin_ctzll(ev);
    const std::uint64_t bit = std::uint64_t{1} << lane;
    if (starts & bit) {
      r.row = rows[lane];
      r.c0 = col + lane;
    }
    if (ends & bit) {
      r.c1 = col + lane;
      RunUpdate(p, hist, r, add);
      r.row = -1;
    }
  }
  if (r.row >= 0) r.c1 = col + n - 1;
}

// One step of the sliding window: the pixels of row `in` (or none, -1) enter,
// those of row `out` (or none) leave.
void SlideRows(const CParams& p, const std::uint16_t* img, const std::uint16_t* mask, std::ptrdiff_t stride, int in,
               int out, std::uint16_t* hist) {
  const D16 d;
  const int n = int(hn::Lanes(d));
  const int w = p.w;
  const auto base = hn::Set(d, std::uint16_t(p.base));
  const auto band = hn::Set(d, std::uint16_t(p.band));
  const auto none = hn::Set(d, 0xFFFF);
  const std::uint16_t* ii = in >= 0 ? img + in * stride : nullptr;
  const std::uint16_t* im = in >= 0 ? mask + in * stride : nullptr;
  const std::uint16_t* oi = out >= 0 ? img + out * stride : nullptr;
  const std::uint16_t* om = out >= 0 ? mask + out * stride : nullptr;
  HWY_ALIGN std::uint16_t av[HWY_LANES(std::uint16_t)], sv[HWY_LANES(std::uint16_t)];
  Run add, sub;
  auto column = [&](int c) {
    const int a = ii ? hist_code_scalar(p, ii[c], im[c]) : -1;
    const int s = oi ? hist_code_scalar(p, oi[c], om[c]) : -1;
    if (a == s) return;  // same counter (or none): nothing changes
    if (s >= 0) Extend(p, hist, sub, s, c, false);
    if (a >= 0) Extend(p, hist, add, a, c, true);
  };
  if (w > 0) column(0);
  int col = 1;
  // Each vector also looks at the column before it (col - 1 >= 0) to see where runs continue.
  for (; col + n <= w; col += n) {
    const auto a = ii ? HistCode(d, hn::LoadU(d, ii + col), hn::LoadU(d, im + col), base, band) : none;
    const auto s = oi ? HistCode(d, hn::LoadU(d, oi + col), hn::LoadU(d, om + col), base, band) : none;
    const auto changed = hn::Ne(a, s);
    if (hn::AllFalse(d, changed)) {
      if (sub.row >= 0) RunUpdate(p, hist, sub, false);
      if (add.row >= 0) RunUpdate(p, hist, add, true);
      sub.row = add.row = -1;
      continue;
    }
    const auto ap = ii ? HistCode(d, hn::LoadU(d, ii + col - 1), hn::LoadU(d, im + col - 1), base, band) : none;
    const auto sp = oi ? HistCode(d, hn::LoadU(d, oi + col - 1), hn::LoadU(d, om + col - 1), base, band) : none;
    const auto changed_p = hn::Ne(ap, sp);
    const auto in_a = hn::AndNot(hn::Eq(a, none), changed);
    const auto in_s = hn::AndNot(hn::Eq(s, none), changed);
    const auto cont_a = hn::And(in_a, hn::And(changed_p, hn::Eq(a, ap)));  // a == ap != none
    const auto cont_s = hn::And(in_s, hn::And(changed_p, hn::Eq(s, sp)));
    hn::Store(a, d, av);
    hn::Store(s, d, sv);
    RunsOfChunk(p, hist, sub, sv, Bits(d, in_s), Bits(d, cont_s), col, n, false);
    RunsOfChunk(p, hist, add, av, Bits(d, in_a), Bits(d, cont_a), col, n, true);
  }
  for (; col < w; ++col) column(col);
  if (sub.row >= 0) RunUpdate(p, hist, sub, false);
  if (add.row >= 0) RunUpdate(p, hist, add, true);
}

// The reference's statement for one column.
inline float c_value_scalar(const CParams& p, const std::uint16_t* hist, std::uint16_t img, std::uint16_t mask,
                            int col) {
  if (!mask) return 0.0f;
  const Settings& st = *p.st;
  const std::uint16_t value = std::uint16_t(img + p.nd);
  const int cv = int(value) - p.offset;
  if (unsigned(cv) >= unsigned(p.band)) return 0.0f;
  const std::size_t w = std::size_t(p.w);
  const std::uint16_t p0 = hist[std::size_t(cv) * w + col];
  float c = 0.0f;
  for (int d = 0; d < p.nd; ++d) {
    if (value <= st.tvi[d] && int(value) + (d + 1) > p.vlt) {
      const int i1 = cv + d + 1, i2 = cv - d - 1;
      const std::uint16_t p1 = hist[std::size_t(i1) * w + col];
      const std::uint16_t p2 = i2 >= 0 ? hist[std::size_t(i2) * w + col] : std::uint16_t(0);
      const float val = p1 > p2 ? float(st.diff_weights[d] * p0 * p1) * vmafx_cambi_reciprocal[p1 + p0]
                                : float(st.diff_weights[d] * p0 * p2) * vmafx_cambi_reciprocal[p2 + p0];
      if (val > c) c = val;
    }
  }
  return c;
}

// max over d of weight * p0 * pm * reciprocal[pm + p0], lane by lane (pm = max(p1, p2)).
template <class VU>
HWY_INLINE hn::Vec<DF> Confidence(VU p0, VU p1, VU p2, int weight) {
  const D32 du;
  const DI32 di;
  const DF df;
  const auto pm = hn::Max(p1, p2);
  // weight * p0 * pm < 2^31 (counts of one window); exact, then rounded to float.
  const auto num = hn::ConvertTo(df, hn::BitCast(di, hn::Mul(hn::Mul(hn::Set(du, std::uint32_t(weight)), p0), pm)));
  const auto rc = hn::GatherIndex(df, vmafx_cambi_reciprocal, hn::BitCast(di, hn::Add(pm, p0)));
  return hn::Mul(num, rc);
}

void CValuesRow(const CParams& p, const std::uint16_t* hist, const std::uint16_t* ir, const std::uint16_t* mr,
                float* o) {
  const std::uint32_t* pass = p.pass;
  const D32 du;
  const DI32 di;
  const DF df;
  const D16H dh;
  const Settings& st = *p.st;
  const int n = int(hn::Lanes(du));
  const int w = p.w;
  const auto band = hn::Set(di, p.band);
  const auto offset = hn::Set(di, p.offset);
  const auto nd = hn::Set(du, std::uint32_t(p.nd));
  const auto lo16 = hn::Set(du, 0xFFFFu);
  const auto vlt = hn::Set(di, p.vlt);
  const auto wv = hn::Set(du, std::uint32_t(w));
  const std::int32_t* hist32 = reinterpret_cast<const std::int32_t*>(hist);
  // Counter at histogram row `rowv` (per lane), columns col + lane: a 32-bit
  // gather at the counter's byte offset, low 16 bits kept (hist has slack).
  auto gather = [&](hn::Vec<D32> rowv, hn::Vec<D32> colv) {
    const auto idx = hn::Add(hn::Mul(rowv, wv), colv);
    return hn::And(hn::BitCast(du, hn::GatherOffset(di, hist32, hn::BitCast(di, hn::Add(idx, idx)))), lo16);
  };
  int col = 0;
  for (; col + n <= w; col += n) {
    const auto mk = hn::PromoteTo(du, hn::LoadU(dh, mr + col));
    const auto value = hn::And(hn::Add(hn::PromoteTo(du, hn::LoadU(dh, ir + col)), nd), lo16);  // uint16_t(img + nd)
    const auto cv = hn::Sub(hn::BitCast(di, value), offset);
    // masked, and 0 <= cv < band (as unsigned)
    const auto active =
        hn::And(hn::RebindMask(di, hn::Ne(mk, hn::Zero(du))), hn::And(hn::Gt(cv, hn::Set(di, -1)), hn::Lt(cv, band)));
    if (hn::AllFalse(di, active)) {
      hn::StoreU(hn::Zero(df), df, o + col);
      continue;
    }
    auto c = hn::Zero(df);
    HWY_ALIGN std::int32_t cvl[HWY_LANES(std::int32_t)];
    hn::Store(cv, di, cvl);
    {
      // One histogram row for all counted lanes (a flat patch): plain loads of it.
      const int u = cvl[hn::FindFirstTrue(di, active)];
      if (hn::AllFalse(di, hn::AndNot(hn::Eq(cv, hn::Set(di, u)), active))) {
        const std::uint16_t* h0 = hist + std::size_t(u) * w + col;
        const auto p0 = hn::PromoteTo(du, hn::LoadU(dh, h0));
        for (std::uint32_t bits = pass[u]; bits; bits &= bits - 1) {
          const int d = __builtin_ctz(bits);
          const std::size_t off = std::size_t(d + 1) * w;
          const auto p1 = hn::PromoteTo(du, hn::LoadU(dh, h0 + off));
          const auto p2 = u - d - 1 >= 0 ? hn::PromoteTo(du, hn::LoadU(dh, h0 - off)) : hn::Zero(du);
          if (hn::AllFalse(du, hn::Ne(hn::Or(p1, p2), hn::Zero(du)))) continue;  // all products 0
          c = hn::Max(c, Confidence(p0, p1, p2, st.diff_weights[d]));
        }
        hn::StoreU(hn::IfThenElseZero(hn::RebindMask(df, active), c), df, o + col);
        continue;
      }
    }
    // A few histogram rows (ramps, edges of patches): loads of those rows
    // blended by lane; else gathers.
    constexpr int kRows = 4;
    int us[kRows];
    hn::Mask<D32> lanes[kRows];
    int k = 0;
    auto rem = active;
    for (; k < kRows; ++k) {
      const intptr_t l = hn::FindFirstTrue(di, rem);
      if (l < 0) break;
      us[k] = cvl[l];
      const auto these = hn::And(rem, hn::Eq(cv, hn::Set(di, us[k])));
      lanes[k] = hn::RebindMask(du, these);
      rem = hn::AndNot(these, rem);
    }
    if (hn::AllFalse(di, rem)) {
      auto row = [&](int j, int delta) {
        return hn::PromoteTo(du, hn::LoadU(dh, hist + std::size_t(us[j] + delta) * w + col));
      };
      auto p0 = row(0, 0);
      for (int j = 1; j < k; ++j) p0 = hn::IfThenElse(lanes[j], row(j, 0), p0);
      for (int d = 0; d < p.nd; ++d) {
        // Lanes of rows whose value passes (value <= tvi[d] and value + d + 1 > vlt) get
        // their counts at +-(d + 1); the others keep 0 and so add 0 (a product with 0 counts).
        auto p1 = hn::Zero(du), p2 = hn::Zero(du);
        bool any = false;
        for (int j = 0; j < k; ++j) {
          if (!((pass[us[j]] >> d) & 1)) continue;
          any = true;
          p1 = hn::IfThenElse(lanes[j], row(j, d + 1), p1);
          if (us[j] - d - 1 >= 0) p2 = hn::IfThenElse(lanes[j], row(j, -(d + 1)), p2);
        }
        if (!any || hn::AllFalse(du, hn::Ne(hn::Or(p1, p2), hn::Zero(du)))) continue;  // all products 0
        c = hn::Max(c, Confidence(p0, p1, p2, st.diff_weights[d]));
      }
    } else {
      const auto colv = hn::Iota(du, std::uint32_t(col));
      const auto cvs = hn::IfThenElseZero(active, cv);  // row 0 for the lanes not counted
      const auto p0 = gather(hn::BitCast(du, cvs), colv);
      for (int d = 0; d < p.nd; ++d) {
        // value <= tvi[d] and value + d + 1 > vlt
        const auto vi = hn::BitCast(di, value);
        const auto pred = hn::And(
            active, hn::And(hn::Not(hn::Gt(vi, hn::Set(di, st.tvi[d]))), hn::Gt(hn::Add(vi, hn::Set(di, d + 1)), vlt)));
        if (hn::AllFalse(di, pred)) continue;
        const auto i1 = hn::IfThenElseZero(pred, hn::Add(cvs, hn::Set(di, d + 1)));
        const auto i2raw = hn::Sub(cvs, hn::Set(di, d + 1));
        const auto has2 = hn::And(pred, hn::Gt(i2raw, hn::Set(di, -1)));
        const auto i2 = hn::IfThenElseZero(has2, i2raw);
        const auto p1 = hn::IfThenElseZero(hn::RebindMask(du, pred), gather(hn::BitCast(du, i1), colv));
        const auto p2 = hn::IfThenElseZero(hn::RebindMask(du, has2), gather(hn::BitCast(du, i2), colv));
        if (hn::AllFalse(du, hn::Ne(hn::Or(p1, p2), hn::Zero(du)))) continue;  // all products 0
        c = hn::Max(c, Confidence(p0, p1, p2, st.diff_weights[d]));
      }
    }
    hn::StoreU(hn::IfThenElseZero(hn::RebindMask(df, active), c), df, o + col);
  }
  for (; col < w; ++col) o[col] = c_value_scalar(p, hist, ir[col], mr[col], col);
}

void CValues(const std::uint16_t* img, const std::uint16_t* mask, std::ptrdiff_t stride, int w, int h, int window,
             const Settings& st, float* out, std::uint16_t* hist) {
  if (st.band_size <= 0) {  // no code can be both visible and in band: all 0
    std::fill(out, out + std::size_t(w) * h, 0.0f);
    return;
  }
  const int pad = window >> 1;
  CParams p{&st, w, pad, st.band_base, st.band_size, st.num_diffs, st.band_base + st.num_diffs, st.vlt_luma, nullptr};
  // band_size <= 1056: tvi[d] <= 1023 + num_diffs.
  HWY_ASSERT(st.band_size <= 1088);
  std::uint32_t pass[1088] = {};
  for (int cv = 0; cv < st.band_size; ++cv) {
    const int value = cv + p.offset;
    for (int d = 0; d < st.num_diffs; ++d)
      if (value <= st.tvi[d] && value + (d + 1) > p.vlt) pass[std::size_t(cv)] |= 1u << d;
  }
  p.pass = pass;

  // Rows [i - pad, i + pad] (clipped) are in the histograms when row i is scored.
  for (int r = 0; r < pad && r < h; ++r) SlideRows(p, img, mask, stride, r, -1, hist);
  for (int i = 0; i < h; ++i) {
    const int in = i + pad < h ? i + pad : -1, out_row = i - pad - 1;
    if (in >= 0 || out_row >= 0) SlideRows(p, img, mask, stride, in, out_row, hist);
    CValuesRow(p, hist, img + i * stride, mask + i * stride, out + std::size_t(i) * w);
  }
  // Take the rows still counted out again: every counter back to 0.
  for (int r = std::max(0, h - pad - 1); r < h; ++r) SlideRows(p, img, mask, stride, -1, r, hist);
}

// ---------------------------------------------------------------------------
// Top-k pooling helper.

FloatStats FloatStatsImpl(const float* v, int n) {
  const DF df;
  const D32 du;
  const hn::Repartition<double, DF> dd;
  const int lanes = int(hn::Lanes(df));
  auto cnt = hn::Zero(du), mn = hn::Set(du, 0xFFFFFFFFu), mx = hn::Zero(du);
  auto s0 = hn::Zero(dd), s1 = hn::Zero(dd);
  const auto all = hn::Set(du, 0xFFFFFFFFu);
  int i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto f = hn::LoadU(df, v + i);
    const auto b = hn::BitCast(du, f);
    const auto zero = hn::Eq(b, hn::Zero(du));
    cnt = hn::Add(cnt, hn::IfThenZeroElse(zero, hn::Set(du, 1u)));
    mn = hn::Min(mn, hn::IfThenElse(zero, all, b));
    mx = hn::Max(mx, b);
    s0 = hn::Add(s0, hn::PromoteTo(dd, hn::LowerHalf(f)));
    s1 = hn::Add(s1, hn::PromoteTo(dd, hn::UpperHalf(hn::Half<DF>(), f)));
  }
  FloatStats st;
  st.nonzero = hn::GetLane(hn::SumOfLanes(du, cnt));
  st.min_nonzero_bits = hn::GetLane(hn::MinOfLanes(du, mn));
  st.max_bits = hn::GetLane(hn::MaxOfLanes(du, mx));
  st.sum = hn::GetLane(hn::SumOfLanes(dd, hn::Add(s0, s1)));
  for (; i < n; ++i) {
    std::uint32_t b;
    std::memcpy(&b, v + i, sizeof b);
    if (b != 0) {
      ++st.nonzero;
      st.min_nonzero_bits = std::min(st.min_nonzero_bits, b);
    }
    st.max_bits = std::max(st.max_bits, b);
    st.sum += double(v[i]);
  }
  return st;
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace HWY_NAMESPACE
}  // namespace vmafx::cambi::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmafx::cambi::simd {

HWY_EXPORT(ConvertRow8);
HWY_EXPORT(ConvertRow16);
HWY_EXPORT(RowMax);
HWY_EXPORT(AntiDither);
HWY_EXPORT(AntiDitherRow);
HWY_EXPORT(Decimate);
HWY_EXPORT(SpatialMask);
HWY_EXPORT(ModeFilter);
HWY_EXPORT(CValues);
HWY_EXPORT(FloatStatsImpl);

void convert_row(const std::uint8_t* in, std::uint16_t* out, int w, int bpc) {
  HWY_DYNAMIC_DISPATCH(ConvertRow8)(in, out, w, bpc);
}
void convert_row(const std::uint16_t* in, std::uint16_t* out, int w, int bpc) {
  HWY_DYNAMIC_DISPATCH(ConvertRow16)(in, out, w, bpc);
}
std::uint16_t row_max(const std::uint16_t* in, int w) { return HWY_DYNAMIC_DISPATCH(RowMax)(in, w); }
void anti_dither(std::uint16_t* d, int w, int h) { HWY_DYNAMIC_DISPATCH(AntiDither)(d, w, h); }
void anti_dither_row(std::uint16_t* r, const std::uint16_t* next, int w) {
  HWY_DYNAMIC_DISPATCH(AntiDitherRow)(r, next, w);
}
void decimate(std::uint16_t* d, std::ptrdiff_t stride, int w, int h) {
  HWY_DYNAMIC_DISPATCH(Decimate)(d, stride, w, h);
}
void spatial_mask(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t threshold,
                  std::uint16_t* mask, std::uint16_t* colsum, bool half) {
  HWY_DYNAMIC_DISPATCH(SpatialMask)(img, stride, w, h, threshold, mask, colsum, half);
}
void mode_filter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* scratch) {
  HWY_DYNAMIC_DISPATCH(ModeFilter)(img, stride, w, h, scratch);
}
void c_values(const std::uint16_t* img, const std::uint16_t* mask, std::ptrdiff_t stride, int w, int h, int window,
              const Settings& st, float* out, std::uint16_t* hist) {
  HWY_DYNAMIC_DISPATCH(CValues)(img, mask, stride, w, h, window, st, out, hist);
}

FloatStats float_stats(const float* v, int n) { return HWY_DYNAMIC_DISPATCH(FloatStatsImpl)(v, n); }

}  // namespace vmafx::cambi::simd
#endif  // HWY_ONCE

#else  // !VMAFX_HAVE_HWY: never called (enabled() is false).

#include <cstdlib>

namespace vmafx::cambi::simd {
void convert_row(const std::uint8_t*, std::uint16_t*, int, int) { std::abort(); }
void convert_row(const std::uint16_t*, std::uint16_t*, int, int) { std::abort(); }
std::uint16_t row_max(const std::uint16_t*, int) { std::abort(); }
void anti_dither(std::uint16_t*, int, int) { std::abort(); }
void anti_dither_row(std::uint16_t*, const std::uint16_t*, int) { std::abort(); }
void decimate(std::uint16_t*, std::ptrdiff_t, int, int) { std::abort(); }
void spatial_mask(const std::uint16_t*, std::ptrdiff_t, int, int, std::uint16_t, std::uint16_t*, std::uint16_t*, bool) {
  std::abort();
}
void mode_filter(std::uint16_t*, std::ptrdiff_t, int, int, std::uint16_t*) { std::abort(); }
void c_values(const std::uint16_t*, const std::uint16_t*, std::ptrdiff_t, int, int, int, const Settings&, float*,
              std::uint16_t*) {
  std::abort();
}
FloatStats float_stats(const float*, int) { std::abort(); }
}  // namespace vmafx::cambi::simd

#endif  // VMAFX_HAVE_HWY
