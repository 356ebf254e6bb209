// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of float_vif (feature/float_vif.cpp): luma to float (or the
// host's prescaled image), the decimations, the moments, the per-position
// statistic and each row's float totals on the device (float_vif.cl); the
// rows of each scale added here in row order, in float, as the reference adds
// them; then the CPU extractor's own output function.
#include <cstring>
#include <string>
#include <vector>

#include "feature/float_vif.hpp"
#include "exact/float_vif_tables.h"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "float_vif.cl";

struct Pending : FrameState {
  std::vector<float> rows;
  std::vector<float> input;  // the host's prescaled images
  int row_off[4] = {0, 0, 0, 0}, heights[4] = {0, 0, 0, 0};
};

class FloatVifTwin final : public FrameTwin<Pending> {
 public:
  FloatVifTwin(std::shared_ptr<FrameGroup> g, const fvif::Config& c) : FrameTwin(std::move(g)), c_(c) {
    for (int i = 0; i < VMAFX_FVIF_LOG2_TERMS; ++i) tab_.push_back(vmafx_fvif_log2_poly[i]);
    for (int s = 0; s < 4; ++s) {
      const std::vector<float> f = fvif::gaussian_kernel(s, c.p.kernelscale);
      offset_[s] = int(tab_.size());
      width_[s] = int(f.size());
      tab_.insert(tab_.end(), f.begin(), f.end());
    }
    tab_name_ = "float_vif:" + std::to_string(f64_bits(c.p.kernelscale));
  }

 private:
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    fvif::Scores sc;
    for (int scale = c_.p.skip_scale0 ? 1 : 0; scale < 4; ++scale) {
      const float* rn = st.rows.data() + st.row_off[scale];
      const float* rd = rn + st.heights[scale];
      float num = 0.0f, den = 0.0f;
      for (int i = 0; i < st.heights[scale]; ++i) {
        num += rn[i];
        den += rd[i];
      }
      sc.num[scale] = num;
      sc.den[scale] = den;
    }
    fvif::put_scores(c_, sc, index, out);
  }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    cl_command_queue q = s.queue();
    const cl_mem tab = s.device().table(tab_name_, tab_.data(), tab_.size() * sizeof(float));
    const int W = c_.sw, H = c_.sh;
    const std::size_t n = std::size_t(W) * H;
    cl_mem fr = s.scratch(id_, 0, n * 4);
    cl_mem fd = s.scratch(id_, 1, n * 4);
    if (c_.rescale()) {
      const std::size_t m = std::size_t(c_.w) * c_.h + n;
      st.input.resize(2 * m);
      const float* r = fvif::input(c_, ref, st.input.data());
      const float* d = fvif::input(c_, dis, st.input.data() + m);
      write(q, fr, r, n * 4);
      write(q, fd, d, n * 4);
    } else {
      const Slot::Planes pl = s.planes(ref, dis, index, 0);
      cl_kernel k = s.kernel(kFile, "fv_to_float");
      set_args(k, pl.ref, cl_int(W), cl_int(H), cl_int(c_.bpc), fr);
      run2d(q, k, std::size_t(W), std::size_t(H), 16, 8);
      set_args(k, pl.dis, cl_int(W), cl_int(H), cl_int(c_.bpc), fd);
      run2d(q, k, std::size_t(W), std::size_t(H), 16, 8);
    }
    const std::size_t dq = std::size_t(W / 2) * std::size_t(H / 2) + 1;
    cl_mem dec[2][2] = {{s.scratch(id_, 2, dq * 4), s.scratch(id_, 3, dq * 4)},
                        {s.scratch(id_, 4, dq * 4), s.scratch(id_, 5, dq * 4)}};
    cl_mem tmp = s.scratch(id_, 6, std::size_t(W) * std::size_t(H / 2 + 1) * 4);
    cl_mem mom = s.scratch(id_, 7, 5 * n * 4);
    cl_mem terms = s.scratch(id_, 8, 2 * n * 4);
    cl_mem rows = s.scratch(id_, 9, 8 * std::size_t(H) * 4);
    const cl_uint opq = 0;
    const cl_uint max_inv = f32_bits(fvif::sigma_nsq_max_inv(c_.p.sigma_nsq));
    const cl_uint gain = f32_bits(static_cast<float>(c_.p.enhn_gain_limit));
    const cl_ulong snsq = f64_bits(c_.p.sigma_nsq);
    cl_kernel kvd = s.kernel(kFile, "fv_vdec");
    cl_kernel khd = s.kernel(kFile, "fv_hdec");
    cl_kernel kvm = s.kernel(kFile, "fv_vmom");
    cl_kernel khs = s.kernel(kFile, "fv_hstat");
    cl_kernel kr = s.kernel(kFile, "fv_rows");
    cl_mem cur_r = fr, cur_d = fd;
    int w = W, h = H, flip = 0;
    cl_int off = 0;
    for (int scale = c_.p.skip_scale0 ? 1 : 0; scale < 4; ++scale) {
      const cl_int f = offset_[scale], fw = width_[scale];
      if (scale > 0) {
        const int dw = w / 2, dh = h / 2;
        for (int side = 0; side < 2; ++side) {
          set_args(kvd, tab, f, fw, side ? cur_d : cur_r, cl_int(w), cl_int(h), opq, tmp);
          run2d(q, kvd, std::size_t(w), std::size_t(dh), 16, 8);
          set_args(khd, tab, f, fw, tmp, cl_int(w), cl_int(dh), opq, dec[flip][side]);
          run2d(q, khd, std::size_t(dw), std::size_t(dh), 16, 8);
        }
        cur_r = dec[flip][0];
        cur_d = dec[flip][1];
        flip ^= 1;
        w = dw;
        h = dh;
      }
      set_args(kvm, tab, f, fw, cur_r, cur_d, cl_int(w), cl_int(h), opq, mom);
      run2d(q, kvm, std::size_t(w), std::size_t(h), 16, 8);
      set_args(khs, tab, f, fw, mom, cl_int(w), cl_int(h), max_inv, gain, snsq, opq, terms);
      run2d(q, khs, std::size_t(w), std::size_t(h), 16, 8);
      // this scale's rows at offset `off`: one read for all scales
      st.row_off[scale] = off;
      st.heights[scale] = h;
      run_rows(s, kr, terms, w, h, rows, off);
      off += 2 * h;
    }
    st.rows.resize(std::size_t(off));
    st.read.start(q, rows, st.rows.data(), std::size_t(off) * 4);
  }

  void run_rows(Slot& s, cl_kernel kr, cl_mem terms, int w, int h, cl_mem rows, cl_int off) {
    set_args(kr, terms, cl_int(w), cl_int(h), rows, off);
    run(s.queue(), kr, std::size_t(h), 64);
  }

  fvif::Config c_;
  std::vector<float> tab_;
  std::string tab_name_;
  int offset_[4] = {0, 0, 0, 0}, width_[4] = {0, 0, 0, 0};
};

}  // namespace

std::unique_ptr<Extractor> make_float_vif_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                               const PictureFormat& f) {
  return std::make_unique<FloatVifTwin>(std::move(g), fvif::config(o, f));
}

}  // namespace vmafx::ocl
