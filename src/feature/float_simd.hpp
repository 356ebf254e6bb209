// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD rows of the shared float helpers (feature/float_common.cpp): the two
// passes of the separable float convolution and the sample-to-float
// conversion, through Google Highway with runtime dispatch, like
// feature/vif_simd.cpp.
//
// Vectorised across output columns only: every lane does, for its column, the
// very float operations of the scalar loop in the same order (a sum started at
// 0.0f, then + f[k] * x for k = 0, 1, ... as separate IEEE multiply and add;
// the build has -ffp-contract=off, so nothing is fused), hence the same bits,
// signed zeros and NaNs included. float_common.cpp uses these when
// vmafx::simd::enabled() says so (VMAFX_SIMD=off turns all SIMD off); its
// scalar loops stay the reference and the unit tests compare the two for ==
// (bit patterns) on every target.
//
// Without Highway (VMAFX_HAVE_HWY undefined) vmafx::simd::enabled() is false and
// these must not be called.
#include <cstddef>
#include <cstdint>

namespace vmafx::flt::simd {

// out[j] = (((0 + f[0] * rows[0][j]) + f[1] * rows[1][j]) + ...) over the fw
// rows, for j < w.
void vertical(const float* f, int fw, const float* const* rows, int w, float* out);

// out[j] = (((0 + f[0] * pad[j]) + f[1] * pad[j + 1]) + ...) for j < w; pad
// holds w + fw - 1 values.
void horizontal(const float* f, int fw, const float* pad, int w, float* out);

// out[j] = (((0 + f[0] * pad[2j]) + f[1] * pad[2j + 1]) + ...) for j < w;
// pad holds 2 (w - 1) + fw values (nothing beyond is read).
void horizontal_dec2(const float* f, int fw, const float* pad, int w, float* out);

// sums[i] = (((0 + |a[i][0] - b[i][0]|) + |a[i][1] - b[i][1]|) + ...) in
// float over the w columns of row i, for the h rows of two packed w x h
// images (the difference in float, then fabs).
void row_abs_diff_sums(const float* a, const float* b, int w, int h, float* sums);

// The double sum over k < n of the float term t_k (kind 0: a[k]; 1:
// a[k] * a[k]; 2: (a[k] - b[k]) * (a[k] - b[k])), summed in lanes. Returns
// true, with *sum, only when that sum provably equals the running double sum
// from 0 in index order (terms multiples of 2^-q, q in {0, 8, 16}, with the
// sum of their magnitudes below 2^(53 - q): every partial sum is exact);
// false otherwise (then *sum is untouched).
bool exact_sum(const float* a, const float* b, std::size_t n, int kind, double* sum);

// dst[x] = float(src[x]) + offset, x < w.
void to_float(const std::uint8_t* src, int w, float offset, float* dst);
// dst[x] = float(src[x]) / scaler + offset, x < w.
void to_float(const std::uint16_t* src, int w, float scaler, float offset, float* dst);

}  // namespace vmafx::flt::simd
