// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD rows of integer motion (motion::Rows, feature/motion.hpp), through
// Google Highway with runtime dispatch, like feature/vif_simd.cpp.
//
// The same integers as the scalar code: the vertical 5-tap pass on the
// difference with the bit-depth rounding, the horizontal 5-tap pass with
// mirrored edges and its (x + 2^15) >> 16 rounding, |.|, a uint32 row sum that
// wraps like the scalar one, a uint64 total. motion::rows() puts these over
// the scalar rows while vmafx::simd::enabled() (one switch, VMAFX_SIMD=off,
// for all SIMD); the scalar rows stay the reference and the unit tests
// compare the two for == on every target.
//
// Without Highway (VMAFX_HAVE_HWY undefined) there are none.
#include "feature/motion.hpp"

namespace vmafx::motion {

// Overwrites the rows of `r` that have a SIMD version (none without
// Highway).
void init_simd_rows(Rows& r);

}  // namespace vmafx::motion
