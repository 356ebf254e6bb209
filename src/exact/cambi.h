/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-sample steps of CAMBI (feature/cambi.cpp, libvmaf cambi.c) for the
 * device twins (feature/cuda/cambi.cu, feature/opencl/cambi.cl), written once
 * in the common subset of exact/compat.h. Everything is integer arithmetic
 * except vmafx_cambi_term(), which performs the reference's two float
 * operations, each rounded to nearest even as the host rounds them. */
#ifndef VMAFX_EXACT_CAMBI_H
#define VMAFX_EXACT_CAMBI_H

#include "compat.h"

/* Half the side of the zero-derivative mask's 7x7 window. */
#define VMAFX_CAMBI_MASK_PAD 3

/* int -> float, rounded to nearest even (the C conversion on the host). */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_CAMBI_I2F(x) convert_float_rte(x)
#elif defined(__CUDA_ARCH__)
#define VMAFX_CAMBI_I2F(x) __int2float_rn(x)
#else
#define VMAFX_CAMBI_I2F(x) ((float)(x))
#endif

/* A luma sample of bpc bits (8..16) at 10 bits: bpc <= 8: v << (10 - bpc);
 * 9: v << 1; 10: v; above: (v + 2^(s-1)) >> s with s = bpc - 10, in 32-bit
 * arithmetic (65535 at 16 bits gives 1024). */
VMAFX_FN vmafx_u32 vmafx_cambi_to10(vmafx_u32 v, int bpc)
{
    if (bpc <= 8) return v << (10 - bpc);
    if (bpc == 9) return v << 1;
    if (bpc == 10) return v;
    return (v + (1u << (bpc - 11))) >> (bpc - 10);
}

/* The mode of three samples: a value two of them share, else the smallest. */
VMAFX_FN vmafx_u32 vmafx_cambi_mode3(vmafx_u32 a, vmafx_u32 b, vmafx_u32 c)
{
    if (a == b || a == c) return a;
    if (b == c) return b;
    if (b < a) a = b;
    return c < a ? c : a;
}

/* 2x2 anti-dithering of a sample s with its right (r), lower (d) and
 * lower-right (dr) neighbours: has_r / has_d say whether the neighbour exists
 * (the last column and row average two samples, the corner keeps s). */
VMAFX_FN vmafx_u32 vmafx_cambi_dither(vmafx_u32 s, vmafx_u32 r, vmafx_u32 d, vmafx_u32 dr, int has_r, int has_d)
{
    if (has_r && has_d) return (s + r + d + dr) >> 2;
    if (has_d) return (s + d) >> 1;
    if (has_r) return (s + r) >> 1;
    return s;
}

/* The banding confidence of one contrast step: the exact int product
 * weight * p0 * p (below 2^31: p0 + p is at most 4225, weight at most 9)
 * converted to float, times the table's reciprocal of p0 + p. The reference
 * takes p as the larger of its two neighbour counts (either when equal). */
VMAFX_FN float vmafx_cambi_term(int weight, int p0, int p, float reciprocal)
{
    const float num = VMAFX_CAMBI_I2F(weight * p0 * p);
    return num * reciprocal;
}

/* Window counts for max_log_contrast <= 2 (at most 4 contrast steps: the
 * 9 values xv - 4 .. xv + 4), kept in registers: counter k (0..8) is the 16-bit
 * field k % 4 of word k / 4 (a window holds at most 65 * 65 = 4225 values).
 * k is a neighbour's value minus the pixel's plus nd, as an unsigned number:
 * above span (2 nd) it is not counted. */
#define VMAFX_CAMBI_SMALL_ND 4
VMAFX_FN void vmafx_cambi_count_small(vmafx_u32 k, vmafx_u32 span, vmafx_u64* w0, vmafx_u64* w1, vmafx_u64* w2)
{
    const vmafx_u64 inc = k <= span ? VMAFX_U64_ONE << ((k & 3u) * 16u) : 0;
    if (k < 4u)
        *w0 += inc;
    else if (k < 8u)
        *w1 += inc;
    else
        *w2 += inc;
}

