// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of float_motion: the CPU extractor (fmotion::Motion: the frame
// order, motion2 / motion3, the fps weight, blend and cap) with its score
// between two references on the device: luma (and chroma with motion_add_uv)
// to float, the blur, and each row's float sum of |a - b| (float_motion.cu);
// the rows added here in row order and divided as the reference does. With
// motion_add_scale1 the blurred planes come back and the reference's own
// fmotion::sad (half-size bilinear frames included) scores them.
#include <vector>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/float_motion_cuda.hpp"
#include "feature/cuda/float_vif_cuda.hpp"
#include "feature/float_motion.hpp"

namespace vmafx::cuda {
namespace {

class FloatMotionTwin final : public vmafx::fmotion::Motion {
 public:
  FloatMotionTwin(CudaBackend& b, const vmafx::fmotion::Config& c) : Motion(c), b_(b) {}

 protected:
  double score_between(const Picture& earlier, const Picture& later, unsigned index) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    auto* taps = static_cast<float*>(ctx.device(this, 0, 8 * sizeof(float)));
    check(cudaMemcpyAsync(taps, c_.filt, std::size_t(c_.taps) * sizeof(float), cudaMemcpyHostToDevice, s),
          "float_motion: upload");
    const int bps = c_.bpc > 8 ? 2 : 1;
    double total = 0;
    for (int p = 0; p < c_.planes; ++p) {
      const int w = c_.dims[p][0], h = c_.dims[p][1];
      const std::size_t n = std::size_t(w) * h;
      auto* img = static_cast<float*>(ctx.device(this, 1, 2 * n * sizeof(float)));
      auto* tmp = static_cast<float*>(ctx.device(this, 2, n * sizeof(float)));
      auto* blurred = static_cast<float*>(ctx.device(this, 3, 2 * n * sizeof(float)));
      const Picture* pics[2] = {&earlier, &later};
      for (int k = 0; k < 2; ++k) {
        // the earlier frame's published luma stays with that frame's worker
        const void* plane = k == 0 ? ctx.plane(earlier, index - 1, p, false) : ctx.plane(later, index, p);
        fvif::to_float(plane, pics[k]->stride(p) / bps, w, h, c_.bpc, img + k * n, s);
        fmotion::blur(taps, c_.taps, img + k * n, w, h, tmp, blurred + k * n, s);
      }
      double v;
      if (!c_.add_scale1) {
        auto* rows = static_cast<float*>(ctx.device(this, 4, std::size_t(h) * sizeof(float)));
        auto* host = static_cast<float*>(ctx.pinned(this, 0, std::size_t(h) * sizeof(float)));
        fmotion::abs_diff_rows(blurred, blurred + n, w, h, rows, s);
        ctx.read_back(host, rows, std::size_t(h) * sizeof(float), "float_motion");
        float acc = 0.0f;
        for (int i = 0; i < h; ++i) acc += host[i];
        v = acc / static_cast<float>(w * h);
      } else {
        auto* host = static_cast<float*>(ctx.pinned(this, 1, 2 * n * sizeof(float)));
        ctx.read_back(host, blurred, 2 * n * sizeof(float), "float_motion");
        v = vmafx::fmotion::sad(host, host + n, w, h, true, c_.dims[0][0]);
      }
      total = p == 0 ? v : total + v;
    }
    return total;
  }

 private:
  CudaBackend& b_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_motion_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kFloatMotionExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<FloatMotionTwin>(b, vmafx::fmotion::config(o, f));
}

}  // namespace vmafx::cuda
