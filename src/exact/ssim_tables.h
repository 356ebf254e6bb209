/* Constants of the integer SSIM (libvmaf integer_ssim.c), defined once for
 * host, CUDA and OpenCL code. */
#ifndef VMAFX_EXACT_SSIM_TABLES_H
#define VMAFX_EXACT_SSIM_TABLES_H

#include "compat.h"

/* Gaussian taps (sigma 1.5, scaled to a sum of 256) of both passes. The
 * reference derives them at run time; tests/unit/exact checks this table
 * against that derivation. */
#define VMAFX_SSIM_TAP_COUNT 9
#define VMAFX_SSIM_TAP_RADIUS 4
#define VMAFX_SSIM_TAPS_INIT {2, 9, 28, 55, 68, 55, 28, 9, 2}
#define VMAFX_SSIM_TAP_SUM 256

/* Weight of a window the frame's edge does not cut: 256 * 256. */
#define VMAFX_SSIM_FULL_WEIGHT 65536
#define VMAFX_SSIM_FULL_WEIGHT_LOG2 16

/* IEEE bits of the stabiliser constants as the reference's compiler folds
 * them: 0.01 * 0.01 and 0.03 * 0.03. */
#define VMAFX_SSIM_K1_BITS VMAFX_U64C(0x3F1A36E2EB1C432D)
#define VMAFX_SSIM_K2_BITS VMAFX_U64C(0x3F4D7DBF487FCB92)

VMAFX_FN int vmafx_ssim_tap(int i)
{
    const int taps[VMAFX_SSIM_TAP_COUNT] = VMAFX_SSIM_TAPS_INIT;
    return taps[i];
}

#endif
