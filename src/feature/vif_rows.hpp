// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The row functions of the integer VIF (feature/vif.cpp): one slot per row
// pass of its statistic and its subsampling, and the row of accumulate().
// scalar_rows() holds the reference rows (vif.cpp); rows() is that table with
// the SIMD rows of feature/vif_simd.cpp (Google Highway, runtime dispatch)
// put over it while vmafx::simd::enabled() (one switch, VMAFX_SIMD=off, for
// all SIMD). A SIMD row computes what the scalar row computes, integer for
// integer: the same widths (32-bit mean sums that may wrap, 64-bit moment
// sums), the same rounding shifts and truncations, the same 32-bit wrap of the
// sigma differences. The unit tests compare the two tables for == on random
// rows, on every SIMD target.
//
// In every slot c is the filter (exact/vif_tables.h's vmafx_vif_filter[s])
// and taps its width (17, 9, 5 or 3).
#include <cstdint>

namespace vmafx::vif {

// Rounding added before, and shift applied after, a vertical pass: the means
// (mu) and the second moments (sq).
struct Shift {
  std::uint32_t mu_round;
  int mu_shift;
  std::uint64_t sq_round;
  int sq_shift;
};

struct Rows {
  // The statistic's vertical pass over one row: rr[k], dr[k] (k < taps) are
  // the source rows, columns [0, w). Writes t[0..4][0, w): mu1, mu2 (uint16
  // values), xx, yy, xy. The 8-bit slot is for 8-bit scale 0 only (sq_round
  // and sq_shift are 0 there).
  void (*stat_vertical_8)(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c,
                          int taps, int w, const Shift& s, std::uint32_t* const* t);
  void (*stat_vertical_16)(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c,
                           int taps, int w, const Shift& s, std::uint32_t* const* t);
  // The statistic's horizontal pass: t[0..4] are the vertical rows,
  // mirror-padded by taps/2 on each side; the mean rows t[0], t[1] hold
  // uint16 values (as the vertical pass writes them), the moment rows any
  // uint32. Writes the per-pixel sigma1_sq, sigma2_sq, sigma12 (before
  // accumulate's clamps) for columns [0, w).
  void (*stat_horizontal)(const std::uint32_t* const* t, const std::uint16_t* c, int taps, int w, std::int32_t* s1,
                          std::int32_t* s2, std::int32_t* s12);
  // accumulate() over one row: adds to acc[0..3] (num_log, den_log,
  // num_non_log, den_non_log, Accum's order) what the w calls
  // accumulate(a, s1[j], s2[j], s12[j], gain_limit), j < w, add. Only for a
  // gain limit that accumulate_supports() accepts (the SIMD row's exactness
  // proof needs |gain_limit| <= 1024; the option allows 1 to 100); the
  // scalar row accepts any.
  bool (*accumulate_supports)(double gain_limit);
  void (*accumulate_row)(const std::int32_t* s1, const std::int32_t* s2, const std::int32_t* s12, int w,
                         double gain_limit, std::int64_t* acc);
  // The subsampling's vertical pass (means only): columns [0, w) into t_ref,
  // t_dis (uint16 values).
  void (*sub_vertical_8)(const std::uint8_t* const* rr, const std::uint8_t* const* dr, const std::uint16_t* c, int taps,
                         int w, std::uint32_t mu_round, int mu_shift, std::uint32_t* t_ref, std::uint32_t* t_dis);
  void (*sub_vertical_16)(const std::uint16_t* const* rr, const std::uint16_t* const* dr, const std::uint16_t* c,
                          int taps, int w, std::uint32_t mu_round, int mu_shift, std::uint32_t* t_ref,
                          std::uint32_t* t_dis);
  // The subsampling's horizontal pass: output column jo (< ow) filters the
  // rows (mirror-padded by taps/2) around column 2*jo.
  void (*sub_horizontal)(const std::uint32_t* t_ref, const std::uint32_t* t_dis, const std::uint16_t* c, int taps,
                         int ow, std::uint16_t* o_ref, std::uint16_t* o_dis);
};

// The reference rows (always built).
const Rows& scalar_rows();
// scalar_rows() with the SIMD rows over it while vmafx::simd::enabled();
// asked once per frame, not per row.
const Rows& rows();
// vif_simd.cpp: puts its rows over r's (nothing without Highway).
void init_simd_rows(Rows& r);

}  // namespace vmafx::vif
