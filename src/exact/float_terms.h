/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact integer forms of the per-pixel float terms of float_psnr and
 * float_moment (libvmaf's float picture_copy: a sample s at bit depth b is
 * the float s / 2^(b - 8), exactly). With k = b - 8:
 *   the sample itself        s        in units of 2^-k,
 *   its float square         rne24(s * s)  in units of 2^-2k,
 *   a float squared error    rne24(e * e)  in units of 2^-2k, e = s_ref - s_dis,
 * where rne24 rounds to 24 significant bits, to nearest, ties to even: the
 * float multiplication of two such values (the difference of two samples is
 * exact in float, and no product is subnormal). Each result is below 2^32 and
 * has at most 24 significant bits, so it is also the term's float value. */
#ifndef VMAFX_EXACT_FLOAT_TERMS_H
#define VMAFX_EXACT_FLOAT_TERMS_H

#include "compat.h"

/* v (< 2^40) rounded to 24 significant bits, nearest, ties to even. */
VMAFX_FN vmafx_u64 vmafx_rne24(vmafx_u64 v)
{
    int bits = 64 - vmafx_clz64(v);
    if (bits <= 24) return v;
    int sh = bits - 24;
    vmafx_u64 q = v >> sh;
    vmafx_u64 rem = v & ((VMAFX_U64_ONE << sh) - 1);
    vmafx_u64 mid = VMAFX_U64_ONE << (sh - 1);
    if (rem > mid || (rem == mid && (q & 1))) q += 1;
    return q << sh; /* a carry to 2^24 stays representable */
}

/* Term kinds of the row-sum kernels. */
#define VMAFX_FTERM_SAMPLE 0 /* s: float_moment 1st, units 2^-k */
#define VMAFX_FTERM_SQUARE 1 /* rne24(s * s): float_moment 2nd, units 2^-2k */
#define VMAFX_FTERM_ERROR 2  /* rne24((a - b)^2): float_psnr, units 2^-2k */

VMAFX_FN vmafx_u64 vmafx_fterm(int kind, vmafx_i32 a, vmafx_i32 b)
{
    if (kind == VMAFX_FTERM_SAMPLE) return (vmafx_u64)a;
    vmafx_i32 e = kind == VMAFX_FTERM_SQUARE ? a : a - b;
    vmafx_u64 m = (vmafx_u64)(e < 0 ? -e : e);
    return vmafx_rne24(m * m);
}

#endif
