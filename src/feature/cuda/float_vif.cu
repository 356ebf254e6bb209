// SPDX-License-Identifier: BSD-3-Clause
// The float_vif twin's kernels (see float_vif_cuda.hpp): loops around
// exact/float_vif.h (the moments' taps, the statistic), plain IEEE float and
// double arithmetic compiled with --fmad=false: each product is rounded
// before it is added, every float sum runs from 0 in the reference's tap
// order, and the mirrored borders are the reference's.
#include <cstdint>
#include <cstring>

#include "feature/cuda/float_vif_cuda.hpp"

namespace vmafx::cuda::fvif {
namespace {

constexpr int kRow = 128;

template <class T>
__global__ void to_float_kernel(const T* __restrict__ src, std::ptrdiff_t stride, int w, float scaler,
                                float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  const float v = static_cast<float>(src[std::ptrdiff_t(y) * stride + x]);
  dst[std::ptrdiff_t(y) * w + x] = (sizeof(T) == 1 ? v : v / scaler) + -128.0f;
}

// Vertical pass at the even rows: tmp[i * w + j], i < h / 2.
__global__ void vdec_kernel(const float* __restrict__ f, int fw, const float* __restrict__ src, int w, int h,
                            float* __restrict__ tmp) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= w) return;
  const int r = fw / 2;
  float acc = 0.0f;
  for (int k = 0; k < fw; ++k) acc += f[k] * src[std::ptrdiff_t(vmafx_fvif_mirror(2 * i - r + k, h)) * w + j];
  tmp[std::ptrdiff_t(i) * w + j] = acc;
}

// Horizontal pass at the even columns: dst[i * dw + j].
__global__ void hdec_kernel(const float* __restrict__ f, int fw, const float* __restrict__ tmp, int w, int dw,
                            float* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= dw) return;
  const int r = fw / 2;
  const float* row = tmp + std::ptrdiff_t(i) * w;
  float acc = 0.0f;
  for (int k = 0; k < fw; ++k) acc += f[k] * row[vmafx_fvif_mirror(2 * j - r + k, w)];
  dst[std::ptrdiff_t(i) * dw + j] = acc;
}

// Vertical pass of the five moments: planes of w * h floats at m, m + n, ...
__global__ void vmom_kernel(const float* __restrict__ f, int fw, const float* __restrict__ ref,
                            const float* __restrict__ dis, int w, int h, float* __restrict__ m) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= w) return;
  const int r = fw / 2;
  float t[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  for (int k = 0; k < fw; ++k) {
    const std::ptrdiff_t off = std::ptrdiff_t(vmafx_fvif_mirror(i - r + k, h)) * w + j;
    vmafx_fvif_moments_tap(t, f[k], ref[off], dis[off], 0);
  }
  const std::size_t n = std::size_t(w) * std::size_t(h), o = std::size_t(i) * std::size_t(w) + std::size_t(j);
  for (int q = 0; q < 5; ++q) m[q * n + o] = t[q];
}

// Horizontal pass of the five moments and the statistic at (i, j).
__global__ void hstat_kernel(const float* __restrict__ f, int fw, const float* __restrict__ m, int w, int h,
                             StatConsts c, float* __restrict__ terms) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= w) return;
  const int r = fw / 2;
  const std::size_t n = std::size_t(w) * std::size_t(h);
  const float* row = m + std::size_t(i) * std::size_t(w);
  float v[5];
  for (int q = 0; q < 5; ++q) {
    const float* p = row + q * n;
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) acc += f[k] * p[vmafx_fvif_mirror(j - r + k, w)];
    v[q] = acc;
  }
  float num, den;
  vmafx_fvif_stat(v[0], v[1], v[2], v[3], v[4], &c, &num, &den);
  const std::size_t o = std::size_t(i) * std::size_t(w) + std::size_t(j);
  terms[o] = num;
  terms[n + o] = den;
}

// Each row's float totals, in column order.
__global__ void rows_kernel(const float* __restrict__ terms, int w, int h, float* __restrict__ rows) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= h) return;
  const std::size_t n = std::size_t(w) * std::size_t(h);
  const float* a = terms + std::size_t(i) * std::size_t(w);
  rows[i] = vmafx_fsum(a, w);
  rows[h + i] = vmafx_fsum(a + n, w);
}

}  // namespace

void to_float(const void* luma, std::ptrdiff_t stride, int w, int h, int bpc, float* dst, cudaStream_t s) {
  const dim3 grid((w + kRow - 1) / kRow, h);
  if (bpc == 8) {
    to_float_kernel<std::uint8_t><<<grid, kRow, 0, s>>>(static_cast<const std::uint8_t*>(luma), stride, w, 1.0f, dst);
  } else {
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    to_float_kernel<std::uint16_t>
        <<<grid, kRow, 0, s>>>(static_cast<const std::uint16_t*>(luma), stride, w, scaler, dst);
  }
}

void filter_dec2(const float* f, int fw, const float* src, int w, int h, float* tmp, float* dst, cudaStream_t s) {
  const int dw = w / 2, dh = h / 2;
  vdec_kernel<<<dim3((w + kRow - 1) / kRow, dh), kRow, 0, s>>>(f, fw, src, w, h, tmp);
  hdec_kernel<<<dim3((dw + kRow - 1) / kRow, dh), kRow, 0, s>>>(f, fw, tmp, w, dw, dst);
}

void statistic(const float* f, int fw, const float* ref, const float* dis, int w, int h, const StatConsts& c,
               float* moments, float* terms, float* rows, cudaStream_t s) {
  const dim3 grid((w + kRow - 1) / kRow, h);
  vmom_kernel<<<grid, kRow, 0, s>>>(f, fw, ref, dis, w, h, moments);
  hstat_kernel<<<grid, kRow, 0, s>>>(f, fw, moments, w, h, c, terms);
  rows_kernel<<<(h + kRow - 1) / kRow, kRow, 0, s>>>(terms, w, h, rows);
}

}  // namespace vmafx::cuda::fvif
