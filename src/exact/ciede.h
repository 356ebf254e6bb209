/* SPDX-License-Identifier: BSD-3-Clause */
/* ciede (CIEDE2000) on a device without fp64: certified evaluation of one
 * pixel's dE00 as feature/ciede.cpp computes it, for host C++, CUDA and
 * OpenCL C alike.
 *
 * The reference mixes IEEE double/float arithmetic with glibc's pow, atan2,
 * sin, cos, exp (double) and powf (float). Here:
 *  - every +, -, *, /, sqrt of the reference is the same IEEE operation in
 *    soft fp64 (softfp64.h; sqrt added below), and every float operation is
 *    the double operation rounded to float (exact for + - * / and sqrt, as
 *    53 >= 2*24 + 2);
 *  - a value downstream of a glibc function is an interval [lo, hi] that
 *    holds the reference's double: the function's own approximation (below)
 *    widened by VMAFX_CE_REL_ERR (relative), which covers this code's error
 *    and glibc's (<= 1 ulp for pow, exp, sin, cos, atan2; both the FMA and
 *    the plain x86-64 variants). Each further IEEE operation maps interval
 *    ends to interval ends: round-to-nearest is monotone, so the reference's
 *    rounded result of any operand pair inside the intervals lies between the
 *    rounded results at the corners;
 *  - powf(c, 7) is glibc's algorithm (e_powf.c: log2 by a 16-entry table and
 *    a degree-5 polynomial, exp2 by a 32-entry table and a cubic) replayed in
 *    interval arithmetic, each a*b+c that GCC may fuse (the FMA build) taken
 *    as the interval of both its fused and unfused values;
 *  - every conversion of an interval to float, and every branch on one, is
 *    certified: both ends must round to the same float / take the same
 *    branch. Otherwise *ok is cleared and the host recomputes the pixel with
 *    the reference's own functions (ciede::lab_from_yuv, ciede::delta_e00).
 * An uncertified pixel is therefore never wrong, only slower; the rate is in
 * docs/exactness.md. */
#ifndef VMAFX_EXACT_CIEDE_H
#define VMAFX_EXACT_CIEDE_H

#include "compat.h"
#include "softfp64.h"
#include "ciede_tables.h"

/* Functions called from many places are real calls on the devices (the
 * inlined kernel would be huge and slow to compile); the host inlines. */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_CE_CALL static __attribute__((noinline))
#elif defined(__CUDACC__)
#define VMAFX_CE_CALL __host__ __device__ static __noinline__
#else
#define VMAFX_CE_CALL static inline
#endif

/* Relative error allowed for each glibc double function value (binary
 * exponent): this code's approximations are within 2^-49 (measured and
 * derived in docs/journal/2026-12-02-ciede-twins.md), glibc's within 2^-52. */
#ifndef VMAFX_CE_REL_ERR
#define VMAFX_CE_REL_ERR (-44)
#endif
/* Widening of a possibly fused product in the powf replay, in ulps of the
 * rounded product (1 covers fused and unfused; 0 = assume no fusion). */
#ifndef VMAFX_CE_FMA_WIDEN
#define VMAFX_CE_FMA_WIDEN 1
#endif

/* ---- soft fp64 additions ------------------------------------------------ */

VMAFX_CE_CALL vmafx_sd vmafx_ce_add_(vmafx_sd a, vmafx_sd b) { return vmafx_sd_add(a, b); }
VMAFX_CE_CALL vmafx_sd vmafx_ce_sub_(vmafx_sd a, vmafx_sd b) { return vmafx_sd_sub(a, b); }
VMAFX_CE_CALL vmafx_sd vmafx_ce_mul_(vmafx_sd a, vmafx_sd b) { return vmafx_sd_mul(a, b); }
VMAFX_CE_CALL vmafx_sd vmafx_ce_div_(vmafx_sd a, vmafx_sd b) { return vmafx_sd_div(a, b); }

VMAFX_FN vmafx_sd vmafx_ce_k(vmafx_u64 bits) { return vmafx_sd_from_bits(bits); }
VMAFX_FN vmafx_sd vmafx_ce_int(vmafx_i32 v) { return vmafx_sd_from_i64((vmafx_i64)v); }
VMAFX_FN vmafx_sd vmafx_ce_abs(vmafx_sd a)
{
    a.s = 0;
    return a;
}
VMAFX_FN int vmafx_ce_finite(vmafx_sd a) { return a.c == VMAFX_SD_FINITE; }
VMAFX_FN int vmafx_ce_neg(vmafx_sd a) { return a.c != VMAFX_SD_NAN && a.s && !vmafx_sd_is_zero(a); }
VMAFX_FN vmafx_sd vmafx_ce_min(vmafx_sd a, vmafx_sd b) { return vmafx_sd_lt(b, a) ? b : a; }
VMAFX_FN vmafx_sd vmafx_ce_max(vmafx_sd a, vmafx_sd b) { return vmafx_sd_lt(a, b) ? b : a; }
VMAFX_FN int vmafx_ce_same(vmafx_sd a, vmafx_sd b) { return vmafx_sd_to_bits(a) == vmafx_sd_to_bits(b); }

/* Correctly rounded square root (digit by digit on 128 bits). */
VMAFX_CE_CALL vmafx_sd vmafx_ce_sqrt(vmafx_sd a)
{
    vmafx_u64 m, root = 0;
    vmafx_i32 e;
    vmafx_u128 n, rem, trial;
    int i;
    if (a.c == VMAFX_SD_NAN) {
        a.m |= VMAFX_SD_QUIET;
        return a;
    }
    if (a.c == VMAFX_SD_FINITE && a.m == 0) return a;
    if (a.s) return vmafx_sd_default_nan();
    if (a.c == VMAFX_SD_INF) return a;
    m = a.m;
    e = a.e;
    if (e & 1) {
        m <<= 1;
        e -= 1;
    }
    /* n = m * 2^74 in [2^126, 2^128): its root has 64 bits */
    n = vmafx_u128_make(m << 10, 0);
    rem = vmafx_u128_make(0, 0);
    for (i = 0; i < 64; ++i) {
        rem = vmafx_u128_shl(rem, 2);
        rem.lo |= n.hi >> 62;
        n = vmafx_u128_shl(n, 2);
        trial = vmafx_u128_make(root >> 62, (root << 2) | 1);
        root <<= 1;
        if (vmafx_u128_cmp(rem, trial) >= 0) {
            rem = vmafx_u128_sub(rem, trial);
            root |= 1;
        }
    }
    return vmafx_sd_round_(0, root | ((rem.hi | rem.lo) != 0 ? 1 : 0), (e - 74) / 2);
}

