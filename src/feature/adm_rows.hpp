// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The row functions of the integer ADM (feature/adm.cpp): one slot per hot
// row of its stages. scalar_rows() holds the reference rows (adm.cpp, every
// sample through exact/adm.h); rows() is that table with the SIMD rows of
// feature/adm_simd.cpp (Google Highway, runtime dispatch) put over it when
// vmafx::simd::enabled() (one switch, VMAFX_SIMD=off, for all SIMD). A SIMD
// row computes what the scalar row computes, integer for integer: the same
// widths, rounding constants and shifts, the same int16 truncations and
// int32 wrap-arounds, the decoupling's float / double steps per lane with the
// same IEEE operations. The unit tests compare the two tables for == on
// random rows, on every SIMD target.
#include <cstdint>

namespace vmafx::adm {

// Contrast masking reads the masker band itself and forms its CSF on the fly
// (the same integers as csf_s0 / csf_s123 would store). Scale 0's constants
// of band t: factor = the s0 rfactor (the CSF's and the masking's);
// csf_add / csf_shift, thr_shift, sq_round and sq_shift are exact/adm_tables.h's
// vmafx_adm_s0_csf_round / _csf_shift / _thr_shift / _sq_round / _sq_shift
// (the SIMD rows read them from here); add_cub / shift_cub the per-sample
// rounding of the cube.
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
// shift_cub: the per-sample rounding of the cube.
struct CmS123 {
  std::uint32_t factor[3];
  std::int64_t add_cub;
  int shift_cub;
};
// cm_box's H of the masker rows im, i, ip and its Z of row i: the masking
// threshold at (i, j) (the three bands' 8 filter-input neighbours and centre
// weights) is hm[j] + h0[j] + hp[j] + z0[j] (wrapping int32).
struct CmBox {
  const std::int32_t *hm, *h0, *hp, *z0;
};

struct Rows {
  // The DWT's two passes for one output row i: r[0..3] are the source rows
  // of taps 2i - 1 .. 2i + 2 (mirrored; w >= 3 samples each). Writes columns
  // [0, (w+1)/2) of oa and (unless lo_only, scale 0) of ov, oh and od.
  // Scale 1 reads int16 (the scale-0 approximation band), scales 2 and 3 int32.
  void (*dwt_s0_8)(const std::uint8_t* const r[4], int w, int bpc, bool lo_only, std::int16_t* oa, std::int16_t* ov,
                   std::int16_t* oh, std::int16_t* od);
  void (*dwt_s0_16)(const std::uint16_t* const r[4], int w, int bpc, bool lo_only, std::int16_t* oa, std::int16_t* ov,
                    std::int16_t* oh, std::int16_t* od);
  void (*dwt_s123_16)(const std::int16_t* const r[4], int w, int scale, std::int32_t* oa, std::int32_t* ov,
                      std::int32_t* oh, std::int32_t* od);
  void (*dwt_s123_32)(const std::int32_t* const r[4], int w, int scale, std::int32_t* oa, std::int32_t* ov,
                      std::int32_t* oh, std::int32_t* od);
  // The decoupling over n columns of one row: o[b] / t[b] are the reference /
  // distorted bands b = h, v, d at that row, r[b] / a[b] the restored and
  // additive outputs (no output may alias an input). lut is adm.cpp's division
  // table (lut[o + 32768], scale 0; scales 1..3 use their own), cos1_sq its
  // kCos1DegSq, egl the enhancement-gain limit (the option: [1, 100]).
  void (*decouple_s0)(const std::int16_t* const o[3], const std::int16_t* const t[3], int n, const std::int32_t* lut,
                      float cos1_sq, double egl, std::int16_t* const r[3], std::int16_t* const a[3]);
  void (*decouple_s123)(const std::int32_t* const o[3], const std::int32_t* const t[3], int n, float cos1_sq,
                        double egl, std::int32_t* const r[3], std::int32_t* const a[3]);
  // The CSF over n samples of one band row: o = CSF-weighted s, f = the
  // masking filter's input. Scale 0: add / shift = the band's
  // vmafx_adm_s0_csf_round / _shift.
  void (*csf_s0)(const std::int16_t* s, int n, std::int32_t factor, std::int32_t add, int shift, std::int16_t* o,
                 std::int16_t* f);
  void (*csf_s123)(const std::int32_t* s, int n, std::uint32_t factor, std::int32_t* o, std::int32_t* f);
  // The threshold sums of one row of the masker m (its three bands at that
  // row): with f_t the masking filter's input of band t and c_t its centre
  // weight, F[j] = f_0[j] + f_1[j] + f_2[j] and Z[j] = c_0[j] + c_1[j] +
  // c_2[j] - F[j] for lo - 1 <= j < hi + 1, and H[j] = F[j-1] + F[j] + F[j+1]
  // for lo <= j < hi, in wrapping int32 (nothing when hi <= lo). Needs
  // 1 <= lo and hi + 1 <= w.
  void (*cm_box_s0)(const std::int16_t* const m[3], const CmS0& k, int lo, int hi, std::int32_t* F, std::int32_t* H,
                    std::int32_t* Z);
  void (*cm_box_s123)(const std::int32_t* const m[3], const CmS123& k, int lo, int hi, std::int32_t* F, std::int32_t* H,
                      std::int32_t* Z);
  // The masking terms of row i summed over columns [left, right), for the
  // three bands t: src[t] the masked band at row i, box the threshold sums of
  // row i (cm_box over [left, right)). Adds each band's row sum to inner[t]
  // (wrapping; the per-row rounding stays with the caller).
  void (*cm_s0)(const std::int16_t* const src[3], const CmBox& box, int left, int right, const CmS0& k,
                std::int64_t inner[3]);
  void (*cm_s123)(const std::int32_t* const src[3], const CmBox& box, int left, int right, const CmS123& k,
                  std::int64_t inner[3]);
  // The denominator's row sums: adds the sum over n columns of the term of
  // b[t][j] (exact/adm.h's vmafx_adm_s0_den / vmafx_adm_s123_den, 0 <=
  // shift_cub < 64) to inner[t] (uint64, wrapping).
  void (*den_s0)(const std::int16_t* const b[3], int n, std::uint64_t inner[3]);
  void (*den_s123)(const std::int32_t* const b[3], int n, int sq_shift, std::uint64_t add_cub, int shift_cub,
                   std::uint64_t inner[3]);
};

// The reference rows (always built).
const Rows& scalar_rows();
// scalar_rows() with the SIMD rows over it while vmafx::simd::enabled();
// asked once per stage, not per row.
const Rows& rows();
// adm_simd.cpp (with Highway): puts its rows over r's.
void init_simd_rows(Rows& r);

namespace simd {
// The decoupling's rounding of an int64 to float (as (float)x), for the unit
// tests: out[j] = the SIMD rows' float of x[j], j < n (Highway only).
void float_of_int64(const std::int64_t* x, int n, float* out);
}  // namespace simd

}  // namespace vmafx::adm
