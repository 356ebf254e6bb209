// SPDX-License-Identifier: BSD-3-Clause
// CAMBI on the device: the kernels of feature/opencl/cambi.cl in CUDA (the
// same steps, the same exact/cambi.h per-sample functions). Integers up to
// the c-values, whose two float operations round to nearest even
// (__int2float_rn, and a plain multiply under --fmad=false); no fp64.
#include "feature/cuda/cambi_cuda.hpp"

#define VMAFX_CAMBI_CONST static __device__ const
#include "exact/cambi.h"
#include "exact/cambi_tables.h"

namespace vmafx::cuda::cambi {
namespace {

constexpr int kTx = 32, kTy = 8, kGroup = kTx * kTy;
constexpr unsigned kNone = 0xFFFFu;  // a pixel no histogram counts
constexpr int kPad = VMAFX_CAMBI_MASK_PAD;

__device__ __forceinline__ unsigned raw(const void* in, bool wide, std::ptrdiff_t stride, const int* xmap,
                                        const int* ymap, const std::uint16_t* patch, int ow, int oh, int bad_rows,
                                        int i, int j) {
  const int y = ymap[i], x = xmap[j];
  if (y < 0) return patch[std::size_t(-1 - y) * ow + j];
  if (x < 0) return patch[std::size_t(bad_rows) * ow + std::size_t(-1 - x) * oh + i];
  if (wide) return static_cast<const std::uint16_t*>(in)[y * stride + x];
  return static_cast<const std::uint8_t*>(in)[y * stride + x];
}

__global__ void to10_kernel(const void* __restrict__ in, bool wide, std::ptrdiff_t stride, const int* __restrict__ xmap,
                            const int* __restrict__ ymap, const std::uint16_t* __restrict__ patch, int ow, int oh,
                            int bad_rows, int bpc, bool dither, std::uint16_t* __restrict__ out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= ow || i >= oh) return;
  auto at = [&](int r, int c) {
    return vmafx_cambi_to10(raw(in, wide, stride, xmap, ymap, patch, ow, oh, bad_rows, r, c), bpc);
  };
  unsigned s = at(i, j);
  if (dither) {
    const bool has_r = j + 1 < ow, has_d = i + 1 < oh;
    const unsigned r = has_r ? at(i, j + 1) : 0u;
    const unsigned d = has_d ? at(i + 1, j) : 0u;
    const unsigned dr = has_r && has_d ? at(i + 1, j + 1) : 0u;
    s = vmafx_cambi_dither(s, r, d, dr, has_r, has_d);
  }
  out[std::size_t(i) * ow + j] = std::uint16_t(s);
}

__device__ __forceinline__ unsigned flat(const std::uint16_t* img, int w, int h, int i, int j) {
  const std::size_t at = std::size_t(i) * w + j;
  const std::uint16_t a = img[at];
  const bool hz = j == w - 1 || a == img[at + 1];
  const bool vt = i == h - 1 || a == img[at + w];
  return unsigned(hz && vt);
}

__global__ void mask_rows_kernel(const std::uint16_t* __restrict__ img, int w, int h, std::uint8_t* __restrict__ hs) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= w || i >= h) return;
  const int lo = j - kPad < 0 ? 0 : j - kPad, hi = j + kPad >= w ? w - 1 : j + kPad;
  unsigned s = 0;
  for (int c = lo; c <= hi; ++c) s += flat(img, w, h, i, c);
  hs[std::size_t(i) * w + j] = std::uint8_t(s);
}

__global__ void mask_kernel(const std::uint8_t* __restrict__ hs, int w, int h, unsigned threshold, int step, int ow,
                            int oh, std::uint8_t* __restrict__ mask) {
  const int oj = blockIdx.x * blockDim.x + threadIdx.x, oi = blockIdx.y * blockDim.y + threadIdx.y;
  if (oj >= ow || oi >= oh) return;
  const int i = oi * step, j = oj * step;
  const int lo = i - kPad < 0 ? 0 : i - kPad, hi = i + kPad >= h ? h - 1 : i + kPad;
  unsigned s = 0;
  for (int r = lo; r <= hi; ++r) s += hs[std::size_t(r) * w + j];
  mask[std::size_t(oi) * ow + oj] = std::uint8_t(s > threshold);
}

