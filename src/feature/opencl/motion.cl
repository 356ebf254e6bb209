// SPDX-License-Identifier: BSD-3-Clause
// Integer motion ("motion") on an OpenCL device: integer arithmetic only. The
// kernel leaves one integer per row (the reference sums a row in 32 bits,
// wrapping); the host adds the rows.
#pragma OPENCL FP_CONTRACT OFF

#include "exact/motion.h"
#include "plane_sample.cl"

// Row reductions use a power-of-two work-group of at most ROW_WG items.
#define ROW_WG 256

// Vertical 5-tap pass over prev - cur, rounded and shifted by bpc.
__kernel void motion_vertical(__global const uchar* prev, __global const uchar* cur, int w, int h, int wide,
                              int shift, __global int* out)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    int r[VMAFX_MOTION_TAPS];
    for (int k = 0; k < VMAFX_MOTION_TAPS; ++k) r[k] = vmafx_motion_reflect(y - VMAFX_MOTION_RADIUS + k, h);
#define MO_DIFF(k) (plane_sample(prev, (size_t)r[k] * w + x, wide) - plane_sample(cur, (size_t)r[k] * w + x, wide))
    out[(size_t)y * w + x] = vmafx_motion_y_value(vmafx_motion_filter5(MO_DIFF(0), MO_DIFF(1), MO_DIFF(2), MO_DIFF(3),
                                                                       MO_DIFF(4)), shift);
#undef MO_DIFF
}

// Horizontal pass, absolute value, and the row's 32-bit (wrapping) sum; one
// work-group per row.
__kernel void motion_rows(__global const int* v, int w, __global uint* row_sum)
{
    __local uint part[ROW_WG];
    const int y = get_group_id(0), lid = get_local_id(0);
    __global const int* row = v + (size_t)y * w;
    uint s = 0;
    for (int x = lid; x < w; x += (int)get_local_size(0)) {
#define MO_AT(k) row[vmafx_motion_reflect(x - VMAFX_MOTION_RADIUS + k, w)]
        s += vmafx_motion_x_abs(vmafx_motion_filter5(MO_AT(0), MO_AT(1), MO_AT(2), MO_AT(3), MO_AT(4)));
#undef MO_AT
    }
    part[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = (int)get_local_size(0) / 2; k > 0; k >>= 1) {
        if (lid < k) part[lid] += part[lid + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) row_sum[y] = part[0];
}
