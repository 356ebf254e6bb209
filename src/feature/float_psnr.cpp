// SPDX-License-Identifier: BSD-3-Clause
#include "feature/float_psnr.hpp"

#include <cmath>
#include <memory>
#include <vector>

#include "feature/float_simd.hpp"
#include "core/simd.hpp"

namespace vmafx {
namespace fpsnr {

Peak peak_for(int bpc) {
  switch (bpc) {
    case 10: return {255.75, 72.0};
    case 12: return {255.9375, 84.0};
    case 16: return {255.99609375, 108.0};
    default: return {255.0, 60.0};
  }
}

double psnr(const float* ref, const float* dis, int w, int h, const Peak& pk) {
  double noise = 0;
  const std::size_t n = std::size_t(w) * h;
  // In lanes where that provably gives the running sum's double (see
  // flt::simd::exact_sum); in order otherwise.
  if (!vmafx::simd::enabled() || !flt::simd::exact_sum(ref, dis, n, 2, &noise)) {
    noise = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const float d = ref[k] - dis[k];
      noise += d * d;
    }
  }
  return from_noise(noise, w, h, pk);
}

double from_noise(double noise, int w, int h, const Peak& pk) {
  noise /= (w * h);
  const double eps = 1e-10;
  const double v = 10 * std::log10(pk.peak * pk.peak / (noise > eps ? noise : eps));
  return v < pk.psnr_max ? v : pk.psnr_max;
}

}  // namespace fpsnr

namespace {

constexpr std::string_view kProvided[] = {"float_psnr"};

class FloatPsnr final : public Extractor {
 public:
  explicit FloatPsnr(const PictureFormat& fmt)
      : w_(fmt.width), h_(fmt.height), bpc_(fmt.bpc), pk_(fpsnr::peak_for(fmt.bpc)) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const std::size_t n = std::size_t(w_) * h_;
    float* buf = flt::scratch(flt::kSlotFrame, 2 * n);
    flt::plane_to_float(ref.plane(0), bpc_, 0, buf);
    flt::plane_to_float(dis.plane(0), bpc_, 0, buf + n);
    out.put_plain("float_psnr", index, fpsnr::psnr(buf, buf + n, w_, h_, pk_));
  }

 private:
  int w_, h_, bpc_;
  fpsnr::Peak pk_;
};

std::unique_ptr<Extractor> create(const OptionSet& /*opts*/, const PictureFormat& fmt) {
  flt::check_depth("float_psnr", fmt.bpc);
  return std::make_unique<FloatPsnr>(fmt);
}

}  // namespace

const ExtractorDescriptor kFloatPsnrExtractor{
    .name = "float_psnr",
    .options = {},
    .provided = kProvided,
    .flags = 0,
    .create = &create,
};

}  // namespace vmafx
