// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// float_ssim: libvmaf 3.2.0's SSIM on luma (feature/float_ssim.c, ssim.c,
// iqa/), with its automatic decimation and the enable_lcs / enable_db /
// clip_db / scale options. Writes float_ssim, and float_ssim_l/_c/_s with
// enable_lcs (plain names: none of the options is a feature parameter).
#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kFloatSsimExtractor;

namespace ssim {

// The decimation factor float_ssim uses: `scale_option` when > 0, else
// max(1, round(min(w, h) / 256)).
int float_ssim_scale(int w, int h, int scale_option);

// One frame's float_ssim and its luminance, contrast and structure means
// (each a float widened to double, as libvmaf writes them). Needs a luma
// plane of 8, 10, 12 or 16 bit that is at least 11x11 after decimation.
struct FloatSsimScores {
  double ssim = 0, l = 0, c = 0, s = 0;
};
FloatSsimScores float_ssim_frame(const PlaneView& ref, const PlaneView& dis, int bpc, int scale);

// Writes the extractor's outputs for frame `index` (the reference and its
// twins): float_ssim (in dB with enable_db, capped at max_db), then with
// enable_lcs float_ssim_l, _c and _s.
void write_float_ssim(FloatSsimScores v, bool lcs, bool db, double max_db, unsigned index, FeatureSink& out);

}  // namespace ssim
}  // namespace vmafx
