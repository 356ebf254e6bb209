// SPDX-License-Identifier: BSD-3-Clause
// SIMD rows of the float ADM; see float_adm.hpp (Rows) for the contract and
// feature/float_adm.cpp's scalar_rows() (loops around exact/float_adm.h) for
// the reference; init_simd_rows() puts these over them. Compiled once per Highway target (foreach_target) and
// chosen at run time.
//
// One column per lane:
// - DWT: the four-tap sums start from 0 and add f[k] * s_k in tap order; the
//   horizontal step reads its even / odd inputs with de-interleaving loads.
// - Decouple: the RCPSS estimate from the same 4096-entry table (a gather)
//   and the same exponent arithmetic on the bits, the Newton step and every
//   comparison in float as in the scalar code. The gain limit multiplies in
//   double there; when the limit is a float (100, the default, is) the float
//   product gives the same result (see GainLimit).
// - CSF: the product by the double 1/30 in double lanes.
// - Denominator and masking terms: computed per lane, then added to the three
//   row totals one by one in column order (three independent chains), a chunk
//   behind the vector work so that the two overlap.
// Row ends: pointwise stages move the last vector back to end at the last
// column (recomputed columns get the same values), or, for ranges narrower
// than a vector, work on zero-filled copies and store the real columns only;
// the summing stages need a full vector of columns (init_simd_rows runs the
// scalar row otherwise). Nothing is read outside what the scalar rows read.
#include "feature/float_adm_simd.hpp"

#if VMAFX_HAVE_HWY

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "exact/fadm_rcp.h"
#include "exact/float_adm_tables.h"
#include "feature/float_adm.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "feature/float_adm_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace vmafx::fadm::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;
using DU = hn::RebindToUnsigned<D>;
using DI = hn::RebindToSigned<D>;
constexpr std::size_t kMax = HWY_MAX_BYTES / sizeof(float);

std::size_t Lanes() { return hn::Lanes(D()); }

#if HWY_TARGET == HWY_SCALAR
// One lane has no halves; enabled() is false on this target and
// rows() is scalar_rows(), so these are never called.
void DwtV(const float* const*, int, float*, float*) { HWY_ABORT("float adm simd: no SIMD target"); }
void DwtH(const float*, const float*, int, int, float*, float*, float*, float*) {
  HWY_ABORT("float adm simd: no SIMD target");
}
void DecoupleRow(const float* const*, const float* const*, int, int, double, int, float* const*, float* const*) {
  HWY_ABORT("float adm simd: no SIMD target");
}
void CsfRow(const float*, float, int, int, float*, float*) { HWY_ABORT("float adm simd: no SIMD target"); }
void DenRow(const float* const*, const float*, int, int, float*) { HWY_ABORT("float adm simd: no SIMD target"); }
void MaskedRow(const float* const*, const float* const*, const float* const*, const float* const*, const float* const*,
               const float*, int, int, bool, float*) {
  HWY_ABORT("float adm simd: no SIMD target");
}
void RcpN(const float*, int, int, float*) { HWY_ABORT("float adm simd: no SIMD target"); }
#else
HWY_INLINE V Fir4(const float* f, V s0, V s1, V s2, V s3) {
  const D d;
  V acc = hn::Add(hn::Zero(d), hn::Mul(hn::Set(d, f[0]), s0));
  acc = hn::Add(acc, hn::Mul(hn::Set(d, f[1]), s1));
  acc = hn::Add(acc, hn::Mul(hn::Set(d, f[2]), s2));
  return hn::Add(acc, hn::Mul(hn::Set(d, f[3]), s3));
}

// ---------------------------------------------------------------------- DWT

