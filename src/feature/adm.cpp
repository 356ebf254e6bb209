// SPDX-License-Identifier: BSD-3-Clause
// Integer ADM, the scalar reference. Every integer width, shift, rounding
// constant and float/double conversion below follows libvmaf 3.2.0's plain C
// code (integer_adm.c), including its wrap-arounds: int16 stores wrap, int32
// sums wrap (done here through unsigned arithmetic, which C++20 defines), and
// out-of-range double -> unsigned conversions behave as gcc's x86-64 code does.
//
// When vmafx::simd::enabled() (Highway built in, a SIMD CPU, VMAFX_SIMD not
// "off"), every stage (the DWTs, decoupling, CSF, denominators and contrast
// masking of all scales) hands its rows to feature/adm_simd.cpp, which
// computes the same integers, floats and doubles; the loops below stay the
// reference (taken when the SIMD branch is not), tested against it for ==.
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
#include "feature/adm_simd.hpp"
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

// DWT source indices for an input of n samples (n >= 5): 4 per output sample.
void dwt_indices(int n, std::vector<int>& out) {
  const int half = (n + 1) / 2;
  out.resize(static_cast<std::size_t>(half) * 4);
  for (int i = 0; i < half; ++i)
    for (int k = 0; k < 4; ++k) out[static_cast<std::size_t>(i) * 4 + k] = vmafx_adm_dwt_src(i, k, n);
}

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
// DWT
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
void dwt_s0(const PlaneView& src, int bpc, const Bands<std::int16_t>& out, int ostride, bool lo_only,
            const std::vector<int>& iy, const std::vector<int>& ix, std::int16_t* tmplo, std::int16_t* tmphi) {
  const int w = src.width, h = src.height;
  const int hw = (w + 1) / 2, hh = (h + 1) / 2;
  const bool fast = vmafx::simd::enabled();  // SIMD rows (adm_simd.cpp), same integers
  for (int i = 0; i < hh; ++i) {
    const Pel* r0 = src.row<Pel>(iy[4 * i + 0]);
    const Pel* r1 = src.row<Pel>(iy[4 * i + 1]);
    const Pel* r2 = src.row<Pel>(iy[4 * i + 2]);
    const Pel* r3 = src.row<Pel>(iy[4 * i + 3]);
    if (fast) {
      const Pel* const rows[4] = {r0, r1, r2, r3};
      const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * ostride;
      simd::dwt_s0_row(rows, w, bpc, lo_only, out.a + o, lo_only ? nullptr : out.v + o, lo_only ? nullptr : out.h + o,
                       lo_only ? nullptr : out.d + o);
      continue;
    }
    // Vertical pass. The int32 sum of libvmaf may wrap for 16-bit input, but
    // its final value fits, so the int64 sum gives the same result.
    for (int j = 0; j < w; ++j) {
      tmplo[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_vlo(r0[j], r1[j], r2[j], r3[j], bpc));
      if (!lo_only) tmphi[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_vhi(r0[j], r1[j], r2[j], r3[j], bpc));
    }
    // Horizontal pass.
    std::int16_t* oa = out.a + static_cast<std::ptrdiff_t>(i) * ostride;
    std::int16_t* ov = lo_only ? nullptr : out.v + static_cast<std::ptrdiff_t>(i) * ostride;
    std::int16_t* oh = lo_only ? nullptr : out.h + static_cast<std::ptrdiff_t>(i) * ostride;
    std::int16_t* od = lo_only ? nullptr : out.d + static_cast<std::ptrdiff_t>(i) * ostride;
    for (int j = 0; j < hw; ++j) {
      const int* x = &ix[4 * static_cast<std::size_t>(j)];
      oa[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_hlo(tmplo[x[0]], tmplo[x[1]], tmplo[x[2]], tmplo[x[3]]));
      if (lo_only) continue;
      ov[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_hhi(tmplo[x[0]], tmplo[x[1]], tmplo[x[2]], tmplo[x[3]]));
      oh[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_hlo(tmphi[x[0]], tmphi[x[1]], tmphi[x[2]], tmphi[x[3]]));
      od[j] = static_cast<std::int16_t>(vmafx_adm_dwt0_hhi(tmphi[x[0]], tmphi[x[1]], tmphi[x[2]], tmphi[x[3]]));
    }
  }
}

