// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of the integer ADM extractor. The device returns, per scale, the
// integer sums of the denominator, numerator and AIM stages (after the CPU's
// per-row rounding); the float/double steps that turn them into the scale's
// num and den, and the scores, run here on the host with the CPU reference's
// operations in its order (same compiler flags, same libm).
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/adm.hpp"
#include "exact/adm_tables.h"
#include "feature/cuda/adm_cuda.hpp"

namespace vmafx::cuda {
namespace {

using adm::Region;

// The CPU reference's helpers (feature/adm.cpp).
using vmafx::adm::ceil_log2;
using vmafx::adm::kCos1DegSq;
using vmafx::adm::to_u32;
Region score_region(int w, int h) {
  const vmafx::adm::Region g = vmafx::adm::score_region(w, h);
  return {g.top, g.bottom, g.left, g.right};
}
Region filter_region(int w, int h) {
  const vmafx::adm::Region g = vmafx::adm::filter_region(w, h);
  return {g.top, g.bottom, g.left, g.right};
}

// Integer constants of one scale's stages, as the CPU's den/cm functions form them.
adm::StageParams stage_params(int scale, int w, int h, int stride, const vmafx::adm::Params& prm,
                              const vmafx::adm::Factors& fac) {
  adm::StageParams p{};
  p.w = w;
  p.h = h;
  p.stride = stride;
  p.filter = filter_region(w, h);
  p.score = score_region(w, h);
  p.egl = prm.enhn_gain_limit;
  p.cos1_sq = kCos1DegSq;
  p.aim = !prm.skip_aim;
  const Region& g = p.score;
  if (scale == 0) {
    for (int t = 0; t < 3; ++t) p.rf[t] = fac.s0_rfactor[t];
    std::int32_t shift_accum =
        ceil_log2(static_cast<std::int64_t>(g.bottom - g.top) * (g.right - g.left)) - VMAFX_ADM_S0_DEN_AREA_BIAS;
    shift_accum = shift_accum > 0 ? shift_accum : 0;
    p.den_shift = shift_accum;
    p.den_add = shift_accum > 0 ? (std::uint64_t{1} << (shift_accum - 1)) : 0;
    for (int t = 0; t < 3; ++t) {
      const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(w) - vmafx_adm_s0_cub_bias[t]);
      p.cm_shift[t] = static_cast<int>(shift_cub);
      p.cm_add[t] = to_u32(std::pow(2.0, static_cast<double>(shift_cub - 1u)));
    }
  } else {
    for (int t = 0; t < 3; ++t) p.rf[t] = fac.s123_rfactor[scale - 1][t];
    const std::uint32_t sq_shift = static_cast<std::uint32_t>(vmafx_adm_s123_den_sq_shift[scale - 1]);
    p.den_sq_shift = static_cast<int>(sq_shift);
    const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(g.right - g.left));
    p.den_cub_shift = static_cast<int>(shift_cub);
    p.den_cub_add = static_cast<long long>(std::uint64_t{to_u32(std::pow(2.0, static_cast<double>(shift_cub - 1u)))});
    const std::uint32_t shift_accum = static_cast<std::uint32_t>(ceil_log2(g.bottom - g.top));
    p.den_shift = static_cast<int>(shift_accum);
    p.den_add = to_u32(std::pow(2.0, static_cast<double>(shift_accum - 1u)));
    const std::uint32_t cm_cub = static_cast<std::uint32_t>(ceil_log2(w));
    for (int t = 0; t < 3; ++t) {
      p.cm_shift[t] = static_cast<int>(cm_cub);
      p.cm_add[t] = to_u32(std::pow(2.0, static_cast<double>(cm_cub - 1u)));
    }
  }
  const std::uint32_t shift_rows = static_cast<std::uint32_t>(ceil_log2(h));
  p.row_shift = static_cast<int>(shift_rows);
  p.row_add = to_u32(std::pow(2.0, static_cast<double>(shift_rows - 1u)));
  return p;
}

// The float tails of den_s0 / den_s123 / cm_s0 / cm_s123 (feature/adm.cpp).
float den_float(int scale, const adm::StageParams& p, const unsigned long long acc[3], const float rf[3],
                double noise_weight) {
  const Region& g = p.score;
  double shift_csf;
  if (scale == 0) {
    shift_csf = std::pow(2.0, static_cast<double>(VMAFX_ADM_S0_DEN_EXP - p.den_shift));
  } else {
    const std::uint32_t e = static_cast<std::uint32_t>(vmafx_adm_s123_den_exp[scale - 1]) -
                            static_cast<std::uint32_t>(p.den_shift) - static_cast<std::uint32_t>(p.den_cub_shift);
    shift_csf = std::pow(2.0, static_cast<double>(e));
  }
  const std::uint64_t sums[3] = {acc[0], acc[1], acc[2]};
  return vmafx::adm::den_from_sums(sums, shift_csf, rf, (g.bottom - g.top) * (g.right - g.left), noise_weight);
}

float cm_float(int scale, const adm::StageParams& p, const long long acc[3], double noise_weight) {
  const Region& g = p.score;
  const std::int64_t sums[3] = {acc[0], acc[1], acc[2]};
  const int area = (g.bottom - g.top) * (g.right - g.left);
  const std::uint32_t shift_rows = static_cast<std::uint32_t>(p.row_shift);
  if (scale == 0) {
    const std::uint32_t shift_cub[3] = {static_cast<std::uint32_t>(p.cm_shift[0]),
                                        static_cast<std::uint32_t>(p.cm_shift[1]),
                                        static_cast<std::uint32_t>(p.cm_shift[2])};
    return vmafx::adm::cm_from_sums_s0(sums, shift_cub, shift_rows, area, noise_weight);
  }
  const std::uint32_t shift_cub = static_cast<std::uint32_t>(p.cm_shift[0]);
  const float final_shift = static_cast<float>(std::pow(
      2.0,
      static_cast<double>(static_cast<std::uint32_t>(vmafx_adm_s123_num_exp[scale - 1]) - shift_cub - shift_rows)));
  return vmafx::adm::cm_from_sums_s123(sums, final_shift, area, noise_weight);
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

    // As compute_impl's per-scale loop and tail.
    vmafx::adm::Scores o;
    double num = 0, den = 0, aim_num = 0;
    for (int scale = 0; scale < 4; ++scale) {
      float num_scale = 0.0f, den_scale = 0.0f, aim_scale = 0.0f;
      const long long* a = host + 9 * scale;
      if (scale == 0 && p_.skip_scale0) {
        den_scale = 1e-10f;
      } else {
        unsigned long long dacc[3];
        for (int t = 0; t < 3; ++t) dacc[t] = static_cast<unsigned long long>(a[t]);
        den_scale = den_float(scale, sp[scale], dacc, f_.rfactor[scale], p_.noise_weight);
        num_scale = cm_float(scale, sp[scale], a + 3, p_.noise_weight);
        if (!p_.skip_aim) aim_scale = cm_float(scale, sp[scale], a + 6, 0.0);
      }
      num += num_scale;
      den += den_scale;
      aim_num += aim_scale;
      o.num_scale[scale] = num_scale;
      o.den_scale[scale] = den_scale;
    }
    vmafx::adm::finish(o, num, den, aim_num, w_, h_, p_);
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
