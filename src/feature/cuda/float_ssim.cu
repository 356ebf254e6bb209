// SPDX-License-Identifier: BSD-3-Clause
// The float SSIM family on the device (see float_ssim_cuda.hpp): one thread a
// position around exact/ssim_fp64.h, the CPU's float/double operations
// (--fmad=false).
#include <cstdint>

#include "exact/ssim_fp64.h"
#include "feature/cuda/float_ssim_cuda.hpp"

namespace vmafx::cuda::fssim {
namespace {

constexpr int kTaps = VMAFX_SSIM_GAUSS_TAPS;
constexpr int kLpf = VMAFX_MS_SSIM_LPF_TAPS;
__constant__ float c_gauss[kTaps] = VMAFX_SSIM_GAUSS_INIT;
__constant__ float c_lpf[kLpf * kLpf] = VMAFX_MS_SSIM_LPF_INIT;

template <class T>
__global__ void to_float_kernel(const T* __restrict__ src, std::ptrdiff_t stride, int w, int h, float scaler,
                                float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  const float v = static_cast<float>(src[std::ptrdiff_t(y) * stride + x]);
  dst[std::ptrdiff_t(y) * w + x] = sizeof(T) == 1 ? v : v / scaler;
}

__global__ void box_kernel(const float* __restrict__ src, int w, int h, int factor, float tap, int sw, int sh,
                           float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= sw || y >= sh) return;
  dst[std::ptrdiff_t(y) * sw + x] = vmafx_fssim_filter_at(src, w, h, x * factor, y * factor, nullptr, tap, factor);
}

__global__ void lpf_kernel(const float* __restrict__ src, int w, int h, int sw, int sh, float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= sw || y >= sh) return;
  dst[std::ptrdiff_t(y) * sw + x] = vmafx_fssim_filter_at(src, w, h, 2 * x, 2 * y, c_lpf, 0.0f, kLpf);
}

// Horizontal pass: five moments of every row at the dw window positions.
__global__ void horizontal_kernel(const float* __restrict__ ref, const float* __restrict__ cmp, int w, int h,
                                  float* __restrict__ mom) {
  const int dw = w - (kTaps - 1);
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= dw) return;
  const std::size_t plane = std::size_t(dw) * std::size_t(h);
  vmafx_fssim_horizontal(ref + std::ptrdiff_t(y) * w + x, cmp + std::ptrdiff_t(y) * w + x, c_gauss,
                         mom + std::size_t(y) * std::size_t(dw) + std::size_t(x), plane);
}

__global__ void vertical_kernel(const float* __restrict__ mom, int w, int h, vmafx_fssim_consts k,
                                double* __restrict__ lcs, double* __restrict__ lo, double* __restrict__ co,
                                double* __restrict__ so, bool parts) {
  const int dw = w - (kTaps - 1), dh = h - (kTaps - 1);
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= dw || y >= dh) return;
  const std::size_t plane = std::size_t(dw) * std::size_t(h);
  double acc[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
#pragma unroll
  for (int v = 0; v < kTaps; ++v) {
    const float g = c_gauss[v];
    const std::size_t i = std::size_t(y + v) * std::size_t(dw) + std::size_t(x);
#pragma unroll
    for (int m = 0; m < 5; ++m) acc[m] += mom[m * plane + i] * g;
  }
  const vmafx_fssim_terms t = vmafx_fssim_pixel(acc, 1, k);
  const std::size_t o = std::size_t(y) * std::size_t(dw) + std::size_t(x);
  if (lcs) lcs[o] = t.lcs;
  if (parts) {
    lo[o] = t.l;
    co[o] = t.c;
    so[o] = t.s;
  }
}

constexpr int kRow = 128;

}  // namespace

void to_float(const void* luma, std::ptrdiff_t stride, int w, int h, int bpc, float* dst, cudaStream_t s) {
  const dim3 grid((w + kRow - 1) / kRow, h);
  if (bpc == 8) {
    to_float_kernel<std::uint8_t>
        <<<grid, kRow, 0, s>>>(static_cast<const std::uint8_t*>(luma), stride, w, h, 1.0f, dst);
  } else {
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    to_float_kernel<std::uint16_t>
        <<<grid, kRow, 0, s>>>(static_cast<const std::uint16_t*>(luma), stride, w, h, scaler, dst);
  }
}

void decimate_box(const float* src, int w, int h, int factor, float* dst, cudaStream_t s) {
  const int sw = vmafx::ssim::decimated_size(w, factor), sh = vmafx::ssim::decimated_size(h, factor);
  const float tap = 1.0f / static_cast<float>(factor * factor);
  box_kernel<<<dim3((sw + kRow - 1) / kRow, sh), kRow, 0, s>>>(src, w, h, factor, tap, sw, sh, dst);
}

void decimate_lpf(const float* src, int w, int h, float* dst, cudaStream_t s) {
  const int sw = vmafx::ssim::decimated_size(w, 2), sh = vmafx::ssim::decimated_size(h, 2);
  lpf_kernel<<<dim3((sw + kRow - 1) / kRow, sh), kRow, 0, s>>>(src, w, h, sw, sh, dst);
}

void terms(const float* ref, const float* cmp, int w, int h, float* moments, double* lcs, double* l, double* c,
           double* sv, bool parts, cudaStream_t s) {
  const int dw = w - (kTaps - 1), dh = h - (kTaps - 1);
  horizontal_kernel<<<dim3((dw + kRow - 1) / kRow, h), kRow, 0, s>>>(ref, cmp, w, h, moments);
  const vmafx_fssim_consts k = vmafx_fssim_constants();
  vertical_kernel<<<dim3((dw + kRow - 1) / kRow, dh), kRow, 0, s>>>(moments, w, h, k, lcs, l, c, sv, parts);
}

vmafx::ssim::SsimMeans sum_means(const double* lcs, const double* l, const double* c, const double* s, std::size_t n) {
  double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (lcs) ssim_sum += lcs[i];
    if (l) {
      l_sum += l[i];
      c_sum += c[i];
      s_sum += s[i];
    }
  }
  const double dn = static_cast<double>(n);
  vmafx::ssim::SsimMeans m;
  m.ssim = static_cast<float>(ssim_sum / dn);
  m.l = static_cast<float>(l_sum / dn);
  m.c = static_cast<float>(c_sum / dn);
  m.s = static_cast<float>(s_sum / dn);
  return m;
}

}  // namespace vmafx::cuda::fssim
