// SPDX-License-Identifier: BSD-3-Clause
// Integer motion SAD on the device. Integer arithmetic only, so the result is
// the CPU's whatever the order: each row's |filtered difference| sum wraps in
// 32 bits (as the CPU's uint32 row_sum), the rows add up in 64 bits.
#include "feature/cuda/block_sum.cuh"
#include "feature/cuda/motion_cuda.hpp"
#include "feature/motion_tables.h"

namespace vmafx::cuda::motion {
namespace {

constexpr int kTile = 256;  // columns per block
constexpr int kR = VMAFX_MOTION_RADIUS;

struct Taps {
  int t[VMAFX_MOTION_TAPS];
};

__device__ __forceinline__ int reflect(int i, int n) {
  if (i < 0) i = -i;
  if (i >= n) i = 2 * n - i - 2;
  return i;
}

// One block: one row, kTile columns. The vertical pass (on the difference,
// with the bit-depth rounding) for the columns and a 2-column halo goes to
// shared memory, then the horizontal pass, |.|, and a 32-bit row sum.
template <class T, class Acc>
__global__ void sad_kernel(const T* __restrict__ prev, const T* __restrict__ cur, std::ptrdiff_t stride, int w, int h,
                           int shift, Taps taps, std::uint32_t* __restrict__ row_sums) {
  __shared__ int v[kTile + 2 * kR];
  const int i = blockIdx.y;
  const int x0 = blockIdx.x * kTile;
  const Acc y_round = Acc(1) << (shift - 1);
  std::ptrdiff_t rows[VMAFX_MOTION_TAPS];
#pragma unroll
  for (int k = 0; k < VMAFX_MOTION_TAPS; ++k) rows[k] = std::ptrdiff_t(reflect(i - kR + k, h)) * stride;
  for (int c = threadIdx.x; c < kTile + 2 * kR; c += blockDim.x) {
    int x = x0 - kR + c;
    x = reflect(x, w);
    if (x < 0) x = 0;
    if (x >= w) x = w - 1;  // only outside the picture, never used
    Acc acc = 0;
#pragma unroll
    for (int k = 0; k < VMAFX_MOTION_TAPS; ++k)
      acc += Acc(taps.t[k]) * Acc(int(prev[rows[k] + x]) - int(cur[rows[k] + x]));
    v[c] = int((acc + y_round) >> shift);
  }
  __syncthreads();
  std::uint32_t sum = 0;
  const int j = x0 + threadIdx.x;
  if (j < w) {
    long long acc = 0;
#pragma unroll
    for (int k = 0; k < VMAFX_MOTION_TAPS; ++k) {
      // Columns j-2..j+2 reflected at the picture edges, read from the tile.
      const int x = reflect(j - kR + k, w);
      acc += (long long)taps.t[k] * v[x - x0 + kR];
    }
    const int r = int((acc + VMAFX_MOTION_X_ROUND) >> VMAFX_MOTION_X_SHIFT);
    sum = std::uint32_t(r < 0 ? -r : r);
  }
  // Block sum (mod 2^32, as the CPU's row sum).
  const std::uint32_t s = block_sum(sum);
  if (threadIdx.x == 0) atomicAdd(&row_sums[i], s);
}

}  // namespace

void launch_sad(const void* prev, const void* cur, std::ptrdiff_t stride, int w, int h, int bpc,
                std::uint32_t* row_sums, unsigned long long* total, cudaStream_t s) {
  Taps taps;
  for (int k = 0; k < VMAFX_MOTION_TAPS; ++k) taps.t[k] = vmafx_motion_taps[k];
  cudaMemsetAsync(row_sums, 0, sizeof(std::uint32_t) * std::size_t(h), s);
  const dim3 grid((w + kTile - 1) / kTile, h);
  // The taps fit the reflection only when the tile covers the halo: w >= 3.
  if (bpc == 8)
    sad_kernel<std::uint8_t, int><<<grid, kTile, 0, s>>>(
        static_cast<const std::uint8_t*>(prev), static_cast<const std::uint8_t*>(cur), stride, w, h, 8, taps, row_sums);
  else
    sad_kernel<std::uint16_t, long long><<<grid, kTile, 0, s>>>(static_cast<const std::uint16_t*>(prev),
                                                                static_cast<const std::uint16_t*>(cur), stride, w, h,
                                                                bpc, taps, row_sums);
  total_of_rows_kernel<<<1, 1024, 0, s>>>(row_sums, h, total);
}

}  // namespace vmafx::cuda::motion
