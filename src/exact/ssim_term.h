/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-pixel term of the integer SSIM (libvmaf integer_ssim.c), formed from
 * a window's int64 moments with the reference's fp64 operations in the
 * reference's order, each rounded as fp64 rounds it, so the result is the
 * reference's term bit for bit. With w the window weight, the reference forms
 *
 *   c1  = sm2 * K1 * w * w            c2  = sm2 * K2 * w * w
 *   mx2 = mux * mux   mxy = mux * muy   my2 = muy * muy
 *   term = w * (2 * mxy + c1) * (c2 + 2 * (xy * w - mxy))
 *        / ((mx2 + my2 + c1) * (x2 * w - mx2 + y2 * w - my2 + c2))
 *
 * left to right, where sm2 = samplemax * samplemax is an int product and
 * every other operation is fp64. vmafx_ssim_factor_bits() forms the factors
 * sm2 * K1 and sm2 * K2 once per frame.
 *
 * Two shortcuts, each exact and so invisible in the result:
 *  - an interior window has weight 2^16, and a product with it only moves the
 *    exponent (c1, c2 and the w * (...) factor);
 *  - when the six moment products (mux*mux, mux*muy, muy*muy, xy*w, x2*w,
 *    y2*w) are below 2^52 and the sums formed from them stay within 2^53
 *    (every window at 8 and 10 bits), those products and sums are fp64
 *    values as they stand: integer arithmetic and four conversions that do
 *    not round replace six roundings of products and five of sums. */
#ifndef VMAFX_EXACT_SSIM_TERM_H
#define VMAFX_EXACT_SSIM_TERM_H

#include "softfp64.h"
#include "ssim_tables.h"

/* Bits of fl((int)(samplemax * samplemax) * k) for the constant with bits
 * k_bits (VMAFX_SSIM_K1_BITS or VMAFX_SSIM_K2_BITS). The reference squares
 * samplemax in int; at 16 bits that product overflows, and the value taken
 * is the wrapped one an x86-64 build computes (-131071). */
VMAFX_FN vmafx_u64 vmafx_ssim_factor_bits(int depth, vmafx_u64 k_bits)
{
    vmafx_u32 sm = (VMAFX_U64_ONE << depth) - 1;
    vmafx_i32 sm2 = (vmafx_i32)(sm * sm);
    return vmafx_sd_to_bits(vmafx_sd_mul(vmafx_sd_from_i64(sm2), vmafx_sd_from_bits(k_bits)));
}

/* fl(a * w) with w the window weight (an integer). */
VMAFX_FN vmafx_sd vmafx_ssim_times_weight_(vmafx_sd a, vmafx_sd fw, vmafx_i64 w)
{
    if (w == VMAFX_SSIM_FULL_WEIGHT) return vmafx_sd_mul_pow2(a, VMAFX_SSIM_FULL_WEIGHT_LOG2);
    return vmafx_sd_mul(a, fw);
}

/* |a| * |b| < 2^52 (and so exact in int64 and in fp64). */
VMAFX_FN int vmafx_ssim_small_product_(vmafx_i64 a, vmafx_i64 b)
{
    vmafx_u64 ua = a < 0 ? (vmafx_u64)0 - (vmafx_u64)a : (vmafx_u64)a;
    vmafx_u64 ub = b < 0 ? (vmafx_u64)0 - (vmafx_u64)b : (vmafx_u64)b;
    vmafx_u128 p = vmafx_mul_u64(ua, ub);
    return p.hi == 0 && p.lo < (VMAFX_U64_ONE << 52);
}

/* |v| <= 2^53: an integer fp64 holds exactly. */
VMAFX_FN int vmafx_ssim_fits_(vmafx_i64 v)
{
    const vmafx_i64 lim = (vmafx_i64)(VMAFX_U64_ONE << 53);
    return v <= lim && v >= -lim;
}

/* The term's formula, written once: defines
 *   T name(mux, muy, x2, xy, y2, w, k1f, k2f)
 * over an fp64 type T and its operations, each a function or function-like
 * macro: of (an int64 converted), add, sub, mul, twice (2 * x, exact) and
 * div, with k1f / k2f the factors max^2 * K1 / K2. Here T is soft fp64
 * (vmafx_ssim_term_sd_); ssim_fp64.h instantiates it with the compiler's own
 * fp64 for the host and CUDA. */
#define VMAFX_SSIM_TERM_FORMULA(name, T, of, add, sub, mul, twice, div)                                          \
    VMAFX_FN T name(vmafx_i64 mux, vmafx_i64 muy, vmafx_i64 x2, vmafx_i64 xy, vmafx_i64 y2, vmafx_i64 w, T k1f,   \
                    T k2f)                                                                                      \
    {                                                                                                           \
        const T fw = of(w);                                                                                     \
        const T c1 = mul(mul(k1f, fw), fw);                                                                     \
        const T c2 = mul(mul(k2f, fw), fw);                                                                     \
        const T fmux = of(mux);                                                                                 \
        const T fmuy = of(muy);                                                                                 \
        const T mx2 = mul(fmux, fmux);                                                                          \
        const T mxy = mul(fmux, fmuy);                                                                          \
        const T my2 = mul(fmuy, fmuy);                                                                          \
        /* w (2 mxy + c1) (c2 + 2 (xy w - mxy)) */                                                              \
        const T num = mul(mul(fw, add(twice(mxy), c1)), add(c2, twice(sub(mul(of(xy), fw), mxy))));             \
        /* (mx2 + my2 + c1) (x2 w - mx2 + y2 w - my2 + c2) */                                                   \
        const T den = mul(add(add(mx2, my2), c1), add(sub(add(sub(mul(of(x2), fw), mx2), mul(of(y2), fw)), my2), c2)); \
        return div(num, den);                                                                                   \
    }

