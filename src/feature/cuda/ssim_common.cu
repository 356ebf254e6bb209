// SPDX-License-Identifier: BSD-3-Clause
// The float SSIM family on the device (see ssim_common_cuda.hpp). Plain IEEE
// float/double arithmetic with --fmad=false: each product float * float is
// rounded to float and added to a double, sums rounded to float with
// (float)(sum * 1.0f), exactly as the CPU reference writes them.
#include <cmath>
#include <cstdint>

#include "feature/cuda/ssim_common_cuda.hpp"
#include "exact/ssim_tables.h"

namespace vmafx::cuda::fssim {
namespace {

constexpr int kTaps = VMAFX_SSIM_GAUSS_TAPS;
constexpr int kLpf = VMAFX_MS_SSIM_LPF_TAPS;
__constant__ float c_gauss[kTaps] = VMAFX_SSIM_GAUSS_INIT;
__constant__ float c_lpf[kLpf * kLpf] = VMAFX_MS_SSIM_LPF_INIT;

__device__ __forceinline__ int mirror(int i, int n) {
  if (i < 0)
    i = -1 - i;
  else if (i >= n)
    i = 2 * n - i - 1;
  return i < 0 ? 0 : (i > n - 1 ? n - 1 : i);
}

template <class T>
__global__ void to_float_kernel(const T* __restrict__ src, std::ptrdiff_t stride, int w, int h, float scaler,
                                float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  const float v = static_cast<float>(src[std::ptrdiff_t(y) * stride + x]);
  dst[std::ptrdiff_t(y) * w + x] = sizeof(T) == 1 ? v : v / scaler;
}

// filter_at of the CPU: `taps` x `taps` kernel centred at (cx, cy), mirrored
// at the borders (the identity inside), double sum row by row, tap by tap.
__device__ __forceinline__ float filter_at(const float* img, int w, int h, int cx, int cy, const float* kernel,
                                           bool uniform, float tap, int taps) {
  const int lo = taps / 2;
  const int hi = lo - ((taps & 1) ? 0 : 1);
  double sum = 0.0;
  int k = 0;
  for (int v = -lo; v <= hi; ++v) {
    const float* row = img + std::ptrdiff_t(mirror(cy + v, h)) * w;
    for (int u = -lo; u <= hi; ++u, ++k) sum += row[mirror(cx + u, w)] * (uniform ? tap : kernel[k]);
  }
  return static_cast<float>(sum * 1.0f);
}

__global__ void box_kernel(const float* __restrict__ src, int w, int h, int factor, float tap, int sw, int sh,
                           float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= sw || y >= sh) return;
  dst[std::ptrdiff_t(y) * sw + x] = filter_at(src, w, h, x * factor, y * factor, nullptr, true, tap, factor);
}

__global__ void lpf_kernel(const float* __restrict__ src, int w, int h, int sw, int sh, float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= sw || y >= sh) return;
  dst[std::ptrdiff_t(y) * sw + x] = filter_at(src, w, h, 2 * x, 2 * y, c_lpf, false, 0.0f, kLpf);
}

// Horizontal pass: five moments of every row at the dw window positions.
__global__ void horizontal_kernel(const float* __restrict__ ref, const float* __restrict__ cmp, int w, int h,
                                  float* __restrict__ mom) {
  const int dw = w - (kTaps - 1);
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= dw) return;
  const float* a = ref + std::ptrdiff_t(y) * w;
  const float* b = cmp + std::ptrdiff_t(y) * w;
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;
#pragma unroll
  for (int u = 0; u < kTaps; ++u) {
    const float ra = a[x + u], cb = b[x + u], k = c_gauss[u];
    const float rr = ra * ra, cc = cb * cb, rc = ra * cb;
    s0 += ra * k;
    s1 += cb * k;
    s2 += rr * k;
    s3 += cc * k;
    s4 += rc * k;
  }
  const std::size_t plane = std::size_t(dw) * std::size_t(h);
  const std::size_t i = std::size_t(y) * std::size_t(dw) + std::size_t(x);
  mom[i] = static_cast<float>(s0 * 1.0f);
  mom[plane + i] = static_cast<float>(s1 * 1.0f);
  mom[2 * plane + i] = static_cast<float>(s2 * 1.0f);
  mom[3 * plane + i] = static_cast<float>(s3 * 1.0f);
  mom[4 * plane + i] = static_cast<float>(s4 * 1.0f);
}

struct Consts {
  float c1, c2, c3;
};

__global__ void vertical_kernel(const float* __restrict__ mom, int w, int h, Consts k, double* __restrict__ lcs,
                                double* __restrict__ lo, double* __restrict__ co, double* __restrict__ so, bool parts) {
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
  const float C1 = k.c1, C2 = k.c2, C3 = k.c3;
  const float mu_r = static_cast<float>(acc[0] * 1.0f);
  const float mu_c = static_cast<float>(acc[1] * 1.0f);
  float var_r = static_cast<float>(acc[2] * 1.0f);
  float var_c = static_cast<float>(acc[3] * 1.0f);
  float cov = static_cast<float>(acc[4] * 1.0f);
  var_r -= mu_r * mu_r;
  var_c -= mu_c * mu_c;
  if (0.0 > var_r) var_r = 0.0f;
  if (0.0 > var_c) var_c = 0.0f;
  cov -= mu_r * mu_c;
  const float sd_rc = static_cast<float>(sqrt(static_cast<double>(var_r * var_c)));
  const double l = (2.0 * mu_r * mu_c + C1) / (mu_r * mu_r + mu_c * mu_c + C1);
  const double c = (2.0 * sd_rc + C2) / (var_r + var_c + C2);
  const float cov_c = (cov < 0.0f && sd_rc <= 0.0f) ? 0.0f : cov;
  const double s = (cov_c + C3) / (sd_rc + C3);
  const std::size_t o = std::size_t(y) * std::size_t(dw) + std::size_t(x);
  if (lcs) lcs[o] = l * c * s;
  if (parts) {
    lo[o] = l;
    co[o] = c;
    so[o] = s;
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
  const float K1 = VMAFX_SSIM_K1, K2 = VMAFX_SSIM_K2;
  const int L = VMAFX_SSIM_L;
  Consts k;
  k.c1 = (K1 * L) * (K1 * L);
  k.c2 = (K2 * L) * (K2 * L);
  k.c3 = k.c2 / 2.0f;
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
