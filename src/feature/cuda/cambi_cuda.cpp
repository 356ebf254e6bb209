// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of "cambi" (feature/cambi.cpp), the same split as the OpenCL
// twin (feature/opencl/cambi_opencl.cpp): every per-pixel stage on the device
// (cambi.cu), the c-values of all scales (and of the reference's with
// full_ref) read back once per frame, and the CPU extractor's host end (top-k
// means in the reference's order, weighting, clipping, heat maps) on them.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "backend/cuda/cuda_runtime.hpp"
#include "core/error.hpp"
#include "feature/cambi.hpp"
#include "feature/cuda/cambi_cuda.hpp"

namespace vmafx::cuda {
namespace {

using Side = vmafx::cambi::TwinSide;

class CambiTwin final : public Extractor {
 public:
  CambiTwin(CudaBackend& b, const OptionSet& o, const PictureFormat& f)
      : b_(b), fmt_(f), st_(vmafx::cambi::resolve(o, f)), sides_(vmafx::cambi::twin_sides(st_, f)) {
    for (int d = 0; d < 32; ++d) {
      params_.tvi[d] = st_.tvi[d];
      params_.weight[d] = st_.diff_weights[d];
    }
    params_.nd = st_.num_diffs;
    params_.base = st_.band_base;
    params_.band = st_.band_size;
    params_.vlt = st_.vlt_luma;
    for (const Side& s : sides_) all_ += s.total;
    if (!st_.heatmaps_path.empty())
      heatmaps_ = std::make_unique<vmafx::cambi::Heatmaps>(st_.heatmaps_path, st_.enc_width, st_.enc_height);
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t q = ctx.stream();
    auto* cvals = static_cast<float*>(ctx.device(this, 100, all_ * sizeof(float)));
    auto* host = static_cast<float*>(ctx.pinned(this, 0, all_ * sizeof(float)));
    const int bps = fmt_.bpc > 8 ? 2 : 1;
    std::size_t base = 0;
    for (std::size_t k = 0; k < sides_.size(); ++k) {
      const Side& side = sides_[k];
      const Picture& pic = side.is_src ? ref : dis;
      const int w = side.w, h = side.h;
      const std::size_t n = std::size_t(w) * std::size_t(h);
      const int slot = int(k) * 10;
      // Per thread: the maps once (their content never changes).
      auto* xmap = static_cast<int*>(ctx.device(this, slot + 1, side.xmap.size() * sizeof(int)));
      auto* ymap = static_cast<int*>(ctx.device(this, slot + 2, side.ymap.size() * sizeof(int)));
      Thread& t = thread_state(ctx);
      if (!t.maps[k]) {
        check(cudaMemcpyAsync(xmap, side.xmap.data(), side.xmap.size() * sizeof(int), cudaMemcpyHostToDevice, q),
              "cambi: maps");
        check(cudaMemcpyAsync(ymap, side.ymap.data(), side.ymap.size() * sizeof(int), cudaMemcpyHostToDevice, q),
              "cambi: maps");
        ctx.sync("cambi: maps");
        t.maps[k] = true;
      }
      // Samples where libvmaf's resize steps outside the picture: from the host.
      const std::size_t patched = side.patch_size();
      auto* patch = static_cast<std::uint16_t*>(ctx.device(this, slot + 3, (patched ? patched : 1) * 2));
      if (patched) {
        auto* hp = static_cast<std::uint16_t*>(ctx.pinned(this, 1 + int(k), patched * 2));
        side.fill_patch(ctx.host_view(pic, 0), hp);
        check(cudaMemcpyAsync(patch, hp, patched * 2, cudaMemcpyHostToDevice, q), "cambi: patch");
      }
      const void* in = ctx.plane(pic, index, 0);
      auto* img = static_cast<std::uint16_t*>(ctx.device(this, slot + 4, n * 2));
      cambi::launch_to10(in, fmt_.bpc, pic.stride(0) / bps, xmap, ymap, patch, w, h, int(side.bad_y.size()),
                         st_.enc_bitdepth < 10, img, q);
      const int step = st_.speedup ? 2 : 1;
      auto* rows = static_cast<std::uint8_t*>(ctx.device(this, slot + 5, n));
      auto* mask =
          static_cast<std::uint8_t*>(ctx.device(this, slot + 6, std::size_t(side.d.w[0]) * std::size_t(side.d.h[0])));
      cambi::launch_mask(img, w, h, vmafx::cambi::mask_threshold(unsigned(w), unsigned(h)), step, rows, mask, q);
      auto* mode = static_cast<std::uint16_t*>(ctx.device(this, slot + 7, side.total * 2));
      for (int sc = 0; sc < vmafx::cambi::kScales; ++sc) {
        const int sw = side.d.w[sc], sh = side.d.h[sc];
        // Scale 0 reads the 10-bit picture (every other sample with the
        // speed-up), each later scale every other sample of the one before.
        const std::uint16_t* src = sc == 0 ? img : mode + side.off[sc - 1];
        const int sstride = sc == 0 ? w : side.d.w[sc - 1];
        cambi::launch_mode(src, sstride, sc == 0 ? step : 2, sw, sh, mode + side.off[sc], q);
        cambi::launch_cvalues(mode + side.off[sc], sw, sh, mask, side.d.w[0], 1 << sc, side.window >> 1, params_,
                              cvals + base + side.off[sc], q);
      }
      base += side.total;
    }
    ctx.read_back(host, cvals, all_ * sizeof(float), "cambi");
    // The range check reads the luma: of a device-resident frame, read back
    // (only 9- to 15-bit input is checked).
    auto check_luma = [&](const Side& side) {
      const Picture& pic = side.is_src ? ref : dis;
      vmafx::cambi::check_luma(pic.bpc() == 8 || pic.bpc() == 16 ? pic : ctx.host_view(pic, 0, 1), side.is_src, index);
    };
    vmafx::cambi::finish_twin(st_, sides_, host, heatmaps_.get(), thread_state(ctx).row, check_luma, index, out);
  }

 private:
  // What one engine thread keeps between frames.
  struct Thread {
    bool maps[2] = {false, false};
    std::vector<std::uint16_t> row;
  };
  Thread& thread_state(ThreadContext& ctx) {
    std::lock_guard<std::mutex> lock(mu_);
    return threads_[&ctx];
  }

  CudaBackend& b_;
  PictureFormat fmt_;
  vmafx::cambi::Settings st_;
  std::vector<Side> sides_;
  std::size_t all_ = 0;
  cambi::CvalueParams params_{};
  std::unique_ptr<vmafx::cambi::Heatmaps> heatmaps_;
  std::mutex mu_;
  std::map<const ThreadContext*, Thread> threads_;
};

}  // namespace

std::unique_ptr<Extractor> make_cambi_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  if (f.bpc < 8 || f.bpc > 16)  // the CPU's create() refusal
    throw unsupported_error("cambi: unsupported bit depth " + std::to_string(f.bpc) + " (8 to 16)");
  return std::make_unique<CambiTwin>(b, o, f);
}

}  // namespace vmafx::cuda
