// SPDX-License-Identifier: BSD-3-Clause
// SIMD rows of integer motion; see motion_simd.hpp for the contract and
// feature/motion.cpp (scalar_rows) for the scalar reference. Compiled once per
// Highway target (foreach_target) and chosen at run time.
//
// Steps per picture row: the sample differences of each row once (int16 for
// 8-bit samples, int32 for 16-bit ones), the vertical pass in int32 lanes
// (one column each), and the horizontal pass, |.| and the row sum: in int16
// pairs (HorizontalRowSum16) when every vertical value of the row fits int16,
// as on real content; else the row's vertical pass again, kept in int32
// (HorizontalRowSum), or, outside [-65536, 65535], in a scalar int64 loop.
//
// Value bounds (taps 3571, 16004, 26386, 16004, 3571, summing to 65536; the
// filter is symmetric, so t0*d0 + t4*d4 = t0*(d0 + d4) exactly):
// - a sample difference d has |d| <= 2^bpc - 1 <= 65535;
// - the vertical sum acc = t0*(d0+d4) + t1*(d1+d3) + t2*d2 has
//   |acc| <= 65536 * (2^bpc - 1), and each of its three products fits int32
//   (16004 * 131070 = 2097644280 < 2^31 is the largest);
// - the vertical result y = floor((acc + 2^(bpc-1)) / 2^bpc) has |y| <= 65535
//   for every bpc <= 16, so the horizontal pass's products fit int32 the same
//   way.
// The whole sum fits int32 in the vertical pass for 8-bit samples
// (65536 * 255 + 128), but not for 16-bit ones (any uint16 value is taken,
// as the scalar code does, whatever bpc says), nor in the horizontal pass (up
// to about 2^32). There it is formed exactly from the three int32 products by
// FloorSum3 below.
//
// Samples above 2^bpc - 1 (a malformed 9..15-bit picture) can make |y|
// larger (up to 65536 * 65535 / 2^9). The scalar code handles that in int64;
// here each row's vertical values are checked (min and max) and a row
// outside [-65536, 65535] takes a scalar int64 horizontal pass (RowSumWide).
#include "feature/motion_simd.hpp"

#if VMAFX_HAVE_HWY

#include <algorithm>
#include <cstddef>
#include <vector>

#include "exact/motion_tables.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "feature/motion_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "core/simd_madd-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace vmafx::motion::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using vmafx::simd_madd::HWY_NAMESPACE::MulAccPairs;

#if HWY_TARGET == HWY_SCALAR
std::uint64_t Sad(const std::uint8_t*, std::ptrdiff_t, const std::uint8_t*, std::ptrdiff_t, int, int, int) {
  HWY_ABORT("motion simd: no SIMD target");
}
#else

using D = hn::ScalableTag<std::int32_t>;
using V = hn::Vec<D>;
constexpr std::size_t kMaxN = HWY_LANES(std::int32_t);
constexpr int kRadius = VMAFX_MOTION_RADIUS;
static_assert(VMAFX_MOTION_TAPS == 5 && kRadius == 2);

// floor((a + b + c + round) / 2^s) for int32 a, b, c whose exact sum may
// not fit int32 (0 <= round < 2^s, s <= 16). With x = (x >> s) * 2^s +
// (x & (2^s - 1)) for each term (arithmetic shift, two's complement), the sum
// is H * 2^s + L with H the sum of the high parts and 0 <= L < 4 * 2^s the sum
// of the low parts and the rounding; the floor is then H + (L >> s). Every
// intermediate is far inside int32.
HWY_INLINE V FloorSum3(V a, V b, V c, V round, V mask, int s) {
  const V hi = hn::ShiftRightSame(a, s) + hn::ShiftRightSame(b, s) + hn::ShiftRightSame(c, s);
  const V lo = hn::And(a, mask) + hn::And(b, mask) + hn::And(c, mask) + round;
  return hi + hn::ShiftRightSame(lo, s);
}

struct Taps {
  V t0, t1, t2;
};

// One row of sample differences: out[j] = p[j] - c[j] for j < w, in DT
// (int16 for 8-bit samples, int32 for 16-bit ones: exact either way).
template <class T, class DT>
HWY_INLINE void DiffRow(const T* p, const T* c, std::size_t w, DT* out) {
  const hn::ScalableTag<DT> dd;
  const hn::Rebind<T, decltype(dd)> dt;
  const std::size_t n = hn::Lanes(dd);
  std::size_t j = 0;
  for (; j + n <= w; j += n)
    hn::StoreU(hn::Sub(hn::PromoteTo(dd, hn::LoadU(dt, p + j)), hn::PromoteTo(dd, hn::LoadU(dt, c + j))), dd, out + j);
  for (; j < w; ++j) out[j] = DT(DT(p[j]) - DT(c[j]));
}

