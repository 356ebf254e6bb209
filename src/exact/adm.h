/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-sample arithmetic of the integer ADM (feature/adm.cpp, libvmaf
 * integer_adm.c), written once for the CPU's scalar loops, the CUDA twin
 * (feature/cuda/adm.cu) and the OpenCL twin (feature/opencl/adm.cl): the DWT
 * taps and roundings, the decoupling, the CSF and masking-filter steps, the
 * contrast-masking terms and the denominator terms. Integer widths, wrap-
 * arounds (through unsigned arithmetic), shifts and rounding constants are
 * the reference's. The loops, the mirroring of rows and columns at the band
 * edges and the per-row rounding of the sums stay with the callers.
 *
 * Two steps of the decoupling leave integers: the 1-degree angle test
 * (int64 -> float -> double products and a comparison) and the enhancement-
 * gain limit (a double product, a comparison and a truncation). The host and
 * CUDA evaluate them in double as the reference does; OpenCL C, which has no
 * fp64, decides them with fp32 where that is certain and replays the rest in
 * soft fp64 (softfp64.h): the same results. */
#ifndef VMAFX_EXACT_ADM_H
#define VMAFX_EXACT_ADM_H

#include "compat.h"
#include "adm_tables.h"

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_ADM_OPENCL 1
#include "softfp64.h"
#endif

/* ---- DWT ---------------------------------------------------------------- */

/* Source index of tap position x = 2 i - 1 + k (k = 0..3) of output i for an
 * input of n >= 5 samples: -1 mirrors to 1, n + m to n - 1 - m. */
VMAFX_FN int vmafx_adm_mirror(int x, int n) { return x < 0 ? 1 : (x >= n ? 2 * n - x - 1 : x); }
VMAFX_FN int vmafx_adm_dwt_src(int i, int k, int n) { return vmafx_adm_mirror(2 * i - 1 + k, n); }

/* The low- and high-pass tap sums in 64 bits (no overflow for any input the
 * stages give) and in 32 bits (scale 0's horizontal pass: int16 inputs). */
VMAFX_FN vmafx_i64 vmafx_adm_lo4(vmafx_i64 a, vmafx_i64 b, vmafx_i64 c, vmafx_i64 d)
{
    return vmafx_adm_dwt_lo[0] * a + vmafx_adm_dwt_lo[1] * b + vmafx_adm_dwt_lo[2] * c + vmafx_adm_dwt_lo[3] * d;
}
VMAFX_FN vmafx_i64 vmafx_adm_hi4(vmafx_i64 a, vmafx_i64 b, vmafx_i64 c, vmafx_i64 d)
{
    return vmafx_adm_dwt_hi[0] * a + vmafx_adm_dwt_hi[1] * b + vmafx_adm_dwt_hi[2] * c + vmafx_adm_dwt_hi[3] * d;
}
VMAFX_FN vmafx_i32 vmafx_adm_lo4_32(vmafx_i32 a, vmafx_i32 b, vmafx_i32 c, vmafx_i32 d)
{
    return vmafx_adm_dwt_lo[0] * a + vmafx_adm_dwt_lo[1] * b + vmafx_adm_dwt_lo[2] * c + vmafx_adm_dwt_lo[3] * d;
}
VMAFX_FN vmafx_i32 vmafx_adm_hi4_32(vmafx_i32 a, vmafx_i32 b, vmafx_i32 c, vmafx_i32 d)
{
    return vmafx_adm_dwt_hi[0] * a + vmafx_adm_dwt_hi[1] * b + vmafx_adm_dwt_hi[2] * c + vmafx_adm_dwt_hi[3] * d;
}

/* Scale 0, vertical pass over samples u0..u3 of bpc bits: the low band is
 * centred on zero (the taps' sum times 2^(bpc-1) taken off), both rounded by
 * 2^(bpc-1) and shifted by bpc, stored as int16 (wrapping). */