/* a rounded to binary32 (ties to even, subnormals and underflow to zero
 * included), as a binary64 value; *ok = 0 for NaN, infinity, overflow. */
VMAFX_CE_CALL vmafx_sd vmafx_ce_f32(vmafx_sd a, int* ok)
{
    vmafx_i32 top, ulp, sh;
    vmafx_u64 q, r, hb;
    if (a.c != VMAFX_SD_FINITE) {
        *ok = 0;
        return vmafx_sd_zero(0);
    }
    if (a.m == 0) return a;
    top = a.e + 52; /* exponent of the leading bit */
    ulp = top - 23;
    if (ulp < -149) ulp = -149;
    sh = ulp - a.e; /* >= 29 */
    if (sh > 54) return vmafx_sd_zero(a.s);
    q = a.m >> sh;
    r = a.m & ((VMAFX_U64_ONE << sh) - 1);
    hb = VMAFX_U64_ONE << (sh - 1);
    if (r > hb || (r == hb && (q & 1))) q += 1;
    if (q == 0) return vmafx_sd_zero(a.s);
    r = a.s;
    a = vmafx_sd_mul_pow2(vmafx_sd_from_u64(q), ulp);
    a.s = (vmafx_u32)r;
    if (a.c != VMAFX_SD_FINITE || a.e + 52 > 127) {
        *ok = 0;
        return vmafx_sd_zero(0);
    }
    return a;
}

/* The bits of a float-valued binary64 (from vmafx_ce_f32). */
VMAFX_FN vmafx_u32 vmafx_ce_f32_bits(vmafx_sd a)
{
    vmafx_i32 top;
    vmafx_u32 s = a.s << 31;
    if (a.m == 0) return s;
    top = a.e + 52;
    if (top < -126) return s | (vmafx_u32)(a.m >> (-149 - a.e)); /* subnormal */
    return s | ((vmafx_u32)(top + 127) << 23) | ((vmafx_u32)(a.m >> 29) & 0x7FFFFFu);
}

VMAFX_FN vmafx_sd vmafx_ce_from_f32_bits(vmafx_u32 b)
{
    vmafx_u32 be = (b >> 23) & 0xFFu, f = b & 0x7FFFFFu;
    vmafx_sd r;
    if (be == 0) { /* zero, subnormal */
        r = vmafx_sd_mul_pow2(vmafx_sd_from_u64(f), -149);
        r.s = b >> 31;
        return r;
    }
    return vmafx_sd_make_(b >> 31, VMAFX_SD_FINITE, (vmafx_u64)(f | 0x800000u) << 29, (vmafx_i32)be - 127 - 52);
}

/* The neighbour of a finite non-zero normal value towards +inf (up) or -inf. */
VMAFX_FN vmafx_sd vmafx_ce_next(vmafx_sd a, int up)
{
    if (a.c != VMAFX_SD_FINITE || a.m == 0) return a;
    if ((up != 0) == (a.s == 0)) {
        a.m += 1;
        if (a.m >> 53) {
            a.m >>= 1;
            a.e += 1;
        }
    } else if (a.m == VMAFX_SD_HIDDEN) {
        a.m = (VMAFX_SD_HIDDEN << 1) - 1;
        a.e -= 1;
    } else {
        a.m -= 1;
    }
    return a;
}

/* Nearest integer (ties away), for argument reduction only. */
VMAFX_FN vmafx_i32 vmafx_ce_round(vmafx_sd a)
{
    vmafx_sd h = vmafx_ce_k(VMAFX_U64C(0x3FE0000000000000));
    h.s = a.s;
    return vmafx_sd_to_i32(vmafx_ce_add_(a, h));
}

/* Float arithmetic: the double operation rounded to float. */
VMAFX_FN vmafx_sd vmafx_ce_fadd(vmafx_sd a, vmafx_sd b, int* ok) { return vmafx_ce_f32(vmafx_ce_add_(a, b), ok); }
VMAFX_FN vmafx_sd vmafx_ce_fsub(vmafx_sd a, vmafx_sd b, int* ok) { return vmafx_ce_f32(vmafx_ce_sub_(a, b), ok); }
VMAFX_FN vmafx_sd vmafx_ce_fmul(vmafx_sd a, vmafx_sd b, int* ok) { return vmafx_ce_f32(vmafx_ce_mul_(a, b), ok); }
VMAFX_FN vmafx_sd vmafx_ce_fdiv(vmafx_sd a, vmafx_sd b, int* ok) { return vmafx_ce_f32(vmafx_ce_div_(a, b), ok); }

/* ---- intervals ------------------------------------------------------------ */

typedef struct vmafx_ce_iv {
    vmafx_sd lo, hi;
} vmafx_ce_iv;

