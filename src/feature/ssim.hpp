// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// ssim: the Xiph-derived fixed-point SSIM of libvmaf 3.2.0's
// feature/integer_ssim.c (which libvmaf itself neither builds nor registers;
// we register it under its own name, "ssim"). Luma only, 8 to 16 bit: a 9-tap
// integer Gaussian (weight 2^8 per pass, 2^16 for an interior window),
// windows truncated at the frame edge, moments summed in 64-bit integers,
// the per-pixel term in double, summed in raster order and divided by the sum
// of window weights. Where libvmaf forms tap * sample^2 (and max^2) in `int`,
// which overflows at 16 bit, we use 64 bit: equal up to 12 bit, correct above.
#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kSsimExtractor;

namespace ssim {

// The frame score for two luma planes of the same size; bpc 8 (uint8_t
// samples) to 16 (uint16_t).
double integer_ssim(const PlaneView& ref, const PlaneView& dis, int bpc);

}  // namespace ssim
}  // namespace vmafx
