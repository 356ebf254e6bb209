// SPDX-License-Identifier: BSD-3-Clause
// The exact scaler's passes (core/scale_exact.hpp) as CUDA kernels: one
// thread per output sample, the arithmetic of exact/swscale.h.
#include "backend/cuda/scale.hpp"
#include "exact/swscale.h"

namespace vmafx::cuda::scale {
namespace {

__device__ inline int load(const unsigned char* p, std::ptrdiff_t stride, int wide, int x, int y) {
  const unsigned char* row = p + std::ptrdiff_t(y) * stride;
  return wide ? int(reinterpret_cast<const unsigned short*>(row)[x]) : int(row[x]);
}

__device__ inline void store(unsigned char* p, std::ptrdiff_t stride, int wide, int x, int y, int v) {
  unsigned char* row = p + std::ptrdiff_t(y) * stride;
  if (wide)
    reinterpret_cast<unsigned short*>(row)[x] = static_cast<unsigned short>(v);
  else
    row[x] = static_cast<unsigned char>(v);
}

__global__ void hscale_kernel(const unsigned char* __restrict__ src, std::ptrdiff_t src_stride, int src_wide, int src_w,
                              int src_h, const int* __restrict__ pos, const int* __restrict__ taps, int n, int dst_w,
                              int sh, int wide, int* __restrict__ inter) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dst_w || y >= src_h) return;
  const int p = pos[x];
  int acc = 0;
  for (int j = 0; j < n; ++j) {
    const int sx = min(p + j, src_w - 1);
    acc += load(src, src_stride, src_wide, sx, y) * taps[std::size_t(x) * n + j];
  }
  inter[std::size_t(y) * dst_w + x] = vmafx_sws_h_finish(acc, sh, wide);
}

__global__ void vscale_kernel(const int* __restrict__ inter, int dst_w, int src_h, const int* __restrict__ pos,
                              const int* __restrict__ taps, int n, int dst_h, int bpc, int dithered, int v_plane,
                              unsigned char* __restrict__ dst, std::ptrdiff_t dst_stride) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dst_w || y >= dst_h) return;
  const int d = vmafx_sws_v_dither(dithered, x, y, v_plane);
  int v;
  if (n == 1) {
    v = vmafx_sws_v_single(inter[std::size_t(pos[y]) * dst_w + x], bpc, d);
  } else {
    vmafx_u32 acc = vmafx_sws_v_start(bpc, d);
    for (int j = 0; j < n; ++j) {
      const int sy = min(pos[y] + j, src_h - 1);
      acc = vmafx_sws_v_tap(acc, inter[std::size_t(sy) * dst_w + x], taps[std::size_t(y) * n + j]);
    }
    v = vmafx_sws_v_finish(acc, bpc);
  }
  store(dst, dst_stride, bpc > 8, x, y, v);
}

__global__ void depth_kernel(const unsigned char* __restrict__ src, std::ptrdiff_t src_stride, int src_bpc,
                             unsigned char* __restrict__ dst, std::ptrdiff_t dst_stride, int dst_bpc, int w, int h,
                             int shift_only) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const int v = load(src, src_stride, src_bpc > 8, x, y);
  store(dst, dst_stride, dst_bpc > 8, x, y, vmafx_sws_depth(v, src_bpc, dst_bpc, x, y, shift_only));
}

dim3 grid(int w, int h, dim3 block) { return dim3((w + block.x - 1) / block.x, (h + block.y - 1) / block.y); }

}  // namespace

void launch_hscale(const void* src, std::ptrdiff_t src_stride, int src_bpc, int src_w, int src_h, const int* pos,
                   const int* taps, int n, int dst_w, int sh, int wide, int* inter, cudaStream_t s) {
  const dim3 block(32, 8);
  hscale_kernel<<<grid(dst_w, src_h, block), block, 0, s>>>(static_cast<const unsigned char*>(src), src_stride,
                                                            src_bpc > 8, src_w, src_h, pos, taps, n, dst_w, sh, wide,
                                                            inter);
}

void launch_vscale(const int* inter, int dst_w, int src_h, const int* pos, const int* taps, int n, int dst_h,
                   int dst_bpc, int dithered, int v_plane, void* dst, std::ptrdiff_t dst_stride, cudaStream_t s) {
  const dim3 block(32, 8);
  vscale_kernel<<<grid(dst_w, dst_h, block), block, 0, s>>>(inter, dst_w, src_h, pos, taps, n, dst_h, dst_bpc, dithered,
                                                            v_plane, static_cast<unsigned char*>(dst), dst_stride);
}

void launch_depth(const void* src, std::ptrdiff_t src_stride, int src_bpc, void* dst, std::ptrdiff_t dst_stride,
                  int dst_bpc, int w, int h, int shift_only, cudaStream_t s) {
  const dim3 block(32, 8);
  depth_kernel<<<grid(w, h, block), block, 0, s>>>(static_cast<const unsigned char*>(src), src_stride, src_bpc,
                                                   static_cast<unsigned char*>(dst), dst_stride, dst_bpc, w, h,
                                                   shift_only);
}

}  // namespace vmafx::cuda::scale
