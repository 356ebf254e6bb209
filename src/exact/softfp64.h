/* SPDX-License-Identifier: BSD-3-Clause */
/* Binary64 arithmetic in integers, bit for bit what an IEEE-754 fp64 unit
 * computes under round-to-nearest-ties-to-even:
 *   conversions from int64/uint64 and to/from the IEEE bit pattern,
 *   add, sub, mul, div (each correctly rounded), multiplication by 2^k,
 *   signed zeros, infinities, NaN, subnormal operands and results
 *   (gradual underflow), overflow to infinity,
 *   ordered comparisons, and truncating conversions to int64/int32.
 *
 * A value is unpacked once (vmafx_sd_from_bits) and kept unpacked through a
 * chain of operations; every operation returns a value that is exactly a
 * binary64 number, so packing (vmafx_sd_to_bits) never rounds.
 *
 * NaN: an invalid operation (inf - inf, 0 * inf, 0/0, inf/inf) returns the
 * x86-64 default NaN 0xFFF8000000000000; a NaN operand is returned made quiet,
 * the first one when both are NaN (the rule of x86 SSE2). Which operand an
 * optimizing compiler puts first is not fixed, so NaN payloads are not part
 * of the bit-exactness contract; every non-NaN result is.
 *
 * Division: the quotient is formed in three radix-2^18 digits; each digit is
 * estimated with one fp32 multiplication by an fp32 reciprocal and corrected
 * from the exact integer remainder, so neither the accuracy of the device's
 * fp32 division nor its rounding enters the result (any estimate within
 * +-512 of the digit is corrected; fp32 gives one within +-1). */
#ifndef VMAFX_EXACT_SOFTFP64_H
#define VMAFX_EXACT_SOFTFP64_H

#include "compat.h"
#include "int128.h"

#define VMAFX_SD_FINITE 0u
#define VMAFX_SD_INF 1u
#define VMAFX_SD_NAN 2u

/* value = m * 2^e; the ulp exponent of subnormals and of the lowest binade */
#define VMAFX_SD_EMIN (-1074)
/* ulp exponent of the highest binade: largest finite is (2^53 - 1) * 2^971 */
#define VMAFX_SD_EMAX 971
#define VMAFX_SD_HIDDEN (VMAFX_U64_ONE << 52)
#define VMAFX_SD_FRAC_MASK (VMAFX_SD_HIDDEN - 1)
#define VMAFX_SD_QUIET (VMAFX_U64_ONE << 51)
#define VMAFX_SD_DEFAULT_NAN_BITS VMAFX_U64C(0xFFF8000000000000)

typedef struct vmafx_sd {
    vmafx_u64 m; /* finite: 0 for a zero, else in [2^52, 2^53), subnormals
                    included (their e is below VMAFX_SD_EMIN); NaN: payload */
    vmafx_i32 e; /* finite non-zero: the value is m * 2^e */
    vmafx_u32 s; /* sign bit */
    vmafx_u32 c; /* VMAFX_SD_FINITE, VMAFX_SD_INF or VMAFX_SD_NAN */
} vmafx_sd;

VMAFX_FN vmafx_sd vmafx_sd_make_(vmafx_u32 s, vmafx_u32 c, vmafx_u64 m, vmafx_i32 e)
{
    vmafx_sd r;
    r.m = m;
    r.e = e;
    r.s = s;
    r.c = c;
    return r;
}

VMAFX_FN vmafx_sd vmafx_sd_zero(vmafx_u32 s) { return vmafx_sd_make_(s, VMAFX_SD_FINITE, 0, 0); }
VMAFX_FN vmafx_sd vmafx_sd_inf(vmafx_u32 s) { return vmafx_sd_make_(s, VMAFX_SD_INF, 0, 0); }
VMAFX_FN vmafx_sd vmafx_sd_default_nan(void)
{
    return vmafx_sd_make_(1, VMAFX_SD_NAN, VMAFX_SD_QUIET, 0);
}

VMAFX_FN int vmafx_sd_is_nan(vmafx_sd a) { return a.c == VMAFX_SD_NAN; }
VMAFX_FN int vmafx_sd_is_zero(vmafx_sd a) { return a.c == VMAFX_SD_FINITE && a.m == 0; }

/* Rounds x * 2^e to binary64, x having its bit 63 set. Bits of the exact value
 * below bit 0 of x must be folded into bit 0 (sticky). */
