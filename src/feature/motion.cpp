// SPDX-License-Identifier: BSD-3-Clause
#include "feature/motion.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "feature/motion_simd.hpp"
#include "feature/row_table.hpp"
#include "exact/motion.h"
#include "feature/motion_options.hpp"

namespace vmafx {
namespace motion {
namespace {

constexpr int kRadius = VMAFX_MOTION_RADIUS;

// exact/motion.h's passes over the frame; `row` holds one row's vertical values.
template <class T>
std::uint64_t sad_impl(const PlaneView& prev, const PlaneView& cur, int shift, std::int32_t* row) {
  const int w = cur.width;
  const int h = cur.height;
  std::uint64_t total = 0;
  for (int i = 0; i < h; ++i) {
    const T* p[VMAFX_MOTION_TAPS];
    const T* c[VMAFX_MOTION_TAPS];
    for (int k = 0; k < VMAFX_MOTION_TAPS; ++k) {
      const int r = vmafx_motion_reflect(i - kRadius + k, h);
      p[k] = prev.row<T>(r);
      c[k] = cur.row<T>(r);
    }

    // Vertical pass on the difference; remember whether the row is all zero.
    std::int32_t any = 0;
    for (int j = 0; j < w; ++j) {
      const auto d = [&](int k) { return std::int32_t(p[k][j]) - std::int32_t(c[k][j]); };
      row[j] = vmafx_motion_y_value(vmafx_motion_filter5(d(0), d(1), d(2), d(3), d(4)), shift);
      any |= row[j];
    }
    if (!any) continue;

    // Horizontal pass, |.|, row sum (32-bit, as libvmaf); the columns within
    // the radius of an edge read reflected values.
    std::uint32_t row_sum = 0;
    const int lo = std::min(kRadius, w);
    const int hi = std::max(lo, w - kRadius);
    const auto edge = [&](int j) {
      const auto v = [&](int k) { return row[vmafx_motion_reflect(j - kRadius + k, w)]; };
      return vmafx_motion_x_abs(vmafx_motion_filter5(v(0), v(1), v(2), v(3), v(4)));
    };
    for (int j = 0; j < lo; ++j) row_sum += edge(j);
    for (int j = lo; j < hi; ++j) {
      const std::int32_t* r = row + j - kRadius;
      row_sum += vmafx_motion_x_abs(vmafx_motion_filter5(r[0], r[1], r[2], r[3], r[4]));
    }
    for (int j = hi; j < w; ++j) row_sum += edge(j);
    total += row_sum;
  }
  return total;
}

// Rows::sad, the scalar reference.
std::uint64_t sad_scalar(const PlaneView& prev, const PlaneView& cur, int bpc) {
  thread_local std::vector<std::int32_t> row;
  if (row.size() < std::size_t(cur.width)) row.resize(std::size_t(cur.width));
  if (bpc == 8) return sad_impl<std::uint8_t>(prev, cur, 8, row.data());
  return sad_impl<std::uint16_t>(prev, cur, bpc, row.data());
}

}  // namespace

std::uint64_t sad(const PlaneView& prev, const PlaneView& cur, int bpc) { return rows().sad(prev, cur, bpc); }

const Rows& scalar_rows() {
  static const Rows r{sad_scalar};
  return r;
}

const Rows& rows() { return vmafx::simd::pick_rows(scalar_rows(), init_simd_rows); }

double sad_score(std::uint64_t sad, unsigned width, unsigned height, const Params& p) {
  const unsigned pixels = width * height;  // unsigned product, as libvmaf
  const double s = double(sad) / VMAFX_MOTION_SAD_SCALE / double(pixels) * p.fps_weight;
  return s < p.max_val ? s : p.max_val;
}

double blend(double motion_score, double blend_factor, double blend_offset) {
  const double low = blend_offset < motion_score ? blend_offset : motion_score;
  return motion_score * blend_factor + (1 - blend_factor) * low;
}

Series finish(std::span<const double> sad, const Params& p) {
  Series out;
  const unsigned n = unsigned(sad.size());
  out.motion2.resize(n);
  out.motion3.resize(n);
  const unsigned step = p.five_frame_window ? 2 : 1;
  const unsigned first = p.five_frame_window ? 2 : 1;  // first frame with a SAD

  auto processed = [&](double m) {
    const double b = blend(m, p.blend_factor, p.blend_offset);
    return b < p.max_val ? b : p.max_val;
  };

  // Frames before `first` take motion3 from the first real SAD.
  const double stamp = n > first ? processed(sad[first]) : 0.0;

  double prev = 0.0;
  for (unsigned i = 0; i < n; ++i) {
    double m2;
    if (i < first) {
      m2 = 0.0;
    } else {
      const int lo = int(i) - int(step - 1);
      const unsigned hi = i + 1;
      if (hi >= n)
        m2 = sad[i];
      else if (lo >= int(first))
        m2 = sad[unsigned(lo)] < sad[hi] ? sad[unsigned(lo)] : sad[hi];
      else
        m2 = sad[hi];
    }
    out.motion2[i] = m2;

    double m3;
    if (i < first) {
      m3 = stamp;
      prev = stamp;
    } else {
      const double cur = processed(m2);
      m3 = p.moving_average ? (cur + prev) / 2.0 : cur;
      prev = cur;
    }
    out.motion3[i] = m3;
  }
  return out;
}

}  // namespace motion

namespace {

constexpr std::string_view kSadName = "VMAF_integer_feature_motion_sad_score";
constexpr std::string_view kDebugName = "VMAF_integer_feature_motion_score";
constexpr std::string_view kMotion2Name = "VMAF_integer_feature_motion2_score";
constexpr std::string_view kMotion3Name = "VMAF_integer_feature_motion3_score";

}  // namespace

namespace motion {

Scores::Scores(const OptionSet& o) : force_zero_(o.get_bool("motion_force_zero")), debug_(o.get_bool("debug")) {
  p_.max_val = o.get_double("motion_max_val");
  p_.blend_factor = o.get_double("motion_blend_factor");
  p_.blend_offset = o.get_double("motion_blend_offset");
  p_.fps_weight = o.get_double("motion_fps_weight");
  p_.five_frame_window = o.get_bool("motion_five_frame_window");
  p_.moving_average = o.get_bool("motion_moving_average");
}

void Scores::record(unsigned index, double score, FeatureSink& out) {
  {
    std::lock_guard lk(mu_);
    if (index >= sad_.size()) {
      sad_.resize(index + 1, 0.0);
      have_.resize(index + 1, 0);
    }
    sad_[index] = score;
    have_[index] = 1;
  }
  out.put(kSadName, index, score);
  if (debug_) out.put(kDebugName, index, score);
}

void Scores::flush(FeatureSink& out) const {
  std::lock_guard lk(mu_);
  std::size_t n = 0;
  while (n < have_.size() && have_[n]) ++n;
  const Series s = finish(std::span<const double>(sad_.data(), n), p_);
  for (unsigned i = 0; i < n; ++i) {
    out.put(kMotion2Name, i, s.motion2[i]);
    out.put(kMotion3Name, i, s.motion3[i]);
  }
}

}  // namespace motion

namespace {

constexpr OptionSpec kOptions[] = {
    motion_options::kForceZero,
    motion_options::kBlendFactor,
    motion_options::kBlendOffset,
    motion_options::kFpsWeight,
    motion_options::kMaxVal,
    motion_options::flag("motion_five_frame_window", "mffw", "compare with the frame two back (five-frame window)"),
    motion_options::flag("motion_moving_average", "mma", "average motion3 with the previous frame's value"),
    {.name = "debug",
     .help = "also write integer_motion (same as the SAD score)",
     .type = OptionType::kBool,
     .default_num = 0},
};

constexpr std::string_view kProvided[] = {kSadName, kDebugName, kMotion2Name, kMotion3Name};

// Frame i's SAD reads the reference of frame i - 1 (i - 2 with the
// five-frame window), which the engine keeps alive: frames are scored in
// parallel, and only motion2 / motion3 (flush) are formed in order.
class MotionExtractor final : public LookBackExtractor {
 public:
  MotionExtractor(const OptionSet& o, const PictureFormat& f) : scores_(o), w_(f.width), h_(f.height), bpc_(f.bpc) {}

