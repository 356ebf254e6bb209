// SPDX-License-Identifier: BSD-3-Clause
#include "feature/ciede.hpp"

#include <math.h>  // ::powf (float pow, as libvmaf calls it)

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace vmafx {
namespace ciede {
namespace {

constexpr double kPi = std::numbers::pi;

// Square of a float in double: exact (libvmaf's pow(x, 2), which GCC turns
// into x * x).
inline double sq(float x) { return double(x) * double(x); }

// Hue angle in [0, 2 pi) of (y, x) = (a', b'), 0 for the neutral axis. The
// angle is kept in float, the wrap is added in double.
float hue_angle(float x, float y) {
  if (x == 0.0f && y == 0.0f) return 0.0f;
  float h = float(std::atan2(double(x), double(y)));
  if (h < 0.0f) h = float(double(h) + 2. * kPi);
  return h;
}

float hue_difference(float c1, float c2, float h1, float h2) {
  if (c1 == 0.0f || c2 == 0.0f) return 0.0f;
  if (double(std::fabs(h1 - h2)) <= kPi) return h2 - h1;
  if (h2 <= h1) return float(double(h2 - h1) + 2. * kPi);
  return float(double(h2 - h1) - 2. * kPi);
}

float mean_hue(float h1, float h2) {
  const float s = h1 + h2;
  return std::fabs(double(h1 - h2)) > kPi ? float((double(s) + 2.0 * kPi) / 2.0) : float(double(s) / 2.0);
}

float hue_weight_t(float hbar) {
  const double h = hbar;
  return float(1.0 - 0.17 * std::cos(h - kPi / 6.0) + 0.24 * std::cos(2.0 * h) + 0.32 * std::cos(3.0 * h + kPi / 30.0) -
               0.20 * std::cos(4.0 * h - 7.0 * kPi / 20.0));
}

float to_degrees(float rad) { return float(double(rad) * (180.0 / kPi)); }
float to_radians(float deg) { return float(double(deg) * (kPi / 180.0)); }

// The rotation term R_T. Here libvmaf uses powf, so C'^7 is a float.
float rotation_term(float c_bar_prime, float hbar) {
  const float t = float((double(to_degrees(hbar)) - 275.0) * (1.0 / 25.0));
  const float c7 = ::powf(c_bar_prime, 7.0f);
  const float k25_7 = 6103515648.0f;  // powf(25, 7), folded by the compiler
  const float ratio = c7 / (c7 + k25_7);
  const float t2 = t * t;
  const float angle = to_radians(float(60.0 * std::exp(double(-t2))));
  return float(-2.0 * std::sqrt(double(ratio)) * std::sin(double(angle)));
}

double linearize(double c) {
  if (c > 10. / 255.) return std::pow((c + 0.055) * (1.0 / 1.055), 2.4);
  return c * (1.0 / 12.92);
}

// CIELAB companding; libvmaf returns it as float.
float lab_compand(double c) {
  constexpr double kKappa = 24389.0 / 27.0;
  constexpr double kEpsilon = 216.0 / 24389.0;
  if (c > kEpsilon) return float(std::pow(c, 1.0 / 3.0));
  return float((kKappa * c + 16.0) * (1.0 / 116.0));
}

// Dimensions of a chroma plane in libvmaf's picture layout: rows padded to 32 samples.
inline int padded(int w) { return (w + 31) & ~31; }

template <class T>
inline unsigned sample(const Picture& pic, int p, int y, int x) {
  return pic.row<T>(p, y)[x];
}

template <class T>
unsigned chroma422_sample_t(const Picture& pic, int p, int i, int j) {
  // Linear sample offset from the start of plane p in libvmaf's layout; U and V
  // are contiguous there, so an offset past U continues into V.
  const int cw = pic.plane(p).width, ch = pic.plane(p).height, s = padded(cw);
  long long k = (long long)(i / 2) * s + j;
  for (int q = p; q <= 2; ++q) {
    const long long size = (long long)s * ch;
    if (k < size) {
      const int col = int(k % s), row = int(k / s);
      return col < cw ? sample<T>(pic, q, row, col) : 0u;
    }
    k -= size;
  }
  return 0;  // past libvmaf's allocation (only for one-row 4:2:2 pictures)
}

// Chroma plane p upsampled to luma row i, as libvmaf's upsampler does it.
template <class T>
void chroma_row(const Picture& pic, int p, int i, float* out) {
  const int w = pic.width();
  switch (pic.format().chroma) {
    case ChromaFormat::k444: {
      const T* r = pic.row<T>(p, i);
      for (int j = 0; j < w; ++j) out[j] = float(r[j]);
      break;
    }
    case ChromaFormat::k420: {
      const T* r = pic.row<T>(p, i / 2);
      for (int j = 0; j < w; ++j) out[j] = float(r[j / 2]);
      break;
    }
    case ChromaFormat::k422: {
      const int cw = pic.plane(p).width;
      const T* r = pic.row<T>(p, i / 2);
      const int direct = cw < w ? cw : w;
      for (int j = 0; j < direct; ++j) out[j] = float(r[j]);
      for (int j = direct; j < w; ++j) out[j] = float(chroma422_sample_t<T>(pic, p, i, j));
      break;
    }
    case ChromaFormat::k400: break;
  }
}

}  // namespace

Lab lab_from_yuv(double y, double u, double v, unsigned bpc) {
  const double scale = 1 << (bpc - 8);
  y = (y - 16. * scale) * (1. / (219. * scale));
  u = (u - 128. * scale) * (1. / (224. * scale));
  v = (v - 128. * scale) * (1. / (224. * scale));

  // BT.709 YCbCr -> R'G'B' -> linear RGB -> XYZ (D65).
  double r = y + 1.28033 * v;
  double g = y - 0.21482 * u - 0.38059 * v;
  double b = y + 2.12798 * u;
  r = linearize(r);
  g = linearize(g);
  b = linearize(b);

  double x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
  y = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
  double z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;

  x = lab_compand(x * (1.0 / 0.95047));
  y = lab_compand(y);
  z = lab_compand(z * (1.0 / 1.08883));
  return Lab{float((116.0 * y) - 16.0), float(500.0 * (x - y)), float(200.0 * (y - z))};
}

float delta_e00(const Lab& c1, const Lab& c2) {
  const float kl = 0.65f, kc = 1.0f, kh = 4.0f;
  const float d_l = c2.l - c1.l;
  const float l_bar = (c1.l + c2.l) / 2;
  const float chroma1 = float(std::sqrt(sq(c1.a) + sq(c1.b)));
  const float chroma2 = float(std::sqrt(sq(c2.a) + sq(c2.b)));
  const float c_bar = (chroma1 + chroma2) / 2;
  const double c_bar7 = std::pow(double(c_bar), 7.0);
  const double g = 1 - std::sqrt(c_bar7 / (c_bar7 + 6103515625.0));  // 25^7
  const float a1 = float(double(c1.a) + double(c1.a / 2) * g);
  const float a2 = float(double(c2.a) + double(c2.a / 2) * g);
  const float cp1 = float(std::sqrt(sq(a1) + sq(c1.b)));
  const float cp2 = float(std::sqrt(sq(a2) + sq(c2.b)));
  const float cp_bar = (cp1 + cp2) / 2;
  const float d_cp = cp2 - cp1;
  const float l50 = l_bar - 50;
  const float s_l = float(1. + ((0.015 * sq(l50)) / std::sqrt(20 + sq(l50))));
  const float s_c = float(1. + 0.045 * double(cp_bar));
  const float h1 = hue_angle(c1.b, a1);
  const float h2 = hue_angle(c2.b, a2);
  const float d_hp = hue_difference(chroma1, chroma2, h1, h2);
  const float d_h = float(2.0 * std::sqrt(double(cp1 * cp2)) * std::sin(double(d_hp) / 2.0));
  const float h_bar = mean_hue(h1, h2);
  const float t = hue_weight_t(h_bar);
  const float s_h = float(1.0 + 0.015 * double(cp_bar) * double(t));
  const float r_t = rotation_term(cp_bar, h_bar);
  const float lightness = d_l / (kl * s_l);
  const float chroma = d_cp / (kc * s_c);
  const float hue = d_h / (kh * s_h);
  return float(std::sqrt(sq(lightness) + sq(chroma) + sq(hue) + double(r_t * chroma * hue)));
}

double frame_score(double de00_sum, unsigned width, unsigned height) {
  return 45. - 20. * std::log10(de00_sum / double(width * height));
}

unsigned chroma422_sample(const Picture& pic, int p, int i, int j) {
  return pic.bpc() == 8 ? chroma422_sample_t<std::uint8_t>(pic, p, i, j)
                        : chroma422_sample_t<std::uint16_t>(pic, p, i, j);
}

namespace {
template <class T>
void samples_at_t(const Picture& pic, int i, int j, unsigned yuv[3]) {
  yuv[0] = sample<T>(pic, 0, i, j);
  for (int p = 1; p <= 2; ++p) {
    switch (pic.format().chroma) {
      case ChromaFormat::k444: yuv[p] = sample<T>(pic, p, i, j); break;
      case ChromaFormat::k420: yuv[p] = sample<T>(pic, p, i / 2, j / 2); break;
      case ChromaFormat::k422:
        yuv[p] = j < pic.plane(p).width ? sample<T>(pic, p, i / 2, j) : chroma422_sample_t<T>(pic, p, i, j);
        break;
      case ChromaFormat::k400: yuv[p] = 0; break;
    }
  }
}
}  // namespace

void samples_at(const Picture& pic, int i, int j, unsigned yuv[3]) {
  if (pic.bpc() == 8)
    samples_at_t<std::uint8_t>(pic, i, j, yuv);
  else
    samples_at_t<std::uint16_t>(pic, i, j, yuv);
}

float pixel_difference(const Picture& ref, const Picture& dis, int i, int j) {
  unsigned a[3], b[3];
  samples_at(ref, i, j, a);
  samples_at(dis, i, j, b);
  return pixel_difference(a, b, unsigned(ref.bpc()));
}

float pixel_difference(const unsigned a[3], const unsigned b[3], unsigned bpc) {
  // as the extractor: each sample through float (exact) into double
  return delta_e00(lab_from_yuv(float(a[0]), float(a[1]), float(a[2]), bpc),
                   lab_from_yuv(float(b[0]), float(b[1]), float(b[2]), bpc));
}

}  // namespace ciede

namespace {

constexpr std::string_view kProvided[] = {"ciede2000"};

class CiedeExtractor final : public Extractor {
 public:
  explicit CiedeExtractor(const PictureFormat& f) : fmt_(f) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const double sum = fmt_.bpc == 8 ? sum_t<std::uint8_t>(ref, dis) : sum_t<std::uint16_t>(ref, dis);
    out.put_plain("ciede2000", index, ciede::frame_score(sum, unsigned(fmt_.width), unsigned(fmt_.height)));
  }

 private:
  template <class T>
  double sum_t(const Picture& ref, const Picture& dis) const {
    const int w = fmt_.width, h = fmt_.height;
    const unsigned bpc = unsigned(fmt_.bpc);
    std::vector<float> rows(std::size_t(4) * w);
    float* ru = rows.data();
    float* rv = ru + w;
    float* du = rv + w;
    float* dv = du + w;
    double total = 0.;
    for (int i = 0; i < h; ++i) {
      ciede::chroma_row<T>(ref, 1, i, ru);
      ciede::chroma_row<T>(ref, 2, i, rv);
      ciede::chroma_row<T>(dis, 1, i, du);
      ciede::chroma_row<T>(dis, 2, i, dv);
      const T* ry = ref.row<T>(0, i);
      const T* dy = dis.row<T>(0, i);
      for (int j = 0; j < w; ++j) {
        const ciede::Lab a = ciede::lab_from_yuv(float(ry[j]), ru[j], rv[j], bpc);
        const ciede::Lab b = ciede::lab_from_yuv(float(dy[j]), du[j], dv[j], bpc);
        total += ciede::delta_e00(a, b);
      }
    }
    return total;
  }

  PictureFormat fmt_;
};

std::unique_ptr<Extractor> create(const OptionSet&, const PictureFormat& fmt) {
  if (fmt.chroma == ChromaFormat::k400)
    throw unsupported_error("ciede: 4:0:0 (luma-only) input is not supported; ciede needs chroma");
  if (fmt.bpc != 8 && fmt.bpc != 10 && fmt.bpc != 12 && fmt.bpc != 16)
    throw unsupported_error("ciede: unsupported bit depth " + std::to_string(fmt.bpc) + " (8, 10, 12 or 16)");
  return std::make_unique<CiedeExtractor>(fmt);
}

}  // namespace

const ExtractorDescriptor kCiedeExtractor{
    .name = "ciede",
    .options = {},
    .provided = kProvided,
    .flags = 0,
    .create = &create,
};

}  // namespace vmafx
