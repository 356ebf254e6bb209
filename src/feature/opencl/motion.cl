// SPDX-License-Identifier: BSD-3-Clause
// Integer motion ("motion") on an OpenCL device: integer arithmetic only. The
// kernel leaves one integer per row (the reference sums a row in 32 bits,
// wrapping); the host adds the rows.
#pragma OPENCL FP_CONTRACT OFF

// OpenCL C 1.2 wants program-scope data in __constant.
#define VMAFX_MOTION_CONST __constant
#include "feature/motion_tables.h"

// Row reductions use a power-of-two work-group of at most ROW_WG items.
#define ROW_WG 256

inline long mo_sample(__global const uchar* p, int w, int x, int y, int wide)
{
    if (wide) return (long)((__global const ushort*)p)[(size_t)y * w + x];
    return (long)p[(size_t)y * w + x];
}

// Whole-sample symmetric extension without repeating the edge sample.
inline int mo_reflect(int i, int n)
{
    if (i < 0) return -i;
    if (i >= n) return 2 * n - i - 2;
    return i;
}

// Vertical 5-tap pass over prev - cur, rounded and shifted by bpc.
__kernel void motion_vertical(__global const uchar* prev, __global const uchar* cur, int w, int h, int wide,
                              int shift, __global int* out)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    long acc = 0;
    for (int k = 0; k < VMAFX_MOTION_TAPS; ++k) {
        const int r = mo_reflect(y - VMAFX_MOTION_RADIUS + k, h);
        acc += (long)vmafx_motion_taps[k] * (mo_sample(prev, w, x, r, wide) - mo_sample(cur, w, x, r, wide));
    }
    out[(size_t)y * w + x] = (int)((acc + (1L << (shift - 1))) >> shift);
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
        long acc = 0;
        for (int k = 0; k < VMAFX_MOTION_TAPS; ++k)
            acc += (long)vmafx_motion_taps[k] * (long)row[mo_reflect(x - VMAFX_MOTION_RADIUS + k, w)];
        const int f = (int)((acc + VMAFX_MOTION_X_ROUND) >> VMAFX_MOTION_X_SHIFT);
        s += (uint)abs(f);
    }
    part[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = (int)get_local_size(0) / 2; k > 0; k >>= 1) {
        if (lid < k) part[lid] += part[lid + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) row_sum[y] = part[0];
}
