/* SPDX-License-Identifier: BSD-3-Clause */
/* The SSIM family's integer and border arithmetic once for host C++, CUDA
 * and OpenCL C; its fp64 arithmetic is in ssim_fp64.h (host and CUDA) and
 * ssim_term.h (soft fp64, which OpenCL C uses).
 *
 * Integer ssim (libvmaf integer_ssim.c): the window of a pixel is the 11-tap
 * filter of ssim_tables.h applied along each axis and cut (not mirrored) at
 * the frame's edges; its moments are int64 sums, so any order of the taps
 * gives the same moments. The pixel's term is the reference's fp64
 * expression of them (vmafx_issim_term, or its bits vmafx_issim_term_bits),
 * and the frame score is the raster-order fp64 sum of the terms over the
 * raster-order fp64 sum of the window weights.
 *
 * Float family (float_ssim, float_ms_ssim): the border rule of its filters
 * and its stabilising constants. */
#ifndef VMAFX_EXACT_SSIM_H
#define VMAFX_EXACT_SSIM_H

#include "ssim_tables.h"
#include "ssim_term.h"

/* The sums of one window, or of one row of it: tap-weighted sample sums, square
 * and cross sums, and the sum of the taps (the window's weight). */
typedef struct vmafx_issim_moments {
    vmafx_i64 mx, my, xx, xy, yy, w;
} vmafx_issim_moments;

/* The taps [klo, khi) a window keeps at position i of a line of n samples. */
VMAFX_FN int vmafx_issim_klo(int i) { return i < VMAFX_SSIM_TAP_RADIUS ? VMAFX_SSIM_TAP_RADIUS - i : 0; }
VMAFX_FN int vmafx_issim_khi(int i, int n)
{
    return i + VMAFX_SSIM_TAP_RADIUS >= n ? VMAFX_SSIM_TAP_COUNT - (i + VMAFX_SSIM_TAP_RADIUS - n + 1)
                                          : VMAFX_SSIM_TAP_COUNT;
}

/* The sum of the taps a window keeps at position i of a line of n samples. */
VMAFX_FN vmafx_i64 vmafx_issim_line_weight(int i, int n)
{
    const int khi = vmafx_issim_khi(i, n);
    vmafx_i64 s = 0;
    int k;
    for (k = vmafx_issim_klo(i); k < khi; ++k) s += vmafx_issim_taps[k];
    return s;
}

VMAFX_FN vmafx_issim_moments vmafx_issim_zero(void)
{
    vmafx_issim_moments m;
    m.mx = m.my = m.xx = m.xy = m.yy = m.w = 0;
    return m;
}

/* Horizontal pass: tap t of a reference sample s and a distorted sample d. */
VMAFX_FN void vmafx_issim_add_sample(vmafx_issim_moments* m, vmafx_i64 t, vmafx_i64 s, vmafx_i64 d)
{
    m->mx += t * s;
    m->my += t * d;
    m->xx += t * s * s;
    m->xy += t * s * d;
    m->yy += t * d * d;
    m->w += t;
}

/* Vertical pass: tap t of a row's horizontal moments r. */
VMAFX_FN void vmafx_issim_add_row(vmafx_issim_moments* m, vmafx_i64 t, vmafx_issim_moments r)
{
    m->mx += t * r.mx;
    m->my += t * r.my;
    m->xx += t * r.xx;
    m->xy += t * r.xy;
    m->yy += t * r.yy;
    m->w += t * r.w;
}

/* The term's IEEE bits in soft fp64 (any compiler; OpenCL C's path).
 * k1f_bits / k2f_bits: the bits of max2 * VMAFX_ISSIM_K1 / K2. */
VMAFX_FN vmafx_u64 vmafx_issim_term_bits(vmafx_issim_moments m, vmafx_u64 k1f_bits, vmafx_u64 k2f_bits)
{
    return vmafx_ssim_term_bits(m.mx, m.my, m.xx, m.xy, m.yy, m.w, k1f_bits, k2f_bits);
}

/* ---- float SSIM (float_ssim, float_ms_ssim) ---------------------------- */

/* The reference's symmetric border (-1 -> 0, n -> n - 1), then clamped: a
 * tiny image would reflect twice (libvmaf reads out of bounds there; the
 * extractors refuse such sizes). */
VMAFX_FN int vmafx_fssim_mirror(int i, int n)
{
    if (i < 0)
        i = -1 - i;
    else if (i >= n)
        i = 2 * n - i - 1;
    return i < 0 ? 0 : (i > n - 1 ? n - 1 : i);
}

/* The stabilisers, in float: C1 = (K1 L)^2, C2 = (K2 L)^2, C3 = C2 / 2. */
typedef struct vmafx_fssim_consts {
    float c1, c2, c3;
} vmafx_fssim_consts;

VMAFX_FN vmafx_fssim_consts vmafx_fssim_constants(void)
{
    const float k1 = VMAFX_SSIM_K1, k2 = VMAFX_SSIM_K2;
    const int l = VMAFX_SSIM_L;
    vmafx_fssim_consts c;
    c.c1 = (k1 * l) * (k1 * l);
    c.c2 = (k2 * l) * (k2 * l);
    c.c3 = c.c2 / 2.0f;
    return c;
}

#endif
