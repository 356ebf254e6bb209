// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD rows of the float ADM (feature/float_adm.cpp), through Google Highway
// with runtime dispatch, like feature/float_simd.hpp.
//
// Vectorised across columns: every lane does, for its column, the float /
// double operations of float_adm.cpp's scalar loops in their order (separate
// IEEE operations, -ffp-contract=off). Row sums (the p-norm terms of the
// denominator and of the masking stage) are not split: each of the three
// orientations' terms is added to one running float in column order, as the
// scalar loop does. float_adm.cpp uses these when vmafx::simd::enabled() says
// so (and p_norm is 3); its scalar loops stay the reference and the unit
// tests compare the two for == on every target.
//
// Without Highway (VMAFX_HAVE_HWY undefined) vmafx::simd::enabled() is false and
// these must not be called.
#include <cstddef>

#include "core/libvmaf_cpu.hpp"

namespace vmafx::fadm::simd {

// Columns per vector of the running target: the row functions below that
// take a column range need at least this many columns.
std::size_t lanes();

// The vertical step of one db2 DWT row: for j < w
//   lo_out[j] = fir4(lo, r[0][j], r[1][j], r[2][j], r[3][j])
//   hi_out[j] = fir4(hi, ...) (when hi_out is not null)
// with fir4(f, s0..s3) = (((0 + f0 * s0) + f1 * s1) + f2 * s2) + f3 * s3 in
// float.
void dwt_vertical(const float* const* r, int w, float* lo_out, float* hi_out);

// The horizontal step for output columns j0 <= j < j1 whose four inputs
// 2j - 1 .. 2j + 2 are all inside the row (1 <= j0, 2 (j1 - 1) + 2 < the row
// length; j1 - j0 >= lanes()): from tlo, a[j] = fir4(lo, ...) and
// v[j] = fir4(hi, ...); from thi (when not null), h[j] = fir4(lo, ...) and
// d[j] = fir4(hi, ...). v, h, d may be null when thi is.
void dwt_horizontal(const float* tlo, const float* thi, int j0, int j1, float* a, float* v, float* h, float* d);

// float_adm.cpp's decouple for the columns l <= j < r of one row; o / t: the
// reference / distorted h, v, d rows; rst / add: the outputs (r - l >= 1).
void decouple_row(const float* const* o, const float* const* t, int l, int r, double gain_limit, LibvmafCpu cpu,
                  float* const* rst, float* const* add);

// The CSF stage for columns l <= j < r: dst[j] = rf * src[j],
// flt[j] = float(one_by_30 * |dst[j]|) (double product).
void csf_row(const float* src, float rf, int l, int r, float* dst, float* flt);

// The denominator's p-norm terms (p = 3) of one row, columns l <= j < r
// (r - l >= lanes()): sum[t] = running float sum from 0 of
// |rf[t] * rows[t][j]|^3 (as (x * x) * x) in column order.
void den_row(const float* const* rows, const float* rf, int l, int r, float* sum);

// The masking stage's p-norm terms (p = 3) of row i of a w-wide band, columns
// l <= j < r with 1 <= l, r <= w - 1 (no mirrored column; r - l >= lanes()).
// src: the three orientations' rows i; fu / fm / fd: the masking filter
// input rows up / i / down per orientation; ang: the CSF-weighted rows i
// whose |value| / 15 enters the centre; bypass: no threshold (bypass_cm).
// sum[t] as in den_row.
void masked_row(const float* const* src, const float* const* fu, const float* const* fm, const float* const* fd,
                const float* const* ang, const float* rf, int l, int r, bool bypass, float* sum);

// The RCPSS estimate (flt::rcp_estimate, intel or amd) on n values, for the tests.
void rcp_estimate_n(const float* x, int n, LibvmafCpu cpu, float* out);

}  // namespace vmafx::fadm::simd
