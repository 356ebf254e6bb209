/* SPDX-License-Identifier: BSD-3-Clause */
/* The window sum of float_ssim's decimation (libvmaf ssim.c + iqa/decimate.c +
 * iqa/convolve.c: _iqa_filter_pixel with the scale x scale box kernel of taps
 * fl32(1.0f / (scale * scale)) and kscale 1.0f) in int64 fixed point.
 *
 * The reference adds fp32 products fl32(sample * tap) into an fp64 sum and
 * returns (float)sum. Samples are multiples of 2^-8 below 256 (8-bit values as
 * they are; 10, 12 and 16 bits divided by 4, 16, 256: exact in fp32). For
 * scale <= 128 the tap is at least 2^-14, so a non-zero product is at least
 * 2^-22 and a multiple of 2^-45, and a window's sum stays below 256: the fp64
 * sum is exact, and the result is one round-to-nearest-even of the exact sum.
 * Here each product is formed and rounded to 24 bits in integers, held in
 * units of 2^-52 (an integer below 2^60, the sum below 2^63: any order of
 * addition gives the same sum), and the sum is rounded to fp32 once. No
 * floating-point operation is involved, so no device's fp32 rounding or
 * flush-to-zero mode can enter. */
#ifndef VMAFX_EXACT_FIXED_DECIMATE_H
#define VMAFX_EXACT_FIXED_DECIMATE_H

#include "compat.h"

/* Largest scale for which the sum above is exact. */
#define VMAFX_DECIMATE_MAX_SCALE 128

/* IEEE bits of fl32(1.0f / (scale * scale)), scale in [1, 2^15). */
VMAFX_FN vmafx_u32 vmafx_decimate_tap_bits(vmafx_i32 scale)
{
    vmafx_u64 n = (vmafx_u64)scale * (vmafx_u64)scale;
    vmafx_u64 q = 0, rem = 1;
    int b, i, steps, e;
    if (n == 1) return 0x3F800000u;
    b = 64 - vmafx_clz64(n); /* n in [2^(b-1), 2^b) */
    steps = b + 24;
    /* q = floor(2^steps / n) in (2^24, 2^25], by restoring long division */
    for (i = 0; i < steps; ++i) {
        rem <<= 1;
        q <<= 1;
        if (rem >= n) {
            rem -= n;
            q |= 1;
        }
    }
    /* 1/n = q * 2^-steps (+ rem): keep 24 bits, round to nearest even */
    e = -steps;
    if (q == (VMAFX_U64_ONE << 25)) { /* n a power of two: exact */
        q >>= 2;
        e += 2;
    } else {
        vmafx_u64 round_bit = q & 1;
        q >>= 1;
        e += 1;
        if (round_bit && (rem != 0 || (q & 1))) q += 1;
        if (q == (VMAFX_U64_ONE << 24)) {
            q >>= 1;
            e += 1;
        }
    }
    /* value q * 2^e with q in [2^23, 2^24) */
    return ((vmafx_u32)(e + 23 + 127) << 23) | (vmafx_u32)(q - (VMAFX_U64_ONE << 23));
}

/* A sample in units of 2^-8: value * 256 of picture_copy()'s float. */
VMAFX_FN vmafx_u32 vmafx_decimate_sample_fx(vmafx_u32 sample, int bpc)
{
    return sample << (16 - bpc); /* bpc 8, 10, 12 or 16 */
}

/* fl32(sample * tap) * 2^52 for a sample in units of 2^-8 (below 2^16) and a
 * tap in [2^-14, 1]. */
VMAFX_FN vmafx_u64 vmafx_decimate_product_fx(vmafx_u32 sample_fx, vmafx_u32 tap_bits)
{
    vmafx_u64 tm = (vmafx_u64)((tap_bits & 0x7FFFFFu) | 0x800000u);
    int te = (int)((tap_bits >> 23) & 0xFFu) - 150; /* tap = tm * 2^te */
    vmafx_u64 x = (vmafx_u64)sample_fx * tm;          /* < 2^40 */
    int sh = 0, len;
    if (x == 0) return 0;
    len = 64 - vmafx_clz64(x);
    if (len > 24) { /* round to 24 significant bits, nearest even */
        vmafx_u64 halfway, rem;
        sh = len - 24;
        halfway = VMAFX_U64_ONE << (sh - 1);
        rem = x & ((halfway << 1) - 1);
        x >>= sh;
        if (rem > halfway || (rem == halfway && (x & 1))) x += 1;
    }
    /* product = x * 2^(sh + te - 8); in units of 2^-52 */
    return x << (sh + te + 44);
}

/* (float)(sum * 2^-52) as IEEE bits, for a sum below 2^63. */
VMAFX_FN vmafx_u32 vmafx_decimate_round_fx(vmafx_u64 sum_fx)
{
    vmafx_u64 m = sum_fx;
    int len, e;
    if (m == 0) return 0u;
    len = 64 - vmafx_clz64(m);
    e = -52;
    if (len > 24) {
        int sh = len - 24;
        vmafx_u64 halfway = VMAFX_U64_ONE << (sh - 1);
        vmafx_u64 rem = m & ((halfway << 1) - 1);
        m >>= sh;
        e += sh;
        if (rem > halfway || (rem == halfway && (m & 1))) m += 1;
        if (m == (VMAFX_U64_ONE << 24)) {
            m >>= 1;
            e += 1;
        }
    } else {
        m <<= 24 - len;
        e -= 24 - len;
    }
    /* value m * 2^e with m in [2^23, 2^24): always a normal fp32 here */
    return ((vmafx_u32)(e + 23 + 127) << 23) | (vmafx_u32)(m - (VMAFX_U64_ONE << 23));
}

/* First tap offset of a window: taps cover offsets first .. first + scale - 1
 * around the output's source position (x * scale, y * scale). */
VMAFX_FN int vmafx_decimate_first_offset(int scale) { return -(scale / 2); }

/* The reference's symmetric boundary (KBND_SYMMETRIC): one reflection about
 * the edge, the edge sample repeated. */
VMAFX_FN int vmafx_decimate_mirror(int i, int n)
{
    if (i < 0) return -1 - i;
    if (i >= n) return 2 * n - i - 1;
    return i;
}

/* Output size of a decimated side: n / scale + (n & 1). */
VMAFX_FN int vmafx_decimate_out_size(int n, int scale) { return n / scale + (n & 1); }

#endif