VMAFX_FN vmafx_ce_iv vmafx_ce_pt(vmafx_sd a)
{
    vmafx_ce_iv r;
    r.lo = a;
    r.hi = a;
    return r;
}
VMAFX_FN vmafx_ce_iv vmafx_ce_mk(vmafx_sd lo, vmafx_sd hi)
{
    vmafx_ce_iv r;
    r.lo = lo;
    r.hi = hi;
    return r;
}
VMAFX_CE_CALL vmafx_ce_iv vmafx_ce_add(vmafx_ce_iv a, vmafx_ce_iv b)
{
    return vmafx_ce_mk(vmafx_ce_add_(a.lo, b.lo), vmafx_ce_add_(a.hi, b.hi));
}
VMAFX_CE_CALL vmafx_ce_iv vmafx_ce_sub(vmafx_ce_iv a, vmafx_ce_iv b)
{
    return vmafx_ce_mk(vmafx_ce_sub_(a.lo, b.hi), vmafx_ce_sub_(a.hi, b.lo));
}
VMAFX_CE_CALL vmafx_ce_iv vmafx_ce_mul(vmafx_ce_iv a, vmafx_ce_iv b)
{
    vmafx_sd p0, p1, p2, p3;
    if (vmafx_ce_same(b.lo, b.hi) && b.lo.c == VMAFX_SD_FINITE) { /* by a point: monotone */
        if (vmafx_ce_same(a.lo, a.hi)) return vmafx_ce_pt(vmafx_ce_mul_(a.lo, b.lo));
        p0 = vmafx_ce_mul_(a.lo, b.lo);
        p1 = vmafx_ce_mul_(a.hi, b.lo);
        return b.lo.s ? vmafx_ce_mk(p1, p0) : vmafx_ce_mk(p0, p1);
    }
    p0 = vmafx_ce_mul_(a.lo, b.lo);
    p1 = vmafx_ce_mul_(a.lo, b.hi);
    p2 = vmafx_ce_mul_(a.hi, b.lo);
    p3 = vmafx_ce_mul_(a.hi, b.hi);
    return vmafx_ce_mk(vmafx_ce_min(vmafx_ce_min(p0, p1), vmafx_ce_min(p2, p3)),
                       vmafx_ce_max(vmafx_ce_max(p0, p1), vmafx_ce_max(p2, p3)));
}
/* Divisor must not contain zero. */
VMAFX_CE_CALL vmafx_ce_iv vmafx_ce_div(vmafx_ce_iv a, vmafx_ce_iv b, int* ok)
{
    vmafx_sd p0, p1, p2, p3;
    if (!vmafx_sd_lt(vmafx_sd_zero(0), b.lo) && !vmafx_sd_lt(b.hi, vmafx_sd_zero(0))) *ok = 0;
    p0 = vmafx_ce_div_(a.lo, b.lo);
    p1 = vmafx_ce_div_(a.lo, b.hi);
    p2 = vmafx_ce_div_(a.hi, b.lo);
    p3 = vmafx_ce_div_(a.hi, b.hi);
    return vmafx_ce_mk(vmafx_ce_min(vmafx_ce_min(p0, p1), vmafx_ce_min(p2, p3)),
                       vmafx_ce_max(vmafx_ce_max(p0, p1), vmafx_ce_max(p2, p3)));
}
VMAFX_FN vmafx_ce_iv vmafx_ce_sqrt_iv(vmafx_ce_iv a, int* ok)
{
    if (vmafx_ce_neg(a.lo)) *ok = 0;
    return vmafx_ce_mk(vmafx_ce_sqrt(a.lo), vmafx_ce_sqrt(a.hi));
}
/* a*b + c, either fused (one rounding) or not (two). */
VMAFX_CE_CALL vmafx_ce_iv vmafx_ce_fma_any(vmafx_ce_iv a, vmafx_ce_iv b, vmafx_ce_iv c)
{
    vmafx_ce_iv p = vmafx_ce_mul(a, b);
    int i;
    for (i = 0; i < VMAFX_CE_FMA_WIDEN; ++i) {
        p.lo = vmafx_ce_next(p.lo, 0);
        p.hi = vmafx_ce_next(p.hi, 1);
    }
    return vmafx_ce_add(p, c);
}
/* An approximation v of a function value, widened to hold glibc's value. */
VMAFX_CE_CALL vmafx_ce_iv vmafx_ce_widen2(vmafx_sd lo, vmafx_sd hi)
{
    vmafx_sd el;
    vmafx_sd eh;
#ifdef VMAFX_CE_TEST_SKEW
    /* tests only: an approximation off by 2^VMAFX_CE_TEST_SKEW (relative) */
    lo = vmafx_ce_add_(lo, vmafx_sd_mul_pow2(vmafx_ce_abs(lo), VMAFX_CE_TEST_SKEW));
    hi = vmafx_ce_add_(hi, vmafx_sd_mul_pow2(vmafx_ce_abs(hi), VMAFX_CE_TEST_SKEW));
#endif
    el = vmafx_sd_mul_pow2(vmafx_ce_abs(lo), VMAFX_CE_REL_ERR);
    eh = vmafx_sd_mul_pow2(vmafx_ce_abs(hi), VMAFX_CE_REL_ERR);
    return vmafx_ce_mk(vmafx_ce_sub_(lo, el), vmafx_ce_add_(hi, eh));
}
VMAFX_FN vmafx_ce_iv vmafx_ce_widen(vmafx_sd v) { return vmafx_ce_widen2(v, v); }

/* The float both ends round to; *ok = 0 when they differ. */
VMAFX_CE_CALL vmafx_sd vmafx_ce_to_f32(vmafx_ce_iv a, int* ok)
{
    vmafx_sd lo = vmafx_ce_f32(a.lo, ok), hi = vmafx_ce_f32(a.hi, ok);
    if (!vmafx_ce_same(lo, hi)) *ok = 0;
    return lo;
}

/* ---- approximations of glibc's double functions --------------------------- */

/* exp(x), |x| < 700: x = k ln2 + r, |r| <= ln2/2, Taylor to degree 15. */
VMAFX_CE_CALL vmafx_sd vmafx_ce_exp(vmafx_sd x)
{
    vmafx_i32 k = vmafx_ce_round(vmafx_ce_mul_(x, vmafx_ce_k(VMAFX_CE_M_INV_LN2)));
    vmafx_sd kd = vmafx_ce_int(k), r, p;
    int n;
    r = vmafx_ce_sub_(vmafx_ce_sub_(x, vmafx_ce_mul_(kd, vmafx_ce_k(VMAFX_CE_M_LN2_HI))),
                     vmafx_ce_mul_(kd, vmafx_ce_k(VMAFX_CE_M_LN2_LO)));
    p = vmafx_ce_k(vmafx_ce_inv_fact[15]);
    for (n = 14; n >= 0; --n) p = vmafx_ce_add_(vmafx_ce_mul_(p, r), vmafx_ce_k(vmafx_ce_inv_fact[n]));
    return vmafx_sd_mul_pow2(p, k);
}

/* Hardware float for estimates only (their accuracy never decides a result). */
typedef union vmafx_ce_fu {
    float f;
    vmafx_u32 u;
} vmafx_ce_fu;

/* x^(1/n), n = 3 or 5, for a normal x > 0: x = f 2^(nq) with f in [1, 2^n);
 * Newton from above in hardware float (to ~2^-21), then two Newton steps in
 * soft fp64 (quadratic: to the rounding level, ~2^-52). */
