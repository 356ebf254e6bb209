// SPDX-License-Identifier: BSD-3-Clause
// float_ansnr on the device: loops around exact/float_ansnr.h (the 2-D
// filters, each kernel row summed in float, then the rows; per row the
// sequential float sums of signal and noise), the reference's float
// operations in its order. Built with --fmad=false.
#include <cstddef>
#include <cstdint>

#include "exact/float_ansnr.h"
#include "feature/cuda/float_ansnr_cuda.hpp"

namespace vmafx::cuda::fansnr {
namespace {

template <class T>
__device__ __forceinline__ float sample(const T* p, std::ptrdiff_t stride, int x, int y, float inv_scale) {
  const float v = float(p[std::ptrdiff_t(y) * stride + x]);
  return (sizeof(T) == 1 ? v : v * inv_scale) + -128.0f;
}

template <class T>
__device__ __forceinline__ float filter(const T* p, std::ptrdiff_t stride, int w, int h, int x, int y, float inv_scale,
                                        const float* k, int fw) {
  const int r = fw / 2;
  float win[25];
  for (int a = 0; a < fw; ++a)
    for (int b = 0; b < fw; ++b)
      win[a * fw + b] =
          sample(p, stride, vmafx_fansnr_reflect(x - r + b, w), vmafx_fansnr_reflect(y - r + a, h), inv_scale);
  return vmafx_fansnr_filter(k, win, fw);
}

template <class T>
__global__ void filter_kernel(const T* __restrict__ ref, const T* __restrict__ dis, std::ptrdiff_t stride, int w, int h,
                              float inv_scale, Taps taps, float* __restrict__ rf, float* __restrict__ df) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  rf[std::size_t(y) * w + x] = filter(ref, stride, w, h, x, y, inv_scale, taps.t, 3);
  df[std::size_t(y) * w + x] = filter(dis, stride, w, h, x, y, inv_scale, taps.t + 9, 5);
}

__global__ void rows_kernel(const float* __restrict__ rf, const float* __restrict__ df, int w, int h,
                            float* __restrict__ out) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= h) return;
  vmafx_fansnr_row(rf + std::size_t(y) * w, df + std::size_t(y) * w, w, out + 2 * y, out + 2 * y + 1);
}

}  // namespace

void launch(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, const Taps& taps, float* rf,
            float* df, float* rows, cudaStream_t s) {
  const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  const float inv = 1.0f / float(1 << (bpc - 8));  // a power of two: exact
  if (bpc == 8)
    filter_kernel<std::uint8_t><<<grid, block, 0, s>>>(
        static_cast<const std::uint8_t*>(ref), static_cast<const std::uint8_t*>(dis), stride, w, h, inv, taps, rf, df);
  else
    filter_kernel<std::uint16_t><<<grid, block, 0, s>>>(static_cast<const std::uint16_t*>(ref),
                                                        static_cast<const std::uint16_t*>(dis), stride, w, h, inv, taps,
                                                        rf, df);
  rows_kernel<<<(h + 63) / 64, 64, 0, s>>>(rf, df, w, h, rows);
}

}  // namespace vmafx::cuda::fansnr
