// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the SpEED twins (speed.cu): feature/speed.cpp's decimate()
// of a plane, or of the difference of two frames' planes, on the device. The
// host finishes with speed::score_decimated().
#include <cuda_runtime.h>

#include <cstddef>

namespace vmafx::cuda::speed {

// The tables of one decimation, in device memory (uploaded once per twin).
struct Tables {
  const float* taps = nullptr;  // antialias filter
  int fw = 0;
  int method = 0;           // flt::ScaleMethod; prescale only
  int scale_taps = 0;       // flt::scale_axis taps
  const int* ix = nullptr;  // per output column (sw x scale_taps), resp. row (sh x scale_taps)
  const int* iy = nullptr;
  const float* wx = nullptr;
  const float* wy = nullptr;
};

struct Shape {
  int ow, oh;  // plane
  int sw, sh;  // after the prescale (== ow, oh: none)
  int dw, dh;  // decimated
};

// dst (dw x dh floats) = decimate of plane a (diff false) or of a - b, where
// a and b have a row stride of `stride` samples (uint8_t when bpc == 8, else
// uint16_t). img: ow x oh floats, scaled: sw x sh floats (prescale only),
// tmp: sw x dh floats. Asynchronous on `s`.
void launch_decimate(const void* a, const void* b, std::ptrdiff_t stride, int bpc, bool diff, const Shape& d,
                     const Tables& t, float* img, float* scaled, float* tmp, float* dst, cudaStream_t s);

}  // namespace vmafx::cuda::speed
