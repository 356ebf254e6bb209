// SPDX-License-Identifier: BSD-3-Clause
// Integer ADM, the scalar reference. Every integer width, shift, rounding
// constant and float/double conversion below follows libvmaf 3.2.0's plain C
// code (integer_adm.c), including its wrap-arounds: int16 stores wrap, int32
// sums wrap (done here through unsigned arithmetic, which C++20 defines), and
// out-of-range double -> unsigned conversions behave as gcc's x86-64 code does.
//
// Every sample goes through exact/adm.h, the arithmetic the CUDA and OpenCL
// twins call too. The stages run their rows through a table (adm_rows.hpp):
// the scalar rows below are the reference; when vmafx::simd::enabled()
// (Highway built in, a SIMD CPU, VMAFX_SIMD not "off") feature/adm_simd.cpp's
// rows, which compute the same integers, floats and doubles, take their place.
#include "feature/adm.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>
#include <string>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include "core/error.hpp"
#include "feature/adm_rows.hpp"
#include "core/simd.hpp"
#include "exact/adm.h"

namespace vmafx {
namespace adm {

namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

// (uint32_t)x as gcc compiles it on x86-64: cvttsd2si to int64, low 32 bits.
std::uint32_t to_u32(double x) {
  const std::int64_t v = (x > -9223372036854775808.0 && x < 9223372036854775808.0)
                             ? static_cast<std::int64_t>(x)
                             : std::numeric_limits<std::int64_t>::min();
  return static_cast<std::uint32_t>(v);
}

// ceil(log2(n)) for n >= 1, as libvmaf's ceil(log2(n)) on an integer gives.
std::int32_t ceil_log2(std::int64_t n) {
  return static_cast<std::int32_t>(std::bit_width(static_cast<std::uint64_t>(n - 1)));
}

// The region scored by the denominator and the masking stage.
Region score_region(int w, int h) {
  const int left = static_cast<int>(w * VMAFX_ADM_BORDER_FACTOR - 0.5);
  const int top = static_cast<int>(h * VMAFX_ADM_BORDER_FACTOR - 0.5);
  return {top, h - top, left, w - left};
}

// The region computed by the decouple and CSF stages (one more sample for the
// 3x3 masking filter), clamped to the band.
Region filter_region(int w, int h) {
  int left = static_cast<int>(w * VMAFX_ADM_BORDER_FACTOR - 0.5 - 1);
  int top = static_cast<int>(h * VMAFX_ADM_BORDER_FACTOR - 0.5 - 1);
  int right = w - left + 2;
  int bottom = h - top + 2;
  if (left < 0) left = 0;
  if (right > w) right = w;
  if (top < 0) top = 0;
  if (bottom > h) bottom = h;
  return {top, bottom, left, right};
}

float den_from_sums(const std::uint64_t acc[3], double shift_csf, const float rf[3], int area, double noise_weight) {
  const float third = 1.0f / 3.0f;
  const float powf_add = ::powf(static_cast<float>(static_cast<double>(area) * noise_weight), third);
  float den[3];
  for (int t = 0; t < 3; ++t) {
    const double csf = (static_cast<double>(acc[t]) / shift_csf) * std::pow(static_cast<double>(rf[t]), 3.0);
    den[t] = ::powf(static_cast<float>(csf), third) + powf_add;
  }
  return den[0] + den[1] + den[2];
}

float cm_from_sums_s0(const std::int64_t acc[3], const std::uint32_t shift_cub[3], std::uint32_t shift_rows, int area,
                      double noise_weight) {
  const float third = 1.0f / 3.0f;
  const float noise = ::powf(static_cast<float>(static_cast<double>(area) * noise_weight), third);
  float num[3];
  for (int t = 0; t < 3; ++t) {
    const std::uint32_t e = static_cast<std::uint32_t>(vmafx_adm_s0_num_exp[t]) - shift_cub[t] - shift_rows;
    const float f = static_cast<float>(static_cast<double>(acc[t]) / std::pow(2.0, static_cast<double>(e)));
    num[t] = ::powf(f, third) + noise;
  }
  return num[0] + num[1] + num[2];
}

float cm_from_sums_s123(const std::int64_t acc[3], float final_shift, int area, double noise_weight) {
  const float third = 1.0f / 3.0f;
  const float noise = ::powf(static_cast<float>(static_cast<double>(area) * noise_weight), third);
  float num[3];
  for (int t = 0; t < 3; ++t) {
    const float f = static_cast<float>(acc[t]) / final_shift;
    num[t] = ::powf(f, third) + noise;
  }
  return num[0] + num[1] + num[2];
}

void finish(Scores& s, double num, double den, double aim_num, int width, int height, const Params& p) {
  const double numden_limit = 1e-10 * (width * height) / (1920.0 * 1080.0);
  num = num < numden_limit ? 0 : num;
  den = den < numden_limit ? 0 : den;
  if (den == 0.0) {
    s.adm2 = 1.0f;
    s.aim = 0.0;  // libvmaf leaves it uninitialised
  } else {
    s.aim = aim_num / den;
    s.adm2 = num / den;
  }
  s.num = num;
  s.den = den;
  const double adm3 = s.adm2 * p.dlm_weight + (1 - s.aim) * (1 - p.dlm_weight);
  s.adm3 = adm3 > p.min_val ? adm3 : p.min_val;
}

ScaleConsts scale_consts(int scale, int w, int h) {
  ScaleConsts c{};
  c.score = score_region(w, h);
  const Region& g = c.score;
  c.area = (g.bottom - g.top) * (g.right - g.left);
  if (scale == 0) {
    std::int32_t shift_accum =
        ceil_log2(static_cast<std::int64_t>(g.bottom - g.top) * (g.right - g.left)) - VMAFX_ADM_S0_DEN_AREA_BIAS;
    shift_accum = shift_accum > 0 ? shift_accum : 0;
    c.den_shift = shift_accum;
    c.den_add = shift_accum > 0 ? (std::uint64_t{1} << (shift_accum - 1)) : 0;
    c.den_csf = std::pow(2.0, static_cast<double>(VMAFX_ADM_S0_DEN_EXP - shift_accum));
    for (int t = 0; t < 3; ++t) {
      c.cm_shift[t] = static_cast<std::uint32_t>(ceil_log2(w) - vmafx_adm_s0_cub_bias[t]);  // w >= 17: >= 1
      c.cm_add[t] = to_u32(std::pow(2.0, static_cast<double>(c.cm_shift[t] - 1u)));
    }
  } else {
    c.den_sq_shift = vmafx_adm_s123_den_sq_shift[scale - 1];
    const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(g.right - g.left));
    c.den_cub_shift = static_cast<int>(shift_cub);
    c.den_cub_add = to_u32(std::pow(2.0, static_cast<double>(shift_cub - 1u)));
    const std::uint32_t shift_accum = static_cast<std::uint32_t>(ceil_log2(g.bottom - g.top));
    c.den_shift = static_cast<int>(shift_accum);
    c.den_add = to_u32(std::pow(2.0, static_cast<double>(shift_accum - 1u)));
    // Unsigned exponent, as in libvmaf.
    const std::uint32_t e = static_cast<std::uint32_t>(vmafx_adm_s123_den_exp[scale - 1]) - shift_accum - shift_cub;
    c.den_csf = std::pow(2.0, static_cast<double>(e));
    const std::uint32_t cm_cub = static_cast<std::uint32_t>(ceil_log2(w));
    for (int t = 0; t < 3; ++t) {
      c.cm_shift[t] = cm_cub;
      c.cm_add[t] = to_u32(std::pow(2.0, static_cast<double>(cm_cub - 1u)));
    }
  }
  c.row_shift = static_cast<std::uint32_t>(ceil_log2(h));
  c.row_add = to_u32(std::pow(2.0, static_cast<double>(c.row_shift - 1u)));
  if (scale > 0)
    c.cm_final_shift = static_cast<float>(
        std::pow(2.0, static_cast<double>(static_cast<std::uint32_t>(vmafx_adm_s123_num_exp[scale - 1]) -
                                          c.cm_shift[0] - c.row_shift)));
  return c;
}

float den_scale(const ScaleConsts& c, const std::uint64_t acc[3], const float rf[3], double noise_weight) {
  return den_from_sums(acc, c.den_csf, rf, c.area, noise_weight);
}

float cm_scale(int scale, const ScaleConsts& c, const std::int64_t acc[3], double noise_weight) {
  if (scale == 0) return cm_from_sums_s0(acc, c.cm_shift, c.row_shift, c.area, noise_weight);
  return cm_from_sums_s123(acc, c.cm_final_shift, c.area, noise_weight);
}

Scores scores_from_totals(const Params& p, const Factors& f, int width, int height, const std::int64_t totals[36]) {
  Scores out;
  double num = 0, den = 0, aim_num = 0;
  int w = width, h = height;
  for (int scale = 0; scale < 4; ++scale) {
    w = (w + 1) / 2;
    h = (h + 1) / 2;
    float num_scale = 0.0f, den_scale_v = 0.0f, aim_scale = 0.0f;
    if (scale == 0 && p.skip_scale0) {
      den_scale_v = 1e-10f;
    } else {
      const ScaleConsts c = scale_consts(scale, w, h);
      const std::int64_t* a = totals + 9 * scale;
      const std::uint64_t dacc[3] = {static_cast<std::uint64_t>(a[0]), static_cast<std::uint64_t>(a[1]),
                                     static_cast<std::uint64_t>(a[2])};
      den_scale_v = den_scale(c, dacc, f.rfactor[scale], p.noise_weight);
      num_scale = cm_scale(scale, c, a + 3, p.noise_weight);
      if (!p.skip_aim) aim_scale = cm_scale(scale, c, a + 6, 0.0);
    }
    num += num_scale;
    den += den_scale_v;
    aim_num += aim_scale;
    out.num_scale[scale] = num_scale;
    out.den_scale[scale] = den_scale_v;
  }
  finish(out, num, den, aim_num, width, height, p);
  return out;
}

// cos(1 degree)^2, computed in double and stored as float.
const float kCos1DegSq = static_cast<float>(std::cos(1.0 * kPi / 180.0) * std::cos(1.0 * kPi / 180.0));

namespace {

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

// (uint16_t)x as gcc compiles it on x86-64: cvttsd2si to int32 (INT32_MIN when
// out of range or NaN), keep the low 16 bits.
std::uint16_t to_u16(double x) {
  const std::int32_t v =
      (x > -2147483649.0 && x < 2147483648.0) ? static_cast<std::int32_t>(x) : std::numeric_limits<std::int32_t>::min();
  return static_cast<std::uint16_t>(v);
}

// The division table (exact/adm.h's vmafx_adm_div at [i + 32768]).
struct DivLookup {
  std::int32_t v[VMAFX_ADM_DIV_LOOKUP_SIZE];
  DivLookup() {
    for (int i = -32768; i <= 32768; ++i) v[i + 32768] = vmafx_adm_div(i);
  }
};
const DivLookup kDiv;

// ---------------------------------------------------------------------------
// CSF factors
// ---------------------------------------------------------------------------

float watson_quant_step(int lambda, int theta, double nvd, int rdh) {
  const float a = static_cast<float>(VMAFX_ADM_WATSON_A);
  const float k = static_cast<float>(VMAFX_ADM_WATSON_K);
  const float f0 = static_cast<float>(VMAFX_ADM_WATSON_F0);
  const float r = static_cast<float>(nvd * rdh * kPi / 180.0);
  const float temp =
      static_cast<float>(std::log10(std::pow(2.0, lambda + 1) * static_cast<double>(f0) *
                                    static_cast<double>(vmafx_adm_watson_g[theta]) / static_cast<double>(r)));
  const float kt2 = k * temp * temp;  // float
  const float q = static_cast<float>(2.0 * static_cast<double>(a) * std::pow(10.0, static_cast<double>(kt2)) /
                                     static_cast<double>(vmafx_adm_watson_amp[lambda][theta]));
  return q;
}

float lerp_f(float lp, float lv, float rp, float rv, float sp) { return lv + ((rv - lv) / (rp - lp)) * (sp - lp); }

float barten_mtf(float sf) {
  float mtf = 0.0f;
  for (int i = 0; i < 4; ++i) {
    const float e = -vmafx_adm_barten_mtf_b[i] * sf;
    mtf = static_cast<float>(static_cast<double>(mtf) +
                             static_cast<double>(vmafx_adm_barten_mtf_a[i]) * std::exp(static_cast<double>(e)));
  }
  return mtf;
}

float barten_rod_cone_sens(float lum) {
  const float drop = vmafx_adm_barten_sa[1];
  const float slope = vmafx_adm_barten_sa[2];
  const float low = vmafx_adm_barten_sa[3];
  const double inner = std::pow(static_cast<double>(drop / lum), static_cast<double>(slope)) + 1;
  return static_cast<float>(static_cast<double>(vmafx_adm_barten_sa[0]) * std::pow(inner, static_cast<double>(-low)));
}

float barten_csf(int lambda, double nvd, int rdh, double lum, double scale) {
  const float r = static_cast<float>(nvd * rdh * kPi / 180.0);
  const float sf = static_cast<float>(static_cast<double>(r) / std::pow(2.0, lambda + 1));
  const double lo = vmafx_adm_barten_lum_anchor[0], hi = vmafx_adm_barten_lum_anchor[5];
  const double clamped = lum > hi ? hi : (lum < lo ? lo : lum);
  int li = 0, ri = 0;
  for (int i = 0; i < 5; ++i) {
    if (clamped >= vmafx_adm_barten_lum_anchor[i] && clamped <= vmafx_adm_barten_lum_anchor[i + 1]) {
      li = i;
      ri = i + 1;
      break;
    }
  }
  const float lp = static_cast<float>(std::log10(static_cast<double>(vmafx_adm_barten_lum_anchor[li])));
  const float rp = static_cast<float>(std::log10(static_cast<double>(vmafx_adm_barten_lum_anchor[ri])));
  const float sp = static_cast<float>(std::log10(clamped));
  float p[4];
  for (int k = 0; k < 4; ++k)
    p[k] = lerp_f(lp, vmafx_adm_barten_params[li][k + 1], rp, vmafx_adm_barten_params[ri][k + 1], sp);
  const float a = static_cast<float>(1.0f + std::pow(static_cast<double>(p[0] * sf), static_cast<double>(p[1])));
  const double sf7 = static_cast<double>(sf / 7);
  const float b = static_cast<float>(1.0f / std::pow(1 - std::exp(-std::pow(sf7, 2.0)), static_cast<double>(p[2])));
  const float csf = static_cast<float>(static_cast<double>(p[3]) / std::pow(static_cast<double>(a * b), 0.5));
  const float prod = csf * barten_mtf(sf) * barten_rod_cone_sens(static_cast<float>(lum));
  return static_cast<float>(static_cast<double>(prod) * scale);
}

// Index into the blend tables, or -1 when libvmaf has none (it then uses -EINVAL
// as the factor, which gives NaN scores).
int blend_table(double nvd, int rdh) {
  if (rdh == 1080 && nvd == 3.0) return 0;
  if (rdh == 1080 && nvd == 5.0) return 1;
  if (rdh == 2160 && nvd == 1.5) return 0;
  if (rdh == 2160 && nvd == 3.0) return 2;
  if (rdh == 2160 && nvd == 5.0) return 3;
  if (rdh == 720 && nvd == 3.0) return 4;
  if (rdh == 720 && nvd == 5.0) return 5;
  if (rdh == 480 && nvd == 3.0) return 6;
  if (rdh == 480 && nvd == 5.0) return 7;
  return -1;
}

// ---------------------------------------------------------------------------
// The scalar rows (scalar_rows(): the reference; adm_simd.cpp's rows compute
// the same). Every sample goes through exact/adm.h, as in the twins.
// ---------------------------------------------------------------------------

// The DWT's two passes for one output row (the column taps mirrored as the
// rows are). The vertical sums are int64: libvmaf's int32 sum may wrap for
// 16-bit input, but its final value fits, so the results are the same.
template <class Pel>
void dwt_s0_row(const Pel* const r[4], int w, int bpc, bool lo_only, std::int16_t* oa, std::int16_t* ov,
                std::int16_t* oh, std::int16_t* od) {
  thread_local std::vector<std::int16_t> tmp;
  if (tmp.size() < 2 * static_cast<std::size_t>(w)) tmp.resize(2 * static_cast<std::size_t>(w));
  std::int16_t* lo = tmp.data();
  std::int16_t* hi = lo + w;
  for (int j = 0; j < w; ++j) {
    lo[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_vlo(r[0][j], r[1][j], r[2][j], r[3][j], bpc));
    if (!lo_only) hi[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_vhi(r[0][j], r[1][j], r[2][j], r[3][j], bpc));
  }
  for (int j = 0; j < (w + 1) / 2; ++j) {
    const int x0 = vmafx_adm_dwt_src(j, 0, w), x1 = vmafx_adm_dwt_src(j, 1, w);
    const int x2 = vmafx_adm_dwt_src(j, 2, w), x3 = vmafx_adm_dwt_src(j, 3, w);
    oa[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_hlo(lo[x0], lo[x1], lo[x2], lo[x3]));
    if (lo_only) continue;
    ov[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_hhi(lo[x0], lo[x1], lo[x2], lo[x3]));
    oh[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_hlo(hi[x0], hi[x1], hi[x2], hi[x3]));
    od[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_hhi(hi[x0], hi[x1], hi[x2], hi[x3]));
  }
}

template <class In>
void dwt_s123_row(const In* const r[4], int w, int scale, std::int32_t* oa, std::int32_t* ov, std::int32_t* oh,
                  std::int32_t* od) {
  thread_local std::vector<std::int32_t> tmp;
  if (tmp.size() < 2 * static_cast<std::size_t>(w)) tmp.resize(2 * static_cast<std::size_t>(w));
  std::int32_t* lo = tmp.data();
  std::int32_t* hi = lo + w;
  const std::int64_t vr = vmafx_adm_s123_v_round[scale - 1], hr = vmafx_adm_s123_h_round[scale - 1];
  const int vs = vmafx_adm_s123_v_shift[scale - 1], hs = vmafx_adm_s123_h_shift[scale - 1];
  for (int j = 0; j < w; ++j) {
    lo[j] = vmafx_adm_dwt123_lo(r[0][j], r[1][j], r[2][j], r[3][j], vr, vs);
    hi[j] = vmafx_adm_dwt123_hi(r[0][j], r[1][j], r[2][j], r[3][j], vr, vs);
  }
  for (int j = 0; j < (w + 1) / 2; ++j) {
    const int x0 = vmafx_adm_dwt_src(j, 0, w), x1 = vmafx_adm_dwt_src(j, 1, w);
    const int x2 = vmafx_adm_dwt_src(j, 2, w), x3 = vmafx_adm_dwt_src(j, 3, w);
    oa[j] = vmafx_adm_dwt123_lo(lo[x0], lo[x1], lo[x2], lo[x3], hr, hs);
    ov[j] = vmafx_adm_dwt123_hi(lo[x0], lo[x1], lo[x2], lo[x3], hr, hs);
    oh[j] = vmafx_adm_dwt123_lo(hi[x0], hi[x1], hi[x2], hi[x3], hr, hs);
    od[j] = vmafx_adm_dwt123_hi(hi[x0], hi[x1], hi[x2], hi[x3], hr, hs);
  }
}

// The angle flag of column j from the h and v bands.
template <class T>
int angle_at(const T* const o[3], const T* const t[3], int j, float cos1_sq) {
  return vmafx_adm_angle_ok(vmafx_adm_dot2(o[0][j], t[0][j], o[1][j], t[1][j]),
                            vmafx_adm_dot2(o[0][j], o[0][j], o[1][j], o[1][j]),
                            vmafx_adm_dot2(t[0][j], t[0][j], t[1][j], t[1][j]), cos1_sq);
}

void decouple_s0_row(const std::int16_t* const o[3], const std::int16_t* const t[3], int n, const std::int32_t* lut,
                     float cos1_sq, double egl, std::int16_t* const r[3], std::int16_t* const a[3]) {
  for (int j = 0; j < n; ++j) {
    const int angle = angle_at(o, t, j, cos1_sq);
    for (int b = 0; b < 3; ++b) {
      const std::int16_t ob = o[b][j], tb = t[b][j];
      const std::int32_t rst = vmafx_adm_s0_restore(ob, tb, lut[ob + 32768], angle, egl);
      r[b][j] = static_cast<std::int16_t>(rst);
      a[b][j] = static_cast<std::int16_t>(tb - rst);
    }
  }
}

void decouple_s123_row(const std::int32_t* const o[3], const std::int32_t* const t[3], int n, float cos1_sq, double egl,
                       std::int32_t* const r[3], std::int32_t* const a[3]) {
  for (int j = 0; j < n; ++j) {
    const int angle = angle_at(o, t, j, cos1_sq);
    for (int b = 0; b < 3; ++b) {
      const std::int32_t ob = o[b][j], tb = t[b][j];
      int shift = 0;
      const std::int32_t idx = vmafx_adm_s123_div_index(ob, &shift);
      const std::int32_t rst = vmafx_adm_s123_restore(ob, tb, kDiv.v[idx + 32768], shift, angle, egl);
      r[b][j] = rst;
      a[b][j] = vmafx_adm_sub32(tb, rst);
    }
  }
}

void csf_s0_row(const std::int16_t* s, int n, std::int32_t factor, std::int32_t add, int shift, std::int16_t* o,
                std::int16_t* f) {
  for (int j = 0; j < n; ++j) {
    const std::int16_t d = static_cast<std::int16_t>((factor * s[j] + add) >> shift);
    o[j] = d;
    f[j] = static_cast<std::int16_t>(vmafx_adm_s0_flt(d));
  }
}

void csf_s123_row(const std::int32_t* s, int n, std::uint32_t factor, std::int32_t* o, std::int32_t* f) {
  for (int j = 0; j < n; ++j) {
    o[j] = vmafx_adm_s123_csf(s[j], factor);
    f[j] = vmafx_adm_s123_flt(o[j]);
  }
}

// The masking's per-sample steps by scale (the constants' type picks it).
std::int32_t csf_of(std::int16_t m, int t, const CmS0& k) { return vmafx_adm_s0_csf(m, t, k.factor[t]); }
std::int32_t csf_of(std::int32_t m, int t, const CmS123& k) { return vmafx_adm_s123_csf(m, k.factor[t]); }
std::int32_t flt_of(std::int32_t d, const CmS0&) { return vmafx_adm_s0_flt(d); }
std::int32_t flt_of(std::int32_t d, const CmS123&) { return vmafx_adm_s123_flt(d); }
std::int32_t centre_of(std::int32_t d, const CmS0&) { return vmafx_adm_s0_centre(d); }
std::int32_t centre_of(std::int32_t d, const CmS123&) { return vmafx_adm_s123_centre(d); }
std::int64_t term_of(std::int16_t s, int t, std::uint32_t thr, const CmS0& k) {
  return vmafx_adm_s0_cm_term(s, t, k.factor[t], thr, k.add_cub[t], k.shift_cub[t]);
}
std::int64_t term_of(std::int32_t s, int t, std::uint32_t thr, const CmS123& k) {
  return vmafx_adm_s123_cm_term(s, k.factor[t], thr, k.add_cub, k.shift_cub);
}
inline void add_wrap(std::int64_t& acc, std::int64_t v) {
  acc = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc) + static_cast<std::uint64_t>(v));
}

