// SPDX-License-Identifier: BSD-3-Clause
// Integer VIF ("vif") on an OpenCL device, without fp64. Everything is integer
// arithmetic as in the reference (feature/vif.cpp) except the gain terms of a
// log-branch pixel, which exact/vif_gain.h computes exactly (integer division
// with error zones, soft-fp64 replay). Each work-group reduces its pixels'
// four int64 accumulators; the host adds the groups' sums (integers, so any
// order gives the reference's sums) and finishes as the reference does.
#pragma OPENCL FP_CONTRACT OFF

#include "exact/vif_gain.h"
#include "exact/vif_tables.h"

// The statistic reduces over a power-of-two work-group of at most VIF_WG items.
#define VIF_WG 256

__constant int kVifF0[17] = VMAFX_VIF_FILTER0_INIT;
__constant int kVifF1[9] = VMAFX_VIF_FILTER1_INIT;
__constant int kVifF2[5] = VMAFX_VIF_FILTER2_INIT;
__constant int kVifF3[3] = VMAFX_VIF_FILTER3_INIT;

inline uint vif_tap(int filter, int k)
{
    if (filter == 0) return (uint)kVifF0[k];
    if (filter == 1) return (uint)kVifF1[k];
    if (filter == 2) return (uint)kVifF2[k];
    return (uint)kVifF3[k];
}

inline int vif_width(int filter) { return filter == 0 ? 17 : filter == 1 ? 9 : filter == 2 ? 5 : 3; }

// The reference's padding: a reflection that does not repeat the edge. One
// reflection suffices because every scale is at least as long as the
// filter's half width + 1 (the extractor's minimum size guarantees it).
inline int vif_mirror(int i, int n)
{
    if (i < 0) return -i;
    if (i >= n) return 2 * (n - 1) - i;
    return i;
}

inline uint vif_sample(__global const uchar* p, int w, int x, int y, int kind)
{
    // kind 0: 8-bit samples; 1: 16-bit
    if (kind) return (uint)((__global const ushort*)p)[(size_t)y * w + x];
    return (uint)p[(size_t)y * w + x];
}

inline int vif_log2_q11(ulong v, __global const ushort* table)
{
    const int k = 64 - (int)clz(v) - 16;
    return (int)table[(v >> k) - 32768] + 2048 * k;
}

// Subsampling (only where no statistic makes the next scale: scale 0 with
// vif_skip_scale0): scale `from` low-passed with filter from + 1 at the even
// rows and columns, (w / 2) x (h / 2) uint16 samples. A work-group covers a tile
// of tw x th outputs: the vertical pass of its input rows (the even rows) for
// the columns the tile's horizontal taps reach, in local memory, then the
// horizontal pass. The intermediate values are the reference's uint16 ones.
#define VIF_SUB_TW 32
#define VIF_SUB_TH 8
#define VIF_SUB_LW (2 * VIF_SUB_TW + 8)

