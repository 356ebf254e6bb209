// SPDX-License-Identifier: BSD-3-Clause
// float_ansnr on the device: the reference's float operations in its order,
// the 2-D filters (each kernel row summed in float, then the rows) and per
// row the sequential float sums of signal and noise. Built with
// --fmad=false; no float here is subnormal (see opencl/float_ansnr.cl).
#include <cstddef>
#include <cstdint>

#include "feature/cuda/float_ansnr_cuda.hpp"

namespace vmafx::cuda::fansnr {
namespace {

__device__ __forceinline__ int reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 1 : i); }

template <class T>
__device__ __forceinline__ float sample(const T* p, std::ptrdiff_t stride, int x, int y, float inv_scale) {
  const float v = float(p[std::ptrdiff_t(y) * stride + x]);
  return (sizeof(T) == 1 ? v : v * inv_scale) + -128.0f;
}

template <class T>
__device__ __forceinline__ float filter(const T* p, std::ptrdiff_t stride, int w, int h, int x, int y, float inv_scale,
                                        const float* k, int fw) {
  const int r = fw / 2;
  float acc = 0.0f;
  for (int a = 0; a < fw; ++a) {
    const int yy = reflect(y - r + a, h);
    float inner = 0.0f;
    for (int b = 0; b < fw; ++b) inner += k[a * fw + b] * sample(p, stride, reflect(x - r + b, w), yy, inv_scale);
    acc += inner;
  }
  return acc;
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
  const float* a = rf + std::size_t(y) * w;
  const float* b = df + std::size_t(y) * w;
  float sig = 0.0f, noise = 0.0f;
  for (int j = 0; j < w; ++j) {
    sig += a[j] * a[j];
    const float d = a[j] - b[j];
    noise += d * d;
  }
  out[2 * y] = sig;
  out[2 * y + 1] = noise;
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