void DwtV(const float* const* r, int width, float* lo_out, float* hi_out) {
  const D d;
  const std::size_t n = hn::Lanes(d), w = std::size_t(width);
  const float* lo = vmafx_fadm_db2_lo;
  const float* hi = vmafx_fadm_db2_hi;
  const auto one = [&](std::size_t j) {
    const V s0 = hn::LoadU(d, r[0] + j), s1 = hn::LoadU(d, r[1] + j);
    const V s2 = hn::LoadU(d, r[2] + j), s3 = hn::LoadU(d, r[3] + j);
    hn::StoreU(Fir4(lo, s0, s1, s2, s3), d, lo_out + j);
    if (hi_out) hn::StoreU(Fir4(hi, s0, s1, s2, s3), d, hi_out + j);
  };
  if (w < n) {
    // Zero-filled copies; only the real columns are stored.
    HWY_ALIGN float in[4][kMax] = {}, out[2][kMax];
    for (int k = 0; k < 4; ++k) std::memcpy(in[k], r[k], w * sizeof(float));
    const V s0 = hn::Load(d, in[0]), s1 = hn::Load(d, in[1]), s2 = hn::Load(d, in[2]), s3 = hn::Load(d, in[3]);
    hn::Store(Fir4(lo, s0, s1, s2, s3), d, out[0]);
    hn::Store(Fir4(hi, s0, s1, s2, s3), d, out[1]);
    std::memcpy(lo_out, out[0], w * sizeof(float));
    if (hi_out) std::memcpy(hi_out, out[1], w * sizeof(float));
    return;
  }
  std::size_t j = 0;
  for (; j + n <= w; j += n) one(j);
  if (j < w) one(w - n);
}

void DwtH(const float* tlo, const float* thi, int j0, int j1, float* a, float* v, float* h, float* dd) {
  const D d;
  const std::size_t n = hn::Lanes(d), b = std::size_t(j0), e = std::size_t(j1);
  const float* lo = vmafx_fadm_db2_lo;
  const float* hi = vmafx_fadm_db2_hi;
  const auto one = [&](std::size_t j) {
    V s0, s1, s2, s3;
    hn::LoadInterleaved2(d, tlo + 2 * j - 1, s0, s1);  // tlo[2j - 1], tlo[2j]
    hn::LoadInterleaved2(d, tlo + 2 * j + 1, s2, s3);  // tlo[2j + 1], tlo[2j + 2]
    hn::StoreU(Fir4(lo, s0, s1, s2, s3), d, a + j);
    if (!thi) return;
    hn::StoreU(Fir4(hi, s0, s1, s2, s3), d, v + j);
    hn::LoadInterleaved2(d, thi + 2 * j - 1, s0, s1);
    hn::LoadInterleaved2(d, thi + 2 * j + 1, s2, s3);
    hn::StoreU(Fir4(lo, s0, s1, s2, s3), d, h + j);
    hn::StoreU(Fir4(hi, s0, s1, s2, s3), d, dd + j);
  };
  std::size_t j = b;
  for (; j + n <= e; j += n) one(j);
  if (j < e) one(e - n);
}

// ------------------------------------------------------------------ Decouple

// flt::rcp_estimate on lanes: the table entry (tab) of the top 23 - shift
// fraction bits, its exponent moved by the input's, the same special cases.
HWY_INLINE V RcpEstimate(V x, const std::int32_t* tab, int shift) {
  const D d;
  const DU du;
  const DI di;
  const auto u = hn::BitCast(du, x);
  const auto sign = hn::And(u, hn::Set(du, 0x80000000u));
  const auto e = hn::And(hn::ShiftRight<23>(u), hn::Set(du, 0xffu));
  const auto m = hn::And(u, hn::Set(du, 0x7fffffu));
  const auto idx = hn::BitCast(di, hn::ShiftRightSame(m, shift));
  const auto t = hn::BitCast(du, hn::GatherIndex(di, tab, idx));
  const auto te = hn::BitCast(di, hn::And(hn::ShiftRight<23>(t), hn::Set(du, 0xffu)));
  const auto re = hn::Sub(te, hn::Sub(hn::BitCast(di, e), hn::Set(di, 127)));
  const auto inf = hn::Or(sign, hn::Set(du, 0x7f800000u));
  auto r = hn::Or(hn::Or(sign, hn::ShiftLeft<23>(hn::BitCast(du, re))), hn::And(t, hn::Set(du, 0x7fffffu)));
  r = hn::IfThenElse(hn::RebindMask(du, hn::Lt(re, hn::Set(di, 1))), sign, r);
  r = hn::IfThenElse(hn::RebindMask(du, hn::Gt(re, hn::Set(di, 254))), inf, r);
  r = hn::IfThenElse(hn::Eq(e, hn::Zero(du)), inf, r);
  const auto nan = hn::IfThenElse(hn::Eq(m, hn::Zero(du)), sign, hn::Or(u, hn::Set(du, 0x400000u)));
  r = hn::IfThenElse(hn::Eq(e, hn::Set(du, 0xffu)), nan, r);
  return hn::BitCast(d, r);
}

