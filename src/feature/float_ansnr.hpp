// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Float ANSNR ("float_ansnr" extractor of libvmaf 3.2.0: float_ansnr.c,
// ansnr.c, ansnr_tools.c). The reference luma (-128 offset, 8-bit scale) is
// smoothed with a 3x3 kernel, the distorted luma with a 5x5 one (2-D
// filters, symmetric borders with the edge sample repeated); per frame it
// writes float_ansnr = 10 log10(signal / noise) (psnr_max when the noise is 0)
// and float_anpsnr = min(10 log10(peak^2 w h / max(noise, 1e-10)), psnr_max),
// both plain names. Signal and noise are float sums (per row, then over rows).
#include "core/feature.hpp"
#include "feature/float_common.hpp"

namespace vmafx {

extern const ExtractorDescriptor kFloatAnsnrExtractor;

namespace fansnr {

struct Scores {
  double ansnr, anpsnr;
};
// ref and dis: packed w x h float images, w and h >= 3.
Scores compute(const float* ref, const float* dis, int w, int h, double peak, double psnr_max);
// The scores from the float signal and noise sums (the device twins form the
// sums, this the rest).
Scores from_sums(float sig, float noise, int w, int h, double peak, double psnr_max);
// The filters' taps (row-major 3x3 for the reference, 5x5 for the distorted).
extern const float kRef3[9], kDis5[25];

}  // namespace fansnr
}  // namespace vmafx