VMAFX_FN vmafx_sd vmafx_sd_round_(vmafx_u32 s, vmafx_u64 x, vmafx_i32 e)
{
    vmafx_i32 ue = e + 11; /* exponent of the result's ulp */
    vmafx_i32 sh = 11;     /* bits of x below that ulp */
    vmafx_u64 q;
    if (ue < VMAFX_SD_EMIN) { /* subnormal range: the ulp stays 2^-1074 */
        sh += VMAFX_SD_EMIN - ue;
        ue = VMAFX_SD_EMIN;
    }
    if (sh >= 64) {
        /* below one ulp; above halfway an ulp only when sh == 64 and x > 2^63 */
        q = (sh == 64 && x > (VMAFX_U64_ONE << 63)) ? 1 : 0;
    } else {
        vmafx_u64 halfway = VMAFX_U64_ONE << (sh - 1);
        vmafx_u64 rem = x & ((halfway << 1) - 1);
        q = x >> sh;
        if (rem > halfway || (rem == halfway && (q & 1))) q += 1;
    }
    if (q == 0) return vmafx_sd_zero(s);
    if (q == (VMAFX_U64_ONE << 53)) {
        q >>= 1;
        ue += 1;
    } else if (q < VMAFX_SD_HIDDEN) { /* subnormal result: keep m normalized */
        int k = vmafx_clz64(q) - 11;
        q <<= k;
        ue -= k;
    }
    if (ue > VMAFX_SD_EMAX) return vmafx_sd_inf(s);
    return vmafx_sd_make_(s, VMAFX_SD_FINITE, q, ue);
}

VMAFX_FN vmafx_sd vmafx_sd_from_bits(vmafx_u64 b)
{
    vmafx_u32 s = (vmafx_u32)(b >> 63);
    vmafx_i32 be = (vmafx_i32)((b >> 52) & 0x7FF);
    vmafx_u64 f = b & VMAFX_SD_FRAC_MASK;
    if (be == 0x7FF) {
        if (f == 0) return vmafx_sd_inf(s);
        return vmafx_sd_make_(s, VMAFX_SD_NAN, f, 0);
    }
    if (be == 0) {
        int k;
        if (f == 0) return vmafx_sd_zero(s);
        k = vmafx_clz64(f) - 11;
        return vmafx_sd_make_(s, VMAFX_SD_FINITE, f << k, VMAFX_SD_EMIN - k);
    }
    return vmafx_sd_make_(s, VMAFX_SD_FINITE, f | VMAFX_SD_HIDDEN, be - 1075);
}

VMAFX_FN vmafx_u64 vmafx_sd_to_bits(vmafx_sd a)
{
    vmafx_u64 sign = (vmafx_u64)a.s << 63;
    if (a.c == VMAFX_SD_NAN) return sign | (VMAFX_U64C(0x7FF) << 52) | (a.m & VMAFX_SD_FRAC_MASK);
    if (a.c == VMAFX_SD_INF) return sign | (VMAFX_U64C(0x7FF) << 52);
    if (a.m == 0) return sign;
    if (a.e >= VMAFX_SD_EMIN)
        return sign | ((vmafx_u64)(a.e + 1075) << 52) | (a.m & VMAFX_SD_FRAC_MASK);
    return sign | (a.m >> (VMAFX_SD_EMIN - a.e));
}

VMAFX_FN vmafx_sd vmafx_sd_from_u64_signed_(vmafx_u32 s, vmafx_u64 v)
{
    int k;
    if (v == 0) return vmafx_sd_zero(0);
    k = vmafx_clz64(v);
    return vmafx_sd_round_(s, v << k, -k);
}

VMAFX_FN vmafx_sd vmafx_sd_from_u64(vmafx_u64 v) { return vmafx_sd_from_u64_signed_(0, v); }

VMAFX_FN vmafx_sd vmafx_sd_from_i64(vmafx_i64 v)
{
    if (v < 0) return vmafx_sd_from_u64_signed_(1, (vmafx_u64)0 - (vmafx_u64)v);
    return vmafx_sd_from_u64_signed_(0, (vmafx_u64)v);
}

VMAFX_FN vmafx_sd vmafx_sd_neg(vmafx_sd a)
{
    a.s ^= 1u;
    return a;
}

/* The first NaN operand, made quiet. */
VMAFX_FN vmafx_sd vmafx_sd_pick_nan_(vmafx_sd a, vmafx_sd b)
{
    vmafx_sd r = a.c == VMAFX_SD_NAN ? a : b;
    r.m |= VMAFX_SD_QUIET;
    return r;
}

