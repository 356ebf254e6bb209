// SPDX-License-Identifier: BSD-3-Clause
// ciede on an OpenCL device: one work-item per pixel evaluates the
// reference's dE00 in certified soft-fp64 interval arithmetic
// (exact/ciede.h) and writes its float's bits and whether it is certified;
// the host recomputes the uncertified pixels with the reference's functions
// and adds all in the reference's order. No fp64, no contraction.
#pragma OPENCL FP_CONTRACT OFF

#include "exact/ciede.h"

inline int ce_sample(__global const uchar* p, int wide, int k)
{
    return wide ? (int)((__global const ushort*)p)[k] : (int)p[k];
}

// Chroma plane `first` (and `second`, which follows it in libvmaf's layout)
// at luma pixel (i, j), as the reference upsamples.
inline int ce_chroma(__global const uchar* first, __global const uchar* second, int nplanes, int wide, int fmt,
                     int cw, int ch, int i, int j)
{
    int plane, row, col;
    if (!vmafx_ciede_chroma_at(fmt, cw, ch, nplanes, i, j, &plane, &row, &col)) return 0;
    return ce_sample(plane ? second : first, wide, row * cw + col);
}

// out[k] = bits of pixel k's dE00, out[n + k] = 1 when certified (k = i * w + j).
__kernel void ciede_pixels(__global const uchar* ry, __global const uchar* ru, __global const uchar* rv,
                           __global const uchar* dy, __global const uchar* du, __global const uchar* dv, int w,
                           int h, int cw, int ch, int fmt, int bpc, __global uint* out)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    const int wide = bpc > 8, k = i * w + j;
    int ok;
    const uint bits = vmafx_ciede_pixel(
        ce_sample(ry, wide, k), ce_chroma(ru, rv, 2, wide, fmt, cw, ch, i, j), ce_chroma(rv, rv, 1, wide, fmt, cw, ch, i, j),
        ce_sample(dy, wide, k), ce_chroma(du, dv, 2, wide, fmt, cw, ch, i, j), ce_chroma(dv, dv, 1, wide, fmt, cw, ch, i, j),
        bpc, &ok);
    const size_t n = (size_t)w * h;
    out[k] = bits;
    out[n + k] = (uint)ok;
}

// The stress test's entry: pair k's samples are s[6k .. 6k+5] (reference
// y, u, v, distorted y, u, v); out as above with n pairs.
__kernel void ciede_pairs(__global const int* s, int n, int bpc, __global uint* out)
{
    const int k = get_global_id(0);
    if (k >= n) return;
    int ok;
    const uint bits = vmafx_ciede_pixel(s[6 * k], s[6 * k + 1], s[6 * k + 2], s[6 * k + 3], s[6 * k + 4], s[6 * k + 5],
                                        bpc, &ok);
    out[k] = bits;
    out[n + k] = (uint)ok;
}
