// SPDX-License-Identifier: BSD-3-Clause
// SIMD rows of the float VIF; see float_vif.hpp (Rows) for the contract and
// feature/float_vif.cpp's scalar_rows() (loops around exact/float_vif.h) for
// the reference. Compiled once per Highway target (foreach_target) and chosen at
// run time.
//
// One output column per lane:
// - MomentsV: five float accumulators per column kept in registers over the
//   taps; per tap the scalar statement order (t += c * x, the squares and the
//   cross product formed first). MomentsV2 does two neighbouring output rows
//   from one pass over their fw + 1 input rows (each loaded, and its
//   products formed, once).
// - StatRow: the statistic in float lanes, its double steps (the divisions
//   by sigma_nsq, the comparison with it) in double lanes of the same count
//   (PromoteTo / DemoteTo are exact and round like the scalar casts); the
//   scalar branches become selects of values computed on every lane, which
//   is exact because each branch's value depends only on its own inputs.
//   The per-column results are added to the row totals one by one in column
//   order (a float sum cannot be reordered); the vector work of the next
//   columns overlaps that chain.
// Row ends: MomentsV moves the last vector back to end at the last column
// (recomputed columns get the same values) and runs the scalar loop for rows
// narrower than a vector; StatRow copies the last partial vector into a
// zero-filled block and adds only its real columns. Nothing is read outside
// what the scalar loops read.
#include "feature/float_vif_simd.hpp"

#if VMAFX_HAVE_HWY

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "exact/float_vif_tables.h"
#include "feature/float_vif.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "feature/float_vif_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace vmafx::fvif::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ----------------------------------------------------------------- MomentsV

using DFull = hn::ScalableTag<float>;
using VFull = hn::Vec<DFull>;

// The five sums of one output row for the columns at j.
struct Acc5 {
  VFull s1, s2, sxx, syy, sxy;
  HWY_INLINE void Zero(DFull d) { s1 = s2 = sxx = syy = sxy = hn::Zero(d); }
  HWY_INLINE void Add(VFull c, VFull a, VFull b, VFull aa, VFull bb, VFull ab) {
    s1 = hn::Add(s1, hn::Mul(c, a));
    s2 = hn::Add(s2, hn::Mul(c, b));
    sxx = hn::Add(sxx, hn::Mul(c, aa));
    syy = hn::Add(syy, hn::Mul(c, bb));
    sxy = hn::Add(sxy, hn::Mul(c, ab));
  }
  HWY_INLINE void Store(DFull d, float* const* t, std::size_t j) const {
    hn::StoreU(s1, d, t[0] + j);
    hn::StoreU(s2, d, t[1] + j);
    hn::StoreU(sxx, d, t[2] + j);
    hn::StoreU(syy, d, t[3] + j);
    hn::StoreU(sxy, d, t[4] + j);
  }
};

void MomentsV(const float* f, int fw, const float* const* ra, const float* const* rb, int width, float* const* t) {
  const DFull d;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width);
  if (w < n) return scalar_rows().moments(f, fw, ra, rb, width, t);
  const auto one = [&](std::size_t j) {
    Acc5 s;
    s.Zero(d);
    for (int k = 0; k < fw; ++k) {
      const VFull a = hn::LoadU(d, ra[k] + j), b = hn::LoadU(d, rb[k] + j);
      s.Add(hn::Set(d, f[k]), a, b, hn::Mul(a, a), hn::Mul(b, b), hn::Mul(a, b));
    }
    s.Store(d, t, j);
  };
  std::size_t j = 0;
  for (; j + n <= w; j += n) one(j);
  if (j < w) one(w - n);
}

// Each input row m (0 .. fw) is loaded and its products formed once; it is
// tap m of the first row and tap m - 1 of the second, so both rows still add
// their taps in order.
void MomentsV2(const float* f, int fw, const float* const* ra, const float* const* rb, int width, float* const* t,
               float* const* u) {
  const DFull d;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width);
  if (w < n) return scalar_rows().moments2(f, fw, ra, rb, width, t, u);
  const auto one = [&](std::size_t j) {
    Acc5 s, q;
    s.Zero(d);
    q.Zero(d);
    {
      const VFull a = hn::LoadU(d, ra[0] + j), b = hn::LoadU(d, rb[0] + j);
      s.Add(hn::Set(d, f[0]), a, b, hn::Mul(a, a), hn::Mul(b, b), hn::Mul(a, b));
    }
    for (int m = 1; m < fw; ++m) {
      const VFull a = hn::LoadU(d, ra[m] + j), b = hn::LoadU(d, rb[m] + j);
      const VFull aa = hn::Mul(a, a), bb = hn::Mul(b, b), ab = hn::Mul(a, b);
      s.Add(hn::Set(d, f[m]), a, b, aa, bb, ab);
      q.Add(hn::Set(d, f[m - 1]), a, b, aa, bb, ab);
    }
    {
      const VFull a = hn::LoadU(d, ra[fw] + j), b = hn::LoadU(d, rb[fw] + j);
      q.Add(hn::Set(d, f[fw - 1]), a, b, hn::Mul(a, a), hn::Mul(b, b), hn::Mul(a, b));
    }
    s.Store(d, t, j);
    q.Store(d, u, j);
  };
  std::size_t j = 0;
  for (; j + n <= w; j += n) one(j);
  if (j < w) one(w - n);
}