HWY_INLINE V RcpRefined(V x, const std::int32_t* tab, int shift) {
  const D d;
  const V xi = RcpEstimate(x, tab, shift);
  return hn::Add(xi, hn::Mul(xi, hn::Sub(hn::Set(d, 1.0f), hn::Mul(x, xi))));
}

// The estimate's table and index shift of a variant (VMAFX_LIBVMAF_CPU_*; amd
// for generic, which does not use it).
HWY_INLINE const std::int32_t* RcpTable(int cpu) {
  return reinterpret_cast<const std::int32_t*>(cpu == VMAFX_LIBVMAF_CPU_INTEL ? vmafx_fadm_rcp_intel
                                                                              : vmafx_fadm_rcp_amd);
}
HWY_INLINE int RcpShift(int cpu) {
  return 23 - (cpu == VMAFX_LIBVMAF_CPU_INTEL ? VMAFX_FADM_RCP_INTEL_BITS : VMAFX_FADM_RCP_AMD_BITS);
}

// flt::adm_divide on lanes.
HWY_INLINE V AdmDivide(V n, V dv, int cpu) {
  if (cpu == VMAFX_LIBVMAF_CPU_GENERIC) return hn::Div(n, dv);
  return hn::Mul(n, RcpRefined(dv, RcpTable(cpu), RcpShift(cpu)));
}

// The gain limit of one orientation where the angle test passed:
//   rst > 0: rst = float(min-like(double(rst) * gl, t))  (x < t ? x : t)
//   then rst < 0: rst = float(x > t ? x : t) with x = double(rst) * gl.
// kFloatGain (gl is a float): double(rst) * gl is then exact (two 24-bit
// mantissas), rounding is monotonic and t is a float, so
// float(x < t ? x : t) == (round(x) < t ? round(x) : t) with round(x) the
// float product rst * gl (and likewise for >); overflow to infinity keeps the
// order. Otherwise the double steps run in double lanes.
template <bool kFloatGain>
HWY_INLINE V GainLimit(V rst, V t, hn::Mask<D> angle, float glf, double gl) {
  const D d;
  const V zero = hn::Zero(d);
  if constexpr (kFloatGain) {
    const V g = hn::Set(d, glf);
    const auto pos = hn::And(angle, hn::Gt(rst, zero));
    V x = hn::Mul(rst, g);
    rst = hn::IfThenElse(pos, hn::IfThenElse(hn::Lt(x, t), x, t), rst);
    const auto neg = hn::And(angle, hn::Lt(rst, zero));
    x = hn::Mul(rst, g);
    return hn::IfThenElse(neg, hn::IfThenElse(hn::Gt(x, t), x, t), rst);
  } else {
    using DH = hn::Half<D>;
    using DD = hn::Rebind<double, DH>;
    const DH dh;
    const DD dd;
    const auto g = hn::Set(dd, gl);
    const auto tl = hn::PromoteTo(dd, hn::LowerHalf(dh, t)), th = hn::PromoteTo(dd, hn::UpperHalf(dh, t));
    const auto pos = hn::And(angle, hn::Gt(rst, zero));
    auto xl = hn::Mul(hn::PromoteTo(dd, hn::LowerHalf(dh, rst)), g);
    auto xh = hn::Mul(hn::PromoteTo(dd, hn::UpperHalf(dh, rst)), g);
    V lim = hn::Combine(d, hn::DemoteTo(dh, hn::IfThenElse(hn::Lt(xh, th), xh, th)),
                        hn::DemoteTo(dh, hn::IfThenElse(hn::Lt(xl, tl), xl, tl)));
    rst = hn::IfThenElse(pos, lim, rst);
    const auto neg = hn::And(angle, hn::Lt(rst, zero));
    xl = hn::Mul(hn::PromoteTo(dd, hn::LowerHalf(dh, rst)), g);
    xh = hn::Mul(hn::PromoteTo(dd, hn::UpperHalf(dh, rst)), g);
    lim = hn::Combine(d, hn::DemoteTo(dh, hn::IfThenElse(hn::Gt(xh, th), xh, th)),
                      hn::DemoteTo(dh, hn::IfThenElse(hn::Gt(xl, tl), xl, tl)));
    return hn::IfThenElse(neg, lim, rst);
  }
}

