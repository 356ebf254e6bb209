// SPDX-License-Identifier: BSD-3-Clause
// SIMD rows of the shared float helpers; see float_simd.hpp for the contract
// and feature/float_common.cpp (convolve, convolve_row, copy_plane) for the
// scalar reference. Compiled once per Highway target (foreach_target) and
// chosen at run time.
//
// One output column per float lane. Row ends: with at least N columns the
// last vector is moved back to end at the last column (the columns it
// recomputes get the same values); narrower rows run the scalar loop, which
// is the same arithmetic.
#include "feature/float_simd.hpp"

#if VMAFX_HAVE_HWY

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "feature/float_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace vmafx::flt::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);

// The scalar loops (rows narrower than a vector).
void VerticalScalar(const float* f, int fw, const float* const* rows, std::size_t j0, std::size_t w, float* out) {
  for (std::size_t j = j0; j < w; ++j) {
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) acc += f[k] * rows[k][j];
    out[j] = acc;
  }
}

void HorizontalScalar(const float* f, int fw, const float* pad, std::size_t j0, std::size_t w, float* out) {
  for (std::size_t j = j0; j < w; ++j) {
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) acc += f[k] * pad[j + k];
    out[j] = acc;
  }
}

// Two vectors of columns per step (j, j + N), then one, then the last one
// moved back. `src(k, j)` is the address of tap k's input at column j.
template <class Src>
HWY_INLINE void Columns(const float* f, int fw, std::size_t w, float* out, Src src) {
  const D d;
  const std::size_t n = hn::Lanes(d);
  const auto one = [&](std::size_t j) {
    V acc = hn::Zero(d);
    for (int k = 0; k < fw; ++k) acc = hn::Add(acc, hn::Mul(hn::Set(d, f[k]), hn::LoadU(d, src(k, j))));
    hn::StoreU(acc, d, out + j);
  };
  std::size_t j = 0;
  for (; j + 2 * n <= w; j += 2 * n) {
    V a0 = hn::Zero(d), a1 = hn::Zero(d);
    for (int k = 0; k < fw; ++k) {
      const V c = hn::Set(d, f[k]);
      const float* s = src(k, j);
      a0 = hn::Add(a0, hn::Mul(c, hn::LoadU(d, s)));
      a1 = hn::Add(a1, hn::Mul(c, hn::LoadU(d, s + n)));
    }
    hn::StoreU(a0, d, out + j);
    hn::StoreU(a1, d, out + j + n);
  }
  if (j + n <= w) {
    one(j);
    j += n;
  }
  if (j < w) one(w - n);
}

void Vertical(const float* f, int fw, const float* const* rows, int width, float* out) {
  const std::size_t w = std::size_t(width);
  if (w < hn::Lanes(D())) return VerticalScalar(f, fw, rows, 0, w, out);
  Columns(f, fw, w, out, [rows](int k, std::size_t j) { return rows[k] + j; });
}

void Horizontal(const float* f, int fw, const float* pad, int width, float* out) {
  const std::size_t w = std::size_t(width);
  if (w < hn::Lanes(D())) return HorizontalScalar(f, fw, pad, 0, w, out);
  Columns(f, fw, w, out, [pad](int k, std::size_t j) { return pad + j + std::size_t(k); });
}

// out[j] = tap-ordered sum of f[k] * pad[2j + k]: taps 2m and 2m + 1 come
// from one de-interleaving load at pad + 2j + 2m (its even and odd lanes); an
// odd last tap from the odd lanes of the load at pad + 2j + fw - 2, so that
// no load reaches past pad[2 (w - 1) + fw - 1], the last value the scalar sum
// reads. The adds stay in tap order.
void HorizontalDec2Scalar(const float* f, int fw, const float* pad, std::size_t j0, std::size_t w, float* out) {
  for (std::size_t j = j0; j < w; ++j) {
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) acc += f[k] * pad[2 * j + std::size_t(k)];
    out[j] = acc;
  }
}

