// SPDX-License-Identifier: BSD-3-Clause
#include "feature/float_ssim.hpp"

#include <memory>
#include <string>

#include "core/error.hpp"
#include "feature/ssim_common.hpp"
#include "exact/ssim_tables.h"

namespace vmafx {

namespace ssim {

int float_ssim_scale(int w, int h, int scale_option) { return scale_option > 0 ? scale_option : auto_scale(w, h); }

FloatSsimScores float_ssim_frame(const PlaneView& ref, const PlaneView& dis, int bpc, int scale) {
  int w = ref.width, h = ref.height;
  const std::size_t n = std::size_t(w) * h;
  float* r = scratch(0, n).data();
  float* d = scratch(1, n).data();
  luma_to_float(ref, bpc, r);
  luma_to_float(dis, bpc, d);
  if (scale > 1) {
    int sw = 0, sh = 0;
    decimate_box_in_place(r, w, h, scale, &sw, &sh);
    decimate_box_in_place(d, w, h, scale, &sw, &sh);
    w = sw;
    h = sh;
  }
  const SsimMeans m = gaussian_ssim(r, d, w, h);
  return {m.ssim, m.l, m.c, m.s};
}

void write_float_ssim(FloatSsimScores v, bool lcs, bool db, double max_db, unsigned index, FeatureSink& out) {
  if (db) v.ssim = to_db(v.ssim, max_db);
  out.put_plain("float_ssim", index, v.ssim);
  if (lcs) {
    out.put_plain("float_ssim_l", index, v.l);
    out.put_plain("float_ssim_c", index, v.c);
    out.put_plain("float_ssim_s", index, v.s);
  }
}

}  // namespace ssim

namespace {

constexpr OptionSpec kOptions[] = {
    {.name = "enable_lcs",
     .help = "also write the luminance, contrast and structure means",
     .type = OptionType::kBool,
     .default_num = 0},
    {.name = "enable_db", .help = "write the score in dB", .type = OptionType::kBool, .default_num = 0},
    {.name = "clip_db", .help = "cap the dB score", .type = OptionType::kBool, .default_num = 0},
    {.name = "scale",
     .help = "decimation factor (0: automatic, 1: none, 2-10: that factor)",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 0,
     .max = 10},
};

constexpr std::string_view kProvided[] = {"float_ssim"};

class FloatSsim final : public Extractor {
 public:
  FloatSsim(int scale, bool lcs, bool db, double max_db) : scale_(scale), lcs_(lcs), db_(db), max_db_(max_db) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ssim::write_float_ssim(ssim::float_ssim_frame(ref.plane(0), dis.plane(0), ref.bpc(), scale_), lcs_, db_, max_db_,
                           index, out);
  }

 private:
  int scale_;
  bool lcs_, db_;
  double max_db_;
};

std::unique_ptr<Extractor> create(const OptionSet& opts, const PictureFormat& fmt) {
  ssim::check_float_depth("float_ssim", fmt.bpc);
  const int scale = ssim::float_ssim_scale(fmt.width, fmt.height, opts.get_int("scale"));
  const int sw = scale > 1 ? ssim::decimated_size(fmt.width, scale) : fmt.width;
  const int sh = scale > 1 ? ssim::decimated_size(fmt.height, scale) : fmt.height;
  if (sw < VMAFX_SSIM_MIN_SIDE || sh < VMAFX_SSIM_MIN_SIDE)
    throw unsupported_error("float_ssim: frame " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                            (scale > 1 ? " (" + std::to_string(sw) + "x" + std::to_string(sh) +
                                             " after decimation by " + std::to_string(scale) + ")"
                                       : std::string()) +
                            " is too small: needs at least 11x11 for the 11x11 window");
  return std::make_unique<FloatSsim>(scale, opts.get_bool("enable_lcs"), opts.get_bool("enable_db"),
                                     ssim::max_db(opts.get_bool("clip_db"), fmt.bpc, fmt.width, fmt.height));
}

}  // namespace

const ExtractorDescriptor kFloatSsimExtractor{
    .name = "float_ssim",
    .options = kOptions,
    .provided = kProvided,
    .flags = 0,
    .create = create,
};

}  // namespace vmafx
