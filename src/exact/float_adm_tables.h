/* SPDX-License-Identifier: BSD-3-Clause */
/* Constants of libvmaf 3.2.0's float ADM ("float_adm"), plain C so that
 * host, CUDA and OpenCL code can share one definition.
 *
 * Every float table is written with the double literals libvmaf uses and
 * converted to float by the compiler, as libvmaf's own tables are. An OpenCL
 * program (no fp64, so no double literal) sees none of them; the host passes
 * it the values it needs. */
#ifndef VMAFX_EXACT_FLOAT_ADM_TABLES_H
#define VMAFX_EXACT_FLOAT_ADM_TABLES_H

#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_C_VERSION__)

/* Daubechies db2 analysis filters (low pass, high pass). */
static const float vmafx_fadm_db2_lo[4] = {0.482962913144690, 0.836516303737469, 0.224143868041857,
                                           -0.129409522550921};
static const float vmafx_fadm_db2_hi[4] = {-0.129409522550921, -0.224143868041857, 0.836516303737469,
                                           -0.482962913144690};

/* Weights of the contrast-masking threshold, used as double literals:
 * 1/30 for the masking filter, 1/15 for the centre sample. */
#define VMAFX_FADM_ONE_BY_30 0.0333333351
#define VMAFX_FADM_ONE_BY_15 0.0666666701

/* Border: the fraction of the band skipped on each side. */
#define VMAFX_FADM_BORDER_FACTOR 0.1

/* Watson et al. (1997) luma noise-floor model for the 7/9 wavelet: a, k, f0
 * and g[theta], and the basis amplitudes A[lambda][theta]. */
static const float vmafx_fadm_watson_a = 0.495;
static const float vmafx_fadm_watson_k = 0.466;
static const float vmafx_fadm_watson_f0 = 0.401;
static const float vmafx_fadm_watson_g[4] = {1.501, 1.0, 0.534, 1.0};
static const float vmafx_fadm_basis_amp[6][4] = {
    {0.62171, 0.67234, 0.72709, 0.67234},     {0.34537, 0.41317, 0.49428, 0.41317},
    {0.18004, 0.22727, 0.28688, 0.22727},     {0.091401, 0.11792, 0.15214, 0.11792},
    {0.045943, 0.059758, 0.077727, 0.059758}, {0.023013, 0.030018, 0.039156, 0.030018}};

/* Barten CSF as in HDR-VDP 2.2.1: luminance anchors (cd/m2), the five
 * parameters per anchor, the rod/cone sensitivity and MTF terms. */
static const float vmafx_fadm_barten_anchor[6] = {0.002, 0.02, 0.2, 2, 20, 150};
static const float vmafx_fadm_barten_par[6][5] = {
    {0.0160737, 0.991265, 3.74038, 0.50722, 4.46044}, {0.383873, 0.800889, 3.54104, 0.682505, 4.94958},
    {0.929301, 0.476505, 4.37453, 0.750315, 5.28678}, {1.29776, 0.405782, 4.40602, 0.935314, 5.61425},
    {1.49222, 0.334278, 3.79542, 1.07327, 6.4635},    {1.46213, 0.394533, 2.7755, 1.16577, 7.45665}};
static const float vmafx_fadm_barten_sa[4] = {30.162, 4.0627, 1.6596, 0.2712};
static const float vmafx_fadm_barten_mtf_a[4] = {0.424838596301290, 0.572435103936480, 0.000167576239164937,
                                                 0.00255872352306433};
static const float vmafx_fadm_barten_mtf_b[4] = {0.028, 0.37, 37, 360};

#endif

#endif
