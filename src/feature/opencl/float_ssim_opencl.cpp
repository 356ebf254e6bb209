// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "float_ssim" (feature/float_ssim.cpp): conversion, box
// decimation and the Gaussian SSIM on the device (float_ssim.cl), the sums of
// the per-pixel doubles on the host in raster order.
#include "feature/opencl/float_ssim_opencl.hpp"

#include <cstring>
#include <vector>

#include "feature/float_ssim.hpp"
#include "exact/ssim.h"

#include "exact/fixed_decimate.h"

namespace vmafx::ocl {

namespace {

struct Consts {
  std::uint32_t c1, c2, c3;
};

// The reference's stabilisers, computed as it computes them (in float).
Consts constants() {
  const vmafx_fssim_consts c = vmafx_fssim_constants();
  return {f32_bits(c.c1), f32_bits(c.c2), f32_bits(c.c3)};
}

}  // namespace

void gaussian_ssim_enqueue(Slot& s, int owner, int first, cl_mem ref, cl_mem cmp, int w, int h, bool lcs,
                           GaussianTerms& out) {
  out.read.finish();  // an earlier read into out.terms, never waited for
  static const Consts k = constants();
  const int taps = VMAFX_SSIM_GAUSS_TAPS;
  const int dw = w - (taps - 1), dh = h - (taps - 1);
  const std::size_t n = std::size_t(dw) * dh;
  cl_mem hm = s.scratch(owner, first, std::size_t(dw) * h * 5 * 4);
  cl_mem term = s.scratch(owner, first + 1, n * 8 * (lcs ? 4 : 1));
  cl_kernel kh = s.kernel(kFloatSsimFile, "fs_horizontal");
  set_args(kh, ref, cmp, cl_int(w), cl_int(h), hm);
  run2d(s.queue(), kh, std::size_t(dw), std::size_t(h), 16, 8);
  cl_kernel kv = s.kernel(kFloatSsimFile, "fs_vertical");
  const cl_int lcs_flag = lcs ? 1 : 0;
  set_args(kv, hm, cl_int(w), cl_int(h), k.c1, k.c2, k.c3, lcs_flag, term);
  run2d(s.queue(), kv, std::size_t(dw), std::size_t(dh), 16, 8);
  out.dw = dw;
  out.dh = dh;
  out.lcs = lcs;
  out.terms.resize(n * (lcs ? 4 : 1));
  out.read.start(s.queue(), term, out.terms.data(), out.terms.size() * 8);
}

ssim::SsimMeans gaussian_ssim_finish(GaussianTerms& g) {
  g.read.finish();
  const std::vector<double>& t = g.terms;
  const std::size_t n = std::size_t(g.dw) * g.dh;
  double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) ssim_sum += t[i];
  if (g.lcs) {
    for (std::size_t i = 0; i < n; ++i) l_sum += t[n + i];
    for (std::size_t i = 0; i < n; ++i) c_sum += t[2 * n + i];
    for (std::size_t i = 0; i < n; ++i) s_sum += t[3 * n + i];
  }
  const double count = static_cast<double>(g.dw * g.dh);
  ssim::SsimMeans m;
  m.ssim = static_cast<float>(ssim_sum / count);
  m.l = static_cast<float>(l_sum / count);
  m.c = static_cast<float>(c_sum / count);
  m.s = static_cast<float>(s_sum / count);
  return m;
}

namespace {

// One read (gaussian_ssim_enqueue's), which gaussian_ssim_finish waits for.
struct Pending : Slot::State {
  FrameKey frame;
  GaussianTerms g;
  const PendingRead& last_read() const { return g.read; }
};

class FloatSsimTwin final : public FrameTwin<Pending> {
 public:
  FloatSsimTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : FrameTwin(std::move(g)),
        fmt_(f),
        scale_(ssim::float_ssim_scale(f.width, f.height, o.get_int("scale"))),
        lcs_(o.get_bool("enable_lcs")),
        db_(o.get_bool("enable_db")),
        max_db_(ssim::max_db(o.get_bool("clip_db"), f.bpc, f.width, f.height)) {}

 private:
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    const ssim::SsimMeans m = gaussian_ssim_finish(st.g);
    ssim::write_float_ssim({m.ssim, m.l, m.c, m.s}, lcs_, db_, max_db_, index, out);
  }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    int w = fmt_.width, h = fmt_.height;
    const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
    cl_mem r, d;
    if (scale_ > 1) {
      const int sw = ssim::decimated_size(w, scale_), sh = ssim::decimated_size(h, scale_);
      r = s.scratch(id_, 0, std::size_t(sw) * sh * 4);
      d = s.scratch(id_, 1, std::size_t(sw) * sh * 4);
      cl_kernel k = s.kernel(kFloatSsimFile, "fs_decimate_box");
      const cl_uint tap = vmafx_decimate_tap_bits(scale_);
      set_args(k, pl.ref, cl_int(w), cl_int(h), wide, cl_int(fmt_.bpc), cl_int(scale_), tap, cl_int(sw), cl_int(sh), r);
      run2d(s.queue(), k, std::size_t(sw), std::size_t(sh), 16, 8);
      set_args(k, pl.dis, cl_int(w), cl_int(h), wide, cl_int(fmt_.bpc), cl_int(scale_), tap, cl_int(sw), cl_int(sh), d);
      run2d(s.queue(), k, std::size_t(sw), std::size_t(sh), 16, 8);
      w = sw;
      h = sh;
    } else {
      r = s.scratch(id_, 0, std::size_t(w) * h * 4);
      d = s.scratch(id_, 1, std::size_t(w) * h * 4);
      cl_kernel k = s.kernel(kFloatSsimFile, "fs_to_float");
      set_args(k, pl.ref, cl_int(w), cl_int(h), wide, cl_int(fmt_.bpc), r);
      run2d(s.queue(), k, std::size_t(w), std::size_t(h), 16, 8);
      set_args(k, pl.dis, cl_int(w), cl_int(h), wide, cl_int(fmt_.bpc), d);
      run2d(s.queue(), k, std::size_t(w), std::size_t(h), 16, 8);
    }
    gaussian_ssim_enqueue(s, id_, 2, r, d, w, h, lcs_, st.g);
  }

  PictureFormat fmt_;
  int scale_;
  bool lcs_, db_;
  double max_db_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_ssim_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                                const PictureFormat& f) {
  return std::make_unique<FloatSsimTwin>(std::move(g), o, f);
}

}  // namespace vmafx::ocl
