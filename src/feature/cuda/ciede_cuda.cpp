// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of "ciede" (feature/ciede.cpp): every pixel's dE00 on the device
// (ciede.cu, exact/ciede.h), certified or marked for replay; the host
// recomputes the marked pixels with the reference's own functions and adds
// all pixels' floats in double in the reference's (row-major) order.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "backend/cuda/cuda_runtime.hpp"
#include "core/env.hpp"
#include "feature/ciede.hpp"
#include "feature/cuda/ciede_cuda.hpp"

namespace vmafx::cuda {
namespace {

class CiedeTwin final : public Extractor {
 public:
  CiedeTwin(CudaBackend& b, const PictureFormat& f) : b_(b), fmt_(f) {}
  ~CiedeTwin() override {
    if (env::stats() && pixels_ > 0)
      std::fprintf(stderr, "ciede (cuda): %lld of %lld pixels replayed on the host\n", replayed_.load(),
                   pixels_.load());
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    const int w = fmt_.width, h = fmt_.height;
    const std::size_t n = std::size_t(w) * h;
    auto* host = static_cast<std::uint32_t*>(ctx.pinned(this, 0, 2 * n * 4));
    auto* dev = static_cast<std::uint32_t*>(ctx.device(this, 0, 2 * n * 4));
    const int bps = fmt_.bpc > 8 ? 2 : 1;
    if (ref.stride(1) != ref.stride(2) || dis.stride(1) != dis.stride(2))
      fail(cudaErrorInvalidValue, "ciede: the chroma planes' strides differ");
    const ciede::Planes r{ctx.plane(ref, index, 0), ctx.plane(ref, index, 1), ctx.plane(ref, index, 2),
                          ref.stride(0) / bps, ref.stride(1) / bps};
    const ciede::Planes d{ctx.plane(dis, index, 0), ctx.plane(dis, index, 1), ctx.plane(dis, index, 2),
                          dis.stride(0) / bps, dis.stride(1) / bps};
    const int fmt = fmt_.chroma == ChromaFormat::k420 ? 0 : fmt_.chroma == ChromaFormat::k422 ? 1 : 2;
    ciede::launch_pixels(r, d, w, h, fmt_.plane_width(1), fmt_.plane_height(1), fmt, fmt_.bpc, dev, s);
    ctx.read_back(host, dev, 2 * n * 4, "ciede");
    const std::uint32_t* ok = host + n;
    long long replayed = 0;
    // A frame only in device memory (NVDEC) is read back for the replay, once,
    // at its first uncertified pixel (a few pixels per frame).
    const Picture* rv = nullptr;
    const Picture* dv = nullptr;
    const double total = vmafx::ciede::ordered_sum(
        host, ok, w, h,
        [&](int i, int j) {
          if (!rv) {
            rv = &ctx.host_view(ref, 0);
            dv = &ctx.host_view(dis, 1);
          }
          return vmafx::ciede::pixel_difference(*rv, *dv, i, j);
        },
        replayed);
    replayed_ += replayed;
    pixels_ += (long long)(w)*h;
    out.put_plain("ciede2000", index, vmafx::ciede::frame_score(total, unsigned(w), unsigned(h)));
  }

 private:
  CudaBackend& b_;
  PictureFormat fmt_;
  std::atomic<long long> replayed_{0}, pixels_{0};
};

}  // namespace

std::unique_ptr<Extractor> make_ciede_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kCiedeExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<CiedeTwin>(b, f);
}

}  // namespace vmafx::cuda
