// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the psnr_hvs CUDA twin (psnr_hvs.cu).
#include <cuda_runtime.h>

#include <cstddef>

namespace vmafx::cuda::hvs {

// A plane's 8x8 mask and CSF tables (row-major), passed by value.
struct Tables {
  float mask[64], csf[64];
};

// terms[(by * nbx + bx) * 64 + k]: block (bx, by)'s 64 terms. stride in
// samples. Asynchronous on `s`.
void launch_blocks(const void* ref, const void* dis, std::ptrdiff_t stride, int nbx, int nby, int bpc,
                   const Tables& tables, float var63, float var15, float* terms, cudaStream_t s);

}  // namespace vmafx::cuda::hvs
