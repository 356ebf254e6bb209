// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the float SSIM family (float_ssim.cu), shared by the
// float_ssim and float_ms_ssim twins. Every step is per pixel and repeats the
// CPU's float/double operations in its order (feature/ssim_common.cpp); the
// frame means, which the CPU sums in raster order, are summed on the host
// from the per-pixel values (sum_means), in the same order.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "feature/ssim_common.hpp"

namespace vmafx::cuda::fssim {

// luma (uint8_t when bpc == 8, else uint16_t; stride in samples) -> floats on
// the 8-bit scale, packed w x h.
void to_float(const void* luma, std::ptrdiff_t stride, int w, int h, int bpc, float* dst, cudaStream_t s);
// decimate_box_in_place, out of place: dst is decimated_size(w|h, factor).
void decimate_box(const float* src, int w, int h, int factor, float* dst, cudaStream_t s);
// decimate_lpf: dst is decimated_size(w|h, 2).
void decimate_lpf(const float* src, int w, int h, float* dst, cudaStream_t s);

// The per-pixel terms of gaussian_ssim over the (w-10) x (h-10) positions:
// lcs[i] = l * c * s and, when parts is set, l[i], c[i], s[i] (doubles,
// raster order). `moments` is scratch of 5 * (w - 10) * h floats.
void terms(const float* ref, const float* cmp, int w, int h, float* moments, double* lcs, double* l, double* c,
           double* sv, bool parts, cudaStream_t s);

// The means as gaussian_ssim forms them from the per-pixel terms (n values
// each; l, c, s may be null when only the ssim mean is wanted, and lcs may
// be null when only the parts are).
vmafx::ssim::SsimMeans sum_means(const double* lcs, const double* l, const double* c, const double* s, std::size_t n);

}  // namespace vmafx::cuda::fssim