HWY_INLINE V LoadDiff(const std::int16_t* p) { return hn::PromoteTo(D(), hn::LoadU(hn::Rebind<std::int16_t, D>(), p)); }
HWY_INLINE V LoadDiff(const std::int32_t* p) { return hn::LoadU(D(), p); }

// Vertical pass for columns j .. j+N-1 of the difference rows r[k] (k < 5).
// kSplit: the sum may not fit int32 (16-bit samples).
template <bool kSplit, class DT>
HWY_INLINE V VerticalCol(const DT* const* r, std::size_t j, const Taps& t, V round, V mask, int shift) {
  const V a = (LoadDiff(r[0] + j) + LoadDiff(r[4] + j)) * t.t0;
  const V b = (LoadDiff(r[1] + j) + LoadDiff(r[3] + j)) * t.t1;
  const V m = LoadDiff(r[2] + j) * t.t2;
  if constexpr (kSplit) return FloorSum3(a, b, m, round, mask, shift);
  return hn::ShiftRightSame(a + b + m + round, shift);
}

// The lane-wise min and max of a row's vertical values.
struct Seen {
  V lo, hi;
  Seen() : lo(hn::Zero(D())), hi(hn::Zero(D())) {}
  HWY_INLINE void add(V v) {
    lo = hn::Min(lo, v);
    hi = hn::Max(hi, v);
  }
  // All values zero (the row filters to zero).
  HWY_INLINE bool zero() const {
    const D d;
    return hn::AllTrue(d, hn::And(hn::Eq(lo, hn::Zero(d)), hn::Eq(hi, hn::Zero(d))));
  }
  // All values in [a, b].
  HWY_INLINE bool within(std::int32_t a, std::int32_t b) const {
    const D d;
    return hn::AllFalse(d, hn::Or(hn::Lt(lo, hn::Set(d, a)), hn::Gt(hi, hn::Set(d, b))));
  }
};

// One row's vertical pass for columns [0, w), each vector of values handed
// to out(j, v) (a last partial vector also covers up to N - 1 columns past
// w, from the difference rows' readable values there); `seen` gets the
// values of columns [0, w).
template <bool kSplit, class DT, class Out>
HWY_INLINE void VerticalRow(const DT* const* r, std::size_t w, const Taps& t, V round, V mask, int shift, Seen& seen,
                            Out out) {
  const D d;
  const std::size_t n = hn::Lanes(d);
  std::size_t j = 0;
  for (; j + n <= w; j += n) {
    const V v = VerticalCol<kSplit>(r, j, t, round, mask, shift);
    out(j, v);
    seen.add(v);
  }
  if (j < w) {
    const V v = VerticalCol<kSplit>(r, j, t, round, mask, shift);
    out(j, v);
    seen.add(hn::IfThenElseZero(hn::FirstN(d, w - j), v));
  }
}