VMAFX_FN int vmafx_cambi_small_count(vmafx_u32 k, vmafx_u64 w0, vmafx_u64 w1, vmafx_u64 w2)
{
    const vmafx_u64 w = k < 4u ? w0 : (k < 8u ? w1 : w2);
    return (int)((w >> ((k & 3u) * 16u)) & 0xFFFFu);
}

/* ---- Per-pixel steps of the device kernels (buffers in VMAFX_GLOBAL, the
 * c-value kernel's tile and counters in VMAFX_LOCAL memory) ---- */

/* The c-value kernel's work-group: VMAFX_CAMBI_TX x VMAFX_CAMBI_TY pixels. */
#define VMAFX_CAMBI_TX 32
#define VMAFX_CAMBI_TY 8
#define VMAFX_CAMBI_GROUP (VMAFX_CAMBI_TX * VMAFX_CAMBI_TY)
/* A tile entry that no histogram counts (unmasked, outside the band or
 * outside the picture): above every 10-bit value plus the largest step. */
#define VMAFX_CAMBI_NONE 0xFFFFu

/* Raw luma sample of output pixel (i, j) of the resized picture: the input
 * (8-bit, or 16-bit when `wide`; rows of `stride` samples) at (xmap[j],
 * ymap[i]), or, where libvmaf's stepping lands outside the picture, the
 * host's value from `patch` (bad_rows rows of ow, then columns of oh). */
VMAFX_FN vmafx_u32 vmafx_cambi_raw(VMAFX_GLOBAL const vmafx_u8* in, int wide, ptrdiff_t stride,
                                   VMAFX_GLOBAL const int* xmap, VMAFX_GLOBAL const int* ymap,
                                   VMAFX_GLOBAL const vmafx_u16* patch, int ow, int oh, int bad_rows, int i, int j)
{
    const int y = ymap[i], x = xmap[j];
    if (y < 0) return patch[(size_t)(-1 - y) * ow + j];
    if (x < 0) return patch[(size_t)bad_rows * ow + (size_t)(-1 - x) * oh + i];
    if (wide) return ((VMAFX_GLOBAL const vmafx_u16*)in)[y * stride + x];
    return in[y * stride + x];
}

/* Output pixel (i, j) of the luma at 10 bits, resized to ow x oh and, with
 * `dither`, anti-dithered with its right, lower and lower-right pixels. */
VMAFX_FN vmafx_u32 vmafx_cambi_resized10(VMAFX_GLOBAL const vmafx_u8* in, int wide, ptrdiff_t stride,
                                         VMAFX_GLOBAL const int* xmap, VMAFX_GLOBAL const int* ymap,
                                         VMAFX_GLOBAL const vmafx_u16* patch, int ow, int oh, int bad_rows, int bpc,
                                         int dither, int i, int j)
{
#define VMAFX_CAMBI_IN10_(r, c) \
    vmafx_cambi_to10(vmafx_cambi_raw(in, wide, stride, xmap, ymap, patch, ow, oh, bad_rows, r, c), bpc)
    const vmafx_u32 s = VMAFX_CAMBI_IN10_(i, j);
    if (!dither) return s;
    const int has_r = j + 1 < ow, has_d = i + 1 < oh;
    const vmafx_u32 r = has_r ? VMAFX_CAMBI_IN10_(i, j + 1) : 0u;
    const vmafx_u32 d = has_d ? VMAFX_CAMBI_IN10_(i + 1, j) : 0u;
    const vmafx_u32 dr = has_r && has_d ? VMAFX_CAMBI_IN10_(i + 1, j + 1) : 0u;
#undef VMAFX_CAMBI_IN10_
    return vmafx_cambi_dither(s, r, d, dr, has_r, has_d);
}

/* 1 where pixel (i, j) of a w x h picture equals its right and lower
 * neighbours (the last column and row count as equal). */
VMAFX_FN vmafx_u32 vmafx_cambi_flat(VMAFX_GLOBAL const vmafx_u16* img, int w, int h, int i, int j)
{
    const size_t at = (size_t)i * w + j;
    const vmafx_u16 a = img[at];
    const int hz = j == w - 1 || a == img[at + 1];
    const int vt = i == h - 1 || a == img[at + w];
    return (vmafx_u32)(hz && vt);
}

/* The 7-wide horizontal sum of the flat flags around (i, j), cut at the
 * edges. */