template <class T, class K>
void cm_box_row(const T* const m[3], const K& k, int lo, int hi, std::int32_t* F, std::int32_t* H, std::int32_t* Z) {
  if (hi <= lo) return;
  for (int j = lo - 1; j < hi + 1; ++j) {
    std::uint32_t f = 0, c = 0;
    for (int t = 0; t < 3; ++t) {
      const std::int32_t d = csf_of(m[t][j], t, k);
      f += static_cast<std::uint32_t>(flt_of(d, k));
      c += static_cast<std::uint32_t>(centre_of(d, k));
    }
    F[j] = static_cast<std::int32_t>(f);
    Z[j] = static_cast<std::int32_t>(c - f);
  }
  for (int j = lo; j < hi; ++j)
    H[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(F[j - 1]) + static_cast<std::uint32_t>(F[j]) +
                                     static_cast<std::uint32_t>(F[j + 1]));
}

template <class T, class K>
void cm_row(const T* const src[3], const CmBox& box, int left, int right, const K& k, std::int64_t inner[3]) {
  for (int j = left; j < right; ++j) {
    const std::uint32_t thr = static_cast<std::uint32_t>(box.hm[j]) + static_cast<std::uint32_t>(box.h0[j]) +
                              static_cast<std::uint32_t>(box.hp[j]) + static_cast<std::uint32_t>(box.z0[j]);
    for (int t = 0; t < 3; ++t) add_wrap(inner[t], term_of(src[t][j], t, thr, k));
  }
}

