// SPDX-License-Identifier: BSD-3-Clause
// float_psnr and float_moment on an OpenCL device: integers only. Every float
// term of the reference (a sample, its square, a squared difference) is an
// exact integer in units of 2^-k or 2^-2k (exact/float_terms.h). fterm_rows
// leaves each row's exact sum; the host forms the reference's double from
// them, and asks fterm_plane for the terms one by one only where a partial
// sum would pass 2^53 units (feature/exact_sum.hpp).
#pragma OPENCL FP_CONTRACT OFF

#ifndef VMAFX_FLOAT_TERMS_CL
#define VMAFX_FLOAT_TERMS_CL

#include "exact/float_terms.h"

// Row reductions use a power-of-two work-group of at most FT_WG items.
#define FT_WG 256

inline int ft_sample(__global const uchar* p, int w, int x, int y, int wide)
{
    if (wide) return (int)((__global const ushort*)p)[(size_t)y * w + x];
    return (int)p[(size_t)y * w + x];
}

// rows[first_row + y] = the sum over row y of vmafx_fterm(kind, a, b).
__kernel void fterm_rows(__global const uchar* a, __global const uchar* b, int w, int wide, int kind,
                         __global ulong* rows, int first_row)
{
    __local ulong part[FT_WG];
    const int y = get_group_id(0), lid = get_local_id(0);
    ulong s = 0;
    for (int x = lid; x < w; x += (int)get_local_size(0))
        s += vmafx_fterm(kind, ft_sample(a, w, x, y, wide), ft_sample(b, w, x, y, wide));
    part[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = (int)get_local_size(0) / 2; k > 0; k >>= 1) {
        if (lid < k) part[lid] += part[lid + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) rows[first_row + y] = part[0];
}

// out[(y - row0) * w + x] = vmafx_fterm(kind, a, b) for rows row0 .. h - 1.
__kernel void fterm_plane(__global const uchar* a, __global const uchar* b, int w, int h, int wide, int kind,
                          int row0, __global uint* out)
{
    const int x = get_global_id(0), y = row0 + (int)get_global_id(1);
    if (x >= w || y >= h) return;
    out[(size_t)(y - row0) * w + x] = (uint)vmafx_fterm(kind, ft_sample(a, w, x, y, wide), ft_sample(b, w, x, y, wide));
}

#endif
