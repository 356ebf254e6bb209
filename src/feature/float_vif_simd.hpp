// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD rows of the float VIF (feature/float_vif.cpp), through Google Highway
// with runtime dispatch, like feature/float_simd.hpp: init_simd_rows() puts
// them in the row table (fvif::Rows) that fvif::rows() returns while
// vmafx::simd::enabled().
//
// Vectorised across output columns only: every lane does, for its column, the
// float / double operations of float_vif.cpp's scalar loops in their order
// (separate IEEE multiply and add; -ffp-contract=off). Sums along a row (the
// statistic's row totals) are not split: the lanes' values are added to one
// running float in column order, as the scalar loop does. float_vif.cpp uses
// these when vmafx::simd::enabled() says so; its scalar loops stay the
// reference (scalar_rows()) and the unit tests compare the two for == on
// every target.
//
// Without Highway (VMAFX_HAVE_HWY undefined) vmafx::simd::enabled() is false,
// rows() is scalar_rows(), and log2_approx_n must not be called.

namespace vmafx::fvif::simd {

// float_vif.cpp's log2 polynomial (log2_approx) on n values, for the tests.
void log2_approx_n(const float* x, int n, float* out);

}  // namespace vmafx::fvif::simd
