// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Shared pieces of the float SSIM family (float_ssim, float_ms_ssim): the
// luma-to-float conversion, the two decimations and the Gaussian-window SSIM
// with its luminance / contrast / structure means, each reproducing libvmaf
// 3.2.0 (feature/float_ssim.c, ssim.c, ms_ssim.c, iqa/) bit for bit: same
// float / double types, same operation and summation order.
#include <string_view>
#include <vector>

#include "vmaf_exact/picture.hpp"

namespace vmafx::ssim {

// libvmaf's float features take 8, 10, 12 and 16 bit; any other depth would be
// read as 8-bit bytes by its picture_copy, so we refuse it.
bool float_depth_supported(int bpc);
// Throws Error "<owner>: bit depth N is not supported (8, 10, 12 or 16)".
void check_float_depth(std::string_view owner, int bpc);

// The luma plane as floats on the 8-bit scale (sample / 2^(bpc-8), exact),
// rows packed (stride = width).
void luma_to_float(const PlaneView& luma, int bpc, float* dst);

// float_ssim's automatic decimation factor: max(1, round(min(w, h) / 256)),
// with the division in float and libvmaf's rounding (halves away from zero).
int auto_scale(int w, int h);
// Size after a decimation by `factor`: w / factor + (w & 1).
inline int decimated_size(int n, int factor) { return n / factor + (n & 1); }

// float_ssim's box decimation, in place: a factor x factor mean (tap
// 1/factor^2 in float, mirrored borders) sampled every `factor` pixels,
// written over the image row by row as libvmaf does. Returns the new size.
void decimate_box_in_place(float* img, int w, int h, int factor, int* out_w, int* out_h);

// float_ms_ssim's halving with the 9x9 low-pass filter (mirrored borders);
// `dst` gets decimated_size(w, 2) x decimated_size(h, 2) samples.
void decimate_lpf(const float* src, int w, int h, float* dst);

// Frame means of the default (Wang) SSIM with the 11x11 Gaussian window over
// the (w - 10) x (h - 10) positions where the window fits. Each is the float
// that libvmaf returns (double sum / count, rounded to float).
struct SsimMeans {
  float ssim = 0, l = 0, c = 0, s = 0;
};
// Needs w, h >= 11.
SsimMeans gaussian_ssim(const float* ref, const float* cmp, int w, int h);

// -10 * log10(1 - score), capped at max_db (the cap also replaces a NaN).
double to_db(double score, double max_db);
// The cap of clip_db: ceil(10 * log10(peak^2 / (0.5 / (w * h)))), or +inf
// without clipping.
double max_db(bool clip, int bpc, int w, int h);

// Per-thread scratch that grows as needed and is never shrunk.
std::vector<float>& scratch(int slot, std::size_t n);

}  // namespace vmafx::ssim
