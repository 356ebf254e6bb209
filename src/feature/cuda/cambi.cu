// SPDX-License-Identifier: BSD-3-Clause
// CAMBI on the device: the kernels of feature/opencl/cambi.cl in CUDA (the
// same launch geometry around the same exact/cambi.h per-pixel functions). Integers up to
// the c-values, whose two float operations round to nearest even
// (__int2float_rn, and a plain multiply under --fmad=false); no fp64.
#include "feature/cuda/cambi_cuda.hpp"

#define VMAFX_CAMBI_CONST static __device__ const
#include "exact/cambi.h"
#include "exact/cambi_tables.h"

namespace vmafx::cuda::cambi {
namespace {

constexpr int kTx = VMAFX_CAMBI_TX, kTy = VMAFX_CAMBI_TY, kGroup = VMAFX_CAMBI_GROUP;

__global__ void to10_kernel(const void* __restrict__ in, bool wide, std::ptrdiff_t stride, const int* __restrict__ xmap,
                            const int* __restrict__ ymap, const std::uint16_t* __restrict__ patch, int ow, int oh,
                            int bad_rows, int bpc, bool dither, std::uint16_t* __restrict__ out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= ow || i >= oh) return;
  out[std::size_t(i) * ow + j] = std::uint16_t(vmafx_cambi_resized10(
      static_cast<const std::uint8_t*>(in), wide, stride, xmap, ymap, patch, ow, oh, bad_rows, bpc, dither, i, j));
}

__global__ void mask_rows_kernel(const std::uint16_t* __restrict__ img, int w, int h, std::uint8_t* __restrict__ hs) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= w || i >= h) return;
  hs[std::size_t(i) * w + j] = std::uint8_t(vmafx_cambi_flat_run(img, w, h, i, j));
}

__global__ void mask_kernel(const std::uint8_t* __restrict__ hs, int w, int h, unsigned threshold, int step, int ow,
                            int oh, std::uint8_t* __restrict__ mask) {
  const int oj = blockIdx.x * blockDim.x + threadIdx.x, oi = blockIdx.y * blockDim.y + threadIdx.y;
  if (oj >= ow || oi >= oh) return;
  mask[std::size_t(oi) * ow + oj] = std::uint8_t(vmafx_cambi_mask_at(hs, w, h, threshold, step, oi, oj));
}

__global__ void mode_kernel(const std::uint16_t* __restrict__ src, int sstride, int step, int w, int h,
                            std::uint16_t* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= w || i >= h) return;
  dst[std::size_t(i) * w + j] = std::uint16_t(vmafx_cambi_mode(src, sstride, step, w, h, i, j));
}

// Dynamic shared memory: the window values of the block (tw * th), then
// (2 nd + 1) counters per thread, strided by the block size.
__global__ void __launch_bounds__(kGroup)
    cvalues_kernel(const std::uint16_t* __restrict__ img, int w, int h, const std::uint8_t* __restrict__ mask,
                   int mstride, int mstep, int pad, CvalueParams p, float* __restrict__ out) {
  extern __shared__ std::uint16_t shared[];
  const int tw = kTx + 2 * pad, th = kTy + 2 * pad;
  std::uint16_t* tile = shared;
  std::uint16_t* bins = shared + ((tw * th + 1) & ~1);
  const int lx = threadIdx.x, ly = threadIdx.y, lid = ly * kTx + lx;
  const int x0 = int(blockIdx.x) * kTx - pad, y0 = int(blockIdx.y) * kTy - pad;
  vmafx_cambi_load_tile(tile, lid, tw, th, x0, y0, img, w, h, mask, mstride, mstep, p.base, p.band);
  __syncthreads();
  const int x = x0 + pad + lx, y = y0 + pad + ly;
  if (x >= w || y >= h) return;
  out[std::size_t(y) * w + x] =
      vmafx_cambi_cvalue(tile, tw, lx, ly, pad, bins + lid, p.nd, p.vlt, p.tvi, p.weight, vmafx_cambi_reciprocal);
}

dim3 grid_of(int w, int h, dim3 block) { return dim3((w + block.x - 1) / block.x, (h + block.y - 1) / block.y); }

}  // namespace

void launch_to10(const void* in, int bpc, std::ptrdiff_t stride, const int* xmap, const int* ymap,
                 const std::uint16_t* patch, int ow, int oh, int bad_rows, bool dither, std::uint16_t* out,
                 cudaStream_t s) {
  const dim3 block(32, 8);
  to10_kernel<<<grid_of(ow, oh, block), block, 0, s>>>(in, bpc > 8, stride, xmap, ymap, patch, ow, oh, bad_rows, bpc,
                                                       dither, out);
}

void launch_mask(const std::uint16_t* img, int w, int h, unsigned threshold, int step, std::uint8_t* hs,
                 std::uint8_t* mask, cudaStream_t s) {
  const dim3 block(32, 8);
  mask_rows_kernel<<<grid_of(w, h, block), block, 0, s>>>(img, w, h, hs);
  const int ow = (w + step - 1) / step, oh = (h + step - 1) / step;
  mask_kernel<<<grid_of(ow, oh, block), block, 0, s>>>(hs, w, h, threshold, step, ow, oh, mask);
}

void launch_mode(const std::uint16_t* src, int sstride, int step, int w, int h, std::uint16_t* dst, cudaStream_t s) {
  const dim3 block(32, 8);
  mode_kernel<<<grid_of(w, h, block), block, 0, s>>>(src, sstride, step, w, h, dst);
}

void launch_cvalues(const std::uint16_t* img, int w, int h, const std::uint8_t* mask, int mstride, int mstep, int pad,
                    const CvalueParams& p, float* out, cudaStream_t s) {
  const dim3 block(kTx, kTy);
  const int tw = kTx + 2 * pad, th = kTy + 2 * pad;
  // The counters of nd <= 4 live in registers.
  const std::size_t counters = p.nd <= VMAFX_CAMBI_SMALL_ND ? 0 : std::size_t(2 * p.nd + 1) * kGroup;
  const std::size_t shared = sizeof(std::uint16_t) * (std::size_t((tw * th + 1) & ~1) + counters);
  cvalues_kernel<<<grid_of(w, h, block), block, shared, s>>>(img, w, h, mask, mstride, mstep, pad, p, out);
}

}  // namespace vmafx::cuda::cambi
