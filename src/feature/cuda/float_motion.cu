// SPDX-License-Identifier: BSD-3-Clause
// The float_motion twin's kernels (see float_motion_cuda.hpp): one thread an
// output around exact/float_motion.h (--fmad=false).
#include <cstddef>

#include "exact/float_motion.h"
#include "feature/cuda/float_motion_cuda.hpp"

namespace vmafx::cuda::fmotion {
namespace {

constexpr int kRow = 128;

__global__ void vertical_kernel(const float* __restrict__ f, int fw, const float* __restrict__ src, int w, int h,
                                float* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= w) return;
  dst[std::ptrdiff_t(i) * w + j] = vmafx_fmotion_taps(src + j, std::size_t(w), h, i, f, fw, 0);
}

__global__ void horizontal_kernel(const float* __restrict__ f, int fw, const float* __restrict__ src, int w,
                                  float* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= w) return;
  dst[std::ptrdiff_t(i) * w + j] = vmafx_fmotion_taps(src + std::ptrdiff_t(i) * w, 1, w, j, f, fw, 0);
}

__global__ void rows_kernel(const float* __restrict__ a, const float* __restrict__ b, int w, int h,
                            float* __restrict__ rows) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= h) return;
  rows[i] = vmafx_fmotion_row_sad(a + std::ptrdiff_t(i) * w, b + std::ptrdiff_t(i) * w, w);
}

}  // namespace

void blur(const float* f, int fw, const float* src, int w, int h, float* tmp, float* dst, cudaStream_t s) {
  const dim3 grid((w + kRow - 1) / kRow, h);
  vertical_kernel<<<grid, kRow, 0, s>>>(f, fw, src, w, h, tmp);
  horizontal_kernel<<<grid, kRow, 0, s>>>(f, fw, tmp, w, dst);
}

void abs_diff_rows(const float* a, const float* b, int w, int h, float* rows, cudaStream_t s) {
  rows_kernel<<<(h + kRow - 1) / kRow, kRow, 0, s>>>(a, b, w, h, rows);
}

}  // namespace vmafx::cuda::fmotion
