// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of the integer SSIM extractor ("ssim"). The device computes every
// pixel's term; the host adds them in raster order, with the window weights,
// exactly as ssim::integer_ssim does, so the frame score is the CPU's double.
#include <vector>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/ssim_cuda.hpp"
#include "feature/ssim.hpp"
#include "exact/ssim_tables.h"

namespace vmafx::cuda {
namespace {

constexpr int kTaps = VMAFX_SSIM_TAP_COUNT;
constexpr int kR = VMAFX_SSIM_TAP_RADIUS;

// Sum of the taps of a window centred at i, cut at [0, n).
std::int64_t window_weight(int i, int n) {
  const int k_lo = i < kR ? kR - i : 0;
  const int k_hi = i + kR >= n ? kTaps - (i + kR - n + 1) : kTaps;
  std::int64_t s = 0;
  for (int k = k_lo; k < k_hi; ++k) s += vmafx_issim_taps[k];
  return s;
}

class SsimTwin final : public Extractor {
 public:
  SsimTwin(CudaBackend& b, const PictureFormat& f) : b_(b), w_(f.width), h_(f.height), bpc_(f.bpc) {
    wx_.resize(std::size_t(w_));
    wy_.resize(std::size_t(h_));
    for (int x = 0; x < w_; ++x) wx_[std::size_t(x)] = window_weight(x, w_);
    for (int y = 0; y < h_; ++y) wy_[std::size_t(y)] = window_weight(y, h_);
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    const void* r = ctx.plane(ref, index, 0);
    const void* d = ctx.plane(dis, index, 0);
    const std::size_t n = std::size_t(w_) * std::size_t(h_);
    auto* terms = static_cast<double*>(ctx.device(this, 0, n * sizeof(double)));
    auto* host = static_cast<double*>(ctx.pinned(this, 0, n * sizeof(double)));
    const int bps = bpc_ > 8 ? 2 : 1;
    cuda::ssim::launch_terms(r, d, ref.stride(0) / bps, w_, h_, bpc_, terms, ctx.stream());
    ctx.read_back(host, terms, n * sizeof(double), "ssim");
    // As frame_ssim: ssim += term, ssimw += window weight, in raster order.
    double ssim = 0.0, ssimw = 0.0;
    for (int y = 0; y < h_; ++y) {
      const double* t = host + std::size_t(y) * std::size_t(w_);
      const std::int64_t wy = wy_[std::size_t(y)];
      for (int x = 0; x < w_; ++x) {
        ssim += t[x];
        ssimw += static_cast<double>(wy * wx_[std::size_t(x)]);
      }
    }
    out.put_plain("ssim", index, ssim / ssimw);
  }

 private:
  CudaBackend& b_;
  int w_, h_, bpc_;
  std::vector<std::int64_t> wx_, wy_;
};

}  // namespace

std::unique_ptr<Extractor> make_ssim_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kSsimExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<SsimTwin>(b, f);
}

}  // namespace vmafx::cuda
