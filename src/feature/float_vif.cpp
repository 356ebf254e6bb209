// SPDX-License-Identifier: BSD-3-Clause
#include "feature/float_vif.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "exact/float_vif.h"
#include "core/simd.hpp"

namespace vmafx {
namespace fvif {

using flt::convolve_row;
using flt::mirror;
using flt::scratch;

vmafx_fvif_consts stat_consts(float max_inv, float gain_limit, double sigma_nsq) {
  vmafx_fvif_consts k{};
  k.sigma_nsq = sigma_nsq;
  for (int i = 0; i < VMAFX_FVIF_LOG2_TERMS; ++i) k.poly[i] = vmafx_fvif_log2_poly[i];
  k.max_inv = max_inv;
  k.gain_limit = gain_limit;
  return k;
}

vmafx_fvif_consts stat_consts(const Params& p) {
  return stat_consts(sigma_nsq_max_inv(p.sigma_nsq), static_cast<float>(p.enhn_gain_limit), p.sigma_nsq);
}

float log2_approx(float x) {
  static const vmafx_fvif_consts k = stat_consts(0.0f, 0.0f, 0.0);
  return vmafx_fvif_log2(x, &k);
}

bool kernelscale_valid(double kernelscale) {
  const float ks = static_cast<float>(kernelscale);
  for (float v : vmafx_fvif_kernelscales)
    if (std::fabs(ks - v) < 1e-3) return true;
  return false;
}

namespace {

int taps_for(int scale, float ks) {
  const int n = (1 << (4 - scale)) + 1;
  int c = static_cast<int>(std::ceil(n * ks));
  if (c % 2 == 0) ++c;
  return std::max(c, 3);
}

}  // namespace

std::vector<float> gaussian_kernel(int scale, double kernelscale) {
  const int taps = taps_for(scale, static_cast<float>(kernelscale));
  const float sigma = taps / 5.0f;
  std::vector<float> k(std::size_t(taps), 0.0f);
  const int half = (taps - 1) / 2;
  float sum = 0;
  for (int i = 0; i < taps; ++i) {
    const float x = static_cast<float>(i - half);
    const float num = static_cast<float>(std::exp(-0.5 * x / sigma * x / sigma));
    const float den = static_cast<float>(1 / (sigma * std::sqrt(2 * M_PI)));
    k[i] = num / den;
    sum += k[i];
  }
  for (float& v : k) v /= sum;
  return k;
}

bool size_ok(int w, int h, const Params& p) {
  const int start = p.skip_scale0 ? 1 : 0;
  for (int s = 0; s < 4; ++s) {
    const int r = taps_for(s, static_cast<float>(p.kernelscale)) / 2;
    if (s >= start) {
      // scale s > 0 filters the previous scale's image with its own kernel
      if (s > 0 && (w <= r || h <= r)) return false;
      if (s > 0) {
        w /= 2;
        h /= 2;
      }
      if (w <= r || h <= r) return false;
    } else if (s > 0) {
      w /= 2;
      h /= 2;
    }
  }
  return true;
}

namespace {

// Scratch slot of the decimated images (10 and 11 are the shared
// convolution's rows).
constexpr int kSlotDecimated = 12;
// Scratch slot of the statistic's rows.
constexpr int kSlotRows = 13;

// The four kernels of a kernel scale, made once per thread and kernel scale.
struct Kernels {
  double kernelscale = -1.0;
  std::vector<float> f[4];
};

const Kernels& kernels_for(double kernelscale) {
  thread_local Kernels k;
  if (k.kernelscale != kernelscale) {
    for (int s = 0; s < 4; ++s) k.f[s] = gaussian_kernel(s, kernelscale);
    k.kernelscale = kernelscale;
  }
  return k;
}

// ---- the scalar rows: loops around exact/float_vif.h

void moments_row(const float* f, int fw, const float* const* ra, const float* const* rb, int w, float* const* t) {
  for (int j = 0; j < w; ++j) {
    float m[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int k = 0; k < fw; ++k) vmafx_fvif_moments_tap(m, f[k], ra[k][j], rb[k][j], 0);
    for (int q = 0; q < 5; ++q) t[q][j] = m[q];
  }
}

void moments2_row(const float* f, int fw, const float* const* ra, const float* const* rb, int w, float* const* t,
                  float* const* u) {
  moments_row(f, fw, ra, rb, w, t);
  moments_row(f, fw, ra + 1, rb + 1, w, u);
}

void stat_row(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int w,
              const vmafx_fvif_consts& k, float* num, float* den) {
  float row_num = 0.0f, row_den = 0.0f;
  for (int j = 0; j < w; ++j) {
    float n, d;
    vmafx_fvif_stat(mu1[j], mu2[j], xx[j], yy[j], xy[j], &k, &n, &d);
    row_num += n;
    row_den += d;
  }
  *num = row_num;
  *den = row_den;
}

// Filters a w x h image with f and keeps every second sample of every second
// row (vif_filter1d_s then vif_dec2_s): dst is (w / 2) x (h / 2). Each kept
// sample is the same tap-ordered sum as in the full filtered image.
void filter_dec2(const float* f, int fw, const float* src, int w, int h, float* dst) {
  flt::convolve_decimated(f, fw, src, w, h, 2, w / 2, h / 2, dst);
}

// Filtered means, squares and cross term, row by row, and the statistic
// summed per row in float then over rows in float (vif_statistic_s). Rows go
// two at a time (one vertical pass over their fw + 1 input rows), each then
// filtered horizontally and scored; the row totals are added in row order.
void statistic(const Rows& rw, const float* f, int fw, const float* ref, const float* dis, int w, int h,
               const vmafx_fvif_consts& st, float* num, float* den) {
  const std::size_t stride = (std::size_t(w) + 15) / 16 * 16;
  float* rows = scratch(kSlotRows, 20 * stride);
  float* t[2][5];
  float* m[2][5];
  for (int q = 0; q < 5; ++q)
    for (int p = 0; p < 2; ++p) {
      t[p][q] = rows + (p * 5 + q) * stride;
      m[p][q] = rows + (10 + p * 5 + q) * stride;
    }
  thread_local std::vector<const float*> ra, rb;
  ra.resize(std::size_t(fw) + 1);
  rb.resize(std::size_t(fw) + 1);
  const int r = fw / 2;
  float acc_num = 0.0f, acc_den = 0.0f;
  for (int i = 0; i < h; i += 2) {
    const int count = i + 1 < h ? 2 : 1;
    for (int k = 0; k < fw + count - 1; ++k) {
      const std::size_t off = std::size_t(mirror(i - r + k, h)) * w;
      ra[k] = ref + off;
      rb[k] = dis + off;
    }
    if (count == 2)
      rw.moments2(f, fw, ra.data(), rb.data(), w, t[0], t[1]);
    else
      rw.moments(f, fw, ra.data(), rb.data(), w, t[0]);
    for (int p = 0; p < count; ++p) {
      for (int q = 0; q < 5; ++q) convolve_row(f, fw, t[p][q], w, m[p][q]);
      float row_num, row_den;
      rw.stat(m[p][0], m[p][1], m[p][2], m[p][3], m[p][4], w, st, &row_num, &row_den);
      acc_num += row_num;
      acc_den += row_den;
    }
  }
  *num = acc_num;
  *den = acc_den;
}

}  // namespace

const Rows& scalar_rows() {
  static const Rows r{&moments_row, &moments2_row, &stat_row};
  return r;
}

const Rows& rows() {
#if VMAFX_HAVE_HWY
  static const Rows fast = [] {
    Rows r = scalar_rows();
    init_simd_rows(r);
    return r;
  }();
  if (vmafx::simd::enabled()) return fast;
#endif
  return scalar_rows();
}

float sigma_nsq_max_inv(double sigma_nsq) {
  return static_cast<float>(std::pow(static_cast<float>(sigma_nsq), 2.0f) / (255.0 * 255.0));
}

Scores compute(const float* ref, const float* dis, int w, int h, const Params& p) {
  Scores out;
  const vmafx_fvif_consts st = stat_consts(p);

  // Decimated images live in per-thread buffers (two per side, ping-pong).
  const std::size_t q = std::size_t(w / 2) * (h / 2) + 1;
  float* buf = scratch(kSlotDecimated, 4 * q);
  float* dec_ref[2] = {buf, buf + q};
  float* dec_dis[2] = {buf + 2 * q, buf + 3 * q};
  const Rows& rw = rows();
  const Kernels& kernels = kernels_for(p.kernelscale);

  const float* cur_ref = ref;
  const float* cur_dis = dis;
  int flip = 0;
  for (int scale = p.skip_scale0 ? 1 : 0; scale < 4; ++scale) {
    const std::vector<float>& f = kernels.f[scale];
    const int fw = int(f.size());
    if (scale > 0) {
      filter_dec2(f.data(), fw, cur_ref, w, h, dec_ref[flip]);
      filter_dec2(f.data(), fw, cur_dis, w, h, dec_dis[flip]);
      cur_ref = dec_ref[flip];
      cur_dis = dec_dis[flip];
      flip ^= 1;
      w /= 2;
      h /= 2;
    }
    float num = 0, den = 0;
    statistic(rw, f.data(), fw, cur_ref, cur_dis, w, h, st, &num, &den);
    out.num[scale] = num;
    out.den[scale] = den;
  }
  return out;
}

}  // namespace fvif

namespace {
constexpr std::string_view kScaleNames[4] = {"VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
                                             "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score"};
constexpr std::string_view kNumNames[4] = {"vif_num_scale0", "vif_num_scale1", "vif_num_scale2", "vif_num_scale3"};
constexpr std::string_view kDenNames[4] = {"vif_den_scale0", "vif_den_scale1", "vif_den_scale2", "vif_den_scale3"};
}  // namespace

namespace fvif {

Config config(const OptionSet& o, const PictureFormat& fmt) {
  Config c;
  c.p.enhn_gain_limit = o.get_double("vif_enhn_gain_limit");
  c.p.kernelscale = o.get_double("vif_kernelscale");
  c.p.sigma_nsq = o.get_double("vif_sigma_nsq");
  c.p.skip_scale0 = o.get_bool("vif_skip_scale0");
  c.min_val[1] = o.get_double("vif_scale1_min_val");
  c.min_val[2] = o.get_double("vif_scale2_min_val");
  c.min_val[3] = o.get_double("vif_scale3_min_val");
  c.debug = o.get_bool("debug");
  (void)flt::parse_scale_method(o.get_string("vif_prescale_method"), &c.method);
  const double ps = o.get_double("vif_prescale");
  c.w = fmt.width;
  c.h = fmt.height;
  c.sw = static_cast<int>(fmt.width * ps + 0.5);
  c.sh = static_cast<int>(fmt.height * ps + 0.5);
  c.bpc = fmt.bpc;
  return c;
}

const float* input(const Config& c, const Picture& pic, float* dst) {
  flt::plane_to_float(pic.plane(0), c.bpc, -128, dst);
  if (!c.rescale()) return dst;
  float* scaled = dst + std::size_t(c.w) * c.h;
  flt::scale_frame(c.method, dst, c.w, c.h, scaled, c.sw, c.sh);
  return scaled;
}

void put_scores(const Config& c, const Scores& s, unsigned index, FeatureSink& out) {
  out.put(kScaleNames[0], index, c.p.skip_scale0 ? 0.0 : s.num[0] / s.den[0]);
  for (int k = 1; k < 4; ++k) {
    const double v = s.num[k] / s.den[k];
    out.put(kScaleNames[k], index, v > c.min_val[k] ? v : c.min_val[k]);
  }
  if (!c.debug) return;

  double num = 0.0, den = 0.0;
  for (int k = c.p.skip_scale0 ? 1 : 0; k < 4; ++k) {
    num += s.num[k];
    den += s.den[k];
  }
  out.put("vif", index, den == 0.0 ? 1.0 : num / den);
  out.put("vif_num", index, num);
  out.put("vif_den", index, den);
  for (int k = 0; k < 4; ++k) {
    const bool skipped = k == 0 && c.p.skip_scale0;
    out.put(kNumNames[k], index, skipped ? 0.0 : s.num[k]);
    out.put(kDenNames[k], index, skipped ? -1.0 : s.den[k]);
  }
}

}  // namespace fvif

namespace {

constexpr OptionSpec kOptions[] = {
    {.name = "debug",
     .help = "also write vif, vif_num, vif_den and the per-scale numerators and denominators",
     .type = OptionType::kBool,
     .default_num = 0},
    {.name = "vif_enhn_gain_limit",
     .alias = "egl",
     .help = "limit on the enhancement gain (>= 1.0; 1.0 disables any gain)",
     .type = OptionType::kDouble,
     .default_num = 100.0,
     .min = 1.0,
     .max = 100.0,
     .feature_param = true},
    {.name = "vif_kernelscale",
     .alias = "ks",
     .help = "scale of the Gaussian kernels (2.0 doubles sigma and the kernel size)",
     .type = OptionType::kDouble,
     .default_num = 1.0,
     .min = 0.1,
     .max = 4.0,
     .feature_param = true},
    {.name = "vif_prescale",
     .alias = "ps",
     .help = "rescale the frame by this factor first",
     .type = OptionType::kDouble,
     .default_num = 1.0,
     .min = 0.1,
     .max = 4.0,
     .feature_param = true},
    {.name = "vif_scale1_min_val",
     .alias = "s1miv",
     .help = "lower bound of vif_scale1",
     .type = OptionType::kDouble,
     .default_num = 0.0,
     .min = 0.0,
     .max = 1.0,
     .feature_param = true},
    {.name = "vif_scale2_min_val",
     .alias = "s2miv",
     .help = "lower bound of vif_scale2",
     .type = OptionType::kDouble,
     .default_num = 0.0,
     .min = 0.0,
     .max = 1.0,
     .feature_param = true},
    {.name = "vif_scale3_min_val",
     .alias = "s3miv",
     .help = "lower bound of vif_scale3",
     .type = OptionType::kDouble,
     .default_num = 0.0,
     .min = 0.0,
     .max = 1.0,
     .feature_param = true},
    {.name = "vif_prescale_method",
     .alias = "pm",
     .help = "rescaling method: nearest, bilinear, bicubic or lanczos4",
     .type = OptionType::kString,
     .default_str = "nearest",
     .feature_param = true},
    {.name = "vif_sigma_nsq",
     .alias = "snsq",
     .help = "neural noise variance",
     .type = OptionType::kDouble,
     .default_num = 2.0,
     .min = 0.0,
     .max = 5.0,
     .feature_param = true},
    {.name = "vif_skip_scale0",
     .alias = "ssclz",
     .help = "skip scale 0 (vif_scale0 is written as 0)",
     .type = OptionType::kBool,
     .default_num = 0,
     .feature_param = true},
};

constexpr std::string_view kProvided[] = {"VMAF_feature_vif_scale0_score",
                                          "VMAF_feature_vif_scale1_score",
                                          "VMAF_feature_vif_scale2_score",
                                          "VMAF_feature_vif_scale3_score",
                                          "vif",
                                          "vif_num",
                                          "vif_den",
                                          "vif_num_scale0",
                                          "vif_den_scale0",
                                          "vif_num_scale1",
                                          "vif_den_scale1",
                                          "vif_num_scale2",
                                          "vif_den_scale2",
                                          "vif_num_scale3",
                                          "vif_den_scale3"};

class FloatVif final : public Extractor {
 public:
  explicit FloatVif(const fvif::Config& c) : c_(c) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const std::size_t n = std::size_t(c_.w) * c_.h + (c_.rescale() ? std::size_t(c_.sw) * c_.sh : 0);
    float* buf = flt::scratch(flt::kSlotFrame, 2 * n);
    const float* r = fvif::input(c_, ref, buf);
    const float* d = fvif::input(c_, dis, buf + n);
    fvif::put_scores(c_, fvif::compute(r, d, c_.sw, c_.sh, c_.p), index, out);
  }

