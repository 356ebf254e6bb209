/* SPDX-License-Identifier: BSD-3-Clause */
/* Integer ADM: the constants of libvmaf 3.2.0's fixed-point pipeline
 * (integer_adm.c / integer_adm.h / barten_csf_tools.h), as plain C so that the
 * CPU reference, CUDA and OpenCL C share one definition (exact/adm.h holds
 * the arithmetic that uses them).
 *
 * Array storage class: __constant in OpenCL C, __constant__ in CUDA's device
 * pass (its host pass, where the device functions are never called, keeps a
 * host copy so that it reads no device variable), static const on the host. */
#ifndef VMAFX_EXACT_ADM_TABLES_H
#define VMAFX_EXACT_ADM_TABLES_H

#include "compat.h"

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_ADM_CONST __constant
#elif defined(__CUDA_ARCH__)
#define VMAFX_ADM_CONST static __constant__ const
#else
#define VMAFX_ADM_CONST static const
#endif

#define VMAFX_ADM_SCALES 4

/* Smallest luma width and height: the DWT of the coarsest scale needs an
 * input of at least 5 samples (ceil(33 / 8) = 5); libvmaf reads outside the
 * image below that. */
#define VMAFX_ADM_MIN_SIZE 33

/* ---- DWT (Daubechies-2, 4 taps, Q15) ---------------------------------- */
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_dwt_lo[4] = {15826, 27411, 7345, -4240};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_dwt_hi[4] = {-4240, -7345, 27411, -15826};
/* Sum of the low-pass taps; scale 0 subtracts sum * (1 << (bpc - 1)) after
 * the vertical pass to centre the samples on zero (the high-pass taps sum to 0). */
#define VMAFX_ADM_DWT_LO_SUM 46342

/* Scale 0 (16-bit bands): vertical (sum + (1 << (bpc-1))) >> bpc, horizontal
 * (sum + 32768) >> 16. */
#define VMAFX_ADM_S0_H_SHIFT 16
#define VMAFX_ADM_S0_H_ROUND 32768

/* Scales 1..3 (32-bit bands), indexed by scale - 1. */
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s123_v_round[3] = {0, 32768, 32768};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s123_v_shift[3] = {0, 16, 16};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s123_h_round[3] = {16384, 32768, 16384};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s123_h_shift[3] = {15, 16, 15};

/* ---- Borders ---------------------------------------------------------- */
/* Fraction of each side left out of the score: left = (int)(w * f - 0.5);
 * the decouple/CSF stages widen this by one sample for the 3x3 masking filter:
 * left = (int)(w * f - 0.5 - 1), right = w - left + 2 (clamped to the band). */
#define VMAFX_ADM_BORDER_FACTOR 0.1

/* ---- Decoupling ------------------------------------------------------- */
/* div_lookup[32768 + i] = 2^30 / i, div_lookup[32768 - i] = -(2^30 / i). */
#define VMAFX_ADM_DIV_Q 1073741824
#define VMAFX_ADM_DIV_LOOKUP_SIZE 65537

/* ---- CSF, scale 0 ----------------------------------------------------- */
/* Fixed-point CSF factors at the default viewing condition (3H, 1080 lines,
 * Watson): rfactor * 2^21 for h and v, rfactor * 2^23 for d. */
VMAFX_ADM_CONST unsigned short vmafx_adm_s0_rfactor_default[3] = {36453, 36453, 49417};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s0_csf_shift[3] = {15, 15, 17};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s0_csf_round[3] = {16384, 16384, 65535}; /* sic: 65535 */
/* 2^17 / 30: the masking filter weight of a neighbour, (x * w + 2048) >> 12. */
#define VMAFX_ADM_S0_ONE_BY_30 4369
/* 2^17 / 15: the weight of the centre sample. */
#define VMAFX_ADM_S0_ONE_BY_15 8738
#define VMAFX_ADM_S0_FLT_SHIFT 12
#define VMAFX_ADM_S0_FLT_ROUND 2048

