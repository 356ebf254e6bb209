// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of float_vif: luma to float (or the host's prescaled image), the
// decimations, moments and per-position statistic on the device
// (float_vif.cu); each scale's per-row totals come back and are added here
// in row order, in float, as the reference adds them; then the CPU
// extractor's own output function.
#include <cstring>
#include <vector>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/float_vif_cuda.hpp"
#include "feature/float_vif.hpp"

namespace vmafx::cuda {
namespace {

class FloatVifTwin final : public Extractor {
 public:
  FloatVifTwin(CudaBackend& b, const vmafx::fvif::Config& c) : b_(b), c_(c) {
    k_ = vmafx::fvif::stat_consts(c.p);
    for (int s = 0; s < 4; ++s) {
      const std::vector<float> f = vmafx::fvif::gaussian_kernel(s, c.p.kernelscale);
      offset_[s] = int(taps_.size());
      width_[s] = int(f.size());
      taps_.insert(taps_.end(), f.begin(), f.end());
    }
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    const int W = c_.sw, H = c_.sh;
    const std::size_t n = std::size_t(W) * std::size_t(H);
    auto* taps = static_cast<float*>(ctx.device(this, 0, taps_.size() * sizeof(float)));
    check(cudaMemcpyAsync(taps, taps_.data(), taps_.size() * sizeof(float), cudaMemcpyHostToDevice, s),
          "float_vif: upload");
    auto* fr = static_cast<float*>(ctx.device(this, 1, n * sizeof(float)));
    auto* fd = static_cast<float*>(ctx.device(this, 2, n * sizeof(float)));
    if (c_.rescale()) {
      // the interpolators run on the host (the reference's own functions)
      const std::size_t m = std::size_t(c_.w) * c_.h + n;
      auto* host = static_cast<float*>(ctx.pinned(this, 1, 2 * m * sizeof(float)));
      const float* r = vmafx::fvif::input(c_, ref, host);
      const float* d = vmafx::fvif::input(c_, dis, host + m);
      check(cudaMemcpyAsync(fr, r, n * sizeof(float), cudaMemcpyHostToDevice, s), "float_vif: upload");
      check(cudaMemcpyAsync(fd, d, n * sizeof(float), cudaMemcpyHostToDevice, s), "float_vif: upload");
    } else {
      const int bps = c_.bpc > 8 ? 2 : 1;
      fvif::to_float(ctx.plane(ref, index, 0), ref.stride(0) / bps, W, H, c_.bpc, fr, s);
      fvif::to_float(ctx.plane(dis, index, 0), dis.stride(0) / bps, W, H, c_.bpc, fd, s);
    }
    const std::size_t q = std::size_t(W / 2) * std::size_t(H / 2) + 1;
    auto* dec = static_cast<float*>(ctx.device(this, 3, 4 * q * sizeof(float)));
    auto* tmp = static_cast<float*>(ctx.device(this, 4, 2 * std::size_t(W) * std::size_t(H / 2 + 1) * sizeof(float)));
    auto* mom = static_cast<float*>(ctx.device(this, 5, 5 * n * sizeof(float)));
    auto* terms = static_cast<float*>(ctx.device(this, 6, 2 * n * sizeof(float)));
    const std::size_t nrows = 2 * std::size_t(H) * 4;
    auto* rows = static_cast<float*>(ctx.device(this, 7, nrows * sizeof(float)));
    auto* host_rows = static_cast<float*>(ctx.pinned(this, 0, nrows * sizeof(float)));
    const float* cur_r = fr;
    const float* cur_d = fd;
    int w = W, h = H, flip = 0;
    int row_off[4] = {0, 0, 0, 0}, heights[4] = {0, 0, 0, 0};
    std::size_t off = 0;
    for (int scale = c_.p.skip_scale0 ? 1 : 0; scale < 4; ++scale) {
      const float* f = taps + offset_[scale];
      const int fw = width_[scale];
      if (scale > 0) {
        float* dr = dec + (2 * flip) * q;
        float* dd = dec + (2 * flip + 1) * q;
        const std::size_t tw = std::size_t(w) * std::size_t(h / 2 + 1);
        fvif::filter_dec2(f, fw, cur_r, w, h, tmp, dr, s);
        fvif::filter_dec2(f, fw, cur_d, w, h, tmp + tw, dd, s);
        cur_r = dr;
        cur_d = dd;
        flip ^= 1;
        w /= 2;
        h /= 2;
      }
      row_off[scale] = int(off);
      heights[scale] = h;
      fvif::statistic(f, fw, cur_r, cur_d, w, h, k_, mom, terms, rows + off, s);
      off += 2 * std::size_t(h);
    }
    ctx.read_back(host_rows, rows, off * sizeof(float), "float_vif");
    vmafx::fvif::Scores sc;
    for (int scale = c_.p.skip_scale0 ? 1 : 0; scale < 4; ++scale) {
      const float* rn = host_rows + row_off[scale];
      const float* rd = rn + heights[scale];
      float num = 0.0f, den = 0.0f;
      for (int i = 0; i < heights[scale]; ++i) {
        num += rn[i];
        den += rd[i];
      }
      sc.num[scale] = num;
      sc.den[scale] = den;
    }
    vmafx::fvif::put_scores(c_, sc, index, out);
  }

 private:
  CudaBackend& b_;
  vmafx::fvif::Config c_;
  fvif::StatConsts k_{};
  std::vector<float> taps_;
  int offset_[4] = {0, 0, 0, 0}, width_[4] = {0, 0, 0, 0};
};

}  // namespace

std::unique_ptr<Extractor> make_float_vif_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kFloatVifExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<FloatVifTwin>(b, vmafx::fvif::config(o, f));
}

}  // namespace vmafx::cuda
