// SPDX-License-Identifier: BSD-3-Clause
// The float_motion twin's kernels (see float_motion_cuda.hpp).
#include <cstddef>

#include "feature/cuda/float_motion_cuda.hpp"

namespace vmafx::cuda::fmotion {
namespace {

constexpr int kRow = 128;

__device__ __forceinline__ int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

__global__ void vertical_kernel(const float* __restrict__ f, int fw, const float* __restrict__ src, int w, int h,
                                float* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= w) return;
  const int r = fw / 2;
  float acc = 0.0f;
  for (int k = 0; k < fw; ++k) acc += f[k] * src[std::ptrdiff_t(mirror(i - r + k, h)) * w + j];
  dst[std::ptrdiff_t(i) * w + j] = acc;
}

__global__ void horizontal_kernel(const float* __restrict__ f, int fw, const float* __restrict__ src, int w,
                                  float* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= w) return;
  const int r = fw / 2;
  const float* row = src + std::ptrdiff_t(i) * w;
  float acc = 0.0f;
  for (int k = 0; k < fw; ++k) acc += f[k] * row[mirror(j - r + k, w)];
  dst[std::ptrdiff_t(i) * w + j] = acc;
}

__global__ void rows_kernel(const float* __restrict__ a, const float* __restrict__ b, int w, int h,
                            float* __restrict__ rows) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= h) return;
  const float* ra = a + std::ptrdiff_t(i) * w;
  const float* rb = b + std::ptrdiff_t(i) * w;
  float line = 0.0f;
  for (int j = 0; j < w; ++j) line += fabsf(ra[j] - rb[j]);
  rows[i] = line;
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
