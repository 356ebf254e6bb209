/* SPDX-License-Identifier: BSD-3-Clause */
/* The fp64 arithmetic of the SSIM family for host C++ and CUDA (no
 * contraction: -ffp-contract=off on the host, --fmad=false in CUDA). OpenCL
 * C reads no file that names an fp64 type: its kernels form the same values
 * in soft fp64 (ssim_term.h for the integer ssim, ocl_f32.cl for the float
 * family), from the same moments and border rules (ssim.h).
 *
 * Integer ssim: the term of a window's moments, the reference's fp64
 * expression. Float family (float_ssim, float_ms_ssim; libvmaf iqa/): a
 * product of two floats is rounded to float, a filter adds those products in
 * fp64 in tap order and rounds the sum to float as (float)(sum * 1.0f), and
 * the per-pixel terms mix float and fp64 operations exactly as written. */
#ifndef VMAFX_EXACT_SSIM_FP64_H
#define VMAFX_EXACT_SSIM_FP64_H

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#error "ssim_fp64.h is for host C++ and CUDA only"
#endif

#include <math.h>
#include <stddef.h>

#include "ssim.h"

/* The fp64 operations of ssim_term.h's formula and of ssim_lcs.h (with the
 * fp32 ones of ssim_lcs.h below): the compiler's own. */
#define VMAFX_FD double
#define VMAFX_FD_OF(a) ((double)(a))
#define VMAFX_FD_TWICE(a) (2.0 * (a))
#define VMAFX_FD_ADD(a, b) ((a) + (b))
#define VMAFX_FD_SUB(a, b) ((a) - (b))
#define VMAFX_FD_MUL(a, b) ((a) * (b))
#define VMAFX_FD_DIV(a, b) ((a) / (b))

VMAFX_SSIM_TERM_FORMULA(vmafx_issim_term_fp64_, double, VMAFX_FD_OF, VMAFX_FD_ADD, VMAFX_FD_SUB, VMAFX_FD_MUL,
                        VMAFX_FD_TWICE, VMAFX_FD_DIV)

/* Integer ssim's term in the compiler's own fp64, max2 = (double)(max * max)
 * with max = 2^bpc - 1 squared in 64 bits (the factors max2 * K1, max2 * K2
 * as the reference forms them). */
VMAFX_FN double vmafx_issim_term(vmafx_issim_moments m, double max2)
{
    return vmafx_issim_term_fp64_(m.mx, m.my, m.xx, m.xy, m.yy, m.w, max2 * VMAFX_ISSIM_K1, max2 * VMAFX_ISSIM_K2);
}

/* A `taps` x `taps` kernel (row-major; or every tap `tap` when kernel is
 * NULL) applied at the sample (cx, cy) of a packed w x h image, borders
 * mirrored: products float(sample * tap) added in fp64 row by row, tap by
 * tap. Centre at taps / 2; an even kernel reaches one tap less to the right
 * and below. */
VMAFX_FN float vmafx_fssim_filter_at(const float* img, int w, int h, int cx, int cy, const float* kernel, float tap,
                                     int taps)
{
    const int lo = taps / 2;
    const int hi = lo - ((taps & 1) ? 0 : 1);
    const int edge = cx < lo || cy < lo || cx >= w - lo || cy >= h - lo;
    double sum = 0.0;
    int k = 0, u, v;
    for (v = -lo; v <= hi; ++v) {
        const float* row = img + (ptrdiff_t)(edge ? vmafx_fssim_mirror(cy + v, h) : cy + v) * w;
        if (edge)
            for (u = -lo; u <= hi; ++u, ++k) sum += row[vmafx_fssim_mirror(cx + u, w)] * (kernel ? kernel[k] : tap);
        else
            for (u = -lo; u <= hi; ++u, ++k) sum += row[cx + u] * (kernel ? kernel[k] : tap);
    }
    return (float)(sum * 1.0f);
}

/* Horizontal pass of the 11-tap Gaussian g at the window starting at a[0],
 * b[0]: the five moments (ref, cmp, ref^2, cmp^2, ref*cmp) at out[0],
 * out[stride], ... out[4 * stride]. */
VMAFX_FN void vmafx_fssim_horizontal(const float* a, const float* b, const float* g, float* out, size_t stride)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;
    int u;
    for (u = 0; u < VMAFX_SSIM_GAUSS_TAPS; ++u) {
        const float ra = a[u], cb = b[u], k = g[u];
        const float rr = ra * ra, cc = cb * cb, rc = ra * cb;
        s0 += ra * k;
        s1 += cb * k;
        s2 += rr * k;
        s3 += cc * k;
        s4 += rc * k;
    }
    out[0] = (float)(s0 * 1.0f);
    out[stride] = (float)(s1 * 1.0f);
    out[2 * stride] = (float)(s2 * 1.0f);
    out[3 * stride] = (float)(s3 * 1.0f);
    out[4 * stride] = (float)(s4 * 1.0f);
}

/* The fp32 operations of ssim_lcs.h: the compiler's own. */
#define VMAFX_FS_ADD(a, b) ((a) + (b))
#define VMAFX_FS_SUB(a, b) ((a) - (b))
#define VMAFX_FS_MUL(a, b) ((a) * (b))
#define VMAFX_FS_DIV(a, b) ((a) / (b))
#define VMAFX_FS_SQRT(a) ((float)sqrt((double)(a)))
#define VMAFX_FS_LT0(a) ((a) < 0.0f)
#define VMAFX_FS_LE0(a) ((a) <= 0.0f)
#include "ssim_lcs.h"

/* The terms from the vertical pass's five fp64 sums at acc[0], acc[stride],
 * ... acc[4 * stride], each rounded to float as (float)(sum * 1.0f). */
VMAFX_FN vmafx_fssim_terms vmafx_fssim_pixel(const double* acc, size_t stride, vmafx_fssim_consts k)
{
    return vmafx_fssim_lcs((float)(acc[0] * 1.0f), (float)(acc[stride] * 1.0f), (float)(acc[2 * stride] * 1.0f),
                           (float)(acc[3 * stride] * 1.0f), (float)(acc[4 * stride] * 1.0f), k);
}

#endif