/* Sum of two non-NaN values. */
VMAFX_FN vmafx_sd vmafx_sd_add_nonnan_(vmafx_sd a, vmafx_sd b)
{
    vmafx_sd big, small;
    vmafx_u64 x, y;
    vmafx_i32 d;
    if (a.c == VMAFX_SD_INF) {
        if (b.c == VMAFX_SD_INF && a.s != b.s) return vmafx_sd_default_nan();
        return a;
    }
    if (b.c == VMAFX_SD_INF) return b;
    if (a.m == 0) return b.m == 0 ? vmafx_sd_zero(a.s & b.s) : b;
    if (b.m == 0) return a;
    if (a.e > b.e || (a.e == b.e && a.m >= b.m)) {
        big = a;
        small = b;
    } else {
        big = b;
        small = a;
    }
    /* significands at bits 10..62: room for a carry, ten guard bits */
    x = big.m << 10;
    y = small.m << 10;
    d = big.e - small.e;
    if (d >= 63) {
        y = 1; /* only sticky information is left */
    } else if (d > 0) {
        y = (y >> d) | ((y & ((VMAFX_U64_ONE << d) - 1)) != 0 ? 1 : 0);
    }
    if (big.s == small.s) {
        x += y; /* >= 2^62, < 2^64 */
        if (x >> 63) return vmafx_sd_round_(big.s, x, big.e - 10);
        return vmafx_sd_round_(big.s, x << 1, big.e - 11);
    }
    x -= y;
    if (x == 0) return vmafx_sd_zero(0); /* exact cancellation: +0 */
    {
        int k = vmafx_clz64(x);
        return vmafx_sd_round_(big.s, x << k, big.e - 10 - k);
    }
}

VMAFX_FN vmafx_sd vmafx_sd_add(vmafx_sd a, vmafx_sd b)
{
    if (a.c == VMAFX_SD_NAN || b.c == VMAFX_SD_NAN) return vmafx_sd_pick_nan_(a, b);
    return vmafx_sd_add_nonnan_(a, b);
}

VMAFX_FN vmafx_sd vmafx_sd_sub(vmafx_sd a, vmafx_sd b)
{
    if (a.c == VMAFX_SD_NAN || b.c == VMAFX_SD_NAN) return vmafx_sd_pick_nan_(a, b);
    b.s ^= 1u;
    return vmafx_sd_add_nonnan_(a, b);
}

VMAFX_FN vmafx_sd vmafx_sd_mul(vmafx_sd a, vmafx_sd b)
{
    vmafx_u32 s = a.s ^ b.s;
    vmafx_u128 p;
    vmafx_i32 e;
    if (a.c == VMAFX_SD_NAN || b.c == VMAFX_SD_NAN) return vmafx_sd_pick_nan_(a, b);
    if (a.c == VMAFX_SD_INF || b.c == VMAFX_SD_INF) {
        if (vmafx_sd_is_zero(a) || vmafx_sd_is_zero(b)) return vmafx_sd_default_nan();
        return vmafx_sd_inf(s);
    }
    if (a.m == 0 || b.m == 0) return vmafx_sd_zero(s);
    /* (m_a 2^11)(m_b 2^11) lies in [2^126, 2^128) */
    p = vmafx_mul_u64(a.m << 11, b.m << 11);
    e = a.e + b.e + 42;
    if ((p.hi >> 63) == 0) {
        p = vmafx_u128_shl(p, 1);
        e -= 1;
    }
    return vmafx_sd_round_(s, p.hi | (p.lo != 0 ? 1 : 0), e);
}

VMAFX_FN vmafx_sd vmafx_sd_div(vmafx_sd a, vmafx_sd b)
{
    vmafx_u32 s = a.s ^ b.s;
    vmafx_u64 n, d, q, r;
    vmafx_i32 e;
    float inv;
    int i;
    if (a.c == VMAFX_SD_NAN || b.c == VMAFX_SD_NAN) return vmafx_sd_pick_nan_(a, b);
    if (a.c == VMAFX_SD_INF) return b.c == VMAFX_SD_INF ? vmafx_sd_default_nan() : vmafx_sd_inf(s);
    if (b.c == VMAFX_SD_INF) return vmafx_sd_zero(s);
    if (b.m == 0) return a.m == 0 ? vmafx_sd_default_nan() : vmafx_sd_inf(s);
    if (a.m == 0) return vmafx_sd_zero(s);
    n = a.m;
    d = b.m;
    e = a.e - b.e;
    if (n < d) { /* make the quotient lie in [1, 2) */
        n <<= 1;
        e -= 1;
    }
    q = 1;
    r = n - d; /* < d < 2^53 */
    /* d >> 21 lies in [2^31, 2^32): an fp32 reciprocal good to a few ulps */
    inv = 262144.0f / (float)(vmafx_u32)(d >> 21);
    for (i = 0; i < 3; ++i) {
        /* digit = floor(r * 2^18 / d) < 2^18; the estimate is within +-1 */
        vmafx_u32 dig = (vmafx_u32)((float)(vmafx_u32)(r >> 21) * inv);
        /* r * 2^18 - dig * d taken modulo 2^64: the true value lies within
         * a few d of [0, d), so it is recovered exactly */
        vmafx_u64 t = (r << 18) - (vmafx_u64)dig * d;
        while (t >> 63) {
            dig -= 1;
            t += d;
        }
        while (t >= d) {
            dig += 1;
            t -= d;
        }
        q = (q << 18) | dig;
        r = t;
    }
    /* q in [2^54, 2^55): 53 bits, a round bit and a guard bit; r is sticky */
    return vmafx_sd_round_(s, (q << 9) | (r != 0 ? 1 : 0), e - 63);
}

