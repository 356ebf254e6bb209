/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-sample steps of CAMBI (feature/cambi.cpp, libvmaf cambi.c) for the
 * device twins (feature/cuda/cambi.cu, feature/opencl/cambi.cl), written once
 * in the common subset of exact/compat.h. Everything is integer arithmetic
 * except vmafx_cambi_term(), which performs the reference's two float
 * operations, each rounded to nearest even as the host rounds them. */
#ifndef VMAFX_EXACT_CAMBI_H
#define VMAFX_EXACT_CAMBI_H

#include "compat.h"

/* Half the side of the zero-derivative mask's 7x7 window. */
#define VMAFX_CAMBI_MASK_PAD 3

/* int -> float, rounded to nearest even (the C conversion on the host). */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_CAMBI_I2F(x) convert_float_rte(x)
#elif defined(__CUDA_ARCH__)
#define VMAFX_CAMBI_I2F(x) __int2float_rn(x)
#else
#define VMAFX_CAMBI_I2F(x) ((float)(x))
#endif

/* A luma sample of bpc bits (8..16) at 10 bits: bpc <= 8: v << (10 - bpc);
 * 9: v << 1; 10: v; above: (v + 2^(s-1)) >> s with s = bpc - 10, in 32-bit
 * arithmetic (65535 at 16 bits gives 1024). */
VMAFX_FN vmafx_u32 vmafx_cambi_to10(vmafx_u32 v, int bpc)
{
    if (bpc <= 8) return v << (10 - bpc);
    if (bpc == 9) return v << 1;
    if (bpc == 10) return v;
    return (v + (1u << (bpc - 11))) >> (bpc - 10);
}

/* The mode of three samples: a value two of them share, else the smallest. */
VMAFX_FN vmafx_u32 vmafx_cambi_mode3(vmafx_u32 a, vmafx_u32 b, vmafx_u32 c)
{
    if (a == b || a == c) return a;
    if (b == c) return b;
    if (b < a) a = b;
    return c < a ? c : a;
}

/* 2x2 anti-dithering of a sample s with its right (r), lower (d) and
 * lower-right (dr) neighbours: has_r / has_d say whether the neighbour exists
 * (the last column and row average two samples, the corner keeps s). */
VMAFX_FN vmafx_u32 vmafx_cambi_dither(vmafx_u32 s, vmafx_u32 r, vmafx_u32 d, vmafx_u32 dr, int has_r, int has_d)
{
    if (has_r && has_d) return (s + r + d + dr) >> 2;
    if (has_d) return (s + d) >> 1;
    if (has_r) return (s + r) >> 1;
    return s;
}

/* The banding confidence of one contrast step: the exact int product
 * weight * p0 * p (below 2^31: p0 + p is at most 4225, weight at most 9)
 * converted to float, times the table's reciprocal of p0 + p. The reference
 * takes p as the larger of its two neighbour counts (either when equal). */
VMAFX_FN float vmafx_cambi_term(int weight, int p0, int p, float reciprocal)
{
    const float num = VMAFX_CAMBI_I2F(weight * p0 * p);
    return num * reciprocal;
}

/* Window counts for max_log_contrast <= 2 (at most 4 contrast steps: the
 * 9 values xv - 4 .. xv + 4), kept in registers: counter k (0..8) is the 16-bit
 * field k % 4 of word k / 4 (a window holds at most 65 * 65 = 4225 values).
 * k is a neighbour's value minus the pixel's plus nd, as an unsigned number:
 * above span (2 nd) it is not counted. */
#define VMAFX_CAMBI_SMALL_ND 4
VMAFX_FN void vmafx_cambi_count_small(vmafx_u32 k, vmafx_u32 span, vmafx_u64* w0, vmafx_u64* w1, vmafx_u64* w2)
{
    const vmafx_u64 inc = k <= span ? VMAFX_U64_ONE << ((k & 3u) * 16u) : 0;
    if (k < 4u)
        *w0 += inc;
    else if (k < 8u)
        *w1 += inc;
    else
        *w2 += inc;
}

VMAFX_FN int vmafx_cambi_small_count(vmafx_u32 k, vmafx_u64 w0, vmafx_u64 w1, vmafx_u64 w2)
{
    const vmafx_u64 w = k < 4u ? w0 : (k < 8u ? w1 : w2);
    return (int)((w >> ((k & 3u) * 16u)) & 0xFFFFu);
}

#endif /* VMAFX_EXACT_CAMBI_H */
