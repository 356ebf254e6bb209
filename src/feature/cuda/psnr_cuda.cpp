// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of the integer PSNR extractor (temporal: every frame, in order,
// on the sequencing thread). The device returns each plane's SSE; the MSE, the
// PSNR, its clip and the whole-clip apsnr come from the CPU reference's own
// functions (psnr::mse, psnr::frame_psnr, psnr::aggregate_psnr). As with
// motion, frame i's SSEs are read back on the next call, so the reading
// thread does not wait for the device; frame 0 is scored at once so that the
// series are created in the CPU extractor's order.
#include <cfloat>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/psnr_cuda.hpp"
#include "feature/cuda/read_back.hpp"
#include "feature/psnr.hpp"

namespace vmafx::cuda {
namespace {

class PsnrTwin final : public Extractor {
 public:
  PsnrTwin(CudaBackend& b, const OptionSet& o, const PictureFormat& f)
      : b_(b), scorer_(o, f), bpc_(f.bpc), fmt_(f), planes_(scorer_.planes()) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context(true);
    rb_.create();
    const int slot = int(index & 1);
    auto* total = static_cast<unsigned long long*>(ctx.device(this, 10 + slot, 3 * sizeof(unsigned long long)));
    auto* host = static_cast<unsigned long long*>(ctx.pinned(this, slot, 3 * sizeof(unsigned long long)));
    const int bps = bpc_ > 8 ? 2 : 1;
    const void* dr[3];
    const void* dd[3];
    for (int p = 0; p < planes_; ++p) {
      dr[p] = ctx.plane(ref, index, p, false);
      dd[p] = ctx.plane(dis, index, p, false);
    }
    // The pictures' host memory may be refilled once this frame is committed,
    // which can be as soon as we return: the uploads must be done by then.
    rb_.record_uploaded(ctx.stream());
    for (int p = 0; p < planes_; ++p) {
      const PlaneView r = ref.plane(p);
      auto* rows = static_cast<std::uint32_t*>(ctx.device(this, p, sizeof(std::uint32_t) * std::size_t(r.height)));
      cuda::psnr::launch_sse(dr[p], dd[p], ref.stride(p) / bps, r.width, r.height, bpc_, rows, total + p, ctx.stream());
    }
    check(cudaGetLastError(), "psnr: kernel launch");
    check(cudaMemcpyAsync(host, total, std::size_t(planes_) * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                          ctx.stream()),
          "psnr: readback");
    rb_.record_done(index, ctx.stream());
    rb_.wait_uploaded("psnr: upload");
    resolve(out);
    rb_.set_pending(index);
    if (index == 0) resolve(out);
  }

  void flush(FeatureSink& out) override {
    resolve(out);
    scorer_.flush(out);
  }

 private:
  void resolve(FeatureSink& out) {
    unsigned index;
    if (!rb_.take(&index, "psnr")) return;
    const auto* host = static_cast<const unsigned long long*>(
        b_.context(true).pinned(this, int(index & 1), 3 * sizeof(unsigned long long)));
    // As PsnrExtractor::extract: the reference's own scorer.
    for (int p = 0; p < planes_; ++p) {
      const std::uint64_t s = host[p];
      const std::uint32_t n = std::uint32_t(fmt_.plane_width(p)) * std::uint32_t(fmt_.plane_height(p));
      scorer_.put_plane(p, s, n, index, out);
    }
  }

  CudaBackend& b_;
  vmafx::psnr::Scorer scorer_;
  int bpc_;
  PictureFormat fmt_;
  int planes_;
  ReadBack rb_;
};

}  // namespace

std::unique_ptr<Extractor> make_psnr_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kPsnrExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<PsnrTwin>(b, o, f);
}

}  // namespace vmafx::cuda
