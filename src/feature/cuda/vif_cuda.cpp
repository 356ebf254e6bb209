// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of the integer VIF extractor: the device computes each scale's
// four int64 accumulators; vif::finish (the CPU's) turns them into num/den and
// the outputs are written exactly as VifExtractor writes them.
#include <array>
#include <cstdlib>
#include <string>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/vif_cuda.hpp"
#include "feature/vif.hpp"
#include "exact/vif_tables.h"

namespace vmafx::cuda {
namespace {

class VifTwin final : public Extractor {
 public:
  VifTwin(CudaBackend& b, double gain_limit, bool debug, bool skip_scale0, const PictureFormat& f)
      : b_(b),
        gain_limit_(gain_limit),
        debug_(debug),
        skip_scale0_(skip_scale0),
        w_(f.width),
        h_(f.height),
        bpc_(f.bpc),
        int_gain_(b.exact_int()) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    const void* r = ctx.plane(ref, index, 0);
    const void* d = ctx.plane(dis, index, 0);
    const std::size_t n1 = std::size_t(w_ / 2) * std::size_t(h_ / 2);
    auto* levels = static_cast<std::uint16_t*>(ctx.device(this, 0, 4 * n1 * sizeof(std::uint16_t)));
    auto* acc = static_cast<long long*>(ctx.device(this, 1, 16 * sizeof(long long)));
    auto* host = static_cast<long long*>(ctx.pinned(this, 0, 16 * sizeof(long long)));
    check(cudaMemsetAsync(acc, 0, 16 * sizeof(long long), ctx.stream()), "vif: memset");
    const int bps = bpc_ > 8 ? 2 : 1;
    cuda::vif::launch(r, d, ref.stride(0) / bps, w_, h_, bpc_, gain_limit_, skip_scale0_, vmafx_vif_filter, levels, acc,
                      int_gain_, ctx.stream());
    ctx.read_back(host, acc, 16 * sizeof(long long), "vif");

    std::array<vmafx::vif::ScaleResult, 4> s{};
    for (int k = 0; k < 4; ++k) {
      if (k == 0 && skip_scale0_) continue;
      vmafx::vif::Accum a;
      a.num_log = host[4 * k + 0];
      a.den_log = host[4 * k + 1];
      a.num_non_log = host[4 * k + 2];
      a.den_non_log = host[4 * k + 3];
      s[k] = vmafx::vif::finish(a);
    }
    vmafx::vif::write_scores(s, debug_, skip_scale0_, index, out);
  }

 private:
  CudaBackend& b_;
  double gain_limit_;
  bool debug_, skip_scale0_;
  int w_, h_, bpc_;
  bool int_gain_;
};

}  // namespace

std::unique_ptr<Extractor> make_vif_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kVifExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<VifTwin>(b, o.get_double("vif_enhn_gain_limit"), o.get_bool("debug"),
                                   o.get_bool("vif_skip_scale0"), f);
}

}  // namespace vmafx::cuda
