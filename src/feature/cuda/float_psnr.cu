// SPDX-License-Identifier: BSD-3-Clause
// float_psnr and float_moment on the device: integers only. Every float term
// of the reference (a sample, its square, a squared difference) is an exact
// integer in units of 2^-k or 2^-2k (exact/float_terms.h); the kernels leave
// each row's exact sum, or the terms themselves for the rows where the host
// has to add them one by one (feature/exact_sum.hpp).
#include <cstddef>
#include <cstdint>

#include "exact/float_terms.h"
#include "feature/cuda/block_sum.cuh"
#include "feature/cuda/float_terms_cuda.hpp"

namespace vmafx::cuda::fterms {
namespace {

constexpr int kTile = 256;

template <class T>
__global__ void __launch_bounds__(kTile)
    rows_kernel(const T* __restrict__ a, const T* __restrict__ b, std::ptrdiff_t stride, int w, int kind,
                unsigned long long* __restrict__ rows) {
  const int y = blockIdx.x;
  const T* ra = a + std::ptrdiff_t(y) * stride;
  const T* rb = b + std::ptrdiff_t(y) * stride;
  unsigned long long s = 0;
  for (int x = threadIdx.x; x < w; x += kTile) s += vmafx_fterm(kind, vmafx_i32(ra[x]), vmafx_i32(rb[x]));
  s = block_sum(s);
  if (threadIdx.x == 0) rows[y] = s;
}

template <class T>
__global__ void plane_kernel(const T* __restrict__ a, const T* __restrict__ b, std::ptrdiff_t stride, int w, int h,
                             int kind, int row0, std::uint32_t* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = row0 + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const std::ptrdiff_t i = std::ptrdiff_t(y) * stride + x;
  out[std::size_t(y - row0) * w + x] = std::uint32_t(vmafx_fterm(kind, vmafx_i32(a[i]), vmafx_i32(b[i])));
}

}  // namespace

void launch_rows(const void* a, const void* b, std::ptrdiff_t stride, int w, int h, int bpc, int kind,
                 unsigned long long* rows, cudaStream_t s) {
  if (bpc == 8)
    rows_kernel<std::uint8_t><<<h, kTile, 0, s>>>(static_cast<const std::uint8_t*>(a),
                                                  static_cast<const std::uint8_t*>(b), stride, w, kind, rows);
  else
    rows_kernel<std::uint16_t><<<h, kTile, 0, s>>>(static_cast<const std::uint16_t*>(a),
                                                   static_cast<const std::uint16_t*>(b), stride, w, kind, rows);
}

void launch_terms(const void* a, const void* b, std::ptrdiff_t stride, int w, int h, int bpc, int kind, int row0,
                  std::uint32_t* out, cudaStream_t s) {
  const dim3 block(32, 8), grid((w + 31) / 32, (h - row0 + 7) / 8);
  if (bpc == 8)
    plane_kernel<std::uint8_t><<<grid, block, 0, s>>>(
        static_cast<const std::uint8_t*>(a), static_cast<const std::uint8_t*>(b), stride, w, h, kind, row0, out);
  else
    plane_kernel<std::uint16_t><<<grid, block, 0, s>>>(
        static_cast<const std::uint16_t*>(a), static_cast<const std::uint16_t*>(b), stride, w, h, kind, row0, out);
}

}  // namespace vmafx::cuda::fterms
