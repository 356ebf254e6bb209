#pragma once
// float_ms_ssim: libvmaf 3.2.0's multi-scale SSIM on luma (Wang's, five
// scales; feature/float_ms_ssim.c, ms_ssim.c, iqa/), with the enable_lcs /
// enable_db / clip_db options. Writes float_ms_ssim, and with enable_lcs
// float_ms_ssim_{l,c,s}_scale0..4 (plain names).
#include "core/feature.hpp"
#include "core/picture.hpp"

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

}  // namespace ssim
}  // namespace vmafx
