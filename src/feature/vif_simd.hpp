// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD row passes of the integer VIF (feature/vif.cpp), through Google
// Highway with runtime dispatch (AVX-512, AVX2, SSE4, SSSE3 on x86).
//
// Each function does what one loop of vif.cpp's statistic<T, TAPS> or
// subsample<T, TAPS> does for one row, integer for integer: the same widths
// (32-bit mean sums that may wrap, 64-bit moment sums), the same rounding
// shifts and truncations, the same 32-bit wrap of the sigma differences. The
// scalar loops in vif.cpp stay the reference; vif.cpp uses these when
// enabled() says so, and the unit tests compare the two for == on random rows.
//
// core/simd.hpp says whether they run (simd::enabled()); without Highway
// (VMAFX_HAVE_HWY undefined) the row functions must not be called.
#include <cstdint>
#include <vector>

namespace vmafx::vif::simd {

// Rounding of a vertical pass (vif.cpp's VerticalShift).
struct Shift {
  std::uint32_t mu_round;
  int mu_shift;
  std::uint64_t sq_round;
  int sq_shift;
};

// statistic's vertical pass over one row: rr[k], dr[k] (k < taps) are the
// source rows, columns [0, w). Writes t[0..4][0, w): mu1, mu2 (uint16 values),
// xx, yy, xy. The 8-bit overload is for 8-bit scale 0 only (sq_round and
// sq_shift must be 0, which vertical_shift gives there).
void stat_vertical(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c, int taps,
                   int w, const Shift& s, std::uint32_t* const* t);
void stat_vertical(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c, int taps,
                   int w, const Shift& s, std::uint32_t* const* t);

// statistic's horizontal pass: t[0..4] are the vertical rows, mirror-padded
// by taps/2 on each side; the mean rows t[0], t[1] hold uint16 values (as
// vif.cpp's vertical pass writes them), the moment rows any uint32. Writes the
// per-pixel sigma1_sq, sigma2_sq, sigma12 (before accumulate's clamps) for
// columns [0, w). Uses per-thread scratch (grown once).
void stat_horizontal(const std::uint32_t* const* t, const std::uint16_t* c, int taps, int w, std::int32_t* s1,
                     std::int32_t* s2, std::int32_t* s12);

// subsample's vertical pass (means only): columns [0, w) into t_ref, t_dis.
void sub_vertical(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c, int taps, int w,
                  std::uint32_t mu_round, int mu_shift, std::uint32_t* t_ref, std::uint32_t* t_dis);
void sub_vertical(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c, int taps,
                  int w, std::uint32_t mu_round, int mu_shift, std::uint32_t* t_ref, std::uint32_t* t_dis);

// subsample's horizontal pass: output column jo (< ow) filters the padded
// rows around column 2*jo.
void sub_horizontal(const std::uint32_t* t_ref, const std::uint32_t* t_dis, const std::uint16_t* c, int taps, int ow,
                    std::uint16_t* o_ref, std::uint16_t* o_dis);

// accumulate() of vif.cpp over one row: adds to acc[0..3] (num_log, den_log,
// num_non_log, den_non_log, Accum's order) exactly what the w calls
// accumulate(acc, s1[j], s2[j], s12[j], gain_limit), j < w, add.
// Requires accumulate_supports(gain_limit) (the exactness proof in
// vif_simd.cpp needs |gain_limit| <= 1024; vmaf's option allows 1 to 100).
bool accumulate_supports(double gain_limit);
void accumulate_row(const std::int32_t* s1, const std::int32_t* s2, const std::int32_t* s12, int w, double gain_limit,
                    std::int64_t* acc);

}  // namespace vmafx::vif::simd
