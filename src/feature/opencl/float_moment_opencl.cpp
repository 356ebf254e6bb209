// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "float_moment" (feature/float_moment.cpp): the samples and
// their float squares as exact integers summed per row on the device
// (float_moment.cl), the reference's double sums and means on the host.
#include "feature/float_moment.hpp"
#include "feature/opencl/float_terms_opencl.hpp"

namespace vmafx::ocl {
namespace {

class FloatMomentTwin final : public TermSumsTwin {
 public:
  FloatMomentTwin(std::shared_ptr<FrameGroup> g, const PictureFormat& f)
      : TermSumsTwin(std::move(g), TermSums("float_moment.cl",
                                            {{VMAFX_FTERM_SAMPLE, false},
                                             {VMAFX_FTERM_SAMPLE, true},
                                             {VMAFX_FTERM_SQUARE, false},
                                             {VMAFX_FTERM_SQUARE, true}},
                                            f)),
        w_(f.width),
        h_(f.height) {}

 private:
  void emit(Slot& s, Pending& st, const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    static constexpr std::string_view kNames[4] = {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                                                   "float_moment_dis2nd"};
    for (std::size_t i = 0; i < 4; ++i)
      out.put_plain(kNames[i], index, sum(s, st, ref, dis, index, i) / (w_ * h_));  // fmoment::moment's mean
  }

  int w_, h_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_moment_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                                  const PictureFormat& f) {
  (void)kFloatMomentExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<FloatMomentTwin>(std::move(g), f);
}

}  // namespace vmafx::ocl
