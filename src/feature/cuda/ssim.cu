// SPDX-License-Identifier: BSD-3-Clause
// Integer SSIM (feature/ssim.cpp) on the device: the window moments are 64-bit
// integer sums (order-free, so separable here), and each pixel's term is the
// CPU's double expression with the same operations in the same order (no
// contraction, IEEE division). The terms go back to the host, which adds
// them in raster order as the CPU does.
#include <cstdint>

#include "feature/cuda/ssim_cuda.hpp"
#include "exact/ssim_tables.h"

namespace vmafx::cuda::ssim {
namespace {

constexpr int kTaps = VMAFX_SSIM_TAP_COUNT;
constexpr int kR = VMAFX_SSIM_TAP_RADIUS;
constexpr int TX = 32, TY = 8, kThreads = TX * TY;

struct Taps {
  int t[kTaps];
};

struct Moments {
  long long mx, my, xx, xy, yy, w;
};

template <class T>
__global__ void __launch_bounds__(kThreads)
    terms_kernel(const T* __restrict__ ref, const T* __restrict__ dis, std::ptrdiff_t stride, int w, int h, double max2,
                 Taps taps, double* __restrict__ out) {
  __shared__ Moments hm[TY + 2 * kR][TX];
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
  const int tid = threadIdx.x;
  // Horizontal moments of rows y0-R .. y0+TY+R-1 (windows cut at the edges).
  for (int q = tid; q < (TY + 2 * kR) * TX; q += kThreads) {
    const int r = q / TX, c = q % TX;
    const int y = y0 - kR + r, x = x0 + c;
    Moments m{0, 0, 0, 0, 0, 0};
    if (y >= 0 && y < h && x < w) {
      const int k_lo = x < kR ? kR - x : 0;
      const int k_hi = x + kR >= w ? kTaps - (x + kR - w + 1) : kTaps;
      const T* a = ref + std::ptrdiff_t(y) * stride;
      const T* b = dis + std::ptrdiff_t(y) * stride;
      for (int k = k_lo; k < k_hi; ++k) {
        const long long s = a[x - kR + k];
        const long long d = b[x - kR + k];
        const long long t = taps.t[k];
        m.mx += t * s;
        m.my += t * d;
        m.xx += t * s * s;
        m.xy += t * s * d;
        m.yy += t * d * d;
        m.w += t;
      }
    }
    hm[r][c] = m;
  }
  __syncthreads();
  const int c = tid % TX, ty = tid / TX;
  const int x = x0 + c, y = y0 + ty;
  if (x >= w || y >= h) return;
  const int k_lo = y < kR ? kR - y : 0;
  const int k_hi = y + kR >= h ? kTaps - (y + kR - h + 1) : kTaps;
  Moments m{0, 0, 0, 0, 0, 0};
  for (int k = k_lo; k < k_hi; ++k) {
    const Moments& r = hm[ty + k][c];
    const long long t = taps.t[k];
    m.mx += t * r.mx;
    m.my += t * r.my;
    m.xx += t * r.xx;
    m.xy += t * r.xy;
    m.yy += t * r.yy;
    m.w += t * r.w;
  }
  constexpr double kK1 = VMAFX_ISSIM_K1;
  constexpr double kK2 = VMAFX_ISSIM_K2;
  const double ww = static_cast<double>(m.w);
  const double c1 = max2 * kK1 * ww * ww;
  const double c2 = max2 * kK2 * ww * ww;
  const double mx = static_cast<double>(m.mx), my = static_cast<double>(m.my);
  const double mx2 = mx * mx;
  const double mxy = mx * my;
  const double my2 = my * my;
  const double xx = static_cast<double>(m.xx), xy = static_cast<double>(m.xy), yy = static_cast<double>(m.yy);
  out[std::ptrdiff_t(y) * w + x] =
      ww * (2 * mxy + c1) * (c2 + 2 * (xy * ww - mxy)) / ((mx2 + my2 + c1) * (xx * ww - mx2 + yy * ww - my2 + c2));
}

}  // namespace

void launch_terms(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, double* terms,
                  cudaStream_t s) {
  Taps taps;
  const int init[kTaps] = VMAFX_SSIM_TAPS_INIT;
  for (int k = 0; k < kTaps; ++k) taps.t[k] = init[k];
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