// Scales 1..3: the previous scale's approximation band (int16 after scale 0,
// int32 after) -> int32 bands.
template <class In>
void dwt_s123(const In* src, int sstride, int w, int h, int scale, const Bands<std::int32_t>& out, int ostride,
              const std::vector<int>& iy, const std::vector<int>& ix, std::int32_t* tmplo, std::int32_t* tmphi) {
  const int hw = (w + 1) / 2, hh = (h + 1) / 2;
  const std::int64_t vr = vmafx_adm_s123_v_round[scale - 1];
  const int vs = vmafx_adm_s123_v_shift[scale - 1];
  const std::int64_t hr = vmafx_adm_s123_h_round[scale - 1];
  const int hs = vmafx_adm_s123_h_shift[scale - 1];
  const bool fast = vmafx::simd::enabled();  // SIMD rows (adm_simd.cpp), same integers
  for (int i = 0; i < hh; ++i) {
    const In* r0 = src + static_cast<std::ptrdiff_t>(iy[4 * i + 0]) * sstride;
    const In* r1 = src + static_cast<std::ptrdiff_t>(iy[4 * i + 1]) * sstride;
    const In* r2 = src + static_cast<std::ptrdiff_t>(iy[4 * i + 2]) * sstride;
    const In* r3 = src + static_cast<std::ptrdiff_t>(iy[4 * i + 3]) * sstride;
    if (fast) {
      const In* const rows[4] = {r0, r1, r2, r3};
      const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * ostride;
      simd::dwt_s123_row(rows, w, scale, out.a + o, out.v + o, out.h + o, out.d + o);
      continue;
    }
    for (int j = 0; j < w; ++j) {
      tmplo[j] = vmafx_adm_dwt123_lo(r0[j], r1[j], r2[j], r3[j], vr, vs);
      tmphi[j] = vmafx_adm_dwt123_hi(r0[j], r1[j], r2[j], r3[j], vr, vs);
    }
    std::int32_t* oa = out.a + static_cast<std::ptrdiff_t>(i) * ostride;
    std::int32_t* ov = out.v + static_cast<std::ptrdiff_t>(i) * ostride;
    std::int32_t* oh = out.h + static_cast<std::ptrdiff_t>(i) * ostride;
    std::int32_t* od = out.d + static_cast<std::ptrdiff_t>(i) * ostride;
    for (int j = 0; j < hw; ++j) {
      const int* x = &ix[4 * static_cast<std::size_t>(j)];
      oa[j] = vmafx_adm_dwt123_lo(tmplo[x[0]], tmplo[x[1]], tmplo[x[2]], tmplo[x[3]], hr, hs);
      ov[j] = vmafx_adm_dwt123_hi(tmplo[x[0]], tmplo[x[1]], tmplo[x[2]], tmplo[x[3]], hr, hs);
      oh[j] = vmafx_adm_dwt123_lo(tmphi[x[0]], tmphi[x[1]], tmphi[x[2]], tmphi[x[3]], hr, hs);
      od[j] = vmafx_adm_dwt123_hi(tmphi[x[0]], tmphi[x[1]], tmphi[x[2]], tmphi[x[3]], hr, hs);
    }
  }
}

// ---------------------------------------------------------------------------
// Decoupling: split the distorted detail bands into the part explained by the
// reference (restored, r) and the additive impairment (a = dis - r).
// ---------------------------------------------------------------------------

void decouple_s0(const Bands<std::int16_t>& ref, const Bands<std::int16_t>& dis, const Bands<std::int16_t>& r,
                 const Bands<std::int16_t>& a, int w, int h, int stride, double egl) {
  const Region g = filter_region(w, h);
  const std::int32_t* lut = kDiv.v;
  if (vmafx::simd::enabled()) {  // the same per-pixel values (adm_simd.cpp)
    for (int i = g.top; i < g.bottom; ++i) {
      const std::ptrdiff_t p = static_cast<std::ptrdiff_t>(i) * stride + g.left;
      const std::int16_t* const o3[3] = {ref.h + p, ref.v + p, ref.d + p};
      const std::int16_t* const t3[3] = {dis.h + p, dis.v + p, dis.d + p};
      std::int16_t* const r3[3] = {r.h + p, r.v + p, r.d + p};
      std::int16_t* const a3[3] = {a.h + p, a.v + p, a.d + p};
      simd::decouple_s0_row(o3, t3, g.right - g.left, lut, kCos1DegSq, egl, r3, a3);
    }
    return;
  }
  const std::int16_t* const ob[3] = {ref.h, ref.v, ref.d};
  const std::int16_t* const tb[3] = {dis.h, dis.v, dis.d};
  std::int16_t* const rb[3] = {r.h, r.v, r.d};
  std::int16_t* const ab[3] = {a.h, a.v, a.d};
  for (int i = g.top; i < g.bottom; ++i) {
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(i) * stride;
    for (int j = g.left; j < g.right; ++j) {
      const std::ptrdiff_t p = row + j;
      const int angle = vmafx_adm_angle_ok(vmafx_adm_dot2(ref.h[p], dis.h[p], ref.v[p], dis.v[p]),
                                           vmafx_adm_dot2(ref.h[p], ref.h[p], ref.v[p], ref.v[p]),
                                           vmafx_adm_dot2(dis.h[p], dis.h[p], dis.v[p], dis.v[p]), kCos1DegSq);
      for (int b = 0; b < 3; ++b) {
        const std::int16_t o = ob[b][p], t = tb[b][p];
        const std::int32_t rst = vmafx_adm_s0_restore(o, t, lut[o + 32768], angle, egl);
        rb[b][p] = static_cast<std::int16_t>(rst);
        ab[b][p] = static_cast<std::int16_t>(t - rst);
      }
    }
  }
}

