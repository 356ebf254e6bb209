// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "float_ms_ssim" (feature/ms_ssim.cpp): the five-level
// pyramid and each level's Gaussian SSIM on the device (float_ssim.cl), the
// per-level sums and the pow() product on the host, in the reference's order.
#include <cmath>

#include "core/error.hpp"
#include "feature/ms_ssim.hpp"
#include "feature/opencl/float_ssim_opencl.hpp"
#include "exact/ssim_tables.h"

namespace vmafx::ocl {
namespace {

constexpr int kScales = VMAFX_MS_SSIM_SCALES;

class MsSsimTwin final : public Twin {
 public:
  MsSsimTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : Twin(std::move(g)),
        fmt_(f),
        lcs_(o.get_bool("enable_lcs")),
        db_(o.get_bool("enable_db")),
        max_db_(ssim::max_db(o.get_bool("clip_db"), f.bpc, f.width, f.height)) {}

  void submit(const Picture& ref, const Picture& dis, unsigned index) override {
    Slot& s = slot();
    enqueue(s, ref, dis, index, s.state<Pending>(id_));
  }

  // Each level's sums are added while the device computes the next levels.
  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    Slot& s = slot();
    Pending& st = s.state<Pending>(id_);
    if (!st.frame.matches(ref, dis, index, st.level[kScales - 1].read)) enqueue(s, ref, dis, index, st);
    ssim::MsSsimScores v;
    double msssim = 1.0;
    for (int i = 0; i < kScales; ++i) ssim::ms_ssim_add_scale(i, gaussian_ssim_finish(st.level[i]), msssim, v);
    v.score = msssim;
    ssim::write_ms_ssim(v, lcs_, db_, max_db_, index, out);
  }

 private:
  struct Pending : Slot::State {
    FrameKey frame;
    GaussianTerms level[kScales];
  };

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) {
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
    // every level its own scratch pair, so all five can be in flight
    for (int i = 0; i < kScales; ++i)
      gaussian_ssim_enqueue(s, id_, 2 * kScales + 2 * i, r[i], d[i], lw[i], lh[i], true, st.level[i]);
    st.frame = {&ref, &dis, index};
  }

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
