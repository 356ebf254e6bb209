// SPDX-License-Identifier: BSD-3-Clause
#include "feature/float_adm.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "feature/adm.hpp"
#include "exact/adm_tables.h"
#include "exact/float_adm.h"
#include "exact/float_adm_tables.h"
#include "core/simd.hpp"

namespace vmafx {
namespace fadm {
namespace {

// libm in double, as C calls it with float arguments (C++'s std:: overloads
// would pick the float versions).
inline double dpow(double x, double y) { return std::pow(x, y); }
inline double dexp(double x) { return std::exp(x); }
inline double dlog10(double x) { return std::log10(x); }

// Display visual resolution in pixels per degree, rounded to float.
float display_resolution(const Params& p) {
  return static_cast<float>(p.norm_view_dist * p.ref_display_height * M_PI / 180.0);
}

// Watson's quantisation step of the 7/9 wavelet for a scale and orientation.
float watson_step(int lambda, int theta, const Params& p) {
  const float r = display_resolution(p);
  const float t =
      static_cast<float>(dlog10(dpow(2.0, lambda + 1) * vmafx_fadm_watson_f0 * vmafx_fadm_watson_g[theta] / r));
  return static_cast<float>(2.0 * vmafx_fadm_watson_a * dpow(10.0, vmafx_fadm_watson_k * t * t) /
                            vmafx_fadm_basis_amp[lambda][theta]);
}

// The CSF of the DLM paper (Li et al. 2011); theta 45 is the diagonal band.
float native_csf(int lambda, int theta, const Params& p) {
  const float r = display_resolution(p);
  float f = static_cast<float>(r / dpow(2, lambda + 1));
  if (theta == 45) f = static_cast<float>(f / 0.7);
  return static_cast<float>((0.31 + 0.69 * f) * dexp(-0.29 * f));
}

float lerp(float x0, float y0, float x1, float y1, float x) { return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0); }

float barten_mtf(float f) {
  float m = 0.0f;
  for (int i = 0; i < 4; ++i)
    m = static_cast<float>(m + vmafx_fadm_barten_mtf_a[i] * dexp(-vmafx_fadm_barten_mtf_b[i] * f));
  return m;
}

float barten_rod_cone(float lum) {
  return static_cast<float>(
      vmafx_fadm_barten_sa[0] *
      dpow(dpow(vmafx_fadm_barten_sa[1] / lum, vmafx_fadm_barten_sa[2]) + 1, -vmafx_fadm_barten_sa[3]));
}

// Barten's CSF as simplified in HDR-VDP 2.2.1, at `lum` cd/m2.
float barten_csf(int lambda, double lum, double scale, const Params& p) {
  const float r = display_resolution(p);
  const float f = static_cast<float>(r / dpow(2, lambda + 1));
  const float* anchor = vmafx_fadm_barten_anchor;
  const double cl = lum > anchor[5] ? anchor[5] : (lum < anchor[0] ? anchor[0] : lum);
  int lo = 0, hi = 0;
  for (int i = 0; i < 5; ++i)
    if (cl >= anchor[i] && cl <= anchor[i + 1]) {
      lo = i;
      hi = i + 1;
      break;
    }
  const float lo_pos = static_cast<float>(dlog10(anchor[lo]));
  const float hi_pos = static_cast<float>(dlog10(anchor[hi]));
  const float pos = static_cast<float>(dlog10(cl));
  float par[4];
  for (int k = 0; k < 4; ++k)
    par[k] = lerp(lo_pos, vmafx_fadm_barten_par[lo][k + 1], hi_pos, vmafx_fadm_barten_par[hi][k + 1], pos);
  const float a = static_cast<float>(1.0f + dpow(par[0] * f, par[1]));
  const float b = static_cast<float>(1.0f / dpow(1 - dexp(-dpow(f / 7, 2)), par[2]));
  const float csf = static_cast<float>(par[3] / dpow(a * b, 0.5));
  return static_cast<float>(csf * barten_mtf(f) * barten_rod_cone(static_cast<float>(lum)) * scale);
}

// libvmaf's float_adm always uses 100 cd/m2.
constexpr double kLuminance = 100.0;

}  // namespace

Factors csf_factors(int scale, const Params& p) {
  Factors f;
  if (p.csf_mode == 1) {
    f.f1 = barten_csf(scale, kLuminance, p.csf_scale, p);
    f.f2 = barten_csf(scale, kLuminance, p.csf_diag_scale, p);
  } else if (p.csf_mode == 2) {
    f.f1 = native_csf(scale, 0, p);
    f.f2 = native_csf(scale, 45, p);
  } else {
    f.f1 = 1.0f / watson_step(scale, 1, p);
    f.f2 = 1.0f / watson_step(scale, 2, p);
  }
  if (p.f1[scale] >= 0) f.f1 = static_cast<float>(p.f1[scale]);
  if (p.f2[scale] >= 0) f.f2 = static_cast<float>(p.f2[scale]);
  return f;
}

namespace {

// A band image: rows of `stride` floats.
struct Band {
  float* p;
  int stride;
  float* row(int i) const { return p + std::size_t(i) * stride; }
};

struct Bands {
  Band a, h, v, d;  // a: low-low, v: low-vertical high-horizontal, h: high-low, d: high-high
};

inline int dwt_index(int n, int k, int m) { return vmafx_fadm_dwt_index(n, k, m); }

inline float fir4(const float* f, float s0, float s1, float s2, float s3) {
  return vmafx_fadm_fir4(f[0], f[1], f[2], f[3], s0, s1, s2, s3, 0);
}

// One level of the db2 DWT of a w x h image (rows of `src_stride`): out bands
// are (w + 1) / 2 x (h + 1) / 2. lo_only: the approximation band alone.
void dwt2(const Rows& rw, const float* src, int src_stride, int w, int h, const Bands& out, bool lo_only, float* tlo,
          float* thi, int* ix) {
  const float* lo = vmafx_fadm_db2_lo;
  const float* hi = vmafx_fadm_db2_hi;
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  for (int j = 0; j < ow; ++j)
    for (int k = 0; k < 4; ++k) ix[4 * j + k] = dwt_index(j, k, w);
  // Output columns [j0, j1) read no mirrored input (2j - 1 >= 0,
  // 2j + 2 <= w - 1): the row table's horizontal step; the others below.
  const int j0 = 1, j1 = std::max((w - 3) / 2 + 1, 1);
  for (int i = 0; i < oh; ++i) {
    const float* rows[4];
    for (int k = 0; k < 4; ++k) rows[k] = src + std::size_t(dwt_index(i, k, h)) * src_stride;
    rw.dwt_vertical(rows, w, tlo, lo_only ? nullptr : thi);
    float* a = out.a.row(i);
    float* bv = lo_only ? nullptr : out.v.row(i);
    float* bh = lo_only ? nullptr : out.h.row(i);
    float* bd = lo_only ? nullptr : out.d.row(i);
    if (j1 > j0) rw.dwt_horizontal(tlo, lo_only ? nullptr : thi, j0, j1, a, bv, bh, bd);
    for (int j = 0; j < ow; ++j) {
      if (j == j0) j = j1;
      if (j >= ow) break;
      const int* x = ix + 4 * j;
      const float s0 = tlo[x[0]], s1 = tlo[x[1]], s2 = tlo[x[2]], s3 = tlo[x[3]];
      a[j] = fir4(lo, s0, s1, s2, s3);
      if (lo_only) continue;
      bv[j] = fir4(hi, s0, s1, s2, s3);
      const float t0 = thi[x[0]], t1 = thi[x[1]], t2 = thi[x[2]], t3 = thi[x[3]];
      bh[j] = fir4(lo, t0, t1, t2, t3);
      bd[j] = fir4(hi, t0, t1, t2, t3);
    }
  }
}

// [left, right) x [top, bottom) of a w x h band that a stage works on: the
// integer ADM's regions (the same border factor and rounding).
// score_region: border_factor of each side skipped; filter_region: one more
// sample each side for the 3x3 masking window, clipped to the band.
static_assert(VMAFX_FADM_BORDER_FACTOR == VMAFX_ADM_BORDER_FACTOR, "float_adm shares the integer ADM's regions");
using adm::filter_region;
using adm::Region;
using adm::score_region;

// powf(sum of |x|^p over w x h, 1/p) cannot be zero-sized; libvmaf adds
// (w * h * weight)^(1/p) as a noise floor.
inline float noise_floor(int w, int h, double weight, double p) {
  return std::pow(static_cast<float>(w * h * weight), static_cast<float>(1.0f / p));
}

}  // namespace

float pnorm_term(float x, double p) { return p == 3.0 ? vmafx_fadm_cube(x, 0) : std::pow(x, static_cast<float>(p)); }

float pool(const float acc[3], int rw, int rh, double noise_weight, double p_norm) {
  const float nf = noise_floor(rw, rh, noise_weight, p_norm);
  float out[3];
  for (int t = 0; t < 3; ++t) out[t] = std::pow(acc[t], static_cast<float>(1.0f / p_norm)) + nf;
  return out[0] + out[1] + out[2];
}

vmafx_fadm_consts stage_consts(double gain_limit, LibvmafCpu cpu) {
  vmafx_fadm_consts k{};
  k.gain_limit = gain_limit;
  k.one_by_30 = VMAFX_FADM_ONE_BY_30;
  k.one_by_15 = VMAFX_FADM_ONE_BY_15;
  k.eps = static_cast<float>(1e-30);
  static const float cos1 = static_cast<float>(std::cos(1.0 * M_PI / 180.0) * std::cos(1.0 * M_PI / 180.0));
  k.cos1 = cos1;
  k.cpu = static_cast<int>(cpu);
  return k;
}

namespace {

// ---- the scalar rows: loops around exact/float_adm.h

void dwt_vertical_row(const float* const* r, int w, float* lo_out, float* hi_out) {
  for (int j = 0; j < w; ++j) {
    lo_out[j] = fir4(vmafx_fadm_db2_lo, r[0][j], r[1][j], r[2][j], r[3][j]);
    if (hi_out) hi_out[j] = fir4(vmafx_fadm_db2_hi, r[0][j], r[1][j], r[2][j], r[3][j]);
  }
}

void dwt_horizontal_row(const float* tlo, const float* thi, int j0, int j1, float* a, float* v, float* h, float* d) {
  for (int j = j0; j < j1; ++j) {
    const float* s = tlo + 2 * j - 1;
    a[j] = fir4(vmafx_fadm_db2_lo, s[0], s[1], s[2], s[3]);
    if (v) v[j] = fir4(vmafx_fadm_db2_hi, s[0], s[1], s[2], s[3]);
    if (!thi) continue;
    const float* t = thi + 2 * j - 1;
    h[j] = fir4(vmafx_fadm_db2_lo, t[0], t[1], t[2], t[3]);
    d[j] = fir4(vmafx_fadm_db2_hi, t[0], t[1], t[2], t[3]);
  }
}

void decouple_row(const float* const* o, const float* const* t, int l, int r, double gain_limit, LibvmafCpu cpu,
                  float* const* rst, float* const* add) {
  const vmafx_fadm_consts k = stage_consts(gain_limit, cpu);
  for (int j = l; j < r; ++j) {
    const float oj[3] = {o[0][j], o[1][j], o[2][j]};
    const float tj[3] = {t[0][j], t[1][j], t[2][j]};
    float rj[3], aj[3];
    vmafx_fadm_decouple(oj, tj, &k, rj, aj);
    for (int b = 0; b < 3; ++b) {
      rst[b][j] = rj[b];
      add[b][j] = aj[b];
    }
  }
}

void csf_row(const float* src, float rf, int l, int r, float* dst, float* flt) {
  const vmafx_fadm_consts k = stage_consts(0.0, LibvmafCpu::kGeneric);
  for (int j = l; j < r; ++j) dst[j] = vmafx_fadm_csf(rf, src[j], &k, flt + j);
}

void den_row(const float* const* rows, const float* rf, int l, int r, double p_norm, float* sum) {
  float inner[3] = {0, 0, 0};
  for (int j = l; j < r; ++j)
    for (int t = 0; t < 3; ++t) inner[t] += pnorm_term(vmafx_fabs(rf[t] * rows[t][j]), p_norm);
  for (int t = 0; t < 3; ++t) sum[t] = inner[t];
}

void masked_row(const float* const* src, const float* const* fu, const float* const* fm, const float* const* fd,
                const float* const* ang, const float* rf, int l, int r, int w, bool bypass, double p_norm, float* sum) {
  const vmafx_fadm_consts k = stage_consts(0.0, LibvmafCpu::kGeneric);
  float inner[3] = {0, 0, 0};
  for (int j = l; j < r; ++j) {
    float thr = 0.0f;
    if (!bypass) {
      const int lf = j == 0 ? 1 : j - 1;
      const int rt = j == w - 1 ? w - 1 : j + 1;
      for (int t = 0; t < 3; ++t)
        thr += vmafx_fadm_thr(fu[t][lf], fu[t][j], fu[t][rt], fm[t][lf], fm[t][rt], fd[t][lf], fd[t][j], fd[t][rt],
                              ang[t][j], &k);
    }
    for (int t = 0; t < 3; ++t) inner[t] += pnorm_term(vmafx_fadm_masked(src[t][j], rf[t], thr, 0), p_norm);
  }
  for (int t = 0; t < 3; ++t) sum[t] = inner[t];
}

}  // namespace

const Rows& scalar_rows() {
  static const Rows r{&dwt_vertical_row, &dwt_horizontal_row, &decouple_row, &csf_row, &den_row, &masked_row};
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

// Splits the distorted detail bands into the part explained by the reference
// (r: the reference scaled by the clipped ratio, or the distorted band itself
// within the gain limit where the angles agree to within 1 degree) and the
// additive rest (a = distorted - r).
void decouple(const Rows& rw, const Bands& ref, const Bands& dis, const Bands& r, const Bands& a, int w, int h,
              double gain_limit, LibvmafCpu cpu) {
  const Region g = filter_region(w, h);
  if (g.right <= g.left) return;
  for (int i = g.top; i < g.bottom; ++i) {
    const float* o[3] = {ref.h.row(i), ref.v.row(i), ref.d.row(i)};
    const float* t[3] = {dis.h.row(i), dis.v.row(i), dis.d.row(i)};
    float* const rst[3] = {r.h.row(i), r.v.row(i), r.d.row(i)};
    float* const add[3] = {a.h.row(i), a.v.row(i), a.d.row(i)};
    rw.decouple(o, t, g.left, g.right, gain_limit, cpu, rst, add);
  }
}

// CSF weighting of the h, v, d bands of `src` into `dst`, and the masking
// filter input flt = |dst| / 30 (the weight is a double constant).
void csf(const Rows& rw, const Bands& src, const Bands& dst, const Bands& flt, const Factors& fac, int w, int h) {
  const Region g = filter_region(w, h);
  if (g.right <= g.left) return;
  const Band* s[3] = {&src.h, &src.v, &src.d};
  const Band* d[3] = {&dst.h, &dst.v, &dst.d};
  const Band* f[3] = {&flt.h, &flt.v, &flt.d};
  const float rf[3] = {fac.f1, fac.f1, fac.f2};
  for (int t = 0; t < 3; ++t)
    for (int i = g.top; i < g.bottom; ++i) rw.csf(s[t]->row(i), rf[t], g.left, g.right, d[t]->row(i), f[t]->row(i));
}

// Denominator of one scale: p-norm of the CSF-weighted reference detail bands
// over the scored region, plus the noise floor, summed over h, v, d.
float den_scale(const Rows& rw, const Bands& ref, const Factors& fac, int w, int h, const Params& p) {
  const Region g = score_region(w, h);
  const float rf[3] = {fac.f1, fac.f1, fac.f2};
  float acc[3] = {0, 0, 0};
  for (int i = g.top; i < g.bottom; ++i) {
    const float* rows[3] = {ref.h.row(i), ref.v.row(i), ref.d.row(i)};
    float inner[3];
    rw.den(rows, rf, g.left, g.right, p.p_norm, inner);
    for (int t = 0; t < 3; ++t) acc[t] += inner[t];
  }
  return pool(acc, g.right - g.left, g.bottom - g.top, p.noise_weight, p.p_norm);
}

// Contrast masking: each CSF-weighted sample of `src` less a threshold from
// its 3x3 neighbourhood in `flt` (centre: |ang| / 15, a double constant),
// summed over the three orientations; p-norm over the scored region plus the
// noise floor, summed over h, v, d.
float masked_norm(const Rows& rw, const Bands& src, const Bands& flt, const Bands& ang, const Factors& fac, int w,
                  int h, double noise_weight, const Params& p) {
  const Region g = score_region(w, h);
  const float rf[3] = {fac.f1, fac.f1, fac.f2};
  float acc[3] = {0, 0, 0};
  for (int i = g.top; i < g.bottom; ++i) {
    const int up = i == 0 ? 1 : i - 1;
    const int dn = i == h - 1 ? h - 1 : i + 1;
    const float* sr[3] = {src.h.row(i), src.v.row(i), src.d.row(i)};
    const float* fu[3] = {flt.h.row(up), flt.v.row(up), flt.d.row(up)};
    const float* fm[3] = {flt.h.row(i), flt.v.row(i), flt.d.row(i)};
    const float* fd[3] = {flt.h.row(dn), flt.v.row(dn), flt.d.row(dn)};
    const float* ar[3] = {ang.h.row(i), ang.v.row(i), ang.d.row(i)};
    float inner[3];
    rw.masked(sr, fu, fm, fd, ar, rf, g.left, g.right, w, p.bypass_cm, p.p_norm, inner);
    for (int t = 0; t < 3; ++t) acc[t] += inner[t];
  }
  return pool(acc, g.right - g.left, g.bottom - g.top, noise_weight, p.p_norm);
}

}  // namespace

Scores compute(const float* ref, const float* dis, int w, int h, const Params& p) {
  const int w0 = w, h0 = h;
  const int bw = (w + 1) / 2, bh = (h + 1) / 2;
  const std::size_t plane = std::size_t(bw) * bh;
  // 2 x 2 approximation bands (ping-pong), 2 x 3 detail bands, r, a, and the
  // two CSF / masking pairs: 22 planes; the row temporaries and indices after.
  float* mem = flt::scratch(0, plane * 22 + 2 * std::size_t(w));
  thread_local std::vector<int> ix_buf;
  if (ix_buf.size() < 4 * std::size_t(bw)) ix_buf.resize(4 * std::size_t(bw));
  int* ix = ix_buf.data();
  auto next = [&mem, plane]() {
    Band b{mem, 0};
    mem += plane;
    return b;
  };
  Band ref_a[2] = {next(), next()}, dis_a[2] = {next(), next()};
  Bands rb{{}, next(), next(), next()}, db{{}, next(), next(), next()};
  Bands r{{}, next(), next(), next()}, a{{}, next(), next(), next()};
  Bands csf_a{{}, next(), next(), next()}, csf_f{{}, next(), next(), next()};
  float* tlo = mem;
  float* thi = tlo + w;
  for (Band* b :
       {&ref_a[0], &ref_a[1], &dis_a[0], &dis_a[1], &rb.h, &rb.v,    &rb.d,    &db.h,    &db.v,    &db.d,    &r.h,
        &r.v,      &r.d,      &a.h,      &a.v,      &a.d,  &csf_a.h, &csf_a.v, &csf_a.d, &csf_f.h, &csf_f.v, &csf_f.d})
    b->stride = bw;

  const Rows& rw = rows();
  float num_s[4] = {0, 0, 0, 0}, den_s[4] = {0, 0, 0, 0}, aim_s[4] = {0, 0, 0, 0};
  const float* cur_ref = ref;
  const float* cur_dis = dis;
  int stride = w;
  for (int scale = 0; scale < 4; ++scale) {
    rb.a = ref_a[scale & 1];
    db.a = dis_a[scale & 1];
    const bool lo_only = scale == 0 && p.skip_scale0;
    dwt2(rw, cur_ref, stride, w, h, rb, lo_only, tlo, thi, ix);
    dwt2(rw, cur_dis, stride, w, h, db, lo_only, tlo, thi, ix);
    w = (w + 1) / 2;
    h = (h + 1) / 2;
    if (lo_only) {
      den_s[scale] = static_cast<float>(1e-10);
    } else {
      const Factors fac = csf_factors(scale, p);
      decouple(rw, rb, db, r, a, w, h, p.enhn_gain_limit, p.cpu);
      den_s[scale] = den_scale(rw, rb, fac, w, h, p);
      csf(rw, a, csf_a, csf_f, fac, w, h);
      num_s[scale] = masked_norm(rw, r, csf_f, csf_a, fac, w, h, p.noise_weight, p);
      csf(rw, r, csf_f, csf_a, fac, w, h);
      aim_s[scale] = masked_norm(rw, a, csf_a, csf_f, fac, w, h, 0.0, p);
    }
    cur_ref = rb.a.p;
    cur_dis = db.a.p;
    stride = bw;
  }
  return finish(num_s, den_s, aim_s, w0, h0, p);
}

Scores finish(const float num_scale[4], const float den_scale[4], const float aim_scale[4], int w, int h,
              const Params& p) {
  const double numden_limit = 1e-10 * (w * h) / (1920.0 * 1080.0);
  Scores out;
  double num = 0, den = 0, aim_num = 0, aim_den = 0;
  for (int scale = 0; scale < 4; ++scale) {
    num += num_scale[scale];
    den += den_scale[scale];
    if (p.skip_aim_scale != scale) {
      aim_den += den_scale[scale];
      aim_num += aim_scale[scale];
    }
    out.num_scale[scale] = num_scale[scale];
    out.den_scale[scale] = den_scale[scale];
  }
  num = num < numden_limit ? 0 : num;
  den = den < numden_limit ? 0 : den;
  if (den == 0.0) {
    out.score = 1.0;
    out.aim = 0.0;
  } else {
    const double q = aim_num / aim_den;
    out.aim = q < 1.0 ? q : 1.0;
    out.score = num / den;
  }
  out.num = num;
  out.den = den;
  return out;
}

}  // namespace fadm