void den_s0_row(const std::int16_t* const b[3], int n, std::uint64_t inner[3]) {
  for (int j = 0; j < n; ++j)
    for (int t = 0; t < 3; ++t) inner[t] += vmafx_adm_s0_den(b[t][j]);
}

void den_s123_row(const std::int32_t* const b[3], int n, int sq_shift, std::uint64_t add_cub, int shift_cub,
                  std::uint64_t inner[3]) {
  for (int j = 0; j < n; ++j)
    for (int t = 0; t < 3; ++t) inner[t] += vmafx_adm_s123_den(b[t][j], sq_shift, add_cub, shift_cub);
}

Rows make_scalar_rows() {
  Rows r{};
  r.dwt_s0_8 = &dwt_s0_row<std::uint8_t>;
  r.dwt_s0_16 = &dwt_s0_row<std::uint16_t>;
  r.dwt_s123_16 = &dwt_s123_row<std::int16_t>;
  r.dwt_s123_32 = &dwt_s123_row<std::int32_t>;
  r.decouple_s0 = &decouple_s0_row;
  r.decouple_s123 = &decouple_s123_row;
  r.csf_s0 = &csf_s0_row;
  r.csf_s123 = &csf_s123_row;
  r.cm_box_s0 = &cm_box_row<std::int16_t, CmS0>;
  r.cm_box_s123 = &cm_box_row<std::int32_t, CmS123>;
  r.cm_s0 = &cm_row<std::int16_t, CmS0>;
  r.cm_s123 = &cm_row<std::int32_t, CmS123>;
  r.den_s0 = &den_s0_row;
  r.den_s123 = &den_s123_row;
  return r;
}

}  // namespace

