// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of "float_moment" (feature/float_moment.cpp): the samples and
// their float squares as exact integers summed per row on the device
// (float_psnr.cu), the reference's double sums and means on the host.
#include "feature/cuda/float_terms_cuda.hpp"
#include "feature/float_moment.hpp"

namespace vmafx::cuda {

std::unique_ptr<Extractor> make_float_moment_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kFloatMomentExtractor.create(o, f);  // the CPU's format checks and errors
  const int w = f.width, h = f.height;
  return std::make_unique<fterms::TermsTwin>(
      b, f,
      std::vector<fterms::TermSum>{{VMAFX_FTERM_SAMPLE, false},
                                   {VMAFX_FTERM_SAMPLE, true},
                                   {VMAFX_FTERM_SQUARE, false},
                                   {VMAFX_FTERM_SQUARE, true}},
      [w, h](const double* v, unsigned index, FeatureSink& out) {
        static constexpr std::string_view kNames[4] = {"float_moment_ref1st", "float_moment_dis1st",
                                                       "float_moment_ref2nd", "float_moment_dis2nd"};
        for (int i = 0; i < 4; ++i) out.put_plain(kNames[i], index, v[i] / (w * h));  // fmoment::moment's mean
      });
}

}  // namespace vmafx::cuda
