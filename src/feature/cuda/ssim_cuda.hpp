// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the integer SSIM twin (ssim.cu).
#include <cuda_runtime.h>

#include <cstddef>

namespace vmafx::cuda::ssim {

// Writes the CPU's per-pixel SSIM term (the double it adds, in raster order,
// to its sum) of every pixel to terms[y * w + x]. stride in samples.
// Asynchronous on `s`.
void launch_terms(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, double* terms,
                  cudaStream_t s);

}  // namespace vmafx::cuda::ssim