const Rows& scalar_rows() {
  static const Rows r = make_scalar_rows();
  return r;
}

const Rows& rows() {
#if VMAFX_HAVE_HWY
  static const Rows fast = [] {
    Rows r = scalar_rows();
    init_simd_rows(r);
    return r;
  }();
  if (vmafx::simd::enabled()) return fast;
#endif
  return scalar_rows();
}

namespace {

// ---------------------------------------------------------------------------
// The stages: row loops over the bands, calling rows().
// ---------------------------------------------------------------------------

template <class T>
struct Bands {
  T* a;
  T* h;
  T* v;
  T* d;
};

// Scale 0: samples -> int16 bands (w x h input, (w+1)/2 x (h+1)/2 output).
template <class Pel>
void dwt_s0(const Rows& R, const PlaneView& src, int bpc, const Bands<std::int16_t>& out, int ostride, bool lo_only) {
  for (int i = 0; i < (src.height + 1) / 2; ++i) {
    const Pel* r[4];
    for (int k = 0; k < 4; ++k) r[k] = src.row<Pel>(vmafx_adm_dwt_src(i, k, src.height));
    const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * ostride;
    std::int16_t* ov = lo_only ? nullptr : out.v + o;
    std::int16_t* oh = lo_only ? nullptr : out.h + o;
    std::int16_t* od = lo_only ? nullptr : out.d + o;
    if constexpr (sizeof(Pel) == 1)
      R.dwt_s0_8(r, src.width, bpc, lo_only, out.a + o, ov, oh, od);
    else
      R.dwt_s0_16(r, src.width, bpc, lo_only, out.a + o, ov, oh, od);
  }
}

// Scales 1..3: the previous scale's approximation band (int16 after scale 0,
// int32 after) -> int32 bands.
template <class In>
void dwt_s123(const Rows& R, const In* src, int sstride, int w, int h, int scale, const Bands<std::int32_t>& out,
              int ostride) {
  for (int i = 0; i < (h + 1) / 2; ++i) {
    const In* r[4];
    for (int k = 0; k < 4; ++k) r[k] = src + static_cast<std::ptrdiff_t>(vmafx_adm_dwt_src(i, k, h)) * sstride;
    const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * ostride;
    if constexpr (sizeof(In) == 2)
      R.dwt_s123_16(r, w, scale, out.a + o, out.v + o, out.h + o, out.d + o);
    else
      R.dwt_s123_32(r, w, scale, out.a + o, out.v + o, out.h + o, out.d + o);
  }
}

// Decoupling over the filter region: split the distorted detail bands into
// the part explained by the reference (restored, r) and the additive
// impairment (a = dis - r). row(o3, t3, n, r3, a3) does one row.
template <class T, class Row>
void decouple(const Bands<T>& ref, const Bands<T>& dis, const Bands<T>& r, const Bands<T>& a, int w, int h, int stride,
              Row&& row) {
  const Region g = filter_region(w, h);
  for (int i = g.top; i < g.bottom; ++i) {
    const std::ptrdiff_t p = static_cast<std::ptrdiff_t>(i) * stride + g.left;
    const T* const o3[3] = {ref.h + p, ref.v + p, ref.d + p};
    const T* const t3[3] = {dis.h + p, dis.v + p, dis.d + p};
    T* const r3[3] = {r.h + p, r.v + p, r.d + p};
    T* const a3[3] = {a.h + p, a.v + p, a.d + p};
    row(o3, t3, g.right - g.left, r3, a3);
  }
}

// Denominator: the CSF-weighted energy of the reference bands over the score
// region, row(b3, n, inner) giving a row's sums, each rounded by
// (+ add) >> shift.
template <class T, class Row>
void den_rows(const Bands<T>& ref, const Region& g, int stride, std::uint64_t add, int shift, std::uint64_t acc[3],
              Row&& row) {
  for (int i = g.top; i < g.bottom; ++i) {
    const std::ptrdiff_t p = static_cast<std::ptrdiff_t>(i) * stride + g.left;
    const T* const b3[3] = {ref.h + p, ref.v + p, ref.d + p};
    std::uint64_t inner[3] = {0, 0, 0};
    row(b3, g.right - g.left, inner);
    for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add) >> shift;
  }
}