VMAFX_CE_CALL vmafx_sd vmafx_ce_root(vmafx_sd x, int n)
{
    vmafx_i32 e = x.e + 52, q = e >= 0 ? e / n : -((-e + n - 1) / n);
    vmafx_sd f = vmafx_sd_mul_pow2(x, -n * q), y, y2, yp, num, den;
    vmafx_ce_fu c;
    float ff, g, gp;
    int i, ok = 1;
    c.u = vmafx_ce_f32_bits(vmafx_ce_f32(f, &ok));
    ff = c.f;
    /* the exponent divided by n: within ~10%; five Newton steps reach float's precision */
    c.u = (vmafx_u32)((vmafx_i32)(c.u - 0x3F800000u) / n + 0x3F800000);
    g = c.f;
    for (i = 0; i < 5; ++i) {
        gp = g * g;
        if (n == 5) gp = gp * gp;
        g = ((float)(n - 1) * g + ff / gp) / (float)n;
    }
    c.f = g;
    y = vmafx_ce_from_f32_bits(c.u);
    for (i = 0; i < 2; ++i) {
        y2 = vmafx_ce_mul_(y, y);
        yp = n == 5 ? vmafx_ce_mul_(y2, y2) : y2; /* y^(n-1) */
        num = vmafx_ce_sub_(vmafx_ce_mul_(yp, y), f);
        den = vmafx_ce_mul_(vmafx_ce_int(n), yp);
        y = vmafx_ce_sub_(y, vmafx_ce_div_(num, den));
    }
    return vmafx_sd_mul_pow2(y, q);
}

/* pow(t, 2.4) for t in [0.04, 4]: t^2 (t^(1/5))^2. The double 2.4 is
 * 2.4 - 8.9e-17, a relative change of < 2^-52 here. */
VMAFX_FN vmafx_sd vmafx_ce_pow24(vmafx_sd t)
{
    vmafx_sd w = vmafx_ce_root(t, 5);
    return vmafx_ce_mul_(vmafx_ce_mul_(t, t), vmafx_ce_mul_(w, w));
}

/* pow(c, 1.0/3.0) for c in [2^-7, 2^10]: the cube root (the double 1/3 is
 * 1/3 - 1.9e-17, a relative change of < 2^-54 here). */
VMAFX_FN vmafx_sd vmafx_ce_cbrt(vmafx_sd c) { return vmafx_ce_root(c, 3); }

/* sin(x) (want_sin) or cos(x) for |x| < 2^20: x = k pi/2 + r with pi/2 in
 * three parts of 33, 33 and 53 bits (k pi/2 is formed exactly), |r| <= pi/4,
 * Taylor series of sin r and cos r to r^21 / r^20. */
VMAFX_CE_CALL vmafx_sd vmafx_ce_sincos(vmafx_sd x, int want_sin)
{
    vmafx_i32 k = vmafx_ce_round(vmafx_ce_mul_(x, vmafx_ce_k(VMAFX_CE_M_2_PI)));
    vmafx_sd kd = vmafx_ce_int(k), r, r2, p;
    int q, n;
    r = vmafx_ce_sub_(x, vmafx_ce_mul_(kd, vmafx_ce_k(VMAFX_CE_M_PIO2_1)));
    r = vmafx_ce_sub_(r, vmafx_ce_mul_(kd, vmafx_ce_k(VMAFX_CE_M_PIO2_2)));
    r = vmafx_ce_sub_(r, vmafx_ce_mul_(kd, vmafx_ce_k(VMAFX_CE_M_PIO2_3)));
    r2 = vmafx_ce_mul_(r, r);
    q = (int)((want_sin ? k : k + 1) & 3);
    if ((q & 1) == 0) { /* +-sin r */
        p = vmafx_ce_k(vmafx_ce_inv_fact[21]);
        for (n = 9; n >= 0; --n) p = vmafx_ce_sub_(vmafx_ce_k(vmafx_ce_inv_fact[2 * n + 1]), vmafx_ce_mul_(r2, p));
        p = vmafx_ce_mul_(r, p);
    } else { /* +-cos r */
        p = vmafx_ce_k(vmafx_ce_inv_fact[20]);
        for (n = 9; n >= 0; --n) p = vmafx_ce_sub_(vmafx_ce_k(vmafx_ce_inv_fact[2 * n]), vmafx_ce_mul_(r2, p));
    }
    if (q >= 2) p = vmafx_sd_neg(p);
    return p;
}

/* atan(t) for t in [0, 1]: above sqrt(2) - 1 as pi/4 + atan((t - 1)/(t + 1));
 * then |u| <= 0.415 and the series to u^45. */
VMAFX_CE_CALL vmafx_sd vmafx_ce_atan01(vmafx_sd t)
{
    vmafx_sd one = vmafx_ce_int(1), u = t, u2, p;
    int n, shifted = 0;
    if (vmafx_sd_lt(vmafx_ce_sub_(vmafx_ce_k(VMAFX_CE_M_SQRT2), one), t)) {
        u = vmafx_ce_div_(vmafx_ce_sub_(t, one), vmafx_ce_add_(t, one));
        shifted = 1;
    }
    u2 = vmafx_ce_mul_(u, u);
    p = vmafx_ce_k(vmafx_ce_inv_odd[22]);
    for (n = 21; n >= 0; --n) p = vmafx_ce_sub_(vmafx_ce_k(vmafx_ce_inv_odd[n]), vmafx_ce_mul_(u2, p));
    p = vmafx_ce_mul_(u, p);
    return shifted ? vmafx_ce_add_(vmafx_ce_k(VMAFX_CE_M_PI_4), p) : p;
}

