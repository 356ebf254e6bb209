// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Float PSNR ("float_psnr" extractor of libvmaf 3.2.0: float_psnr.c, psnr.c).
// Per frame: float_psnr (plain name, no option suffix), luma on the 8-bit
// scale: min(10 log10(peak^2 / max(mse, 1e-10)), psnr_max), with the squared
// float differences summed in double. peak / psnr_max: 255 / 60 (8 bit),
// 255.75 / 72 (10), 255.9375 / 84 (12), 255.99609375 / 108 (16).
#include "core/feature.hpp"
#include "feature/float_common.hpp"

namespace vmafx {

extern const ExtractorDescriptor kFloatPsnrExtractor;

namespace fpsnr {

struct Peak {
  double peak, psnr_max;
};
// The constants of a supported bit depth (8, 10, 12, 16).
Peak peak_for(int bpc);

// ref and dis: packed w x h float images.
double psnr(const float* ref, const float* dis, int w, int h, const Peak& pk);
// The score from the double sum of the squared float differences (the
// device twins form the sum, this the rest).
double from_noise(double noise, int w, int h, const Peak& pk);

}  // namespace fpsnr
}  // namespace vmafx