// Horizontal pass, |.| and the row's uint32 sum over columns [0, w) of int16
// values y[-2, w + 2) (mirrored ends filled in); y has 2 N16 + 2 readable
// values beyond (N16: int16 lanes). Needs every y in [-32768, 32767].
//
// Pairs of neighbouring int16 values times pairs of taps, summed into int32
// lanes (x86's PMADDWD): lane m of the three products of y[j - 2 + 2m ..],
// y[j + 2m ..] and y[j + 2 + 2m ..] with the tap pairs (t0, t1), (t2, t3),
// (t4, 0) is column j + 2m's 5-tap sum; the same from y[j - 1 + 2m ..] gives
// column j + 2m + 1. Every partial sum is at most 65536 * 32768 = 2^31 in
// magnitude with the taps positive, and reaches +2^31 only for y = +32768,
// which int16 cannot hold, so the int32 sums are exact, and so is
// (sum + 2^15) >> 16. The row sum does not depend on the column order.
HWY_INLINE std::uint32_t HorizontalRowSum16(const std::int16_t* y, std::size_t w) {
  const D d;
  const hn::RebindToUnsigned<D> du;
  const hn::Repartition<std::int16_t, D> d16;
  const std::size_t n16 = hn::Lanes(d16), n = hn::Lanes(d);
  const auto pair = [&](int k) {
    const std::uint32_t lo = vmafx_motion_taps[k], hi = k + 1 < 5 ? vmafx_motion_taps[k + 1] : 0u;
    return hn::BitCast(d16, hn::Set(du, lo | (hi << 16)));
  };
  const auto c01 = pair(0), c23 = pair(2), c40 = pair(4);
  const V round = hn::Set(d, VMAFX_MOTION_X_ROUND);
  // |5-tap sum| of the columns j0 + 2m (from = y + j0 - 2) or j0 + 2m + 1
  // (from = y + j0 - 1).
  const auto half = [&](const std::int16_t* from) {
    V s1 = hn::Zero(d);
    V s0 = MulAccPairs(d, hn::LoadU(d16, from), c01, round, s1);
    s0 = MulAccPairs(d, hn::LoadU(d16, from + 2), c23, s0, s1);
    s0 = MulAccPairs(d, hn::LoadU(d16, from + 4), c40, s0, s1);
    return hn::Abs(hn::ShiftRight<VMAFX_MOTION_X_SHIFT>(hn::RearrangeToOddPlusEven(s0, s1)));
  };
  auto sum = hn::Zero(du);
  std::size_t j = 0;
  for (; j + n16 <= w; j += n16) {
    sum = hn::Add(sum, hn::BitCast(du, half(y + j - 2)));
    sum = hn::Add(sum, hn::BitCast(du, half(y + j - 1)));
  }
  if (j < w) {
    const std::size_t rem = w - j;  // columns j + 2m < w, then j + 2m + 1 < w
    sum = hn::Add(sum, hn::BitCast(du, hn::IfThenElseZero(hn::FirstN(d, (rem + 1) / 2), half(y + j - 2))));
    sum = hn::Add(sum, hn::BitCast(du, hn::IfThenElseZero(hn::FirstN(d, rem / 2), half(y + j - 1))));
  }
  (void)n;
  return hn::GetLane(hn::SumOfLanes(du, sum));
}

// Horizontal pass, |.| and the row's uint32 sum over columns [0, w) of int32
// values y[-2, w + 2) (mirrored ends filled in); y has N - 1 readable values beyond.
// Needs every y in [-65536, 65535].
HWY_INLINE std::uint32_t HorizontalRowSum(const std::int32_t* y, std::size_t w, const Taps& t) {
  const D d;
  const hn::RebindToUnsigned<D> du;
  const std::size_t n = hn::Lanes(d);
  const V round = hn::Set(d, VMAFX_MOTION_X_ROUND);
  const V mask = hn::Set(d, (1 << VMAFX_MOTION_X_SHIFT) - 1);
  const auto col = [&](std::size_t j) {
    const std::int32_t* r = y + j - kRadius;
    const V a = (hn::LoadU(d, r) + hn::LoadU(d, r + 4)) * t.t0;
    const V b = (hn::LoadU(d, r + 1) + hn::LoadU(d, r + 3)) * t.t1;
    const V m = hn::LoadU(d, r + 2) * t.t2;
    return hn::Abs(FloorSum3(a, b, m, round, mask, VMAFX_MOTION_X_SHIFT));
  };
  // Each lane adds its columns' |values| modulo 2^32; the lanes' sum modulo
  // 2^32 is then the scalar uint32 row sum.
  auto sum = hn::Zero(du);
  std::size_t j = 0;
  for (; j + n <= w; j += n) sum = hn::Add(sum, hn::BitCast(du, col(j)));
  if (j < w) sum = hn::Add(sum, hn::BitCast(du, hn::IfThenElseZero(hn::FirstN(d, w - j), col(j))));
  return hn::GetLane(hn::SumOfLanes(du, sum));
}

// HorizontalRowSum for any int32 values, one column at a time in int64.
std::uint32_t RowSumWide(const std::int32_t* y, std::size_t w) {
  std::uint32_t sum = 0;
  for (std::size_t j = 0; j < w; ++j) {
    std::int64_t acc = 0;
    for (int k = 0; k < 5; ++k) acc += std::int64_t(vmafx_motion_taps[k]) * y[std::ptrdiff_t(j) - kRadius + k];
    const std::int32_t v = std::int32_t((acc + VMAFX_MOTION_X_ROUND) >> VMAFX_MOTION_X_SHIFT);
    sum += std::uint32_t(v < 0 ? -v : v);
  }
  return sum;
}

inline int Reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

