// SPDX-License-Identifier: BSD-3-Clause
#include "feature/ssim.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "exact/ssim_tables.h"

namespace vmafx {

namespace ssim {

namespace {

constexpr int kTaps = VMAFX_SSIM_TAP_COUNT;
constexpr int kRadius = VMAFX_SSIM_TAP_RADIUS;
constexpr int kTap[kTaps] = VMAFX_SSIM_TAPS_INIT;

// Window sums of one pixel: sample sums, square and cross sums, and weight.
struct Moments {
  std::int64_t mx, my, xx, xy, yy, w;
};

template <class T>
double frame_ssim(const PlaneView& ref, const PlaneView& dis, int bpc) {
  const int w = ref.width, h = ref.height;
  // Horizontal moments of the last kTaps rows, a ring indexed by row % kTaps.
  thread_local std::vector<Moments> ring_buf;
  if (ring_buf.size() < std::size_t(kTaps) * w) ring_buf.resize(std::size_t(kTaps) * w);
  Moments* ring = ring_buf.data();

  const std::int64_t sample_max = (std::int64_t(1) << bpc) - 1;
  const double max2 = static_cast<double>(sample_max * sample_max);
  constexpr double kK1 = VMAFX_ISSIM_K1;
  constexpr double kK2 = VMAFX_ISSIM_K2;

  auto horizontal = [&](int y) {
    const T* a = ref.row<T>(y);
    const T* b = dis.row<T>(y);
    Moments* o = ring + std::size_t(y % kTaps) * w;
    for (int x = 0; x < w; ++x) {
      const int k_lo = x < kRadius ? kRadius - x : 0;
      const int k_hi = x + kRadius >= w ? kTaps - (x + kRadius - w + 1) : kTaps;
      Moments m{0, 0, 0, 0, 0, 0};
      for (int k = k_lo; k < k_hi; ++k) {
        const std::int64_t s = a[x - kRadius + k];
        const std::int64_t d = b[x - kRadius + k];
        const std::int64_t t = kTap[k];
        m.mx += t * s;
        m.my += t * d;
        m.xx += t * s * s;
        m.xy += t * s * d;
        m.yy += t * d * d;
        m.w += t;
      }
      o[x] = m;
    }
  };

  double ssim = 0.0, ssimw = 0.0;
  for (int y = 0; y < h + kRadius; ++y) {
    if (y < h) horizontal(y);
    if (y < kRadius) continue;
    // Output row y - kRadius: input rows y - 2 * kRadius + k for k in [k_lo, k_hi).
    const int k_lo = kTaps - y - 1 <= 0 ? 0 : kTaps - y - 1;
    const int k_hi = y + 1 - h <= 0 ? kTaps : kTaps - (y + 1 - h);
    for (int x = 0; x < w; ++x) {
      Moments m{0, 0, 0, 0, 0, 0};
      for (int k = k_lo; k < k_hi; ++k) {
        const Moments& r = ring[std::size_t((y + 1 - kTaps + k) % kTaps) * w + x];
        const std::int64_t t = kTap[k];
        m.mx += t * r.mx;
        m.my += t * r.my;
        m.xx += t * r.xx;
        m.xy += t * r.xy;
        m.yy += t * r.yy;
        m.w += t * r.w;
      }
      const double ww = static_cast<double>(m.w);
      const double c1 = max2 * kK1 * ww * ww;
      const double c2 = max2 * kK2 * ww * ww;
      const double mx = static_cast<double>(m.mx), my = static_cast<double>(m.my);
      const double mx2 = mx * mx;
      const double mxy = mx * my;
      const double my2 = my * my;
      const double xx = static_cast<double>(m.xx), xy = static_cast<double>(m.xy), yy = static_cast<double>(m.yy);
      ssim +=
          ww * (2 * mxy + c1) * (c2 + 2 * (xy * ww - mxy)) / ((mx2 + my2 + c1) * (xx * ww - mx2 + yy * ww - my2 + c2));
      ssimw += ww;
    }
  }
  return ssim / ssimw;
}

}  // namespace

double integer_ssim(const PlaneView& ref, const PlaneView& dis, int bpc) {
  return bpc > 8 ? frame_ssim<std::uint16_t>(ref, dis, bpc) : frame_ssim<std::uint8_t>(ref, dis, bpc);
}

}  // namespace ssim

namespace {

constexpr std::string_view kProvided[] = {"ssim"};

class IntegerSsim final : public Extractor {
 public:
  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    out.put_plain("ssim", index, ssim::integer_ssim(ref.plane(0), dis.plane(0), ref.bpc()));
  }
};

std::unique_ptr<Extractor> create(const OptionSet&, const PictureFormat& fmt) {
  if (fmt.bpc < 8 || fmt.bpc > 16)
    throw unsupported_error("ssim: bit depth " + std::to_string(fmt.bpc) + " is not supported (8 to 16)");
  return std::make_unique<IntegerSsim>();
}

}  // namespace

const ExtractorDescriptor kSsimExtractor{
    .name = "ssim",
    .options = {},
    .provided = kProvided,
    .flags = 0,
    .create = create,
};

}  // namespace vmafx