float den_s0(const Rows& R, const Bands<std::int16_t>& ref, int w, int h, int stride, const float rf[3],
             double noise_weight) {
  const ScaleConsts c = scale_consts(0, w, h);
  std::uint64_t acc[3] = {0, 0, 0};
  den_rows(ref, c.score, stride, c.den_add, c.den_shift, acc,
           [&](const std::int16_t* const b3[3], int n, std::uint64_t inner[3]) { R.den_s0(b3, n, inner); });
  return den_scale(c, acc, rf, noise_weight);
}

float den_s123(const Rows& R, const Bands<std::int32_t>& ref, int scale, int w, int h, int stride, const float rf[3],
               double noise_weight) {
  const ScaleConsts c = scale_consts(scale, w, h);
  std::uint64_t acc[3] = {0, 0, 0};
  den_rows(ref, c.score, stride, c.den_add, c.den_shift, acc,
           [&](const std::int32_t* const b3[3], int n, std::uint64_t inner[3]) {
             R.den_s123(b3, n, c.den_sq_shift, c.den_cub_add, c.den_cub_shift, inner);
           });
  return den_scale(c, acc, rf, noise_weight);
}

// ---------------------------------------------------------------------------
// Contrast masking: sum of |x|^3 of the CSF-weighted bands of `src` after
// subtracting a threshold from a 3x3 neighbourhood of the CSF-weighted
// masker. Borders mirror: -1 -> 1 and n -> n - 1. Where the score region
// leaves a column on each side (w >= 15), the rows cm_box / cm form the
// masker's CSF per sample; otherwise (narrow bands, whose columns mirror) the
// masker's CSF planes are stored first (csf rows) and read with mirroring.
// ---------------------------------------------------------------------------

// The masker's threshold sums (Rows::cm_box_*) of rows im, i, ip: each row's
// computed once and kept while the next rows need it (three slots;
// thread-local storage that grows once).
class BoxRows {
 public:
  BoxRows(const Rows& R, int w) : R_(R), w_(static_cast<std::size_t>(w)) {
    thread_local std::vector<std::int32_t> buf;
    if (buf.size() < 9 * w_) buf.resize(9 * w_);
    data_ = buf.data();
  }
  template <class T, class K>
  CmBox get(const T* const mb[3], std::ptrdiff_t stride, const K& k, int im, int i, int ip, int left, int right) {
    const int need[3] = {im, i, ip};
    int slot[3];
    for (int q = 0; q < 3; ++q) slot[q] = find(need[q]);
    for (int q = 0; q < 3; ++q) {
      if (slot[q] >= 0) continue;
      int s = 0;  // a slot none of the three rows holds (at most two are held)
      while (row_[s] == im || row_[s] == i || row_[s] == ip) ++s;
      const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(need[q]) * stride;
      const T* const m3[3] = {mb[0] + o, mb[1] + o, mb[2] + o};
      if constexpr (sizeof(T) == 2)
        R_.cm_box_s0(m3, k, left, right, F(s), H(s), Z(s));
      else
        R_.cm_box_s123(m3, k, left, right, F(s), H(s), Z(s));
      row_[s] = need[q];
      for (int r = q; r < 3; ++r)
        if (need[r] == need[q]) slot[r] = s;
    }
    return {H(slot[0]), H(slot[1]), H(slot[2]), Z(slot[1])};
  }

 private:
  int find(int r) const {
    for (int s = 0; s < 3; ++s)
      if (row_[s] == r) return s;
    return -1;
  }
  std::int32_t* F(int s) { return data_ + static_cast<std::size_t>(3 * s) * w_; }
  std::int32_t* H(int s) { return data_ + static_cast<std::size_t>(3 * s + 1) * w_; }
  std::int32_t* Z(int s) { return data_ + static_cast<std::size_t>(3 * s + 2) * w_; }
  const Rows& R_;
  std::size_t w_;
  std::int32_t* data_;
  int row_[3] = {-1, -1, -1};
};