template <bool kFloatGain>
HWY_INLINE void DecoupleVec(const V* o, const V* t, V cos_sq, float glf, double gl, int cpu, V* rst, V* add) {
  const D d;
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
  const V eps = hn::Set(d, static_cast<float>(1e-30));
  V k[3];
  for (int q = 0; q < 3; ++q) {
    k[q] = AdmDivide(t[q], hn::Add(o[q], eps), cpu);
    k[q] = hn::IfThenElse(hn::Lt(k[q], zero), zero, hn::IfThenElse(hn::Gt(k[q], one), one, k[q]));
  }
  const V ot_dp = hn::Add(hn::Mul(o[0], t[0]), hn::Mul(o[1], t[1]));
  const V o_mag_sq = hn::Add(hn::Mul(o[0], o[0]), hn::Mul(o[1], o[1]));
  const V t_mag_sq = hn::Add(hn::Mul(t[0], t[0]), hn::Mul(t[1], t[1]));
  const auto angle =
      hn::And(hn::Ge(ot_dp, zero), hn::Ge(hn::Mul(ot_dp, ot_dp), hn::Mul(hn::Mul(cos_sq, o_mag_sq), t_mag_sq)));
  for (int q = 0; q < 3; ++q) {
    rst[q] = GainLimit<kFloatGain>(hn::Mul(k[q], o[q]), t[q], angle, glf, gl);
    add[q] = hn::Sub(t[q], rst[q]);
  }
}

template <bool kFloatGain>
void DecoupleT(const float* const* o, const float* const* t, std::size_t l, std::size_t r, double gl, int cpu,
               float* const* rst, float* const* add) {
  const D d;
  const std::size_t n = hn::Lanes(d);
  const float glf = static_cast<float>(gl);
  const V cos_sq = hn::Set(d, static_cast<float>(std::cos(1.0 * M_PI / 180.0) * std::cos(1.0 * M_PI / 180.0)));
  const auto one = [&](std::size_t j) {
    V ov[3], tv[3], rv[3], av[3];
    for (int q = 0; q < 3; ++q) {
      ov[q] = hn::LoadU(d, o[q] + j);
      tv[q] = hn::LoadU(d, t[q] + j);
    }
    DecoupleVec<kFloatGain>(ov, tv, cos_sq, glf, gl, cpu, rv, av);
    for (int q = 0; q < 3; ++q) {
      hn::StoreU(rv[q], d, rst[q] + j);
      hn::StoreU(av[q], d, add[q] + j);
    }
  };
  if (r - l < n) {
    HWY_ALIGN float in[6][kMax] = {}, out[6][kMax];
    for (int q = 0; q < 3; ++q) {
      std::memcpy(in[q], o[q] + l, (r - l) * sizeof(float));
      std::memcpy(in[3 + q], t[q] + l, (r - l) * sizeof(float));
    }
    V ov[3], tv[3], rv[3], av[3];
    for (int q = 0; q < 3; ++q) {
      ov[q] = hn::Load(d, in[q]);
      tv[q] = hn::Load(d, in[3 + q]);
    }
    DecoupleVec<kFloatGain>(ov, tv, cos_sq, glf, gl, cpu, rv, av);
    for (int q = 0; q < 3; ++q) {
      hn::Store(rv[q], d, out[q]);
      hn::Store(av[q], d, out[3 + q]);
      std::memcpy(rst[q] + l, out[q], (r - l) * sizeof(float));
      std::memcpy(add[q] + l, out[3 + q], (r - l) * sizeof(float));
    }
    return;
  }
  std::size_t j = l;
  for (; j + n <= r; j += n) one(j);
  if (j < r) one(r - n);
}

void DecoupleRow(const float* const* o, const float* const* t, int l, int r, double gain_limit, int cpu,
                 float* const* rst, float* const* add) {
  if (static_cast<double>(static_cast<float>(gain_limit)) == gain_limit)
    DecoupleT<true>(o, t, std::size_t(l), std::size_t(r), gain_limit, cpu, rst, add);
  else
    DecoupleT<false>(o, t, std::size_t(l), std::size_t(r), gain_limit, cpu, rst, add);
}

