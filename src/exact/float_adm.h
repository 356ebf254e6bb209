/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-sample arithmetic of the float ADM (libvmaf 3.2.0's float_adm:
 * adm_tools.c's db2 taps, adm_decouple_s with its DIVS, adm_csf_s, the
 * contrast-masking threshold of adm_cm_s and the p-norm terms), written once
 * for the host's scalar rows (feature/float_adm.cpp), the CUDA kernels
 * (feature/cuda/float_adm.cu) and the OpenCL kernels
 * (feature/opencl/float_adm.cl, which includes float_ops.cl first). Every
 * float operation is the reference's, in its order, through float_terms.h's
 * VMAFX_F* operations; its double constants and the gain limit's double
 * products through VMAFX_D* (soft fp64 on OpenCL). The division is the
 * chosen libvmaf's (exact/fadm_rcp.h). */
#ifndef VMAFX_EXACT_FLOAT_ADM_H
#define VMAFX_EXACT_FLOAT_ADM_H

#include "fadm_rcp.h"
#include "float_terms.h"

/* The constants of the decoupling and the masking, set once per frame.
 * gain_limit: adm_enhn_gain_limit; one_by_30, one_by_15: the masking
 * weights (VMAFX_FADM_ONE_BY_30 / _15; a device gets them from the host);
 * eps: float(1e-30); cos1: float(cos(1 degree)^2) as the reference forms it;
 * cpu: the division's variant (VMAFX_LIBVMAF_CPU_*); opq: 0 (float_terms.h). */
typedef struct vmafx_fadm_consts {
    vmafx_f64 gain_limit;
    vmafx_f64 one_by_30;
    vmafx_f64 one_by_15;
    float eps;
    float cos1;
    vmafx_i32 cpu;
    vmafx_u32 opq;
} vmafx_fadm_consts;

/* Source index of tap k (0..3) for output n of a db2 analysis step over a
 * line of m samples: 2n - 1 + k, symmetric with the edge repeated. */
VMAFX_FN int vmafx_fadm_dwt_index(int n, int k, int m)
{
    const int i = 2 * n - 1 + k;
    if (i < 0) return -i;
    if (i >= m) return 2 * m - i - 1;
    return i;
}

/* One db2 output: the four taps f0..f3 on s0..s3, summed in float from 0. */
VMAFX_FN float vmafx_fadm_fir4(float f0, float f1, float f2, float f3, float s0, float s1, float s2, float s3,
                               vmafx_u32 opq)
{
    float acc = 0.0f;
    acc = vmafx_ftap(acc, f0, s0, opq);
    acc = vmafx_ftap(acc, f1, s1, opq);
    acc = vmafx_ftap(acc, f2, s2, opq);
    return vmafx_ftap(acc, f3, s3, opq);
}

/* libvmaf's DIVS(n, d) of the chosen variant: n times the RCPSS estimate
 * refined by one Newton step (intel, amd), or the correctly rounded quotient
 * (generic). */
VMAFX_FN float vmafx_fadm_divide(float n, float d, const vmafx_fadm_consts* k)
{
    float xi;
    if (k->cpu == VMAFX_LIBVMAF_CPU_GENERIC) return VMAFX_FDIV(n, d);
    xi = VMAFX_FFROM(vmafx_fadm_rcp_estimate_bits(VMAFX_FBITS(d), k->cpu));
    return VMAFX_FMUL(n, VMAFX_FADD(xi, VMAFX_FMUL(xi, VMAFX_FSUB(1.0f, VMAFX_FMUL(d, xi, k->opq)), k->opq)), k->opq);
}

/* k clipped to [0, 1] (a NaN stays). */
VMAFX_FN float vmafx_fadm_clip01(float k) { return VMAFX_FLT0(k) ? 0.0f : (VMAFX_FLT(1.0f, k) ? 1.0f : k); }

/* The gain limit of one band where the angles agree: rst * gain_limit in
 * double, kept if it is on rst's side of t, else t. */
