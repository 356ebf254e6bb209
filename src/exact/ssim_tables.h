/* SPDX-License-Identifier: BSD-3-Clause */
/* Constants of the SSIM family as libvmaf 3.2.0 uses them: float_ssim,
 * float_ms_ssim and the integer ssim. Defined once for host C++, CUDA and
 * OpenCL C: every table also exists as an initializer macro (VMAFX_..._INIT)
 * from which a device program builds its own constant array. The float values
 * are single-precision literals exactly as libvmaf spells them; they decide
 * bit equality and must not be "improved". */
#ifndef VMAFX_EXACT_SSIM_TABLES_H
#define VMAFX_EXACT_SSIM_TABLES_H

#include "compat.h"

/* Storage class of the arrays below: __constant in OpenCL C, "static const"
 * elsewhere, unless the includer defines it. */
#ifndef VMAFX_SSIM_TABLE
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_SSIM_TABLE __constant
#else
#define VMAFX_SSIM_TABLE static const
#endif
#endif

/* ---- float SSIM (float_ssim and every scale of float_ms_ssim) ---------- */

/* The 11-tap Gaussian (sigma 1.5), applied horizontally and then vertically.
 * Each pass sums float(sample * tap) in fp64, in tap order, and rounds the
 * sum to float. Only the centre-fits positions are produced: an image of
 * w x h gives (w - 10) x (h - 10) means. */
#define VMAFX_SSIM_GAUSS_TAPS 11
#define VMAFX_SSIM_GAUSS_RADIUS 5
#define VMAFX_SSIM_GAUSS_INIT                                                                   \
  {0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f, 0.213006f, 0.109361f,     \
   0.036001f, 0.007599f, 0.001028f}
VMAFX_SSIM_TABLE float vmafx_ssim_gauss[VMAFX_SSIM_GAUSS_TAPS] = VMAFX_SSIM_GAUSS_INIT;

/* Stabilising constants, computed in float: C1 = (K1*L)^2, C2 = (K2*L)^2,
 * C3 = C2 / 2 with L = 255 (the float path always works on the 8-bit scale). */
#define VMAFX_SSIM_K1 0.01f
#define VMAFX_SSIM_K2 0.03f
#define VMAFX_SSIM_L 255

/* Smallest side the 11x11 window accepts. */
#define VMAFX_SSIM_MIN_SIDE 11

/* ---- float_ms_ssim ------------------------------------------------------ */

#define VMAFX_MS_SSIM_SCALES 5

/* The 9x9 low-pass (9/7 biorthogonal) filter used to halve each scale. It is
 * applied as a 2-D kernel (row by row, tap by tap), with mirrored borders,
 * at every second pixel: w x h becomes (w/2 + (w&1)) x (h/2 + (h&1)).
 * It is not exactly the outer product of a 1-D filter, so the 2-D table is
 * what counts. */
#define VMAFX_MS_SSIM_LPF_TAPS 9
#define VMAFX_MS_SSIM_LPF_RADIUS 4
#define VMAFX_MS_SSIM_LPF_INIT                                                                  \
  {                                                                                             \
    0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, \
        0.000714f,                                                                              \
    -0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, \
        -0.000450f,                                                                             \
    -0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, \
        -0.002090f,                                                                             \
    0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, \
        0.007132f,                                                                              \
    0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f, 0.160885f, -0.047149f, -0.010146f, \
        0.016114f,                                                                              \
    0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, \
        0.007132f,                                                                              \
    -0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, \
        -0.002090f,                                                                             \
    -0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, \
        -0.000450f,                                                                             \
    0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, \
        0.000714f,                                                                              \
  }
VMAFX_SSIM_TABLE float vmafx_ms_ssim_lpf[VMAFX_MS_SSIM_LPF_TAPS * VMAFX_MS_SSIM_LPF_TAPS] =
    VMAFX_MS_SSIM_LPF_INIT;

/* Per-scale exponents of the luminance, contrast and structure means. */
#define VMAFX_MS_SSIM_ALPHA_INIT {0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f}
#define VMAFX_MS_SSIM_BETA_INIT {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f}
#define VMAFX_MS_SSIM_GAMMA_INIT {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f}
VMAFX_SSIM_TABLE float vmafx_ms_ssim_alpha[VMAFX_MS_SSIM_SCALES] = VMAFX_MS_SSIM_ALPHA_INIT;
VMAFX_SSIM_TABLE float vmafx_ms_ssim_beta[VMAFX_MS_SSIM_SCALES] = VMAFX_MS_SSIM_BETA_INIT;
VMAFX_SSIM_TABLE float vmafx_ms_ssim_gamma[VMAFX_MS_SSIM_SCALES] = VMAFX_MS_SSIM_GAMMA_INIT;

/* ---- integer ssim ------------------------------------------------------- */

/* 9-tap integer Gaussian (sigma 1.5, weight 256 = 2^8): round(256 * g(i)) for
 * |i| = 1..4 and the centre taking the rest, the same in both passes, so an
 * interior window weighs 2^16. The reference derives them at run time;
 * tests/unit/exact checks this table against that derivation. At the frame
 * edge the window is truncated (taps that fall outside are dropped, not
 * mirrored) and the pixel's weight shrinks accordingly. */
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

/* The taps as an array (a __constant one in OpenCL C). */
VMAFX_SSIM_TABLE int vmafx_issim_taps[VMAFX_SSIM_TAP_COUNT] = VMAFX_SSIM_TAPS_INIT;

/* Host code only (it has fp64): the stabilisers as expressions,
 * c1 = max^2 * K1 * w^2, c2 = max^2 * K2 * w^2 with
 * max = 2^bpc - 1 and w the window weight of the pixel; VMAFX_SSIM_K1_BITS /
 * K2_BITS above are their bits for device code (a test checks they agree). */
#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_C_VERSION__)
#define VMAFX_ISSIM_SIGMA 1.5
#define VMAFX_ISSIM_WEIGHT_SHIFT 8
#define VMAFX_ISSIM_K1 (0.01 * 0.01)
#define VMAFX_ISSIM_K2 (0.03 * 0.03)
#endif

#endif
