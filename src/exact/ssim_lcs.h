/* SPDX-License-Identifier: BSD-3-Clause */
/* The float SSIM family's per-position terms (libvmaf iqa/ssim.c): written
 * once over operation macros that the includer defines, so that host C++,
 * CUDA and OpenCL C evaluate the same operations in the same order.
 *
 *   fp32 (the reference's float):  VMAFX_FS_ADD, _SUB, _MUL, _DIV, _SQRT (the
 *     square root of the value widened to fp64, rounded to fp32), _LT0 (x < 0),
 *     _LE0 (x <= 0);
 *   fp64 (the reference's double): the type VMAFX_FD, VMAFX_FD_OF (an fp32
 *     value widened), _TWICE (2.0 * x), _ADD, _MUL, _DIV.
 *
 * ssim_fp64.h defines them as the compiler's own operators (host and CUDA,
 * no contraction); feature/opencl/float_ssim.cl as ocl_f32.cl's correctly
 * rounded fp32 operations and soft fp64 (exact/softfp64.h). */
#ifndef VMAFX_EXACT_SSIM_LCS_H
#define VMAFX_EXACT_SSIM_LCS_H

#include "ssim.h"

/* One position's luminance, contrast and structure terms and their product. */
typedef struct vmafx_fssim_terms {
    VMAFX_FD lcs, l, c, s;
} vmafx_fssim_terms;

/* The terms from the Gaussian window's five float moments: means mu_r, mu_c,
 * and the means of ref^2, cmp^2 and ref*cmp. */
VMAFX_FN vmafx_fssim_terms vmafx_fssim_lcs(float mu_r, float mu_c, float rr, float cc, float rc, vmafx_fssim_consts k)
{
    vmafx_fssim_terms t;
    float var_r = VMAFX_FS_SUB(rr, VMAFX_FS_MUL(mu_r, mu_r));
    float var_c = VMAFX_FS_SUB(cc, VMAFX_FS_MUL(mu_c, mu_c));
    float cov, sd_rc, cov_c;
    if (VMAFX_FS_LT0(var_r)) var_r = 0.0f;
    if (VMAFX_FS_LT0(var_c)) var_c = 0.0f;
    cov = VMAFX_FS_SUB(rc, VMAFX_FS_MUL(mu_r, mu_c));
    sd_rc = VMAFX_FS_SQRT(VMAFX_FS_MUL(var_r, var_c));
    /* l = (2.0 * mu_r * mu_c + C1) / (mu_r * mu_r + mu_c * mu_c + C1), the denominator in float */
    t.l = VMAFX_FD_DIV(
        VMAFX_FD_ADD(VMAFX_FD_MUL(VMAFX_FD_TWICE(VMAFX_FD_OF(mu_r)), VMAFX_FD_OF(mu_c)), VMAFX_FD_OF(k.c1)),
        VMAFX_FD_OF(VMAFX_FS_ADD(VMAFX_FS_ADD(VMAFX_FS_MUL(mu_r, mu_r), VMAFX_FS_MUL(mu_c, mu_c)), k.c1)));
    /* c = (2.0 * sd_rc + C2) / (var_r + var_c + C2) */
    t.c = VMAFX_FD_DIV(VMAFX_FD_ADD(VMAFX_FD_TWICE(VMAFX_FD_OF(sd_rc)), VMAFX_FD_OF(k.c2)),
                       VMAFX_FD_OF(VMAFX_FS_ADD(VMAFX_FS_ADD(var_r, var_c), k.c2)));
    /* s = (cov + C3) / (sd_rc + C3) in float; identical flat windows keep s = 1
     * (a tiny negative covariance would pull it below) */
    cov_c = (VMAFX_FS_LT0(cov) && VMAFX_FS_LE0(sd_rc)) ? 0.0f : cov;
    t.s = VMAFX_FD_OF(VMAFX_FS_DIV(VMAFX_FS_ADD(cov_c, k.c3), VMAFX_FS_ADD(sd_rc, k.c3)));
    t.lcs = VMAFX_FD_MUL(VMAFX_FD_MUL(t.l, t.c), t.s);
    return t;
}

#endif