// ----------------------------------------------------------------------- CSF

HWY_INLINE void CsfVec(V s, float rf, V* dst, V* flt) {
  using DH = hn::Half<D>;
  using DD = hn::Rebind<double, DH>;
  const D d;
  const DH dh;
  const DD dd;
  const V v = hn::Mul(hn::Set(d, rf), s);
  const V a = hn::Abs(v);
  const auto c = hn::Set(dd, VMAFX_FADM_ONE_BY_30);
  *dst = v;
  *flt = hn::Combine(d, hn::DemoteTo(dh, hn::Mul(c, hn::PromoteTo(dd, hn::UpperHalf(dh, a)))),
                     hn::DemoteTo(dh, hn::Mul(c, hn::PromoteTo(dd, hn::LowerHalf(dh, a)))));
}

void CsfRow(const float* src, float rf, int left, int right, float* dst, float* flt) {
  const D d;
  const std::size_t n = hn::Lanes(d), l = std::size_t(left), r = std::size_t(right);
  const auto one = [&](std::size_t j) {
    V a, b;
    CsfVec(hn::LoadU(d, src + j), rf, &a, &b);
    hn::StoreU(a, d, dst + j);
    hn::StoreU(b, d, flt + j);
  };
  if (r - l < n) {
    HWY_ALIGN float in[kMax] = {}, out[2][kMax];
    std::memcpy(in, src + l, (r - l) * sizeof(float));
    V a, b;
    CsfVec(hn::Load(d, in), rf, &a, &b);
    hn::Store(a, d, out[0]);
    hn::Store(b, d, out[1]);
    std::memcpy(dst + l, out[0], (r - l) * sizeof(float));
    std::memcpy(flt + l, out[1], (r - l) * sizeof(float));
    return;
  }
  std::size_t j = l;
  for (; j + n <= r; j += n) one(j);
  if (j < r) one(r - n);
}
// --------------------------------------------------------------- p-norm sums

// Runs terms(j, out[3]) (three vectors of terms for columns j .. j + N - 1)
// over l <= j < r (r - l >= N) and adds them to three running float sums in
// column order. Chunks of kChunk columns: chunk c's terms are stored while
// chunk c - 1's are added between its vectors (the adds are three dependency
// chains; the vector work in between does not depend on them). The last
// vector of the range is moved back to end at r; the columns it recomputes
// are stored again with the same values and added once.
template <class Terms>
HWY_INLINE void Sum3(std::size_t l, std::size_t r, const Terms& terms, float* sum) {
  const D d;
  const std::size_t n = hn::Lanes(d);
  constexpr std::size_t kChunk = 256;
  HWY_ALIGN float buf[2][3][kMax + kChunk];
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f;
  std::size_t prev_len = 0;
  int cur = 0;
  const auto store = [&](std::size_t j, std::size_t j0) {
    V t[3];
    terms(j, t);
    for (int q = 0; q < 3; ++q) hn::StoreU(t[q], d, buf[cur][q] + (kMax + j - j0));
  };
  for (std::size_t j0 = l; j0 < r; j0 += kChunk, cur ^= 1) {
    const std::size_t end = j0 + kChunk < r ? j0 + kChunk : r;
    const float* p0 = buf[cur ^ 1][0] + kMax;
    const float* p1 = buf[cur ^ 1][1] + kMax;
    const float* p2 = buf[cur ^ 1][2] + kMax;
    std::size_t added = 0, j = j0;
    for (; j + n <= end; j += n) {
      store(j, j0);
      const std::size_t stop = added + n < prev_len ? added + n : prev_len;
      for (; added < stop; ++added) {
        s0 += p0[added];
        s1 += p1[added];
        s2 += p2[added];
      }
    }
    if (j < end) store(end - n, j0);
    for (; added < prev_len; ++added) {
      s0 += p0[added];
      s1 += p1[added];
      s2 += p2[added];
    }
    prev_len = end - j0;
  }
  const float* p0 = buf[cur ^ 1][0] + kMax;
  const float* p1 = buf[cur ^ 1][1] + kMax;
  const float* p2 = buf[cur ^ 1][2] + kMax;
  for (std::size_t a = 0; a < prev_len; ++a) {
    s0 += p0[a];
    s1 += p1[a];
    s2 += p2[a];
  }
  sum[0] = s0;
  sum[1] = s1;
  sum[2] = s2;
}

