// SPDX-License-Identifier: BSD-3-Clause
// SpEED's decimation on the device (see speed_cuda.hpp and
// feature/opencl/speed.cl, its OpenCL twin): the plane on the float scale or
// the temporal difference (exact), the optional prescale from the host's
// scale tables, and the antialias Gaussian at every 16th row and column.
// Each output is the CPU's loop in its order, accumulators from +0.0f, every
// operation an IEEE round-to-nearest fp32 operation (__fadd_rn / __fmul_rn /
// __fdiv_rn are never contracted; the file is also built with --fmad=false).
#include <cstdint>

#include "feature/cuda/speed_cuda.hpp"

namespace vmafx::cuda::speed {
namespace {

constexpr int kStep = 16;

template <class T>
__global__ void to_float_kernel(const T* __restrict__ a, const T* __restrict__ b, std::ptrdiff_t stride, int w, int h,
                                int bpc, bool diff, float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const int sa = int(a[std::ptrdiff_t(y) * stride + x]);
  // sample / 2^(bpc - 8) + -128.0f and the difference of two such values are
  // exact in fp32: formed from the integer, scaled by a power of two.
  const int t = diff ? sa - int(b[std::ptrdiff_t(y) * stride + x]) : sa - (128 << (bpc - 8));
  const float unit = __uint_as_float(std::uint32_t(127 - (bpc - 8)) << 23);
  dst[std::size_t(y) * w + x] = __fmul_rn(float(t), unit);
}

__global__ void scale_nearest_kernel(const float* __restrict__ src, int w, const int* __restrict__ ix,
                                     const int* __restrict__ iy, int dw, int dh, float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh) return;
  dst[std::size_t(y) * dw + x] = src[std::size_t(iy[y]) * w + ix[x]];
}

__global__ void scale_bilinear_kernel(const float* __restrict__ src, int w, const int* __restrict__ ix,
                                      const float* __restrict__ wx, const int* __restrict__ iy,
                                      const float* __restrict__ wy, int dw, int dh, float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh) return;
  const float* r1 = src + std::size_t(iy[2 * y]) * w;
  const float* r2 = src + std::size_t(iy[2 * y + 1]) * w;
  const int x1 = ix[2 * x], x2 = ix[2 * x + 1];
  const float ox = wx[2 * x], dx = wx[2 * x + 1];
  const float oy = wy[2 * y], dy = wy[2 * y + 1];
  const float pa = __fmul_rn(__fmul_rn(oy, ox), r1[x1]);
  const float pb = __fmul_rn(__fmul_rn(oy, dx), r1[x2]);
  const float pc = __fmul_rn(__fmul_rn(dy, ox), r2[x1]);
  const float pd = __fmul_rn(__fmul_rn(dy, dx), r2[x2]);
  dst[std::size_t(y) * dw + x] = __fadd_rn(__fadd_rn(__fadd_rn(pa, pb), pc), pd);
}

__global__ void scale_interp_kernel(const float* __restrict__ src, int w, const int* __restrict__ ix,
                                    const float* __restrict__ wx, const int* __restrict__ iy,
                                    const float* __restrict__ wy, int taps, bool normalise, int dw, int dh,
                                    float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh) return;
  float value = 0.0f, weight_sum = 0.0f;
  for (int j = 0; j < taps; ++j) {
    const float* row = src + std::size_t(iy[y * taps + j]) * w;
    const float wyj = wy[y * taps + j];
    for (int i = 0; i < taps; ++i) {
      const float wgt = __fmul_rn(wx[x * taps + i], wyj);
      if (normalise) weight_sum = __fadd_rn(weight_sum, wgt);
      value = __fadd_rn(value, __fmul_rn(row[ix[x * taps + i]], wgt));
    }
  }
  dst[std::size_t(y) * dw + x] = normalise ? __fdiv_rn(value, weight_sum) : value;
}

__device__ inline int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

__global__ void vertical_kernel(const float* __restrict__ src, int w, int h, const float* __restrict__ filt, int fw,
                                int dh, float* __restrict__ tmp) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || i >= dh) return;
  const int r = fw / 2;
  float acc = 0.0f;
  for (int k = 0; k < fw; ++k)
    acc = __fadd_rn(acc, __fmul_rn(filt[k], src[std::size_t(mirror(kStep * i - r + k, h)) * w + x]));
  tmp[std::size_t(i) * w + x] = acc;
}

__global__ void horizontal_kernel(const float* __restrict__ tmp, int w, const float* __restrict__ filt, int fw, int dw,
                                  int dh, float* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= dw || i >= dh) return;
  const int r = fw / 2;
  const float* row = tmp + std::size_t(i) * w;
  float acc = 0.0f;
  for (int k = 0; k < fw; ++k) acc = __fadd_rn(acc, __fmul_rn(filt[k], row[mirror(kStep * j - r + k, w)]));
  dst[std::size_t(i) * dw + j] = acc;
}

dim3 grid_for(int w, int h, dim3 b) { return dim3((w + b.x - 1) / b.x, (h + b.y - 1) / b.y); }

}  // namespace

void launch_decimate(const void* a, const void* b, std::ptrdiff_t stride, int bpc, bool diff, const Shape& d,
                     const Tables& t, float* img, float* scaled, float* tmp, float* dst, cudaStream_t s) {
  const dim3 blk(32, 8);
  if (bpc == 8)
    to_float_kernel<std::uint8_t><<<grid_for(d.ow, d.oh, blk), blk, 0, s>>>(
        static_cast<const std::uint8_t*>(a), static_cast<const std::uint8_t*>(b), stride, d.ow, d.oh, bpc, diff, img);
  else
    to_float_kernel<std::uint16_t><<<grid_for(d.ow, d.oh, blk), blk, 0, s>>>(
        static_cast<const std::uint16_t*>(a), static_cast<const std::uint16_t*>(b), stride, d.ow, d.oh, bpc, diff, img);
  const float* src = img;
  if (d.sw != d.ow || d.sh != d.oh) {
    const dim3 g = grid_for(d.sw, d.sh, blk);
    switch (t.method) {
      case 0:  // nearest
        scale_nearest_kernel<<<g, blk, 0, s>>>(img, d.ow, t.ix, t.iy, d.sw, d.sh, scaled);
        break;
      case 1:  // bilinear
        scale_bilinear_kernel<<<g, blk, 0, s>>>(img, d.ow, t.ix, t.wx, t.iy, t.wy, d.sw, d.sh, scaled);
        break;
      default:  // bicubic, lanczos4 (normalised)
        scale_interp_kernel<<<g, blk, 0, s>>>(img, d.ow, t.ix, t.wx, t.iy, t.wy, t.scale_taps, t.method == 3, d.sw,
                                              d.sh, scaled);
        break;
    }
    src = scaled;
  }
  vertical_kernel<<<grid_for(d.sw, d.dh, blk), blk, 0, s>>>(src, d.sw, d.sh, t.taps, t.fw, d.dh, tmp);
  const dim3 hb(16, 8);
  horizontal_kernel<<<grid_for(d.dw, d.dh, hb), hb, 0, s>>>(tmp, d.sw, t.taps, t.fw, d.dw, d.dh, dst);
}

}  // namespace vmafx::cuda::speed
