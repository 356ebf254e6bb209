/* SPDX-License-Identifier: BSD-3-Clause */
/* Constants of libvmaf 3.2.0's float VIF ("float_vif"), plain C so that host,
 * CUDA and OpenCL code can share one definition.
 *
 * Float tables are written with libvmaf's double literals and converted to
 * float by the compiler, as libvmaf's own tables are. An OpenCL program (no
 * fp64, so no double literal) sees the macros only; the host passes it the
 * values it needs. */
#ifndef VMAFX_EXACT_FLOAT_VIF_TABLES_H
#define VMAFX_EXACT_FLOAT_VIF_TABLES_H

/* libvmaf replaces log2f in the VIF statistic by a polynomial: with
 * x = m * 2^e (1 <= m < 2), log2(x) ~ e + P(m - 1), P evaluated by Horner's
 * rule in float from the highest coefficient down (the last one is 0). */
#define VMAFX_FVIF_LOG2_TERMS 9
#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_C_VERSION__)
static const float vmafx_fvif_log2_poly[VMAFX_FVIF_LOG2_TERMS] = {
    -0.012671635276421, 0.064841182402670,  -0.157048836463065,
    0.257167726303123,  -0.353800560300520, 0.480131410397451,
    -0.721314327952201, 1.442694803896991,  0};

/* The kernel scales libvmaf accepts (vif_kernelscale within 1e-3 of one of
 * these, compared in float). */
#define VMAFX_FVIF_KERNELSCALES 21
static const float vmafx_fvif_kernelscales[VMAFX_FVIF_KERNELSCALES] = {
    1.0,        1.0f / 2.0f,  3.0f / 2.0f,  2.0f,     2.0f / 3.0f, 24.0f / 10.0f, 360.0f / 97.0f,
    4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f, 3.0f, 1.0f / 2.25f,
    1.4746f,    1.54f,        1.6f,         1.06667f, 0.711111f,   0.740740f,     1.111111f};

/* Gaussian kernels at vif_kernelscale 1.0 (the default), scale 0..3: 17, 9,
 * 5 and 3 taps, sigma = taps / 5, as float bits. The extractor computes its
 * kernels at run time for any kernel scale (libvmaf's float / double / exp
 * steps); these are the results at the default, checked by the unit tests
 * and ready for code that only needs the default. */
static const unsigned vmafx_fvif_kernel_taps[4] = {17, 9, 5, 3};
static const unsigned vmafx_fvif_kernel_bits_s0[17] = {
    0x3bf453b8u, 0x3c69b9d9u, 0x3ccd0e7bu, 0x3d24fecfu, 0x3d738495u, 0x3da4d021u,
    0x3dcc9a86u, 0x3de8f3b3u, 0x3df33fb2u, 0x3de8f3b3u, 0x3dcc9a86u, 0x3da4d021u,
    0x3d738495u, 0x3d24fecfu, 0x3ccd0e7bu, 0x3c69b9d9u, 0x3bf453b8u};
static const unsigned vmafx_fvif_kernel_bits_s1[9] = {0x3c9b77ecu, 0x3d64f57bu, 0x3df7a562u,
                                                      0x3e44ba13u, 0x3e658dc1u, 0x3e44ba13u,
                                                      0x3df7a562u, 0x3d64f57bu, 0x3c9b77ecu};
static const unsigned vmafx_fvif_kernel_bits_s2[5] = {0x3d5f2f86u, 0x3e7a0feau, 0x3ece2433u,
                                                      0x3e7a0feau, 0x3d5f2f86u};
static const unsigned vmafx_fvif_kernel_bits_s3[3] = {0x3e2a5f21u, 0x3f2ad06fu, 0x3e2a5f21u};
#endif

/* Bicubic interpolation (prescale method "bicubic"): a = -0.75. */
#define VMAFX_FVIF_BICUBIC_A (-0.75f)
/* Lanczos interpolation (prescale method "lanczos4"): a = 4 taps per side. */
#define VMAFX_FVIF_LANCZOS_A 4
/* Bilinear prescale: widest output libvmaf accepts. */
#define VMAFX_FVIF_BILINEAR_MAX_WIDTH 7680

#endif