  unsigned history() const override {
    if (scores_.force_zero()) return 0;
    return scores_.params().five_frame_window ? 2 : 1;
  }
  bool frame_parallel() const override { return true; }

  void extract_with(const Picture& ref, const Picture& /*dis*/, const Earlier& earlier, unsigned index,
                    FeatureSink& out) override {
    double score = 0.0;
    const unsigned back = history();
    if (back > 0 && index >= back) {
      if (earlier.count < back) throw std::logic_error("motion: the earlier reference is missing");
      const std::uint64_t s = motion::sad(earlier.ref[back - 1]->plane(0), ref.plane(0), bpc_);
      score = motion::sad_score(s, unsigned(w_), unsigned(h_), scores_.params());
    }
    scores_.record(index, score, out);
  }

  void flush(FeatureSink& out) override { scores_.flush(out); }

 private:
  motion::Scores scores_;
  int w_, h_, bpc_;
};

std::unique_ptr<Extractor> create(const OptionSet& opts, const PictureFormat& fmt) {
  if (fmt.bpc < 8 || fmt.bpc > 16)
    throw unsupported_error("motion: unsupported bit depth " + std::to_string(fmt.bpc) + " (8 to 16)");
  if (fmt.width < 3 || fmt.height < 3)
    throw unsupported_error("motion: picture " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                            " is too small (the 5-tap filter needs at least 3x3)");
  return std::make_unique<MotionExtractor>(opts, fmt);
}

}  // namespace

// Frame i's SAD reads frame i - 1 (i - 2 with the five-frame window); its
// motion2 is the minimum of its SAD (i - 1's with the window) and i + 1's,
// so a run must have scored one frame more than the SAD needs (the window
// skips frames 0 and 1 of a run, the plain SAD frame 0); motion3 with the
// moving average also reads i - 1's motion2: one frame more.
RangeReach range_reach(const OptionSet& o) {
  const bool window = o.get_bool("motion_five_frame_window");
  const unsigned sad_back = window ? 2 : 1;
  return {sad_back + (window ? 1u : 0u) + (o.get_bool("motion_moving_average") ? 1u : 0u), 1, {}};
}

const ExtractorDescriptor kMotionExtractor{
    .name = "motion",
    .options = kOptions,
    .provided = kProvided,
    .flags = kTemporal,
    .create = &create,
    .range_reach = &range_reach,
};

}  // namespace vmafx
