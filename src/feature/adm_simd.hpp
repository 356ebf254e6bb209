// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD row passes of the integer ADM (feature/adm.cpp), through Google Highway
// with runtime dispatch, like feature/vif_simd.hpp.
//
// Each function does what one row of a loop of adm.cpp does, integer for
// integer: the same widths, rounding constants and shifts, the same int16
// truncations and int32 wrap-arounds. The scalar loops of adm.cpp stay the
// reference; adm.cpp uses these when vmafx::simd::enabled() says so (one switch,
// VMAFX_SIMD=off, for all SIMD), and the unit tests compare the two for == on
// random rows. The decoupling's float / double angle test and gain limit are
// done per lane with the same IEEE operations (see adm_simd.cpp). The masking
// rows fold csf_* into cm_* (the same numbers without the CSF planes).
//
// Without Highway (VMAFX_HAVE_HWY undefined) vmafx::simd::enabled() is false and
// these functions must not be called.
#include <cstdint>

namespace vmafx::adm::simd {

// dwt_s0's two passes for one output row i: r[0..3] are the source rows
// iy[4i .. 4i+3] (w >= 3 samples each). Writes columns [0, (w+1)/2) of oa and,
// unless lo_only, of ov, oh and od.
void dwt_s0_row(const std::uint8_t* const r[4], int w, int bpc, bool lo_only, std::int16_t* oa, std::int16_t* ov,
                std::int16_t* oh, std::int16_t* od);
void dwt_s0_row(const std::uint16_t* const r[4], int w, int bpc, bool lo_only, std::int16_t* oa, std::int16_t* ov,
                std::int16_t* oh, std::int16_t* od);

// csf_s0's inner loop over n samples of one band row: o = CSF-weighted s,
// f = the masking-filter input (add / shift: vmafx_adm_s0_csf_round/shift).
void csf_s0_row(const std::int16_t* s, int n, std::int32_t factor, std::int32_t add, int shift, std::int16_t* o,
                std::int16_t* f);
// csf_s123's inner loop over n samples of one band row.
void csf_s123_row(const std::int32_t* s, int n, std::uint32_t factor, std::int32_t* o, std::int32_t* f);

// Contrast masking with the CSF of the masker formed on the fly: the SIMD
// path replaces csf_s0 + cm_s0 (csf_s123 + cm_s123) by these, which read the
// masker band itself. Valid where cm's column mirroring is not needed
// (1 <= left <= right <= w - 1); rows are mirrored by the caller.
//
// Scale 0's constants of band t: factor = the s0 rfactor (the CSF's and the
// masking's), csf_add / csf_shift = vmafx_adm_s0_csf_round / _shift, and the
// masking's thr_shift, sq_round, sq_shift (adm_tables.h) and add_cub /
// shift_cub (cm_s0's).
struct CmS0 {
  std::int32_t factor[3];
  std::int32_t csf_add[3];
  int csf_shift[3];
  int thr_shift[3];
  std::int64_t sq_round[3];
  int sq_shift[3];
  std::int64_t add_cub[3];
  int shift_cub[3];
};
// Scales 1-3: factor = the scale's s123 rfactor of each band; add_cub /
// shift_cub: cm_s123's per-pixel rounding of the cube.
struct CmS123 {
  std::uint32_t factor[3];
  std::int64_t add_cub;
  int shift_cub;
};

// The threshold sums of one row of the masker m (its three bands at that
// row): with f_t the masking-filter input of band t (csf_*'s flt output) and
// c_t its centre weight (cm_*'s "centre"), F[j] = f_0[j] + f_1[j] + f_2[j] and
// Z[j] = c_0[j] + c_1[j] + c_2[j] - F[j] for lo - 1 <= j < hi + 1, and
// H[j] = F[j-1] + F[j] + F[j+1] for lo <= j < hi, in wrapping int32. Needs
// 1 <= lo and hi + 1 <= w.
void cm_box_row(const std::int16_t* const m[3], const CmS0& k, int lo, int hi, std::int32_t* F, std::int32_t* H,
                std::int32_t* Z);
void cm_box_row(const std::int32_t* const m[3], const CmS123& k, int lo, int hi, std::int32_t* F, std::int32_t* H,
                std::int32_t* Z);
// cm_box_row's H of the masker rows im, i, ip and its Z of row i: cm's
// threshold at (i, j) (the three bands' 8 filter-input neighbours and centre
// weights) is hm[j] + h0[j] + hp[j] + z0[j].
struct CmBox {
  const std::int32_t *hm, *h0, *hp, *z0;
};

// The masking terms of row i summed over columns [left, right), for the three
// bands t (h, v, d): src[t] the masked band at row i, box the threshold sums
// of row i (cm_box_row over [left, right)). Adds each band's row sum to
// inner[t] (before the per-row rounding, which stays with the caller).
void cm_s0_row(const std::int16_t* const src[3], const CmBox& box, int left, int right, const CmS0& k,
               std::int64_t inner[3]);
void cm_s123_row(const std::int32_t* const src[3], const CmBox& box, int left, int right, const CmS123& k,
                 std::int64_t inner[3]);

// decouple_s0 over n columns of one row: o[b] / t[b] are the reference /
// distorted bands b = h, v, d at that row, r[b] / a[b] the restored and
// additive outputs (no output may alias an input). lut is adm.cpp's division
// table (lut[o + 32768]), cos1_sq its kCos1DegSq, egl the enhancement-gain
// limit (>= 0; the option allows [1, 100]).
void decouple_s0_row(const std::int16_t* const o[3], const std::int16_t* const t[3], int n, const std::int32_t* lut,
                     float cos1_sq, double egl, std::int16_t* const r[3], std::int16_t* const a[3]);

// dwt_s123's two passes for one output row i of scale 1 (int16 source, the
// scale-0 approximation band) or scale 2 / 3 (int32 source): r[0..3] are the
// source rows iy[4i .. 4i+3] (w >= 3 samples each). Writes columns
// [0, (w+1)/2) of oa, ov, oh and od. Needs adm_tables.h's roundings and
// shifts of that scale as they are (vertical: none at scale 1, (x + 2^15) >> 16
// after; horizontal: (x + 2^(s-1)) >> s with s = 15 or 16).
void dwt_s123_row(const std::int16_t* const r[4], int w, int scale, std::int32_t* oa, std::int32_t* ov,
                  std::int32_t* oh, std::int32_t* od);
void dwt_s123_row(const std::int32_t* const r[4], int w, int scale, std::int32_t* oa, std::int32_t* ov,
                  std::int32_t* oh, std::int32_t* od);

// decouple_s123 over n columns of one row (as decouple_s0_row, int32 bands;
// the division table's entries are computed, not looked up).
void decouple_s123_row(const std::int32_t* const o[3], const std::int32_t* const t[3], int n, float cos1_sq, double egl,
                       std::int32_t* const r[3], std::int32_t* const a[3]);

// den_s0's row sums: adds the sum over n columns of |b[t][j]|^3 to inner[t].
void den_s0_row(const std::int16_t* const b[3], int n, std::uint64_t inner[3]);
// den_s123's row sums: adds the sum over n columns of
// ((((x * x) + 2^sq_shift) >> sq_shift) * x + add_cub) >> shift_cub, x = |b[t][j]|
// (uint64 arithmetic, wrapping sums) to inner[t]. 0 <= shift_cub < 64.
void den_s123_row(const std::int32_t* const b[3], int n, int sq_shift, std::uint64_t add_cub, int shift_cub,
                  std::uint64_t inner[3]);

// The decoupling's rounding of an int64 to float (as (float)x), for the unit
// tests: out[j] = the SIMD path's float of x[j], j < n.
void float_of_int64(const std::int64_t* x, int n, float* out);

}  // namespace vmafx::adm::simd
