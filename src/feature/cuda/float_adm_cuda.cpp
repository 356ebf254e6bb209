// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of float_adm: luma to float, the db2 levels, decoupling, CSF and
// masking on the device (float_adm.cu); each scale's per-row float sums (or,
// for p != 3, the p-norm bases, raised here with the reference's powf) come
// back and are added here in row order; then the reference's own pooling,
// scores and outputs (fadm::pool, fadm::finish, fadm::put_scores).
#include <cmath>
#include <cstring>
#include <vector>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/adm.hpp"
#include "feature/cuda/float_adm_cuda.hpp"
#include "feature/cuda/float_vif_cuda.hpp"
#include "feature/float_adm.hpp"
#include "exact/float_adm_tables.h"

namespace vmafx::cuda {
namespace {

class FloatAdmTwin final : public Extractor {
 public:
  FloatAdmTwin(CudaBackend& b, const vmafx::fadm::Config& c) : b_(b), c_(c) {
    for (const float* f : {vmafx_fadm_db2_lo, vmafx_fadm_db2_hi})
      for (int k = 0; k < 4; ++k) {
        std::uint32_t u;
        std::memcpy(&u, &f[k], 4);
        table_.push_back(u);
      }
    for (int s = 0; s < 4; ++s) fac_[s] = vmafx::fadm::csf_factors(s, c.p);
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    const int W = c_.w, H = c_.h;
    const std::size_t n = std::size_t(W) * H;
    auto* table = static_cast<std::uint32_t*>(ctx.device(this, 0, table_.size() * 4));
    check(cudaMemcpyAsync(table, table_.data(), table_.size() * 4, cudaMemcpyHostToDevice, s), "float_adm: upload");
    auto* img = static_cast<float*>(ctx.device(this, 1, 2 * n * sizeof(float)));
    const int bps = c_.bpc > 8 ? 2 : 1;
    fvif::to_float(ctx.plane(ref, index, 0), ref.stride(0) / bps, W, H, c_.bpc, img, s);
    fvif::to_float(ctx.plane(dis, index, 0), dis.stride(0) / bps, W, H, c_.bpc, img + n, s);
    const int bw = (W + 1) / 2, bh = (H + 1) / 2;
    const std::size_t plane = std::size_t(bw) * bh;
    auto* bands = static_cast<float*>(ctx.device(this, 2, 22 * plane * sizeof(float)));
    auto pl = [&](int k) { return bands + std::size_t(k) * plane; };
    // terms: 9 planes of the largest score region; rows: 9 per row, all scales
    auto* terms = static_cast<float*>(ctx.device(this, 3, 9 * plane * sizeof(float)));
    const bool cube = c_.p.p_norm == 3.0;
    const std::size_t row_floats = 9 * std::size_t(bh) * 4;
    auto* rows = static_cast<float*>(ctx.device(this, 4, row_floats * sizeof(float)));
    auto* host_rows = static_cast<float*>(ctx.pinned(this, 0, row_floats * sizeof(float)));
    fadm::Triple rb{{pl(4), pl(5), pl(6)}}, db{{pl(7), pl(8), pl(9)}}, r{{pl(10), pl(11), pl(12)}},
        ad{{pl(13), pl(14), pl(15)}}, csf_a{{pl(16), pl(17), pl(18)}}, csf_f{{pl(19), pl(20), pl(21)}};
    const float* cur_r = img;
    const float* cur_d = img + n;
    int w = W, h = H, stride = W;
    std::size_t off = 0;
    int row_off[4] = {0, 0, 0, 0};
    adm::Region reg[4] = {};
    thread_local std::vector<float> host_terms;  // twins run on several threads at once
    host_terms.clear();
    std::size_t terms_off[4] = {0, 0, 0, 0};
    for (int scale = 0; scale < 4; ++scale) {
      float* ra = pl(scale & 1);
      float* da = pl(2 + (scale & 1));
      const bool lo_only = scale == 0 && c_.p.skip_scale0;
      fadm::dwt(cur_r, stride, w, h, lo_only, table, ra, rb.p[1], rb.p[0], rb.p[2], s);
      fadm::dwt(cur_d, stride, w, h, lo_only, table, da, db.p[1], db.p[0], db.p[2], s);
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      cur_r = ra;
      cur_d = da;
      stride = w;
      if (lo_only) continue;
      const adm::Region f = adm::filter_region(w, h), g = adm::score_region(w, h);
      reg[scale] = g;
      fadm::ScaleArgs a{};
      a.w = w;
      a.h = h;
      a.filter = {f.top, f.bottom, f.left, f.right};
      a.score = {g.top, g.bottom, g.left, g.right};
      a.rf[0] = a.rf[1] = fac_[scale].f1;
      a.rf[2] = fac_[scale].f2;
      a.k = vmafx::fadm::stage_consts(c_.p.enhn_gain_limit, c_.p.cpu);
      a.cube = cube;
      a.bypass = c_.p.bypass_cm;
      fadm::scale(a, rb, db, r, ad, csf_a, csf_f, terms, rows + off, s);
      row_off[scale] = int(off);
      const int rh = g.bottom > g.top ? g.bottom - g.top : 0;
      const int rw = g.right > g.left ? g.right - g.left : 0;
      off += 9 * std::size_t(rh);
      if (!cube) {
        // the bases come back: the host raises them with the reference's powf
        const std::size_t m = 9 * std::size_t(rw) * rh;
        terms_off[scale] = host_terms.size();
        host_terms.resize(host_terms.size() + m);
        ctx.read_back(host_terms.data() + terms_off[scale], terms, m * sizeof(float), "float_adm");
      }
    }
    ctx.read_back(host_rows, rows, off * sizeof(float), "float_adm");
    float num_s[4] = {0, 0, 0, 0}, den_s[4] = {0, 0, 0, 0}, aim_s[4] = {0, 0, 0, 0};
    for (int scale = 0; scale < 4; ++scale) {
      if (scale == 0 && c_.p.skip_scale0) {
        den_s[0] = static_cast<float>(1e-10);
        continue;
      }
      const adm::Region& g = reg[scale];
      const int rh = g.bottom > g.top ? g.bottom - g.top : 0;
      const int rw = g.right > g.left ? g.right - g.left : 0;
      float acc[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      if (cube) {
        const float* rr = host_rows + row_off[scale];
        for (int y = 0; y < rh; ++y)
          for (int k = 0; k < 9; ++k) acc[k] += rr[std::size_t(y) * 9 + k];
      } else {
        const float* base = host_terms.data() + terms_off[scale];
        const std::size_t m = std::size_t(rw) * rh;
        for (int y = 0; y < rh; ++y)
          for (int k = 0; k < 9; ++k) {
            const float* p = base + k * m + std::size_t(y) * rw;
            float inner = 0.0f;
            for (int x = 0; x < rw; ++x) inner += vmafx::fadm::pnorm_term(p[x], c_.p.p_norm);
            acc[k] += inner;
          }
      }
      den_s[scale] = vmafx::fadm::pool(acc, rw, rh, c_.p.noise_weight, c_.p.p_norm);
      num_s[scale] = vmafx::fadm::pool(acc + 3, rw, rh, c_.p.noise_weight, c_.p.p_norm);
      aim_s[scale] = vmafx::fadm::pool(acc + 6, rw, rh, 0.0, c_.p.p_norm);
    }
    vmafx::fadm::put_scores(c_, vmafx::fadm::finish(num_s, den_s, aim_s, W, H, c_.p), index, out);
  }

 private:
  CudaBackend& b_;
  vmafx::fadm::Config c_;
  std::vector<std::uint32_t> table_;
  vmafx::fadm::Factors fac_[4];
};

}  // namespace

std::unique_ptr<Extractor> make_float_adm_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kFloatAdmExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<FloatAdmTwin>(b, vmafx::fadm::config(o, f));
}

}  // namespace vmafx::cuda
