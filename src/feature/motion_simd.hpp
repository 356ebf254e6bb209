// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD twin of motion::sad (feature/motion.cpp), through Google Highway with
// runtime dispatch, like feature/vif_simd.hpp.
//
// The same integers as the scalar code: the vertical 5-tap pass on the
// difference with the bit-depth rounding, the horizontal 5-tap pass with
// mirrored edges and its (x + 2^15) >> 16 rounding, |.|, a uint32 row sum that
// wraps like the scalar one, a uint64 total. motion.cpp calls this when
// vmafx::simd::enabled() says so (one switch, VMAFX_SIMD=off, for all SIMD);
// the scalar loops stay the reference and the unit tests compare the two for
// == on every target.
//
// Without Highway (VMAFX_HAVE_HWY undefined) vmafx::simd::enabled() is false and
// sad() must not be called.
#include <cstdint>

#include "vmaf_exact/picture.hpp"

namespace vmafx::motion::simd {

// motion::sad without the caller's row buffer (per-thread scratch instead).
// prev, cur: luma planes of the same size, at least 3x3; uint8_t samples when
// bpc == 8, uint16_t for 9 <= bpc <= 16.
std::uint64_t sad(const PlaneView& prev, const PlaneView& cur, int bpc);

}  // namespace vmafx::motion::simd