/* Scale 0 contrast masking: the threshold is shifted left by these before the
 * subtraction (h, v, d), x^2 is rounded down by shift_sq. */
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s0_thr_shift[3] = {10, 10, 12};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s0_sq_shift[3] = {29, 29, 30};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s0_sq_round[3] = {268435456, 268435456, 536870912};
/* shift_cub = ceil(log2(w)) - {4, 4, 3}; final scale 2^({52,52,57} - shift_cub - shift_rows). */
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s0_cub_bias[3] = {4, 4, 3};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s0_num_exp[3] = {52, 52, 57};
/* Denominator: sum of |x|^3 per row, the total shifted by max(0, ceil(log2(area)) - 20),
 * converted with 2^(18 - shift). */
#define VMAFX_ADM_S0_DEN_AREA_BIAS 20
#define VMAFX_ADM_S0_DEN_EXP 18

/* ---- CSF and masking, scales 1..3 ------------------------------------- */
/* rfactor * 2^32 multiplies the band, (x + 2^27) >> 28. */
#define VMAFX_ADM_S123_CSF_SHIFT 28
#define VMAFX_ADM_S123_CSF_ROUND 134217728
/* 2^32 / 30 and 2^32 / 15, then (x + round) >> 32 where round is
 * (vmafx_i32)(1u << 31), i.e. -2^31 (libvmaf's constant, kept). */
#define VMAFX_ADM_S123_ONE_BY_30 143165577
#define VMAFX_ADM_S123_ONE_BY_15 286331153
#define VMAFX_ADM_S123_FLT_SHIFT 32
#define VMAFX_ADM_S123_FLT_ROUND (-2147483647 - 1)
/* Masking: x^2 is (x*x + 2^29) >> 30; final scale 2^(exp - shift_cub - shift_rows). */
#define VMAFX_ADM_S123_SQ_SHIFT 30
#define VMAFX_ADM_S123_SQ_ROUND 536870912
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s123_num_exp[3] = {45, 39, 36};
/* Denominator: ((x*x + (1 << sq)) >> sq) * x, rounded by the column count;
 * converted with 2^(conv - shift_rows - shift_cols), all unsigned. */
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s123_den_sq_shift[3] = {31, 30, 31};
VMAFX_ADM_CONST vmafx_i32 vmafx_adm_s123_den_exp[3] = {32, 27, 23};

/* ---- CSF models (host side) ------------------------------------------- */
/* Host code only (adm.cpp's CSF factors): no kernel reads them, so OpenCL C
 * does not see them. */
#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_C_VERSION__)
/* The float tables below are written as double literals, converted to float
 * as libvmaf's initialisers do (decimal -> double -> float). */
/* Watson et al. 1997, Y channel: a, k, f0, g[theta] (floats in libvmaf). */
#define VMAFX_ADM_WATSON_A 0.495
#define VMAFX_ADM_WATSON_K 0.466
#define VMAFX_ADM_WATSON_F0 0.401
VMAFX_ADM_CONST float vmafx_adm_watson_g[4] = {1.501, 1.0, 0.534, 1.0};
/* Basis function amplitudes A[lambda][theta] of the 7-9 wavelet. */
VMAFX_ADM_CONST float vmafx_adm_watson_amp[6][4] = {
    {0.62171, 0.67234, 0.72709, 0.67234},
    {0.34537, 0.41317, 0.49428, 0.41317},
    {0.18004, 0.22727, 0.28688, 0.22727},
    {0.091401, 0.11792, 0.15214, 0.11792},
    {0.045943, 0.059758, 0.077727, 0.059758},
    {0.023013, 0.030018, 0.039156, 0.030018}};