// The masking sums of src against the masker msk into acc (each row's sums
// rounded by (+ add_rows) >> shift_rows); dst / flt: CSF planes for narrow
// bands.
template <class T, class K>
void cm_sums(const Rows& R, const Bands<T>& src, const Bands<T>& msk, const Bands<T>& dst, const Bands<T>& flt, int w,
             int h, int stride, const K& k, std::int64_t add_rows, int shift_rows, std::int64_t acc[3]) {
  const Region g = score_region(w, h);
  const T* const sb[3] = {src.h, src.v, src.d};
  const bool boxes = g.left >= 1 && g.right <= w - 1;
  if (!boxes) {  // the masker's CSF planes over the filter region
    const Region fr = filter_region(w, h);
    T* const m[3] = {msk.h, msk.v, msk.d};
    T* const o[3] = {dst.h, dst.v, dst.d};
    T* const f[3] = {flt.h, flt.v, flt.d};
    for (int t = 0; t < 3; ++t)
      for (int i = fr.top; i < fr.bottom; ++i) {
        const std::ptrdiff_t p = static_cast<std::ptrdiff_t>(i) * stride + fr.left;
        if constexpr (sizeof(T) == 2)
          R.csf_s0(m[t] + p, fr.right - fr.left, k.factor[t], k.csf_add[t], k.csf_shift[t], o[t] + p, f[t] + p);
        else
          R.csf_s123(m[t] + p, fr.right - fr.left, k.factor[t], o[t] + p, f[t] + p);
      }
  }
  const T* const ab[3] = {dst.h, dst.v, dst.d};
  const T* const fb[3] = {flt.h, flt.v, flt.d};
  const T* const mb[3] = {msk.h, msk.v, msk.d};
  BoxRows box(R, w);
  for (int i = g.top; i < g.bottom; ++i) {
    const int im = i == 0 ? 1 : i - 1;
    const int ip = i == h - 1 ? h - 1 : i + 1;
    const std::ptrdiff_t rm = static_cast<std::ptrdiff_t>(im) * stride;
    const std::ptrdiff_t r0 = static_cast<std::ptrdiff_t>(i) * stride;
    const std::ptrdiff_t rp = static_cast<std::ptrdiff_t>(ip) * stride;
    std::int64_t inner[3] = {0, 0, 0};
    if (boxes) {
      const T* const s3[3] = {sb[0] + r0, sb[1] + r0, sb[2] + r0};
      const CmBox bx = box.get(mb, stride, k, im, i, ip, g.left, g.right);
      if constexpr (sizeof(T) == 2)
        R.cm_s0(s3, bx, g.left, g.right, k, inner);
      else
        R.cm_s123(s3, bx, g.left, g.right, k, inner);
    } else {
      for (int j = g.left; j < g.right; ++j) {
        const int jm = j == 0 ? 1 : j - 1;
        const int jp = j == w - 1 ? w - 1 : j + 1;
        std::uint32_t thr = 0;
        for (int t = 0; t < 3; ++t) {
          const T* f = fb[t];
          thr += vmafx_adm_ring8(f[rm + jm], f[rm + j], f[rm + jp], f[r0 + jm], f[r0 + jp], f[rp + jm], f[rp + j],
                                 f[rp + jp]) +
                 static_cast<std::uint32_t>(centre_of(ab[t][r0 + j], k));
        }
        for (int t = 0; t < 3; ++t) add_wrap(inner[t], term_of(sb[t][r0 + j], t, thr, k));
      }
    }
    for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add_rows) >> shift_rows;
  }
}

float cm_s0(const Rows& R, const Bands<std::int16_t>& src, const Bands<std::int16_t>& msk,
            const Bands<std::int16_t>& dst, const Bands<std::int16_t>& flt, int w, int h, int stride,
            const std::uint16_t rf[3], double noise_weight) {
  const ScaleConsts c = scale_consts(0, w, h);
  CmS0 k{};
  for (int t = 0; t < 3; ++t) {
    k.factor[t] = rf[t];
    k.csf_add[t] = vmafx_adm_s0_csf_round[t];
    k.csf_shift[t] = vmafx_adm_s0_csf_shift[t];
    k.thr_shift[t] = vmafx_adm_s0_thr_shift[t];
    k.sq_round[t] = vmafx_adm_s0_sq_round[t];
    k.sq_shift[t] = vmafx_adm_s0_sq_shift[t];
    k.add_cub[t] = c.cm_add[t];
    k.shift_cub[t] = static_cast<int>(c.cm_shift[t]);
  }
  std::int64_t acc[3] = {0, 0, 0};
  cm_sums(R, src, msk, dst, flt, w, h, stride, k, c.row_add, static_cast<int>(c.row_shift), acc);
  return cm_scale(0, c, acc, noise_weight);
}

float cm_s123(const Rows& R, const Bands<std::int32_t>& src, const Bands<std::int32_t>& msk,
              const Bands<std::int32_t>& dst, const Bands<std::int32_t>& flt, int scale, int w, int h, int stride,
              const std::uint32_t rf[3], double noise_weight) {
  const ScaleConsts c = scale_consts(scale, w, h);
  CmS123 k{};
  for (int t = 0; t < 3; ++t) k.factor[t] = rf[t];
  k.add_cub = c.cm_add[0];
  k.shift_cub = static_cast<int>(c.cm_shift[0]);
  std::int64_t acc[3] = {0, 0, 0};
  cm_sums(R, src, msk, dst, flt, w, h, stride, k, c.row_add, static_cast<int>(c.row_shift), acc);
  return cm_scale(scale, c, acc, noise_weight);
}

// ---------------------------------------------------------------------------
// Per-call scratch (thread-local, grown as needed).
// ---------------------------------------------------------------------------

