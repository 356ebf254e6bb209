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

// vif_statistic_s for one row of filtered moments (mu1, mu2, xx, yy, xy), the
// scalar reference: the per-column contributions summed in float in column
// order into *num and *den. sigma_nsq_max_inv = float(sigma_nsq^2 / 255^2).
void stat_row(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int w,
              float sigma_nsq_max_inv, float gain_limit, double sigma_nsq, float* num, float* den);

// Numerator and denominator per scale (float sums widened to double), as
// compute_vif fills scores[]; skipped scales are 0 / 0.
struct Scores {
  double num[4] = {0, 0, 0, 0};
  double den[4] = {0, 0, 0, 0};
};
// ref and dis: packed w x h float images (already offset and prescaled).
Scores compute(const float* ref, const float* dis, int w, int h, const Params& p);

}  // namespace fvif
}  // namespace vmafx
