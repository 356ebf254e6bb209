// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Shared pieces of libvmaf 3.2.0's float features (float_vif, float_adm,
// float_motion, float_psnr, float_ansnr, float_moment): the picture-to-float
// conversion (libvmaf's picture_copy), per-thread scratch, the mirrored
// separable float convolution (vif_filter1d_s / convolution_f32_c_s), the
// frame rescalers of vif_tools.c and the RCPSS-based reciprocal of
// adm_tools.c. Every function reproduces libvmaf's plain C path bit for bit:
// same float / double types, same operation and summation order.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/libvmaf_cpu.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx::flt {

// libvmaf's float features convert 8, 10, 12 and 16 bit samples; any other
// depth would be read as 8-bit bytes by its picture_copy, so we refuse it.
bool depth_supported(int bpc);
// Throws Error "<owner>: bit depth N is not supported (8, 10, 12 or 16)".
void check_depth(std::string_view owner, int bpc);
// Throws Error "<owner>: picture WxH is too small (<why>)" unless w, h >= min.
void check_size(std::string_view owner, int w, int h, int min_w, int min_h, std::string_view why);

// picture_copy: one plane as floats, rows packed (stride = plane width).
// 8 bit: sample + offset; 10/12/16 bit: sample / 2^(bpc-8) + offset, in float.
void plane_to_float(const PlaneView& plane, int bpc, int offset, float* dst);

// Row y of `plane_to_float`'s output alone (the same values).
void row_to_float(const PlaneView& plane, int bpc, int offset, int y, float* dst);

// Per-thread scratch that grows as needed and is never shrunk. Slots are
// independent buffers; a caller owns the slots it names for the whole call.
// 10 and 11 belong to convolve / convolve_row / convolve_decimated; 14 and 15
// to the extractors' float frames (kSlotFrame); the features use the others.
// The returned block starts on a 64-byte boundary.
constexpr int kScratchSlots = 16;
constexpr int kSlotFrame = 14;
float* scratch(int slot, std::size_t n);

// Whole-sample symmetric extension, edge sample not repeated:
// -1 -> 1, n -> n - 2 (valid for |overhang| <= n - 1).
inline int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

// Separable convolution, vertical pass then horizontal pass, each tap
// accumulated in float from 0 in tap order, mirrored borders. `fw` is odd,
// w and h > fw / 2. dst may not alias src. (libvmaf's vif_filter1d_s and
// convolution_f32_c_s compute the same thing.)
void convolve(const float* filt, int fw, const float* src, int w, int h, float* dst);

// `convolve` followed by keeping every step-th sample of every step-th row:
// dst[i * dw + j] is convolve's output at row step * i, column step * j, for
// i < dh, j < dw (step * (dh - 1) < h, step * (dw - 1) < w), computed with
// the same per-output arithmetic but only where it is kept. dst may not
// alias src.
void convolve_decimated(const float* filt, int fw, const float* src, int w, int h, int step, int dw, int dh,
                        float* dst);

// The vertical pass of `convolve` for one output row from its fw input rows
// (already mirrored): out[j] = tap-ordered float sum of filt[k] * rows[k][j]
// from 0, j < w.
void convolve_vertical(const float* filt, int fw, const float* const* rows, int w, float* out);

// The 1-D horizontal pass of `convolve` for one row: `row` holds the
// vertical sums of one image row; out[j] for j < w.
void convolve_row(const float* filt, int fw, const float* row, int w, float* out);

// vif_scale_frame_s: rescale a packed w x h float image to dw x dh.
enum class ScaleMethod { kNearest, kBilinear, kBicubic, kLanczos4 };
// Parses libvmaf's method names ("nearest", "bilinear", "bicubic",
// "lanczos4"); false for anything else.
bool parse_scale_method(std::string_view s, ScaleMethod* out);
void scale_frame(ScaleMethod m, const float* src, int w, int h, float* dst, int dw, int dh);

// scale_frame's per-axis part, for device twins: for each output coordinate
// k < dn of an n -> dn rescale along one axis, `taps` source indices
// idx[k * taps + t] and weights wt[k * taps + t] (returns taps):
//   nearest   1 tap: the source index (weight 1, unused);
//   bilinear  2 taps: floor and ceil (mirrored), weights 1 - d and d (floats,
//             as scale_frame forms them); out = (oy ox) r1[x1] + (oy dx) r1[x2]
//             + (dy ox) r2[x1] + (dy dx) r2[x2], left to right;
//   bicubic 4 / lanczos4 9 taps: the mirrored indices and the 1-D weights;
//             out = sum over rows j, then columns i, of src * (wx[i] wy[j])
//             (lanczos4: divided by the float sum of those products).
// (scale_frame copies the frame instead when neither axis changes size.)
int scale_axis(ScaleMethod m, int n, int dn, std::vector<int>& idx, std::vector<float>& wt);

// The reciprocal estimate of the x86 RCPSS instruction of Intel (kIntel) or
// AMD (kAmd, kGeneric) processors, portable (exact/fadm_rcp.h).
float rcp_estimate(float x, LibvmafCpu cpu);
// libvmaf's rcp_s: the estimate refined by one Newton step, in float.
inline float rcp_refined(float x, LibvmafCpu cpu) {
  const float xi = rcp_estimate(x, cpu);
  return xi + xi * (1.0f - x * xi);
}
// libvmaf's DIVS(n, d) in float ADM: n * rcp_s(d) on x86 (intel, amd), the
// quotient n / d on builds without SSE2 (generic).
inline float adm_divide(float n, float d, LibvmafCpu cpu) {
  return cpu == LibvmafCpu::kGeneric ? n / d : n * rcp_refined(d, cpu);
}

}  // namespace vmafx::flt
