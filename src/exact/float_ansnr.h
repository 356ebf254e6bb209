/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-sample arithmetic of the float ANSNR (libvmaf 3.2.0's float_ansnr:
 * ansnr_tools.c's 2-D filters, ansnr.c's signal and noise sums), written once
 * for the host (feature/float_ansnr.cpp), the CUDA kernels
 * (feature/cuda/float_ansnr.cu) and the OpenCL kernels
 * (feature/opencl/float_ansnr.cl, which includes float_ops.cl first), with
 * float_terms.h's VMAFX_F* operations in the reference's order. */
#ifndef VMAFX_EXACT_FLOAT_ANSNR_H
#define VMAFX_EXACT_FLOAT_ANSNR_H

#include "float_terms.h"

/* Symmetric extension with the edge sample repeated past the end: -i below
 * 0, 2n - i - 1 from n on (ansnr_tools.c's indexing). */
VMAFX_FN int vmafx_fansnr_reflect(int i, int n)
{
    if (i < 0) return -i;
    if (i >= n) return 2 * n - i - 1;
    return i;
}

/* One output of a 2-D filter of fw x fw taps k (row-major) on the window win
 * (the same layout, the mirrored samples around the output): each kernel row
 * summed in float from 0, the row sums added in float from 0. */
VMAFX_FN float vmafx_fansnr_filter(const VMAFX_FGLOBAL float* k, const float* win, int fw)
{
    float acc = 0.0f;
    int a, b;
    for (a = 0; a < fw; ++a) {
        float inner = 0.0f;
        for (b = 0; b < fw; ++b) inner = vmafx_ftap(inner, k[a * fw + b], win[a * fw + b], 0u);
        acc = VMAFX_FADD(acc, inner);
    }
    return acc;
}

/* One row's signal and noise: *sig and *noise get the float sums from 0, in
 * column order, of a * a and (a - b) * (a - b), with a and b the filtered
 * reference and distorted rows. */
VMAFX_FN void vmafx_fansnr_row(const VMAFX_FGLOBAL float* a, const VMAFX_FGLOBAL float* b, int w, float* sig,
                               float* noise)
{
    float s = 0.0f, n = 0.0f;
    int j;
    for (j = 0; j < w; ++j) {
        const float d = VMAFX_FSUB(a[j], b[j]);
        s = vmafx_ftap(s, a[j], a[j], 0u);
        n = vmafx_ftap(n, d, d, 0u);
    }
    *sig = s;
    *noise = n;
}

#endif
