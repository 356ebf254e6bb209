// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of float_adm (feature/float_adm.cpp): luma to float, the db2
// levels, decoupling, CSF, masking and the per-row float sums of the p-norm
// terms on the device (float_adm.cl); for p != 3 the terms' bases come back
// and the host raises them with the reference's powf. The rows are added
// here in row order; then the reference's own pooling, scores and outputs.
#include <cmath>
#include <cstring>
#include <vector>

#include "feature/adm.hpp"
#include "feature/float_adm.hpp"
#include "exact/float_adm_tables.h"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "float_adm.cl";
constexpr const char* kVifFile = "float_vif.cl";  // fv_to_float

template <class T>
auto bits(T v) {
  if constexpr (sizeof(T) == 4) {
    std::uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
  } else {
    std::uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  }
}

struct Pending : FrameState {
  std::vector<float> rows;
  std::vector<float> terms;  // p != 3: the bases of every scale
  std::size_t term_off[4] = {0, 0, 0, 0};
  int row_off[4] = {0, 0, 0, 0}, rw[4] = {0, 0, 0, 0}, rh[4] = {0, 0, 0, 0};
};

class FloatAdmTwin final : public FrameTwin<Pending> {
 public:
  FloatAdmTwin(std::shared_ptr<FrameGroup> g, const fadm::Config& c) : FrameTwin(std::move(g)), c_(c) {
    for (const float* f : {vmafx_fadm_db2_lo, vmafx_fadm_db2_hi})
      for (int k = 0; k < 4; ++k) table_.push_back(bits(f[k]));
    for (int s = 0; s < 4; ++s) fac_[s] = fadm::csf_factors(s, c.p);
  }

