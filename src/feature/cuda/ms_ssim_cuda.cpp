// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of float_ms_ssim: luma to float, the four 9x9 low-pass halvings
// and the per-pixel luminance / contrast / structure terms of the five scales
// on the device (float_ssim.cu); the means summed here in raster order and
// combined as ssim::ms_ssim_frame does, then the CPU extractor's outputs.
#include <cmath>

#include "backend/cuda/cuda_runtime.hpp"
#include "core/error.hpp"
#include "feature/cuda/float_ssim_cuda.hpp"
#include "feature/ms_ssim.hpp"
#include "exact/ssim_tables.h"

namespace vmafx::cuda {
namespace {

constexpr int kScales = VMAFX_MS_SSIM_SCALES;
constexpr int kGaussPad = VMAFX_SSIM_GAUSS_TAPS - 1;

class MsSsimTwin final : public Extractor {
 public:
  MsSsimTwin(CudaBackend& b, const PictureFormat& f, bool lcs, bool db, double max_db)
      : b_(b), bpc_(f.bpc), lcs_(lcs), db_(db), max_db_(max_db) {
    lw_[0] = f.width;
    lh_[0] = f.height;
    off_[0] = 0;
    toff_[0] = 0;
    for (int i = 0; i < kScales; ++i) {
      off_[i + 1] = off_[i] + std::size_t(lw_[i]) * lh_[i];
      toff_[i + 1] = toff_[i] + std::size_t(lw_[i] - kGaussPad) * std::size_t(lh_[i] - kGaussPad);
      if (i + 1 < kScales) {
        lw_[i + 1] = vmafx::ssim::decimated_size(lw_[i], 2);
        lh_[i + 1] = vmafx::ssim::decimated_size(lh_[i], 2);
      }
    }
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    const void* r = ctx.plane(ref, index, 0);
    const void* d = ctx.plane(dis, index, 0);
    auto* fr = static_cast<float*>(ctx.device(this, 0, off_[kScales] * sizeof(float)));
    auto* fd = static_cast<float*>(ctx.device(this, 1, off_[kScales] * sizeof(float)));
    auto* mom = static_cast<float*>(
        ctx.device(this, 2, 5 * std::size_t(lw_[0] - kGaussPad) * std::size_t(lh_[0]) * sizeof(float)));
    const std::size_t nt = toff_[kScales];
    auto* dev = static_cast<double*>(ctx.device(this, 3, 3 * nt * sizeof(double)));
    auto* host = static_cast<double*>(ctx.pinned(this, 0, 3 * nt * sizeof(double)));
    const int bps = bpc_ > 8 ? 2 : 1;
    fssim::to_float(r, ref.stride(0) / bps, lw_[0], lh_[0], bpc_, fr, s);
    fssim::to_float(d, dis.stride(0) / bps, lw_[0], lh_[0], bpc_, fd, s);
    for (int i = 1; i < kScales; ++i) {
      fssim::decimate_lpf(fr + off_[i - 1], lw_[i - 1], lh_[i - 1], fr + off_[i], s);
      fssim::decimate_lpf(fd + off_[i - 1], lw_[i - 1], lh_[i - 1], fd + off_[i], s);
    }
    // Per scale: l, c, s planes at dev + 3 * toff[i].
    for (int i = 0; i < kScales; ++i) {
      double* base = dev + 3 * toff_[i];
      const std::size_t n = toff_[i + 1] - toff_[i];
      fssim::terms(fr + off_[i], fd + off_[i], lw_[i], lh_[i], mom, nullptr, base, base + n, base + 2 * n, true, s);
    }
    ctx.read_back(host, dev, 3 * nt * sizeof(double), "float_ms_ssim");

    // As ssim::ms_ssim_frame.
    vmafx::ssim::MsSsimScores v;
    double msssim = 1.0;
    for (int i = 0; i < kScales; ++i) {
      const double* base = host + 3 * toff_[i];
      const std::size_t n = toff_[i + 1] - toff_[i];
      const vmafx::ssim::SsimMeans m = fssim::sum_means(nullptr, base, base + n, base + 2 * n, n);
      vmafx::ssim::ms_ssim_add_scale(i, m, msssim, v);
    }
    v.score = msssim;
    vmafx::ssim::write_ms_ssim(v, lcs_, db_, max_db_, index, out);
  }

 private:
  CudaBackend& b_;
  int bpc_;
  bool lcs_, db_;
  double max_db_;
  int lw_[kScales], lh_[kScales];
  std::size_t off_[kScales + 1], toff_[kScales + 1];
};

}  // namespace

std::unique_ptr<Extractor> make_float_ms_ssim_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kFloatMsSsimExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<MsSsimTwin>(b, f, o.get_bool("enable_lcs"), o.get_bool("enable_db"),
                                      vmafx::ssim::max_db(o.get_bool("clip_db"), f.bpc, f.width, f.height));
}

}  // namespace vmafx::cuda