void HorizontalDec2(const float* f, int fw, const float* pad, int width, float* out) {
  const D d;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width);
  if (w < n || fw < 2) return HorizontalDec2Scalar(f, fw, pad, 0, w, out);
  const auto one = [&](std::size_t j) {
    V acc = hn::Zero(d);
    const float* p = pad + 2 * j;
    int k = 0;
    for (; k + 1 < fw; k += 2) {
      V e, o;
      hn::LoadInterleaved2(d, p + k, e, o);
      acc = hn::Add(acc, hn::Mul(hn::Set(d, f[k]), e));
      acc = hn::Add(acc, hn::Mul(hn::Set(d, f[k + 1]), o));
    }
    if (k < fw) {
      V e, o;
      hn::LoadInterleaved2(d, p + k - 1, e, o);
      acc = hn::Add(acc, hn::Mul(hn::Set(d, f[k]), o));
    }
    hn::StoreU(acc, d, out + j);
  };
  std::size_t j = 0;
  for (; j + n <= w; j += n) one(j);
  if (j < w) one(w - n);
}

// Per-row sums of |a - b| (float, from 0, in column order), rows[i] for
// i < h. The sums of kRows rows run side by side: the differences of a chunk
// of columns of those rows are formed in lanes (float subtract, then the
// sign cleared, as fabs does) into a block, then each row's running sum adds
// its chunk's values in column order, the kRows sums being independent
// dependency chains that the CPU overlaps (one row's chain alone is bound by
// the add latency).
constexpr int kSadRows = 8;
constexpr std::size_t kSadChunk = 512;

void RowAbsDiffSums(const float* a, const float* b, int width, int height, float* sums) {
  const D d;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width);
  HWY_ALIGN float diff[kSadRows][kSadChunk];
  for (int i0 = 0; i0 < height; i0 += kSadRows) {
    const int rows = height - i0 < kSadRows ? height - i0 : kSadRows;
    float acc[kSadRows] = {};
    for (std::size_t j0 = 0; j0 < w; j0 += kSadChunk) {
      const std::size_t len = w - j0 < kSadChunk ? w - j0 : kSadChunk;
      for (int r = 0; r < kSadRows; ++r) {
        // Missing rows of the last block repeat its first row (not kept).
        const std::size_t off = std::size_t(i0 + (r < rows ? r : 0)) * w + j0;
        const float* ra = a + off;
        const float* rb = b + off;
        std::size_t j = 0;
        for (; j + n <= len; j += n)
          hn::Store(hn::Abs(hn::Sub(hn::LoadU(d, ra + j), hn::LoadU(d, rb + j))), d, diff[r] + j);
        for (; j < len; ++j) diff[r][j] = std::fabs(ra[j] - rb[j]);
      }
      float s0 = acc[0], s1 = acc[1], s2 = acc[2], s3 = acc[3], s4 = acc[4], s5 = acc[5], s6 = acc[6], s7 = acc[7];
      for (std::size_t j = 0; j < len; ++j) {
        s0 += diff[0][j];
        s1 += diff[1][j];
        s2 += diff[2][j];
        s3 += diff[3][j];
        s4 += diff[4][j];
        s5 += diff[5][j];
        s6 += diff[6][j];
        s7 += diff[7][j];
      }
      acc[0] = s0, acc[1] = s1, acc[2] = s2, acc[3] = s3, acc[4] = s4, acc[5] = s5, acc[6] = s6, acc[7] = s7;
    }
    for (int r = 0; r < rows; ++r) sums[i0 + r] = acc[r];
  }
}