/* Barten CSF (HDR-VDP 2.2.1 parameters) at 6 adaptation luminances. */
#define VMAFX_ADM_BARTEN_LUM 100.0
VMAFX_ADM_CONST float vmafx_adm_barten_lum_anchor[6] = {0.002, 0.02, 0.2, 2.0, 20.0, 150.0};
VMAFX_ADM_CONST float vmafx_adm_barten_params[6][5] = {
    {0.0160737, 0.991265, 3.74038, 0.50722, 4.46044},
    {0.383873, 0.800889, 3.54104, 0.682505, 4.94958},
    {0.929301, 0.476505, 4.37453, 0.750315, 5.28678},
    {1.29776, 0.405782, 4.40602, 0.935314, 5.61425},
    {1.49222, 0.334278, 3.79542, 1.07327, 6.4635},
    {1.46213, 0.394533, 2.7755, 1.16577, 7.45665}};
VMAFX_ADM_CONST float vmafx_adm_barten_sa[4] = {30.162, 4.0627, 1.6596, 0.2712};
VMAFX_ADM_CONST float vmafx_adm_barten_mtf_a[4] = {0.424838596301290, 0.572435103936480,
                                                   0.000167576239164937, 0.00255872352306433};
VMAFX_ADM_CONST float vmafx_adm_barten_mtf_b[4] = {0.028, 0.37, 37.0, 360.0};

/* Barten/Watson blend: [theta: 0 = h/v, 1 = d][scale], per viewing condition.
 * Order of conditions: 1080@3H, 1080@5H, 2160@3H, 2160@5H, 720@3H, 720@5H,
 * 480@3H, 480@5H (2160@1.5H uses 1080@3H). */
VMAFX_ADM_CONST float vmafx_adm_blend_csf[8][2][4] = {
    {{0.01183, 0.025026, 0.04295, 0.058621}, {0.004302, 0.011778, 0.023918, 0.035901}},
    {{0.004212, 0.014809, 0.029642, 0.047464}, {0.000984, 0.005852, 0.0146, 0.027574}},
    {{0.00226, 0.01183, 0.025026, 0.04295}, {0.000479, 0.004302, 0.011778, 0.023918}},
    {{0.000092, 0.004212, 0.014809, 0.029642}, {0.000050, 0.000984, 0.005852, 0.0146}},
    {{0.018715, 0.035637, 0.052798, 0.061509}, {0.007999, 0.018396, 0.031851, 0.037718}},
    {{0.010144, 0.022561, 0.040309, 0.05672}, {0.003463, 0.010282, 0.021839, 0.034641}},
    {{0.027961, 0.045875, 0.060275, 0.056234}, {0.013572, 0.026277, 0.036959, 0.034511}},
    {{0.016781, 0.032822, 0.05032, 0.061594}, {0.00691, 0.016545, 0.029917, 0.037777}}};
/* The same for csf mode 3 (the "MAE" fit). */
VMAFX_ADM_CONST float vmafx_adm_blend_csf_mae[8][2][4] = {
    {{0.011249, 0.022606, 0.035930, 0.045673}, {0.004097, 0.010921, 0.021430, 0.031313}},
    {{0.004052, 0.013939, 0.026298, 0.038833}, {0.000927, 0.005544, 0.013415, 0.024515}},
    {{0.002166, 0.011249, 0.022606, 0.035930}, {0.000447, 0.004097, 0.010921, 0.021430}},
    {{0.000077, 0.004052, 0.013939, 0.026298}, {0.000045, 0.000927, 0.005544, 0.013415}},
    {{0.017329, 0.030870, 0.042134, 0.047410}, {0.007509, 0.016707, 0.028072, 0.032722}},
    {{0.009689, 0.020577, 0.034162, 0.044523}, {0.003302, 0.009579, 0.019661, 0.030318}},
    {{0.024969, 0.037825, 0.046676, 0.043974}, {0.012511, 0.023424, 0.032139, 0.030166}},
    {{0.015665, 0.028766, 0.040612, 0.047483}, {0.006514, 0.015107, 0.026476, 0.032776}}};
#endif /* !__OPENCL_VERSION__ */

#endif /* VMAFX_EXACT_ADM_TABLES_H */