/* a * 2^k, correctly rounded (exact unless the result leaves the normal range). */
VMAFX_FN vmafx_sd vmafx_sd_mul_pow2(vmafx_sd a, vmafx_i32 k)
{
    vmafx_i32 e;
    if (a.c != VMAFX_SD_FINITE || a.m == 0) {
        if (a.c == VMAFX_SD_NAN) a.m |= VMAFX_SD_QUIET;
        return a;
    }
    e = a.e + k;
    if (e >= VMAFX_SD_EMIN && e <= VMAFX_SD_EMAX) {
        a.e = e;
        return a;
    }
    return vmafx_sd_round_(a.s, a.m << 11, e - 11);
}

/* Magnitude order of two non-NaN values: -1, 0, 1. */
VMAFX_FN int vmafx_sd_cmp_mag_(vmafx_sd a, vmafx_sd b)
{
    if (a.c == VMAFX_SD_INF || b.c == VMAFX_SD_INF) {
        if (a.c == b.c) return 0;
        return a.c == VMAFX_SD_INF ? 1 : -1;
    }
    if (a.m == 0 || b.m == 0) {
        if (a.m == b.m) return 0;
        return a.m == 0 ? -1 : 1;
    }
    if (a.e != b.e) return a.e < b.e ? -1 : 1;
    if (a.m != b.m) return a.m < b.m ? -1 : 1;
    return 0;
}

/* IEEE comparisons: false when either operand is NaN; -0 == +0. */
VMAFX_FN int vmafx_sd_eq(vmafx_sd a, vmafx_sd b)
{
    if (a.c == VMAFX_SD_NAN || b.c == VMAFX_SD_NAN) return 0;
    if (vmafx_sd_is_zero(a) && vmafx_sd_is_zero(b)) return 1;
    return a.s == b.s && vmafx_sd_cmp_mag_(a, b) == 0;
}

VMAFX_FN int vmafx_sd_lt(vmafx_sd a, vmafx_sd b)
{
    int c;
    if (a.c == VMAFX_SD_NAN || b.c == VMAFX_SD_NAN) return 0;
    if (vmafx_sd_is_zero(a) && vmafx_sd_is_zero(b)) return 0;
    if (a.s != b.s) return a.s == 1u;
    c = vmafx_sd_cmp_mag_(a, b);
    return a.s ? c > 0 : c < 0;
}

VMAFX_FN int vmafx_sd_le(vmafx_sd a, vmafx_sd b) { return vmafx_sd_lt(a, b) || vmafx_sd_eq(a, b); }

/* |a| truncated to an integer, saturated at 2^63 (enough to tell any range). */
VMAFX_FN vmafx_u64 vmafx_sd_trunc_mag_(vmafx_sd a)
{
    if (a.m == 0 || a.e <= -53) return 0;
    if (a.e >= 11) return VMAFX_U64_ONE << 63;
    if (a.e >= 0) return a.m << a.e;
    return a.m >> (-a.e);
}

/* (int64_t)a as C converts in range (towards zero); NaN, infinities and
 * values outside the range give INT64_MIN, the x86-64 conversion result. */
VMAFX_FN vmafx_i64 vmafx_sd_to_i64(vmafx_sd a)
{
    vmafx_u64 mag;
    if (a.c != VMAFX_SD_FINITE) return VMAFX_I64_MIN;
    mag = vmafx_sd_trunc_mag_(a);
    if (mag >> 63) return VMAFX_I64_MIN;
    return a.s ? -(vmafx_i64)mag : (vmafx_i64)mag;
}

/* (int32_t)a likewise: out of range gives INT32_MIN as on x86-64. */
VMAFX_FN vmafx_i32 vmafx_sd_to_i32(vmafx_sd a)
{
    vmafx_u64 mag;
    if (a.c != VMAFX_SD_FINITE) return VMAFX_I32_MIN;
    mag = vmafx_sd_trunc_mag_(a);
    if (mag >= (VMAFX_U64_ONE << 31)) return VMAFX_I32_MIN;
    return a.s ? -(vmafx_i32)mag : (vmafx_i32)mag;
}

#endif