 private:
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    const bool cube = c_.p.p_norm == 3.0;
    float num_s[4] = {0, 0, 0, 0}, den_s[4] = {0, 0, 0, 0}, aim_s[4] = {0, 0, 0, 0};
    for (int scale = 0; scale < 4; ++scale) {
      if (scale == 0 && c_.p.skip_scale0) {
        den_s[0] = static_cast<float>(1e-10);
        continue;
      }
      const int rw = st.rw[scale], rh = st.rh[scale];
      float acc[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      if (cube) {
        const float* rr = st.rows.data() + st.row_off[scale];
        for (int y = 0; y < rh; ++y)
          for (int k = 0; k < 9; ++k) acc[k] += rr[std::size_t(y) * 9 + k];
      } else {
        const float* base = st.terms.data() + st.term_off[scale];
        const std::size_t m = std::size_t(rw) * rh;
        for (int y = 0; y < rh; ++y)
          for (int k = 0; k < 9; ++k) {
            const float* p = base + k * m + std::size_t(y) * rw;
            float inner = 0.0f;
            for (int x = 0; x < rw; ++x) inner += fadm::pnorm_term(p[x], c_.p.p_norm);
            acc[k] += inner;
          }
      }
      den_s[scale] = fadm::pool(acc, rw, rh, c_.p.noise_weight, c_.p.p_norm);
      num_s[scale] = fadm::pool(acc + 3, rw, rh, c_.p.noise_weight, c_.p.p_norm);
      aim_s[scale] = fadm::pool(acc + 6, rw, rh, 0.0, c_.p.p_norm);
    }
    fadm::put_scores(c_, fadm::finish(num_s, den_s, aim_s, c_.w, c_.h, c_.p), index, out);
  }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    cl_command_queue q = s.queue();
    const cl_mem tab = s.device().table("float_adm", table_.data(), table_.size() * 4);
    const int W = c_.w, H = c_.h;
    const std::size_t n = std::size_t(W) * H;
    cl_mem img[2] = {s.scratch(id_, 0, n * 4), s.scratch(id_, 1, n * 4)};
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    cl_kernel kf = s.kernel(kVifFile, "fv_to_float");
    for (int side = 0; side < 2; ++side) {
      set_args(kf, side ? pl.dis : pl.ref, cl_int(W), cl_int(H), cl_int(c_.bpc), img[side]);
      run2d(q, kf, std::size_t(W), std::size_t(H), 16, 8);
    }
    const int bw = (W + 1) / 2, bh = (H + 1) / 2;
    const std::size_t plane = std::size_t(bw) * bh;
    // approximation bands (ping-pong, per side), then six band triples
    cl_mem approx[2][2] = {{s.scratch(id_, 2, plane * 4), s.scratch(id_, 3, plane * 4)},
                           {s.scratch(id_, 4, plane * 4), s.scratch(id_, 5, plane * 4)}};
    cl_mem rb = s.scratch(id_, 6, 3 * plane * 4), db = s.scratch(id_, 7, 3 * plane * 4);
    cl_mem r = s.scratch(id_, 8, 3 * plane * 4), ad = s.scratch(id_, 9, 3 * plane * 4);
    cl_mem csf_a = s.scratch(id_, 10, 3 * plane * 4), csf_f = s.scratch(id_, 11, 3 * plane * 4);
    cl_mem terms = s.scratch(id_, 12, 9 * plane * 4);
    cl_mem rows = s.scratch(id_, 13, 9 * std::size_t(bh) * 4 * 4);
    const bool cube = c_.p.p_norm == 3.0;
    const cl_uint opq = 0;
    const cl_int cube_flag = cube ? 1 : 0;
    const cl_ulong pl_n = plane;
    cl_kernel kd = s.kernel(kFile, "fa_dwt");
    cl_kernel kdc = s.kernel(kFile, "fa_decouple");
    cl_kernel kden = s.kernel(kFile, "fa_den");
    cl_kernel kcsf = s.kernel(kFile, "fa_csf");
    cl_kernel km = s.kernel(kFile, "fa_masked");
    cl_kernel kr = s.kernel(kFile, "fa_rows");
    const cl_ulong gl = bits(c_.p.enhn_gain_limit);
    const cl_uint eps = bits(static_cast<float>(1e-30));
    const cl_uint cos1 = bits(static_cast<float>(std::cos(1.0 * M_PI / 180.0) * std::cos(1.0 * M_PI / 180.0)));
    const cl_ulong c30 = bits(double(VMAFX_FADM_ONE_BY_30)), c15 = bits(double(VMAFX_FADM_ONE_BY_15));
    cl_mem cur[2] = {img[0], img[1]};
    int w = W, h = H, stride = W;
    cl_int off = 0;
    std::size_t toff = 0;
    for (int scale = 0; scale < 4; ++scale) {
      const cl_int lo_only = (scale == 0 && c_.p.skip_scale0) ? 1 : 0;
      const int ow = (w + 1) / 2, oh = (h + 1) / 2;
      cl_mem out_a[2] = {approx[0][scale & 1], approx[1][scale & 1]};
      cl_mem tri[2] = {rb, db};
      for (int side = 0; side < 2; ++side) {
        set_args(kd, cur[side], cl_int(stride), cl_int(w), cl_int(h), lo_only, tab, opq, out_a[side], tri[side], pl_n);
        run2d(q, kd, std::size_t(ow), std::size_t(oh), 16, 8);
      }
      cur[0] = out_a[0];
      cur[1] = out_a[1];
      w = ow;
      h = oh;
      stride = w;
      if (lo_only) continue;
      const adm::Region f = adm::filter_region(w, h), g = adm::score_region(w, h);
      const int rw = g.right - g.left, rh = g.bottom - g.top;
      st.rw[scale] = rw;
      st.rh[scale] = rh;
      const cl_uint rf0 = bits(fac_[scale].f1), rf2 = bits(fac_[scale].f2);
      const int fw = f.right - f.left, fh = f.bottom - f.top;
      if (fw > 0 && fh > 0) {
        set_args(kdc, cl_int(w), cl_int(f.left), cl_int(f.top), cl_int(f.right), cl_int(f.bottom), pl_n,
                 cl_uint(c_.p.cpu), gl, eps, cos1, opq, rb, db, r, ad);
        run2d(q, kdc, std::size_t(fw), std::size_t(fh), 16, 8);
      }
      const std::size_t m = std::size_t(rw) * rh;
      const cl_ulong t_den = 0, t_num = 3 * m, t_aim = 6 * m;
      set_args(kden, cl_int(w), cl_int(g.left), cl_int(g.top), cl_int(rw), cl_int(rh), pl_n, rf0, rf0, rf2, cube_flag,
               opq, rb, terms, t_den);
      run2d(q, kden, std::size_t(rw), std::size_t(rh), 16, 8);
      const cl_int bypass = c_.p.bypass_cm ? 1 : 0;
      auto csf = [&](cl_mem src, cl_mem dst, cl_mem flt) {
        if (fw <= 0 || fh <= 0) return;
        set_args(kcsf, cl_int(w), cl_int(f.left), cl_int(f.top), cl_int(f.right), cl_int(f.bottom), pl_n, rf0, rf0, rf2,
                 c30, opq, src, dst, flt);
        run2d(q, kcsf, std::size_t(fw), std::size_t(fh), 16, 8);
      };
      auto masked = [&](cl_mem src, cl_mem flt, cl_mem ang, cl_ulong out) {
        set_args(km, cl_int(w), cl_int(h), cl_int(g.left), cl_int(g.top), cl_int(rw), cl_int(rh), pl_n, rf0, rf0, rf2,
                 bypass, c15, cube_flag, opq, src, flt, ang, terms, out);
        run2d(q, km, std::size_t(rw), std::size_t(rh), 16, 8);
      };
      csf(ad, csf_a, csf_f);
      masked(r, csf_f, csf_a, t_num);
      csf(r, csf_f, csf_a);
      masked(ad, csf_a, csf_f, t_aim);
      st.row_off[scale] = off;
      if (cube) {
        set_args(kr, terms, cl_int(rw), cl_int(rh), rows, off);
        run2d(q, kr, std::size_t(rh), 9, 16, 1);
        off += 9 * rh;
      } else {
        // `terms` is reused by the next scale: read this one's now
        st.term_off[scale] = toff;
        if (st.terms.size() < toff + 9 * m) st.terms.resize(toff + 9 * m);
        read(q, terms, st.terms.data() + toff, 9 * m * 4);
        toff += 9 * m;
      }
    }
    st.rows.resize(std::size_t(off > 0 ? off : 1));
    if (off > 0) st.read.start(q, rows, st.rows.data(), std::size_t(off) * 4);
  }

  fadm::Config c_;
  std::vector<std::uint32_t> table_;
  fadm::Factors fac_[4];
};

}  // namespace

std::unique_ptr<Extractor> make_float_adm_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                               const PictureFormat& f) {
  return std::make_unique<FloatAdmTwin>(std::move(g), fadm::config(o, f));
}

}  // namespace vmafx::ocl