// ------------------------------------------------------------------ StatRow

// log2_approx on float lanes: exponent + the polynomial of the mantissa by
// Horner's rule (p * t then + coefficient, from p = 0); 0 -> -inf, negative
// -> NaN (the scalar NAN), everything else (inf, NaN) through the bit
// formula, as the scalar code does.
template <class DF>
HWY_INLINE hn::Vec<DF> Log2(DF df, hn::Vec<DF> x) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  using VF = hn::Vec<DF>;
  const auto u = hn::BitCast(du, x);
  const auto e = hn::BitCast(di, hn::ShiftRight<23>(hn::And(u, hn::Set(du, 0x7f800000u))));
  const VF m = hn::BitCast(df, hn::Or(hn::And(u, hn::Set(du, 0x007fffffu)), hn::Set(du, 0x3f800000u)));
  const VF base = hn::ConvertTo(df, hn::Sub(e, hn::Set(di, 127)));
  const VF t = hn::Sub(m, hn::Set(df, 1.0f));
  VF p = hn::Zero(df);
  for (int i = 0; i < VMAFX_FVIF_LOG2_TERMS; ++i) p = hn::Add(hn::Mul(p, t), hn::Set(df, vmafx_fvif_log2_poly[i]));
  VF r = hn::Add(base, p);
  r = hn::IfThenElse(hn::Eq(x, hn::Zero(df)), hn::Set(df, -INFINITY), r);
  r = hn::IfThenElse(hn::Lt(x, hn::Zero(df)), hn::Set(df, NAN), r);
  return r;
}

#if HWY_TARGET == HWY_SCALAR
// One lane has no halves; enabled() is false on this target and
// rows() is scalar_rows(), so this is never called.
void StatRow(const float*, const float*, const float*, const float*, const float*, int, const vmafx_fvif_consts&,
             float*, float*) {
  HWY_ABORT("float vif simd: no SIMD target");
}
#else
// Full float vectors; their halves widened to double vectors of as many lanes.
using DF = hn::ScalableTag<float>;
using DH = hn::Half<DF>;
using DD = hn::Rebind<double, DH>;
using VF = hn::Vec<DF>;
using VD = hn::Vec<DD>;