__device__ __forceinline__ unsigned at(const std::uint16_t* src, int sstride, int step, int i, int j) {
  return src[std::size_t(i * step) * sstride + std::size_t(j * step)];
}

__device__ __forceinline__ unsigned hmode(const std::uint16_t* src, int sstride, int step, int w, int i, int j) {
  if (j == 0 || j == w - 1) return at(src, sstride, step, i, j);
  return vmafx_cambi_mode3(at(src, sstride, step, i, j - 1), at(src, sstride, step, i, j),
                           at(src, sstride, step, i, j + 1));
}

__global__ void mode_kernel(const std::uint16_t* __restrict__ src, int sstride, int step, int w, int h,
                            std::uint16_t* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= w || i >= h) return;
  unsigned v;
  if (i == 0 || i == h - 1)
    v = at(src, sstride, step, i, j);
  else
    v = vmafx_cambi_mode3(hmode(src, sstride, step, w, i - 1, j), hmode(src, sstride, step, w, i, j),
                          hmode(src, sstride, step, w, i + 1, j));
  dst[std::size_t(i) * w + j] = std::uint16_t(v);
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
  for (int k = lid; k < tw * th; k += kGroup) {
    const int gx = x0 + k % tw, gy = y0 + k / tw;
    unsigned v = kNone;
    if (gx >= 0 && gx < w && gy >= 0 && gy < h) {
      const unsigned u = img[std::size_t(gy) * w + gx];
      if (mask[std::size_t(gy * mstep) * mstride + std::size_t(gx * mstep)] && u - unsigned(p.base) < unsigned(p.band))
        v = u;
    }
    tile[k] = std::uint16_t(v);
  }
  __syncthreads();
  const int x = x0 + pad + lx, y = y0 + pad + ly;
  if (x >= w || y >= h) return;
  const unsigned xv = tile[(ly + pad) * tw + lx + pad];
  const int nd = p.nd;
  float c = 0.0f;
  if (xv != kNone) {
    const int value = int(xv) + nd;
    bool any = false;
    for (int d = 0; d < nd; ++d) any |= value <= p.tvi[d] && value + d + 1 > p.vlt;
    if (any) {
      std::uint16_t* b = bins + lid;
      const unsigned span = unsigned(2 * nd);
      const int side = 2 * pad + 1;
      const bool small = nd <= VMAFX_CAMBI_SMALL_ND;
      vmafx_u64 w0 = 0, w1 = 0, w2 = 0;
      if (small) {
        for (int dy = 0; dy < side; ++dy) {
          const std::uint16_t* row = tile + (ly + dy) * tw + lx;
          for (int dx = 0; dx < side; ++dx)
            vmafx_cambi_count_small(unsigned(row[dx]) - xv + unsigned(nd), span, &w0, &w1, &w2);
        }
      } else {
        for (unsigned k = 0; k <= span; ++k) b[k * kGroup] = 0;
        for (int dy = 0; dy < side; ++dy) {
          const std::uint16_t* row = tile + (ly + dy) * tw + lx;
          for (int dx = 0; dx < side; ++dx) {
            const unsigned k = unsigned(row[dx]) - xv + unsigned(nd);
            if (k <= span) b[k * kGroup] = std::uint16_t(b[k * kGroup] + 1);
          }
        }
      }
      auto bin = [&](int k) { return small ? vmafx_cambi_small_count(unsigned(k), w0, w1, w2) : int(b[k * kGroup]); };
      const int p0 = bin(nd);
      for (int d = 0; d < nd; ++d) {
        if (value <= p.tvi[d] && value + d + 1 > p.vlt) {
          const int p1 = bin(nd + d + 1), p2 = bin(nd - d - 1);
          const int q = p1 > p2 ? p1 : p2;
          const float val = vmafx_cambi_term(p.weight[d], p0, q, vmafx_cambi_reciprocal[q + p0]);
          if (val > c) c = val;
        }
      }
    }
  }
  out[std::size_t(y) * w + x] = c;
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