// Double sums of float terms in lanes, used only where they provably equal
// the running double sum of the scalar loop: every term a multiple of 2^-q
// and the sum of |terms| below 2^(53 - q) make every partial sum, in any
// order, a multiple of 2^-q below 2^(53 - q) in magnitude, hence exact in
// double; so both orders give the exact sum. q is the smallest of 0, 8, 16
// for which every term passes (t * 2^q integral); otherwise, or when the
// bound fails, false (the caller sums in order). The lane sums of |t| are
// themselves exact below the bound, and once the true sum reaches it the
// computed one does too (rounding is monotonic), so the test is sound.
#if HWY_TARGET == HWY_SCALAR
bool ExactSum(const float*, const float*, std::size_t, int, double*) { return false; }
#else
template <int kKind>
HWY_INLINE V Term(const float* a, const float* b, std::size_t k) {
  const D d;
  const V x = hn::LoadU(d, a + k);
  if constexpr (kKind == 0) return x;
  if constexpr (kKind == 1) return hn::Mul(x, x);
  const V e = hn::Sub(x, hn::LoadU(d, b + k));
  return hn::Mul(e, e);
}

template <int kKind>
bool ExactSumT(const float* a, const float* b, std::size_t n, double* out) {
  using DH = hn::Half<D>;
  using DD = hn::Rebind<double, DH>;
  const D d;
  const DH dh;
  const DD dd;
  const std::size_t lanes = hn::Lanes(d);
  auto s_lo = hn::Zero(dd), s_hi = hn::Zero(dd), m_lo = hn::Zero(dd), m_hi = hn::Zero(dd);
  V bad0 = hn::Zero(d), bad8 = hn::Zero(d), bad16 = hn::Zero(d);
  const V k8 = hn::Set(d, 256.0f), k16 = hn::Set(d, 65536.0f);
  const auto add = [&](V t) {
    const V t8 = hn::Mul(t, k8), t16 = hn::Mul(t, k16);
    bad0 = hn::Or(bad0, hn::VecFromMask(d, hn::Ne(t, hn::Round(t))));
    bad8 = hn::Or(bad8, hn::VecFromMask(d, hn::Ne(t8, hn::Round(t8))));
    bad16 = hn::Or(bad16, hn::VecFromMask(d, hn::Ne(t16, hn::Round(t16))));
    const V m = hn::Abs(t);
    s_lo = hn::Add(s_lo, hn::PromoteTo(dd, hn::LowerHalf(dh, t)));
    s_hi = hn::Add(s_hi, hn::PromoteTo(dd, hn::UpperHalf(dh, t)));
    m_lo = hn::Add(m_lo, hn::PromoteTo(dd, hn::LowerHalf(dh, m)));
    m_hi = hn::Add(m_hi, hn::PromoteTo(dd, hn::UpperHalf(dh, m)));
  };
  std::size_t k = 0;
  for (; k + lanes <= n; k += lanes) add(Term<kKind>(a, b, k));
  if (k < n) {
    HWY_ALIGN float ta[kMaxLanes] = {}, tb[kMaxLanes] = {};
    std::memcpy(ta, a + k, (n - k) * sizeof(float));
    if (kKind == 2) std::memcpy(tb, b + k, (n - k) * sizeof(float));
    add(Term<kKind>(ta, tb, 0));  // zero terms add nothing
  }
  const double mag = hn::GetLane(hn::SumOfLanes(dd, hn::Add(m_lo, m_hi)));
  int q;
  if (hn::AllTrue(d, hn::Eq(bad0, hn::Zero(d))))
    q = 0;
  else if (hn::AllTrue(d, hn::Eq(bad8, hn::Zero(d))))
    q = 8;
  else if (hn::AllTrue(d, hn::Eq(bad16, hn::Zero(d))))
    q = 16;
  else
    return false;
  if (!(mag < std::ldexp(1.0, 53 - q))) return false;
  *out = hn::GetLane(hn::SumOfLanes(dd, hn::Add(s_lo, s_hi)));
  return true;
}

bool ExactSum(const float* a, const float* b, std::size_t n, int kind, double* out) {
  if (kind == 0) return ExactSumT<0>(a, b, n, out);
  if (kind == 1) return ExactSumT<1>(a, b, n, out);
  return ExactSumT<2>(a, b, n, out);
}
#endif  // HWY_TARGET == HWY_SCALAR

