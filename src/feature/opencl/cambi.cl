// SPDX-License-Identifier: BSD-3-Clause
// CAMBI ("cambi", feature/cambi.cpp) on an OpenCL device, without fp64. Every
// stage up to the c-values is integer arithmetic and gives the CPU's integers
// whatever the order: the luma at 10 bits (nearest-neighbour resize through
// host-made position maps, anti-dithering), the zero-derivative mask, the
// decimation and mode filter of each scale, and the windowed counts of each
// pixel. A c-value is the reference's two float operations (int -> float,
// times a table entry), each rounded to nearest even (exact/cambi.h). The
// top-k pooling, which sums doubles in the reference's order, is done on the
// host from the c-values of all five scales, read back once per picture.
#pragma OPENCL FP_CONTRACT OFF

#include "exact/cambi.h"

// The luma at 10 bits, resized to ow x oh and, with `dither`, anti-dithered.
__kernel void cambi_to10(__global const uchar* in, int wide, int stride, __global const int* xmap,
                         __global const int* ymap, __global const ushort* patch, int ow, int oh, int bad_rows,
                         int bpc, int dither, __global ushort* out)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= ow || i >= oh) return;
    out[(size_t)i * ow + j] =
        (ushort)vmafx_cambi_resized10(in, wide, stride, xmap, ymap, patch, ow, oh, bad_rows, bpc, dither, i, j);
}

// The 7-wide horizontal sums of the flat flags (cut at the edges).
__kernel void cambi_mask_rows(__global const ushort* img, int w, int h, __global uchar* hs)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    hs[(size_t)i * w + j] = (uchar)vmafx_cambi_flat_run(img, w, h, i, j);
}

// The mask at every `step`-th row and column (1: all, 2: the speed-up's
// half).
__kernel void cambi_mask(__global const uchar* hs, int w, int h, uint threshold, int step, int ow, int oh,
                         __global uchar* mask)
{
    const int oj = get_global_id(0), oi = get_global_id(1);
    if (oj >= ow || oi >= oh) return;
    mask[(size_t)oi * ow + oj] = (uchar)vmafx_cambi_mask_at(hs, w, h, threshold, step, oi, oj);
}

// One scale's picture: every `step`-th sample of the previous one (the
// decimation; step 1 for an undecimated scale 0), then the 3x3 mode filter.
// src/dst are element offsets into the same buffer.
__kernel void cambi_mode(__global ushort* buf, int src_off, int sstride, int step, int w, int h, int dst_off,
                         __global const ushort* first)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    __global const ushort* src = src_off < 0 ? first : buf + src_off;
    buf[(size_t)dst_off + (size_t)i * w + j] = (ushort)vmafx_cambi_mode(src, sstride, step, w, h, i, j);
}

// The c-value of every pixel of one scale (w x h at img_off in `img`): the
// window's values go to local memory once per work-group, then each work
// item counts those of its own window (exact/cambi.h).
// params: tvi[0..31], contrast weights[32..63].
__kernel __attribute__((reqd_work_group_size(VMAFX_CAMBI_TX, VMAFX_CAMBI_TY, 1)))
void cambi_cvalues(__global const ushort* img, int img_off, int w, int h, __global const uchar* mask, int mstride,
                   int mstep, int pad, int nd, int base, int band, int vlt, __global const int* params,
                   __global const float* reciprocal, __local ushort* tile, __local ushort* bins,
                   __global float* out, int out_off)
{
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int lid = ly * VMAFX_CAMBI_TX + lx;
    const int tw = VMAFX_CAMBI_TX + 2 * pad, th = VMAFX_CAMBI_TY + 2 * pad;
    const int x0 = (int)get_group_id(0) * VMAFX_CAMBI_TX - pad, y0 = (int)get_group_id(1) * VMAFX_CAMBI_TY - pad;
    vmafx_cambi_load_tile(tile, lid, tw, th, x0, y0, img + img_off, w, h, mask, mstride, mstep, base, band);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = x0 + pad + lx, y = y0 + pad + ly;
    if (x >= w || y >= h) return;
    out[(size_t)out_off + (size_t)y * w + x] =
        vmafx_cambi_cvalue(tile, tw, lx, ly, pad, bins + lid, nd, vlt, params, params + 32, reciprocal);
}
