// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Float ADM ("float_adm" extractor of libvmaf 3.2.0: float_adm.c, adm.c,
// adm_tools.c, plain C path).
//
// Per frame it writes VMAF_feature_adm2_score, _aim_score, _adm3_score and
// _adm_scale0..3_score (aliases adm2, aim, adm3, adm_scale0..3, plus the
// option suffix); with debug=true also "adm" (plain name: libvmaf does not
// list it among the provided features, so it gets no option suffix), adm_num,
// adm_den and adm_num_scale0..3 / adm_den_scale0..3 (with the suffix).
// Luma only, on the 8-bit scale with -128 offset.
//
// Its option libvmaf_cpu (auto, intel, amd, generic; not libvmaf's: a
// Session sets it on every float_adm from SessionConfig::libvmaf_cpu) picks
// the libvmaf whose division it reproduces (exact/fadm_rcp.h); auto: this
// machine's (host_libvmaf_cpu()). It does not change the output names.
#include "core/feature.hpp"
#include "exact/float_adm.h"
#include "feature/float_common.hpp"

namespace vmafx {

extern const ExtractorDescriptor kFloatAdmExtractor;

namespace fadm {

struct Params {
  double enhn_gain_limit = 100.0;
  double norm_view_dist = 3.0;
  int ref_display_height = 1080;
  int csf_mode = 0;  // 1: Barten, 2: ADM's own CSF, anything else: Watson
  double csf_scale = 1.0;
  double csf_diag_scale = 1.0;
  double noise_weight = 0.03125;
  bool bypass_cm = false;
  double p_norm = 3.0;
  double f1[4] = {-1, -1, -1, -1};  // >= 0 replaces the CSF factor of h and v bands
  double f2[4] = {-1, -1, -1, -1};  // >= 0 replaces the CSF factor of d bands
  int skip_aim_scale = -1;
  bool skip_scale0 = false;
  // Whose division (flt::adm_divide): config() sets it from the libvmaf_cpu
  // option; kAmd (the golden data's) otherwise.
  LibvmafCpu cpu = LibvmafCpu::kAmd;
};

// CSF weights of one scale: factor1 for the h and v bands, factor2 for d.
struct Factors {
  float f1, f2;
};
Factors csf_factors(int scale, const Params& p);

// What compute_adm returns: the DLM score (num / den after the small-value
// limit, 1 when den is 0), the AIM score (min(aim_num / aim_den, 1); 0 when
// den is 0, where libvmaf leaves it uninitialised), num, den, and each
// scale's numerator and denominator (float).
struct Scores {
  double score = 0, aim = 0, num = 0, den = 0;
  float num_scale[4] = {0, 0, 0, 0};
  float den_scale[4] = {0, 0, 0, 0};
};
// The constants of exact/float_adm.h's decoupling, CSF and masking.
vmafx_fadm_consts stage_consts(double gain_limit, LibvmafCpu cpu);

// The row stages of compute(), columns l <= j < r of one row. The scalar
// rows (scalar_rows(), float_adm.cpp) are loops around exact/float_adm.h and
// the reference; the SIMD rows (float_adm_simd.cpp) give the same bits, and
// run the scalar rows where they have no vector path (p != 3, ranges narrower
// than a vector).
struct Rows {
  // The vertical step of one db2 DWT row: for j < w, lo_out[j] and (unless
  // null) hi_out[j] = the low / high-pass taps on r[0..3][j] (fir4: from 0,
  // f[k] * s_k added in tap order, in float).
  void (*dwt_vertical)(const float* const* r, int w, float* lo_out, float* hi_out);
  // The horizontal step for output columns j0 <= j < j1 whose four inputs
  // 2j - 1 .. 2j + 2 all lie inside the row (1 <= j0): from tlo, a[j] (low)
  // and v[j] (high); from thi (unless null), h[j] (low) and d[j] (high).
  void (*dwt_horizontal)(const float* tlo, const float* thi, int j0, int j1, float* a, float* v, float* h, float* d);
  // The decoupling: o / t the reference / distorted h, v, d rows; rst / add
  // the decoupled rows.
  void (*decouple)(const float* const* o, const float* const* t, int l, int r, double gain_limit, LibvmafCpu cpu,
                   float* const* rst, float* const* add);
  // dst[j] = rf * src[j]; flt[j] = float(1/30 (a double) * |dst[j]|).
  void (*csf)(const float* src, float rf, int l, int r, float* dst, float* flt);
  // sum[t] = float sum from 0, in column order, of |rf[t] * rows[t][j]|^p.
  void (*den)(const float* const* rows, const float* rf, int l, int r, double p_norm, float* sum);
  // The masking terms of row i of a w-wide band: src / ang rows i, fu / fm /
  // fd the masking filter input rows i - 1 / i / i + 1 (mirrored by the
  // caller); columns mirror here (j - 1 of column 0 is 1; j + 1 of column
  // w - 1 is w - 1); sum[t] as in den.
  void (*masked)(const float* const* src, const float* const* fu, const float* const* fm, const float* const* fd,
                 const float* const* ang, const float* rf, int l, int r, int w, bool bypass, double p_norm, float* sum);
};
// The reference rows (always built).
const Rows& scalar_rows();
// scalar_rows() with the SIMD rows over it while vmafx::simd::enabled();
// asked once per frame.
const Rows& rows();
// float_adm_simd.cpp (with Highway): puts its rows over r's.
void init_simd_rows(Rows& r);

// ref and dis: packed w x h float images, w and h >= kMinSize.
Scores compute(const float* ref, const float* dis, int w, int h, const Params& p);

// The pieces of compute() that the device twins run on the host:
// |x|^p as the p-norm terms form it (x * x * x for p = 3, else powf).
float pnorm_term(float x, double p);
// One scale's pooled value from the three orientations' float sums over a
// rw x rh score region: sum over t of powf(acc[t], 1/p) + the noise floor.
float pool(const float acc[3], int rw, int rh, double noise_weight, double p_norm);
// The scores from each scale's numerator, denominator and AIM numerator
// (w, h: the picture's size).
Scores finish(const float num_scale[4], const float den_scale[4], const float aim_scale[4], int w, int h,
              const Params& p);

// The extractor's settings (the device twins share them).
struct Config {
  Params p;
  int w = 0, h = 0, bpc = 8;
  bool debug = false, apply_hm = false;
  double dlm_weight = 0.5, min_val = 0.0;
};
Config config(const OptionSet& o, const PictureFormat& fmt);
// The frame's outputs, as the CPU extractor writes them.
void put_scores(const Config& c, const Scores& s, unsigned index, FeatureSink& out);

// Four halvings must leave at least 2x2 bands for the 3x3 masking window.
constexpr int kMinSize = 17;

}  // namespace fadm
}  // namespace vmafx
