/* SPDX-License-Identifier: BSD-3-Clause */
/* The integer VIF's one step in fp64 (libvmaf integer_vif.c, the log branch:
 * sigma1_sq >= 2^17, sigma12 > 0, sigma2_sq > 0), for host C++ and CUDA, in
 * the compiler's own fp64 with contraction off:
 *
 *   g     = sigma12 / (sigma1_sq + 65536 * 1.0e-10)
 *   sv_sq = max((int32_t)(sigma2_sq - g * sigma12), 0)
 *   g     = min(g, vif_enhn_gain_limit)
 *   noise = sv_sq + 2^17                         (uint32: the int32 sum wraps)
 *   total = noise + (int64_t)(g * g * sigma1_sq)
 *
 * OpenCL C and the CUDA kernels for GPUs with slow fp64 take the same two
 * integers from vif_gain.h without an fp64 type. */
#ifndef VMAFX_EXACT_VIF_FP64_H
#define VMAFX_EXACT_VIF_FP64_H

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#error "vif_fp64.h is for host C++ and CUDA only"
#endif

#include "vif_tables.h"

typedef struct vmafx_vif_terms_fp64 {
    vmafx_u32 noise;
    vmafx_i64 total;
} vmafx_vif_terms_fp64;

/* libvmaf's double -> int32_t assignment as x86's cvttsd2si performs it:
 * truncation toward zero, INT32_MIN for anything out of range (spelled out:
 * the C conversion is undefined out of range). */
VMAFX_FN vmafx_i32 vmafx_vif_trunc_i32(double x)
{
    if (x > -2147483649.0 && x < 2147483648.0) return (vmafx_i32)x;
    return (vmafx_i32)(-2147483647 - 1);
}

VMAFX_FN vmafx_vif_terms_fp64 vmafx_vif_gain_fp64(vmafx_i32 sigma1_sq, vmafx_i32 sigma2_sq, vmafx_i32 sigma12,
                                                  double gain_limit)
{
    const double eps = 65536 * 1.0e-10;
    double g = (double)sigma12 / ((double)sigma1_sq + eps);
    vmafx_i32 sv_sq = vmafx_vif_trunc_i32((double)sigma2_sq - g * (double)sigma12);
    vmafx_vif_terms_fp64 t;
    if (sv_sq < 0) sv_sq = 0;
    g = g < gain_limit ? g : gain_limit;
    t.noise = (vmafx_u32)sv_sq + (vmafx_u32)VMAFX_VIF_SIGMA_NSQ;
    t.total = (vmafx_i64)(g * g * (double)sigma1_sq) + (vmafx_i64)t.noise;
    return t;
}

#endif
