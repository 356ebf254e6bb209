/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-sample integer arithmetic of FFmpeg 5.1's libswscale (libswscale
 * 6.7) for planar YUV / gray to planar YUV / gray, as its C code computes it
 * with the flags of the default scaler (src/io/scale_default.hpp:
 * bicubic+accurate_rnd+bitexact), for host C++, CUDA and OpenCL C alike.
 *
 * Scaling is two passes over integers:
 *  - horizontal: each source row is filtered into an intermediate row of
 *    15-bit (output depth <= 14) or 19-bit (16-bit output) samples:
 *    acc = sum_j sample[pos + j] * coef[j] (int32), then a right shift that
 *    depends on the source depth, a cap at the top of the range, and (15-bit
 *    intermediates) the wrap to int16 that libswscale's int16 store does;
 *  - vertical: each output sample sums coef[j] * intermediate[row + j] in
 *    uint32 (wrapping, as libswscale's int/unsigned mix does) from a start
 *    value (a rounding term, or the 8x8 ordered dither when an 8-bit output
 *    comes from a deeper source), then shifts and clips. A vertical filter of
 *    one tap (rows not scaled) is a shift with rounding, not a product.
 * Same-size conversions between depths (same chroma format) are libswscale's
 * plain copy with a shift and, going down, its own ordered dither.
 *
 * The filters (positions and int16 taps) are computed once on the host
 * (core/scale_exact.cpp); nothing here depends on the CPU's SIMD: the flags
 * make libswscale's SIMD paths equal to its C paths (tests/scale). */
#ifndef VMAFX_EXACT_SWSCALE_H
#define VMAFX_EXACT_SWSCALE_H

#include "compat.h"

/* ---- ordered dithers ---------------------------------------------------- */

/* Eight bytes of one dither row, packed little-end first: table t (0..7) is
 * used by the same-size depth reduction by t + 1 bits; table 7 is also the
 * 8x8 matrix of the scaler's 8-bit output from a deeper source. */
VMAFX_FN vmafx_u64 vmafx_sws_dither_row(int t, int r)
{
    r &= 7;
    if (t <= 3) r &= 3; /* tables 0..3 repeat after four rows */
    switch (t * 8 + r) {
    case 0: return VMAFX_U64C(0x0100010001000100);
    case 1: return VMAFX_U64C(0x0001000100010001);
    case 2: return VMAFX_U64C(0x0100010001000100);
    case 3: return VMAFX_U64C(0x0001000100010001);
    case 8: return VMAFX_U64C(0x0201020102010201);
    case 9: return VMAFX_U64C(0x0003000300030003);
    case 10: return VMAFX_U64C(0x0201020102010201);
    case 11: return VMAFX_U64C(0x0003000300030003);
    case 16: return VMAFX_U64C(0x0503040205030402);
    case 17: return VMAFX_U64C(0x0107000601070006);
    case 18: return VMAFX_U64C(0x0402050304020503);
    case 19: return VMAFX_U64C(0x0006010700060107);
    case 24: return VMAFX_U64C(0x0b0708040b070804);
    case 25: return VMAFX_U64C(0x030f000c030f000c);
    case 26: return VMAFX_U64C(0x09050a0609050a06);
    case 27: return VMAFX_U64C(0x010d020e010d020e);
    case 32: return VMAFX_U64C(0x160e1008170f1109);
    case 33: return VMAFX_U64C(0x061e0018071f0119);
    case 34: return VMAFX_U64C(0x120a140c130b150d);
    case 35: return VMAFX_U64C(0x021a041c031b051d);
    case 36: return VMAFX_U64C(0x170f1109160e1008);
    case 37: return VMAFX_U64C(0x071f0119061e0018);
    case 38: return VMAFX_U64C(0x130b150d120a140c);
    case 39: return VMAFX_U64C(0x031b051d021a041c);
    /* tables 5 and 6 are the same matrix (libswscale uses it for 6- and
     * 7-bit reductions alike) */
    case 40: case 48: return VMAFX_U64C(0x2d1d21112e1e2212);
    case 41: case 49: return VMAFX_U64C(0x0d3d01310e3e0232);
    case 42: case 50: return VMAFX_U64C(0x2515291926162a1a);
    case 43: case 51: return VMAFX_U64C(0x0535093906360a3a);
    case 44: case 52: return VMAFX_U64C(0x2f1f23132c1c2010);
    case 45: case 53: return VMAFX_U64C(0x0f3f03330c3c0030);
    case 46: case 54: return VMAFX_U64C(0x27172b1b24142818);
    case 47: case 55: return VMAFX_U64C(0x07370b3b04340838);
    case 56: return VMAFX_U64C(0x5a3a42225c3c4424);
    case 57: return VMAFX_U64C(0x1a7a02621c7c0464);
    case 58: return VMAFX_U64C(0x4a2a52324c2c5434);
    case 59: return VMAFX_U64C(0x0a6a12720c6c1474);
    case 60: return VMAFX_U64C(0x5e3e462658384020);
    case 61: return VMAFX_U64C(0x1e7e066618780060);
    case 62: return VMAFX_U64C(0x4e2e563648285030);
    default: return VMAFX_U64C(0x0e6e167608681070); /* 63 */
    }
}

/* Entry (r, c) of dither table t. */
VMAFX_FN int vmafx_sws_dither(int t, int r, int c)
{
    return (int)((vmafx_sws_dither_row(t, r) >> (8 * (c & 7))) & 0xff);
}

/* ---- horizontal pass ---------------------------------------------------- */

/* Right shift of the horizontal sum: 8-bit sources have taps scaled by 2^14
 * and go to 15 bits (>> 7) or 19 bits (>> 3); deeper sources shift by their
 * depth - 1 (to 15 bits) or depth - 5 (to 19 bits). `wide`: 19-bit
 * intermediates (16-bit output). */
VMAFX_FN int vmafx_sws_h_shift(int src_bpc, int wide)
{
    if (src_bpc == 8) return wide ? 3 : 7;
    return wide ? src_bpc - 5 : src_bpc - 1;
}

/* The intermediate sample from the int32 sum of sample * tap. */
VMAFX_FN vmafx_i32 vmafx_sws_h_finish(vmafx_i32 acc, int sh, int wide)
{
    vmafx_i32 v = acc >> sh;
    if (wide) return v > 524287 ? 524287 : v;
    if (v > 32767) v = 32767;
    /* stored in int16 */
    return (vmafx_i32)((vmafx_u32)(v + 32768) & 0xffffu) - 32768;
}

/* ---- vertical pass ------------------------------------------------------ */

/* Start value of the vertical sum for an output of dst_bpc bits; `dither` is
 * the dither entry (used at 8 bits: 64 when the source is 8-bit too). */
VMAFX_FN vmafx_u32 vmafx_sws_v_start(int dst_bpc, int dither)
{
    if (dst_bpc == 8) return (vmafx_u32)dither << 12;
    if (dst_bpc == 16) return (1u << 14) - 0x40000000u;
    return 1u << (26 - dst_bpc);
}

/* One tap of the vertical sum: the product and the sum wrap modulo 2^32. */
VMAFX_FN vmafx_u32 vmafx_sws_v_tap(vmafx_u32 acc, vmafx_i32 inter, vmafx_i32 coef)
{
    return acc + (vmafx_u32)inter * (vmafx_u32)coef;
}

VMAFX_FN vmafx_i32 vmafx_sws_clip(vmafx_i32 v, vmafx_i32 lo, vmafx_i32 hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The output sample from a vertical sum of several taps. */
VMAFX_FN vmafx_i32 vmafx_sws_v_finish(vmafx_u32 acc, int dst_bpc)
{
    vmafx_i32 v = (vmafx_i32)acc;
    if (dst_bpc == 8) return vmafx_sws_clip(v >> 19, 0, 255);
    if (dst_bpc == 16) return vmafx_sws_clip(v >> 15, -32768, 32767) + 32768;
    return vmafx_sws_clip(v >> (27 - dst_bpc), 0, (1 << dst_bpc) - 1);
}

/* The output sample when the vertical filter has one tap (rows unscaled). */
VMAFX_FN vmafx_i32 vmafx_sws_v_single(vmafx_i32 inter, int dst_bpc, int dither)
{
    if (dst_bpc == 8) return vmafx_sws_clip((inter + dither) >> 7, 0, 255);
    if (dst_bpc == 16) return vmafx_sws_clip((inter + 4) >> 3, 0, 65535);
    return vmafx_sws_clip((inter + (1 << (14 - dst_bpc))) >> (15 - dst_bpc), 0, (1 << dst_bpc) - 1);
}

/* Dither entry of output sample (x, y) of a plane: rows of the 8x8 matrix by
 * the plane's output row, the V plane offset by three columns. 64 (plain
 * rounding) unless an 8-bit output comes from a deeper source. */
VMAFX_FN int vmafx_sws_v_dither(int dithered, int x, int y, int v_plane)
{
    if (!dithered) return 64;
    return vmafx_sws_dither(7, y, x + (v_plane ? 3 : 0));
}

/* ---- same size, other depth --------------------------------------------- */

/* Sample (x, y) of a plane converted from src_bpc to dst_bpc bits with no
 * scaling. `shift_only`: chroma, and luma of a limited-range picture (full
 * range luma also replicates the top bits into the new low bits, and going
 * down subtracts its top bits first). */
VMAFX_FN vmafx_i32 vmafx_sws_depth(vmafx_i32 v, int src_bpc, int dst_bpc, int x, int y, int shift_only)
{
    if (dst_bpc > src_bpc) {
        int up = dst_bpc - src_bpc;
        if (shift_only) return v << up;
        return (v << up) | (v >> (2 * src_bpc - dst_bpc));
    }
    if (dst_bpc == src_bpc) return v;
    {
        int down = src_bpc - dst_bpc;
        int d = vmafx_sws_dither(down - 1, y, x);
        if (shift_only) {
            vmafx_u32 t = ((vmafx_u32)v + (vmafx_u32)d) >> down;
            return (vmafx_i32)(t - (t >> dst_bpc));
        }
        return (vmafx_i32)(((vmafx_u32)v - ((vmafx_u32)v >> dst_bpc) + (vmafx_u32)d) >> down);
    }
}

#endif
