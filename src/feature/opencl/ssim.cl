// SPDX-License-Identifier: BSD-3-Clause
// Integer SSIM ("ssim") on an OpenCL device, without fp64. The window moments
// are integers and equal the CPU's; each pixel's fp64 term is formed in soft
// fp64 (exact/ssim_term.h) and stored as its IEEE bits, and the host adds the
// terms in raster order, which is the reference's order.
#pragma OPENCL FP_CONTRACT OFF

#define VMAFX_SSIM_TABLE __constant
#include "exact/ssim_term.h"
#include "exact/ssim_tables.h"

// Sample (x, y) of a packed plane of 8-bit (bpc == 8) or 16-bit samples.
inline long issim_sample(__global const uchar* p, int w, int x, int y, int wide)
{
    if (wide) return (long)((__global const ushort*)p)[(size_t)y * w + x];
    return (long)p[(size_t)y * w + x];
}

// The taps [klo, khi) a window keeps at position i of a line of n samples
// (truncated at both edges).
inline int issim_klo(int i)
{
    return i < VMAFX_SSIM_TAP_RADIUS ? VMAFX_SSIM_TAP_RADIUS - i : 0;
}
inline int issim_khi(int i, int n)
{
    return i + VMAFX_SSIM_TAP_RADIUS >= n ? VMAFX_SSIM_TAP_COUNT - (i + VMAFX_SSIM_TAP_RADIUS - n + 1) : VMAFX_SSIM_TAP_COUNT;
}

// Horizontal pass: the window of (x, y) truncated at the left and right edge.
__kernel void issim_horizontal(__global const uchar* ref, __global const uchar* dis, int w, int h, int wide,
                               __global int* hmx, __global int* hmy, __global long* hxx,
                               __global long* hxy, __global long* hyy)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    const int klo = issim_klo(x), khi = issim_khi(x, w);
    long mx = 0, my = 0, xx = 0, xy = 0, yy = 0;
    for (int k = klo; k < khi; ++k) {
        const int sx = x - VMAFX_SSIM_TAP_RADIUS + k;
        const long s = issim_sample(ref, w, sx, y, wide);
        const long d = issim_sample(dis, w, sx, y, wide);
        const long t = vmafx_issim_taps[k];
        mx += t * s;
        my += t * d;
        xx += t * s * s;
        xy += t * s * d;
        yy += t * d * d;
    }
    const size_t i = (size_t)y * w + x;
    hmx[i] = (int)mx;
    hmy[i] = (int)my;
    hxx[i] = xx;
    hxy[i] = xy;
    hyy[i] = yy;
}

// Sum of the taps a window keeps at position i of a line of n samples.
inline long issim_line_weight(int i, int n)
{
    const int klo = issim_klo(i), khi = issim_khi(i, n);
    long s = 0;
    for (int k = klo; k < khi; ++k) s += vmafx_issim_taps[k];
    return s;
}

// Vertical pass and the per-pixel term, stored as IEEE bits.
__kernel void issim_term(__global const int* hmx, __global const int* hmy, __global const long* hxx,
                         __global const long* hxy, __global const long* hyy, int w, int h,
                         ulong k1f_bits, ulong k2f_bits, __global ulong* term)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    const int klo = issim_klo(y), khi = issim_khi(y, h);
    long mx = 0, my = 0, xx = 0, xy = 0, yy = 0;
    for (int k = klo; k < khi; ++k) {
        const size_t i = (size_t)(y - VMAFX_SSIM_TAP_RADIUS + k) * w + x;
        const long t = vmafx_issim_taps[k];
        mx += t * (long)hmx[i];
        my += t * (long)hmy[i];
        xx += t * hxx[i];
        xy += t * hxy[i];
        yy += t * hyy[i];
    }
    const long wt = issim_line_weight(x, w) * issim_line_weight(y, h);
    term[(size_t)y * w + x] = vmafx_ssim_term_bits(mx, my, xx, xy, yy, wt, k1f_bits, k2f_bits);
}
