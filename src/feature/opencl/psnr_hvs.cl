// SPDX-License-Identifier: BSD-3-Clause
// psnr_hvs on an OpenCL device: one work-item per 8x8 block (blocks every 7
// samples), the block's 64 CSF-weighted squared errors as the reference forms
// them (exact/psnr_hvs_block.h); the host adds them in float in the
// reference's order. Division and square root are the correctly rounded ones
// of ocl_f32.cl.
#pragma OPENCL FP_CONTRACT OFF

#include "ocl_f32.cl"
#include "exact/psnr_hvs_block.h"

// tables: the plane's 8x8 mask, then its 8x8 CSF. terms: 64 floats per block,
// blocks in raster order (nbx per row) from block first_block on.
__kernel void hvs_blocks(__global const uchar* ref, __global const uchar* dis, int w, int wide, int nbx, int nby,
                         __global const float* tables, float var63, float var15, int first_block,
                         __global float* terms)
{
    const int bx = get_global_id(0), by = get_global_id(1);
    if (bx >= nbx || by >= nby) return;
    int s[64], d[64];
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            const size_t k = (size_t)(by * 7 + i) * w + (size_t)(bx * 7 + j);
            s[i * 8 + j] = wide ? (int)((__global const ushort*)ref)[k] : (int)ref[k];
            d[i * 8 + j] = wide ? (int)((__global const ushort*)dis)[k] : (int)dis[k];
        }
    float t[64];
    vmafx_hvs_block_terms(s, d, tables, tables + 64, var63, var15, t);
    __global float* out = terms + ((size_t)first_block + (size_t)by * nbx + bx) * 64;
    for (int k = 0; k < 64; ++k) out[k] = t[k];
}
