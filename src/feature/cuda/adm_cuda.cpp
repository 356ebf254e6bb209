// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of the integer ADM extractor. The device returns, per scale, the
// integer sums of the denominator, numerator and AIM stages (after the CPU's
// per-row rounding); the float/double steps that turn them into the scale's
// num and den, and the scores, run here on the host with the CPU reference's
// operations in its order (same compiler flags, same libm).

#include <utility>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/adm.hpp"
#include "feature/cuda/adm_cuda.hpp"

namespace vmafx::cuda {
namespace {

using adm::Region;

Region region(const vmafx::adm::Region& g) { return {g.top, g.bottom, g.left, g.right}; }

// Integer constants of one scale's stages: the CPU's (adm::scale_consts).
adm::StageParams stage_params(int scale, int w, int h, int stride, const vmafx::adm::Params& prm,
                              const vmafx::adm::Factors& fac) {
  const vmafx::adm::ScaleConsts c = vmafx::adm::scale_consts(scale, w, h);
  adm::StageParams p{};
  p.w = w;
  p.h = h;
  p.stride = stride;
  p.filter = region(vmafx::adm::filter_region(w, h));
  p.score = region(c.score);
  p.egl = prm.enhn_gain_limit;
  p.cos1_sq = vmafx::adm::kCos1DegSq;
  p.aim = !prm.skip_aim;
  for (int t = 0; t < 3; ++t) {
    p.rf[t] = scale == 0 ? fac.s0_rfactor[t] : fac.s123_rfactor[scale - 1][t];
    p.cm_add[t] = c.cm_add[t];
    p.cm_shift[t] = static_cast<int>(c.cm_shift[t]);
  }
  p.den_add = c.den_add;
  p.den_shift = c.den_shift;
  p.den_sq_shift = c.den_sq_shift;
  p.den_cub_add = static_cast<long long>(c.den_cub_add);
  p.den_cub_shift = c.den_cub_shift;
  p.row_add = c.row_add;
  p.row_shift = static_cast<int>(c.row_shift);
  return p;
}

class AdmTwin final : public Extractor {
 public:
  AdmTwin(CudaBackend& b, const vmafx::adm::Params& p, bool debug, const PictureFormat& f)
      : b_(b), p_(p), f_(vmafx::adm::csf_factors(p)), debug_(debug), w_(f.width), h_(f.height), bpc_(f.bpc) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    const void* r = ctx.plane(ref, index, 0);
    const void* d = ctx.plane(dis, index, 0);
    const int w0 = (w_ + 1) / 2, h0 = (h_ + 1) / 2;
    const int w1 = (w0 + 1) / 2, h1 = (h0 + 1) / 2;
    const std::size_t p0 = std::size_t(w0) * h0, p1 = std::size_t(w1) * h1;
    auto* b16 = static_cast<std::int16_t*>(ctx.device(this, 0, 20 * p0 * sizeof(std::int16_t)));
    auto* b32 = static_cast<std::int32_t*>(ctx.device(this, 1, 26 * p1 * sizeof(std::int32_t)));
    auto* acc = static_cast<long long*>(ctx.device(this, 2, 36 * sizeof(long long)));
    auto* host = static_cast<long long*>(ctx.pinned(this, 0, 36 * sizeof(long long)));
    check(cudaMemsetAsync(acc, 0, 36 * sizeof(long long), s), "adm: memset");

    adm::Bands<std::int16_t> ref16{{b16, b16 + p0, b16 + 2 * p0, b16 + 3 * p0}};
    adm::Bands<std::int16_t> dis16{{b16 + 4 * p0, b16 + 5 * p0, b16 + 6 * p0, b16 + 7 * p0}};
    std::int16_t* work16 = b16 + 8 * p0;
    // Scales 1..3: ref and dis bands, approximation bands alternating between
    // two pairs (the input of the next scale), work planes.
    std::int32_t* q = b32;
    adm::Bands<std::int32_t> ref32{{q, q + p1, q + 2 * p1, q + 3 * p1}};
    adm::Bands<std::int32_t> dis32{{q + 4 * p1, q + 5 * p1, q + 6 * p1, q + 7 * p1}};
    std::int32_t* ref_a_alt = q + 8 * p1;
    std::int32_t* dis_a_alt = q + 9 * p1;
    std::int32_t* work32 = q + 10 * p1;  // 12 planes, up to 22 * p1

    const int bps = bpc_ > 8 ? 2 : 1;
    adm::StageParams sp[4];
    int w = w_, h = h_;
    for (int scale = 0; scale < 4; ++scale) {
      if (scale == 0) {
        adm::dwt0(r, ref.stride(0) / bps, w, h, bpc_, p_.skip_scale0, ref16, w0, s);
        adm::dwt0(d, dis.stride(0) / bps, w, h, bpc_, p_.skip_scale0, dis16, w0, s);
        w = (w + 1) / 2;
        h = (h + 1) / 2;
        sp[0] = stage_params(0, w, h, w0, p_, f_);
        if (!p_.skip_scale0) adm::stage0(ref16, dis16, work16, sp[0], acc, s);
      } else {
        adm::Bands<std::int32_t> ro = ref32, dout = dis32;
        if (scale >= 2) {
          ro.b[0] = ref_a_alt;
          dout.b[0] = dis_a_alt;
        }
        if (scale == 1) {
          adm::dwt123(ref16.b[0], w0, w, h, scale, ro, w1, s);
          adm::dwt123(dis16.b[0], w0, w, h, scale, dout, w1, s);
        } else {
          adm::dwt123(ref32.b[0], w1, w, h, scale, ro, w1, s);
          adm::dwt123(dis32.b[0], w1, w, h, scale, dout, w1, s);
          std::swap(ref_a_alt, ref32.b[0]);
          std::swap(dis_a_alt, dis32.b[0]);
        }
        w = (w + 1) / 2;
        h = (h + 1) / 2;
        sp[scale] = stage_params(scale, w, h, w1, p_, f_);
        adm::stage123(ref32, dis32, work32, sp[scale], acc + 9 * scale, s);
      }
    }
    ctx.read_back(host, acc, 36 * sizeof(long long), "adm");

    static_assert(sizeof(long long) == sizeof(std::int64_t));
    const vmafx::adm::Scores o =
        vmafx::adm::scores_from_totals(p_, f_, w_, h_, reinterpret_cast<const std::int64_t*>(host));
    vmafx::adm::write_scores(o, debug_, index, out);
  }

 private:
  CudaBackend& b_;
  vmafx::adm::Params p_;
  vmafx::adm::Factors f_;
  bool debug_;
  int w_, h_, bpc_;
};

}  // namespace

std::unique_ptr<Extractor> make_adm_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kAdmExtractor.create(o, f);  // the CPU's format and option checks and errors
  return std::make_unique<AdmTwin>(b, vmafx::adm::params(o), o.get_bool("debug"), f);
}

}  // namespace vmafx::cuda
