/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-position arithmetic of the float VIF (libvmaf 3.2.0's float_vif:
 * vif_statistic_s, its log2 replacement, the vertical pass of the five
 * filtered moments), written once for the host's scalar rows
 * (feature/float_vif.cpp), the CUDA kernels (feature/cuda/float_vif.cu) and
 * the OpenCL kernels (feature/opencl/float_vif.cl, which includes
 * float_ops.cl first). Every float operation is the reference's, in its
 * order, through float_terms.h's VMAFX_F* operations; the statistic's two
 * double expressions (the comparison with sigma_nsq and the ratios fed to
 * the logarithm) through VMAFX_D* (soft fp64 on OpenCL). */
#ifndef VMAFX_EXACT_FLOAT_VIF_H
#define VMAFX_EXACT_FLOAT_VIF_H

#include "float_terms.h"
#include "float_vif_tables.h"

/* The statistic's constants, set once per frame. poly: libvmaf's log2
 * polynomial (vmafx_fvif_log2_poly; a device gets it from the host), max_inv:
 * float(sigma_nsq^2 / 255^2), gain_limit: the enhancement gain limit in
 * float, opq: 0 (float_terms.h). */
typedef struct vmafx_fvif_consts {
    vmafx_f64 sigma_nsq;
    float poly[VMAFX_FVIF_LOG2_TERMS];
    float max_inv;
    float gain_limit;
    vmafx_u32 opq;
} vmafx_fvif_consts;

/* libvmaf's log2f replacement: with x = m * 2^e (1 <= m < 2), e + P(m - 1),
 * P by Horner's rule from the highest coefficient. -inf at +-0, the host's
 * NAN (0x7FC00000) below 0; other special values go through the formula on
 * their bits, as the reference does. */
VMAFX_FN float vmafx_fvif_log2(float x, const vmafx_fvif_consts* k)
{
    const vmafx_u32 u = VMAFX_FBITS(x);
    float t, p = 0.0f;
    int i;
    if ((u & 0x7FFFFFFFu) == 0) return VMAFX_FFROM(0xFF800000u);
    if (VMAFX_FLT0(x)) return VMAFX_FFROM(0x7FC00000u);
    t = VMAFX_FSUB(VMAFX_FFROM((u & 0x007FFFFFu) | 0x3F800000u), 1.0f);
    for (i = 0; i < VMAFX_FVIF_LOG2_TERMS; ++i) p = VMAFX_FADD(VMAFX_FMUL(p, t, k->opq), k->poly[i]);
    return VMAFX_FADD((float)((int)((u & 0x7F800000u) >> 23) - 127), p);
}

/* (float)(1.0f + a / b), the quotient and the sum in double. The only NaN
 * it meets is 0 / 0 (sigma_nsq = 0); a CUDA device's NaN differs from x86's
 * default NaN, whose bits the logarithm then reads, so x86's is put in its
 * place there (the host's is x86's, soft fp64's is too). */
VMAFX_FN float vmafx_fvif_one_plus_ratio(vmafx_f64 a, vmafx_f64 b)
{
    const float v = VMAFX_DF(VMAFX_DADD(VMAFX_D(1.0f), VMAFX_DDIV(a, b)));
#ifdef __CUDA_ARCH__
    if (v != v) return VMAFX_FFROM(0xFFC00000u);
#endif
    return v;
}

/* vif_statistic_s at one position, libvmaf's "matching Matlab" variant: the
 * numerator and denominator contributions of the filtered moments. */
VMAFX_FN void vmafx_fvif_stat(float mu1, float mu2, float xx, float yy, float xy, const vmafx_fvif_consts* k,
                              float* num, float* den)
{
    const float eps = 1.0e-10f;
    const vmafx_u32 opq = k->opq;
    const float mu1_sq = VMAFX_FMUL(mu1, mu1, opq);
    const float mu2_sq = VMAFX_FMUL(mu2, mu2, opq);
    const float mu1_mu2 = VMAFX_FMUL(mu1, mu2, opq);
    float sigma1_sq = VMAFX_FSUB(xx, mu1_sq);
    float sigma2_sq = VMAFX_FSUB(yy, mu2_sq);
    const float sigma12 = VMAFX_FSUB(xy, mu1_mu2);
    float g, sv_sq;
    sigma1_sq = VMAFX_FGT0(sigma1_sq) ? sigma1_sq : 0.0f;
    sigma2_sq = VMAFX_FGT0(sigma2_sq) ? sigma2_sq : 0.0f;

    g = VMAFX_FDIV(sigma12, VMAFX_FADD(sigma1_sq, eps));
    sv_sq = VMAFX_FSUB(sigma2_sq, VMAFX_FMUL(g, sigma12, opq));
    if (VMAFX_FLT(sigma1_sq, eps)) {
        g = 0.0f;
        sv_sq = sigma2_sq;
        sigma1_sq = 0.0f;
    }
    if (VMAFX_FLT(sigma2_sq, eps)) {
        g = 0.0f;
        sv_sq = 0.0f;
    }
    if (VMAFX_FLT0(g)) {
        sv_sq = sigma2_sq;
        g = 0.0f;
    }
    sv_sq = VMAFX_FLT(eps, sv_sq) ? sv_sq : eps;
    g = VMAFX_FLT(g, k->gain_limit) ? g : k->gain_limit;

    if (VMAFX_DLT(VMAFX_D(sigma1_sq), k->sigma_nsq)) {
        *num = VMAFX_FSUB(1.0f, VMAFX_FMUL(sigma2_sq, k->max_inv, opq));
        *den = 1.0f;
        return;
    }
    *den = vmafx_fvif_log2(vmafx_fvif_one_plus_ratio(VMAFX_D(sigma1_sq), k->sigma_nsq), k);
    if (VMAFX_FLT0(sigma12)) {
        *num = 0.0f;
        return;
    }
    *num = vmafx_fvif_log2(vmafx_fvif_one_plus_ratio(VMAFX_D(VMAFX_FMUL(VMAFX_FMUL(g, g, opq), sigma1_sq, opq)),
                                                     VMAFX_DADD(VMAFX_D(sv_sq), k->sigma_nsq)),
                           k);
}

/* One tap c of the vertical pass of the five moments at one column, with a
 * and b the reference and distorted samples of the tap's row:
 * m[0..4] += c * a, c * b, c * (a * a), c * (b * b), c * (a * b). */
VMAFX_FN void vmafx_fvif_moments_tap(float* m, float c, float a, float b, vmafx_u32 opq)
{
    m[0] = vmafx_ftap(m[0], c, a, opq);
    m[1] = vmafx_ftap(m[1], c, b, opq);
    m[2] = vmafx_ftap(m[2], c, VMAFX_FMUL(a, a, opq), opq);
    m[3] = vmafx_ftap(m[3], c, VMAFX_FMUL(b, b, opq), opq);
    m[4] = vmafx_ftap(m[4], c, VMAFX_FMUL(a, b, opq), opq);
}

/* Row i of n as the filters mirror it (-1 -> 1, n -> n - 2). */
VMAFX_FN int vmafx_fvif_mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

#endif
