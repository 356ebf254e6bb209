// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the ciede CUDA twin (ciede.cu).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace vmafx::cuda::ciede {

// Planes of one picture on the device (strides in samples).
struct Planes {
  const void* y;
  const void* u;
  const void* v;
  std::ptrdiff_t y_stride, c_stride;
};

// out[k] = bits of pixel k's dE00 (k = i * w + j), out[w * h + k] = 1 when
// certified (exact/ciede.h), 0 when the host must recompute it. fmt: 0 =
// 4:2:0, 1 = 4:2:2, 2 = 4:4:4; cw x ch the chroma planes. Asynchronous on s.
void launch_pixels(const Planes& ref, const Planes& dis, int w, int h, int cw, int ch, int fmt, int bpc,
                   std::uint32_t* out, cudaStream_t s);

// The stress test's entry: pair k's samples are s[6k .. 6k+5] (reference y,
// u, v, distorted y, u, v); out as above with n pairs. Synchronous; returns
// false when there is no CUDA device or a call fails.
bool run_pairs(const std::int32_t* samples, int n, int bpc, std::uint32_t* out);

}  // namespace vmafx::cuda::ciede