template <bool kSplit, class T, class DT>
std::uint64_t SadT(const std::uint8_t* prev, std::ptrdiff_t ps, const std::uint8_t* cur, std::ptrdiff_t cs, int width,
                   int height, int bpc) {
  const D d;
  const hn::Rebind<std::int16_t, D> d16h;  // int16 lanes, as many as D has
  const std::size_t w = std::size_t(width);
  const Taps t{hn::Set(d, vmafx_motion_taps[0]), hn::Set(d, vmafx_motion_taps[1]), hn::Set(d, vmafx_motion_taps[2])};
  const V round = hn::Set(d, std::int32_t(1) << (bpc - 1));
  const V mask = hn::Set(d, (std::int32_t(1) << bpc) - 1);

  // The vertical row, as int16 (saturated; used when every value fits) and,
  // for rows where some do not, as int32; each with kRadius mirrored values
  // before and after it and room for the reads past the end (masked off).
  thread_local std::vector<std::int16_t> ybuf16;
  thread_local std::vector<std::int32_t> ybuf32;
  const std::size_t need = w + 2 * kRadius + 2 * kMaxN;
  if (ybuf16.size() < need + 2 * kMaxN) ybuf16.resize(need + 2 * kMaxN);
  if (ybuf32.size() < need) ybuf32.resize(need);
  std::int16_t* y16 = ybuf16.data() + kRadius;
  std::int32_t* y = ybuf32.data() + kRadius;

  // The difference rows of the 5-row window, picture row q in slot q % 5 (the
  // rows of a window, mirrored or not, are at most 5 consecutive ones), each
  // computed once, with a vector of readable values past w.
  const std::size_t rs = w + kMaxN;
  thread_local std::vector<DT> dbuf;
  if (dbuf.size() < 5 * rs) dbuf.resize(5 * rs);
  int held[5] = {-1, -1, -1, -1, -1};

  const auto mirror_ends = [w](auto* row) {
    row[-1] = row[1];
    row[-2] = row[2];
    row[w] = row[w - 2];
    row[w + 1] = row[w - 3];
  };

  std::uint64_t total = 0;
  for (int i = 0; i < height; ++i) {
    const DT* r[5];
    for (int k = 0; k < 5; ++k) {
      const int q = Reflect(i - kRadius + k, height);
      DT* row = dbuf.data() + std::size_t(q % 5) * rs;
      if (held[q % 5] != q) {
        DiffRow(reinterpret_cast<const T*>(prev + q * ps), reinterpret_cast<const T*>(cur + q * cs), w, row);
        held[q % 5] = q;
      }
      r[k] = row;
    }
    Seen seen;
    VerticalRow<kSplit>(r, w, t, round, mask, bpc, seen,
                        [&](std::size_t j, V v) { hn::StoreU(hn::DemoteTo(d16h, v), d16h, y16 + j); });
    // An all-zero row filters to zero: skipped as the scalar code does.
    if (seen.zero()) continue;
    if (seen.within(-32768, 32767)) {
      mirror_ends(y16);
      total += HorizontalRowSum16(y16, w);
      continue;
    }
    // Larger values (large differences): the row again in int32.
    Seen again;
    VerticalRow<kSplit>(r, w, t, round, mask, bpc, again, [&](std::size_t j, V v) { hn::StoreU(v, d, y + j); });
    mirror_ends(y);
    total += again.within(-65536, 65535) ? HorizontalRowSum(y, w, t) : RowSumWide(y, w);
  }
  return total;
}

std::uint64_t Sad(const std::uint8_t* prev, std::ptrdiff_t ps, const std::uint8_t* cur, std::ptrdiff_t cs, int w, int h,
                  int bpc) {
  // 8-bit: |y| <= 65280. 16-bit: |y| <= 65535 for any sample. 9..15 bit:
  // samples may exceed 2^bpc - 1, so the rows are checked.
  if (bpc == 8) return SadT<false, std::uint8_t, std::int16_t>(prev, ps, cur, cs, w, h, bpc);
  return SadT<true, std::uint16_t, std::int32_t>(prev, ps, cur, cs, w, h, bpc);
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace HWY_NAMESPACE
}  // namespace vmafx::motion::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmafx::motion {
namespace simd {

HWY_EXPORT(Sad);

}  // namespace simd

namespace {

std::uint64_t sad_simd(const PlaneView& prev, const PlaneView& cur, int bpc) {
  return HWY_DYNAMIC_DISPATCH(simd::Sad)(prev.data, prev.stride, cur.data, cur.stride, cur.width, cur.height, bpc);
}

}  // namespace

void init_simd_rows(Rows& r) { r.sad = sad_simd; }

}  // namespace vmafx::motion
#endif  // HWY_ONCE

#else  // !VMAFX_HAVE_HWY

namespace vmafx::motion {
void init_simd_rows(Rows&) {}
}  // namespace vmafx::motion

#endif  // VMAFX_HAVE_HWY
