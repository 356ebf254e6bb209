// OpenCL twin of "float_ms_ssim" (feature/ms_ssim.cpp): the five-level
// pyramid and each level's Gaussian SSIM on the device (float_ssim.cl), the
// per-level sums and the pow() product on the host, in the reference's order.
#include <cmath>

#include "core/error.hpp"
#include "feature/ms_ssim.hpp"
#include "feature/opencl/float_ssim_opencl.hpp"
#include "feature/ssim_tables.h"

namespace vmafx::ocl {
namespace {

constexpr int kScales = VMAFX_MS_SSIM_SCALES;

constexpr const char* kLcsNames[3][5] = {
    {"float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2", "float_ms_ssim_l_scale3",
     "float_ms_ssim_l_scale4"},
    {"float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2", "float_ms_ssim_c_scale3",
     "float_ms_ssim_c_scale4"},
    {"float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2", "float_ms_ssim_s_scale3",
     "float_ms_ssim_s_scale4"},
};

class MsSsimTwin final : public Twin {
 public:
  MsSsimTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : Twin(std::move(g)),
        fmt_(f),
        lcs_(o.get_bool("enable_lcs")),
        db_(o.get_bool("enable_db")),
        max_db_(ssim::max_db(o.get_bool("clip_db"), f.bpc, f.width, f.height)) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    static constexpr float kAlpha[] = VMAFX_MS_SSIM_ALPHA_INIT;
    static constexpr float kBeta[] = VMAFX_MS_SSIM_BETA_INIT;
    static constexpr float kGamma[] = VMAFX_MS_SSIM_GAMMA_INIT;
    Slot& s = slot();
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    int lw[kScales], lh[kScales];
    lw[0] = fmt_.width;
    lh[0] = fmt_.height;
    for (int i = 1; i < kScales; ++i) {
      lw[i] = ssim::decimated_size(lw[i - 1], 2);
      lh[i] = ssim::decimated_size(lh[i - 1], 2);
    }
    cl_mem r[kScales], d[kScales];
    for (int i = 0; i < kScales; ++i) {
      r[i] = s.scratch(id_, 2 * i, std::size_t(lw[i]) * lh[i] * 4);
      d[i] = s.scratch(id_, 2 * i + 1, std::size_t(lw[i]) * lh[i] * 4);
    }
    const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
    cl_kernel kf = s.kernel(kFloatSsimFile, "fs_to_float");
    set_args(kf, pl.ref, cl_int(lw[0]), cl_int(lh[0]), wide, cl_int(fmt_.bpc), r[0]);
    run2d(s.queue(), kf, std::size_t(lw[0]), std::size_t(lh[0]), 16, 8);
    set_args(kf, pl.dis, cl_int(lw[0]), cl_int(lh[0]), wide, cl_int(fmt_.bpc), d[0]);
    run2d(s.queue(), kf, std::size_t(lw[0]), std::size_t(lh[0]), 16, 8);
    cl_kernel kl = s.kernel(kFloatSsimFile, "fs_lpf");
    for (int i = 1; i < kScales; ++i) {
      set_args(kl, r[i - 1], cl_int(lw[i - 1]), cl_int(lh[i - 1]), cl_int(lw[i]), cl_int(lh[i]), r[i]);
      run2d(s.queue(), kl, std::size_t(lw[i]), std::size_t(lh[i]), 16, 8);
      set_args(kl, d[i - 1], cl_int(lw[i - 1]), cl_int(lh[i - 1]), cl_int(lw[i]), cl_int(lh[i]), d[i]);
      run2d(s.queue(), kl, std::size_t(lw[i]), std::size_t(lh[i]), 16, 8);
    }
    ssim::MsSsimScores v;
    double msssim = 1.0;
    for (int i = 0; i < kScales; ++i) {
      const ssim::SsimMeans m = gaussian_ssim(s, id_, 2 * kScales, r[i], d[i], lw[i], lh[i], true);
      msssim *= std::pow(double(m.l), double(kAlpha[i])) * std::pow(double(m.c), double(kBeta[i])) *
                std::pow(double(m.s), double(kGamma[i]));
      v.l[i] = m.l;
      v.c[i] = m.c;
      v.s[i] = m.s;
      if (msssim == INFINITY) throw Error("float_ms_ssim: the score is infinite");
    }
    v.score = msssim;
    if (db_) v.score = ssim::to_db(v.score, max_db_);
    out.put_plain("float_ms_ssim", index, v.score);
    if (lcs_) {
      for (int i = 0; i < 5; ++i) out.put_plain(kLcsNames[0][i], index, v.l[i]);
      for (int i = 0; i < 5; ++i) out.put_plain(kLcsNames[1][i], index, v.c[i]);
      for (int i = 0; i < 5; ++i) out.put_plain(kLcsNames[2][i], index, v.s[i]);
    }
  }

 private:
  PictureFormat fmt_;
  bool lcs_, db_;
  double max_db_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_ms_ssim_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                                   const PictureFormat& f) {
  return std::make_unique<MsSsimTwin>(std::move(g), o, f);
}

}  // namespace vmafx::ocl
