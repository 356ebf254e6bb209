// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "ssim" (feature/ssim.cpp): integer window moments and the
// exact per-pixel term on the device (ssim.cl), the raster-order sum on the
// host.
#include <cstring>
#include <mutex>
#include <vector>

#include "feature/opencl/opencl_twin.hpp"
#include "exact/ssim.h"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "ssim.cl";

struct Pending : FrameState {
  std::vector<double> terms;
};

class SsimTwin final : public FrameTwin<Pending> {
 public:
  SsimTwin(std::shared_ptr<FrameGroup> g, const PictureFormat& f) : FrameTwin(std::move(g)), fmt_(f) {
    // The reference's max^2 * K in double (max^2 formed in 64 bits).
    const std::int64_t sm = (std::int64_t(1) << f.bpc) - 1;
    const double max2 = static_cast<double>(sm * sm);
    const double k1f = max2 * VMAFX_ISSIM_K1;
    const double k2f = max2 * VMAFX_ISSIM_K2;
    std::memcpy(&k1f_, &k1f, 8);
    std::memcpy(&k2f_, &k2f, 8);
  }

 private:
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    // The reference's sum, in its order: raster order, one double each; the
    // window weights' sum depends on the size only and is formed once.
    double ssim = 0.0;
    for (const double t : st.terms) ssim += t;
    out.put_plain("ssim", index, ssim / weight_sum());
  }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    const int w = fmt_.width, h = fmt_.height;
    const std::size_t n = std::size_t(w) * h;
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    cl_mem hmx = s.scratch(id_, 0, n * 4), hmy = s.scratch(id_, 1, n * 4);
    cl_mem hxx = s.scratch(id_, 2, n * 8), hxy = s.scratch(id_, 3, n * 8), hyy = s.scratch(id_, 4, n * 8);
    cl_mem term = s.scratch(id_, 5, n * 8);
    const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
    cl_kernel kh = s.kernel(kFile, "issim_horizontal");
    set_args(kh, pl.ref, pl.dis, cl_int(w), cl_int(h), wide, hmx, hmy, hxx, hxy, hyy);
    run2d(s.queue(), kh, std::size_t(w), std::size_t(h), 16, 8);
    cl_kernel kt = s.kernel(kFile, "issim_term");
    set_args(kt, hmx, hmy, hxx, hxy, hyy, cl_int(w), cl_int(h), k1f_, k2f_, term);
    run2d(s.queue(), kt, std::size_t(w), std::size_t(h), 16, 8);
    st.terms.resize(n);
    st.read.start(s.queue(), term, st.terms.data(), n * 8);
  }

  // The sum of the window weights over the picture, added in raster order in
  // double as the reference adds them (once: it depends on the size only).
  double weight_sum() {
    std::call_once(weight_once_, [this] {
      const int w = fmt_.width, h = fmt_.height;
      std::vector<std::int64_t> lw(static_cast<std::size_t>(w)), lh(static_cast<std::size_t>(h));
      for (int x = 0; x < w; ++x) lw[std::size_t(x)] = vmafx_issim_line_weight(x, w);
      for (int y = 0; y < h; ++y) lh[std::size_t(y)] = vmafx_issim_line_weight(y, h);
      double sw = 0.0;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) sw += static_cast<double>(lw[std::size_t(x)] * lh[std::size_t(y)]);
      weight_sum_ = sw;
    });
    return weight_sum_;
  }

  PictureFormat fmt_;
  std::uint64_t k1f_ = 0, k2f_ = 0;
  std::once_flag weight_once_;
  double weight_sum_ = 0.0;
};

}  // namespace

std::unique_ptr<Extractor> make_ssim_twin(std::shared_ptr<FrameGroup> g, const OptionSet&, const PictureFormat& f) {
  return std::make_unique<SsimTwin>(std::move(g), f);
}

}  // namespace vmafx::ocl
