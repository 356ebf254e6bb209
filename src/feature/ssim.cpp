// SPDX-License-Identifier: BSD-3-Clause
#include "feature/ssim.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "exact/ssim_fp64.h"

namespace vmafx {

namespace ssim {

namespace {

constexpr int kTaps = VMAFX_SSIM_TAP_COUNT;
constexpr int kRadius = VMAFX_SSIM_TAP_RADIUS;

// The frame as exact/ssim.h defines it: horizontal moments of each row (a
// ring of the last kTaps rows), vertical moments and the term of each pixel,
// both added in raster order.
template <class T>
double frame_ssim(const PlaneView& ref, const PlaneView& dis, int bpc) {
  const int w = ref.width, h = ref.height;
  thread_local std::vector<vmafx_issim_moments> ring_buf;
  if (ring_buf.size() < std::size_t(kTaps) * w) ring_buf.resize(std::size_t(kTaps) * w);
  vmafx_issim_moments* ring = ring_buf.data();

  const std::int64_t sample_max = (std::int64_t(1) << bpc) - 1;
  const double max2 = static_cast<double>(sample_max * sample_max);

  auto horizontal = [&](int y) {
    const T* a = ref.row<T>(y);
    const T* b = dis.row<T>(y);
    vmafx_issim_moments* o = ring + std::size_t(y % kTaps) * w;
    for (int x = 0; x < w; ++x) {
      vmafx_issim_moments m = vmafx_issim_zero();
      for (int k = vmafx_issim_klo(x), k_hi = vmafx_issim_khi(x, w); k < k_hi; ++k)
        vmafx_issim_add_sample(&m, vmafx_issim_taps[k], a[x - kRadius + k], b[x - kRadius + k]);
      o[x] = m;
    }
  };

  double ssim = 0.0, ssimw = 0.0;
  for (int y = 0; y < h + kRadius; ++y) {
    if (y < h) horizontal(y);
    if (y < kRadius) continue;
    // Output row yo = y - kRadius reads input rows yo - kRadius + k.
    const int yo = y - kRadius;
    const int k_lo = vmafx_issim_klo(yo), k_hi = vmafx_issim_khi(yo, h);
    for (int x = 0; x < w; ++x) {
      vmafx_issim_moments m = vmafx_issim_zero();
      for (int k = k_lo; k < k_hi; ++k)
        vmafx_issim_add_row(&m, vmafx_issim_taps[k], ring[std::size_t((yo - kRadius + k) % kTaps) * w + x]);
      ssim += vmafx_issim_term(m, max2);
      ssimw += static_cast<double>(m.w);
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
