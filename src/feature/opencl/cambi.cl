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

// Work-group of the c-value kernel: CAMBI_TX x CAMBI_TY pixels.
#define CAMBI_TX 32
#define CAMBI_TY 8
#define CAMBI_GROUP (CAMBI_TX * CAMBI_TY)
// A pixel that no histogram counts (unmasked, outside the band or outside
// the picture): above every 10-bit value plus the largest contrast step.
#define CAMBI_NONE 0xFFFFu

// Raw luma sample of output pixel (i, j) of the resized picture: the input at
// (xmap[j], ymap[i]), or, where libvmaf's stepping lands outside the picture,
// the host's value from `patch` (rows first, then columns).
inline uint cambi_raw(__global const uchar* in, int wide, int stride, __global const int* xmap,
                      __global const int* ymap, __global const ushort* patch, int ow, int oh, int bad_rows,
                      int i, int j)
{
    const int y = ymap[i], x = xmap[j];
    if (y < 0) return patch[(size_t)(-1 - y) * ow + j];
    if (x < 0) return patch[(size_t)bad_rows * ow + (size_t)(-1 - x) * oh + i];
    if (wide) return ((__global const ushort*)in)[(size_t)y * stride + x];
    return in[(size_t)y * stride + x];
}

inline uint cambi_in10(__global const uchar* in, int wide, int stride, __global const int* xmap,
                       __global const int* ymap, __global const ushort* patch, int ow, int oh, int bad_rows,
                       int bpc, int i, int j)
{
    return vmafx_cambi_to10(cambi_raw(in, wide, stride, xmap, ymap, patch, ow, oh, bad_rows, i, j), bpc);
}

// The luma at 10 bits, resized to ow x oh and, with `dither`, anti-dithered.
__kernel void cambi_to10(__global const uchar* in, int wide, int stride, __global const int* xmap,
                         __global const int* ymap, __global const ushort* patch, int ow, int oh, int bad_rows,
                         int bpc, int dither, __global ushort* out)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= ow || i >= oh) return;
    uint s = cambi_in10(in, wide, stride, xmap, ymap, patch, ow, oh, bad_rows, bpc, i, j);
    if (dither) {
        const int has_r = j + 1 < ow, has_d = i + 1 < oh;
        const uint r = has_r ? cambi_in10(in, wide, stride, xmap, ymap, patch, ow, oh, bad_rows, bpc, i, j + 1) : 0u;
        const uint d = has_d ? cambi_in10(in, wide, stride, xmap, ymap, patch, ow, oh, bad_rows, bpc, i + 1, j) : 0u;
        const uint dr = has_r && has_d
                            ? cambi_in10(in, wide, stride, xmap, ymap, patch, ow, oh, bad_rows, bpc, i + 1, j + 1)
                            : 0u;
        s = vmafx_cambi_dither(s, r, d, dr, has_r, has_d);
    }
    out[(size_t)i * ow + j] = (ushort)s;
}

// 1 where a pixel equals its right and lower neighbours (the last column and
// row count as equal).
inline uint cambi_flat(__global const ushort* img, int w, int h, int i, int j)
{
    const size_t at = (size_t)i * w + j;
    const ushort a = img[at];
    const int hz = j == w - 1 || a == img[at + 1];
    const int vt = i == h - 1 || a == img[at + w];
    return (uint)(hz && vt);
}

// The 7-wide horizontal sums of the flat flags (cut at the edges).
__kernel void cambi_mask_rows(__global const ushort* img, int w, int h, __global uchar* hs)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    const int lo = j - VMAFX_CAMBI_MASK_PAD < 0 ? 0 : j - VMAFX_CAMBI_MASK_PAD;
    const int hi = j + VMAFX_CAMBI_MASK_PAD >= w ? w - 1 : j + VMAFX_CAMBI_MASK_PAD;
    uint s = 0;
    for (int c = lo; c <= hi; ++c) s += cambi_flat(img, w, h, i, c);
    hs[(size_t)i * w + j] = (uchar)s;
}

// The mask at every `step`-th row and column (1: all, 2: the speed-up's
// half): 1 where the 7x7 sum of flat flags is above `threshold`.
__kernel void cambi_mask(__global const uchar* hs, int w, int h, uint threshold, int step, int ow, int oh,
                         __global uchar* mask)
{
    const int oj = get_global_id(0), oi = get_global_id(1);
    if (oj >= ow || oi >= oh) return;
    const int i = oi * step, j = oj * step;
    const int lo = i - VMAFX_CAMBI_MASK_PAD < 0 ? 0 : i - VMAFX_CAMBI_MASK_PAD;
    const int hi = i + VMAFX_CAMBI_MASK_PAD >= h ? h - 1 : i + VMAFX_CAMBI_MASK_PAD;
    uint s = 0;
    for (int r = lo; r <= hi; ++r) s += hs[(size_t)r * w + j];
    mask[(size_t)oi * ow + oj] = (uchar)(s > threshold);
}

inline uint cambi_at(__global const ushort* src, int sstride, int step, int i, int j)
{
    return src[(size_t)(i * step) * sstride + (size_t)(j * step)];
}

