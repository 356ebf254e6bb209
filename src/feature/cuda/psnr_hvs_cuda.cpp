// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of "psnr_hvs" (feature/psnr_hvs.cpp): every block's 64 terms on
// the device (psnr_hvs.cu), their float sum in the reference's order, the
// plane errors and the dB values on the host with the reference's functions.
#include "feature/cuda/psnr_hvs_cuda.hpp"
#include "backend/cuda/cuda_runtime.hpp"
#include "feature/psnr_hvs.hpp"

namespace vmafx::cuda {
namespace {

constexpr std::string_view kNames[4] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

class PsnrHvsTwin final : public Extractor {
 public:
  PsnrHvsTwin(CudaBackend& b, const PictureFormat& f) : b_(b), fmt_(f) {
    for (int p = 0; p < 3; ++p) {
      nbx_[p] = vmafx::psnr_hvs::blocks_along(f.plane_width(p));
      nby_[p] = vmafx::psnr_hvs::blocks_along(f.plane_height(p));
      offset_[p + 1] = offset_[p] + std::size_t(nbx_[p]) * std::size_t(nby_[p]) * 64;
      vmafx::psnr_hvs::plane_tables(p, tables_[p].mask, tables_[p].csf);
    }
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    const std::size_t n = offset_[3];
    auto* host = static_cast<float*>(ctx.pinned(this, 0, (n ? n : 1) * 4));
    if (n) {
      auto* dev = static_cast<float*>(ctx.device(this, 0, n * 4));
      const int bps = fmt_.bpc > 8 ? 2 : 1;
      for (int p = 0; p < 3; ++p) {
        if (offset_[p + 1] == offset_[p]) continue;
        const void* r = ctx.plane(ref, index, p);
        const void* d = ctx.plane(dis, index, p);
        if (ref.stride(p) != dis.stride(p))
          fail(cudaErrorInvalidValue, "psnr_hvs: reference and distorted strides differ");
        hvs::launch_blocks(r, d, ref.stride(p) / bps, nbx_[p], nby_[p], fmt_.bpc, tables_[p], vmafx::psnr_hvs::kVar63,
                           vmafx::psnr_hvs::kVar15, dev + offset_[p], s);
      }
      ctx.read_back(host, dev, n * 4, "psnr_hvs");
    }
    double e[3];
    for (int p = 0; p < 3; ++p) {
      e[p] = vmafx::psnr_hvs::error_from_terms(host + offset_[p], std::size_t(nbx_[p]) * nby_[p], fmt_.bpc);
      out.put_plain(kNames[p], index, vmafx::psnr_hvs::to_db(e[p]));
    }
    const double combined = e[0] * .8 + .1 * (e[1] + e[2]);  // as PsnrHvsExtractor::extract
    out.put_plain(kNames[3], index, vmafx::psnr_hvs::to_db(combined));
  }

 private:
  CudaBackend& b_;
  PictureFormat fmt_;
  int nbx_[3] = {}, nby_[3] = {};
  std::size_t offset_[4] = {0, 0, 0, 0};
  hvs::Tables tables_[3];
};

}  // namespace

std::unique_ptr<Extractor> make_psnr_hvs_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kPsnrHvsExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<PsnrHvsTwin>(b, f);
}

}  // namespace vmafx::cuda
