/* SPDX-License-Identifier: BSD-3-Clause */
/* Integer motion: the 5-tap low-pass filter applied vertically and then
 * horizontally to the luma frame difference (taps sum to 65536, i.e. Q16).
 * Plain C so that CPU, CUDA and OpenCL code can share one definition.
 *
 * Array storage class: `__constant` in OpenCL C (which wants program-scope
 * data there), "static const" elsewhere, unless the includer defines
 * VMAFX_MOTION_CONST. */
#ifndef VMAFX_EXACT_MOTION_TABLES_H
#define VMAFX_EXACT_MOTION_TABLES_H

#ifndef VMAFX_MOTION_CONST
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_MOTION_CONST __constant
#else
#define VMAFX_MOTION_CONST static const
#endif
#endif

#define VMAFX_MOTION_TAPS 5
#define VMAFX_MOTION_RADIUS 2

/* Vertical pass: (sum + (1 << (bpc - 1))) >> bpc.
 * Horizontal pass: (sum + VMAFX_MOTION_X_ROUND) >> VMAFX_MOTION_X_SHIFT. */
#define VMAFX_MOTION_X_SHIFT 16
#define VMAFX_MOTION_X_ROUND (1 << 15)

/* The SAD is divided by this before the per-pixel mean. */
#define VMAFX_MOTION_SAD_SCALE 256.0

/* The filter is symmetric: taps TAP0, TAP1, TAP2, TAP1, TAP0. */
#define VMAFX_MOTION_TAP0 3571
#define VMAFX_MOTION_TAP1 16004
#define VMAFX_MOTION_TAP2 26386

VMAFX_MOTION_CONST unsigned short vmafx_motion_taps[VMAFX_MOTION_TAPS] = {VMAFX_MOTION_TAP0, VMAFX_MOTION_TAP1,
                                                                           VMAFX_MOTION_TAP2, VMAFX_MOTION_TAP1,
                                                                           VMAFX_MOTION_TAP0};

#endif /* VMAFX_EXACT_MOTION_TABLES_H */
