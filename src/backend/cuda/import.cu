// SPDX-License-Identifier: BSD-3-Clause
// Unpacks decoder surfaces (NV12, P010, P016, planar 4:4:4) into planar
// planes. Integer moves only: a sample is copied or shifted, never changed.
#include "backend/cuda/import.hpp"

namespace vmafx::cuda::import {
namespace {

template <class T, bool kPair>
__global__ void unpack_kernel(const unsigned char* __restrict__ src, int pitch, unsigned char* __restrict__ dst0,
                              unsigned char* __restrict__ dst1, std::ptrdiff_t stride, int w, int shift,
                              unsigned* __restrict__ stray) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y;
  if (x >= w) return;
  const T* s = reinterpret_cast<const T*>(src + std::ptrdiff_t(y) * pitch);
  const unsigned low = (1u << shift) - 1u;
  unsigned bad;
  if (kPair) {
    const unsigned a = s[2 * x], b = s[2 * x + 1];
    reinterpret_cast<T*>(dst0 + std::ptrdiff_t(y) * stride)[x] = T(a >> shift);
    reinterpret_cast<T*>(dst1 + std::ptrdiff_t(y) * stride)[x] = T(b >> shift);
    bad = (a | b) & low;
  } else {
    const unsigned a = s[x];
    reinterpret_cast<T*>(dst0 + std::ptrdiff_t(y) * stride)[x] = T(a >> shift);
    bad = a & low;
  }
  if (bad) atomicOr(stray, bad);
}

}  // namespace

void launch_unpack(const void* src, int pitch, void* dst0, void* dst1, std::ptrdiff_t stride, int w, int h,
                   int bytes_per_sample, int shift, unsigned* stray, cudaStream_t s) {
  constexpr int kTile = 256;
  const dim3 grid((w + kTile - 1) / kTile, h);
  auto* in = static_cast<const unsigned char*>(src);
  auto* d0 = static_cast<unsigned char*>(dst0);
  auto* d1 = static_cast<unsigned char*>(dst1);
  if (bytes_per_sample == 1) {
    if (dst1)
      unpack_kernel<unsigned char, true><<<grid, kTile, 0, s>>>(in, pitch, d0, d1, stride, w, 0, stray);
    else
      unpack_kernel<unsigned char, false><<<grid, kTile, 0, s>>>(in, pitch, d0, d1, stride, w, 0, stray);
  } else {
    if (dst1)
      unpack_kernel<unsigned short, true><<<grid, kTile, 0, s>>>(in, pitch, d0, d1, stride, w, shift, stray);
    else
      unpack_kernel<unsigned short, false><<<grid, kTile, 0, s>>>(in, pitch, d0, d1, stride, w, shift, stray);
  }
}

}  // namespace vmafx::cuda::import
