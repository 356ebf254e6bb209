/* Constants of the integer VIF (libvmaf integer_vif.c / integer_vif.h),
 * defined once for host, CUDA and OpenCL code. */
#ifndef VMAFX_EXACT_VIF_TABLES_H
#define VMAFX_EXACT_VIF_TABLES_H

#include "compat.h"

/* Noise variance: the log branch needs sigma1_sq >= 2 * 65536. */
#define VMAFX_VIF_SIGMA_NSQ 131072

/* IEEE bits of the gain's stabiliser 65536 * 1.0e-10 as the reference's
 * compiler folds it. */
#define VMAFX_VIF_EPS_BITS VMAFX_U64C(0x3EDB7CDFD9D7BDBB)

/* IEEE bits of the default (and largest) vif_enhn_gain_limit, 100.0. */
#define VMAFX_VIF_GAIN_LIMIT_DEFAULT_BITS VMAFX_U64C(0x4059000000000000)

/* 16-bit filter taps per scale (sum 65536) and their counts. */
#define VMAFX_VIF_FILTER0_INIT {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, \
                                7455, 6547, 5274, 3896, 2640, 1640, 935, 489}
#define VMAFX_VIF_FILTER1_INIT {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244}
#define VMAFX_VIF_FILTER2_INIT {3571, 16004, 26386, 16004, 3571}
#define VMAFX_VIF_FILTER3_INIT {10904, 43728, 10904}
#define VMAFX_VIF_FILTER_WIDTH_INIT {17, 9, 5, 3}

VMAFX_FN int vmafx_vif_filter_width(int scale)
{
    const int w[4] = VMAFX_VIF_FILTER_WIDTH_INIT;
    return w[scale];
}

VMAFX_FN int vmafx_vif_filter_tap(int scale, int i)
{
    const int f0[17] = VMAFX_VIF_FILTER0_INIT;
    const int f1[9] = VMAFX_VIF_FILTER1_INIT;
    const int f2[5] = VMAFX_VIF_FILTER2_INIT;
    const int f3[3] = VMAFX_VIF_FILTER3_INIT;
    if (scale == 0) return f0[i];
    if (scale == 1) return f1[i];
    if (scale == 2) return f2[i];
    return f3[i];
}

#endif
