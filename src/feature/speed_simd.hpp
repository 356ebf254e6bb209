// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD rows of SpEED (feature/speed.hpp, speed::Rows), through Google
// Highway with runtime dispatch, like feature/vif_simd.cpp.
//
// block_moments: the 25 means are float sums and the 325 covariances double
// sums, each accumulated over the window positions in raster order; here each
// sum is a lane of its own that takes exactly the scalar sequence of
// additions (the lanes of a vector are 5 neighbouring window offsets, or
// 2..8 of the 25 offsets), so every mean and covariance has the scalar bits.
// to_float8 / to_float16: the float row conversions of float_simd.hpp.
//
// Only with Highway (VMAFX_HAVE_HWY); speed::rows() puts these over
// the scalar rows while vmafx::simd::enabled(), and the unit tests compare
// them with speed::scalar_rows() for == on every target.
#include "feature/speed.hpp"

namespace vmafx::speed {

// Overwrites the rows of `r` that have a SIMD version (none without
// Highway).
void init_simd_rows(Rows& r);

}  // namespace vmafx::speed
