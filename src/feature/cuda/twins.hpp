#pragma once
// Factories of the CUDA twins (src/feature/cuda/<f>_cuda.cpp). Each validates
// the format as the CPU extractor does (same Error) and returns the twin.
#include <memory>

#include "backend/cuda/cuda_runtime.hpp"
#include "core/feature.hpp"

namespace vmafx::cuda {

std::unique_ptr<Extractor> make_motion_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f);
std::unique_ptr<Extractor> make_vif_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f);
std::unique_ptr<Extractor> make_adm_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f);
std::unique_ptr<Extractor> make_psnr_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f);
std::unique_ptr<Extractor> make_ssim_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f);
std::unique_ptr<Extractor> make_float_ssim_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f);
std::unique_ptr<Extractor> make_float_ms_ssim_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f);

}  // namespace vmafx::cuda
