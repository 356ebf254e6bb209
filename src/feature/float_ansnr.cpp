// SPDX-License-Identifier: BSD-3-Clause
#include "feature/float_ansnr.hpp"

#include <cmath>
#include <memory>
#include <vector>

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

// Mirror extension: below 0 without repeating the edge (-1 -> 1), past the end
// repeating it (n -> n - 1), as libvmaf's float filters index.
inline int reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 1 : i); }

// 2-D filter: per output, each kernel row summed in float, rows summed in float.
void filter2d(const float* k, int fw, const float* src, int w, int h, float* dst) {
  const int r = fw / 2;
  for (int i = 0; i < h; ++i) {
    const float* rows[5];
    for (int a = 0; a < fw; ++a) rows[a] = src + std::size_t(reflect(i - r + a, h)) * w;
    for (int j = 0; j < w; ++j) {
      int cols[5];
      for (int b = 0; b < fw; ++b) cols[b] = reflect(j - r + b, w);
      float acc = 0;
      for (int a = 0; a < fw; ++a) {
        float inner = 0;
        for (int b = 0; b < fw; ++b) inner += k[a * fw + b] * rows[a][cols[b]];
        acc += inner;
      }
      dst[std::size_t(i) * w + j] = acc;
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
    float sig_row = 0, noise_row = 0;
    const float* a = rf + std::size_t(i) * w;
    const float* b = df + std::size_t(i) * w;
    for (int j = 0; j < w; ++j) {
      sig_row += a[j] * a[j];
      noise_row += (a[j] - b[j]) * (a[j] - b[j]);
    }
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
