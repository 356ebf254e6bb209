// SPDX-License-Identifier: BSD-3-Clause
// Integer SSIM ("ssim") on an OpenCL device, without fp64: the window moments
// and each pixel's term are exact/ssim.h's (the term in soft fp64, stored as
// its IEEE bits), and the host adds the terms in raster order, which is the
// reference's order.
#pragma OPENCL FP_CONTRACT OFF

#define VMAFX_SSIM_TABLE __constant
#include "exact/ssim.h"
#include "plane_sample.cl"

// Horizontal pass: the window of (x, y) cut at the left and right edge.
__kernel void issim_horizontal(__global const uchar* ref, __global const uchar* dis, int w, int h, int wide,
                               __global int* hmx, __global int* hmy, __global long* hxx,
                               __global long* hxy, __global long* hyy)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    vmafx_issim_moments m = vmafx_issim_zero();
    const int khi = vmafx_issim_khi(x, w);
    for (int k = vmafx_issim_klo(x); k < khi; ++k) {
        const size_t i = (size_t)y * w + (x - VMAFX_SSIM_TAP_RADIUS + k);
        vmafx_issim_add_sample(&m, vmafx_issim_taps[k], plane_sample(ref, i, wide), plane_sample(dis, i, wide));
    }
    const size_t i = (size_t)y * w + x;
    hmx[i] = (int)m.mx;
    hmy[i] = (int)m.my;
    hxx[i] = m.xx;
    hxy[i] = m.xy;
    hyy[i] = m.yy;
}

// Vertical pass and the per-pixel term, stored as IEEE bits. The horizontal
// weight of column x is the same on every row.
__kernel void issim_term(__global const int* hmx, __global const int* hmy, __global const long* hxx,
                         __global const long* hxy, __global const long* hyy, int w, int h,
                         ulong k1f_bits, ulong k2f_bits, __global ulong* term)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    vmafx_issim_moments m = vmafx_issim_zero(), r;
    r.w = vmafx_issim_line_weight(x, w);
    const int khi = vmafx_issim_khi(y, h);
    for (int k = vmafx_issim_klo(y); k < khi; ++k) {
        const size_t i = (size_t)(y - VMAFX_SSIM_TAP_RADIUS + k) * w + x;
        r.mx = hmx[i];
        r.my = hmy[i];
        r.xx = hxx[i];
        r.xy = hxy[i];
        r.yy = hyy[i];
        vmafx_issim_add_row(&m, vmafx_issim_taps[k], r);
    }
    term[(size_t)y * w + x] = vmafx_issim_term_bits(m, k1f_bits, k2f_bits);
}
