// SPDX-License-Identifier: BSD-3-Clause
#include "feature/float_moment.hpp"

#include <memory>
#include <vector>

#include "feature/float_simd.hpp"
#include "core/simd.hpp"

namespace vmafx {
namespace fmoment {

double moment(const float* img, int w, int h, int order) {
  double cum = 0;
  const std::size_t n = std::size_t(w) * h;
  // In lanes where that provably gives the running sum's double (see
  // flt::simd::exact_sum); in order otherwise.
  if (vmafx::simd::enabled() && flt::simd::exact_sum(img, nullptr, n, order == 1 ? 0 : 1, &cum)) return cum / (w * h);
  cum = 0;
  if (order == 1) {
    for (std::size_t k = 0; k < n; ++k) cum += img[k];
  } else {
    for (std::size_t k = 0; k < n; ++k) cum += img[k] * img[k];
  }
  return cum / (w * h);
}

}  // namespace fmoment

namespace {

constexpr std::string_view kProvided[] = {"float_moment"};

class FloatMoment final : public Extractor {
 public:
  explicit FloatMoment(const PictureFormat& fmt) : w_(fmt.width), h_(fmt.height), bpc_(fmt.bpc) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const std::size_t n = std::size_t(w_) * h_;
    float* buf = flt::scratch(flt::kSlotFrame, 2 * n);
    flt::plane_to_float(ref.plane(0), bpc_, 0, buf);
    flt::plane_to_float(dis.plane(0), bpc_, 0, buf + n);
    const float* r = buf;
    const float* d = r + n;
    out.put_plain("float_moment_ref1st", index, fmoment::moment(r, w_, h_, 1));
    out.put_plain("float_moment_dis1st", index, fmoment::moment(d, w_, h_, 1));
    out.put_plain("float_moment_ref2nd", index, fmoment::moment(r, w_, h_, 2));
    out.put_plain("float_moment_dis2nd", index, fmoment::moment(d, w_, h_, 2));
  }

 private:
  int w_, h_, bpc_;
};

std::unique_ptr<Extractor> create(const OptionSet& /*opts*/, const PictureFormat& fmt) {
  flt::check_depth("float_moment", fmt.bpc);
  return std::make_unique<FloatMoment>(fmt);
}

}  // namespace

const ExtractorDescriptor kFloatMomentExtractor{
    .name = "float_moment",
    .options = {},
    .provided = kProvided,
    .flags = 0,
    .create = &create,
};

}  // namespace vmafx