__kernel void vif_subsample(__global const uchar* ref, __global const uchar* dis, int w, int h, int kind,
                            int filter, uint mu_round, int mu_shift, __global ushort* o_ref,
                            __global ushort* o_dis)
{
    __local uint l_ref[VIF_SUB_TH][VIF_SUB_LW], l_dis[VIF_SUB_TH][VIF_SUB_LW];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int tw = get_local_size(0);
    const int xo = get_global_id(0), yo = get_global_id(1);
    const int ow = w / 2, oh = h / 2;
    const int taps = vif_width(filter), half_w = taps / 2;
    const int xs = 2 * (int)get_group_id(0) * tw - half_w;  // input column of local column 0
    const int ncols = 2 * tw - 1 + 2 * half_w;
    for (int c = lx; c < ncols; c += tw) {
        const int gx = xs + c;
        uint a = 0, b = 0;
        if (yo < oh && gx >= -half_w && gx <= w - 1 + half_w) {
            const int sx = vif_mirror(gx, w);
            const int y = 2 * yo;
            for (int k = 0; k < taps; ++k) {
                const int r = vif_mirror(y - half_w + k, h);
                const uint cf = vif_tap(filter, k);
                a += cf * vif_sample(ref, w, sx, r, kind);
                b += cf * vif_sample(dis, w, sx, r, kind);
            }
        }
        l_ref[ly][c] = (ushort)((a + mu_round) >> mu_shift);
        l_dis[ly][c] = (ushort)((b + mu_round) >> mu_shift);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (xo >= ow || yo >= oh) return;
    uint a = 0, b = 0;
    for (int k = 0; k < taps; ++k) {
        const uint cf = vif_tap(filter, k);
        a += cf * l_ref[ly][2 * lx + k];
        b += cf * l_dis[ly][2 * lx + k];
    }
    o_ref[(size_t)yo * ow + xo] = (ushort)((a + 32768) >> 16);
    o_dis[(size_t)yo * ow + xo] = (ushort)((b + 32768) >> 16);
}

// A tiled statistic's last step: the work-group's four sums (its items'
// shares in `red`, `stride` longs per statistic) into
// acc[(first_group + group) * 4 + {num_log, den_log, num_non_log,
// den_non_log}], groups numbered row by row. Integer additions: any order.
inline void vif_group_sums(__local long* red, int stride, long num_log, long den_log, long num_non, long den_non,
                           __global long* acc, int first_group)
{
    const int lid = get_local_id(0), nt = get_local_size(0);
    red[lid] = num_log;
    red[stride + lid] = den_log;
    red[2 * stride + lid] = num_non;
    red[3 * stride + lid] = den_non;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = nt / 2; s > 0; s >>= 1) {
        if (lid < s) {
            red[lid] += red[lid + s];
            red[stride + lid] += red[stride + lid + s];
            red[2 * stride + lid] += red[2 * stride + lid + s];
            red[3 * stride + lid] += red[3 * stride + lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        const size_t gi = ((size_t)first_group + get_group_id(1) * get_num_groups(0) + get_group_id(0)) * 4;
        acc[gi] = red[0];
        acc[gi + 1] = red[stride];
        acc[gi + 2] = red[2 * stride];
        acc[gi + 3] = red[3 * stride];
    }
}

// ---- Scale 0, 8-bit: the "v2" kernel -----------------------------------------
// A port of the CUDA tiled kernel (src/feature/cuda/vif_tile.cuh, vif.cu
// stat17_v2_kernel): a work-group scores a 112 x 16 tile of outputs from a
// 128 x 32 input tile in local memory (mirrored at the picture's edges as
// above; 8-byte loads for interior tiles of rows that are 8-byte aligned).
// The work is split over 256 "virtual items"; a work-group of n <= 256 items
// (a power of two) runs 256 / n of them each.
//   vertical:   item (column c in 0..127, row group g in 0..1) makes the five
//               vertical sums of rows 8g .. 8g+7;
//   horizontal: item (row ty in 0..15, group xg in 0..15) scores outputs
//               7xg .. 7xg+6 of row ty.
// Exactness (8-bit: mu round 128, shift 8; moments round 0, shift 0; filter
// 0 symmetric, c[k] = c[16-k], sum 65536): every integer is the reference's.
//  - vertical mu: sum c a <= 65536 * 255 < 2^32; the reference sums in uint32
//    without wrapping, so c[k] a[k] + c[16-k] a[16-k] = c[k] (a[k] + a[16-k])
//    gives the same integer.
//  - vertical moments: sum c a b <= 65536 * 255^2 = 4261478400 < 2^32, so the
//    reference's 64-bit sum fits 32 bits and is stored unchanged (shift 0);
//    every partial sum is nonnegative and at most the total, so the 32-bit
//    sums of the regrouped terms never wrap either.
//  - horizontal mu: sum c m with m = (mu + 128) >> 8 <= 65280 < 2^16: the
//    total is < 2^32, the same regrouping.
//  - horizontal moments: 64-bit sums of c v, v < 2^32, as the reference.
// The per-pixel share is the statistic's above, operation for operation.
#define V2_TX 112
#define V2_TY 16
#define V2_H 8
#define V2_IW 128  // V2_TX + 2 * V2_H
#define V2_IH 32   // V2_TY + 2 * V2_H
#define V2_ROWS 8
#define V2_XS 7
#define V2_VS 144  // row stride of the vertical results
#define V2_ITEMS 256

inline int v2_mirror(int i, int n)
{
    if (i < 0) i = -i;
    if (i >= n) i = 2 * (n - 1) - i;
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

#define V2_TAP(k) ((uint)kVifF0[(k)])

inline void v2_share(int sigma1_sq, int sigma2_sq, int sigma12, vmafx_vif_limit lim, __global const ushort* log2_table,
                     long* num_log, long* den_log, long* num_non, long* den_non)
{
    if (sigma2_sq < 0) sigma2_sq = 0;
    if (sigma1_sq >= VMAFX_VIF_SIGMA_NSQ) {
        *den_log += vif_log2_q11((ulong)((uint)VMAFX_VIF_SIGMA_NSQ + (uint)sigma1_sq), log2_table) - 2048 * 17;
        if (sigma12 > 0 && sigma2_sq > 0) {
            const vmafx_vif_gain g = vmafx_vif_gain_terms(sigma1_sq, sigma12, sigma2_sq, lim);
            const uint noise = (uint)(g.sv_sq + VMAFX_VIF_SIGMA_NSQ);
            const long total = g.gg + (long)noise;
            *num_log += vif_log2_q11((ulong)total, log2_table) - vif_log2_q11((ulong)noise, log2_table);
        }
    } else {
        *num_non += sigma2_sq;
        *den_non += 1;
    }
}

// One row's mu over 7 outputs from 23 local values (paired taps, uint32).
inline void v2_hmu(__local const ushort* src, uint* out)
{
    uint v[V2_XS + 2 * V2_H];
#pragma unroll
    for (int k = 0; k < V2_XS + 2 * V2_H; ++k) v[k] = src[k];
#pragma unroll
    for (int o = 0; o < V2_XS; ++o) {
        uint s = V2_TAP(V2_H) * v[o + V2_H];
#pragma unroll
        for (int k = 0; k < V2_H; ++k) s += V2_TAP(k) * (v[o + k] + v[o + 2 * V2_H - k]);
        out[o] = s;
    }
}

// One moment over 7 outputs: 64-bit sums of c v, rounded from Q16, truncated to 32 bits.
inline void v2_hmoment(__local const uint* src, uint* out)
{
    uint v[V2_XS + 2 * V2_H];
#pragma unroll
    for (int k = 0; k < V2_XS + 2 * V2_H; ++k) v[k] = src[k];
#pragma unroll
    for (int o = 0; o < V2_XS; ++o) {
        ulong s = 0;
#pragma unroll
        for (int k = 0; k < 2 * V2_H + 1; ++k) s += (ulong)V2_TAP(k) * v[o + k];
        out[o] = (uint)((s + 32768) >> 16);
    }
}

inline uint v2_sq(uint u, uint w) { return (uint)(((ulong)u * w + 0x80000000UL) >> 32); }

__kernel void vif_statistic0_v2(__global const uchar* ref, __global const uchar* dis, int w, int h, int vec,
                                ulong limit_bits, __global const ushort* log2_table, __global long* acc,
                                int first_group, __global ushort* o_ref, __global ushort* o_dis)
{
    // The two input tiles (ulong: 8-byte aligned rows); after the vertical
    // pass the same memory holds the reduction (4 x 256 longs).
    __local ulong l_in[2 * V2_IH * V2_IW / 8];
    __local ushort l_m1[V2_TY * V2_VS], l_m2[V2_TY * V2_VS];
    __local uint l_xx[V2_TY * V2_VS], l_yy[V2_TY * V2_VS], l_xy[V2_TY * V2_VS];
    __local uchar* sr = (__local uchar*)l_in;
    __local uchar* sd = sr + V2_IH * V2_IW;
    const int lid = get_local_id(0), nt = get_local_size(0);
    const int x0 = get_group_id(0) * V2_TX, y0 = get_group_id(1) * V2_TY;
    const int xs = x0 - V2_H, ys = y0 - V2_H;  // input tile origin (xs: a multiple of 8)

    if (vec && xs >= 0 && xs + V2_IW <= w && ys >= 0 && ys + V2_IH <= h) {
        // interior: no mirroring; 16 eight-byte words per row and plane
        for (int q = lid; q < V2_IH * (V2_IW / 8); q += nt) {
            const int r = q >> 4, c8 = q & 15;
            const size_t off = (size_t)(ys + r) * (size_t)w + (size_t)(xs + 8 * c8);
            l_in[q] = *(__global const ulong*)(ref + off);
            l_in[V2_IH * (V2_IW / 8) + q] = *(__global const ulong*)(dis + off);
        }
    } else {
        for (int q = lid; q < V2_IH * V2_IW; q += nt) {
            const int r = q >> 7, c = q & 127;
            const size_t off = (size_t)v2_mirror(ys + r, h) * (size_t)w + (size_t)v2_mirror(xs + c, w);
            sr[q] = ref[off];
            sd[q] = dis[off];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int t = lid; t < V2_ITEMS; t += nt) {
        const int c = t & 127, g = t >> 7;
        uint a[V2_ROWS + 2 * V2_H], b[V2_ROWS + 2 * V2_H];
#pragma unroll
        for (int k = 0; k < V2_ROWS + 2 * V2_H; ++k) {
            a[k] = sr[(g * V2_ROWS + k) * V2_IW + c];
            b[k] = sd[(g * V2_ROWS + k) * V2_IW + c];
        }
#pragma unroll
        for (int row = 0; row < V2_ROWS; ++row) {
            uint mu1 = V2_TAP(V2_H) * a[row + V2_H], mu2 = V2_TAP(V2_H) * b[row + V2_H];
            uint xx = V2_TAP(V2_H) * (a[row + V2_H] * a[row + V2_H]);
            uint yy = V2_TAP(V2_H) * (b[row + V2_H] * b[row + V2_H]);
            uint xy = V2_TAP(V2_H) * (a[row + V2_H] * b[row + V2_H]);
#pragma unroll
            for (int k = 0; k < V2_H; ++k) {
                const int j = 2 * V2_H - k;
                const uint ak = a[row + k], aj = a[row + j], bk = b[row + k], bj = b[row + j];
                mu1 += V2_TAP(k) * (ak + aj);
                mu2 += V2_TAP(k) * (bk + bj);
                xx += V2_TAP(k) * (ak * ak + aj * aj);
                yy += V2_TAP(k) * (bk * bk + bj * bj);
                xy += V2_TAP(k) * (ak * bk + aj * bj);
            }
            const int o = (g * V2_ROWS + row) * V2_VS + c;
            l_m1[o] = (ushort)((mu1 + 128u) >> 8);
            l_m2[o] = (ushort)((mu2 + 128u) >> 8);
            l_xx[o] = xx;
            l_yy[o] = yy;
            l_xy[o] = xy;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    long num_log = 0, den_log = 0, num_non = 0, den_non = 0;
    const vmafx_vif_limit lim = vmafx_vif_limit_make(limit_bits);
    for (int t = lid; t < V2_ITEMS; t += nt) {
        const int ty = t >> 4, xb = (t & 15) * V2_XS;
        const int base = ty * V2_VS + xb;
        uint mu1[V2_XS], mu2[V2_XS], f[V2_XS];
        int s1[V2_XS], s2[V2_XS], s12[V2_XS];
        v2_hmu(l_m1 + base, mu1);
        v2_hmu(l_m2 + base, mu2);
        v2_hmoment(l_xy + base, f);
#pragma unroll
        for (int o = 0; o < V2_XS; ++o) s12[o] = (int)(f[o] - v2_sq(mu1[o], mu2[o]));
        v2_hmoment(l_xx + base, f);
#pragma unroll
        for (int o = 0; o < V2_XS; ++o) s1[o] = (int)(f[o] - v2_sq(mu1[o], mu1[o]));
        v2_hmoment(l_yy + base, f);
#pragma unroll
        for (int o = 0; o < V2_XS; ++o) s2[o] = (int)(f[o] - v2_sq(mu2[o], mu2[o]));
        if (y0 + ty < h) {
            for (int o = 0; o < V2_XS; ++o)
                if (x0 + xb + o < w)
                    v2_share(s1[o], s2[o], s12[o], lim, log2_table, &num_log, &den_log, &num_non, &den_non);
        }
    }

    // The subsampling to scale 1 (what vif_subsample does with filter 1 from
    // scale 0), fused: the tile's outputs (x0/2 + j, y0/2 + i), j < 56, i < 8,
    // take input rows y0 + 2i - 4 .. y0 + 2i + 4 and columns x0 + 2j - 4 ..
    // x0 + 2j + 4, all inside the input tile (local rows 4..26, columns
    // 4..122), which holds the same samples as vif_subsample reads (the same
    // reflection). The vertical pass for local columns 4..123 goes to the
    // memory of l_xx, free once every item passed this barrier; the values
    // and widths are vif_subsample's (uint sums < 65536 * 65536, no wrap).
    barrier(CLK_LOCAL_MEM_FENCE);
    __local ushort* l_sub = (__local ushort*)l_xx;  // [plane][row 0..7][column 0..119]
    for (int q = lid; q < 2 * 120; q += nt) {
        const int pl = q >= 120 ? 1 : 0, cc = q - 120 * pl;
        __local const uchar* src = (pl ? sd : sr) + 4 * V2_IW + 4 + cc;
        uint v[23];
#pragma unroll
        for (int k = 0; k < 23; ++k) v[k] = src[k * V2_IW];
#pragma unroll
        for (int i = 0; i < 8; ++i) {
            uint a = 0;
#pragma unroll
            for (int k = 0; k < 9; ++k) a += (uint)kVifF1[k] * v[2 * i + k];
            l_sub[(pl * 8 + i) * 120 + cc] = (ushort)((a + 128u) >> 8);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
        const int ow = w / 2, oh = h / 2, ox0 = x0 / 2, oy0 = y0 / 2;
        for (int q = lid; q < 2 * 8 * 56; q += nt) {
            const int pl = q >= 8 * 56 ? 1 : 0, rem = q - 8 * 56 * pl;
            const int i = rem / 56, j = rem - 56 * i;
            if (ox0 + j < ow && oy0 + i < oh) {
                __local const ushort* src = l_sub + (pl * 8 + i) * 120 + 2 * j;
                uint a = 0;
#pragma unroll
                for (int k = 0; k < 9; ++k) a += (uint)kVifF1[k] * src[k];
                __global ushort* o = pl ? o_dis : o_ref;
                o[(size_t)(oy0 + i) * (size_t)ow + (size_t)(ox0 + j)] = (ushort)((a + 32768) >> 16);
            }
        }
    }

    // l_in is free (the vertical passes were its last readers, before the barrier)
    __local long* red = (__local long*)l_in;
    vif_group_sums(red, V2_ITEMS, num_log, den_log, num_non, den_non, acc, first_group);
}

// ---- Scales 1..3 (and scale 0 above 8 bits), tiled: the "vt" kernels -------
// The tiled scheme of vif_statistic0_v2 for uint16 planes and any of the four
// filters (all symmetric: c[k] = c[T-1-k], sum 65536): vif_stat_t17 (scale 0,
// bpc 9..16), vif_stat_t9 / t5 / t3 (scales 1 / 2 / 3). A work-group scores
// a VT_TX x 16 tile of outputs (VT_TX = 16 * XS) from a (VT_TX + 2H) x
// (16 + 2H) input tile in local memory, H = T / 2, each input sample the
// one vif_mirror gives (one reflection without repeating the edge; every
// scale is at least H + 1 long, so the reference's sequential padding is the
// same reflection), clamped into the plane beyond H (those columns and rows
// reach only outputs outside the plane, which are not scored). So a plane
// narrower or shorter than one tile is mirrored at both of its edges inside
// the tile. 256 "virtual items" as in v2:
//   vertical:   item (row group g in 0..1, column c < IW) makes the five
//               vertical results of tile rows 8g .. 8g+7 at input column c;
//   horizontal: item (row ty in 0..15, group xg in 0..15) scores outputs
//               XS xg .. XS xg + XS-1 of row ty;
//   subsampling (scales 0..2): the next scale's (VT_TX / 2) x 8 samples of
//               the tile, from the same input tile (as in v2).
// Exactness: every integer is the reference's (feature/vif.cpp statistic),
// for any uint16 input (values < 2^16, which is all a ushort holds):
//  - vertical mu: sum c a <= 65536 * 65535 < 2^32, the reference's uint32 sum
//    never wraps, so pairing c[k] a[k] + c[T-1-k] a[T-1-k] = c[k] (a[k] +
//    a[T-1-k]) in uint32 gives the same integer (each partial sum is
//    nonnegative and at most the total). Then (sum + mu_round) >> mu_shift,
//    < 2^32 before the shift (65536 * 65535 + 32768 at most), stored as the
//    reference stores it: truncated to uint16 (a no-op for these values).
//  - vertical moments: the reference forms (uint64)(c * a) * b with c * a <
//    43728 * 65536 < 2^32 (no uint32 wrap), i.e. the exact product, and sums
//    in uint64 (< 65536 * 65535^2 < 2^48, no wrap). Here a * b < 2^32 in
//    uint32 (exact) times c widened to 64 bits: the same exact terms and sum.
//    (sum + sq_round) >> sq_shift truncated to uint32, as the reference.
//  - horizontal mu: sum c m, m < 2^16: as the vertical mu (paired, uint32).
//  - horizontal moments: 64-bit sums of c v, v < 2^32 (< 2^48, exact), then
//    (s + 32768) >> 16 truncated to uint32, as the reference.
//  - subsampling: vif_subsample's integers (uint32 sums of c a, a < 2^16,
//    < 2^32: no wrap), rounded with the statistic's vertical mu_round and
//    mu_shift, then (s + 32768) >> 16; rows and columns of the input tile.
// The per-pixel share is v2_share (the statistic's, operation for operation)
// and the group's four sums go to the same `partial` layout as vif_statistic.
#define VT_TY 16
#define VT_ROWS 8
#define VT_ITEMS 256
#define VT_MAXH 8
#define VT_MAXXS 7
#define VT_RED_BYTES (4 * VT_ITEMS * 8)

inline uint vt_tap(int filter, int k)
{
    if (filter == 0) return (uint)kVifF0[k];
    if (filter == 1) return (uint)kVifF1[k];
    if (filter == 2) return (uint)kVifF2[k];
    return (uint)kVifF3[k];
}

// filter, H = taps / 2, XS (outputs per horizontal item), VS (row stride of
// the vertical results) and sub (the subsampling's filter, or -1: none) are
// constants at every call, so the loops unroll and the arrays stay in
// registers. IW = 16 XS + 2H input columns, IH = 16 + 2H input rows.
static __attribute__((always_inline)) inline void vt_body(__global const ushort* ref, __global const ushort* dis, int w, int h, uint mu_round,
                    int mu_shift, ulong sq_round, int sq_shift, ulong limit_bits,
                    __global const ushort* log2_table, __global long* acc, int first_group,
                    __global ushort* o_ref, __global ushort* o_dis, __local ushort* sr, __local ushort* sd,
                    __local ushort* l_m1, __local ushort* l_m2, __local uint* l_xx, __local uint* l_yy,
                    __local uint* l_xy, __local long* red, const int filter, const int H, const int XS,
                    const int VS, const int sub)
{
    const int TX = 16 * XS, IW = TX + 2 * H, IH = VT_TY + 2 * H;
    const int lid = get_local_id(0), nt = get_local_size(0);
    const int x0 = get_group_id(0) * TX, y0 = get_group_id(1) * VT_TY;
    const int xs = x0 - H, ys = y0 - H;  // input tile origin

    for (int q = lid; q < IH * IW; q += nt) {
        const int r = q / IW, c = q - r * IW;
        const size_t off = (size_t)v2_mirror(ys + r, h) * (size_t)w + (size_t)v2_mirror(xs + c, w);
        sr[q] = ref[off];
        sd[q] = dis[off];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int t = lid; t < 2 * IW; t += nt) {
        const int g = t / IW, c = t - g * IW;
        uint a[VT_ROWS + 2 * VT_MAXH], b[VT_ROWS + 2 * VT_MAXH];
#pragma unroll
        for (int k = 0; k < VT_ROWS + 2 * H; ++k) {
            a[k] = sr[(g * VT_ROWS + k) * IW + c];
            b[k] = sd[(g * VT_ROWS + k) * IW + c];
        }
#pragma unroll
        for (int row = 0; row < VT_ROWS; ++row) {
            const uint ch = vt_tap(filter, H), am = a[row + H], bm = b[row + H];
            uint mu1 = ch * am, mu2 = ch * bm;
            ulong xx = (ulong)ch * (am * am), yy = (ulong)ch * (bm * bm), xy = (ulong)ch * (am * bm);
#pragma unroll
            for (int k = 0; k < H; ++k) {
                const uint ck = vt_tap(filter, k);
                const uint ak = a[row + k], aj = a[row + 2 * H - k], bk = b[row + k], bj = b[row + 2 * H - k];
                mu1 += ck * (ak + aj);
                mu2 += ck * (bk + bj);
                xx += (ulong)ck * (ak * ak);
                xx += (ulong)ck * (aj * aj);
                yy += (ulong)ck * (bk * bk);
                yy += (ulong)ck * (bj * bj);
                xy += (ulong)ck * (ak * bk);
                xy += (ulong)ck * (aj * bj);
            }
            const int o = (g * VT_ROWS + row) * VS + c;
            l_m1[o] = (ushort)((mu1 + mu_round) >> mu_shift);
            l_m2[o] = (ushort)((mu2 + mu_round) >> mu_shift);
            l_xx[o] = (uint)((xx + sq_round) >> sq_shift);
            l_yy[o] = (uint)((yy + sq_round) >> sq_shift);
            l_xy[o] = (uint)((xy + sq_round) >> sq_shift);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    long num_log = 0, den_log = 0, num_non = 0, den_non = 0;
    const vmafx_vif_limit lim = vmafx_vif_limit_make(limit_bits);
    for (int t = lid; t < VT_ITEMS; t += nt) {
        const int ty = t >> 4, xb = (t & 15) * XS;
        const int base = ty * VS + xb;
        uint mu1[VT_MAXXS], mu2[VT_MAXXS], v[VT_MAXXS + 2 * VT_MAXH];
        int s1[VT_MAXXS], s2[VT_MAXXS], s12[VT_MAXXS];
        // mu (paired taps, uint32)
#pragma unroll
        for (int k = 0; k < XS + 2 * H; ++k) v[k] = l_m1[base + k];
#pragma unroll
        for (int o = 0; o < XS; ++o) {
            uint s = vt_tap(filter, H) * v[o + H];
#pragma unroll
            for (int k = 0; k < H; ++k) s += vt_tap(filter, k) * (v[o + k] + v[o + 2 * H - k]);
            mu1[o] = s;
        }
#pragma unroll
        for (int k = 0; k < XS + 2 * H; ++k) v[k] = l_m2[base + k];
#pragma unroll
        for (int o = 0; o < XS; ++o) {
            uint s = vt_tap(filter, H) * v[o + H];
#pragma unroll
            for (int k = 0; k < H; ++k) s += vt_tap(filter, k) * (v[o + k] + v[o + 2 * H - k]);
            mu2[o] = s;
        }
        // moments: 64-bit sums of c v, rounded from Q16, truncated to 32 bits
#pragma unroll
        for (int k = 0; k < XS + 2 * H; ++k) v[k] = l_xy[base + k];
#pragma unroll
        for (int o = 0; o < XS; ++o) {
            ulong s = 0;
#pragma unroll
            for (int k = 0; k < 2 * H + 1; ++k) s += (ulong)vt_tap(filter, k) * v[o + k];
            s12[o] = (int)((uint)((s + 32768) >> 16) - v2_sq(mu1[o], mu2[o]));
        }
#pragma unroll
        for (int k = 0; k < XS + 2 * H; ++k) v[k] = l_xx[base + k];
#pragma unroll
        for (int o = 0; o < XS; ++o) {
            ulong s = 0;
#pragma unroll
            for (int k = 0; k < 2 * H + 1; ++k) s += (ulong)vt_tap(filter, k) * v[o + k];
            s1[o] = (int)((uint)((s + 32768) >> 16) - v2_sq(mu1[o], mu1[o]));
        }
#pragma unroll
        for (int k = 0; k < XS + 2 * H; ++k) v[k] = l_yy[base + k];
#pragma unroll
        for (int o = 0; o < XS; ++o) {
            ulong s = 0;
#pragma unroll
            for (int k = 0; k < 2 * H + 1; ++k) s += (ulong)vt_tap(filter, k) * v[o + k];
            s2[o] = (int)((uint)((s + 32768) >> 16) - v2_sq(mu2[o], mu2[o]));
        }
        if (y0 + ty < h) {
            for (int o = 0; o < XS; ++o)
                if (x0 + xb + o < w)
                    v2_share(s1[o], s2[o], s12[o], lim, log2_table, &num_log, &den_log, &num_non, &den_non);
        }
    }

    if (sub >= 0) {
        // The subsampling to the next scale (vif_subsample with filter sub),
        // fused: outputs (x0/2 + j, y0/2 + i), j < TX/2, i < 8, take input
        // rows y0 + 2i - HS .. y0 + 2i + HS and columns x0 + 2j - HS .. x0 + 2j
        // + HS (HS = the sub filter's half width < H), local rows H - HS + 2i
        // + k and columns H - HS + 2j + k: inside the input tile, and within
        // H of the plane (2 (x0/2 + j) <= w - 2), where it holds what
        // vif_subsample reads. The vertical pass (NC = TX - 1 + 2 HS columns
        // by 8 rows, both planes) goes to the memory of l_xx, free once every
        // item passed this barrier.
        const int HS = sub == 1 ? 4 : sub == 2 ? 2 : 1, NC = TX - 1 + 2 * HS;
        barrier(CLK_LOCAL_MEM_FENCE);
        __local ushort* l_sub = (__local ushort*)l_xx;  // [plane][row 0..7][column 0..NC-1]
        for (int q = lid; q < 2 * NC; q += nt) {
            const int pl = q >= NC ? 1 : 0, cc = q - NC * pl;
            __local const ushort* src = (pl ? sd : sr) + (H - HS) * IW + (H - HS) + cc;
            uint v[VT_ROWS * 2 + 2 * 4];
#pragma unroll
            for (int k = 0; k < 2 * VT_ROWS - 1 + 2 * HS; ++k) v[k] = src[k * IW];
#pragma unroll
            for (int i = 0; i < VT_ROWS; ++i) {
                uint a = 0;
#pragma unroll
                for (int k = 0; k < 2 * HS + 1; ++k) a += vt_tap(sub, k) * v[2 * i + k];
                l_sub[(pl * VT_ROWS + i) * NC + cc] = (ushort)((a + mu_round) >> mu_shift);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int ow = w / 2, oh = h / 2, ox0 = x0 / 2, oy0 = y0 / 2, OW = TX / 2;
        for (int q = lid; q < 2 * VT_ROWS * OW; q += nt) {
            const int pl = q >= VT_ROWS * OW ? 1 : 0, rem = q - VT_ROWS * OW * pl;
            const int i = rem / OW, j = rem - OW * i;
            if (ox0 + j < ow && oy0 + i < oh) {
                __local const ushort* src = l_sub + (pl * VT_ROWS + i) * NC + 2 * j;
                uint a = 0;
#pragma unroll
                for (int k = 0; k < 2 * HS + 1; ++k) a += vt_tap(sub, k) * src[k];
                __global ushort* o = pl ? o_dis : o_ref;
                o[(size_t)(oy0 + i) * (size_t)ow + (size_t)(ox0 + j)] = (ushort)((a + 32768) >> 16);
            }
        }
    }

    // red: the input tile's memory, free once every item passed this barrier
    barrier(CLK_LOCAL_MEM_FENCE);
    vif_group_sums(red, VT_ITEMS, num_log, den_log, num_non, den_non, acc, first_group);
}

// One kernel per filter: NAME, filter, H, XS, VS, sub. Local memory: the two
// input tiles (ushort; also the reduction, VT_RED_BYTES), the two mu planes
// (ushort) and the three moment planes (uint) of 16 x VS vertical results.
#define VT_IN_BYTES(H, XS) (2 * (VT_TY + 2 * (H)) * (16 * (XS) + 2 * (H)) * 2)
#define VT_IN_WORDS(H, XS) \
    (((VT_IN_BYTES(H, XS) > VT_RED_BYTES ? VT_IN_BYTES(H, XS) : VT_RED_BYTES) + 7) / 8)
#define VT_KERNEL(NAME, FILTER, H, XS, VS, SUB)                                                                   \
    __kernel void NAME(__global const ushort* ref, __global const ushort* dis, int w, int h, uint mu_round,      \
                       int mu_shift, ulong sq_round, int sq_shift, ulong limit_bits,                              \
                       __global const ushort* log2_table, __global long* acc, int first_group,                    \
                       __global ushort* o_ref, __global ushort* o_dis)                                            \
    {                                                                                                             \
        __local ulong l_in[VT_IN_WORDS(H, XS)];                                                                   \
        __local ushort l_m1[VT_TY * (VS)], l_m2[VT_TY * (VS)];                                                    \
        __local uint l_xx[VT_TY * (VS)], l_yy[VT_TY * (VS)], l_xy[VT_TY * (VS)];                                  \
        __local ushort* sr = (__local ushort*)l_in;                                                               \
        vt_body(ref, dis, w, h, mu_round, mu_shift, sq_round, sq_shift, limit_bits, log2_table, acc, first_group, \
                o_ref, o_dis, sr, sr + (VT_TY + 2 * (H)) * (16 * (XS) + 2 * (H)), l_m1, l_m2, l_xx, l_yy, l_xy,   \
                (__local long*)l_in, FILTER, H, XS, VS, SUB);                                                     \
    }

VT_KERNEL(vif_stat_t17, 0, 8, 6, 112, 1)
VT_KERNEL(vif_stat_t9, 1, 4, 7, 120, 2)
VT_KERNEL(vif_stat_t5, 2, 2, 7, 116, 3)
VT_KERNEL(vif_stat_t3, 3, 1, 7, 114, -1)

// The v2 path's last step: work-group s (0..3) adds scale s's per-group sums,
// acc[(first + g) * 4 + j] for g < count, into out[s * 4 + j], so 128 bytes
// are read back instead of every group's sums. Integer additions: any order
// gives the host's sums (each fits int64 as the reference's accumulators do).
__kernel void vif_reduce_v2(__global const long* acc, int first0, int count0, int first1, int count1, int first2,
                            int count2, int first3, int count3, __global long* out)
{
    __local long red[4][VIF_WG];
    const int s = get_group_id(0), lid = get_local_id(0), nt = get_local_size(0);
    const int first = s == 0 ? first0 : s == 1 ? first1 : s == 2 ? first2 : first3;
    const int count = s == 0 ? count0 : s == 1 ? count1 : s == 2 ? count2 : count3;
    long t0 = 0, t1 = 0, t2 = 0, t3 = 0;
    for (int g = lid; g < count; g += nt) {
        const size_t i = ((size_t)first + (size_t)g) * 4;
        t0 += acc[i];
        t1 += acc[i + 1];
        t2 += acc[i + 2];
        t3 += acc[i + 3];
    }
    red[0][lid] = t0;
    red[1][lid] = t1;
    red[2][lid] = t2;
    red[3][lid] = t3;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = nt / 2; k > 0; k >>= 1) {
        if (lid < k) {
            red[0][lid] += red[0][lid + k];
            red[1][lid] += red[1][lid + k];
            red[2][lid] += red[2][lid + k];
            red[3][lid] += red[3][lid + k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        out[s * 4] = red[0][0];
        out[s * 4 + 1] = red[1][0];
        out[s * 4 + 2] = red[2][0];
        out[s * 4 + 3] = red[3][0];
    }
}