namespace {

constexpr OptionSpec kOptions[] = {
    {.name = "libvmaf_cpu",
     .help = "whose libvmaf division to reproduce: auto (this machine's), intel, amd or generic (not x86); "
             "not a libvmaf option",
     .type = OptionType::kString,
     .default_str = "auto"},
    {.name = "debug",
     .help = "also write adm, adm_num, adm_den and the per-scale numerators and denominators",
     .type = OptionType::kBool,
     .default_num = 0},
    {.name = "adm_enhn_gain_limit",
     .alias = "egl",
     .help = "limit on the enhancement gain (>= 1.0; 1.0 disables any gain)",
     .type = OptionType::kDouble,
     .default_num = 100.0,
     .min = 1.0,
     .max = 100.0,
     .feature_param = true},
    {.name = "adm_norm_view_dist",
     .alias = "nvd",
     .help = "viewing distance / physical height of the reference display",
     .type = OptionType::kDouble,
     .default_num = 3.0,
     .min = 0.75,
     .max = 24.0,
     .feature_param = true},
    {.name = "adm_noise_weight",
     .alias = "nw",
     .help = "noise floor weight",
     .type = OptionType::kDouble,
     .default_num = 0.03125,
     .min = 0.0,
     .max = 1500.0,
     .feature_param = true},
    {.name = "adm_csf_scale",
     .alias = "scf",
     .help = "scale of the Barten CSF (h and v bands)",
     .type = OptionType::kDouble,
     .default_num = 1.0,
     .min = 0.0,
     .max = 50.0,
     .feature_param = true},
    {.name = "adm_csf_diag_scale",
     .alias = "scfd",
     .help = "scale of the Barten CSF (d bands)",
     .type = OptionType::kDouble,
     .default_num = 1.0,
     .min = 0.0,
     .max = 50.0,
     .feature_param = true},
    {.name = "adm_ref_display_height",
     .alias = "rdf",
     .help = "height of the reference display in pixels",
     .type = OptionType::kInt,
     .default_num = 1080,
     .min = 1,
     .max = 4320,
     .feature_param = true},
    {.name = "adm_csf_mode",
     .alias = "csf",
     .help = "CSF: 0 Watson, 1 Barten, 2 ADM (3-9: Watson)",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 0,
     .max = 9,
     .feature_param = true},
    {.name = "adm_bypass_cm",
     .alias = "bcm",
     .help = "bypass contrast masking (0 or 1)",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 0,
     .max = 1,
     .feature_param = true},
    {.name = "adm_adm3_apply_hm",
     .alias = "aah",
     .help = "adm3 as the harmonic mean of DLM and AIM",
     .type = OptionType::kBool,
     .default_num = 0,
     .feature_param = true},
    {.name = "adm_p_norm",
     .alias = "apn",
     .help = "p of the p-norm pooling",
     .type = OptionType::kDouble,
     .default_num = 3.0,
     .min = 1.0,
     .max = 20.0,
     .feature_param = true},
    {.name = "adm_dlm_weight",
     .alias = "dlmw",
     .help = "weight of DLM against AIM in adm3 (1: DLM only)",
     .type = OptionType::kDouble,
     .default_num = 0.5,
     .min = 0.0,
     .max = 1.0,
     .feature_param = true},
    {.name = "adm_min_val",
     .alias = "min",
     .help = "lower bound of adm3",
     .type = OptionType::kDouble,
     .default_num = 0.0,
     .min = 0.0,
     .max = 1.0,
     .feature_param = true},
    {.name = "adm_f1s0",
     .alias = "f1s0",
     .help = "CSF factor 1 of scale 0 (-1: computed)",
     .type = OptionType::kDouble,
     .default_num = -1.0,
     .min = -1.0,
     .max = 10.0,
     .feature_param = true},
    {.name = "adm_f1s1",
     .alias = "f1s1",
     .help = "CSF factor 1 of scale 1 (-1: computed)",
     .type = OptionType::kDouble,
     .default_num = -1.0,
     .min = -1.0,
     .max = 10.0,
     .feature_param = true},
    {.name = "adm_f1s2",
     .alias = "f1s2",
     .help = "CSF factor 1 of scale 2 (-1: computed)",
     .type = OptionType::kDouble,
     .default_num = -1.0,
     .min = -1.0,
     .max = 10.0,
     .feature_param = true},
    {.name = "adm_f1s3",
     .alias = "f1s3",
     .help = "CSF factor 1 of scale 3 (-1: computed)",
     .type = OptionType::kDouble,
     .default_num = -1.0,
     .min = -1.0,
     .max = 10.0,
     .feature_param = true},
    {.name = "adm_f2s0",
     .alias = "f2s0",
     .help = "CSF factor 2 of scale 0 (-1: computed)",
     .type = OptionType::kDouble,
     .default_num = -1.0,
     .min = -1.0,
     .max = 10.0,
     .feature_param = true},
    {.name = "adm_f2s1",
     .alias = "f2s1",
     .help = "CSF factor 2 of scale 1 (-1: computed)",
     .type = OptionType::kDouble,
     .default_num = -1.0,
     .min = -1.0,
     .max = 10.0,
     .feature_param = true},
    {.name = "adm_f2s2",
     .alias = "f2s2",
     .help = "CSF factor 2 of scale 2 (-1: computed)",
     .type = OptionType::kDouble,
     .default_num = -1.0,
     .min = -1.0,
     .max = 10.0,
     .feature_param = true},
    {.name = "adm_f2s3",
     .alias = "f2s3",
     .help = "CSF factor 2 of scale 3 (-1: computed)",
     .type = OptionType::kDouble,
     .default_num = -1.0,
     .min = -1.0,
     .max = 10.0,
     .feature_param = true},
    {.name = "adm_skip_aim_scale",
     .alias = "sasc",
     .help = "leave this scale out of AIM (default -1: none)",
     .type = OptionType::kInt,
     .default_num = -1,
     .min = 0,
     .max = 3,
     .feature_param = true},
    {.name = "adm_skip_scale0",
     .alias = "ssz",
     .help = "skip scale 0",
     .type = OptionType::kBool,
     .default_num = 0,
     .feature_param = true},
};

constexpr std::string_view kScaleNames[4] = {"VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score",
                                             "VMAF_feature_adm_scale2_score", "VMAF_feature_adm_scale3_score"};
constexpr std::string_view kNumNames[4] = {"adm_num_scale0", "adm_num_scale1", "adm_num_scale2", "adm_num_scale3"};
constexpr std::string_view kDenNames[4] = {"adm_den_scale0", "adm_den_scale1", "adm_den_scale2", "adm_den_scale3"};

constexpr std::string_view kProvided[] = {"VMAF_feature_adm2_score",
                                          "VMAF_feature_aim_score",
                                          "VMAF_feature_adm3_score",
                                          "VMAF_feature_adm_scale0_score",
                                          "VMAF_feature_adm_scale1_score",
                                          "VMAF_feature_adm_scale2_score",
                                          "VMAF_feature_adm_scale3_score",
                                          "adm_num",
                                          "adm_den",
                                          "adm_scale0",
                                          "adm_num_scale0",
                                          "adm_den_scale0",
                                          "adm_num_scale1",
                                          "adm_den_scale1",
                                          "adm_num_scale2",
                                          "adm_den_scale2",
                                          "adm_num_scale3",
                                          "adm_den_scale3"};

}  // namespace

