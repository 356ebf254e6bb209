// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Block-wide integer sums shared by the CUDA twins whose device results are
// row sums (motion's SAD, psnr's SSE). Integer additions only: any order
// gives the CPU's value, modulo 2^32 where the sum's type is 32 bits, as the
// CPU's wrapping row sums.
#include <cstdint>

namespace vmafx::cuda {

// The sum of `v` over the block (blockDim.x a multiple of 32, at most 1024),
// valid in thread 0; once per kernel (the shared scratch is not re-synced).
template <class T>
__device__ __forceinline__ T block_sum(T v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  __shared__ T warp[32];
  if ((threadIdx.x & 31) == 0) warp[threadIdx.x >> 5] = v;
  __syncthreads();
  T t = 0;
  if (threadIdx.x == 0)
    for (int k = 0; k < int(blockDim.x >> 5); ++k) t += warp[k];
  return t;
}

namespace {
// One block: the 64-bit total of h 32-bit row sums (a copy per .cu file).
__global__ void total_of_rows_kernel(const std::uint32_t* __restrict__ row_sums, int h, unsigned long long* total) {
  unsigned long long s = 0;
  for (int i = threadIdx.x; i < h; i += blockDim.x) s += row_sums[i];
  s = block_sum(s);
  if (threadIdx.x == 0) *total = s;
}
}  // namespace

}  // namespace vmafx::cuda
