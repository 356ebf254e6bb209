// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of "float_ansnr" (feature/float_ansnr.cpp): the filters and the
// per-row float sums on the device (float_ansnr.cu), the sums over the rows
// (in float, in order) and the reference's own score function on the host.
#include <algorithm>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/float_ansnr_cuda.hpp"
#include "feature/float_ansnr.hpp"
#include "feature/float_psnr.hpp"

namespace vmafx::cuda {
namespace {

class FloatAnsnrTwin final : public Extractor {
 public:
  FloatAnsnrTwin(CudaBackend& b, const PictureFormat& f) : b_(b), fmt_(f), pk_(vmafx::fpsnr::peak_for(f.bpc)) {
    std::copy(vmafx::fansnr::kRef3, vmafx::fansnr::kRef3 + 9, taps_.t);
    std::copy(vmafx::fansnr::kDis5, vmafx::fansnr::kDis5 + 25, taps_.t + 9);
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    const void* r = ctx.plane(ref, index, 0);
    const void* d = ctx.plane(dis, index, 0);
    const int w = fmt_.width, h = fmt_.height, bps = fmt_.bpc > 8 ? 2 : 1;
    if (ref.stride(0) != dis.stride(0))
      fail(cudaErrorInvalidValue, "float_ansnr: reference and distorted strides differ");
    const std::size_t n = std::size_t(w) * h;
    auto* rf = static_cast<float*>(ctx.device(this, 0, n * 4));
    auto* df = static_cast<float*>(ctx.device(this, 1, n * 4));
    auto* rows = static_cast<float*>(ctx.device(this, 2, std::size_t(h) * 8));
    auto* host = static_cast<float*>(ctx.pinned(this, 0, std::size_t(h) * 8));
    fansnr::launch(r, d, ref.stride(0) / bps, w, h, fmt_.bpc, taps_, rf, df, rows, s);
    ctx.read_back(host, rows, std::size_t(h) * 8, "float_ansnr");
    float sig = 0, noise = 0;  // as fansnr::compute: the rows in order, in float
    for (int y = 0; y < h; ++y) {
      sig += host[2 * y];
      noise += host[2 * y + 1];
    }
    const vmafx::fansnr::Scores sc = vmafx::fansnr::from_sums(sig, noise, w, h, pk_.peak, pk_.psnr_max);
    out.put_plain("float_ansnr", index, sc.ansnr);
    out.put_plain("float_anpsnr", index, sc.anpsnr);
  }

 private:
  CudaBackend& b_;
  PictureFormat fmt_;
  vmafx::fpsnr::Peak pk_;
  fansnr::Taps taps_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_ansnr_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kFloatAnsnrExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<FloatAnsnrTwin>(b, f);
}

}  // namespace vmafx::cuda
