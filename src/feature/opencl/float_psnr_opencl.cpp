// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "float_psnr" (feature/float_psnr.cpp): the squared float
// differences as exact integers summed per row on the device (float_psnr.cl),
// the reference's double sum and its own PSNR function on the host.
#include "feature/float_psnr.hpp"
#include "feature/opencl/float_terms_opencl.hpp"

namespace vmafx::ocl {
namespace {

class FloatPsnrTwin final : public TermSumsTwin {
 public:
  FloatPsnrTwin(std::shared_ptr<FrameGroup> g, const PictureFormat& f)
      : TermSumsTwin(std::move(g), TermSums("float_psnr.cl", {{VMAFX_FTERM_ERROR, false}}, f)),
        fmt_(f),
        pk_(fpsnr::peak_for(f.bpc)) {}

 private:
  void emit(Slot& s, Pending& st, const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const double noise = sum(s, st, ref, dis, index, 0);
    out.put_plain("float_psnr", index, fpsnr::from_noise(noise, fmt_.width, fmt_.height, pk_));
  }

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
