// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Integer motion ("motion" extractor of libvmaf 3.2.0, integer_motion.c).
//
// Per frame i it writes VMAF_integer_feature_motion_sad_score (and, with
// debug=true, VMAF_integer_feature_motion_score, the same value): the mean
// absolute low-pass-filtered luma difference between the reference of frame i
// and the reference of frame i-1 (i-2 with motion_five_frame_window), 0 for
// the first frame(s). VMAF_integer_feature_motion2_score and
// VMAF_integer_feature_motion3_score of every frame are written only on flush.
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kMotionExtractor;

namespace motion {

struct Params {
  double max_val = 10000.0;
  double blend_factor = 1.0;
  double blend_offset = 40.0;
  double fps_weight = 1.0;
  bool five_frame_window = false;
  bool moving_average = false;
};

// Sum over the picture of |Y(X(prev - cur))| where Y and X are the vertical and
// horizontal 5-tap filters (mirrored borders, libvmaf's rounding;
// exact/motion.h). `prev` and `cur` are luma planes of the same size (at
// least 3x3) holding uint8_t samples when bpc == 8, uint16_t otherwise.
// By rows().
std::uint64_t sad(const PlaneView& prev, const PlaneView& cur, int bpc);

// The row table: the SAD behind one pointer, the same signature for the
// scalar reference (motion.cpp) and the SIMD version (motion_simd.cpp,
// init_simd_rows), which give the same integer. It is a whole plane: the
// SIMD version keeps the 5-row window's differences from one output row to
// the next.
struct Rows {
  std::uint64_t (*sad)(const PlaneView& prev, const PlaneView& cur, int bpc);
};
// The scalar reference rows.
const Rows& scalar_rows();
// scalar_rows() with the SIMD rows over them while vmafx::simd::enabled()
// (read at each call: call it once per frame).
const Rows& rows();

// The per-frame score from a SAD: min(sad / 256 / (w*h) * fps_weight, max_val).
double sad_score(std::uint64_t sad, unsigned width, unsigned height, const Params& p);

// motion_score * f + (1 - f) * min(offset, motion_score).
double blend(double motion_score, double blend_factor, double blend_offset);

// What flush writes: motion2 and motion3 of every frame from the per-frame
// SAD scores of frames 0..n-1.
struct Series {
  std::vector<double> motion2, motion3;
};
Series finish(std::span<const double> sad_scores, const Params& p);

// The extractor's options and per-frame bookkeeping, shared by the reference
// and its twins: a backend finds each frame's SAD score its own way and
// records it here; flush() writes motion2 and motion3 from the recorded run.
class Scores {
 public:
  explicit Scores(const OptionSet& o);
  const Params& params() const { return p_; }
  bool force_zero() const { return force_zero_; }
  // Frame `index`'s SAD score: kept for flush, written (twice with debug).
  // Thread-safe (frames may be scored on several threads at once).
  void record(unsigned index, double score, FeatureSink& out);
  // As libvmaf, only the run of SAD scores starting at frame 0 counts.
  void flush(FeatureSink& out) const;

 private:
  Params p_;
  bool force_zero_, debug_;
  mutable std::mutex mu_;
  std::vector<double> sad_;
  std::vector<char> have_;
};

}  // namespace motion
}  // namespace vmafx
