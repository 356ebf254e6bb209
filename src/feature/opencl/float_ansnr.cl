// SPDX-License-Identifier: BSD-3-Clause
// float_ansnr on an OpenCL device: loops around exact/float_ansnr.h, the
// reference's float operations in its order (float_ops.cl): the 2-D filters
// (each kernel row summed in float, then the rows), and per row the
// sequential float sums of the signal and the noise; the host adds the rows
// in float and takes the logarithms.
#pragma OPENCL FP_CONTRACT OFF

#include "float_ops.cl"
#include "exact/float_ansnr.h"

// The float luma: s / 2^(bpc - 8) - 128 (both steps exact).
inline float an_sample(__global const uchar* p, int w, int x, int y, int wide, float inv_scale)
{
    if (wide) return (float)((__global const ushort*)p)[(size_t)y * w + x] * inv_scale + -128.0f;
    return (float)p[(size_t)y * w + x] + -128.0f;
}

inline float an_filter(__global const uchar* p, int w, int h, int x, int y, int wide, float inv_scale,
                       __global const float* k, int fw)
{
    const int r = fw / 2;
    float win[25];
    for (int a = 0; a < fw; ++a)
        for (int b = 0; b < fw; ++b)
            win[a * fw + b] =
                an_sample(p, w, vmafx_fansnr_reflect(x - r + b, w), vmafx_fansnr_reflect(y - r + a, h), wide, inv_scale);
    return vmafx_fansnr_filter(k, win, fw);
}

// rf = the reference through the 3x3 taps, df = the distorted through the
// 5x5 taps (taps: 9 then 25 floats).
__kernel void ansnr_filter(__global const uchar* ref, __global const uchar* dis, int w, int h, int wide,
                           float inv_scale, __global const float* taps, __global float* rf, __global float* df)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    rf[(size_t)y * w + x] = an_filter(ref, w, h, x, y, wide, inv_scale, taps, 3);
    df[(size_t)y * w + x] = an_filter(dis, w, h, x, y, wide, inv_scale, taps + 9, 5);
}

// Per row, in the reference's order: sig += a * a, noise += (a - b) * (a - b).
__kernel void ansnr_rows(__global const float* rf, __global const float* df, int w, int h, __global float* out)
{
    const int y = get_global_id(0);
    if (y >= h) return;
    float sig, noise;
    vmafx_fansnr_row(rf + (size_t)y * w, df + (size_t)y * w, w, &sig, &noise);
    out[2 * y] = sig;
    out[2 * y + 1] = noise;
}