VMAFX_FN vmafx_u32 vmafx_cambi_flat_run(VMAFX_GLOBAL const vmafx_u16* img, int w, int h, int i, int j)
{
    const int lo = j - VMAFX_CAMBI_MASK_PAD < 0 ? 0 : j - VMAFX_CAMBI_MASK_PAD;
    const int hi = j + VMAFX_CAMBI_MASK_PAD >= w ? w - 1 : j + VMAFX_CAMBI_MASK_PAD;
    vmafx_u32 s = 0;
    for (int c = lo; c <= hi; ++c) s += vmafx_cambi_flat(img, w, h, i, c);
    return s;
}

/* The mask at output (oi, oj), every `step`-th row and column: 1 where the
 * 7x7 sum of flat flags (the vertical sum of the w x h row sums `hs`) is
 * above `threshold`. */
VMAFX_FN vmafx_u32 vmafx_cambi_mask_at(VMAFX_GLOBAL const vmafx_u8* hs, int w, int h, vmafx_u32 threshold, int step,
                                       int oi, int oj)
{
    const int i = oi * step, j = oj * step;
    const int lo = i - VMAFX_CAMBI_MASK_PAD < 0 ? 0 : i - VMAFX_CAMBI_MASK_PAD;
    const int hi = i + VMAFX_CAMBI_MASK_PAD >= h ? h - 1 : i + VMAFX_CAMBI_MASK_PAD;
    vmafx_u32 s = 0;
    for (int r = lo; r <= hi; ++r) s += hs[(size_t)r * w + j];
    return (vmafx_u32)(s > threshold);
}

/* Sample (i, j) of a scale: every `step`-th sample of the picture before it
 * (rows of sstride). */
VMAFX_FN vmafx_u32 vmafx_cambi_at(VMAFX_GLOBAL const vmafx_u16* src, int sstride, int step, int i, int j)
{
    return src[(size_t)(i * step) * sstride + (size_t)(j * step)];
}

VMAFX_FN vmafx_u32 vmafx_cambi_hmode(VMAFX_GLOBAL const vmafx_u16* src, int sstride, int step, int w, int i, int j)
{
    if (j == 0 || j == w - 1) return vmafx_cambi_at(src, sstride, step, i, j);
    return vmafx_cambi_mode3(vmafx_cambi_at(src, sstride, step, i, j - 1), vmafx_cambi_at(src, sstride, step, i, j),
                             vmafx_cambi_at(src, sstride, step, i, j + 1));
}

/* Pixel (i, j) of one w x h scale: the decimated picture's 3x3 mode
 * (horizontal, then vertical; the first and last rows kept as they are). */
VMAFX_FN vmafx_u32 vmafx_cambi_mode(VMAFX_GLOBAL const vmafx_u16* src, int sstride, int step, int w, int h, int i,
                                    int j)
{
    if (i == 0 || i == h - 1) return vmafx_cambi_at(src, sstride, step, i, j);
    return vmafx_cambi_mode3(vmafx_cambi_hmode(src, sstride, step, w, i - 1, j),
                             vmafx_cambi_hmode(src, sstride, step, w, i, j),
                             vmafx_cambi_hmode(src, sstride, step, w, i + 1, j));
}

/* Work item `lid`'s share of the c-value kernel's tile: the tw x th window
 * values of the group whose top-left is (x0, y0) of the w x h scale `img`, a
 * pixel kept where the scale's mask (every mstep-th sample of the first
 * scale's, rows of mstride) is set and its value lies in [base, base + band),
 * else VMAFX_CAMBI_NONE. */
VMAFX_FN void vmafx_cambi_load_tile(VMAFX_LOCAL vmafx_u16* tile, int lid, int tw, int th, int x0, int y0,
                                    VMAFX_GLOBAL const vmafx_u16* img, int w, int h, VMAFX_GLOBAL const vmafx_u8* mask,
                                    int mstride, int mstep, int base, int band)
{
    for (int k = lid; k < tw * th; k += VMAFX_CAMBI_GROUP) {
        const int gx = x0 + k % tw, gy = y0 + k / tw;
        vmafx_u32 v = VMAFX_CAMBI_NONE;
        if (gx >= 0 && gx < w && gy >= 0 && gy < h) {
            const vmafx_u32 u = img[(size_t)gy * w + gx];
            if (mask[(size_t)(gy * mstep) * mstride + (size_t)(gx * mstep)] && u - (vmafx_u32)base < (vmafx_u32)band)
                v = u;
        }
        tile[k] = (vmafx_u16)v;
    }
}