// Band planes of one thread, grown once and never cleared (every stage reads
// only what an earlier stage of the same frame wrote). The pages are touched
// by the stages that use them, so planes a path leaves alone (the CSF planes
// on bands wide enough for the masking rows) cost nothing; on Linux the block asks for
// transparent huge pages, which cuts the first-touch page faults and the TLB
// misses of the ten-odd planes a stage walks at once.
template <class T>
class Planes {
 public:
  Planes() = default;
  Planes(const Planes&) = delete;
  Planes& operator=(const Planes&) = delete;
  ~Planes() { std::free(p_); }
  T* get(std::size_t n) {
    if (n > n_) {
      constexpr std::size_t kAlign = std::size_t{2} << 20;
      const std::size_t bytes = (n * sizeof(T) + kAlign - 1) / kAlign * kAlign;
      void* p = std::aligned_alloc(kAlign, bytes);
      if (!p) throw std::bad_alloc();
#ifdef __linux__
      ::madvise(p, bytes, MADV_HUGEPAGE);  // a hint; ignored where not allowed
#endif
      std::free(p_);
      p_ = static_cast<T*>(p);
      n_ = bytes / sizeof(T);
    }
    return p_;
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

struct Scratch {
  Planes<std::int16_t> b16;
  Planes<std::int32_t> b32;
};

template <class T>
Bands<T> take(T*& p, std::size_t plane, bool with_a = true) {
  Bands<T> b{};
  if (with_a) {
    b.a = p;
    p += plane;
  }
  b.h = p;
  p += plane;
  b.v = p;
  p += plane;
  b.d = p;
  p += plane;
  return b;
}

template <class Pel>
Scores compute_impl(const PlaneView& ref, const PlaneView& dis, int bpc, const Params& prm, const Factors& fac) {
  int w = ref.width, h = ref.height;
  const Rows& R = rows();
  const double egl = prm.enhn_gain_limit;

  thread_local Scratch s;
  // Scale 0 bands: stride w0, h0 rows; scales 1..3: stride w1, h1 rows.
  const int w0 = (w + 1) / 2, h0 = (h + 1) / 2;
  const int w1 = (w0 + 1) / 2, h1 = (h0 + 1) / 2;
  const std::size_t p0 = static_cast<std::size_t>(w0) * h0;
  const std::size_t p1 = static_cast<std::size_t>(w1) * h1;

  std::int16_t* q16 = s.b16.get(20 * p0);
  const Bands<std::int16_t> ref16 = take(q16, p0), dis16 = take(q16, p0);
  const Bands<std::int16_t> r16 = take(q16, p0, false), a16 = take(q16, p0, false);
  const Bands<std::int16_t> csfd16 = take(q16, p0, false), csff16 = take(q16, p0, false);
  std::int32_t* q32 = s.b32.get(22 * p1);
  Bands<std::int32_t> ref32 = take(q32, p1), dis32 = take(q32, p1);
  std::int32_t* ref_a_alt = q32;
  q32 += p1;
  std::int32_t* dis_a_alt = q32;
  q32 += p1;
  const Bands<std::int32_t> r32 = take(q32, p1, false), a32 = take(q32, p1, false);
  const Bands<std::int32_t> csfd32 = take(q32, p1, false), csff32 = take(q32, p1, false);

  Scores out;
  double num = 0, den = 0, aim_num = 0;
  for (int scale = 0; scale < 4; ++scale) {
    float num_scale = 0.0f, den_scale = 0.0f, aim_scale = 0.0f;
    if (scale == 0) {
      dwt_s0<Pel>(R, ref, bpc, ref16, w0, prm.skip_scale0);
      dwt_s0<Pel>(R, dis, bpc, dis16, w0, prm.skip_scale0);
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      if (prm.skip_scale0) {
        den_scale = 1e-10f;
      } else {
        decouple(ref16, dis16, r16, a16, w, h, w0,
                 [&](const std::int16_t* const o[3], const std::int16_t* const t[3], int n, std::int16_t* const r[3],
                     std::int16_t* const a[3]) { R.decouple_s0(o, t, n, kDiv.v, kCos1DegSq, egl, r, a); });
        den_scale = den_s0(R, ref16, w, h, w0, fac.rfactor[0], prm.noise_weight);
        num_scale = cm_s0(R, r16, a16, csfd16, csff16, w, h, w0, fac.s0_rfactor, prm.noise_weight);
        if (!prm.skip_aim) aim_scale = cm_s0(R, a16, r16, csfd16, csff16, w, h, w0, fac.s0_rfactor, 0.0);
      }
    } else {
      // Input: the approximation band of the previous scale (int16 after
      // scale 0). From scale 2 on, the new approximation goes to the other
      // buffer of the pair, which then becomes the current one.
      Bands<std::int32_t> ro = ref32, dout = dis32;
      if (scale >= 2) {
        ro.a = ref_a_alt;
        dout.a = dis_a_alt;
      }
      if (scale == 1) {
        dwt_s123<std::int16_t>(R, ref16.a, w0, w, h, scale, ro, w1);
        dwt_s123<std::int16_t>(R, dis16.a, w0, w, h, scale, dout, w1);
      } else {
        dwt_s123<std::int32_t>(R, ref32.a, w1, w, h, scale, ro, w1);
        dwt_s123<std::int32_t>(R, dis32.a, w1, w, h, scale, dout, w1);
        std::swap(ref_a_alt, ref32.a);
        std::swap(dis_a_alt, dis32.a);
      }
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      decouple(ref32, dis32, r32, a32, w, h, w1,
               [&](const std::int32_t* const o[3], const std::int32_t* const t[3], int n, std::int32_t* const r[3],
                   std::int32_t* const a[3]) { R.decouple_s123(o, t, n, kCos1DegSq, egl, r, a); });
      den_scale = den_s123(R, ref32, scale, w, h, w1, fac.rfactor[scale], prm.noise_weight);
      const std::uint32_t* rf = fac.s123_rfactor[scale - 1];
      num_scale = cm_s123(R, r32, a32, csfd32, csff32, scale, w, h, w1, rf, prm.noise_weight);
      if (!prm.skip_aim) aim_scale = cm_s123(R, a32, r32, csfd32, csff32, scale, w, h, w1, rf, 0.0);
    }
    num += num_scale;
    den += den_scale;
    aim_num += aim_scale;
    out.num_scale[scale] = num_scale;
    out.den_scale[scale] = den_scale;
  }

  finish(out, num, den, aim_num, ref.width, ref.height, prm);
  return out;
}

}  // namespace

Factors csf_factors(const Params& p) {
  if (p.norm_view_dist * p.ref_display_height < 3.0 * 1080)
    throw unsupported_error(
        "adm: adm_norm_view_dist * adm_ref_display_height must be at least 3240 (3.0 * 1080); got " +
        std::to_string(p.norm_view_dist) + " * " + std::to_string(p.ref_display_height));
  if ((p.csf_mode == 2 || p.csf_mode == 3) && blend_table(p.norm_view_dist, p.ref_display_height) < 0)
    throw Error("adm: adm_csf_mode=" + std::to_string(p.csf_mode) + " has no CSF table for adm_ref_display_height=" +
                std::to_string(p.ref_display_height) + " and adm_norm_view_dist=" + std::to_string(p.norm_view_dist) +
                " (supported: 1080 at 3 or 5, 2160 at 1.5, 3 or 5)");
  Factors f{};
  for (int scale = 0; scale < 4; ++scale) {
    float f1 = 0, f2 = 0;
    switch (p.csf_mode) {
      case 1:
        f1 = barten_csf(scale, p.norm_view_dist, p.ref_display_height, VMAFX_ADM_BARTEN_LUM, p.csf_scale);
        f2 = barten_csf(scale, p.norm_view_dist, p.ref_display_height, VMAFX_ADM_BARTEN_LUM, p.csf_diag_scale);
        break;
      case 2:
      case 3: {
        const int t = blend_table(p.norm_view_dist, p.ref_display_height);
        const auto& table = p.csf_mode == 2 ? vmafx_adm_blend_csf : vmafx_adm_blend_csf_mae;
        f1 = table[t][0][scale];
        f2 = table[t][1][scale];
        break;
      }
      default:
        f1 = 1.0f / watson_quant_step(scale, 1, p.norm_view_dist, p.ref_display_height);
        f2 = 1.0f / watson_quant_step(scale, 2, p.norm_view_dist, p.ref_display_height);
        break;
    }
    f.rfactor[scale][0] = f1;
    f.rfactor[scale][1] = f1;
    f.rfactor[scale][2] = f2;
  }
  if (std::fabs(p.norm_view_dist * p.ref_display_height - 3.0 * 1080) < 1.0e-8 && p.csf_mode == 0) {
    for (int t = 0; t < 3; ++t) f.s0_rfactor[t] = vmafx_adm_s0_rfactor_default[t];
  } else {
    const double p21 = std::pow(2.0, 21), p23 = std::pow(2.0, 23);
    f.s0_rfactor[0] = to_u16(static_cast<double>(f.rfactor[0][0]) * p21);
    f.s0_rfactor[1] = to_u16(static_cast<double>(f.rfactor[0][1]) * p21);
    f.s0_rfactor[2] = to_u16(static_cast<double>(f.rfactor[0][2]) * p23);
  }
  const double p32 = std::pow(2.0, 32);
  for (int scale = 1; scale < 4; ++scale)
    for (int t = 0; t < 3; ++t) f.s123_rfactor[scale - 1][t] = to_u32(static_cast<double>(f.rfactor[scale][t]) * p32);
  return f;
}

Scores compute(const PlaneView& ref, const PlaneView& dis, int bpc, const Params& p, const Factors& f) {
  return bpc == 8 ? compute_impl<std::uint8_t>(ref, dis, bpc, p, f) : compute_impl<std::uint16_t>(ref, dis, bpc, p, f);
}

Params params(const OptionSet& o) {
  Params p;
  p.enhn_gain_limit = o.get_double("adm_enhn_gain_limit");
  p.norm_view_dist = o.get_double("adm_norm_view_dist");
  p.ref_display_height = o.get_int("adm_ref_display_height");
  p.csf_mode = o.get_int("adm_csf_mode");
  p.csf_scale = o.get_double("adm_csf_scale");
  p.csf_diag_scale = o.get_double("adm_csf_diag_scale");
  p.noise_weight = o.get_double("adm_noise_weight");
  p.dlm_weight = o.get_double("adm_dlm_weight");
  p.min_val = o.get_double("adm_min_val");
  p.skip_aim = o.get_bool("adm_skip_aim");
  p.skip_scale0 = o.get_bool("adm_skip_scale0");
  return p;
}

void write_scores(const Scores& s, bool debug, unsigned index, FeatureSink& out) {
  out.put("VMAF_integer_feature_adm2_score", index, s.adm2);
  out.put("VMAF_integer_feature_aim_score", index, s.aim);
  out.put("VMAF_integer_feature_adm3_score", index, s.adm3);
  out.put("integer_adm_scale0", index, s.num_scale[0] / s.den_scale[0]);
  out.put("integer_adm_scale1", index, s.num_scale[1] / s.den_scale[1]);
  out.put("integer_adm_scale2", index, s.num_scale[2] / s.den_scale[2]);
  out.put("integer_adm_scale3", index, s.num_scale[3] / s.den_scale[3]);
  if (!debug) return;
  out.put("integer_adm", index, s.adm2);
  out.put("integer_adm_num", index, s.num);
  out.put("integer_adm_den", index, s.den);
  static constexpr std::string_view kNum[4] = {"integer_adm_num_scale0", "integer_adm_num_scale1",
                                               "integer_adm_num_scale2", "integer_adm_num_scale3"};
  static constexpr std::string_view kDen[4] = {"integer_adm_den_scale0", "integer_adm_den_scale1",
                                               "integer_adm_den_scale2", "integer_adm_den_scale3"};
  for (int k = 0; k < 4; ++k) {
    out.put(kNum[k], index, s.num_scale[k]);
    out.put(kDen[k], index, s.den_scale[k]);
  }
}

}  // namespace adm

