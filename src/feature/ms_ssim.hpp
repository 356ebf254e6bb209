// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// float_ms_ssim: libvmaf 3.2.0's multi-scale SSIM on luma (Wang's, five
// scales; feature/float_ms_ssim.c, ms_ssim.c, iqa/), with the enable_lcs /
// enable_db / clip_db options. Writes float_ms_ssim, and with enable_lcs
// float_ms_ssim_{l,c,s}_scale0..4 (plain names).
#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kFloatMsSsimExtractor;

namespace ssim {

// libvmaf's size rule: each side, halved (rounding down) up to four times,
// must stay >= 11. Both sides >= 176 is the same condition.
bool ms_ssim_size_ok(int w, int h);

// One frame's MS-SSIM and the per-scale luminance / contrast / structure
// means. Needs ms_ssim_size_ok and a depth of 8, 10, 12 or 16 bit.
struct MsSsimScores {
  double score = 0;
  double l[5] = {}, c[5] = {}, s[5] = {};
};
MsSsimScores ms_ssim_frame(const PlaneView& ref, const PlaneView& dis, int bpc);

// The host-side steps of ms_ssim_frame and of the extractor, shared with the
// GPU twins. Scale i's means (in order i = 0..4) into the running product
// `msssim` (start at 1.0; pow in double on the float means and exponents
// widened) and into out.l/c/s; throws Error when the product is infinite.
struct SsimMeans;
void ms_ssim_add_scale(int i, const SsimMeans& m, double& msssim, MsSsimScores& out);
// Writes the extractor's outputs for frame `index`: the score (in dB with
// enable_db, capped at max_db), then with enable_lcs l, c and s of every scale.
void write_ms_ssim(MsSsimScores v, bool lcs, bool db, double max_db, unsigned index, FeatureSink& out);

}  // namespace ssim
}  // namespace vmafx
