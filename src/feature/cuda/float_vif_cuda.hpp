// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the float_vif twin (float_vif.cu): every step repeats the
// CPU reference's float operations in its order (feature/float_vif.cpp, the
// scalar loops), with --fmad=false; the statistic's two double expressions
// are native fp64. The row totals come back to the host, which adds them in
// row order as the reference does.
#include <cuda_runtime.h>

#include <cstddef>

#include "exact/float_vif.h"

namespace vmafx::cuda::fvif {

// The statistic's constants (vif_statistic_s; exact/float_vif.h).
using StatConsts = vmafx_fvif_consts;

// luma (uint8_t when bpc == 8, else uint16_t; stride in samples) -> floats on
// the 8-bit scale minus 128, packed w x h.
void to_float(const void* luma, std::ptrdiff_t stride, int w, int h, int bpc, float* dst, cudaStream_t s);

// Filter (fw taps at f, device memory) and keep the even rows and columns of
// a w x h image: dst is (w / 2) x (h / 2). tmp holds w * (h / 2) floats.
void filter_dec2(const float* f, int fw, const float* src, int w, int h, float* tmp, float* dst, cudaStream_t s);

// The statistic of one scale: the per-row float totals of its numerator and
// denominator contributions into rows[0..h) and rows[h..2h). moments holds
// 5 * w * h floats, terms 2 * w * h.
void statistic(const float* f, int fw, const float* ref, const float* dis, int w, int h, const StatConsts& c,
               float* moments, float* terms, float* rows, cudaStream_t s);

}  // namespace vmafx::cuda::fvif