namespace fadm {

Config config(const OptionSet& o, const PictureFormat& fmt) {
  Config c;
  Params& p = c.p;
  p.enhn_gain_limit = o.get_double("adm_enhn_gain_limit");
  p.norm_view_dist = o.get_double("adm_norm_view_dist");
  p.ref_display_height = o.get_int("adm_ref_display_height");
  p.csf_mode = o.get_int("adm_csf_mode");
  p.csf_scale = o.get_double("adm_csf_scale");
  p.csf_diag_scale = o.get_double("adm_csf_diag_scale");
  p.noise_weight = o.get_double("adm_noise_weight");
  p.bypass_cm = o.get_int("adm_bypass_cm") != 0;
  p.p_norm = o.get_double("adm_p_norm");
  const char* f1[4] = {"adm_f1s0", "adm_f1s1", "adm_f1s2", "adm_f1s3"};
  const char* f2[4] = {"adm_f2s0", "adm_f2s1", "adm_f2s2", "adm_f2s3"};
  for (int k = 0; k < 4; ++k) {
    p.f1[k] = o.get_double(f1[k]);
    p.f2[k] = o.get_double(f2[k]);
  }
  p.skip_aim_scale = o.get_int("adm_skip_aim_scale");
  p.skip_scale0 = o.get_bool("adm_skip_scale0");
  p.cpu = parse_libvmaf_cpu(o.get_string("libvmaf_cpu"), "float_adm: libvmaf_cpu");
  c.debug = o.get_bool("debug");
  c.apply_hm = o.get_bool("adm_adm3_apply_hm");
  c.dlm_weight = o.get_double("adm_dlm_weight");
  c.min_val = o.get_double("adm_min_val");
  c.w = fmt.width;
  c.h = fmt.height;
  c.bpc = fmt.bpc;
  return c;
}

void put_scores(const Config& c, const Scores& s, unsigned index, FeatureSink& out) {
  out.put("VMAF_feature_adm2_score", index, s.score);
  out.put("VMAF_feature_aim_score", index, s.aim);
  double adm3;
  if (c.apply_hm)
    adm3 = 2 * s.score * s.aim / (s.score + s.aim);
  else
    adm3 = s.score * c.dlm_weight + (1 - s.aim) * (1 - c.dlm_weight);
  out.put("VMAF_feature_adm3_score", index, adm3 > c.min_val ? adm3 : c.min_val);
  for (int k = 0; k < 4; ++k) out.put(kScaleNames[k], index, double(s.num_scale[k]) / double(s.den_scale[k]));
  if (!c.debug) return;
  out.put_plain("adm", index, s.score);
  out.put("adm_num", index, s.num);
  out.put("adm_den", index, s.den);
  for (int k = 0; k < 4; ++k) {
    out.put(kNumNames[k], index, s.num_scale[k]);
    out.put(kDenNames[k], index, s.den_scale[k]);
  }
}

}  // namespace fadm

namespace {

class FloatAdm final : public Extractor {
 public:
  explicit FloatAdm(const fadm::Config& c) : c_(c) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const std::size_t n = std::size_t(c_.w) * c_.h;
    float* buf = flt::scratch(flt::kSlotFrame, 2 * n);
    flt::plane_to_float(ref.plane(0), c_.bpc, -128, buf);
    flt::plane_to_float(dis.plane(0), c_.bpc, -128, buf + n);
    fadm::put_scores(c_, fadm::compute(buf, buf + n, c_.w, c_.h, c_.p), index, out);
  }

 private:
  fadm::Config c_;
};

std::unique_ptr<Extractor> create(const OptionSet& o, const PictureFormat& fmt) {
  flt::check_depth("float_adm", fmt.bpc);
  flt::check_size("float_adm", fmt.width, fmt.height, fadm::kMinSize, fadm::kMinSize,
                  "four halvings must leave bands of at least 2x2: at least 17x17");
  return std::make_unique<FloatAdm>(fadm::config(o, fmt));
}

}  // namespace

const ExtractorDescriptor kFloatAdmExtractor{
    .name = "float_adm",
    .options = kOptions,
    .provided = kProvided,
    .flags = 0,
    .create = &create,
};

}  // namespace vmafx