/* Counter k of a window: from the registers (small) or the work item's
 * column of `bins` (stride VMAFX_CAMBI_GROUP). */
VMAFX_FN int vmafx_cambi_bin(int small, int k, vmafx_u64 w0, vmafx_u64 w1, vmafx_u64 w2,
                             VMAFX_LOCAL const vmafx_u16* b)
{
    return small ? vmafx_cambi_small_count((vmafx_u32)k, w0, w1, w2) : (int)b[k * VMAFX_CAMBI_GROUP];
}

/* The c-value of the pixel at (lx, ly) of a loaded tile (rows of tw, the
 * window's half side pad): 0 unless its value lies within a contrast step of
 * the visibility threshold (tvi[d], vlt); else the values within nd of its
 * own are counted in its (2 pad + 1)^2 window, in registers for nd <=
 * VMAFX_CAMBI_SMALL_ND (every model's max_log_contrast), else in its own
 * column of `b`, and the largest term over the contrast steps d (weight[d],
 * the reciprocal table) is returned. */
VMAFX_FN float vmafx_cambi_cvalue(VMAFX_LOCAL const vmafx_u16* tile, int tw, int lx, int ly, int pad,
                                  VMAFX_LOCAL vmafx_u16* b, int nd, int vlt, VMAFX_GLOBAL const int* tvi,
                                  VMAFX_GLOBAL const int* weight, VMAFX_GLOBAL const float* reciprocal)
{
    const vmafx_u32 xv = tile[(ly + pad) * tw + lx + pad];
    float c = 0.0f;
    if (xv == VMAFX_CAMBI_NONE) return c;
    const int value = (int)xv + nd;
    int any = 0;
    for (int d = 0; d < nd; ++d) any |= value <= tvi[d] && value + d + 1 > vlt;
    if (!any) return c;
    const vmafx_u32 span = (vmafx_u32)(2 * nd);
    const int side = 2 * pad + 1;
    const int small = nd <= VMAFX_CAMBI_SMALL_ND;
    vmafx_u64 w0 = 0, w1 = 0, w2 = 0;
    if (small) {
        for (int dy = 0; dy < side; ++dy) {
            VMAFX_LOCAL const vmafx_u16* row = tile + (ly + dy) * tw + lx;
            for (int dx = 0; dx < side; ++dx)
                vmafx_cambi_count_small((vmafx_u32)row[dx] - xv + (vmafx_u32)nd, span, &w0, &w1, &w2);
        }
    } else {
        for (vmafx_u32 k = 0; k <= span; ++k) b[k * VMAFX_CAMBI_GROUP] = 0;
        for (int dy = 0; dy < side; ++dy) {
            VMAFX_LOCAL const vmafx_u16* row = tile + (ly + dy) * tw + lx;
            for (int dx = 0; dx < side; ++dx) {
                const vmafx_u32 k = (vmafx_u32)row[dx] - xv + (vmafx_u32)nd;
                if (k <= span) b[k * VMAFX_CAMBI_GROUP] = (vmafx_u16)(b[k * VMAFX_CAMBI_GROUP] + 1);
            }
        }
    }
    const int p0 = vmafx_cambi_bin(small, nd, w0, w1, w2, b);
    for (int d = 0; d < nd; ++d) {
        if (value <= tvi[d] && value + d + 1 > vlt) {
            const int p1 = vmafx_cambi_bin(small, nd + d + 1, w0, w1, w2, b);
            const int p2 = vmafx_cambi_bin(small, nd - d - 1, w0, w1, w2, b);
            const int p = p1 > p2 ? p1 : p2;
            const float val = vmafx_cambi_term(weight[d], p0, p, reciprocal[p + p0]);
            if (val > c) c = val;
        }
    }
    return c;
}

#endif /* VMAFX_EXACT_CAMBI_H */
