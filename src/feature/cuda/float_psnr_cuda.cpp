// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of "float_psnr" (feature/float_psnr.cpp): the squared float
// differences as exact integers summed per row on the device (float_psnr.cu),
// the reference's double sum and its own PSNR function on the host.
#include "feature/cuda/float_terms_cuda.hpp"
#include "feature/float_psnr.hpp"

namespace vmafx::cuda {

std::unique_ptr<Extractor> make_float_psnr_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kFloatPsnrExtractor.create(o, f);  // the CPU's format checks and errors
  const fpsnr::Peak pk = fpsnr::peak_for(f.bpc);
  const int w = f.width, h = f.height;
  return std::make_unique<fterms::TermsTwin>(b, f, std::vector<fterms::TermSum>{{VMAFX_FTERM_ERROR, false}},
                                             [pk, w, h](const double* v, unsigned index, FeatureSink& out) {
                                               out.put_plain("float_psnr", index, fpsnr::from_noise(v[0], w, h, pk));
                                             });
}

}  // namespace vmafx::cuda
