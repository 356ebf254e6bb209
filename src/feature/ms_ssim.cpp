// SPDX-License-Identifier: BSD-3-Clause
#include "feature/ms_ssim.hpp"

#include <cmath>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "feature/ssim_common.hpp"
#include "exact/ssim_tables.h"

namespace vmafx {

namespace ssim {

bool ms_ssim_size_ok(int w, int h) {
  for (int i = 0; i < VMAFX_MS_SSIM_SCALES; ++i, w /= 2, h /= 2)
    if (w < VMAFX_SSIM_MIN_SIDE || h < VMAFX_SSIM_MIN_SIDE) return false;
  return true;
}

MsSsimScores ms_ssim_frame(const PlaneView& ref, const PlaneView& dis, int bpc) {
  constexpr int kScales = VMAFX_MS_SSIM_SCALES;

  // The pyramid, every level packed one after the other.
  int lw[kScales], lh[kScales];
  std::size_t off[kScales + 1];
  lw[0] = ref.width;
  lh[0] = ref.height;
  off[0] = 0;
  for (int i = 0; i < kScales; ++i) {
    off[i + 1] = off[i] + std::size_t(lw[i]) * lh[i];
    if (i + 1 < kScales) {
      lw[i + 1] = decimated_size(lw[i], 2);
      lh[i + 1] = decimated_size(lh[i], 2);
    }
  }
  float* r = scratch(2, off[kScales]).data();
  float* d = scratch(3, off[kScales]).data();
  luma_to_float(ref, bpc, r);
  luma_to_float(dis, bpc, d);
  for (int i = 1; i < kScales; ++i) {
    decimate_lpf(r + off[i - 1], lw[i - 1], lh[i - 1], r + off[i]);
    decimate_lpf(d + off[i - 1], lw[i - 1], lh[i - 1], d + off[i]);
  }

  MsSsimScores out;
  double msssim = 1.0;
  for (int i = 0; i < kScales; ++i) {
    ms_ssim_add_scale(i, gaussian_ssim(r + off[i], d + off[i], lw[i], lh[i]), msssim, out);
  }
  out.score = msssim;
  return out;
}

void ms_ssim_add_scale(int i, const SsimMeans& m, double& msssim, MsSsimScores& out) {
  static constexpr float kAlpha[] = VMAFX_MS_SSIM_ALPHA_INIT;
  static constexpr float kBeta[] = VMAFX_MS_SSIM_BETA_INIT;
  static constexpr float kGamma[] = VMAFX_MS_SSIM_GAMMA_INIT;
  // pow in double, on the float means and exponents widened.
  msssim *= std::pow(double(m.l), double(kAlpha[i])) * std::pow(double(m.c), double(kBeta[i])) *
            std::pow(double(m.s), double(kGamma[i]));
  out.l[i] = m.l;
  out.c[i] = m.c;
  out.s[i] = m.s;
  if (msssim == INFINITY) throw Error("float_ms_ssim: the score is infinite");
}

namespace {

constexpr const char* kLcsNames[3][5] = {
    {"float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2", "float_ms_ssim_l_scale3",
     "float_ms_ssim_l_scale4"},
    {"float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2", "float_ms_ssim_c_scale3",
     "float_ms_ssim_c_scale4"},
    {"float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2", "float_ms_ssim_s_scale3",
     "float_ms_ssim_s_scale4"},
};

}  // namespace

void write_ms_ssim(MsSsimScores v, bool lcs, bool db, double max_db, unsigned index, FeatureSink& out) {
  if (db) v.score = to_db(v.score, max_db);
  out.put_plain("float_ms_ssim", index, v.score);
  if (lcs) {
    // libvmaf's order: l of every scale, then c, then s.
    for (int i = 0; i < 5; ++i) out.put_plain(kLcsNames[0][i], index, v.l[i]);
    for (int i = 0; i < 5; ++i) out.put_plain(kLcsNames[1][i], index, v.c[i]);
    for (int i = 0; i < 5; ++i) out.put_plain(kLcsNames[2][i], index, v.s[i]);
  }
}

}  // namespace ssim

namespace {

constexpr OptionSpec kOptions[] = {
    {.name = "enable_lcs",
     .help = "also write the per-scale luminance, contrast and structure means",
     .type = OptionType::kBool,
     .default_num = 0},
    {.name = "enable_db", .help = "write the score in dB", .type = OptionType::kBool, .default_num = 0},
    {.name = "clip_db", .help = "cap the dB score", .type = OptionType::kBool, .default_num = 0},
};

constexpr std::string_view kProvided[] = {"float_ms_ssim"};

class FloatMsSsim final : public Extractor {
 public:
  FloatMsSsim(bool lcs, bool db, double max_db) : lcs_(lcs), db_(db), max_db_(max_db) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ssim::write_ms_ssim(ssim::ms_ssim_frame(ref.plane(0), dis.plane(0), ref.bpc()), lcs_, db_, max_db_, index, out);
  }

 private:
  bool lcs_, db_;
  double max_db_;
};

std::unique_ptr<Extractor> create(const OptionSet& opts, const PictureFormat& fmt) {
  ssim::check_float_depth("float_ms_ssim", fmt.bpc);
  if (!ssim::ms_ssim_size_ok(fmt.width, fmt.height))
    throw unsupported_error("float_ms_ssim: frame " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                            " is too small: needs at least 176x176 (11x11 window at 5 scales)");
  return std::make_unique<FloatMsSsim>(opts.get_bool("enable_lcs"), opts.get_bool("enable_db"),
                                       ssim::max_db(opts.get_bool("clip_db"), fmt.bpc, fmt.width, fmt.height));
}

}  // namespace

const ExtractorDescriptor kFloatMsSsimExtractor{
    .name = "float_ms_ssim",
    .options = kOptions,
    .provided = kProvided,
    .flags = 0,
    .create = create,
};

}  // namespace vmafx
