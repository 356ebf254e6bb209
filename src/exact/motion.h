/* SPDX-License-Identifier: BSD-3-Clause */
/* The integer motion SAD (libvmaf integer_motion.c) once for host C++, CUDA
 * and OpenCL C. Integers only: the luma difference of two frames is filtered
 * with the 5-tap filter of motion_tables.h vertically (rounded and shifted by
 * the bit depth) and then horizontally (rounded, shifted by 16), both with
 * whole-sample symmetric borders; the absolute values of a row add up in 32
 * bits, wrapping as the reference's do (so in any order), and the rows in 64
 * bits. */
#ifndef VMAFX_EXACT_MOTION_H
#define VMAFX_EXACT_MOTION_H

#include "compat.h"
#include "motion_tables.h"

/* Whole-sample symmetric extension without repeating the edge sample
 * (-1 -> 1, n -> n - 2); valid for offsets up to the radius when n >= 3. */
VMAFX_FN int vmafx_motion_reflect(int i, int n)
{
    if (i < 0) return -i;
    if (i >= n) return 2 * n - i - 2;
    return i;
}

/* The filter's sum over five consecutive values (exact: at most
 * 65536 * 2^31 in magnitude). */
VMAFX_FN vmafx_i64 vmafx_motion_filter5(vmafx_i64 v0, vmafx_i64 v1, vmafx_i64 v2, vmafx_i64 v3, vmafx_i64 v4)
{
    return VMAFX_MOTION_TAP0 * v0 + VMAFX_MOTION_TAP1 * v1 + VMAFX_MOTION_TAP2 * v2 + VMAFX_MOTION_TAP1 * v3 +
           VMAFX_MOTION_TAP0 * v4;
}

/* The vertical pass's value from its sum, at `shift` = bit depth. */
VMAFX_FN vmafx_i32 vmafx_motion_y_value(vmafx_i64 sum, int shift)
{
    return (vmafx_i32)((sum + ((vmafx_i64)1 << (shift - 1))) >> shift);
}

/* |horizontal value| from the horizontal pass's sum, as a row sum adds it. */
VMAFX_FN vmafx_u32 vmafx_motion_x_abs(vmafx_i64 sum)
{
    const vmafx_i32 v = (vmafx_i32)((sum + VMAFX_MOTION_X_ROUND) >> VMAFX_MOTION_X_SHIFT);
    return (vmafx_u32)(v < 0 ? -v : v);
}

#endif
