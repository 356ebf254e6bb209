// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of float_ssim: luma to float, the optional box decimation and the
// per-pixel Gaussian SSIM terms on the device (float_ssim.cu); the frame
// means summed here in raster order, then the CPU extractor's outputs.
#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/float_ssim_cuda.hpp"
#include "feature/float_ssim.hpp"
#include "exact/ssim_tables.h"

namespace vmafx::cuda {
namespace {

class FloatSsimTwin final : public Extractor {
 public:
  FloatSsimTwin(CudaBackend& b, const PictureFormat& f, int scale, bool lcs, bool db, double max_db)
      : b_(b), w_(f.width), h_(f.height), bpc_(f.bpc), scale_(scale), lcs_(lcs), db_(db), max_db_(max_db) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    const void* r = ctx.plane(ref, index, 0);
    const void* d = ctx.plane(dis, index, 0);
    const std::size_t n0 = std::size_t(w_) * std::size_t(h_);
    auto* fr = static_cast<float*>(ctx.device(this, 0, n0 * sizeof(float)));
    auto* fd = static_cast<float*>(ctx.device(this, 1, n0 * sizeof(float)));
    const int bps = bpc_ > 8 ? 2 : 1;
    fssim::to_float(r, ref.stride(0) / bps, w_, h_, bpc_, fr, s);
    fssim::to_float(d, dis.stride(0) / bps, w_, h_, bpc_, fd, s);
    int w = w_, h = h_;
    const float* sr = fr;
    const float* sd = fd;
    if (scale_ > 1) {
      const int sw = vmafx::ssim::decimated_size(w_, scale_), sh = vmafx::ssim::decimated_size(h_, scale_);
      auto* dr = static_cast<float*>(ctx.device(this, 2, std::size_t(sw) * sh * sizeof(float)));
      auto* dd = static_cast<float*>(ctx.device(this, 3, std::size_t(sw) * sh * sizeof(float)));
      fssim::decimate_box(fr, w_, h_, scale_, dr, s);
      fssim::decimate_box(fd, w_, h_, scale_, dd, s);
      w = sw;
      h = sh;
      sr = dr;
      sd = dd;
    }
    const int dw = w - (VMAFX_SSIM_GAUSS_TAPS - 1), dh = h - (VMAFX_SSIM_GAUSS_TAPS - 1);
    const std::size_t n = std::size_t(dw) * std::size_t(dh);
    auto* mom = static_cast<float*>(ctx.device(this, 4, 5 * std::size_t(dw) * std::size_t(h) * sizeof(float)));
    const int k = lcs_ ? 4 : 1;
    auto* dev = static_cast<double*>(ctx.device(this, 5, k * n * sizeof(double)));
    auto* host = static_cast<double*>(ctx.pinned(this, 0, k * n * sizeof(double)));
    fssim::terms(sr, sd, w, h, mom, dev, dev + n, dev + 2 * n, dev + 3 * n, lcs_, s);
    ctx.read_back(host, dev, k * n * sizeof(double), "float_ssim");
    const vmafx::ssim::SsimMeans m = lcs_ ? fssim::sum_means(host, host + n, host + 2 * n, host + 3 * n, n)
                                          : fssim::sum_means(host, nullptr, nullptr, nullptr, n);
    // As FloatSsim::extract.
    vmafx::ssim::write_float_ssim({m.ssim, m.l, m.c, m.s}, lcs_, db_, max_db_, index, out);
  }

 private:
  CudaBackend& b_;
  int w_, h_, bpc_, scale_;
  bool lcs_, db_;
  double max_db_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_ssim_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kFloatSsimExtractor.create(o, f);  // the CPU's format checks and errors
  const int scale = vmafx::ssim::float_ssim_scale(f.width, f.height, o.get_int("scale"));
  return std::make_unique<FloatSsimTwin>(b, f, scale, o.get_bool("enable_lcs"), o.get_bool("enable_db"),
                                         vmafx::ssim::max_db(o.get_bool("clip_db"), f.bpc, f.width, f.height));
}

}  // namespace vmafx::cuda
