// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD rows of the float VIF (feature/float_vif.cpp), through Google Highway
// with runtime dispatch, like feature/float_simd.hpp.
//
// Vectorised across output columns only: every lane does, for its column, the
// float / double operations of float_vif.cpp's scalar loops in their order
// (separate IEEE multiply and add; -ffp-contract=off). Sums along a row (the
// statistic's row totals) are not split: the lanes' values are added to one
// running float in column order, as the scalar loop does. float_vif.cpp uses
// these when vmafx::simd::enabled() says so; its scalar loops stay the
// reference and the unit tests compare the two for == on every target.
//
// Without Highway (VMAFX_HAVE_HWY undefined) vmafx::simd::enabled() is false and
// these must not be called.

namespace vmafx::fvif::simd {

// The vertical pass of the statistic for output rows: with a_k = ra[k] and
// b_k = rb[k] the input rows of tap k, for j < w
//   t[0][j] = sum_k f[k] * a_k[j]          t[1][j] = sum_k f[k] * b_k[j]
//   t[2][j] = sum_k f[k] * (a_k * a_k)[j]  t[3][j] = sum_k f[k] * (b_k * b_k)[j]
//   t[4][j] = sum_k f[k] * (a_k * b_k)[j]
// accumulated in float from 0 in tap order k = 0 .. fw - 1.
void moments_vertical(const float* f, int fw, const float* const* ra, const float* const* rb, int w, float* const* t);
// Two neighbouring output rows at once: ra / rb hold fw + 1 rows; t (the
// first row) uses rows 0 .. fw - 1, u (the second) rows 1 .. fw.
void moments_vertical2(const float* f, int fw, const float* const* ra, const float* const* rb, int w, float* const* t,
                       float* const* u);

// The statistic's constants (float_vif.cpp's Stat).
struct StatConsts {
  float sigma_nsq_max_inv;
  float gain_limit;
  double sigma_nsq;
};

// vif_statistic_s for one row of filtered moments: *num and *den get the
// per-column contributions summed in float from 0 in column order.
void stat_row(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int w,
              const StatConsts& c, float* num, float* den);

// float_vif.cpp's log2 polynomial (log2_approx) on n values, for the tests.
void log2_approx_n(const float* x, int n, float* out);

}  // namespace vmafx::fvif::simd
