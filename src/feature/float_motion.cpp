// SPDX-License-Identifier: BSD-3-Clause
#include "feature/float_motion.hpp"

#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "exact/float_motion.h"
#include "feature/float_simd.hpp"
#include "exact/float_vif_tables.h"
#include "core/simd.hpp"
#include "feature/motion_options.hpp"

namespace vmafx {
namespace fmotion {

// libvmaf's motion filters (motion_tools.h), double literals rounded to float.
const float kFilter5[5] = {0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685};
const float kFilter3[3] = {0.166378498, 0.667243004, 0.166378498};
const float kFilter5NoOp[5] = {0.0, 0.0, 1.0, 0.0, 0.0};

namespace {

float mean_abs_diff(const float* a, const float* b, int w, int h) {
  float acc = 0.0f;
  if (vmafx::simd::enabled()) {
    // The row sums side by side (per-thread, grown once), added in row order.
    thread_local std::vector<float> lines;
    if (lines.size() < std::size_t(h)) lines.resize(std::size_t(h));
    flt::simd::row_abs_diff_sums(a, b, w, h, lines.data());
    for (int i = 0; i < h; ++i) acc += lines[std::size_t(i)];
    return acc / static_cast<float>(w * h);
  }
  for (int i = 0; i < h; ++i) acc += vmafx_fmotion_row_sad(a + std::size_t(i) * w, b + std::size_t(i) * w, w);
  return acc / static_cast<float>(w * h);
}

int padded_stride(int w) { return (w + 7) / 8 * 8; }

// Scratch slots of blurred_sad (not 0: the extractor's blur; 10, 11: the
// convolution's rows).
constexpr int kSlotRing = 12;
constexpr int kSlotBlock = 13;

// libvmaf keeps every plane in rows of the luma's padded stride but rescales
// with a stride padded from the plane's own width. For a plane narrower than
// the luma this reads row y of the w x h image at y * padded_stride(w) of that
// buffer: halves of rows and the never-written padding (taken as 0 here).
void misread_plane(const float* img, int w, int h, int buffer_stride, float* out) {
  const int read_stride = padded_stride(w);
  std::vector<float> flat(std::size_t(buffer_stride) * h, 0.0f);
  for (int y = 0; y < h; ++y)
    std::memcpy(flat.data() + std::size_t(y) * buffer_stride, img + std::size_t(y) * w, sizeof(float) * w);
  for (int y = 0; y < h; ++y)
    std::memcpy(out + std::size_t(y) * w, flat.data() + std::size_t(y) * read_stride, sizeof(float) * w);
}

}  // namespace

float sad(const float* a, const float* b, int w, int h, bool add_scale1, int luma_w) {
  const float s0 = mean_abs_diff(a, b, w, h);
  if (!add_scale1) return s0;
  std::vector<float> views;
  const int buffer_stride = padded_stride(luma_w);
  if (buffer_stride != padded_stride(w)) {
    views.resize(2 * std::size_t(w) * h);
    misread_plane(a, w, h, buffer_stride, views.data());
    misread_plane(b, w, h, buffer_stride, views.data() + std::size_t(w) * h);
    a = views.data();
    b = views.data() + std::size_t(w) * h;
  }
  const int sw = static_cast<int>(w * 0.5 + 0.5);
  const int sh = static_cast<int>(h * 0.5 + 0.5);
  std::vector<float> buf(2 * std::size_t(sw) * sh);
  float* as = buf.data();
  float* bs = as + std::size_t(sw) * sh;
  flt::scale_frame(flt::ScaleMethod::kBilinear, a, w, h, as, sw, sh);
  flt::scale_frame(flt::ScaleMethod::kBilinear, b, w, h, bs, sw, sh);
  return s0 + mean_abs_diff(as, bs, sw, sh);
}

float blurred_sad(const PlaneView& a, const PlaneView& b, int bpc, const float* filt, int fw) {
  const int w = a.width, h = a.height, r = fw / 2;
  constexpr int kBlock = 8;  // rows blurred before their differences are summed
  constexpr int kMaxTaps = 16;
  if (fw > kMaxTaps) throw std::logic_error("float_motion: filter too wide");
  const std::size_t sw = std::size_t(w);
  // Per picture a ring of fw converted rows (input row y in slot y % fw: the
  // distinct rows of one window lie within fw consecutive indices, mirrored
  // or not) and a block of blurred rows; one vertical-pass row.
  float* ring = flt::scratch(kSlotRing, 2 * std::size_t(fw) * sw);
  float* blk = flt::scratch(kSlotBlock, (2 * kBlock + 1) * sw);
  float* tmp = blk + 2 * kBlock * sw;
  const PlaneView* pic[2] = {&a, &b};
  int tag[2][kMaxTaps];
  for (auto& t : tag)
    for (int& v : t) v = -1;
  const bool simd = vmafx::simd::enabled();
  float lines[kBlock];
  float acc = 0.0f;
  for (int i0 = 0; i0 < h; i0 += kBlock) {
    const int rows = h - i0 < kBlock ? h - i0 : kBlock;
    for (int p = 0; p < 2; ++p) {
      float* rp = ring + std::size_t(p) * fw * sw;
      for (int q = 0; q < rows; ++q) {
        const float* in[kMaxTaps];
        for (int k = 0; k < fw; ++k) {
          const int y = flt::mirror(i0 + q - r + k, h);
          float* slot = rp + std::size_t(y % fw) * sw;
          if (tag[p][y % fw] != y) {
            flt::row_to_float(*pic[p], bpc, -128, y, slot);
            tag[p][y % fw] = y;
          }
          in[k] = slot;
        }
        flt::convolve_vertical(filt, fw, in, w, tmp);
        flt::convolve_row(filt, fw, tmp, w, blk + (std::size_t(p) * kBlock + q) * sw);
      }
    }
    const float* ba = blk;
    const float* bb = blk + kBlock * sw;
    if (simd) {
      flt::simd::row_abs_diff_sums(ba, bb, w, rows, lines);
    } else {
      for (int q = 0; q < rows; ++q) lines[q] = vmafx_fmotion_row_sad(ba + q * sw, bb + q * sw, w);
    }
    for (int q = 0; q < rows; ++q) acc += lines[q];
  }
  return acc / static_cast<float>(w * h);
}

double blend(double motion_score, double blend_factor, double blend_offset) {
  const double low = blend_offset < motion_score ? blend_offset : motion_score;
  return motion_score * blend_factor + (1 - blend_factor) * low;
}

}  // namespace fmotion

namespace {

constexpr std::string_view kMotion = "VMAF_feature_motion_score";
constexpr std::string_view kMotion2 = "VMAF_feature_motion2_score";
constexpr std::string_view kMotion3 = "VMAF_feature_motion3_score";

constexpr OptionSpec kOptions[] = {
    {.name = "debug", .help = "also write motion (the per-frame score)", .type = OptionType::kBool, .default_num = 1},
    motion_options::kForceZero,
    motion_options::kFpsWeight,
    motion_options::kBlendFactor,
    motion_options::kBlendOffset,
    motion_options::flag("motion_add_scale1", "mdc", "add the score of the half-size (bilinear) frames"),
    motion_options::number("motion_filter_size", "mfs",
                           "low-pass filter: 3 (3 taps), 1 (none) or anything else (5 taps)", 5, 0, 9,
                           OptionType::kInt),
    motion_options::flag("motion_add_uv", "mau", "add the scores of the chroma planes"),
    motion_options::kMaxVal,
};

constexpr std::string_view kProvided[] = {kMotion, kMotion2, kMotion3};

}  // namespace

namespace fmotion {

Config config(const OptionSet& o, const PictureFormat& fmt) {
  Config c;
  c.debug = o.get_bool("debug");
  c.force_zero = o.get_bool("motion_force_zero");
  c.add_scale1 = o.get_bool("motion_add_scale1");
  c.add_uv = o.get_bool("motion_add_uv");
  c.fps_weight = o.get_double("motion_fps_weight");
  c.blend_factor = o.get_double("motion_blend_factor");
  c.blend_offset = o.get_double("motion_blend_offset");
  c.max_val = o.get_double("motion_max_val");
  c.bpc = fmt.bpc;
  const int fs = o.get_int("motion_filter_size");
  if (fs == 1) {
    c.filt = kFilter5NoOp;
    c.taps = 5;
  } else if (fs == 3) {
    c.filt = kFilter3;
    c.taps = 3;
  } else {
    c.filt = kFilter5;
    c.taps = 5;
  }
  c.planes = c.add_uv ? 3 : 1;
  for (int p = 0; p < c.planes; ++p) {
    c.dims[p][0] = fmt.plane_width(p);
    c.dims[p][1] = fmt.plane_height(p);
  }
  return c;
}

// The values written with frames 0 and 1 (motion2 of frame 0, motion3 of
// frame 0, the debug scores) create the series in libvmaf's order.
void Motion::extract_with(const Picture& ref, const Picture& /*dis*/, const Earlier& earlier, unsigned index,
                          FeatureSink& out) {
  if (c_.force_zero) {
    out.put(kMotion2, index, 0.0);
    out.put(kMotion3, index, 0.0);
    if (c_.debug) out.put(kMotion, index, 0.0);
    return;
  }
  if (index == 0) {
    note(0, 0.0);
    out.put(kMotion2, index, 0.0);
    if (c_.debug) out.put(kMotion, index, 0.0);
    return;
  }
  if (earlier.count < 1) throw std::logic_error("float_motion: the earlier reference is missing");
  const double score = score_between(*earlier.ref[0], ref, index);
  note(index, score);
  if (c_.debug) out.put(kMotion, index, capped(score * c_.fps_weight));
  if (index == 1) out.put(kMotion3, 0, capped(blend(score * c_.fps_weight, c_.blend_factor, c_.blend_offset)));
}

void Motion::flush(FeatureSink& out) {
  if (c_.force_zero) return;
  std::lock_guard lk(mu_);
  std::size_t n = 0;
  while (n < have_.size() && have_[n]) ++n;
  if (n == 0) return;
  const unsigned last = unsigned(n - 1);
  for (unsigned j = 1; j < last; ++j) {
    const double m2 = score_[j] < score_[j + 1] ? score_[j] : score_[j + 1];
    out.put(kMotion2, j, capped(m2 * c_.fps_weight));
    out.put(kMotion3, j, capped(blend(m2 * c_.fps_weight, c_.blend_factor, c_.blend_offset)));
  }
  if (last > 0) {
    out.put(kMotion2, last, capped(score_[last] * c_.fps_weight));
    out.put(kMotion3, last, capped(blend(score_[last] * c_.fps_weight, c_.blend_factor, c_.blend_offset)));
  } else {
    out.put(kMotion3, 0, 0.0);
  }
}

void Motion::note(unsigned index, double score) {
  std::lock_guard lk(mu_);
  if (index >= score_.size()) {
    score_.resize(index + 1, 0.0);
    have_.resize(index + 1, 0);
  }
  score_[index] = score;
  have_[index] = 1;
}

// The blurred plane p of a picture, into `dst`.
void Motion::blur(const Picture& pic, int p, float* dst) const {
  const int w = c_.dims[p][0], h = c_.dims[p][1];
  float* tmp = flt::scratch(0, std::size_t(w) * h);
  flt::plane_to_float(pic.plane(p), c_.bpc, -128, tmp);
  flt::convolve(c_.filt, c_.taps, tmp, w, h, dst);
}

double Motion::score_between(const Picture& earlier, const Picture& later, unsigned /*index*/) {
  thread_local std::vector<float> a, b;
  double s = 0;
  for (int p = 0; p < c_.planes; ++p) {
    if (!c_.add_scale1) {  // row by row, no full-frame float images
      const double v = blurred_sad(earlier.plane(p), later.plane(p), c_.bpc, c_.filt, c_.taps);
      s = p == 0 ? v : s + v;
      continue;
    }
    const std::size_t n = std::size_t(c_.dims[p][0]) * c_.dims[p][1];
    if (a.size() < n) a.resize(n);
    if (b.size() < n) b.resize(n);
    blur(earlier, p, a.data());
    blur(later, p, b.data());
    const double v = sad(a.data(), b.data(), c_.dims[p][0], c_.dims[p][1], c_.add_scale1, c_.dims[0][0]);
    s = p == 0 ? v : s + v;
  }
  return s;
}

}  // namespace fmotion

namespace {

std::unique_ptr<Extractor> create(const OptionSet& o, const PictureFormat& fmt) {
  flt::check_depth("float_motion", fmt.bpc);
  const int fs = o.get_int("motion_filter_size");
  const int need = fs == 3 ? 2 : 3;  // more samples than the filter radius
  const std::string why = "the " + std::to_string(fs == 3 ? 3 : 5) + "-tap filter needs at least " +
                          std::to_string(need) + "x" + std::to_string(need);
  flt::check_size("float_motion", fmt.width, fmt.height, need, need, why);
  if (o.get_bool("motion_add_uv")) {
    if (fmt.chroma == ChromaFormat::k400)
      throw unsupported_error("float_motion: motion_add_uv needs chroma planes (the input is 4:0:0)");
    if (fmt.plane_width(1) < need || fmt.plane_height(1) < need)
      throw unsupported_error("float_motion: chroma planes " + std::to_string(fmt.plane_width(1)) + "x" +
                              std::to_string(fmt.plane_height(1)) + " are too small for motion_add_uv (" + why + ")");
  }
  if (o.get_bool("motion_add_scale1") && static_cast<int>(fmt.width * 0.5 + 0.5) > VMAFX_FVIF_BILINEAR_MAX_WIDTH)
    throw unsupported_error("float_motion: motion_add_scale1 supports widths up to " +
                            std::to_string(2 * VMAFX_FVIF_BILINEAR_MAX_WIDTH) + " (got " + std::to_string(fmt.width) +
                            ")");
  return std::make_unique<fmotion::Motion>(fmotion::config(o, fmt));
}

// Frame i's score reads frame i - 1 (frame 0 of a run has none); motion2
// and motion3 are the minimum of frame i's and frame i + 1's.
RangeReach range_reach(const OptionSet&) { return {1, 1, {}}; }

}  // namespace

const ExtractorDescriptor kFloatMotionExtractor{
    .name = "float_motion",
    .options = kOptions,
    .provided = kProvided,
    .flags = kTemporal,
    .create = &create,
    .range_reach = &range_reach,
};

}  // namespace vmafx