VMAFX_FN vmafx_sd vmafx_ssim_twice_(vmafx_sd a) { return vmafx_sd_mul_pow2(a, 1); }

VMAFX_SSIM_TERM_FORMULA(vmafx_ssim_term_sd_, vmafx_sd, vmafx_sd_from_i64, vmafx_sd_add, vmafx_sd_sub, vmafx_sd_mul,
                        vmafx_ssim_twice_, vmafx_sd_div)

/* The term's IEEE bits, every operation as the reference performs it; no
 * shortcut. k1f_bits / k2f_bits: vmafx_ssim_factor_bits(depth, K1 / K2). */
VMAFX_FN vmafx_u64 vmafx_ssim_term_bits_plain(vmafx_i64 mux, vmafx_i64 muy, vmafx_i64 x2,
                                              vmafx_i64 xy, vmafx_i64 y2, vmafx_i64 w,
                                              vmafx_u64 k1f_bits, vmafx_u64 k2f_bits)
{
    return vmafx_sd_to_bits(vmafx_ssim_term_sd_(mux, muy, x2, xy, y2, w, vmafx_sd_from_bits(k1f_bits),
                                                vmafx_sd_from_bits(k2f_bits)));
}

/* 1 when the products and sums before the stabilisers are exact integers
 * (the second shortcut applies). */
VMAFX_FN int vmafx_ssim_term_integral(vmafx_i64 mux, vmafx_i64 muy, vmafx_i64 x2, vmafx_i64 xy,
                                      vmafx_i64 y2, vmafx_i64 w)
{
    vmafx_i64 mx2, my2, var;
    if (!vmafx_ssim_small_product_(mux, mux) || !vmafx_ssim_small_product_(mux, muy) ||
        !vmafx_ssim_small_product_(muy, muy) || !vmafx_ssim_small_product_(xy, w) ||
        !vmafx_ssim_small_product_(x2, w) || !vmafx_ssim_small_product_(y2, w))
        return 0;
    mx2 = mux * mux;
    my2 = muy * muy;
    /* x2*w - mx2 and xy*w - mxy are below 2^53 in magnitude; the next two
     * partial sums need a check for moments no window produces */
    var = x2 * w - mx2 + y2 * w;
    if (!vmafx_ssim_fits_(var)) return 0;
    return vmafx_ssim_fits_(var - my2);
}

/* The term's IEEE bits, with the shortcuts. Equal to
 * vmafx_ssim_term_bits_plain() for every input. */
VMAFX_FN vmafx_u64 vmafx_ssim_term_bits(vmafx_i64 mux, vmafx_i64 muy, vmafx_i64 x2, vmafx_i64 xy,
                                        vmafx_i64 y2, vmafx_i64 w, vmafx_u64 k1f_bits,
                                        vmafx_u64 k2f_bits)
{
    vmafx_sd fw, c1, c2, num, den;
    vmafx_i64 mxy;
    if (!vmafx_ssim_term_integral(mux, muy, x2, xy, y2, w))
        return vmafx_ssim_term_bits_plain(mux, muy, x2, xy, y2, w, k1f_bits, k2f_bits);
    fw = vmafx_sd_from_i64(w);
    c1 = vmafx_ssim_times_weight_(
        vmafx_ssim_times_weight_(vmafx_sd_from_bits(k1f_bits), fw, w), fw, w);
    c2 = vmafx_ssim_times_weight_(
        vmafx_ssim_times_weight_(vmafx_sd_from_bits(k2f_bits), fw, w), fw, w);
    mxy = mux * muy;
    /* w * (2 mxy + c1) * (c2 + 2 (xy w - mxy)) */
    num = vmafx_ssim_times_weight_(vmafx_sd_add(vmafx_sd_from_i64(2 * mxy), c1), fw, w);
    num = vmafx_sd_mul(num, vmafx_sd_add(c2, vmafx_sd_from_i64(2 * (xy * w - mxy))));
    /* (mx2 + my2 + c1) * (x2 w - mx2 + y2 w - my2 + c2) */
    den = vmafx_sd_add(vmafx_sd_from_i64(mux * mux + muy * muy), c1);
    den = vmafx_sd_mul(den, vmafx_sd_add(vmafx_sd_from_i64(x2 * w - mux * mux + y2 * w - muy * muy), c2));
    return vmafx_sd_to_bits(vmafx_sd_div(num, den));
}

#endif