/* atan2(y, x) as an interval holding glibc's value; exact cases are points. */
VMAFX_CE_CALL vmafx_ce_iv vmafx_ce_atan2(vmafx_sd y, vmafx_sd x)
{
    vmafx_sd ax = vmafx_ce_abs(x), ay = vmafx_ce_abs(y), a;
    if (vmafx_sd_is_zero(y)) { /* +-0 or +-pi, exactly */
        a = x.s ? vmafx_ce_k(VMAFX_CE_K_PI) : vmafx_sd_zero(0);
        a.s = y.s;
        return vmafx_ce_pt(a);
    }
    if (vmafx_sd_le(ay, ax))
        a = vmafx_ce_atan01(vmafx_ce_div_(ay, ax));
    else
        a = vmafx_ce_sub_(vmafx_ce_k(VMAFX_CE_M_PI_2), vmafx_ce_atan01(vmafx_ce_div_(ax, ay)));
    if (x.s) a = vmafx_ce_sub_(vmafx_ce_k(VMAFX_CE_M_PI), a);
    if (y.s) a = vmafx_sd_neg(a);
    return vmafx_ce_widen(a);
}

/* ---- glibc powf(x, 7.0f), replayed ---------------------------------------- */

/* x: a positive float as a binary64 value. The interval of every float
 * result powf's plain or FMA build can return; *ok = 0 when they differ. */
VMAFX_CE_CALL vmafx_sd vmafx_ce_powf7(vmafx_sd x, int* ok)
{
    vmafx_u32 ix, tmp, top, iz, i;
    vmafx_i32 k;
    vmafx_u64 ki, t;
    vmafx_sd invc, logc, z, y0, kd, klo, khi, s, shift = vmafx_ce_k(VMAFX_CE_EXP2F_SHIFT);
    vmafx_ce_iv r, r2, r4, y, p, q, ylogx;
    if (vmafx_sd_is_zero(x)) return x;
    ix = vmafx_ce_f32_bits(x);
    if (ix < 0x00800000u || ix >= 0x7F800000u) { /* subnormal or special: not replayed here */
        *ok = 0;
        return x;
    }
    tmp = ix - 0x3F330000u;
    i = (tmp >> 19) % 16u;
    top = tmp & 0xFF800000u;
    iz = ix - top;
    k = ((vmafx_i32)top) >> 23;
    invc = vmafx_ce_k(vmafx_ce_powf_tab[2 * i]);
    logc = vmafx_ce_k(vmafx_ce_powf_tab[2 * i + 1]);
    z = vmafx_ce_from_f32_bits(iz);
    r = vmafx_ce_fma_any(vmafx_ce_pt(z), vmafx_ce_pt(invc), vmafx_ce_pt(vmafx_ce_int(-1)));
    y0 = vmafx_ce_add_(logc, vmafx_ce_int(k));
    r2 = vmafx_ce_mul(r, r);
    y = vmafx_ce_fma_any(vmafx_ce_pt(vmafx_ce_k(vmafx_ce_powf_poly[0])), r,
                         vmafx_ce_pt(vmafx_ce_k(vmafx_ce_powf_poly[1])));
    p = vmafx_ce_fma_any(vmafx_ce_pt(vmafx_ce_k(vmafx_ce_powf_poly[2])), r,
                         vmafx_ce_pt(vmafx_ce_k(vmafx_ce_powf_poly[3])));
    r4 = vmafx_ce_mul(r2, r2);
    q = vmafx_ce_fma_any(vmafx_ce_pt(vmafx_ce_k(vmafx_ce_powf_poly[4])), r, vmafx_ce_pt(y0));
    q = vmafx_ce_fma_any(p, r2, q);
    y = vmafx_ce_fma_any(y, r4, q);
    ylogx = vmafx_ce_mul(vmafx_ce_pt(vmafx_ce_int(7)), y);
    /* |y log2 x| >= 126 takes powf's overflow/underflow branch: not replayed */
    if (!vmafx_sd_lt(vmafx_ce_abs(ylogx.lo), vmafx_ce_int(126)) ||
        !vmafx_sd_lt(vmafx_ce_abs(ylogx.hi), vmafx_ce_int(126))) {
        *ok = 0;
        return x;
    }
    klo = vmafx_ce_add_(ylogx.lo, shift);
    khi = vmafx_ce_add_(ylogx.hi, shift);
    if (!vmafx_ce_same(klo, khi)) { /* the table index is not certain */
        *ok = 0;
        return x;
    }
    ki = vmafx_sd_to_bits(klo);
    kd = vmafx_ce_sub_(klo, shift);
    r = vmafx_ce_sub(ylogx, vmafx_ce_pt(kd));
    t = vmafx_ce_exp2f_tab[ki % 32u];
    t += ki << 47;
    s = vmafx_sd_from_bits(t);
    p = vmafx_ce_fma_any(vmafx_ce_pt(vmafx_ce_k(vmafx_ce_exp2f_poly[0])), r,
                         vmafx_ce_pt(vmafx_ce_k(vmafx_ce_exp2f_poly[1])));
    r2 = vmafx_ce_mul(r, r);
    y = vmafx_ce_fma_any(vmafx_ce_pt(vmafx_ce_k(vmafx_ce_exp2f_poly[2])), r, vmafx_ce_pt(vmafx_ce_int(1)));
    y = vmafx_ce_fma_any(p, r2, y);
    y = vmafx_ce_mul(y, vmafx_ce_pt(s));
    return vmafx_ce_to_f32(y, ok);
}

/* ---- the reference's steps ------------------------------------------------- */

VMAFX_CE_CALL vmafx_ce_iv vmafx_ce_linearize(vmafx_sd c)
{
    if (vmafx_sd_lt(vmafx_ce_k(VMAFX_CE_K_10_255), c)) {
        vmafx_sd t = vmafx_ce_mul_(vmafx_ce_add_(c, vmafx_ce_k(VMAFX_CE_K_0_055)), vmafx_ce_k(VMAFX_CE_K_INV_1_055));
        return vmafx_ce_widen(vmafx_ce_pow24(t));
    }
    return vmafx_ce_pt(vmafx_ce_mul_(c, vmafx_ce_k(VMAFX_CE_K_INV_12_92)));
}

