// SPDX-License-Identifier: BSD-3-Clause
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
#include <mutex>
#include <vector>

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

// The low-pass filters (motion_filter_size 5, 3 and 1).
extern const float kFilter5[5], kFilter3[3], kFilter5NoOp[5];

// The extractor's settings (the device twins share them).
struct Config {
  bool debug = true, force_zero = false, add_scale1 = false, add_uv = false;
  double fps_weight = 1, blend_factor = 1, blend_offset = 40, max_val = 10000;
  int bpc = 8;
  const float* filt = kFilter5;
  int taps = 5;
  int planes = 1;
  int dims[3][2] = {};  // width, height of each plane
};
Config config(const OptionSet& o, const PictureFormat& fmt);

// The extractor: frame i scores its own reference against frame i - 1's
// (which the engine keeps alive), so frames run in parallel; motion2 /
// motion3, the minimum of neighbouring scores, are formed on flush. The
// device twins replace score_between() alone.
class Motion : public LookBackExtractor {
 public:
  explicit Motion(const Config& c) : c_(c) {}
  unsigned history() const override { return c_.force_zero ? 0 : 1; }
  bool frame_parallel() const override { return true; }
  void extract_with(const Picture& ref, const Picture& dis, const Earlier& earlier, unsigned index,
                    FeatureSink& out) override;
  void flush(FeatureSink& out) override;

 protected:
  // The score between the blurred earlier (frame index - 1) and later
  // (frame index) references: luma, plus chroma with motion_add_uv (each a
  // float widened to double, summed). Called from several threads at once.
  virtual double score_between(const Picture& earlier, const Picture& later, unsigned index);
  const Config c_;

 private:
  double capped(double v) const { return v < c_.max_val ? v : c_.max_val; }
  void note(unsigned index, double score);
  void blur(const Picture& pic, int p, float* dst) const;
  std::mutex mu_;
  std::vector<double> score_;
  std::vector<char> have_;
};

}  // namespace fmotion
}  // namespace vmafx
