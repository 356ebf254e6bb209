// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "float_psnr" (feature/float_psnr.cpp): the squared float
// differences as exact integers summed per row on the device (float_psnr.cl),
// the reference's double sum and its own PSNR function on the host.
#include "feature/float_psnr.hpp"
#include "feature/opencl/float_terms_opencl.hpp"

namespace vmafx::ocl {
namespace {

class FloatPsnrTwin final : public Twin {
 public:
  FloatPsnrTwin(std::shared_ptr<FrameGroup> g, const PictureFormat& f)
      : Twin(std::move(g)),
        sums_("float_psnr.cl", {{VMAFX_FTERM_ERROR, false}}, f),
        fmt_(f),
        pk_(fpsnr::peak_for(f.bpc)) {}

  void submit(const Picture& ref, const Picture& dis, unsigned index) override {
    Slot& s = slot();
    sums_.enqueue(s, id_, ref, dis, index, s.state<TermSums::Pending>(id_));
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    Slot& s = slot();
    TermSums::Pending& st = s.state<TermSums::Pending>(id_);
    if (!st.frame.matches(ref, dis, index, st.read)) sums_.enqueue(s, id_, ref, dis, index, st);
    st.read.finish();
    const double noise = sums_.finish(s, id_, ref, dis, index, st, 0);
    out.put_plain("float_psnr", index, fpsnr::from_noise(noise, fmt_.width, fmt_.height, pk_));
  }

 private:
  TermSums sums_;
  PictureFormat fmt_;
  fpsnr::Peak pk_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_psnr_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                                const PictureFormat& f) {
  (void)kFloatPsnrExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<FloatPsnrTwin>(std::move(g), f);
}

}  // namespace vmafx::ocl
