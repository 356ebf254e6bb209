// SPDX-License-Identifier: BSD-3-Clause
// Integer motion SAD on the device (exact/motion.h). Integer arithmetic only,
// so the result is the CPU's whatever the order: each row's |filtered difference| sum wraps in
// 32 bits (as the CPU's uint32 row_sum), the rows add up in 64 bits.
#include "feature/cuda/block_sum.cuh"
#include "feature/cuda/motion_cuda.hpp"
#include "exact/motion.h"

namespace vmafx::cuda::motion {
namespace {

constexpr int kTile = 256;  // columns per block
constexpr int kR = VMAFX_MOTION_RADIUS;

// One block: one row, kTile columns. The vertical pass (on the difference,
// with the bit-depth rounding) for the columns and a 2-column halo goes to
// shared memory, then the horizontal pass, |.|, and a 32-bit row sum.
template <class T>
__global__ void sad_kernel(const T* __restrict__ prev, const T* __restrict__ cur, std::ptrdiff_t stride, int w, int h,
                           int shift, std::uint32_t* __restrict__ row_sums) {
  __shared__ int v[kTile + 2 * kR];
  const int i = blockIdx.y;
  const int x0 = blockIdx.x * kTile;
  std::ptrdiff_t rows[VMAFX_MOTION_TAPS];
#pragma unroll
  for (int k = 0; k < VMAFX_MOTION_TAPS; ++k) rows[k] = std::ptrdiff_t(vmafx_motion_reflect(i - kR + k, h)) * stride;
  for (int c = threadIdx.x; c < kTile + 2 * kR; c += blockDim.x) {
    int x = vmafx_motion_reflect(x0 - kR + c, w);
    if (x < 0) x = 0;
    if (x >= w) x = w - 1;  // only outside the picture, never used
    const auto d = [&](int k) { return int(prev[rows[k] + x]) - int(cur[rows[k] + x]); };
    v[c] = vmafx_motion_y_value(vmafx_motion_filter5(d(0), d(1), d(2), d(3), d(4)), shift);
  }
  __syncthreads();
  std::uint32_t sum = 0;
  const int j = x0 + threadIdx.x;
  if (j < w) {
    // Columns j-2..j+2 reflected at the picture edges, read from the tile.
    const auto y = [&](int k) { return v[vmafx_motion_reflect(j - kR + k, w) - x0 + kR]; };
    sum = vmafx_motion_x_abs(vmafx_motion_filter5(y(0), y(1), y(2), y(3), y(4)));
  }
  // Block sum (mod 2^32, as the CPU's row sum).
  const std::uint32_t s = block_sum(sum);
  if (threadIdx.x == 0) atomicAdd(&row_sums[i], s);
}

}  // namespace

void launch_sad(const void* prev, const void* cur, std::ptrdiff_t stride, int w, int h, int bpc,
                std::uint32_t* row_sums, unsigned long long* total, cudaStream_t s) {
  cudaMemsetAsync(row_sums, 0, sizeof(std::uint32_t) * std::size_t(h), s);
  const dim3 grid((w + kTile - 1) / kTile, h);
  // The taps fit the reflection only when the tile covers the halo: w >= 3.
  if (bpc == 8)
    sad_kernel<std::uint8_t><<<grid, kTile, 0, s>>>(static_cast<const std::uint8_t*>(prev),
                                                    static_cast<const std::uint8_t*>(cur), stride, w, h, 8, row_sums);
  else
    sad_kernel<std::uint16_t><<<grid, kTile, 0, s>>>(
        static_cast<const std::uint16_t*>(prev), static_cast<const std::uint16_t*>(cur), stride, w, h, bpc, row_sums);
  total_of_rows_kernel<<<1, 1024, 0, s>>>(row_sums, h, total);
}

}  // namespace vmafx::cuda::motion
