// SPDX-License-Identifier: BSD-3-Clause
// Integer PSNR's sum of squared differences on the device (exact/psnr.h):
// each 8-bit row's sum wraps in 32 bits as the CPU's (modular addition is
// order-free), the rows add up in 64 bits.
#include <type_traits>

#include "exact/psnr.h"
#include "feature/cuda/block_sum.cuh"
#include "feature/cuda/psnr_cuda.hpp"

namespace vmafx::cuda::psnr {
namespace {

constexpr int kTile = 256;

template <class T>
__global__ void __launch_bounds__(kTile)
    sse_kernel(const T* __restrict__ ref, const T* __restrict__ dis, std::ptrdiff_t stride, int w,
               std::uint32_t* __restrict__ row_sums, unsigned long long* __restrict__ total) {
  const int y = blockIdx.y;
  const int x = blockIdx.x * kTile + threadIdx.x;
  using Sum = typename std::conditional<sizeof(T) == 1, std::uint32_t, unsigned long long>::type;
  Sum v = 0;
  if (x < w) v = Sum(vmafx_psnr_sq_err(ref[std::ptrdiff_t(y) * stride + x], dis[std::ptrdiff_t(y) * stride + x]));
  const Sum t = block_sum(v);
  if (threadIdx.x == 0) {
    if (sizeof(T) == 1)
      atomicAdd(&row_sums[y], std::uint32_t(t));
    else
      atomicAdd(total, (unsigned long long)t);
  }
}

}  // namespace

void launch_sse(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, std::uint32_t* row_sums,
                unsigned long long* total, cudaStream_t s) {
  const dim3 grid((w + kTile - 1) / kTile, h);
  if (bpc == 8) {
    cudaMemsetAsync(row_sums, 0, sizeof(std::uint32_t) * std::size_t(h), s);
    sse_kernel<std::uint8_t><<<grid, kTile, 0, s>>>(static_cast<const std::uint8_t*>(ref),
                                                    static_cast<const std::uint8_t*>(dis), stride, w, row_sums, total);
    total_of_rows_kernel<<<1, 1024, 0, s>>>(row_sums, h, total);
  } else {
    cudaMemsetAsync(total, 0, sizeof(unsigned long long), s);
    sse_kernel<std::uint16_t><<<grid, kTile, 0, s>>>(
        static_cast<const std::uint16_t*>(ref), static_cast<const std::uint16_t*>(dis), stride, w, row_sums, total);
  }
}

}  // namespace vmafx::cuda::psnr