// Integers below 2^24 convert to float exactly, as the scalar cast does.
void ToFloat8(const std::uint8_t* src, int width, float offset, float* dst) {
  const D d;
  const hn::Rebind<std::int32_t, D> di;
  const hn::Rebind<std::uint8_t, D> d8;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width);
  const V off = hn::Set(d, offset);
  std::size_t x = 0;
  for (; x + n <= w; x += n)
    hn::StoreU(hn::Add(hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d8, src + x))), off), d, dst + x);
  for (; x < w; ++x) dst[x] = static_cast<float>(src[x]) + offset;
}

void ToFloat16(const std::uint16_t* src, int width, float scaler, float offset, float* dst) {
  const D d;
  const hn::Rebind<std::int32_t, D> di;
  const hn::Rebind<std::uint16_t, D> d16;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width);
  const V off = hn::Set(d, offset), sc = hn::Set(d, scaler);
  std::size_t x = 0;
  for (; x + n <= w; x += n) {
    const V v = hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d16, src + x)));
    hn::StoreU(hn::Add(hn::Div(v, sc), off), d, dst + x);
  }
  for (; x < w; ++x) dst[x] = static_cast<float>(src[x]) / scaler + offset;
}

}  // namespace HWY_NAMESPACE
}  // namespace vmafx::flt::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmafx::flt::simd {

HWY_EXPORT(Vertical);
HWY_EXPORT(Horizontal);
HWY_EXPORT(HorizontalDec2);
HWY_EXPORT(RowAbsDiffSums);
HWY_EXPORT(ExactSum);
HWY_EXPORT(ToFloat8);
HWY_EXPORT(ToFloat16);

void vertical(const float* f, int fw, const float* const* rows, int w, float* out) {
  HWY_DYNAMIC_DISPATCH(Vertical)(f, fw, rows, w, out);
}
void horizontal(const float* f, int fw, const float* pad, int w, float* out) {
  HWY_DYNAMIC_DISPATCH(Horizontal)(f, fw, pad, w, out);
}
void horizontal_dec2(const float* f, int fw, const float* pad, int w, float* out) {
  HWY_DYNAMIC_DISPATCH(HorizontalDec2)(f, fw, pad, w, out);
}
void row_abs_diff_sums(const float* a, const float* b, int w, int h, float* sums) {
  HWY_DYNAMIC_DISPATCH(RowAbsDiffSums)(a, b, w, h, sums);
}
bool exact_sum(const float* a, const float* b, std::size_t n, int kind, double* sum) {
  return HWY_DYNAMIC_DISPATCH(ExactSum)(a, b, n, kind, sum);
}
void to_float(const std::uint8_t* src, int w, float offset, float* dst) {
  HWY_DYNAMIC_DISPATCH(ToFloat8)(src, w, offset, dst);
}
void to_float(const std::uint16_t* src, int w, float scaler, float offset, float* dst) {
  HWY_DYNAMIC_DISPATCH(ToFloat16)(src, w, scaler, offset, dst);
}

}  // namespace vmafx::flt::simd
#endif  // HWY_ONCE

#else  // !VMAFX_HAVE_HWY

#include <cstdlib>

namespace vmafx::flt::simd {
void vertical(const float*, int, const float* const*, int, float*) { std::abort(); }
void horizontal(const float*, int, const float*, int, float*) { std::abort(); }
void horizontal_dec2(const float*, int, const float*, int, float*) { std::abort(); }
void row_abs_diff_sums(const float*, const float*, int, int, float*) { std::abort(); }
bool exact_sum(const float*, const float*, std::size_t, int, double*) { std::abort(); }
void to_float(const std::uint8_t*, int, float, float*) { std::abort(); }
void to_float(const std::uint16_t*, int, float, float, float*) { std::abort(); }
}  // namespace vmafx::flt::simd

#endif  // VMAFX_HAVE_HWY