namespace {

constexpr OptionSpec kOptions[] = {
    {"debug", "", "debug mode: enable additional output", OptionType::kBool, 0, {}, 0, 1, false},
    {"adm_csf_scale",
     "scf",
     "scale coefficient for the horizontal & vertical direction terms of CSF",
     OptionType::kDouble,
     1.0,
     {},
     0.0,
     50.0,
     true},
    {"adm_csf_diag_scale",
     "scfd",
     "scale coefficient for the diagonal direction term of CSF",
     OptionType::kDouble,
     1.0,
     {},
     0.0,
     50.0,
     true},
    {"adm_dlm_weight",
     "dlmw",
     "linear weighting between DLM and AIM; 1 corresponds to DLM-only",
     OptionType::kDouble,
     0.5,
     {},
     0.0,
     1.0,
     true},
    {"adm_enhn_gain_limit",
     "egl",
     "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is completely disabled",
     OptionType::kDouble,
     100.0,
     {},
     1.0,
     100.0,
     true},
    {"adm_norm_view_dist",
     "nvd",
     "normalized viewing distance = viewing distance / ref display's physical height",
     OptionType::kDouble,
     3.0,
     {},
     0.75,
     24.0,
     true},
    {"adm_ref_display_height", "rdh", "reference display height in pixels", OptionType::kInt, 1080, {}, 1, 4320, true},
    {"adm_csf_mode", "csf", "contrast sensitivity function", OptionType::kInt, 0, {}, 0, 3, true},
    {"adm_noise_weight", "nw", "noise weight", OptionType::kDouble, 0.03125, {}, 0.0, 1500.0, true},
    {"adm_skip_aim", "", "skip the calculation of AIM", OptionType::kBool, 0, {}, 0, 1, false},
    {"adm_skip_scale0", "ssz", "skip the calculation of scale 0", OptionType::kBool, 0, {}, 0, 1, true},
    {"adm_min_val",
     "min",
     "minimum value allowed; lower values will be clipped to this value",
     OptionType::kDouble,
     0.0,
     {},
     0.0,
     1.0,
     true},
};

constexpr std::string_view kProvided[] = {
    "VMAF_integer_feature_adm2_score",
    "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0",
    "integer_adm_scale1",
    "integer_adm_scale2",
    "integer_adm_scale3",
    "integer_adm",
    "integer_adm_num",
    "integer_adm_den",
    "integer_adm_num_scale0",
    "integer_adm_den_scale0",
    "integer_adm_num_scale1",
    "integer_adm_den_scale1",
    "integer_adm_num_scale2",
    "integer_adm_den_scale2",
    "integer_adm_num_scale3",
    "integer_adm_den_scale3",
};

class AdmExtractor final : public Extractor {
 public:
  AdmExtractor(const adm::Params& p, bool debug) : p_(p), f_(adm::csf_factors(p)), debug_(debug) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const adm::Scores s = adm::compute(ref.plane(0), dis.plane(0), ref.bpc(), p_, f_);
    adm::write_scores(s, debug_, index, out);
  }

 private:
  adm::Params p_;
  adm::Factors f_;
  bool debug_;
};

std::unique_ptr<Extractor> create(const OptionSet& o, const PictureFormat& fmt) {
  if (fmt.bpc < 8 || fmt.bpc > 16)
    throw unsupported_error("adm: unsupported bit depth " + std::to_string(fmt.bpc) + " (8 to 16 bits)");
  if (fmt.width < VMAFX_ADM_MIN_SIZE || fmt.height < VMAFX_ADM_MIN_SIZE)
    throw unsupported_error("adm: frame size " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                            " is too small (at least " + std::to_string(VMAFX_ADM_MIN_SIZE) + "x" +
                            std::to_string(VMAFX_ADM_MIN_SIZE) + " luma samples)");
  return std::make_unique<AdmExtractor>(adm::params(o), o.get_bool("debug"));
}

}  // namespace

const ExtractorDescriptor kAdmExtractor{"adm", kOptions, kProvided, 0, &create};

}  // namespace vmafx
