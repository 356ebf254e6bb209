/* SPDX-License-Identifier: BSD-3-Clause */
/* Integer motion: the 5-tap low-pass filter applied vertically and then
 * horizontally to the luma frame difference (taps sum to 65536, i.e. Q16).
 * Plain C so that CPU, CUDA and OpenCL code can share one definition.
 *
 * Array storage class: define VMAFX_MOTION_CONST before including this header
 * to put the taps in another address space (`__constant` in OpenCL C, which
 * wants program-scope data there). */
#ifndef VMAFX_FEATURE_MOTION_TABLES_H
#define VMAFX_FEATURE_MOTION_TABLES_H

#ifndef VMAFX_MOTION_CONST
#define VMAFX_MOTION_CONST static const
#endif

#define VMAFX_MOTION_TAPS 5
#define VMAFX_MOTION_RADIUS 2

/* Vertical pass: (sum + (1 << (bpc - 1))) >> bpc.
 * Horizontal pass: (sum + VMAFX_MOTION_X_ROUND) >> VMAFX_MOTION_X_SHIFT. */
#define VMAFX_MOTION_X_SHIFT 16
#define VMAFX_MOTION_X_ROUND (1 << 15)

/* The SAD is divided by this before the per-pixel mean. */
#define VMAFX_MOTION_SAD_SCALE 256.0

VMAFX_MOTION_CONST unsigned short vmafx_motion_taps[VMAFX_MOTION_TAPS] = {3571, 16004, 26386, 16004, 3571};

#endif /* VMAFX_FEATURE_MOTION_TABLES_H */
