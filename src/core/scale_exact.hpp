// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// libswscale's conversion of one planar picture format into another with the
// default scaler's flags (bicubic+accurate_rnd+bitexact, io/scale_default.hpp),
// reimplemented: the filters are set up here once per pair of formats, the
// per-sample arithmetic is src/exact/swscale.h, shared with the CUDA and
// OpenCL twins (backend/cuda/scale.cu, backend/opencl/scale.cl). Every output
// sample equals libswscale's (FFmpeg 5.1, libswscale 6.7) for every size,
// bit depth (8, 9, 10, 12, 14, 16) and chroma format (4:2:0, 4:2:2, 4:4:4,
// and gray to gray), as FFmpeg's scale filter sets libswscale up for
// progressive frames of limited (or unspecified) range on both sides
// (tests/scale).
#include <cstdint>
#include <vector>

#include "vmaf_exact/picture.hpp"

namespace vmafx::sws {

// One direction of one plane: output sample i reads `size` input samples from
// pos[i] on, weighted by taps[i * size + j]. Positions past the input's end
// carry zero taps (read them clamped to the last sample).
struct Filter {
  int size = 0;
  std::vector<std::int32_t> pos;
  std::vector<std::int32_t> taps;
};

// libswscale's chroma siting parameters (src_h_chr_pos, src_v_chr_pos,
// dst_h_chr_pos, dst_v_chr_pos; -513 = libswscale's default). FFmpeg 5.1's
// scale filter passes 128 vertically for 8-bit 4:2:0 and the default
// otherwise, which scale_filter_siting() returns (both give the same filters).
struct Siting {
  int src_h = -513, src_v = -513, dst_h = -513, dst_v = -513;
};
Siting scale_filter_siting(const PictureFormat& src, const PictureFormat& dst);

class Plan {
 public:
  enum class Kind {
    kCopy,   // same format: the samples as they are
    kDepth,  // same size and chroma format, other depth: shift (and dither)
    kScale,  // anything else: horizontal then vertical filter
  };
  struct Plane {
    int src_w = 0, src_h = 0, dst_w = 0, dst_h = 0;
    Filter h, v;  // kScale only
  };

  // Throws Error (kUsage) for a pair libswscale converts otherwise (gray to
  // or from colour, a depth it has no format for) or through an
  // intermediate picture (a reduction beyond its largest filter).
  // `full_range`: both pictures are full range (libswscale's src_range and
  // dst_range both 1); the scaling itself is the same, only a same-size
  // depth change of the luma differs. (One side full range and the other
  // not is a range conversion, which this does not reproduce.)
  Plan(const PictureFormat& src, const PictureFormat& dst, const Siting& siting, bool full_range = false);
  Plan(const PictureFormat& src, const PictureFormat& dst) : Plan(src, dst, scale_filter_siting(src, dst)) {}

  const PictureFormat& src() const { return src_; }
  const PictureFormat& dst() const { return dst_; }
  Kind kind() const { return kind_; }
  // Filters of the luma (0) and of both chroma planes (1).
  const Plane& plane(int p) const { return plane_[p == 0 ? 0 : 1]; }
  // The filter sets a device twin uploads (luma, and chroma unless gray),
  // and set c's four arrays: i = 0 h.pos, 1 h.taps, 2 v.pos, 3 v.taps.
  int filter_sets() const { return dst_.plane_count() > 1 ? 2 : 1; }
  const std::vector<std::int32_t>& filter_array(int c, int i) const {
    const Plane& g = plane_[c];
    return i == 0 ? g.h.pos : i == 1 ? g.h.taps : i == 2 ? g.v.pos : g.v.taps;
  }
  // 19-bit intermediates (16-bit output) rather than 15-bit ones.
  bool wide() const { return dst_.bpc == 16; }
  // 8-bit output of a deeper source: the vertical pass dithers.
  bool dithered() const { return dst_.bpc == 8 && src_.bpc > 8; }
  int h_shift() const;
  // Same-size depth changes shift plane p's samples only (kDepth), except
  // the luma of full-range pictures (libswscale takes gray pictures as full
  // range), which also gets its top bits replicated (up) or subtracted
  // (down).
  bool shift_only(int p) const { return p != 0 || !(full_range_ || src_.chroma == ChromaFormat::k400); }

 private:
  PictureFormat src_, dst_;
  Kind kind_ = Kind::kCopy;
  bool full_range_ = false;
  Plane plane_[2];
};

// The host reference: `out` (format plan.dst()) from `in` (plan.src()).
void scale(const Plan& plan, const Picture& in, Picture& out);

// One plan on one backend (backend/backends.hpp: create_scaler): the host
// reference, or its CUDA or OpenCL twin. Every backend writes the same
// samples. One object per thread.
class DeviceScaler {
 public:
  virtual ~DeviceScaler() = default;
  virtual const Plan& plan() const = 0;
  // `out` from `in`. On CUDA, an `in` whose frame is only in device memory
  // (Picture::device_copy on the scaler's device: NVDEC) is scaled there and
  // `out` gets a device copy (memory the scaler keeps per `out` picture; its
  // host planes are left alone); otherwise host planes to host planes.
  virtual void scale(const Picture& in, Picture& out) = 0;
};

// The filter of one direction as libswscale's initFilter builds it for these
// flags with no SIMD alignment (exposed for tests).
Filter make_filter(int src_size, int dst_size, std::int64_t inc, int src_pos, int dst_pos, int one);

}  // namespace vmafx::sws
