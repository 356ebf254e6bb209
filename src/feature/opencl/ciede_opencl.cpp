// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "ciede" (feature/ciede.cpp): every pixel's dE00 on the
// device (ciede.cl, exact/ciede.h), certified or marked for replay; the host
// recomputes the marked pixels with the reference's own functions and adds
// all pixels' floats in double in the reference's (row-major) order.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/env.hpp"
#include "feature/ciede.hpp"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "ciede.cl";

int chroma_code(ChromaFormat c) { return c == ChromaFormat::k420 ? 0 : c == ChromaFormat::k422 ? 1 : 2; }

struct Pending : FrameState {
  std::vector<std::uint32_t> out;
};

class CiedeTwin final : public FrameTwin<Pending> {
 public:
  CiedeTwin(std::shared_ptr<FrameGroup> g, const PictureFormat& f) : FrameTwin(std::move(g)), fmt_(f) {}
  ~CiedeTwin() override {
    if (env::stats() && pixels_ > 0)
      std::fprintf(stderr, "ciede (opencl): %lld of %lld pixels replayed on the host\n", replayed_.load(),
                   pixels_.load());
  }

 private:
  void emit(Slot&, Pending& st, const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const int w = fmt_.width, h = fmt_.height;
    const std::size_t n = std::size_t(w) * h;
    const std::uint32_t* bits = st.out.data();
    const std::uint32_t* ok = bits + n;
    long long replayed = 0;
    const double total = ciede::ordered_sum(
        bits, ok, w, h, [&](int i, int j) { return ciede::pixel_difference(ref, dis, i, j); }, replayed);
    replayed_ += replayed;
    pixels_ += (long long)(w)*h;
    out.put_plain("ciede2000", index, ciede::frame_score(total, unsigned(w), unsigned(h)));
  }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    const std::size_t n = std::size_t(fmt_.width) * fmt_.height;
    st.out.resize(2 * n);
    cl_mem out = s.scratch(id_, 0, 2 * n * 4);
    cl_kernel k = s.kernel(kFile, "ciede_pixels");
    const Slot::Planes y = s.planes(ref, dis, index, 0);
    const Slot::Planes u = s.planes(ref, dis, index, 1);
    const Slot::Planes v = s.planes(ref, dis, index, 2);
    set_args(k, y.ref, u.ref, v.ref, y.dis, u.dis, v.dis, cl_int(fmt_.width), cl_int(fmt_.height),
             cl_int(fmt_.plane_width(1)), cl_int(fmt_.plane_height(1)), cl_int(chroma_code(fmt_.chroma)),
             cl_int(fmt_.bpc), out);
    run2d(s.queue(), k, std::size_t(fmt_.width), std::size_t(fmt_.height), 16, 8);
    st.read.start(s.queue(), out, st.out.data(), st.out.size() * 4);
  }

  PictureFormat fmt_;
  std::atomic<long long> replayed_{0}, pixels_{0};
};

}  // namespace

std::unique_ptr<Extractor> make_ciede_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f) {
  (void)kCiedeExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<CiedeTwin>(std::move(g), f);
}

}  // namespace vmafx::ocl
