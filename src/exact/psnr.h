/* SPDX-License-Identifier: BSD-3-Clause */
/* The integer PSNR's sum of squared errors (libvmaf integer_psnr.c) once for
 * host C++, CUDA and OpenCL C. Integers only: a sample pair's squared error
 * is below 2^32 at every depth; an 8-bit row's sum wraps in 32 bits as the
 * reference's does (modular addition is order-free, so any order of the
 * row's samples gives it), a deeper row's is exact in 64 bits; the plane's
 * sum adds the rows in 64 bits. */
#ifndef VMAFX_EXACT_PSNR_H
#define VMAFX_EXACT_PSNR_H

#include "compat.h"

/* (a - b)^2 of two samples of up to 16 bits. */
VMAFX_FN vmafx_u32 vmafx_psnr_sq_err(vmafx_i32 a, vmafx_i32 b)
{
    const vmafx_i32 e = a - b;
    const vmafx_u32 m = (vmafx_u32)(e < 0 ? -e : e);
    return m * m;
}

/* What a row adds to the plane's sum, from the 64-bit sum of its squared
 * errors: 8-bit rows (wide == 0) wrap in 32 bits. */
VMAFX_FN vmafx_u64 vmafx_psnr_row_total(vmafx_u64 row_sum, int wide)
{
    return wide ? row_sum : (vmafx_u64)(vmafx_u32)row_sum;
}

#endif
