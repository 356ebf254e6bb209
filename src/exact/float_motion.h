/* SPDX-License-Identifier: BSD-3-Clause */
/* float_motion (libvmaf float_motion.c, motion_tools.h) once for host C++,
 * CUDA and OpenCL C: the separable float blur's taps (a tap-ordered float
 * sum from +0.0f, borders mirrored without repeating the edge sample; the
 * vertical pass first) and a row's float sum of |a - b| in column order.
 *
 * Every fp32 operation is the correctly rounded IEEE operation, never
 * contracted: VMAFX_FM_ADD / SUB / MUL / ABS are the operators on the host
 * (-ffp-contract=off) and in CUDA (--fmad=false), and float_ops.cl's fl_add
 * / fl_sub / fl_mul in OpenCL C (the kernel file includes float_ops.cl
 * first). `opq` is a value the caller keeps 0: OpenCL's barrier against
 * contraction (float_ops.cl), unused elsewhere. Pointers into the images are
 * VMAFX_FM_GLOBAL (__global in OpenCL C). */
#ifndef VMAFX_EXACT_FLOAT_MOTION_H
#define VMAFX_EXACT_FLOAT_MOTION_H

#include "compat.h"

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_FM_GLOBAL __global
#define VMAFX_FM_ADD(a, b) fl_add(a, b)
#define VMAFX_FM_SUB(a, b) fl_sub(a, b)
#define VMAFX_FM_MUL(a, b) fl_mul(a, b, opq)
#define VMAFX_FM_ABS(a) as_float(as_uint(a) & 0x7FFFFFFFu)
#else
#include <math.h>
#include <stddef.h>
#define VMAFX_FM_GLOBAL
#define VMAFX_FM_ADD(a, b) ((a) + (b))
#define VMAFX_FM_SUB(a, b) ((a) - (b))
#define VMAFX_FM_MUL(a, b) ((void)opq, (a) * (b))
#define VMAFX_FM_ABS(a) fabsf(a)
#endif

/* The blur's border: -1 -> 1, n -> n - 2. */
VMAFX_FN int vmafx_fmotion_mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

/* The fw taps f along a line through p[0] with `pitch` samples between
 * neighbours, centred at c of n: the vertical pass reads a column (pitch =
 * row width), the horizontal pass a row (pitch 1). */
VMAFX_FN float vmafx_fmotion_taps(VMAFX_FM_GLOBAL const float* p, size_t pitch, int n, int c,
                                  VMAFX_FM_GLOBAL const float* f, int fw, vmafx_u32 opq)
{
    const int r = fw / 2;
    float acc = 0.0f;
    int k;
    for (k = 0; k < fw; ++k) acc = VMAFX_FM_ADD(acc, VMAFX_FM_MUL(f[k], p[(size_t)vmafx_fmotion_mirror(c - r + k, n) * pitch]));
    return acc;
}

/* The float sum of |a[j] - b[j]| over j < w, in order. */
VMAFX_FN float vmafx_fmotion_row_sad(VMAFX_FM_GLOBAL const float* a, VMAFX_FM_GLOBAL const float* b, int w)
{
    float line = 0.0f;
    int j;
    for (j = 0; j < w; ++j) line = VMAFX_FM_ADD(line, VMAFX_FM_ABS(VMAFX_FM_SUB(a[j], b[j])));
    return line;
}

#endif
