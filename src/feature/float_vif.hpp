// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Float VIF ("float_vif" extractor of libvmaf 3.2.0: float_vif.c, vif.c,
// vif_tools.c, plain C path).
//
// Per frame it writes VMAF_feature_vif_scale0..3_score (aliases vif_scale0..3
// plus the option suffix); with debug=true also vif, vif_num, vif_den and
// vif_num_scale0..3 / vif_den_scale0..3 (all through the option suffix).
// Luma only, on the 8-bit scale with -128 offset; the frame may first be
// rescaled (vif_prescale, vif_prescale_method).
#include <vector>

#include "core/feature.hpp"
#include "exact/float_vif.h"
#include "feature/float_common.hpp"

namespace vmafx {

extern const ExtractorDescriptor kFloatVifExtractor;

namespace fvif {

struct Params {
  double enhn_gain_limit = 100.0;
  double kernelscale = 1.0;
  double sigma_nsq = 2.0;
  bool skip_scale0 = false;
};

// libvmaf's log2f replacement in the VIF statistic (exponent + polynomial).
float log2_approx(float x);

// Whether libvmaf accepts the kernel scale (within 1e-3 of a listed value).
bool kernelscale_valid(double kernelscale);
// Gaussian kernel of one scale: taps = max(odd ceil((2^(4-scale)+1) * ks), 3),
// sigma = taps / 5, normalised in float. Returns the taps.
std::vector<float> gaussian_kernel(int scale, double kernelscale);

// Smallest width and height compute() accepts: every scale, and every image
// filtered before a decimation, must be larger than its filter radius.
bool size_ok(int w, int h, const Params& p);

// The hot rows of compute(). The scalar rows (scalar_rows(), float_vif.cpp)
// are loops around exact/float_vif.h and the reference; the SIMD rows
// (float_vif_simd.cpp) give the same bits.
struct Rows {
  // The vertical pass of the statistic for one output row: with a_k = ra[k]
  // and b_k = rb[k] the input rows of tap k, for j < w
  //   t[0][j] = sum_k f[k] * a_k[j]          t[1][j] = sum_k f[k] * b_k[j]
  //   t[2][j] = sum_k f[k] * (a_k * a_k)[j]  t[3][j] = sum_k f[k] * (b_k * b_k)[j]
  //   t[4][j] = sum_k f[k] * (a_k * b_k)[j]
  // accumulated in float from 0 in tap order k = 0 .. fw - 1.
  void (*moments)(const float* f, int fw, const float* const* ra, const float* const* rb, int w, float* const* t);
  // Two neighbouring output rows at once: ra / rb hold fw + 1 rows; t (the
  // first row) uses rows 0 .. fw - 1, u (the second) rows 1 .. fw.
  void (*moments2)(const float* f, int fw, const float* const* ra, const float* const* rb, int w, float* const* t,
                   float* const* u);
  // vif_statistic_s for one row of filtered moments (mu1, mu2, xx, yy, xy):
  // the per-column contributions summed in float from 0 in column order into
  // *num and *den.
  void (*stat)(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int w,
               const vmafx_fvif_consts& k, float* num, float* den);
};
// The reference rows (always built).
const Rows& scalar_rows();
// scalar_rows() with the SIMD rows over it while vmafx::simd::enabled();
// asked once per scale.
const Rows& rows();
// float_vif_simd.cpp (with Highway): puts its rows over r's.
void init_simd_rows(Rows& r);

// Numerator and denominator per scale (float sums widened to double), as
// compute_vif fills scores[]; skipped scales are 0 / 0.
struct Scores {
  double num[4] = {0, 0, 0, 0};
  double den[4] = {0, 0, 0, 0};
};
// ref and dis: packed w x h float images (already offset and prescaled).
Scores compute(const float* ref, const float* dis, int w, int h, const Params& p);

// float(sigma_nsq^2 / 255^2) as the statistic forms it (powf of the float).
float sigma_nsq_max_inv(double sigma_nsq);
// The statistic's constants (exact/float_vif.h): of the parameters, or given.
vmafx_fvif_consts stat_consts(const Params& p);
vmafx_fvif_consts stat_consts(float max_inv, float gain_limit, double sigma_nsq);

// The extractor's settings, from its options and the picture format (the
// device twins share them): create() has checked them.
struct Config {
  Params p;
  flt::ScaleMethod method = flt::ScaleMethod::kNearest;
  int w = 0, h = 0;    // picture
  int sw = 0, sh = 0;  // after vif_prescale
  int bpc = 8;
  bool debug = false;
  double min_val[4] = {0, 0, 0, 0};
  bool rescale() const { return sw != w || sh != h; }
};
Config config(const OptionSet& o, const PictureFormat& fmt);
// Luma of `pic` as the statistic's input: offset by -128 and prescaled; dst
// holds sw * sh floats (w * h + sw * sh when rescaling: the unscaled image
// first, the input after it). Returns the input.
const float* input(const Config& c, const Picture& pic, float* dst);
// The frame's outputs from the per-scale sums (as the CPU extractor writes them).
void put_scores(const Config& c, const Scores& s, unsigned index, FeatureSink& out);

}  // namespace fvif
}  // namespace vmafx
