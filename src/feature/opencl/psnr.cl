// SPDX-License-Identifier: BSD-3-Clause
// Integer PSNR ("psnr") on an OpenCL device: exact/psnr.h's squared errors,
// one sum per row (8-bit rows wrap in 32 bits as the reference's do, deeper
// rows are exact in 64); the host adds the rows.
#pragma OPENCL FP_CONTRACT OFF

#include "exact/psnr.h"
#include "plane_sample.cl"

// Row reductions use a power-of-two work-group of at most PSNR_WG items.
#define PSNR_WG 256

// One work-group per row: row_sse[first_row + y] = the row's total.
__kernel void psnr_rows(__global const uchar* ref, __global const uchar* dis, int w, int wide,
                        __global ulong* row_sse, int first_row)
{
    __local ulong part[PSNR_WG];
    const int y = get_group_id(0), lid = get_local_id(0);
    ulong s = 0;
    for (int x = lid; x < w; x += (int)get_local_size(0)) {
        const size_t i = (size_t)y * w + x;
        s += vmafx_psnr_sq_err(plane_sample(ref, i, wide), plane_sample(dis, i, wide));
    }
    part[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = (int)get_local_size(0) / 2; k > 0; k >>= 1) {
        if (lid < k) part[lid] += part[lid + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) row_sse[first_row + y] = vmafx_psnr_row_total(part[0], wide);
}
