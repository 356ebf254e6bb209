#pragma once
// Float motion ("float_motion" extractor of libvmaf 3.2.0: float_motion.c,
// motion.c, common/convolution.c, plain C path). Temporal.
//
// The luma of each reference frame (-128 offset, 8-bit scale) is low-pass
// filtered; the motion score of frame i is the mean absolute difference
// between the filtered frames i-1 and i (and optionally of their half-size
// bilinear versions, and of the chroma planes).
//
// What is written, and when (libvmaf's order; names through the option
// suffix, aliases motion, motion2, motion3):
//   extract(0):  motion2[0] = 0; motion[0] = 0 (debug, on by default)
//   extract(1):  motion[1] (debug); motion3[0] = blend(score(1))
//   extract(i>=2): motion[i] (debug); motion2[i-1] = min(score(i-1), score(i));
//                motion3[i-1] = blend(motion2[i-1])
//   flush:       motion2[n-1] = score(n-1), motion3[n-1] = blend(score(n-1));
//                with a single frame, motion3[0] = 0 only.
// Every value is multiplied by motion_fps_weight and capped at
// motion_max_val. With motion_force_zero, extract(i) writes motion2[i] = 0,
// motion3[i] = 0 (and motion[i] = 0 with debug) and flush writes nothing.
#include "core/feature.hpp"
#include "feature/float_common.hpp"

namespace vmafx {

extern const ExtractorDescriptor kFloatMotionExtractor;

namespace fmotion {

// Mean absolute difference of two packed w x h float images (float sums per
// row, then over rows, divided in float); with add_scale1 plus the same for
// their bilinear half-size versions. luma_w: the luma width of the frame.
// libvmaf stores every plane in rows padded from the luma width but rescales
// with rows padded from the plane's width; for chroma narrower than the luma
// (4:2:0, 4:2:2) its half-size image is therefore built from a misread buffer
// whose never-written padding we take as 0 (what libvmaf reads when that
// memory is fresh). See docs/exactness.md.
float sad(const float* a, const float* b, int w, int h, bool add_scale1, int luma_w);

// sad(blur(a), blur(b), w, h, false, w) for two planes of the same size w x h
// (w, h > fw / 2), blur being plane_to_float(-128) then flt::convolve with
// `filt` (fw <= 16 taps): the same float, computed row by row from the
// samples without full-frame float images.
float blurred_sad(const PlaneView& a, const PlaneView& b, int bpc, const float* filt, int fw);
// motion_score * f + (1 - f) * min(offset, motion_score).
double blend(double motion_score, double blend_factor, double blend_offset);

}  // namespace fmotion
}  // namespace vmafx