/* CIELAB companding, returned as the float it rounds to. */
VMAFX_CE_CALL vmafx_sd vmafx_ce_compand(vmafx_ce_iv c, int* ok)
{
    vmafx_sd eps = vmafx_ce_k(VMAFX_CE_K_EPSILON);
    vmafx_ce_iv v;
    if (vmafx_sd_lt(eps, c.lo)) {
        /* cbrt is concave: cbrt(hi) <= cbrt(lo) (1 + (hi - lo) / (3 lo)); the
         * correction is ~2^-44 relative, its rounding far inside the widening */
        vmafx_sd y = vmafx_ce_cbrt(c.lo);
        vmafx_sd d = vmafx_ce_div_(vmafx_ce_sub_(c.hi, c.lo), vmafx_ce_mul_(vmafx_ce_int(3), c.lo));
        v = vmafx_ce_widen2(y, vmafx_ce_add_(y, vmafx_ce_mul_(y, d)));
    } else {
        vmafx_ce_iv k = vmafx_ce_pt(vmafx_ce_k(VMAFX_CE_K_KAPPA));
        if (vmafx_sd_lt(eps, c.hi)) *ok = 0; /* the branch is not certain */
        v = vmafx_ce_mul(vmafx_ce_add(vmafx_ce_mul(k, c), vmafx_ce_pt(vmafx_ce_int(16))),
                         vmafx_ce_pt(vmafx_ce_k(VMAFX_CE_K_INV_116)));
    }
    return vmafx_ce_to_f32(v, ok);
}

/* Lab of one YCbCr triple (float-valued binary64 components). */
VMAFX_CE_CALL void vmafx_ce_lab(vmafx_i32 ys, vmafx_i32 us, vmafx_i32 vs, vmafx_i32 bpc, vmafx_sd* lab, int* ok)
{
    vmafx_sd scale = vmafx_ce_int(1 << (bpc - 8)), y, u, v, r, g, b;
    vmafx_ce_iv lr, lg, lb, x, yy, z;
    vmafx_sd fx, fy, fz;
    y = vmafx_ce_mul_(vmafx_ce_sub_(vmafx_ce_int(ys), vmafx_ce_mul_(vmafx_ce_int(16), scale)),
                     vmafx_ce_div_(vmafx_ce_int(1), vmafx_ce_mul_(vmafx_ce_int(219), scale)));
    u = vmafx_ce_mul_(vmafx_ce_sub_(vmafx_ce_int(us), vmafx_ce_mul_(vmafx_ce_int(128), scale)),
                     vmafx_ce_div_(vmafx_ce_int(1), vmafx_ce_mul_(vmafx_ce_int(224), scale)));
    v = vmafx_ce_mul_(vmafx_ce_sub_(vmafx_ce_int(vs), vmafx_ce_mul_(vmafx_ce_int(128), scale)),
                     vmafx_ce_div_(vmafx_ce_int(1), vmafx_ce_mul_(vmafx_ce_int(224), scale)));
    r = vmafx_ce_add_(y, vmafx_ce_mul_(vmafx_ce_k(VMAFX_CE_K_1_28033), v));
    g = vmafx_ce_sub_(vmafx_ce_sub_(y, vmafx_ce_mul_(vmafx_ce_k(VMAFX_CE_K_0_21482), u)),
                     vmafx_ce_mul_(vmafx_ce_k(VMAFX_CE_K_0_38059), v));
    b = vmafx_ce_add_(y, vmafx_ce_mul_(vmafx_ce_k(VMAFX_CE_K_2_12798), u));
    lr = vmafx_ce_linearize(r);
    lg = vmafx_ce_linearize(g);
    lb = vmafx_ce_linearize(b);
#define VMAFX_CE_MIX(kr, kg, kb)                                                                         \
    vmafx_ce_add(vmafx_ce_add(vmafx_ce_mul(lr, vmafx_ce_pt(vmafx_ce_k(kr))),                           \
                              vmafx_ce_mul(lg, vmafx_ce_pt(vmafx_ce_k(kg)))),                          \
                 vmafx_ce_mul(lb, vmafx_ce_pt(vmafx_ce_k(kb))))
    x = VMAFX_CE_MIX(VMAFX_CE_K_XR, VMAFX_CE_K_XG, VMAFX_CE_K_XB);
    yy = VMAFX_CE_MIX(VMAFX_CE_K_YR, VMAFX_CE_K_YG, VMAFX_CE_K_YB);
    z = VMAFX_CE_MIX(VMAFX_CE_K_ZR, VMAFX_CE_K_ZG, VMAFX_CE_K_ZB);
#undef VMAFX_CE_MIX
    fx = vmafx_ce_compand(vmafx_ce_mul(x, vmafx_ce_pt(vmafx_ce_k(VMAFX_CE_K_INV_XN))), ok);
    fy = vmafx_ce_compand(yy, ok);
    fz = vmafx_ce_compand(vmafx_ce_mul(z, vmafx_ce_pt(vmafx_ce_k(VMAFX_CE_K_INV_ZN))), ok);
    lab[0] = vmafx_ce_f32(vmafx_ce_sub_(vmafx_ce_mul_(vmafx_ce_int(116), fy), vmafx_ce_int(16)), ok);
    lab[1] = vmafx_ce_f32(vmafx_ce_mul_(vmafx_ce_int(500), vmafx_ce_sub_(fx, fy)), ok);
    lab[2] = vmafx_ce_f32(vmafx_ce_mul_(vmafx_ce_int(200), vmafx_ce_sub_(fy, fz)), ok);
}

VMAFX_FN vmafx_sd vmafx_ce_sq(vmafx_sd a) { return vmafx_ce_mul_(a, a); }

VMAFX_CE_CALL vmafx_sd vmafx_ce_hue_angle(vmafx_sd x, vmafx_sd y, int* ok)
{
    vmafx_sd h;
    if (vmafx_sd_is_zero(x) && vmafx_sd_is_zero(y)) return vmafx_sd_zero(0);
    h = vmafx_ce_to_f32(vmafx_ce_atan2(x, y), ok);
    if (vmafx_sd_lt(h, vmafx_sd_zero(0))) h = vmafx_ce_f32(vmafx_ce_add_(h, vmafx_ce_k(VMAFX_CE_K_2PI)), ok);
    return h;
}

/* dE00 of two Lab colours (float-valued binary64 components, as the
 * reference's ciede::delta_e00); the float result. */
