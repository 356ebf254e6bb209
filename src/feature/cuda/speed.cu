// SPDX-License-Identifier: BSD-3-Clause
// SpEED's decimation on the device (see speed_cuda.hpp): one thread an output
// around exact/speed.h (the plane on the float scale or the temporal
// difference, the optional prescale from the host's scale tables, the
// antialias Gaussian at every 16th row and column), whose fp32 operations are
// __fadd_rn / __fmul_rn / __fdiv_rn here (never contracted; the file is also
// built with --fmad=false).
#include <cstdint>

#include "exact/speed.h"
#include "feature/cuda/speed_cuda.hpp"

namespace vmafx::cuda::speed {
namespace {

constexpr int kStep = 16;

template <class T>
__global__ void to_float_kernel(const T* __restrict__ a, const T* __restrict__ b, std::ptrdiff_t stride, int w, int h,
                                int bpc, bool diff, float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const std::ptrdiff_t i = std::ptrdiff_t(y) * stride + x;
  const float unit = __uint_as_float(std::uint32_t(127 - (bpc - 8)) << 23);  // 2^-(bpc - 8)
  dst[std::size_t(y) * w + x] = vmafx_speed_sample(int(a[i]), diff ? int(b[i]) : 0, diff, bpc, unit);
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
  dst[std::size_t(y) * dw + x] = vmafx_speed_bilinear(src, w, ix, wx, iy, wy, x, y);
}

__global__ void scale_interp_kernel(const float* __restrict__ src, int w, const int* __restrict__ ix,
                                    const float* __restrict__ wx, const int* __restrict__ iy,
                                    const float* __restrict__ wy, int taps, bool normalise, int dw, int dh,
                                    float* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh) return;
  dst[std::size_t(y) * dw + x] = vmafx_speed_interp(src, w, ix, wx, iy, wy, taps, normalise, x, y);
}

// The antialias filter's vertical pass at rows kStep * i (column x).
__global__ void vertical_kernel(const float* __restrict__ src, int w, int h, const float* __restrict__ filt, int fw,
                                int dh, float* __restrict__ tmp) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || i >= dh) return;
  tmp[std::size_t(i) * w + x] = vmafx_speed_taps(src + x, std::size_t(w), h, kStep * i, filt, fw);
}

// The horizontal pass at columns kStep * j.
__global__ void horizontal_kernel(const float* __restrict__ tmp, int w, const float* __restrict__ filt, int fw, int dw,
                                  int dh, float* __restrict__ dst) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= dw || i >= dh) return;
  dst[std::size_t(i) * dw + j] = vmafx_speed_taps(tmp + std::size_t(i) * w, 1, w, kStep * j, filt, fw);
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
