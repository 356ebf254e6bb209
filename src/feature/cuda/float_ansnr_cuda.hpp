// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the float_ansnr CUDA twin (float_ansnr.cu).
#include <cuda_runtime.h>

#include <cstddef>

namespace vmafx::cuda::fansnr {

// The 3x3 reference taps, then the 5x5 distorted ones (row-major).
struct Taps {
  float t[34];
};

// rows[2y], rows[2y + 1] = row y's float sums of signal and noise, in the
// reference's order; rf, df: w x h scratch. stride in samples. Asynchronous.
void launch(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, const Taps& taps, float* rf,
            float* df, float* rows, cudaStream_t s);

}  // namespace vmafx::cuda::fansnr