struct Wide {
  VD lo, hi;
};
HWY_INLINE Wide Widen(VF v) {
  const DH dh;
  const DD dd;
  return {hn::PromoteTo(dd, hn::LowerHalf(dh, v)), hn::PromoteTo(dd, hn::UpperHalf(dh, v))};
}
HWY_INLINE VF Narrow(VD lo, VD hi) {
  const DF df;
  const DH dh;
  return hn::Combine(df, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
}

// The constants of a row, derived once.
struct RowConsts {
  float inv, gain_limit;
  double nsq;
  // The smallest float >= sigma_nsq: for every float x, double(x) < sigma_nsq
  // iff x < nsq_up (equal when sigma_nsq is a float; otherwise nsq_up is the
  // first float above it). NaN: both false.
  float nsq_up;
  // 2^-k when sigma_nsq is 2^k with |k| <= 8, else 0 (see StatVec).
  float pow2_inv;
};

RowConsts MakeRowConsts(const vmafx_fvif_consts& c) {
  RowConsts r{c.max_inv, c.gain_limit, c.sigma_nsq, static_cast<float>(c.sigma_nsq), 0.0f};
  if (static_cast<double>(r.nsq_up) < c.sigma_nsq) r.nsq_up = std::nextafter(r.nsq_up, INFINITY);
  int e = 0;
  if (std::frexp(c.sigma_nsq, &e) == 0.5 && e - 1 >= -8 && e - 1 <= 8)
    r.pow2_inv = static_cast<float>(std::ldexp(1.0, 1 - e));
  return r;
}

// One vector of columns: the per-column numerator and denominator terms.
// kPow2 (sigma_nsq = 2^k, |k| <= 8): the denominator's argument
// float(1.0 + double(s1) / sigma_nsq) is computed as 1.0f + s1 * 2^-k in
// float, which gives the same float: s1 is 0, +inf or a float >= 1e-10 here,
// so s1 / 2^k is exact in double and, unless it is >= 2^128 (then both forms
// give +inf), exact in float too; and rounding the double sum of two floats to
// float equals the float sum (53 >= 2 * 24 + 1 bits: double rounding is
// innocuous for addition).
template <bool kPow2>
HWY_INLINE void StatVec(VF mu1, VF mu2, VF xx, VF yy, VF xy, const RowConsts& c, VF* num, VF* den) {
  const DF df;
  const DD dd;
  const VF zero = hn::Zero(df), one = hn::Set(df, 1.0f), eps = hn::Set(df, 1.0e-10f);
  const VF mu1_sq = hn::Mul(mu1, mu1);
  const VF mu2_sq = hn::Mul(mu2, mu2);
  const VF mu1_mu2 = hn::Mul(mu1, mu2);
  VF s1 = hn::Sub(xx, mu1_sq);
  VF s2 = hn::Sub(yy, mu2_sq);
  const VF s12 = hn::Sub(xy, mu1_mu2);
  s1 = hn::IfThenElse(hn::Gt(s1, zero), s1, zero);
  s2 = hn::IfThenElse(hn::Gt(s2, zero), s2, zero);

  VF g = hn::Div(s12, hn::Add(s1, eps));
  VF sv = hn::Sub(s2, hn::Mul(g, s12));
  const auto low1 = hn::Lt(s1, eps);
  g = hn::IfThenElse(low1, zero, g);
  sv = hn::IfThenElse(low1, s2, sv);
  s1 = hn::IfThenElse(low1, zero, s1);
  const auto low2 = hn::Lt(s2, eps);
  g = hn::IfThenElse(low2, zero, g);
  sv = hn::IfThenElse(low2, zero, sv);
  const auto neg = hn::Lt(g, zero);
  sv = hn::IfThenElse(neg, s2, sv);
  g = hn::IfThenElse(neg, zero, g);
  sv = hn::IfThenElse(hn::Gt(sv, eps), sv, eps);
  const VF gl = hn::Set(df, c.gain_limit);
  g = hn::IfThenElse(hn::Lt(g, gl), g, gl);

  const VD nsq = hn::Set(dd, c.nsq), oned = hn::Set(dd, 1.0);
  // den = log2(float(1.0 + sigma1_sq / sigma_nsq)).
  VF den_arg;
  if constexpr (kPow2) {
    den_arg = hn::Add(one, hn::Mul(s1, hn::Set(df, c.pow2_inv)));
  } else {
    const Wide s1d = Widen(s1);
    den_arg = Narrow(hn::Add(oned, hn::Div(s1d.lo, nsq)), hn::Add(oned, hn::Div(s1d.hi, nsq)));
  }
  const VF den_hi = Log2(df, den_arg);
  // num = sigma12 < 0 ? 0 : log2(float(1.0 + (g * g * sigma1_sq) / (sv_sq + sigma_nsq))).
  const Wide ggs = Widen(hn::Mul(hn::Mul(g, g), s1));
  const Wide svd = Widen(sv);
  VF num_hi = Log2(df, Narrow(hn::Add(oned, hn::Div(ggs.lo, hn::Add(svd.lo, nsq))),
                              hn::Add(oned, hn::Div(ggs.hi, hn::Add(svd.hi, nsq)))));
  num_hi = hn::IfThenElse(hn::Lt(s12, zero), zero, num_hi);
  // sigma1_sq < sigma_nsq (in double): num = 1 - sigma2_sq * inv, den = 1.
  const auto low = hn::Lt(s1, hn::Set(df, c.nsq_up));
  *num = hn::IfThenElse(low, hn::Sub(one, hn::Mul(s2, hn::Set(df, c.inv))), num_hi);
  *den = hn::IfThenElse(low, one, den_hi);
}

// The row in chunks of kChunk columns: the terms of chunk c's columns are
// stored in one of two blocks, and between its vectors the terms of chunk
// c - 1 are added to the row totals, one by one in column order. The adds
// form one dependency chain per total; interleaving them with the next
// chunk's (independent) vector work lets the two overlap. Chunk c - 1 is
// complete before any term of chunk c is added, so the order is the scalar
// loop's.
template <bool kPow2>
void StatRowT(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, std::size_t w,
              const RowConsts& c, float* num_out, float* den_out) {
  const DF df;
  constexpr std::size_t kMax = HWY_MAX_BYTES / sizeof(float);
  constexpr std::size_t kChunk = 256;
  const std::size_t n = hn::Lanes(df);
  HWY_ALIGN float nb[2][kChunk + kMax], db[2][kChunk + kMax];
  float rn = 0.0f, rd = 0.0f;
  std::size_t prev_len = 0;  // terms of the previous chunk not yet added
  int cur = 0;
  for (std::size_t j0 = 0; j0 < w; j0 += kChunk, cur ^= 1) {
    const std::size_t end = j0 + kChunk < w ? j0 + kChunk : w;
    const float* pn = nb[cur ^ 1];
    const float* pd = db[cur ^ 1];
    std::size_t added = 0;
    std::size_t j = j0;
    for (; j + n <= end; j += n) {
      VF nv, dv;
      StatVec<kPow2>(hn::LoadU(df, mu1 + j), hn::LoadU(df, mu2 + j), hn::LoadU(df, xx + j), hn::LoadU(df, yy + j),
                     hn::LoadU(df, xy + j), c, &nv, &dv);
      hn::Store(nv, df, nb[cur] + (j - j0));
      hn::Store(dv, df, db[cur] + (j - j0));
      const std::size_t stop = added + n < prev_len ? added + n : prev_len;
      for (; added < stop; ++added) {
        rn += pn[added];
        rd += pd[added];
      }
    }
    if (j < end) {
      // The last columns from a zero-filled block (only they are added).
      HWY_ALIGN float in[5][kMax] = {};
      const float* src[5] = {mu1, mu2, xx, yy, xy};
      for (int s = 0; s < 5; ++s) std::memcpy(in[s], src[s] + j, (end - j) * sizeof(float));
      VF nv, dv;
      StatVec<kPow2>(hn::Load(df, in[0]), hn::Load(df, in[1]), hn::Load(df, in[2]), hn::Load(df, in[3]),
                     hn::Load(df, in[4]), c, &nv, &dv);
      hn::Store(nv, df, nb[cur] + (j - j0));
      hn::Store(dv, df, db[cur] + (j - j0));
    }
    for (; added < prev_len; ++added) {
      rn += pn[added];
      rd += pd[added];
    }
    prev_len = end - j0;
  }
  const float* pn = nb[cur ^ 1];
  const float* pd = db[cur ^ 1];
  for (std::size_t l = 0; l < prev_len; ++l) {
    rn += pn[l];
    rd += pd[l];
  }
  *num_out = rn;
  *den_out = rd;
}

void StatRow(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int width,
             const vmafx_fvif_consts& sc, float* num_out, float* den_out) {
  const RowConsts c = MakeRowConsts(sc);
  if (c.pow2_inv != 0.0f)
    StatRowT<true>(mu1, mu2, xx, yy, xy, std::size_t(width), c, num_out, den_out);
  else
    StatRowT<false>(mu1, mu2, xx, yy, xy, std::size_t(width), c, num_out, den_out);
}

#endif  // HWY_TARGET == HWY_SCALAR

void Log2N(const float* x, int count, float* out) {
  const hn::ScalableTag<float> d;
  constexpr std::size_t kMax = HWY_MAX_BYTES / sizeof(float);
  const std::size_t n = hn::Lanes(d);
  HWY_ALIGN float buf[kMax];
  for (std::size_t i = 0; i < std::size_t(count); i += n) {
    const std::size_t m = std::size_t(count) - i < n ? std::size_t(count) - i : n;
    std::memset(buf, 0, sizeof buf);
    std::memcpy(buf, x + i, m * sizeof(float));
    hn::Store(Log2(d, hn::Load(d, buf)), d, buf);
    std::memcpy(out + i, buf, m * sizeof(float));
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace vmafx::fvif::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmafx::fvif::simd {

HWY_EXPORT(MomentsV);
HWY_EXPORT(MomentsV2);
HWY_EXPORT(StatRow);
HWY_EXPORT(Log2N);

void log2_approx_n(const float* x, int n, float* out) { HWY_DYNAMIC_DISPATCH(Log2N)(x, n, out); }

}  // namespace vmafx::fvif::simd

namespace vmafx::fvif {

// Each slot dispatches at call time, so a target forced by the tests holds.
void init_simd_rows(Rows& r) {
  using namespace simd;  // NOLINT: the dispatch tables' names
  r.moments = [](const float* f, int fw, const float* const* ra, const float* const* rb, int w, float* const* t) {
    HWY_DYNAMIC_DISPATCH(MomentsV)(f, fw, ra, rb, w, t);
  };
  r.moments2 = [](const float* f, int fw, const float* const* ra, const float* const* rb, int w, float* const* t,
                  float* const* u) {
    HWY_DYNAMIC_DISPATCH(MomentsV2)
    (f, fw, ra, rb, w, t, u);
  };
  r.stat = [](const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int w,
              const vmafx_fvif_consts& k, float* num, float* den) {
    HWY_DYNAMIC_DISPATCH(StatRow)(mu1, mu2, xx, yy, xy, w, k, num, den);
  };
}

}  // namespace vmafx::fvif
#endif  // HWY_ONCE

#else  // !VMAFX_HAVE_HWY

#include <cstdlib>

namespace vmafx::fvif::simd {
void log2_approx_n(const float*, int, float*) { std::abort(); }
}  // namespace vmafx::fvif::simd

#endif  // VMAFX_HAVE_HWY