VMAFX_FN float vmafx_fadm_limit(float rst, float t, int angle, vmafx_f64 gain_limit)
{
    if (angle && VMAFX_FGT0(rst)) {
        const vmafx_f64 x = VMAFX_DMUL(VMAFX_D(rst), gain_limit);
        rst = VMAFX_DLT(x, VMAFX_D(t)) ? VMAFX_DF(x) : t;
    }
    if (angle && VMAFX_FLT0(rst)) {
        const vmafx_f64 x = VMAFX_DMUL(VMAFX_D(rst), gain_limit);
        rst = VMAFX_DLT(VMAFX_D(t), x) ? VMAFX_DF(x) : t;
    }
    return rst;
}

/* The decoupling at one position: o and t the reference and distorted h, v,
 * d samples; rst the part of t explained by o (o scaled by the clipped ratio
 * t / o, or t itself within the gain limit where the angles of (h, v) agree
 * to within 1 degree), add = t - rst. */
VMAFX_FN void vmafx_fadm_decouple(const float* o, const float* t, const vmafx_fadm_consts* k, float* rst, float* add)
{
    const vmafx_u32 opq = k->opq;
    const float ot_dp = VMAFX_FADD(VMAFX_FMUL(o[0], t[0], opq), VMAFX_FMUL(o[1], t[1], opq));
    const float o_mag_sq = VMAFX_FADD(VMAFX_FMUL(o[0], o[0], opq), VMAFX_FMUL(o[1], o[1], opq));
    const float t_mag_sq = VMAFX_FADD(VMAFX_FMUL(t[0], t[0], opq), VMAFX_FMUL(t[1], t[1], opq));
    const int angle = VMAFX_FGE0(ot_dp) && VMAFX_FLE(VMAFX_FMUL(VMAFX_FMUL(k->cos1, o_mag_sq, opq), t_mag_sq, opq),
                                                     VMAFX_FMUL(ot_dp, ot_dp, opq));
    int b;
    for (b = 0; b < 3; ++b) {
        const float r = vmafx_fadm_clip01(vmafx_fadm_divide(t[b], VMAFX_FADD(o[b], k->eps), k));
        rst[b] = vmafx_fadm_limit(VMAFX_FMUL(r, o[b], opq), t[b], angle, k->gain_limit);
        add[b] = VMAFX_FSUB(t[b], rst[b]);
    }
}

/* The CSF weighting of one sample: returns rf * s and sets *flt to the
 * masking filter's input float(1/30 * |rf * s|), the weight a double. */
VMAFX_FN float vmafx_fadm_csf(float rf, float s, const vmafx_fadm_consts* k, float* flt)
{
    const float v = VMAFX_FMUL(rf, s, k->opq);
    *flt = VMAFX_DF(VMAFX_DMUL(k->one_by_30, VMAFX_D(vmafx_fabs(v))));
    return v;
}

/* One orientation's part of the masking threshold: the 3x3 window of the
 * masking filter's input (u: the row above, m: this row, d: the row below;
 * 0, 1, 2: left, centre, right), the centre replaced by float(s + 1/15 *
 * |ang|) in double, summed in float in the reference's order. */
VMAFX_FN float vmafx_fadm_thr(float u0, float u1, float u2, float m0, float m2, float d0, float d1, float d2,
                              float ang, const vmafx_fadm_consts* k)
{
    float s = 0.0f;
    s = VMAFX_FADD(s, u0);
    s = VMAFX_FADD(s, u1);
    s = VMAFX_FADD(s, u2);
    s = VMAFX_FADD(s, m0);
    s = VMAFX_DF(VMAFX_DADD(VMAFX_D(s), VMAFX_DMUL(k->one_by_15, VMAFX_D(vmafx_fabs(ang)))));
    s = VMAFX_FADD(s, m2);
    s = VMAFX_FADD(s, d0);
    s = VMAFX_FADD(s, d1);
    return VMAFX_FADD(s, d2);
}

/* The masked value of one sample: max(|s * rf| - thr, 0). */
VMAFX_FN float vmafx_fadm_masked(float s, float rf, float thr, vmafx_u32 opq)
{
    const float x = VMAFX_FSUB(vmafx_fabs(VMAFX_FMUL(s, rf, opq)), thr);
    return VMAFX_FLT0(x) ? 0.0f : x;
}

/* x * x * x: the p-norm term for p = 3. */
VMAFX_FN float vmafx_fadm_cube(float x, vmafx_u32 opq) { return VMAFX_FMUL(VMAFX_FMUL(x, x, opq), x, opq); }

#endif
