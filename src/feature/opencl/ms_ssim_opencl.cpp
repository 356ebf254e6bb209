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

// A read per level, each waited for by its gaussian_ssim_finish; the last
// level's is the last the frame enqueues.
struct Pending : Slot::State {
  FrameKey frame;
  GaussianTerms level[kScales];
  const PendingRead& last_read() const { return level[kScales - 1].read; }
};

class MsSsimTwin final : public FrameTwin<Pending> {
 public:
  MsSsimTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : FrameTwin(std::move(g)),
        fmt_(f),
        lcs_(o.get_bool("enable_lcs")),
        db_(o.get_bool("enable_db")),
        max_db_(ssim::max_db(o.get_bool("clip_db"), f.bpc, f.width, f.height)) {}

 private:
  // Each level's sums are added while the device computes the next levels.
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    ssim::MsSsimScores v;
    double msssim = 1.0;
    for (int i = 0; i < kScales; ++i) ssim::ms_ssim_add_scale(i, gaussian_ssim_finish(st.level[i]), msssim, v);
    v.score = msssim;
    ssim::write_ms_ssim(v, lcs_, db_, max_db_, index, out);
  }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
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
