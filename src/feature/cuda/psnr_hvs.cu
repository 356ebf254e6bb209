// SPDX-License-Identifier: BSD-3-Clause
// psnr_hvs on the device: one thread per 8x8 block (blocks every 7 samples),
// the block's 64 CSF-weighted squared errors as the reference forms them
// (exact/psnr_hvs_block.h, with CUDA's correctly rounded / and sqrtf;
// --fmad=false); the host adds them in float in the reference's order.
#include <cstddef>
#include <cstdint>

#include "exact/psnr_hvs_block.h"
#include "feature/cuda/psnr_hvs_cuda.hpp"

namespace vmafx::cuda::hvs {
namespace {

template <class T>
__global__ void blocks_kernel(const T* __restrict__ ref, const T* __restrict__ dis, std::ptrdiff_t stride, int nbx,
                              int nby, Tables tables, float var63, float var15, float* __restrict__ terms) {
  const int bx = blockIdx.x * blockDim.x + threadIdx.x, by = blockIdx.y * blockDim.y + threadIdx.y;
  if (bx >= nbx || by >= nby) return;
  vmafx_i32 s[64], d[64];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      const std::ptrdiff_t k = std::ptrdiff_t(by * 7 + i) * stride + (bx * 7 + j);
      s[i * 8 + j] = vmafx_i32(ref[k]);
      d[i * 8 + j] = vmafx_i32(dis[k]);
    }
  float t[64];
  vmafx_hvs_block_terms(s, d, tables.mask, tables.csf, var63, var15, t);
  float* out = terms + (std::size_t(by) * nbx + bx) * 64;
  for (int k = 0; k < 64; ++k) out[k] = t[k];
}

}  // namespace

void launch_blocks(const void* ref, const void* dis, std::ptrdiff_t stride, int nbx, int nby, int bpc,
                   const Tables& tables, float var63, float var15, float* terms, cudaStream_t s) {
  const dim3 block(16, 8), grid((nbx + 15) / 16, (nby + 7) / 8);
  if (bpc == 8)
    blocks_kernel<std::uint8_t><<<grid, block, 0, s>>>(static_cast<const std::uint8_t*>(ref),
                                                       static_cast<const std::uint8_t*>(dis), stride, nbx, nby, tables,
                                                       var63, var15, terms);
  else
    blocks_kernel<std::uint16_t><<<grid, block, 0, s>>>(static_cast<const std::uint16_t*>(ref),
                                                        static_cast<const std::uint16_t*>(dis), stride, nbx, nby,
                                                        tables, var63, var15, terms);
}

}  // namespace vmafx::cuda::hvs
