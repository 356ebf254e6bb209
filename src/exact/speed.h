/* SPDX-License-Identifier: BSD-3-Clause */
/* SpEED's decimation (speed_chroma, speed_temporal; libvmaf speed.c with
 * vif_tools.c and picture_copy.c) for the device twins, once for CUDA and
 * OpenCL C: the plane on the float scale (or the temporal difference), the
 * optional prescale (nearest, bilinear, bicubic, lanczos4 with the host's
 * index and weight tables) and the antialias Gaussian at every step-th row
 * and column, each output the CPU reference's loop in its order
 * (feature/float_common.cpp: scale_frame, convolve_decimated), accumulators
 * from +0.0f. The host finishes with speed::score_decimated().
 *
 * Every fp32 operation is the correctly rounded IEEE operation, never
 * contracted: VMAFX_SP_ADD / MUL / DIV are the operators on the host
 * (-ffp-contract=off), __fadd_rn / __fmul_rn / __fdiv_rn in CUDA device code
 * and ocl_f32.cl's f32_add / f32_mul / f32_div in OpenCL C (soft fp64 where
 * a device might round otherwise; the kernel file includes ocl_f32.cl before
 * this header). Pointers into the images are VMAFX_SP_GLOBAL (__global in
 * OpenCL C). */
#ifndef VMAFX_EXACT_SPEED_H
#define VMAFX_EXACT_SPEED_H

#include "compat.h"

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_SP_GLOBAL __global
#define VMAFX_SP_ADD(a, b) f32_add(a, b)
#define VMAFX_SP_MUL(a, b) f32_mul(a, b)
#define VMAFX_SP_DIV(a, b) f32_div(a, b)
#else
#include <stddef.h>
#define VMAFX_SP_GLOBAL
#if defined(__CUDA_ARCH__)
#define VMAFX_SP_ADD(a, b) __fadd_rn(a, b)
#define VMAFX_SP_MUL(a, b) __fmul_rn(a, b)
#define VMAFX_SP_DIV(a, b) __fdiv_rn(a, b)
#else
#define VMAFX_SP_ADD(a, b) ((a) + (b))
#define VMAFX_SP_MUL(a, b) ((a) * (b))
#define VMAFX_SP_DIV(a, b) ((a) / (b))
#endif
#endif

/* libvmaf's picture_copy of a sample sa: sa / 2^(bpc - 8) + -128.0f, or with
 * diff the difference of that value for sa and for sb. Both are exact in
 * fp32 (multiples of 2^-8 below 2^9 in magnitude), so they are formed from
 * the integer difference times unit = 2^-(bpc - 8), exactly; a zero is
 * +0.0f, as x - x and 128.0f + -128.0f are. */
VMAFX_FN float vmafx_speed_sample(int sa, int sb, int diff, int bpc, float unit)
{
    const int t = diff ? sa - sb : sa - (128 << (bpc - 8));
    return VMAFX_SP_MUL((float)t, unit);
}

/* The antialias filter's border: whole-sample symmetric, the edge sample
 * not repeated (-1 -> 1, n -> n - 2). */
VMAFX_FN int vmafx_speed_mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

/* Bilinear prescale of output (x, y): two taps per axis, index ix[2x],
 * ix[2x + 1] and weights wx[2x] = 1 - d, wx[2x + 1] = d (likewise iy, wy),
 * added as a + b + c + d, each (wy * wx) * sample. */
VMAFX_FN float vmafx_speed_bilinear(VMAFX_SP_GLOBAL const float* src, int w, VMAFX_SP_GLOBAL const int* ix,
                                    VMAFX_SP_GLOBAL const float* wx, VMAFX_SP_GLOBAL const int* iy,
                                    VMAFX_SP_GLOBAL const float* wy, int x, int y)
{
    VMAFX_SP_GLOBAL const float* r1 = src + (size_t)iy[2 * y] * w;
    VMAFX_SP_GLOBAL const float* r2 = src + (size_t)iy[2 * y + 1] * w;
    const int x1 = ix[2 * x], x2 = ix[2 * x + 1];
    const float ox = wx[2 * x], dx = wx[2 * x + 1];
    const float oy = wy[2 * y], dy = wy[2 * y + 1];
    const float a = VMAFX_SP_MUL(VMAFX_SP_MUL(oy, ox), r1[x1]);
    const float b = VMAFX_SP_MUL(VMAFX_SP_MUL(oy, dx), r1[x2]);
    const float c = VMAFX_SP_MUL(VMAFX_SP_MUL(dy, ox), r2[x1]);
    const float d = VMAFX_SP_MUL(VMAFX_SP_MUL(dy, dx), r2[x2]);
    return VMAFX_SP_ADD(VMAFX_SP_ADD(VMAFX_SP_ADD(a, b), c), d);
}

/* Bicubic (taps 4) and lanczos4 (taps 9, normalise: divided by the sum of
 * its weights) prescale of output (x, y): rows outer, columns inner, weight
 * wx[i] * wy[j], value += sample * weight. */
VMAFX_FN float vmafx_speed_interp(VMAFX_SP_GLOBAL const float* src, int w, VMAFX_SP_GLOBAL const int* ix,
                                  VMAFX_SP_GLOBAL const float* wx, VMAFX_SP_GLOBAL const int* iy,
                                  VMAFX_SP_GLOBAL const float* wy, int taps, int normalise, int x, int y)
{
    float value = 0.0f, weight_sum = 0.0f;
    int i, j;
    for (j = 0; j < taps; ++j) {
        VMAFX_SP_GLOBAL const float* row = src + (size_t)iy[y * taps + j] * w;
        const float wyj = wy[y * taps + j];
        for (i = 0; i < taps; ++i) {
            const float wgt = VMAFX_SP_MUL(wx[x * taps + i], wyj);
            if (normalise) weight_sum = VMAFX_SP_ADD(weight_sum, wgt);
            value = VMAFX_SP_ADD(value, VMAFX_SP_MUL(row[ix[x * taps + i]], wgt));
        }
    }
    return normalise ? VMAFX_SP_DIV(value, weight_sum) : value;
}

/* The antialias filter's fw taps along a line through p[0] with `pitch`
 * samples between neighbours, centred at c of n (mirrored at the ends): the
 * vertical pass reads a column (pitch = row width), the horizontal pass a
 * row (pitch 1). */
VMAFX_FN float vmafx_speed_taps(VMAFX_SP_GLOBAL const float* p, size_t pitch, int n, int c,
                                VMAFX_SP_GLOBAL const float* filt, int fw)
{
    const int r = fw / 2;
    float acc = 0.0f;
    int k;
    for (k = 0; k < fw; ++k) acc = VMAFX_SP_ADD(acc, VMAFX_SP_MUL(filt[k], p[(size_t)vmafx_speed_mirror(c - r + k, n) * pitch]));
    return acc;
}

#endif
