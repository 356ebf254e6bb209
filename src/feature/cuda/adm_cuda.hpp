// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the integer ADM twin (adm.cu). The host glue (adm_cuda.cpp)
// plans the scales, computes every shift and region with the CPU's formulas,
// and forms the float scores from the integer sums these kernels return.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace vmafx::cuda::adm {

struct Region {
  int top, bottom, left, right;
};

// Bands of one picture at one scale: [0] a, [1] h, [2] v, [3] d.
template <class T>
struct Bands {
  T* b[4];
};

// Decomposition of scale 0 (samples -> int16). With lo_only only the
// approximation band is written.
void dwt0(const void* src, std::ptrdiff_t stride, int w, int h, int bpc, bool lo_only, Bands<std::int16_t> out,
          int ostride, cudaStream_t s);
// Scales 1..3: the previous approximation band (int16 when scale == 1, else
// int32) -> int32 bands.
void dwt123(const void* src, int sstride, int w, int h, int scale, Bands<std::int32_t> out, int ostride,
            cudaStream_t s);

// Per-scale constants of the decouple/CSF and masking stages.
struct StageParams {
  int w, h, stride;     // band size and row stride
  Region filter;        // decouple + CSF region
  Region score;         // masking + denominator region
  double egl;           // enhancement gain limit
  float cos1_sq;        // (float)(cos(1 deg)^2)
  std::uint32_t rf[3];  // fixed-point CSF factors (uint16 at scale 0)
  // Denominator, per row: (inner + den_add) >> den_shift; at scales 1..3 the
  // per-pixel ((x*x + 2^sq_shift) >> sq_shift) * x + cub_add) >> cub_shift first.
  unsigned long long den_add;
  int den_shift;
  int den_sq_shift;
  long long den_cub_add;
  int den_cub_shift;
  // Masking: per pixel (x_sq * x + cm_add[t]) >> cm_shift[t]; per row
  // (inner + row_add) >> row_shift.
  long long cm_add[3];
  int cm_shift[3];
  long long row_add;
  int row_shift;
  bool aim;
};

// Decouple + CSF + masking + denominator of one scale, given the ref and dis
// detail bands. Scratch `work` holds 12 band planes (stride * h each) of T.
// Adds to out[0..2] the denominator sums (h, v, d), out[3..5] the numerator
// sums and out[6..8] the AIM sums; out must be zero on entry.
void stage0(Bands<std::int16_t> ref, Bands<std::int16_t> dis, std::int16_t* work, const StageParams& p, long long* out,
            cudaStream_t s);
void stage123(Bands<std::int32_t> ref, Bands<std::int32_t> dis, std::int32_t* work, const StageParams& p,
              long long* out, cudaStream_t s);

}  // namespace vmafx::cuda::adm
