// SPDX-License-Identifier: BSD-3-Clause
// The exact scaler (core/scale_exact.hpp) on an OpenCL device: libswscale's
// integer path for the default flags, sample for sample. Filters come from
// the host (sws::Plan); the arithmetic is exact/swscale.h. Samples are uchar
// (8-bit) or ushort (9 to 16 bits), `pitch` in samples.
#pragma OPENCL FP_CONTRACT OFF

#include "exact/swscale.h"

inline int sws_load(__global const uchar* p, int wide, int pitch, int x, int y)
{
    if (wide) return (int)((__global const ushort*)p)[(size_t)y * pitch + x];
    return (int)p[(size_t)y * pitch + x];
}

inline void sws_store(__global uchar* p, int wide, int pitch, int x, int y, int v)
{
    if (wide) ((__global ushort*)p)[(size_t)y * pitch + x] = (ushort)v;
    else p[(size_t)y * pitch + x] = (uchar)v;
}

// Horizontal pass: every source row into dst_w intermediate samples.
__kernel void sws_hscale(__global const uchar* src, int src_wide, int src_pitch, int src_w, int src_h,
                         __global const int* pos, __global const int* taps, int n, int dst_w, int sh,
                         int wide, __global int* inter)
{
    const int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= dst_w || y >= src_h) return;
    const int p = pos[x];
    int acc = 0;
    for (int j = 0; j < n; ++j) {
        const int sx = min(p + j, src_w - 1);
        acc += sws_load(src, src_wide, src_pitch, sx, y) * taps[(size_t)x * n + j];
    }
    inter[(size_t)y * dst_w + x] = vmafx_sws_h_finish(acc, sh, wide);
}

// Vertical pass: every output sample from the intermediate rows.
__kernel void sws_vscale(__global const int* inter, int dst_w, int src_h, __global const int* pos,
                         __global const int* taps, int n, int dst_h, int bpc, int dithered, int v_plane,
                         __global uchar* dst, int dst_pitch)
{
    const int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= dst_w || y >= dst_h) return;
    const int d = vmafx_sws_v_dither(dithered, x, y, v_plane);
    int v;
    if (n == 1) {
        v = vmafx_sws_v_single(inter[(size_t)pos[y] * dst_w + x], bpc, d);
    } else {
        vmafx_u32 acc = vmafx_sws_v_start(bpc, d);
        for (int j = 0; j < n; ++j) {
            const int sy = min(pos[y] + j, src_h - 1);
            acc = vmafx_sws_v_tap(acc, inter[(size_t)sy * dst_w + x], taps[(size_t)y * n + j]);
        }
        v = vmafx_sws_v_finish(acc, bpc);
    }
    sws_store(dst, bpc > 8, dst_pitch, x, y, v);
}

// Same size, other depth (or a plain copy when the depths are equal).
__kernel void sws_depth(__global const uchar* src, int src_bpc, int src_pitch, __global uchar* dst, int dst_bpc,
                        int dst_pitch, int w, int h, int shift_only)
{
    const int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= w || y >= h) return;
    const int v = sws_load(src, src_bpc > 8, src_pitch, x, y);
    sws_store(dst, dst_bpc > 8, dst_pitch, x, y, vmafx_sws_depth(v, src_bpc, dst_bpc, x, y, shift_only));
}
