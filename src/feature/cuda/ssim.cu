// SPDX-License-Identifier: BSD-3-Clause
// Integer SSIM (feature/ssim.cpp) on the device: the window moments and each
// pixel's term are exact/ssim.h's and ssim_fp64.h's (--fmad=false). The
// terms go back to the host, which adds them in raster order as the CPU does.
#include <cstdint>

#include "feature/cuda/ssim_cuda.hpp"
#include "exact/ssim_fp64.h"

namespace vmafx::cuda::ssim {
namespace {

constexpr int kR = VMAFX_SSIM_TAP_RADIUS;
constexpr int TX = 32, TY = 8, kThreads = TX * TY;

struct Taps {
  int t[VMAFX_SSIM_TAP_COUNT];
};

// One block: the horizontal moments of rows y0-R .. y0+TY+R-1 in shared
// memory, then each thread's vertical moments and term.
template <class T>
__global__ void __launch_bounds__(kThreads)
    terms_kernel(const T* __restrict__ ref, const T* __restrict__ dis, std::ptrdiff_t stride, int w, int h, double max2,
                 Taps taps, double* __restrict__ out) {
  __shared__ vmafx_issim_moments hm[TY + 2 * kR][TX];
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
  const int tid = threadIdx.x;
  for (int q = tid; q < (TY + 2 * kR) * TX; q += kThreads) {
    const int r = q / TX, c = q % TX;
    const int y = y0 - kR + r, x = x0 + c;
    vmafx_issim_moments m = vmafx_issim_zero();
    if (y >= 0 && y < h && x < w) {
      const T* a = ref + std::ptrdiff_t(y) * stride;
      const T* b = dis + std::ptrdiff_t(y) * stride;
      for (int k = vmafx_issim_klo(x), k_hi = vmafx_issim_khi(x, w); k < k_hi; ++k)
        vmafx_issim_add_sample(&m, taps.t[k], a[x - kR + k], b[x - kR + k]);
    }
    hm[r][c] = m;
  }
  __syncthreads();
  const int c = tid % TX, ty = tid / TX;
  const int x = x0 + c, y = y0 + ty;
  if (x >= w || y >= h) return;
  vmafx_issim_moments m = vmafx_issim_zero();
  for (int k = vmafx_issim_klo(y), k_hi = vmafx_issim_khi(y, h); k < k_hi; ++k)
    vmafx_issim_add_row(&m, taps.t[k], hm[ty + k][c]);
  out[std::ptrdiff_t(y) * w + x] = vmafx_issim_term(m, max2);
}

}  // namespace

void launch_terms(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, double* terms,
                  cudaStream_t s) {
  Taps taps;
  for (int k = 0; k < VMAFX_SSIM_TAP_COUNT; ++k) taps.t[k] = vmafx_issim_taps[k];
  const long long sample_max = (1ll << bpc) - 1;
  const double max2 = static_cast<double>(sample_max * sample_max);
  const dim3 grid((w + TX - 1) / TX, (h + TY - 1) / TY);
  if (bpc > 8)
    terms_kernel<std::uint16_t><<<grid, kThreads, 0, s>>>(static_cast<const std::uint16_t*>(ref),
                                                          static_cast<const std::uint16_t*>(dis), stride, w, h, max2,
                                                          taps, terms);
  else
    terms_kernel<std::uint8_t><<<grid, kThreads, 0, s>>>(
        static_cast<const std::uint8_t*>(ref), static_cast<const std::uint8_t*>(dis), stride, w, h, max2, taps, terms);
}

}  // namespace vmafx::cuda::ssim