inline uint cambi_hmode(__global const ushort* src, int sstride, int step, int w, int i, int j)
{
    if (j == 0 || j == w - 1) return cambi_at(src, sstride, step, i, j);
    return vmafx_cambi_mode3(cambi_at(src, sstride, step, i, j - 1), cambi_at(src, sstride, step, i, j),
                             cambi_at(src, sstride, step, i, j + 1));
}

// One scale's picture: every `step`-th sample of the previous one (the
// decimation; step 1 for an undecimated scale 0), then the 3x3 mode filter
// (horizontal, then vertical; the first and last rows are kept as they are).
// src/dst are element offsets into the same buffer.
__kernel void cambi_mode(__global ushort* buf, int src_off, int sstride, int step, int w, int h, int dst_off,
                         __global const ushort* first)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    __global const ushort* src = src_off < 0 ? first : buf + src_off;
    uint v;
    if (i == 0 || i == h - 1)
        v = cambi_at(src, sstride, step, i, j);
    else
        v = vmafx_cambi_mode3(cambi_hmode(src, sstride, step, w, i - 1, j), cambi_hmode(src, sstride, step, w, i, j),
                              cambi_hmode(src, sstride, step, w, i + 1, j));
    buf[(size_t)dst_off + (size_t)i * w + j] = (ushort)v;
}

// The c-value of every pixel of one scale (w x h at img_off in `img`): the
// masked pixels whose value lies in the band [base, base + band) are counted
// in each pixel's (2 pad + 1)^2 window (cut at the edges); the mask of the
// scale is every `mstep`-th sample of the first scale's mask. The window's
// values go to local memory once per work-group; each work item counts the
// values within nd of its own: in registers for nd <= 4 (every model's
// max_log_contrast), else in its own column of `bins`.
// params: tvi[0..31], contrast weights[32..63].
__kernel __attribute__((reqd_work_group_size(CAMBI_TX, CAMBI_TY, 1)))
void cambi_cvalues(__global const ushort* img, int img_off, int w, int h, __global const uchar* mask, int mstride,
                   int mstep, int pad, int nd, int base, int band, int vlt, __global const int* params,
                   __global const float* reciprocal, __local ushort* tile, __local ushort* bins,
                   __global float* out, int out_off)
{
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int lid = ly * CAMBI_TX + lx;
    const int tw = CAMBI_TX + 2 * pad, th = CAMBI_TY + 2 * pad;
    const int x0 = (int)get_group_id(0) * CAMBI_TX - pad, y0 = (int)get_group_id(1) * CAMBI_TY - pad;
    for (int k = lid; k < tw * th; k += CAMBI_GROUP) {
        const int gx = x0 + k % tw, gy = y0 + k / tw;
        uint v = CAMBI_NONE;
        if (gx >= 0 && gx < w && gy >= 0 && gy < h) {
            const uint u = img[(size_t)img_off + (size_t)gy * w + gx];
            if (mask[(size_t)(gy * mstep) * mstride + (size_t)(gx * mstep)] && u - (uint)base < (uint)band) v = u;
        }
        tile[k] = (ushort)v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = x0 + pad + lx, y = y0 + pad + ly;
    if (x >= w || y >= h) return;
    const uint xv = tile[(ly + pad) * tw + lx + pad];
    float c = 0.0f;
    if (xv != CAMBI_NONE) {
        const int value = (int)xv + nd;
        int any = 0;
        for (int d = 0; d < nd; ++d) any |= value <= params[d] && value + d + 1 > vlt;
        if (any) {
            __local ushort* b = bins + lid;
            const uint span = (uint)(2 * nd);
            const int side = 2 * pad + 1;
            const int small = nd <= VMAFX_CAMBI_SMALL_ND;
            ulong w0 = 0, w1 = 0, w2 = 0;
            if (small) {
                for (int dy = 0; dy < side; ++dy) {
                    __local const ushort* row = tile + (ly + dy) * tw + lx;
                    for (int dx = 0; dx < side; ++dx)
                        vmafx_cambi_count_small((uint)row[dx] - xv + (uint)nd, span, &w0, &w1, &w2);
                }
            } else {
                for (uint k = 0; k <= span; ++k) b[k * CAMBI_GROUP] = 0;
                for (int dy = 0; dy < side; ++dy) {
                    __local const ushort* row = tile + (ly + dy) * tw + lx;
                    for (int dx = 0; dx < side; ++dx) {
                        const uint k = (uint)row[dx] - xv + (uint)nd;
                        if (k <= span) b[k * CAMBI_GROUP] += 1;
                    }
                }
            }
#define CAMBI_BIN(k) (small ? vmafx_cambi_small_count((uint)(k), w0, w1, w2) : (int)b[(k) * CAMBI_GROUP])
            const int p0 = CAMBI_BIN(nd);
            for (int d = 0; d < nd; ++d) {
                if (value <= params[d] && value + d + 1 > vlt) {
                    const int p1 = CAMBI_BIN(nd + d + 1), p2 = CAMBI_BIN(nd - d - 1);
                    const int p = p1 > p2 ? p1 : p2;
                    const float val = vmafx_cambi_term(params[32 + d], p0, p, reciprocal[p + p0]);
                    if (val > c) c = val;
                }
            }
        }
    }
    out[(size_t)out_off + (size_t)y * w + x] = c;
#undef CAMBI_BIN
}