VMAFX_CE_CALL vmafx_sd vmafx_ce_delta_e00(const vmafx_sd* c1, const vmafx_sd* c2, int* ok)
{
    vmafx_sd pi = vmafx_ce_k(VMAFX_CE_K_PI), two_pi = vmafx_ce_k(VMAFX_CE_K_2PI), one = vmafx_ce_int(1);
    vmafx_sd two = vmafx_ce_int(2), zero = vmafx_sd_zero(0);
    vmafx_sd d_l, l_bar, chroma1, chroma2, c_bar, a1, a2, cp1, cp2, cp_bar, d_cp, l50, s_l, s_c, h1, h2, d_hp;
    vmafx_sd d_h, h_bar, t, s_h, r_t, lightness, chroma, hue, sl2, res;
    vmafx_ce_iv g, iv;
    d_l = vmafx_ce_fsub(c2[0], c1[0], ok);
    l_bar = vmafx_ce_fdiv(vmafx_ce_fadd(c1[0], c2[0], ok), two, ok);
    chroma1 = vmafx_ce_f32(vmafx_ce_sqrt(vmafx_ce_add_(vmafx_ce_sq(c1[1]), vmafx_ce_sq(c1[2]))), ok);
    chroma2 = vmafx_ce_f32(vmafx_ce_sqrt(vmafx_ce_add_(vmafx_ce_sq(c2[1]), vmafx_ce_sq(c2[2]))), ok);
    c_bar = vmafx_ce_fdiv(vmafx_ce_fadd(chroma1, chroma2, ok), two, ok);
    /* pow(c_bar, 7.0): c^2 is exact, three more roundings */
    {
        vmafx_sd c2p = vmafx_ce_mul_(c_bar, c_bar);
        vmafx_sd c7 = vmafx_ce_mul_(vmafx_ce_mul_(c2p, c_bar), vmafx_ce_mul_(c2p, c2p));
        vmafx_ce_iv c7i = vmafx_sd_is_zero(c_bar) ? vmafx_ce_pt(zero) : vmafx_ce_widen(c7);
        vmafx_ce_iv den = vmafx_ce_add(c7i, vmafx_ce_pt(vmafx_ce_k(VMAFX_U64C(0x41F6BCC41E900000)))); /* 25^7 */
        g = vmafx_ce_sub(vmafx_ce_pt(one), vmafx_ce_sqrt_iv(vmafx_ce_div(c7i, den, ok), ok));
    }
    iv = vmafx_ce_add(vmafx_ce_pt(c1[1]), vmafx_ce_mul(vmafx_ce_pt(vmafx_ce_fdiv(c1[1], two, ok)), g));
    a1 = vmafx_ce_to_f32(iv, ok);
    iv = vmafx_ce_add(vmafx_ce_pt(c2[1]), vmafx_ce_mul(vmafx_ce_pt(vmafx_ce_fdiv(c2[1], two, ok)), g));
    a2 = vmafx_ce_to_f32(iv, ok);
    cp1 = vmafx_ce_f32(vmafx_ce_sqrt(vmafx_ce_add_(vmafx_ce_sq(a1), vmafx_ce_sq(c1[2]))), ok);
    cp2 = vmafx_ce_f32(vmafx_ce_sqrt(vmafx_ce_add_(vmafx_ce_sq(a2), vmafx_ce_sq(c2[2]))), ok);
    cp_bar = vmafx_ce_fdiv(vmafx_ce_fadd(cp1, cp2, ok), two, ok);
    d_cp = vmafx_ce_fsub(cp2, cp1, ok);
    l50 = vmafx_ce_fsub(l_bar, vmafx_ce_int(50), ok);
    sl2 = vmafx_ce_sq(l50);
    s_l = vmafx_ce_f32(vmafx_ce_add_(one, vmafx_ce_div_(vmafx_ce_mul_(vmafx_ce_k(VMAFX_CE_K_0_015), sl2),
                                                      vmafx_ce_sqrt(vmafx_ce_add_(vmafx_ce_int(20), sl2)))),
                       ok);
    s_c = vmafx_ce_f32(vmafx_ce_add_(one, vmafx_ce_mul_(vmafx_ce_k(VMAFX_CE_K_0_045), cp_bar)), ok);
    h1 = vmafx_ce_hue_angle(c1[2], a1, ok);
    h2 = vmafx_ce_hue_angle(c2[2], a2, ok);
    /* hue difference */
    if (vmafx_sd_is_zero(chroma1) || vmafx_sd_is_zero(chroma2)) {
        d_hp = zero;
    } else {
        vmafx_sd d21 = vmafx_ce_fsub(h2, h1, ok);
        if (vmafx_sd_le(vmafx_ce_abs(vmafx_ce_fsub(h1, h2, ok)), pi))
            d_hp = d21;
        else if (vmafx_sd_le(h2, h1))
            d_hp = vmafx_ce_f32(vmafx_ce_add_(d21, two_pi), ok);
        else
            d_hp = vmafx_ce_f32(vmafx_ce_sub_(d21, two_pi), ok);
    }
    {
        vmafx_sd sn = vmafx_ce_sincos(vmafx_ce_div_(d_hp, two), 1);
        vmafx_sd m = vmafx_ce_mul_(two, vmafx_ce_sqrt(vmafx_ce_fmul(cp1, cp2, ok)));
        d_h = vmafx_ce_to_f32(vmafx_ce_mul(vmafx_ce_pt(m), vmafx_ce_widen(sn)), ok);
    }
    /* mean hue */
    {
        vmafx_sd s = vmafx_ce_fadd(h1, h2, ok);
        if (vmafx_sd_lt(pi, vmafx_ce_abs(vmafx_ce_fsub(h1, h2, ok))))
            h_bar = vmafx_ce_f32(vmafx_ce_div_(vmafx_ce_add_(s, two_pi), two), ok);
        else
            h_bar = vmafx_ce_f32(vmafx_ce_div_(s, two), ok);
    }
    /* T */
    {
        vmafx_sd h = h_bar;
        vmafx_ce_iv c1i = vmafx_ce_widen(vmafx_ce_sincos(vmafx_ce_sub_(h, vmafx_ce_k(VMAFX_CE_K_PI_6)), 0));
        vmafx_ce_iv c2i = vmafx_ce_widen(vmafx_ce_sincos(vmafx_ce_mul_(two, h), 0));
        vmafx_ce_iv c3i = vmafx_ce_widen(vmafx_ce_sincos(
            vmafx_ce_add_(vmafx_ce_mul_(vmafx_ce_int(3), h), vmafx_ce_k(VMAFX_CE_K_PI_30)), 0));
        vmafx_ce_iv c4i = vmafx_ce_widen(vmafx_ce_sincos(
            vmafx_ce_sub_(vmafx_ce_mul_(vmafx_ce_int(4), h), vmafx_ce_k(VMAFX_CE_K_7PI_20)), 0));
        iv = vmafx_ce_sub(vmafx_ce_pt(one), vmafx_ce_mul(vmafx_ce_pt(vmafx_ce_k(VMAFX_CE_K_0_17)), c1i));
        iv = vmafx_ce_add(iv, vmafx_ce_mul(vmafx_ce_pt(vmafx_ce_k(VMAFX_CE_K_0_24)), c2i));
        iv = vmafx_ce_add(iv, vmafx_ce_mul(vmafx_ce_pt(vmafx_ce_k(VMAFX_CE_K_0_32)), c3i));
        iv = vmafx_ce_sub(iv, vmafx_ce_mul(vmafx_ce_pt(vmafx_ce_k(VMAFX_CE_K_0_20)), c4i));
        t = vmafx_ce_to_f32(iv, ok);
    }
    s_h = vmafx_ce_f32(
        vmafx_ce_add_(one, vmafx_ce_mul_(vmafx_ce_mul_(vmafx_ce_k(VMAFX_CE_K_0_015), cp_bar), t)), ok);
    /* rotation term */
    {
        vmafx_sd deg = vmafx_ce_f32(vmafx_ce_mul_(h_bar, vmafx_ce_k(VMAFX_CE_K_180_PI)), ok);
        vmafx_sd tt = vmafx_ce_f32(vmafx_ce_mul_(vmafx_ce_sub_(deg, vmafx_ce_int(275)), vmafx_ce_k(VMAFX_CE_K_INV_25)),
                                   ok);
        vmafx_sd c7 = vmafx_ce_powf7(cp_bar, ok);
        vmafx_sd ratio = vmafx_ce_fdiv(c7, vmafx_ce_fadd(c7, vmafx_ce_k(VMAFX_U64C(0x41F6BCC420000000)), ok), ok);
        vmafx_sd t2 = vmafx_ce_fmul(tt, tt, ok);
        vmafx_sd ex = vmafx_ce_exp(vmafx_sd_neg(t2));
        vmafx_sd adeg = vmafx_ce_to_f32(vmafx_ce_mul(vmafx_ce_pt(vmafx_ce_int(60)), vmafx_ce_widen(ex)), ok);
        vmafx_sd angle = vmafx_ce_f32(vmafx_ce_mul_(adeg, vmafx_ce_k(VMAFX_CE_K_PI_180)), ok);
        vmafx_sd m = vmafx_ce_mul_(vmafx_ce_int(-2), vmafx_ce_sqrt(ratio));
        r_t = vmafx_ce_to_f32(vmafx_ce_mul(vmafx_ce_pt(m), vmafx_ce_widen(vmafx_ce_sincos(angle, 1))), ok);
    }
    lightness = vmafx_ce_fdiv(d_l, vmafx_ce_fmul(vmafx_ce_k(VMAFX_CE_K_0_65F), s_l, ok), ok);
    chroma = vmafx_ce_fdiv(d_cp, s_c, ok); /* kC = 1: 1.0f * s_c is s_c */
    hue = vmafx_ce_fdiv(d_h, vmafx_ce_fmul(vmafx_ce_int(4), s_h, ok), ok);
    res = vmafx_ce_add_(vmafx_ce_add_(vmafx_ce_add_(vmafx_ce_sq(lightness), vmafx_ce_sq(chroma)), vmafx_ce_sq(hue)),
                       vmafx_ce_fmul(vmafx_ce_fmul(r_t, chroma, ok), hue, ok));
    return vmafx_ce_f32(vmafx_ce_sqrt(res), ok);
}

