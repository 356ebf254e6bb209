// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the integer PSNR twin (psnr.cu).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace vmafx::cuda::psnr {

// *total = the CPU's psnr::sse of one plane: 8-bit rows summed in 32 bits
// (wrapping as the CPU's), 16-bit rows in 64. `row_sums` has room for h
// values. stride in samples. Asynchronous on `s`.
void launch_sse(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, std::uint32_t* row_sums,
                unsigned long long* total, cudaStream_t s);

}  // namespace vmafx::cuda::psnr