HWY_INLINE V Cube(V x) { return hn::Mul(hn::Mul(x, x), x); }

void DenRow(const float* const* rows, const float* rf, int l, int r, float* sum) {
  const D d;
  const V f0 = hn::Set(d, rf[0]), f1 = hn::Set(d, rf[1]), f2 = hn::Set(d, rf[2]);
  Sum3(
      std::size_t(l), std::size_t(r),
      [&](std::size_t j, V* t) {
        t[0] = Cube(hn::Abs(hn::Mul(f0, hn::LoadU(d, rows[0] + j))));
        t[1] = Cube(hn::Abs(hn::Mul(f1, hn::LoadU(d, rows[1] + j))));
        t[2] = Cube(hn::Abs(hn::Mul(f2, hn::LoadU(d, rows[2] + j))));
      },
      sum);
}

// The threshold of masked_norm at columns j .. j + N - 1 (no border column):
// per orientation the 3x3 sum in the scalar order, its centre replaced by
// float(sum + one_by_15 * |ang|) in double; the three added to thr from 0.
HWY_INLINE V Threshold(const float* const* fu, const float* const* fm, const float* const* fd, const float* const* ang,
                       std::size_t j) {
  using DH = hn::Half<D>;
  using DD = hn::Rebind<double, DH>;
  const D d;
  const DH dh;
  const DD dd;
  const auto c15 = hn::Set(dd, VMAFX_FADM_ONE_BY_15);
  V thr = hn::Zero(d);
  for (int q = 0; q < 3; ++q) {
    V sum = hn::Add(hn::Zero(d), hn::LoadU(d, fu[q] + j - 1));
    sum = hn::Add(sum, hn::LoadU(d, fu[q] + j));
    sum = hn::Add(sum, hn::LoadU(d, fu[q] + j + 1));
    sum = hn::Add(sum, hn::LoadU(d, fm[q] + j - 1));
    const V a = hn::Abs(hn::LoadU(d, ang[q] + j));
    const auto lo =
        hn::Add(hn::PromoteTo(dd, hn::LowerHalf(dh, sum)), hn::Mul(c15, hn::PromoteTo(dd, hn::LowerHalf(dh, a))));
    const auto hi =
        hn::Add(hn::PromoteTo(dd, hn::UpperHalf(dh, sum)), hn::Mul(c15, hn::PromoteTo(dd, hn::UpperHalf(dh, a))));
    sum = hn::Combine(d, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
    sum = hn::Add(sum, hn::LoadU(d, fm[q] + j + 1));
    sum = hn::Add(sum, hn::LoadU(d, fd[q] + j - 1));
    sum = hn::Add(sum, hn::LoadU(d, fd[q] + j));
    sum = hn::Add(sum, hn::LoadU(d, fd[q] + j + 1));
    thr = hn::Add(thr, sum);
  }
  return thr;
}

void MaskedRow(const float* const* src, const float* const* fu, const float* const* fm, const float* const* fd,
               const float* const* ang, const float* rf, int l, int r, bool bypass, float* sum) {
  const D d;
  const V zero = hn::Zero(d);
  const V f[3] = {hn::Set(d, rf[0]), hn::Set(d, rf[1]), hn::Set(d, rf[2])};
  Sum3(
      std::size_t(l), std::size_t(r),
      [&](std::size_t j, V* t) {
        const V thr = bypass ? zero : Threshold(fu, fm, fd, ang, j);
        for (int q = 0; q < 3; ++q) {
          V x = hn::Sub(hn::Abs(hn::Mul(hn::LoadU(d, src[q] + j), f[q])), thr);
          x = hn::IfThenElse(hn::Lt(x, zero), zero, x);
          t[q] = Cube(x);
        }
      },
      sum);
}

void RcpN(const float* x, int count, int cpu, float* out) {
  const D d;
  const std::size_t n = hn::Lanes(d);
  HWY_ALIGN float buf[kMax];
  for (std::size_t i = 0; i < std::size_t(count); i += n) {
    const std::size_t m = std::size_t(count) - i < n ? std::size_t(count) - i : n;
    std::memset(buf, 0, sizeof buf);
    std::memcpy(buf, x + i, m * sizeof(float));
    hn::Store(RcpEstimate(hn::Load(d, buf), RcpTable(cpu), RcpShift(cpu)), d, buf);
    std::memcpy(out + i, buf, m * sizeof(float));
  }
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace HWY_NAMESPACE
}  // namespace vmafx::fadm::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmafx::fadm::simd {

HWY_EXPORT(Lanes);
HWY_EXPORT(DwtV);
HWY_EXPORT(DwtH);
HWY_EXPORT(DecoupleRow);
HWY_EXPORT(CsfRow);
HWY_EXPORT(DenRow);
HWY_EXPORT(MaskedRow);
HWY_EXPORT(RcpN);

std::size_t lanes() { return HWY_DYNAMIC_DISPATCH(Lanes)(); }
void rcp_estimate_n(const float* x, int n, LibvmafCpu cpu, float* out) {
  HWY_DYNAMIC_DISPATCH(RcpN)(x, n, static_cast<int>(cpu), out);
}

}  // namespace vmafx::fadm::simd