 private:
  fvif::Config c_;
};

std::unique_ptr<Extractor> create(const OptionSet& o, const PictureFormat& fmt) {
  flt::check_depth("float_vif", fmt.bpc);
  flt::ScaleMethod method;
  const std::string& m = o.get_string("vif_prescale_method");
  if (!flt::parse_scale_method(m, &method))
    throw unsupported_error("float_vif: vif_prescale_method '" + m +
                            "' is not supported (nearest, bilinear, bicubic or lanczos4)");
  const double ks = o.get_double("vif_kernelscale");
  if (!fvif::kernelscale_valid(ks)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", ks);
    throw unsupported_error(std::string("float_vif: vif_kernelscale ") + buf +
                            " is not supported (1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, "
                            "1/2.25, 1.4746, 1.54, 1.6, 1.06667, 0.711111, 0.74074 or 1.111111)");
  }
  const double ps = o.get_double("vif_prescale");
  const int sw = static_cast<int>(fmt.width * ps + 0.5);
  const int sh = static_cast<int>(fmt.height * ps + 0.5);
  if (method == flt::ScaleMethod::kBilinear && sw > VMAFX_FVIF_BILINEAR_MAX_WIDTH)
    throw unsupported_error("float_vif: bilinear prescaling to width " + std::to_string(sw) +
                            " is not supported (at most " + std::to_string(VMAFX_FVIF_BILINEAR_MAX_WIDTH) + ")");
  if (sw != fmt.width || sh != fmt.height) {
    // The interpolators mirror once at the border: they need a few samples.
    const int need = method == flt::ScaleMethod::kLanczos4   ? 6
                     : method == flt::ScaleMethod::kBicubic  ? 3
                     : method == flt::ScaleMethod::kBilinear ? 2
                                                             : 1;
    flt::check_size("float_vif", fmt.width, fmt.height, need, need,
                    "the prescale method needs at least " + std::to_string(need) + "x" + std::to_string(need));
  }
  fvif::Params p;
  p.kernelscale = ks;
  p.skip_scale0 = o.get_bool("vif_skip_scale0");
  if (!fvif::size_ok(sw, sh, p)) {
    int min = 1;
    while (!fvif::size_ok(min, min, p)) ++min;
    std::string why = "every VIF scale must be larger than its filter radius: at least " + std::to_string(min) + "x" +
                      std::to_string(min);
    if (sw != fmt.width || sh != fmt.height)
      why += " after prescaling to " + std::to_string(sw) + "x" + std::to_string(sh);
    throw unsupported_error("float_vif: picture " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                            " is too small (" + why + ")");
  }
  return std::make_unique<FloatVif>(fvif::config(o, fmt));
}

}  // namespace

const ExtractorDescriptor kFloatVifExtractor{
    .name = "float_vif",
    .options = kOptions,
    .provided = kProvided,
    .flags = 0,
    .create = &create,
};

}  // namespace vmafx
