// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "float_moment" (feature/float_moment.cpp): the samples and
// their float squares as exact integers summed per row on the device
// (float_moment.cl), the reference's double sums and means on the host.
#include "feature/float_moment.hpp"
#include "feature/opencl/float_terms_opencl.hpp"

namespace vmafx::ocl {
namespace {

class FloatMomentTwin final : public Twin {
 public:
  FloatMomentTwin(std::shared_ptr<FrameGroup> g, const PictureFormat& f)
      : Twin(std::move(g)),
        sums_("float_moment.cl",
              {{VMAFX_FTERM_SAMPLE, false},
               {VMAFX_FTERM_SAMPLE, true},
               {VMAFX_FTERM_SQUARE, false},
               {VMAFX_FTERM_SQUARE, true}},
              f),
        w_(f.width),
        h_(f.height) {}

  void submit(const Picture& ref, const Picture& dis, unsigned index) override {
    Slot& s = slot();
    sums_.enqueue(s, id_, ref, dis, index, s.state<TermSums::Pending>(id_));
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    Slot& s = slot();
    TermSums::Pending& st = s.state<TermSums::Pending>(id_);
    if (!st.frame.matches(ref, dis, index, st.read)) sums_.enqueue(s, id_, ref, dis, index, st);
    st.read.finish();
    static constexpr std::string_view kNames[4] = {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                                                   "float_moment_dis2nd"};
    for (std::size_t i = 0; i < 4; ++i) {
      const double cum = sums_.finish(s, id_, ref, dis, index, st, i);
      out.put_plain(kNames[i], index, cum / (w_ * h_));  // fmoment::moment's mean
    }
  }

 private:
  TermSums sums_;
  int w_, h_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_moment_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                                  const PictureFormat& f) {
  (void)kFloatMomentExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<FloatMomentTwin>(std::move(g), f);
}

}  // namespace vmafx::ocl