namespace vmafx::fadm {

// Each slot dispatches at call time, so a target forced by the tests holds;
// where a stage has no vector path (fewer columns than a vector, p != 3, a
// mirrored column) the scalar row runs.
void init_simd_rows(Rows& r) {
  using namespace simd;  // NOLINT: the dispatch tables' names
  r.dwt_vertical = [](const float* const* rw, int w, float* lo_out, float* hi_out) {
    HWY_DYNAMIC_DISPATCH(DwtV)(rw, w, lo_out, hi_out);
  };
  r.dwt_horizontal = [](const float* tlo, const float* thi, int j0, int j1, float* a, float* v, float* h, float* d) {
    if (j1 - j0 < int(lanes())) return scalar_rows().dwt_horizontal(tlo, thi, j0, j1, a, v, h, d);
    HWY_DYNAMIC_DISPATCH(DwtH)(tlo, thi, j0, j1, a, v, h, d);
  };
  r.decouple = [](const float* const* o, const float* const* t, int l, int rt, double gain_limit, LibvmafCpu cpu,
                  float* const* rst, float* const* add) {
    if (rt <= l) return;
    HWY_DYNAMIC_DISPATCH(DecoupleRow)(o, t, l, rt, gain_limit, static_cast<int>(cpu), rst, add);
  };
  r.csf = [](const float* src, float rf, int l, int rt, float* dst, float* flt) {
    HWY_DYNAMIC_DISPATCH(CsfRow)(src, rf, l, rt, dst, flt);
  };
  r.den = [](const float* const* rows, const float* rf, int l, int rt, double p_norm, float* sum) {
    if (p_norm != 3.0 || rt - l < int(lanes())) return scalar_rows().den(rows, rf, l, rt, p_norm, sum);
    HWY_DYNAMIC_DISPATCH(DenRow)(rows, rf, l, rt, sum);
  };
  r.masked = [](const float* const* src, const float* const* fu, const float* const* fm, const float* const* fd,
                const float* const* ang, const float* rf, int l, int rt, int w, bool bypass, double p_norm,
                float* sum) {
    if (p_norm != 3.0 || l < 1 || rt > w - 1 || rt - l < int(lanes()))
      return scalar_rows().masked(src, fu, fm, fd, ang, rf, l, rt, w, bypass, p_norm, sum);
    HWY_DYNAMIC_DISPATCH(MaskedRow)(src, fu, fm, fd, ang, rf, l, rt, bypass, sum);
  };
}

}  // namespace vmafx::fadm
#endif  // HWY_ONCE

#else  // !VMAFX_HAVE_HWY

#include <cstdlib>

namespace vmafx::fadm::simd {
std::size_t lanes() { std::abort(); }
void rcp_estimate_n(const float*, int, LibvmafCpu, float*) { std::abort(); }
}  // namespace vmafx::fadm::simd

#endif  // VMAFX_HAVE_HWY