/* One pixel: the samples of the reference and the distorted picture at bit
 * depth bpc (8, 10, 12, 16). Returns the bits of the reference's float dE00;
 * *ok = 0 when it is not certified (the value is then meaningless). */
VMAFX_FN vmafx_u32 vmafx_ciede_pixel(vmafx_i32 ry, vmafx_i32 ru, vmafx_i32 rv, vmafx_i32 dy, vmafx_i32 du, vmafx_i32 dv,
                                     vmafx_i32 bpc, int* ok)
{
    vmafx_sd a[3], b[3];
    *ok = 1;
    /* the same colour: every difference is 0 and so is dE00 (+0.0f) */
    if (ry == dy && ru == du && rv == dv) return 0u;
    vmafx_ce_lab(ry, ru, rv, bpc, a, ok);
    vmafx_ce_lab(dy, du, dv, bpc, b, ok);
    if (!*ok) return 0;
    return vmafx_ce_f32_bits(vmafx_ce_delta_e00(a, b, ok));
}

/* libvmaf's chroma read (see feature/ciede.hpp) for luma pixel (i, j), from
 * chroma planes of cw x ch samples whose rows libvmaf pads to 32 samples.
 * fmt: 0 = 4:2:0, 1 = 4:2:2, 2 = 4:4:4. nplanes: how many planes the read
 * may run into (2 from U, which V follows; 1 from V). Sets *plane (0 = the
 * plane asked for, 1 = the next one), *row, *col and returns 1, or returns 0
 * when the sample is a zero (padding, or past the planes). */
VMAFX_FN int vmafx_ciede_chroma_at(int fmt, int cw, int ch, int nplanes, int i, int j, int* plane, int* row,
                                   int* col)
{
    vmafx_i64 k, size, s;
    int q;
    if (fmt == 2) {
        *plane = 0;
        *row = i;
        *col = j;
        return 1;
    }
    if (fmt == 0) {
        *plane = 0;
        *row = i / 2;
        *col = j / 2;
        return 1;
    }
    if (j < cw) {
        *plane = 0;
        *row = i / 2;
        *col = j;
        return 1;
    }
    s = (vmafx_i64)((cw + 31) & ~31);
    size = s * ch;
    k = (vmafx_i64)(i / 2) * s + j;
    for (q = 0; q < nplanes; ++q) {
        if (k < size) {
            *plane = q;
            *row = (int)(k / s);
            *col = (int)(k % s);
            return *col < cw;
        }
        k -= size;
    }
    return 0;
}

#endif