VMAFX_FN vmafx_i32 vmafx_adm_dwt0_vlo(vmafx_i64 u0, vmafx_i64 u1, vmafx_i64 u2, vmafx_i64 u3, int bpc)
{
    const vmafx_i64 add = (vmafx_i64)1 << (bpc - 1);
    return (short)((vmafx_adm_lo4(u0, u1, u2, u3) - VMAFX_ADM_DWT_LO_SUM * add + add) >> bpc);
}
VMAFX_FN vmafx_i32 vmafx_adm_dwt0_vhi(vmafx_i64 u0, vmafx_i64 u1, vmafx_i64 u2, vmafx_i64 u3, int bpc)
{
    const vmafx_i64 add = (vmafx_i64)1 << (bpc - 1);
    return (short)((vmafx_adm_hi4(u0, u1, u2, u3) + add) >> bpc);
}
/* Scale 0, horizontal pass over int16 values: (sum + 2^15) >> 16, as int16. */
VMAFX_FN vmafx_i32 vmafx_adm_dwt0_hlo(vmafx_i32 a, vmafx_i32 b, vmafx_i32 c, vmafx_i32 d)
{
    return (short)((vmafx_adm_lo4_32(a, b, c, d) + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);
}
VMAFX_FN vmafx_i32 vmafx_adm_dwt0_hhi(vmafx_i32 a, vmafx_i32 b, vmafx_i32 c, vmafx_i32 d)
{
    return (short)((vmafx_adm_hi4_32(a, b, c, d) + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);
}
/* Scales 1..3, either pass: (sum + round) >> shift as int32, with the
 * scale's vmafx_adm_s123_{v,h}_{round,shift}. */
VMAFX_FN vmafx_i32 vmafx_adm_dwt123_lo(vmafx_i64 a, vmafx_i64 b, vmafx_i64 c, vmafx_i64 d, vmafx_i64 round, int shift)
{
    return (vmafx_i32)((vmafx_adm_lo4(a, b, c, d) + round) >> shift);
}
VMAFX_FN vmafx_i32 vmafx_adm_dwt123_hi(vmafx_i64 a, vmafx_i64 b, vmafx_i64 c, vmafx_i64 d, vmafx_i64 round, int shift)
{
    return (vmafx_i32)((vmafx_adm_hi4(a, b, c, d) + round) >> shift);
}

/* ---- Decoupling ----------------------------------------------------------- */

/* |x| of an int32, INT32_MIN staying INT32_MIN (the reference's abs()). */
VMAFX_FN vmafx_i32 vmafx_adm_abs32(vmafx_i32 x) { return (vmafx_i32)(x < 0 ? 0u - (vmafx_u32)x : (vmafx_u32)x); }
/* a - b, wrapping. */
VMAFX_FN vmafx_i32 vmafx_adm_sub32(vmafx_i32 a, vmafx_i32 b) { return (vmafx_i32)((vmafx_u32)a - (vmafx_u32)b); }

/* a * b + c * d of two int32 pairs, the sum wrapping in 64 bits. */
VMAFX_FN vmafx_i64 vmafx_adm_dot2(vmafx_i64 a, vmafx_i64 b, vmafx_i64 c, vmafx_i64 d)
{
    return (vmafx_i64)((vmafx_u64)(a * b) + (vmafx_u64)(c * d));
}

/* The reference's division table: 2^30 / i, negated for negative i, 0 at 0
 * (|i| <= 32768). adm.cpp looks it up; the twins compute it. */
VMAFX_FN vmafx_i32 vmafx_adm_div(vmafx_i32 i)
{
    if (i == 0) return 0;
    return i > 0 ? (vmafx_i32)(VMAFX_ADM_DIV_Q / i) : -(vmafx_i32)(VMAFX_ADM_DIV_Q / -i);
}

/* (float)v of an int64, rounded to nearest even. */
VMAFX_FN float vmafx_adm_f32_of_i64(vmafx_i64 v)
{
#ifdef VMAFX_ADM_OPENCL
    vmafx_u32 sign;
    vmafx_u64 m, q, rem;
    int lz, e;
    if (v == 0) return 0.0f;
    sign = v < 0 ? 0x80000000u : 0u;
    m = v < 0 ? (vmafx_u64)0 - (vmafx_u64)v : (vmafx_u64)v;
    lz = vmafx_clz64(m);
    m <<= lz; /* bit 63 set */
    q = m >> 40;
    rem = m & ((VMAFX_U64_ONE << 40) - 1);
    if (rem > (VMAFX_U64_ONE << 39) || (rem == (VMAFX_U64_ONE << 39) && (q & 1))) q += 1;
    e = 63 - lz; /* exponent of the leading bit */
    if (q == (VMAFX_U64_ONE << 24)) {
        q >>= 1;
        e += 1;
    }
    return as_float(sign | ((vmafx_u32)(e + 127) << 23) | (vmafx_u32)(q - (VMAFX_U64_ONE << 23)));
#else
    return (float)v;
#endif
}

#ifdef VMAFX_ADM_OPENCL
/* A normal (or zero) float as a soft double (exact). */
VMAFX_FN vmafx_sd vmafx_adm_sd_of_f32(float f)
{
    const vmafx_u32 b = as_uint(f);
    const vmafx_u64 sign = (vmafx_u64)(b >> 31) << 63;
    if ((b & 0x7FFFFFFFu) == 0) return vmafx_sd_from_bits(sign);
    return vmafx_sd_from_bits(sign | ((vmafx_u64)(((b >> 23) & 0xFFu) - 127 + 1023) << 52) |
                              ((vmafx_u64)(b & 0x7FFFFFu) << 29));
}
#endif

/* The angle test: dp^2 >= cos(1 deg)^2 * om * tm with dp, om and tm the int64
 * dot product and squared magnitudes taken through float and scaled by
 * 1/4096 in double (false when dp < 0).
 * OpenCL: the scaling is exact and common to both sides, so it drops out of
 * an fp32 filter: the left side is exactly dp^2 (a 48-bit product, fp64
 * holds it) and the right side the fp64 rounding of c * om * tm (c * om
 * exact, then one rounding). Their fp32 estimates are within 2^-23 and 2^-22
 * (relative; no overflow: every magnitude is at most 2^126; no underflow:
 * nonzero inputs are >= 1) and the margin is 2^-20, so where the filter
 * decides, the fp64 comparison decides the same way; the rest is replayed in
 * soft fp64. */
VMAFX_FN int vmafx_adm_angle_ok(vmafx_i64 ot_dp, vmafx_i64 o_mag_sq, vmafx_i64 t_mag_sq, float cos1_sq)
{
#ifdef VMAFX_ADM_OPENCL
    const float dpf = vmafx_adm_f32_of_i64(ot_dp);
    float omf, tmf, lhs, rhs;
    vmafx_sd dp, om, tm;
    if (dpf < 0.0f) return 0;
    omf = vmafx_adm_f32_of_i64(o_mag_sq);
    tmf = vmafx_adm_f32_of_i64(t_mag_sq);
    lhs = dpf * dpf;
    rhs = (cos1_sq * omf) * tmf;
    if (rhs <= lhs * (1.0f - 0x1p-20f)) return 1;
    if (rhs >= lhs * (1.0f + 0x1p-20f) && rhs > 0.0f) return 0;
    dp = vmafx_sd_mul_pow2(vmafx_adm_sd_of_f32(dpf), -12);
    om = vmafx_sd_mul_pow2(vmafx_adm_sd_of_f32(omf), -12);
    tm = vmafx_sd_mul_pow2(vmafx_adm_sd_of_f32(tmf), -12);
    return vmafx_sd_le(vmafx_sd_mul(vmafx_sd_mul(vmafx_adm_sd_of_f32(cos1_sq), om), tm), vmafx_sd_mul(dp, dp));
#else
    const double dp = (double)vmafx_adm_f32_of_i64(ot_dp) / 4096.0;
    double om, tm;
    if (!(dp >= 0.0f)) return 0;
    om = (double)vmafx_adm_f32_of_i64(o_mag_sq) / 4096.0;
    tm = (double)vmafx_adm_f32_of_i64(t_mag_sq) / 4096.0;
    return dp * dp >= (double)cos1_sq * om * tm;
#endif
}

/* The enhancement-gain limit as the kernels take it: the double on the host
 * and in CUDA; on OpenCL its bits and, when it is an integer (the option lies
 * in [1, 100]), its value (else 0). */
#ifdef VMAFX_ADM_OPENCL
typedef struct vmafx_adm_gain {
    vmafx_u64 bits;
    vmafx_i64 int_value;
} vmafx_adm_gain;
#else
typedef double vmafx_adm_gain;
#endif

/* The sign of the reference's rst_f = (k / 32768.f) * (o / 64.f): k is in
 * [0, 32768] and a nonzero product is at least 2^-21, so it is the sign of
 * k * o. */
VMAFX_FN int vmafx_adm_rst_sign(vmafx_i64 k, vmafx_i32 o) { return k == 0 || o == 0 ? 0 : (o > 0 ? 1 : -1); }

/* With the angle flag, rst scaled by the gain limit, capped at t when rst_f
 * > 0 and floored at t when rst_f < 0, in double, truncated (the result lies
 * between 0 and t, so it fits the band's type). OpenCL: for an integer limit
 * the double product is an exact integer below 2^40, so int64 arithmetic
 * gives the same; otherwise soft fp64. */
VMAFX_FN vmafx_i64 vmafx_adm_limit_gain(vmafx_i64 rst, int rst_sign, vmafx_i64 t, int angle, vmafx_adm_gain egl)
{
#ifdef VMAFX_ADM_OPENCL
    vmafx_sd x, y;
    if (!angle || rst_sign == 0) return rst;
    if (egl.int_value > 0) {
        const vmafx_i64 xi = rst * egl.int_value;
        if (rst_sign > 0) return xi < t ? xi : t;
        return t < xi ? xi : t;
    }
    x = vmafx_sd_mul(vmafx_sd_from_i64(rst), vmafx_sd_from_bits(egl.bits));
    y = vmafx_sd_from_i64(t);
    if (rst_sign > 0) return vmafx_sd_lt(x, y) ? (vmafx_i64)vmafx_sd_to_i32(x) : t;
    return vmafx_sd_lt(y, x) ? (vmafx_i64)vmafx_sd_to_i32(x) : t;
#else
    double x, y;
    if (!angle || rst_sign == 0) return rst;
    x = (double)rst * egl;
    y = (double)t;
    if (rst_sign > 0) return (vmafx_i64)(x < y ? x : y);
    return (vmafx_i64)(x > y ? x : y);
#endif
}

/* Scale 0's restored coefficient of reference o and distorted t (int16
 * values), recip = vmafx_adm_div(o): t's gain over o in Q15, clamped to
 * [0, 1], applied to o, then the gain limit. As int16. */
VMAFX_FN vmafx_i32 vmafx_adm_s0_restore(vmafx_i32 o, vmafx_i32 t, vmafx_i32 recip, int angle, vmafx_adm_gain egl)
{
    const vmafx_i32 tmp_k = o == 0 ? 32768 : (vmafx_i32)(((vmafx_i64)recip * t + 16384) >> 15);
    const vmafx_i32 k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
    const vmafx_i64 rst = (short)((k * o + 16384) >> 15);
    return (short)vmafx_adm_limit_gain(rst, vmafx_adm_rst_sign(k, o), t, angle, egl);
}

/* Scales 1..3: the division table's index for o (|o| itself below 2^15, else
 * its 15 leading bits, rounded, with *shift the bits dropped). */
VMAFX_FN vmafx_i32 vmafx_adm_s123_div_index(vmafx_i32 o, int* shift)
{
    const vmafx_u32 abs_o = (vmafx_u32)vmafx_adm_abs32(o);
    int k;
    *shift = 0;
    if (abs_o < 32768) return (vmafx_i32)abs_o;
    k = 17 - (vmafx_clz64((vmafx_u64)abs_o) - 32);
    *shift = k;
    return (vmafx_i32)(unsigned short)((abs_o + (1u << (k - 1))) >> k);
}

/* Scales 1..3's restored coefficient (int32 values): recip and shift from
 * vmafx_adm_div(vmafx_adm_s123_div_index(o, &shift)). */
VMAFX_FN vmafx_i32 vmafx_adm_s123_restore(vmafx_i32 o, vmafx_i32 t, vmafx_i32 recip, int shift, int angle,
                                          vmafx_adm_gain egl)
{
    vmafx_i64 tmp_k = 32768, k;
    if (o != 0) {
        const vmafx_i64 sign = o < 0 ? -1 : 1;
        tmp_k = (((vmafx_i64)recip * t) * sign + ((vmafx_i64)1 << (14 + shift))) >> (15 + shift);
    }
    k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
    return (vmafx_i32)vmafx_adm_limit_gain((vmafx_i32)((k * o + 16384) >> 15), vmafx_adm_rst_sign(k, o), t, angle,
                                           egl);
}

/* ---- CSF and masking filter ----------------------------------------------- */

/* Scale 0, band t (0 h, 1 v, 2 d): the CSF weight rf (uint16) applied to an
 * int16 sample, as int16. */
VMAFX_FN vmafx_i32 vmafx_adm_s0_csf(vmafx_i32 s, int t, vmafx_i32 rf)
{
    return (short)((rf * s + vmafx_adm_s0_csf_round[t]) >> vmafx_adm_s0_csf_shift[t]);
}
/* The masking filter's input from a CSF value (1/30 weight) and the centre
 * term (1/15 weight), as int16. */
VMAFX_FN vmafx_i32 vmafx_adm_s0_flt(vmafx_i32 d)
{
    return (short)((VMAFX_ADM_S0_ONE_BY_30 * (d < 0 ? -d : d) + VMAFX_ADM_S0_FLT_ROUND) >> VMAFX_ADM_S0_FLT_SHIFT);
}
VMAFX_FN vmafx_i32 vmafx_adm_s0_centre(vmafx_i32 d)
{
    return (short)((VMAFX_ADM_S0_ONE_BY_15 * (d < 0 ? -d : d) + VMAFX_ADM_S0_FLT_ROUND) >> VMAFX_ADM_S0_FLT_SHIFT);
}

/* Scales 1..3: rf * 2^32 applied to an int32 sample; the two filter terms. */
VMAFX_FN vmafx_i32 vmafx_adm_s123_csf(vmafx_i32 s, vmafx_u32 rf)
{
    return (vmafx_i32)(((vmafx_i64)rf * s + VMAFX_ADM_S123_CSF_ROUND) >> VMAFX_ADM_S123_CSF_SHIFT);
}
VMAFX_FN vmafx_i32 vmafx_adm_s123_flt(vmafx_i32 d)
{
    const vmafx_i64 x = (vmafx_i64)VMAFX_ADM_S123_ONE_BY_30 * vmafx_adm_abs32(d);
    return (vmafx_i32)((x + (vmafx_i64)VMAFX_ADM_S123_FLT_ROUND) >> VMAFX_ADM_S123_FLT_SHIFT);
}
VMAFX_FN vmafx_i32 vmafx_adm_s123_centre(vmafx_i32 d)
{
    const vmafx_i64 x = (vmafx_i64)VMAFX_ADM_S123_ONE_BY_15 * vmafx_adm_abs32(d);
    return (vmafx_i32)((x + (vmafx_i64)VMAFX_ADM_S123_FLT_ROUND) >> VMAFX_ADM_S123_FLT_SHIFT);
}

/* The masking threshold's eight neighbour terms of a 3x3 window (rows m, 0,
 * p; columns jm, j, jp), wrapping in 32 bits as the reference sums them. */
VMAFX_FN vmafx_u32 vmafx_adm_ring8(vmafx_i32 mm, vmafx_i32 m0, vmafx_i32 mp, vmafx_i32 zm, vmafx_i32 zp, vmafx_i32 pm,
                                   vmafx_i32 p0, vmafx_i32 pp)
{
    return (vmafx_u32)mm + (vmafx_u32)m0 + (vmafx_u32)mp + (vmafx_u32)zm + (vmafx_u32)zp + (vmafx_u32)pm +
           (vmafx_u32)p0 + (vmafx_u32)pp;
}

/* ---- Contrast masking and denominator terms ------------------------------- */

/* One masked sample's term: |CSF(s)| less the threshold thr (wrapping;
 * scale 0 shifts thr by the band's thr_shift first), clamped at 0, cubed
 * with the scale's roundings, then (x^3 + add_cub) >> shift_cub. */
VMAFX_FN vmafx_i64 vmafx_adm_s0_cm_term(vmafx_i32 s, int t, vmafx_i32 rf, vmafx_u32 thr, vmafx_i64 add_cub,
                                        int shift_cub)
{
    vmafx_i32 x = vmafx_adm_sub32(vmafx_adm_abs32(s * rf), (vmafx_i32)(thr << vmafx_adm_s0_thr_shift[t]));
    vmafx_i32 x_sq;
    x = x < 0 ? 0 : x;
    x_sq = (vmafx_i32)(((vmafx_i64)x * x + vmafx_adm_s0_sq_round[t]) >> vmafx_adm_s0_sq_shift[t]);
    return ((vmafx_i64)x_sq * x + add_cub) >> shift_cub;
}
VMAFX_FN vmafx_i64 vmafx_adm_s123_cm_term(vmafx_i32 s, vmafx_u32 rf, vmafx_u32 thr, vmafx_i64 add_cub, int shift_cub)
{
    vmafx_i32 x = vmafx_adm_sub32(vmafx_adm_abs32(vmafx_adm_s123_csf(s, rf)), (vmafx_i32)thr);
    vmafx_i32 x_sq;
    x = x < 0 ? 0 : x;
    x_sq = (vmafx_i32)(((vmafx_i64)x * x + VMAFX_ADM_S123_SQ_ROUND) >> VMAFX_ADM_S123_SQ_SHIFT);
    return ((vmafx_i64)x_sq * x + add_cub) >> shift_cub;
}

/* The denominator's term of a reference sample: scale 0 |b|^3 (|b| as
 * uint16); scales 1..3 ((|b|^2 + 2^sq_shift) >> sq_shift) * |b|, then
 * (+ add_cub) >> shift_cub, all unsigned 64-bit. */
VMAFX_FN vmafx_u64 vmafx_adm_s0_den(vmafx_i32 b)
{
    const vmafx_u64 x = (unsigned short)(b < 0 ? -b : b);
    return (x * x) * x;
}
VMAFX_FN vmafx_u64 vmafx_adm_s123_den(vmafx_i32 b, int sq_shift, vmafx_u64 add_cub, int shift_cub)
{
    const vmafx_u64 x = (vmafx_u32)vmafx_adm_abs32(b);
    return ((((x * x) + (VMAFX_U64_ONE << sq_shift)) >> sq_shift) * x + add_cub) >> shift_cub;
}

#endif
