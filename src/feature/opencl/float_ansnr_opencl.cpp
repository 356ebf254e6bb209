// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "float_ansnr" (feature/float_ansnr.cpp): the filters and the
// per-row float sums on the device (float_ansnr.cl), the sums over the rows
// (in float, in order) and the reference's own score function on the host.
#include <vector>

#include "feature/float_ansnr.hpp"
#include "feature/float_psnr.hpp"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "float_ansnr.cl";

struct Pending : FrameState {
  std::vector<float> rows;
};

class FloatAnsnrTwin final : public FrameTwin<Pending> {
 public:
  FloatAnsnrTwin(std::shared_ptr<FrameGroup> g, const PictureFormat& f)
      : FrameTwin(std::move(g)), fmt_(f), pk_(fpsnr::peak_for(f.bpc)) {}

 private:
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    float sig = 0, noise = 0;  // as fansnr::compute: the rows in order, in float
    for (int y = 0; y < fmt_.height; ++y) {
      sig += st.rows[2 * std::size_t(y)];
      noise += st.rows[2 * std::size_t(y) + 1];
    }
    const fansnr::Scores sc = fansnr::from_sums(sig, noise, fmt_.width, fmt_.height, pk_.peak, pk_.psnr_max);
    out.put_plain("float_ansnr", index, sc.ansnr);
    out.put_plain("float_anpsnr", index, sc.anpsnr);
  }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    const int w = fmt_.width, h = fmt_.height;
    const std::size_t n = std::size_t(w) * h;
    float taps[34];
    std::copy(fansnr::kRef3, fansnr::kRef3 + 9, taps);
    std::copy(fansnr::kDis5, fansnr::kDis5 + 25, taps + 9);
    cl_mem t = s.device().table("float_ansnr taps", taps, sizeof taps);
    cl_mem rf = s.scratch(id_, 0, n * 4), df = s.scratch(id_, 1, n * 4);
    cl_mem rows = s.scratch(id_, 2, std::size_t(h) * 8);
    const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
    const cl_float inv = 1.0f / float(1 << (fmt_.bpc - 8));  // a power of two: exact
    cl_kernel kf = s.kernel(kFile, "ansnr_filter");
    set_args(kf, pl.ref, pl.dis, cl_int(w), cl_int(h), wide, inv, t, rf, df);
    run2d(s.queue(), kf, std::size_t(w), std::size_t(h), 16, 8);
    cl_kernel kr = s.kernel(kFile, "ansnr_rows");
    set_args(kr, rf, df, cl_int(w), cl_int(h), rows);
    run(s.queue(), kr, std::size_t(h), pow2_group(kr, 64));
    st.rows.resize(2 * std::size_t(h));
    st.read.start(s.queue(), rows, st.rows.data(), st.rows.size() * 4);
  }

  PictureFormat fmt_;
  fpsnr::Peak pk_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_ansnr_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                                 const PictureFormat& f) {
  (void)kFloatAnsnrExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<FloatAnsnrTwin>(std::move(g), f);
}

}  // namespace vmafx::ocl
