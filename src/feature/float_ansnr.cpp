// SPDX-License-Identifier: BSD-3-Clause
#include "feature/float_ansnr.hpp"

#include <cmath>
#include <memory>
#include <vector>

#include "exact/float_ansnr.h"
#include "feature/float_psnr.hpp"

namespace vmafx {
namespace fansnr {
// ansnr_tools.c's 2-D kernels, double expressions rounded to float.
constexpr float kRef3[9] = {1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 4.0 / 16.0,
                            2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0};
constexpr float kDis5[25] = {2.0 / 571.0,  7.0 / 571.0,  12.0 / 571.0,  7.0 / 571.0,  2.0 / 571.0,
                             7.0 / 571.0,  31.0 / 571.0, 52.0 / 571.0,  31.0 / 571.0, 7.0 / 571.0,
                             12.0 / 571.0, 52.0 / 571.0, 127.0 / 571.0, 52.0 / 571.0, 12.0 / 571.0,
                             7.0 / 571.0,  31.0 / 571.0, 52.0 / 571.0,  31.0 / 571.0, 7.0 / 571.0,
                             2.0 / 571.0,  7.0 / 571.0,  12.0 / 571.0,  7.0 / 571.0,  2.0 / 571.0};

namespace {

// 2-D filter (exact/float_ansnr.h) of every output's mirrored window.
void filter2d(const float* k, int fw, const float* src, int w, int h, float* dst) {
  const int r = fw / 2;
  for (int i = 0; i < h; ++i) {
    const float* rows[5];
    for (int a = 0; a < fw; ++a) rows[a] = src + std::size_t(vmafx_fansnr_reflect(i - r + a, h)) * w;
    for (int j = 0; j < w; ++j) {
      int cols[5];
      for (int b = 0; b < fw; ++b) cols[b] = vmafx_fansnr_reflect(j - r + b, w);
      float win[25];
      for (int a = 0; a < fw; ++a)
        for (int b = 0; b < fw; ++b) win[a * fw + b] = rows[a][cols[b]];
      dst[std::size_t(i) * w + j] = vmafx_fansnr_filter(k, win, fw);
    }
  }
}

}  // namespace

Scores compute(const float* ref, const float* dis, int w, int h, double peak, double psnr_max) {
  const std::size_t n = std::size_t(w) * h;
  float* rf = flt::scratch(0, 2 * n);  // filtered images, per thread
  float* df = rf + n;
  filter2d(kRef3, 3, ref, w, h, rf);
  filter2d(kDis5, 5, dis, w, h, df);
  float sig = 0, noise = 0;
  for (int i = 0; i < h; ++i) {
    float sig_row, noise_row;
    vmafx_fansnr_row(rf + std::size_t(i) * w, df + std::size_t(i) * w, w, &sig_row, &noise_row);
    sig += sig_row;
    noise += noise_row;
  }
  return from_sums(sig, noise, w, h, peak, psnr_max);
}

Scores from_sums(float sig, float noise, int w, int h, double peak, double psnr_max) {
  Scores s;
  s.ansnr = noise == 0 ? psnr_max : 10.0 * std::log10(static_cast<double>(sig / noise));
  const double eps = 1e-10;
  const double noise_d = noise;
  const double v = 10 * std::log10(peak * peak * w * h / (noise_d > eps ? noise_d : eps));
  s.anpsnr = v < psnr_max ? v : psnr_max;
  return s;
}

}  // namespace fansnr

namespace {

constexpr std::string_view kProvided[] = {"float_ansnr"};

class FloatAnsnr final : public Extractor {
 public:
  explicit FloatAnsnr(const PictureFormat& fmt)
      : w_(fmt.width), h_(fmt.height), bpc_(fmt.bpc), pk_(fpsnr::peak_for(fmt.bpc)) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const std::size_t n = std::size_t(w_) * h_;
    float* buf = flt::scratch(flt::kSlotFrame, 2 * n);
    flt::plane_to_float(ref.plane(0), bpc_, -128, buf);
    flt::plane_to_float(dis.plane(0), bpc_, -128, buf + n);
    const fansnr::Scores s = fansnr::compute(buf, buf + n, w_, h_, pk_.peak, pk_.psnr_max);
    out.put_plain("float_ansnr", index, s.ansnr);
    out.put_plain("float_anpsnr", index, s.anpsnr);
  }

 private:
  int w_, h_, bpc_;
  fpsnr::Peak pk_;
};

std::unique_ptr<Extractor> create(const OptionSet& /*opts*/, const PictureFormat& fmt) {
  flt::check_depth("float_ansnr", fmt.bpc);
  flt::check_size("float_ansnr", fmt.width, fmt.height, 3, 3, "the 5x5 filter needs at least 3x3");
  return std::make_unique<FloatAnsnr>(fmt);
}

}  // namespace

const ExtractorDescriptor kFloatAnsnrExtractor{
    .name = "float_ansnr",
    .options = {},
    .provided = kProvided,
    .flags = 0,
    .create = &create,
};

}  // namespace vmafx
