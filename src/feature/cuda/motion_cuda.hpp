// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the integer motion twin (motion.cu).
#include <cuda_runtime.h>

#include <cstdint>

namespace vmafx::cuda::motion {

// Adds sum over the picture of |Y(X(prev - cur))| (the CPU's motion::sad) to
// *total. Each row's sum wraps in 32 bits as the CPU's. prev/cur: luma with a
// row stride of `stride` samples (uint8_t when bpc == 8, else uint16_t).
// `row_sums` has room for h uint32 values. Asynchronous on `s`.
void launch_sad(const void* prev, const void* cur, std::ptrdiff_t stride, int w, int h, int bpc,
                std::uint32_t* row_sums, unsigned long long* total, cudaStream_t s);

}  // namespace vmafx::cuda::motion
