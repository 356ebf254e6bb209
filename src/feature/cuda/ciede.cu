// SPDX-License-Identifier: BSD-3-Clause
// ciede on the device: one thread per pixel evaluates the reference's dE00 in
// certified soft-fp64 interval arithmetic (exact/ciede.h; no double
// arithmetic, --fmad=false) and writes its float's bits and whether it is
// certified; the host recomputes the others and adds all in order.
#include <cstddef>
#include <cstdint>

#include "exact/ciede.h"
#include "feature/cuda/ciede_cuda.hpp"

namespace vmafx::cuda::ciede {
namespace {

template <class T>
__device__ int chroma(const T* first, const T* second, int nplanes, std::ptrdiff_t stride, int fmt, int cw, int ch,
                      int i, int j) {
  int plane, row, col;
  if (!vmafx_ciede_chroma_at(fmt, cw, ch, nplanes, i, j, &plane, &row, &col)) return 0;
  return int((plane ? second : first)[std::ptrdiff_t(row) * stride + col]);
}

template <class T>
__global__ void pixels_kernel(Planes r, Planes d, int w, int h, int cw, int ch, int fmt, int bpc,
                              std::uint32_t* __restrict__ out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= w || i >= h) return;
  const T* ry = static_cast<const T*>(r.y);
  const T* ru = static_cast<const T*>(r.u);
  const T* rv = static_cast<const T*>(r.v);
  const T* dy = static_cast<const T*>(d.y);
  const T* du = static_cast<const T*>(d.u);
  const T* dv = static_cast<const T*>(d.v);
  int ok;
  const std::uint32_t bits = vmafx_ciede_pixel(
      int(ry[std::ptrdiff_t(i) * r.y_stride + j]), chroma(ru, rv, 2, r.c_stride, fmt, cw, ch, i, j),
      chroma(rv, rv, 1, r.c_stride, fmt, cw, ch, i, j), int(dy[std::ptrdiff_t(i) * d.y_stride + j]),
      chroma(du, dv, 2, d.c_stride, fmt, cw, ch, i, j), chroma(dv, dv, 1, d.c_stride, fmt, cw, ch, i, j), bpc, &ok);
  const std::size_t k = std::size_t(i) * w + j;
  out[k] = bits;
  out[std::size_t(w) * h + k] = std::uint32_t(ok);
}

__global__ void pairs_kernel(const std::int32_t* __restrict__ s, int n, int bpc, std::uint32_t* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  int ok;
  out[k] = vmafx_ciede_pixel(s[6 * k], s[6 * k + 1], s[6 * k + 2], s[6 * k + 3], s[6 * k + 4], s[6 * k + 5], bpc, &ok);
  out[n + k] = std::uint32_t(ok);
}

}  // namespace

void launch_pixels(const Planes& ref, const Planes& dis, int w, int h, int cw, int ch, int fmt, int bpc,
                   std::uint32_t* out, cudaStream_t s) {
  const dim3 block(32, 4), grid((w + 31) / 32, (h + 3) / 4);
  if (bpc == 8)
    pixels_kernel<std::uint8_t><<<grid, block, 0, s>>>(ref, dis, w, h, cw, ch, fmt, bpc, out);
  else
    pixels_kernel<std::uint16_t><<<grid, block, 0, s>>>(ref, dis, w, h, cw, ch, fmt, bpc, out);
}

bool run_pairs(const std::int32_t* samples, int n, int bpc, std::uint32_t* out) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return false;
  std::int32_t* ds = nullptr;
  std::uint32_t* dout = nullptr;
  bool ok = cudaMalloc(&ds, std::size_t(n) * 6 * 4) == cudaSuccess &&
            cudaMalloc(&dout, std::size_t(n) * 2 * 4) == cudaSuccess &&
            cudaMemcpy(ds, samples, std::size_t(n) * 6 * 4, cudaMemcpyHostToDevice) == cudaSuccess;
  if (ok) {
    pairs_kernel<<<(n + 127) / 128, 128>>>(ds, n, bpc, dout);
    ok = cudaGetLastError() == cudaSuccess &&
         cudaMemcpy(out, dout, std::size_t(n) * 2 * 4, cudaMemcpyDeviceToHost) == cudaSuccess;
  }
  cudaFree(ds);
  cudaFree(dout);
  return ok;
}

}  // namespace vmafx::cuda::ciede