void decouple_s123(const Bands<std::int32_t>& ref, const Bands<std::int32_t>& dis, const Bands<std::int32_t>& r,
                   const Bands<std::int32_t>& a, int w, int h, int stride, double egl) {
  const Region g = filter_region(w, h);
  const std::int32_t* lut = kDiv.v;
  if (vmafx::simd::enabled()) {  // the same per-pixel values (adm_simd.cpp)
    for (int i = g.top; i < g.bottom; ++i) {
      const std::ptrdiff_t p = static_cast<std::ptrdiff_t>(i) * stride + g.left;
      const std::int32_t* const o3[3] = {ref.h + p, ref.v + p, ref.d + p};
      const std::int32_t* const t3[3] = {dis.h + p, dis.v + p, dis.d + p};
      std::int32_t* const r3[3] = {r.h + p, r.v + p, r.d + p};
      std::int32_t* const a3[3] = {a.h + p, a.v + p, a.d + p};
      simd::decouple_s123_row(o3, t3, g.right - g.left, kCos1DegSq, egl, r3, a3);
    }
    return;
  }
  const std::int32_t* const ob[3] = {ref.h, ref.v, ref.d};
  const std::int32_t* const tb[3] = {dis.h, dis.v, dis.d};
  std::int32_t* const rb[3] = {r.h, r.v, r.d};
  std::int32_t* const ab[3] = {a.h, a.v, a.d};
  for (int i = g.top; i < g.bottom; ++i) {
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(i) * stride;
    for (int j = g.left; j < g.right; ++j) {
      const std::ptrdiff_t p = row + j;
      const int angle = vmafx_adm_angle_ok(vmafx_adm_dot2(ref.h[p], dis.h[p], ref.v[p], dis.v[p]),
                                           vmafx_adm_dot2(ref.h[p], ref.h[p], ref.v[p], ref.v[p]),
                                           vmafx_adm_dot2(dis.h[p], dis.h[p], dis.v[p], dis.v[p]), kCos1DegSq);
      for (int b = 0; b < 3; ++b) {
        const std::int32_t o = ob[b][p], t = tb[b][p];
        int shift = 0;
        const std::int32_t idx = vmafx_adm_s123_div_index(o, &shift);
        const std::int32_t rst = vmafx_adm_s123_restore(o, t, lut[idx + 32768], shift, angle, egl);
        rb[b][p] = rst;
        ab[b][p] = vmafx_adm_sub32(t, rst);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// CSF: weight the detail bands (dst) and prepare the masking-filter input (flt).
// ---------------------------------------------------------------------------

void csf_s0(const Bands<std::int16_t>& src, const Bands<std::int16_t>& dst, const Bands<std::int16_t>& flt, int w,
            int h, int stride, const std::uint16_t rf[3]) {
  const Region g = filter_region(w, h);
  std::int16_t* const s[3] = {src.h, src.v, src.d};
  std::int16_t* const o[3] = {dst.h, dst.v, dst.d};
  std::int16_t* const f[3] = {flt.h, flt.v, flt.d};
  const bool fast = vmafx::simd::enabled();
  for (int theta = 0; theta < 3; ++theta) {
    const std::int32_t factor = rf[theta];
    for (int i = g.top; i < g.bottom; ++i) {
      const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(i) * stride;
      if (fast) {
        const std::ptrdiff_t p = row + g.left;
        simd::csf_s0_row(s[theta] + p, g.right - g.left, factor, vmafx_adm_s0_csf_round[theta],
                         vmafx_adm_s0_csf_shift[theta], o[theta] + p, f[theta] + p);
        continue;
      }
      for (int j = g.left; j < g.right; ++j) {
        const std::int32_t d = vmafx_adm_s0_csf(s[theta][row + j], theta, factor);
        o[theta][row + j] = static_cast<std::int16_t>(d);
        f[theta][row + j] = static_cast<std::int16_t>(vmafx_adm_s0_flt(d));
      }
    }
  }
}

void csf_s123(const Bands<std::int32_t>& src, const Bands<std::int32_t>& dst, const Bands<std::int32_t>& flt, int w,
              int h, int stride, const std::uint32_t rf[3]) {
  const Region g = filter_region(w, h);
  std::int32_t* const s[3] = {src.h, src.v, src.d};
  std::int32_t* const o[3] = {dst.h, dst.v, dst.d};
  std::int32_t* const f[3] = {flt.h, flt.v, flt.d};
  const bool fast = vmafx::simd::enabled();
  for (int theta = 0; theta < 3; ++theta) {
    for (int i = g.top; i < g.bottom; ++i) {
      const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(i) * stride;
      if (fast) {
        const std::ptrdiff_t p = row + g.left;
        simd::csf_s123_row(s[theta] + p, g.right - g.left, rf[theta], o[theta] + p, f[theta] + p);
        continue;
      }
      for (int j = g.left; j < g.right; ++j) {
        const std::int32_t d = vmafx_adm_s123_csf(s[theta][row + j], rf[theta]);
        o[theta][row + j] = d;
        f[theta][row + j] = vmafx_adm_s123_flt(d);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Denominator: the CSF-weighted energy (sum of |x|^3) of the reference bands.
// ---------------------------------------------------------------------------

float den_s0(const Bands<std::int16_t>& ref, int w, int h, int stride, const float rf[3], double noise_weight) {
  const Region g = score_region(w, h);
  std::int32_t shift_accum =
      ceil_log2(static_cast<std::int64_t>(g.bottom - g.top) * (g.right - g.left)) - VMAFX_ADM_S0_DEN_AREA_BIAS;
  shift_accum = shift_accum > 0 ? shift_accum : 0;
  const std::uint64_t add = shift_accum > 0 ? (std::uint64_t{1} << (shift_accum - 1)) : 0;
  std::uint64_t acc[3] = {0, 0, 0};
  const std::int16_t* const b[3] = {ref.h, ref.v, ref.d};
  const bool fast = vmafx::simd::enabled();  // SIMD row sums (adm_simd.cpp), same integers
  for (int i = g.top; i < g.bottom; ++i) {
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(i) * stride;
    std::uint64_t inner[3] = {0, 0, 0};
    if (fast) {
      const std::int16_t* const b3[3] = {b[0] + row + g.left, b[1] + row + g.left, b[2] + row + g.left};
      simd::den_s0_row(b3, g.right - g.left, inner);
      for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add) >> shift_accum;
      continue;
    }
    for (int j = g.left; j < g.right; ++j) {
      for (int t = 0; t < 3; ++t) inner[t] += vmafx_adm_s0_den(b[t][row + j]);
    }
    for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add) >> shift_accum;
  }
  const double shift_csf = std::pow(2.0, static_cast<double>(VMAFX_ADM_S0_DEN_EXP - shift_accum));
  return den_from_sums(acc, shift_csf, rf, (g.bottom - g.top) * (g.right - g.left), noise_weight);
}

float den_s123(const Bands<std::int32_t>& ref, int scale, int w, int h, int stride, const float rf[3],
               double noise_weight) {
  const Region g = score_region(w, h);
  const std::uint32_t sq_shift = static_cast<std::uint32_t>(vmafx_adm_s123_den_sq_shift[scale - 1]);
  const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(g.right - g.left));
  const std::uint64_t add_cub = to_u32(std::pow(2.0, static_cast<double>(shift_cub - 1u)));
  const std::uint32_t shift_accum = static_cast<std::uint32_t>(ceil_log2(g.bottom - g.top));
  const std::uint64_t add_accum = to_u32(std::pow(2.0, static_cast<double>(shift_accum - 1u)));
  std::uint64_t acc[3] = {0, 0, 0};
  const std::int32_t* const b[3] = {ref.h, ref.v, ref.d};
  const bool fast = vmafx::simd::enabled();  // SIMD row sums (adm_simd.cpp), same integers
  for (int i = g.top; i < g.bottom; ++i) {
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(i) * stride;
    std::uint64_t inner[3] = {0, 0, 0};
    if (fast) {
      const std::int32_t* const b3[3] = {b[0] + row + g.left, b[1] + row + g.left, b[2] + row + g.left};
      simd::den_s123_row(b3, g.right - g.left, static_cast<int>(sq_shift), add_cub, static_cast<int>(shift_cub), inner);
      for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add_accum) >> shift_accum;
      continue;
    }
    for (int j = g.left; j < g.right; ++j) {
      for (int t = 0; t < 3; ++t)
        inner[t] += vmafx_adm_s123_den(b[t][row + j], static_cast<int>(sq_shift), add_cub, static_cast<int>(shift_cub));
    }
    for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add_accum) >> shift_accum;
  }
  // Unsigned exponent, as in libvmaf.
  const std::uint32_t e = static_cast<std::uint32_t>(vmafx_adm_s123_den_exp[scale - 1]) - shift_accum - shift_cub;
  const double shift_csf = std::pow(2.0, static_cast<double>(e));
  return den_from_sums(acc, shift_csf, rf, (g.bottom - g.top) * (g.right - g.left), noise_weight);
}

// ---------------------------------------------------------------------------
// Contrast masking: sum of |x|^3 of the CSF-weighted bands of `src` after
// subtracting a threshold from a 3x3 neighbourhood of the masker (`ang`, the
// CSF-weighted masker, at the centre; `flt`, its filter input, around it).
// Borders mirror: -1 -> 1 and n -> n - 1.
// ---------------------------------------------------------------------------

// Drives the row/column loops and the per-row rounding shared by both
// pipelines. pixel(i, im, ip, j, jm, jp, inner[3]) adds the three band terms.
template <class Pixel>
void cm_loops(int w, int h, const Region& g, std::int64_t add_rows, int shift_rows, std::int64_t acc[3],
              Pixel&& pixel) {
  for (int i = g.top; i < g.bottom; ++i) {
    const int im = i == 0 ? 1 : i - 1;
    const int ip = i == h - 1 ? h - 1 : i + 1;
    std::int64_t inner[3] = {0, 0, 0};
    for (int j = g.left; j < g.right; ++j) {
      const int jm = j == 0 ? 1 : j - 1;
      const int jp = j == w - 1 ? w - 1 : j + 1;
      pixel(i, im, ip, j, jm, jp, inner);
    }
    for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add_rows) >> shift_rows;
  }
}

// The eight neighbours of (0, j) in rows fm, f0, fp (wrapping int32 sum).
template <class T>
inline std::uint32_t neighbours(const T* fm, const T* f0, const T* fp, int jm, int j, int jp) {
  return vmafx_adm_ring8(fm[jm], fm[j], fm[jp], f0[jm], f0[jp], fp[jm], fp[j], fp[jp]);
}

float cm_s0(const Bands<std::int16_t>& src, const Bands<std::int16_t>& ang, const Bands<std::int16_t>& flt, int w,
            int h, int stride, const std::uint16_t rf[3], double noise_weight) {
  const Region g = score_region(w, h);
  std::uint32_t shift_cub[3], add_cub[3];
  for (int t = 0; t < 3; ++t) {
    shift_cub[t] = static_cast<std::uint32_t>(ceil_log2(w) - vmafx_adm_s0_cub_bias[t]);
    add_cub[t] = to_u32(std::pow(2.0, static_cast<double>(shift_cub[t] - 1u)));
  }
  const std::uint32_t shift_rows = static_cast<std::uint32_t>(ceil_log2(h));
  const std::uint32_t add_rows = to_u32(std::pow(2.0, static_cast<double>(shift_rows - 1u)));
  const std::int16_t* const sb[3] = {src.h, src.v, src.d};
  const std::int16_t* const ab[3] = {ang.h, ang.v, ang.d};
  const std::int16_t* const fb[3] = {flt.h, flt.v, flt.d};
  std::int32_t factor[3];
  for (int t = 0; t < 3; ++t) factor[t] = rf[t];

  std::int64_t acc[3] = {0, 0, 0};
  cm_loops(w, h, g, add_rows, static_cast<int>(shift_rows), acc,
           [&](int i, int im, int ip, int j, int jm, int jp, std::int64_t inner[3]) {
             const std::ptrdiff_t rm = static_cast<std::ptrdiff_t>(im) * stride;
             const std::ptrdiff_t r0 = static_cast<std::ptrdiff_t>(i) * stride;
             const std::ptrdiff_t rp = static_cast<std::ptrdiff_t>(ip) * stride;
             std::uint32_t thr = 0;
             for (int t = 0; t < 3; ++t)
               thr += neighbours(fb[t] + rm, fb[t] + r0, fb[t] + rp, jm, j, jp) +
                      static_cast<std::uint32_t>(vmafx_adm_s0_centre(ab[t][r0 + j]));
             for (int t = 0; t < 3; ++t)
               inner[t] +=
                   vmafx_adm_s0_cm_term(sb[t][r0 + j], t, factor[t], thr, add_cub[t], static_cast<int>(shift_cub[t]));
           });

  return cm_from_sums_s0(acc, shift_cub, shift_rows, (g.bottom - g.top) * (g.right - g.left), noise_weight);
}

float cm_s123(const Bands<std::int32_t>& src, const Bands<std::int32_t>& ang, const Bands<std::int32_t>& flt, int scale,
              int w, int h, int stride, const std::uint32_t rf[3], double noise_weight) {
  const Region g = score_region(w, h);
  const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(w));
  const std::int64_t add_cub = to_u32(std::pow(2.0, static_cast<double>(shift_cub - 1u)));
  const std::uint32_t shift_rows = static_cast<std::uint32_t>(ceil_log2(h));
  const std::int64_t add_rows = to_u32(std::pow(2.0, static_cast<double>(shift_rows - 1u)));
  const float final_shift = static_cast<float>(std::pow(
      2.0,
      static_cast<double>(static_cast<std::uint32_t>(vmafx_adm_s123_num_exp[scale - 1]) - shift_cub - shift_rows)));
  const std::int32_t* const sb[3] = {src.h, src.v, src.d};
  const std::int32_t* const ab[3] = {ang.h, ang.v, ang.d};
  const std::int32_t* const fb[3] = {flt.h, flt.v, flt.d};

  std::int64_t acc[3] = {0, 0, 0};
  cm_loops(w, h, g, add_rows, static_cast<int>(shift_rows), acc,
           [&](int i, int im, int ip, int j, int jm, int jp, std::int64_t inner[3]) {
             const std::ptrdiff_t rm = static_cast<std::ptrdiff_t>(im) * stride;
             const std::ptrdiff_t r0 = static_cast<std::ptrdiff_t>(i) * stride;
             const std::ptrdiff_t rp = static_cast<std::ptrdiff_t>(ip) * stride;
             std::uint32_t thr = 0;
             for (int t = 0; t < 3; ++t)
               thr += neighbours(fb[t] + rm, fb[t] + r0, fb[t] + rp, jm, j, jp) +
                      static_cast<std::uint32_t>(vmafx_adm_s123_centre(ab[t][r0 + j]));
             for (int t = 0; t < 3; ++t)
               inner[t] += vmafx_adm_s123_cm_term(sb[t][r0 + j], rf[t], thr, add_cub, static_cast<int>(shift_cub));
           });

  return cm_from_sums_s123(acc, final_shift, (g.bottom - g.top) * (g.right - g.left), noise_weight);
}

// ---------------------------------------------------------------------------
// Contrast masking through the SIMD rows (adm_simd.cpp): csf_s* + cm_s* in one
// pass, the CSF of the masker formed per sample (the same integers as the
// planes csf_s* writes; cm reads nothing outside their filter region), where
// no column mirrors (the score region leaves a column on each side: w >= 15).
// ---------------------------------------------------------------------------

bool simd_masking(int w, int h) {
  const Region g = score_region(w, h);
  return vmafx::simd::enabled() && g.left >= 1 && g.right <= w - 1;
}

// The masker's threshold sums (simd::cm_box_row) of rows im, i, ip: each row's
// computed once and kept while the next rows need it (three slots;
// thread-local storage that grows once).
class BoxRows {
 public:
  explicit BoxRows(int w) : w_(static_cast<std::size_t>(w)) {
    thread_local std::vector<std::int32_t> buf;
    if (buf.size() < 9 * w_) buf.resize(9 * w_);
    data_ = buf.data();
  }
  template <class T, class K>
  simd::CmBox get(const T* const mb[3], std::ptrdiff_t stride, const K& k, int im, int i, int ip, int left, int right) {
    const int need[3] = {im, i, ip};
    int slot[3];
    for (int q = 0; q < 3; ++q) slot[q] = find(need[q]);
    for (int q = 0; q < 3; ++q) {
      if (slot[q] >= 0) continue;
      int s = 0;  // a slot none of the three rows holds (at most two are held)
      while (row_[s] == im || row_[s] == i || row_[s] == ip) ++s;
      const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(need[q]) * stride;
      const T* const m3[3] = {mb[0] + o, mb[1] + o, mb[2] + o};
      simd::cm_box_row(m3, k, left, right, F(s), H(s), Z(s));
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
  std::size_t w_;
  std::int32_t* data_;
  int row_[3] = {-1, -1, -1};
};

// The row loop and rounding of cm_loops, with a SIMD row function.
template <class T, class K>
void cm_simd_rows(const Bands<T>& src, const Bands<T>& msk, int w, int h, int stride, const Region& g, const K& k,
                  std::int64_t add_rows, int shift_rows, std::int64_t acc[3]) {
  const T* const sb[3] = {src.h, src.v, src.d};
  const T* const mb[3] = {msk.h, msk.v, msk.d};
  BoxRows box(w);
  for (int i = g.top; i < g.bottom; ++i) {
    const int im = i == 0 ? 1 : i - 1;
    const int ip = i == h - 1 ? h - 1 : i + 1;
    const std::ptrdiff_t r0 = static_cast<std::ptrdiff_t>(i) * stride;
    const T* const s3[3] = {sb[0] + r0, sb[1] + r0, sb[2] + r0};
    std::int64_t inner[3] = {0, 0, 0};
    const simd::CmBox bx = box.get(mb, stride, k, im, i, ip, g.left, g.right);
    if constexpr (sizeof(T) == 2)
      simd::cm_s0_row(s3, bx, g.left, g.right, k, inner);
    else
      simd::cm_s123_row(s3, bx, g.left, g.right, k, inner);
    for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add_rows) >> shift_rows;
  }
}

// csf_s0 of msk, then cm_s0 of src against it (simd_masking(w, h) holds).
float cm_s0_simd(const Bands<std::int16_t>& src, const Bands<std::int16_t>& msk, int w, int h, int stride,
                 const std::uint16_t rf[3], double noise_weight) {
  const Region g = score_region(w, h);
  std::uint32_t shift_cub[3], add_cub[3];
  simd::CmS0 k{};
  for (int t = 0; t < 3; ++t) {
    shift_cub[t] = static_cast<std::uint32_t>(ceil_log2(w) - vmafx_adm_s0_cub_bias[t]);
    add_cub[t] = to_u32(std::pow(2.0, static_cast<double>(shift_cub[t] - 1u)));
    k.factor[t] = rf[t];
    k.csf_add[t] = vmafx_adm_s0_csf_round[t];
    k.csf_shift[t] = vmafx_adm_s0_csf_shift[t];
    k.thr_shift[t] = vmafx_adm_s0_thr_shift[t];
    k.sq_round[t] = vmafx_adm_s0_sq_round[t];
    k.sq_shift[t] = vmafx_adm_s0_sq_shift[t];
    k.add_cub[t] = add_cub[t];
    k.shift_cub[t] = static_cast<int>(shift_cub[t]);  // w >= 15: >= 0
  }
  const std::uint32_t shift_rows = static_cast<std::uint32_t>(ceil_log2(h));
  const std::uint32_t add_rows = to_u32(std::pow(2.0, static_cast<double>(shift_rows - 1u)));
  std::int64_t acc[3] = {0, 0, 0};
  cm_simd_rows(src, msk, w, h, stride, g, k, add_rows, static_cast<int>(shift_rows), acc);
  return cm_from_sums_s0(acc, shift_cub, shift_rows, (g.bottom - g.top) * (g.right - g.left), noise_weight);
}

// csf_s123 of msk, then cm_s123 of src against it (simd_masking(w, h) holds).
float cm_s123_simd(const Bands<std::int32_t>& src, const Bands<std::int32_t>& msk, int scale, int w, int h, int stride,
                   const std::uint32_t rf[3], double noise_weight) {
  const Region g = score_region(w, h);
  const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(w));
  const std::int64_t add_cub = to_u32(std::pow(2.0, static_cast<double>(shift_cub - 1u)));
  const std::uint32_t shift_rows = static_cast<std::uint32_t>(ceil_log2(h));
  const std::int64_t add_rows = to_u32(std::pow(2.0, static_cast<double>(shift_rows - 1u)));
  const float final_shift = static_cast<float>(std::pow(
      2.0,
      static_cast<double>(static_cast<std::uint32_t>(vmafx_adm_s123_num_exp[scale - 1]) - shift_cub - shift_rows)));
  simd::CmS123 k{};
  for (int t = 0; t < 3; ++t) k.factor[t] = rf[t];
  k.add_cub = add_cub;
  k.shift_cub = static_cast<int>(shift_cub);
  std::int64_t acc[3] = {0, 0, 0};
  cm_simd_rows(src, msk, w, h, stride, g, k, add_rows, static_cast<int>(shift_rows), acc);
  return cm_from_sums_s123(acc, final_shift, (g.bottom - g.top) * (g.right - g.left), noise_weight);
}

// ---------------------------------------------------------------------------
// Per-call scratch (thread-local, grown as needed).
// ---------------------------------------------------------------------------

// Band planes of one thread, grown once and never cleared (every stage reads
// only what an earlier stage of the same frame wrote). The pages are touched
// by the stages that use them, so planes a path leaves alone (the CSF planes
// when the SIMD masking runs) cost nothing; on Linux the block asks for
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
  std::vector<std::int16_t> t16;
  std::vector<std::int32_t> t32;
  std::vector<int> iy, ix;
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

  thread_local Scratch s;
  // Scale 0 bands: stride w0, h0 rows; scales 1..3: stride w1, h1 rows.
  const int w0 = (w + 1) / 2, h0 = (h + 1) / 2;
  const int w1 = (w0 + 1) / 2, h1 = (h0 + 1) / 2;
  const std::size_t p0 = static_cast<std::size_t>(w0) * h0;
  const std::size_t p1 = static_cast<std::size_t>(w1) * h1;

  if (s.t16.size() < 2 * static_cast<std::size_t>(w)) s.t16.resize(2 * static_cast<std::size_t>(w));
  if (s.t32.size() < 2 * static_cast<std::size_t>(w0)) s.t32.resize(2 * static_cast<std::size_t>(w0));

  std::int16_t* q16 = s.b16.get(20 * p0);
  const Bands<std::int16_t> ref16 = take(q16, p0), dis16 = take(q16, p0);
  const Bands<std::int16_t> r16 = take(q16, p0, false), a16 = take(q16, p0, false);
  const Bands<std::int16_t> csfa16 = take(q16, p0, false), csff16 = take(q16, p0, false);
  std::int32_t* q32 = s.b32.get(22 * p1);
  Bands<std::int32_t> ref32 = take(q32, p1), dis32 = take(q32, p1);
  std::int32_t* ref_a_alt = q32;
  q32 += p1;
  std::int32_t* dis_a_alt = q32;
  q32 += p1;
  const Bands<std::int32_t> r32 = take(q32, p1, false), a32 = take(q32, p1, false);
  const Bands<std::int32_t> csfa32 = take(q32, p1, false), csff32 = take(q32, p1, false);

  Scores out;
  double num = 0, den = 0, aim_num = 0;
  for (int scale = 0; scale < 4; ++scale) {
    float num_scale = 0.0f, den_scale = 0.0f, aim_scale = 0.0f;
    dwt_indices(h, s.iy);
    dwt_indices(w, s.ix);
    if (scale == 0) {
      const bool lo_only = prm.skip_scale0;
      dwt_s0<Pel>(ref, bpc, ref16, w0, lo_only, s.iy, s.ix, s.t16.data(), s.t16.data() + w);
      dwt_s0<Pel>(dis, bpc, dis16, w0, lo_only, s.iy, s.ix, s.t16.data(), s.t16.data() + w);
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      if (prm.skip_scale0) {
        den_scale = 1e-10f;
      } else {
        decouple_s0(ref16, dis16, r16, a16, w, h, w0, prm.enhn_gain_limit);
        den_scale = den_s0(ref16, w, h, w0, fac.rfactor[0], prm.noise_weight);
        if (simd_masking(w, h)) {
          num_scale = cm_s0_simd(r16, a16, w, h, w0, fac.s0_rfactor, prm.noise_weight);
          if (!prm.skip_aim) aim_scale = cm_s0_simd(a16, r16, w, h, w0, fac.s0_rfactor, 0.0);
        } else {
          csf_s0(a16, csfa16, csff16, w, h, w0, fac.s0_rfactor);
          num_scale = cm_s0(r16, csfa16, csff16, w, h, w0, fac.s0_rfactor, prm.noise_weight);
          if (!prm.skip_aim) {
            csf_s0(r16, csff16, csfa16, w, h, w0, fac.s0_rfactor);
            aim_scale = cm_s0(a16, csff16, csfa16, w, h, w0, fac.s0_rfactor, 0.0);
          }
        }
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
        dwt_s123<std::int16_t>(ref16.a, w0, w, h, scale, ro, w1, s.iy, s.ix, s.t32.data(), s.t32.data() + w);
        dwt_s123<std::int16_t>(dis16.a, w0, w, h, scale, dout, w1, s.iy, s.ix, s.t32.data(), s.t32.data() + w);
      } else {
        dwt_s123<std::int32_t>(ref32.a, w1, w, h, scale, ro, w1, s.iy, s.ix, s.t32.data(), s.t32.data() + w);
        dwt_s123<std::int32_t>(dis32.a, w1, w, h, scale, dout, w1, s.iy, s.ix, s.t32.data(), s.t32.data() + w);
        std::swap(ref_a_alt, ref32.a);
        std::swap(dis_a_alt, dis32.a);
      }
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      decouple_s123(ref32, dis32, r32, a32, w, h, w1, prm.enhn_gain_limit);
      den_scale = den_s123(ref32, scale, w, h, w1, fac.rfactor[scale], prm.noise_weight);
      const std::uint32_t* rf = fac.s123_rfactor[scale - 1];
      if (simd_masking(w, h)) {
        num_scale = cm_s123_simd(r32, a32, scale, w, h, w1, rf, prm.noise_weight);
        if (!prm.skip_aim) aim_scale = cm_s123_simd(a32, r32, scale, w, h, w1, rf, 0.0);
      } else {
        csf_s123(a32, csfa32, csff32, w, h, w1, rf);
        num_scale = cm_s123(r32, csfa32, csff32, scale, w, h, w1, rf, prm.noise_weight);
        if (!prm.skip_aim) {
          csf_s123(r32, csff32, csfa32, w, h, w1, rf);
          aim_scale = cm_s123(a32, csff32, csfa32, scale, w, h, w1, rf, 0.0);
        }
      }
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
