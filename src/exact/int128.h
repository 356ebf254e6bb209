/* SPDX-License-Identifier: BSD-3-Clause */
/* Unsigned 128-bit integers as two 64-bit halves. Products are formed from
 * 32-bit limbs: no 64-bit high-half multiply builtin and no 128-bit type. */
#ifndef VMAFX_EXACT_INT128_H
#define VMAFX_EXACT_INT128_H

#include "compat.h"

typedef struct vmafx_u128 {
    vmafx_u64 hi;
    vmafx_u64 lo;
} vmafx_u128;

VMAFX_FN vmafx_u128 vmafx_u128_make(vmafx_u64 hi, vmafx_u64 lo)
{
    vmafx_u128 r;
    r.hi = hi;
    r.lo = lo;
    return r;
}

VMAFX_FN vmafx_u128 vmafx_u128_from_u64(vmafx_u64 x) { return vmafx_u128_make(0, x); }

/* Full 128-bit product of two 64-bit values. */
VMAFX_FN vmafx_u128 vmafx_mul_u64(vmafx_u64 a, vmafx_u64 b)
{
    const vmafx_u64 mask = VMAFX_U64C(0xFFFFFFFF);
    vmafx_u64 a0 = a & mask, a1 = a >> 32;
    vmafx_u64 b0 = b & mask, b1 = b >> 32;
    vmafx_u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* below 3 * 2^32: cannot overflow */
    vmafx_u64 mid = (p00 >> 32) + (p01 & mask) + (p10 & mask);
    return vmafx_u128_make(p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32),
                           (mid << 32) | (p00 & mask));
}

VMAFX_FN vmafx_u128 vmafx_u128_add(vmafx_u128 a, vmafx_u128 b)
{
    vmafx_u64 lo = a.lo + b.lo;
    return vmafx_u128_make(a.hi + b.hi + (lo < a.lo ? 1 : 0), lo);
}

/* a - b modulo 2^128. */
VMAFX_FN vmafx_u128 vmafx_u128_sub(vmafx_u128 a, vmafx_u128 b)
{
    return vmafx_u128_make(a.hi - b.hi - (a.lo < b.lo ? 1 : 0), a.lo - b.lo);
}

/* -1, 0, 1 as a <, ==, > b. */
VMAFX_FN int vmafx_u128_cmp(vmafx_u128 a, vmafx_u128 b)
{
    if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
    return 0;
}

/* Shift left by n in [0, 127]; bits above 2^128 are lost. */
VMAFX_FN vmafx_u128 vmafx_u128_shl(vmafx_u128 a, int n)
{
    if (n == 0) return a;
    if (n >= 64) return vmafx_u128_make(a.lo << (n - 64), 0);
    return vmafx_u128_make((a.hi << n) | (a.lo >> (64 - n)), a.lo << n);
}

/* Shift right by n in [0, 127]. */
VMAFX_FN vmafx_u128 vmafx_u128_shr(vmafx_u128 a, int n)
{
    if (n == 0) return a;
    if (n >= 64) return vmafx_u128_make(0, a.hi >> (n - 64));
    return vmafx_u128_make(a.hi >> n, (a.lo >> n) | (a.hi << (64 - n)));
}

/* Low 128 bits of a * b. */
VMAFX_FN vmafx_u128 vmafx_u128_mul_u64(vmafx_u128 a, vmafx_u64 b)
{
    vmafx_u128 r = vmafx_mul_u64(a.lo, b);
    r.hi += a.hi * b;
    return r;
}

/* Quotient and remainder of n / d for a 32-bit divisor d >= 1 and a quotient
 * below 2^32 (n < d * 2^32). The quotient is estimated twice with fp32 and
 * corrected from the exact remainder; the estimate only has to be within a
 * few thousand units, so how the device rounds fp32 division does not enter. */
typedef struct vmafx_divmod32 {
    vmafx_u64 q;
    vmafx_u64 r;
} vmafx_divmod32;

VMAFX_FN vmafx_divmod32 vmafx_divmod_u64_u32(vmafx_u64 n, vmafx_u32 d)
{
    vmafx_divmod32 out;
    float inv = 1.0f / (float)d;
    /* first estimate: within 2^-20 relative of the quotient (< 2^32) */
    vmafx_u64 q = (vmafx_u64)((float)n * inv);
    vmafx_i64 r = (vmafx_i64)(n - q * (vmafx_u64)d); /* |r| < 2^44: exact */
    /* second estimate from the remainder: within one unit */
    vmafx_i64 dq = (vmafx_i64)((float)r * inv);
    q = (vmafx_u64)((vmafx_i64)q + dq);
    r -= dq * (vmafx_i64)d;
    while (r < 0) {
        q -= 1;
        r += (vmafx_i64)d;
    }
    while (r >= (vmafx_i64)d) {
        q += 1;
        r -= (vmafx_i64)d;
    }
    out.q = q;
    out.r = (vmafx_u64)r;
    return out;
}

#endif
