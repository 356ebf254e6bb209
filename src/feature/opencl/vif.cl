// SPDX-License-Identifier: BSD-3-Clause
// Integer VIF ("vif") on an OpenCL device, without fp64. Everything is integer
// arithmetic as in the reference (feature/vif.cpp) except the gain terms of a
// log-branch pixel, which exact/vif_gain.h computes exactly (integer division
// with error zones, soft-fp64 replay). The per-pixel and tile arithmetic is
// src/exact's (vif.h, vif_tile.h: the CPU's and the CUDA twin's too); here are
// the kernels' loads, loops over items, barriers and reductions. Each
// work-group reduces its pixels' four int64 accumulators; the host adds the
// groups' sums (integers, so any order gives the reference's sums) and
// finishes as the reference does.
#pragma OPENCL FP_CONTRACT OFF

#include "exact/vif_tile.h"

// The statistic reduces over a power-of-two work-group of at most VIF_WG items.
#define VIF_WG 256

inline uint vif_sample(__global const uchar* p, int w, int x, int y, int kind)
{
    // kind 0: 8-bit samples; 1: 16-bit
    if (kind) return (uint)((__global const ushort*)p)[(size_t)y * w + x];
    return (uint)p[(size_t)y * w + x];
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
    const int taps = vmafx_vif_taps(filter), half_w = taps / 2;
    const int xs = 2 * (int)get_group_id(0) * tw - half_w;  // input column of local column 0
    const int ncols = 2 * tw - 1 + 2 * half_w;
    for (int c = lx; c < ncols; c += tw) {
        const int gx = xs + c;
        uint a = 0, b = 0;
        if (yo < oh && gx >= -half_w && gx <= w - 1 + half_w) {
            const int sx = vmafx_vif_mirror(gx, w);
            const int y = 2 * yo;
            for (int k = 0; k < taps; ++k) {
                const int r = vmafx_vif_mirror(y - half_w + k, h);
                const uint cf = vmafx_vif_tap(filter, k);
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
        const uint cf = vmafx_vif_tap(filter, k);
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
inline void vif_group_sums(__local long* red, int stride, vmafx_vif_sums s, __global long* acc, int first_group)
{
    const int lid = get_local_id(0), nt = get_local_size(0);
    red[lid] = s.num_log;
    red[stride + lid] = s.den_log;
    red[2 * stride + lid] = s.num_non_log;
    red[3 * stride + lid] = s.den_non_log;
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

// ---- Tiled statistics ---------------------------------------------------------
// A work-group scores a tile of vif_tile.h (TX x 16 outputs from an input tile
// in local memory, 256 items) with n <= 256 work items (a power of two), each
// running 256 / n items; scale 0 of 8-bit input by the v2 kernel, the other
// statistics by the vt kernels. Both make the next scale's samples of the tile
// too (vif_tile_subsample), so only the skip_scale0 path runs vif_subsample.

// Sample i of a local input tile of 8-bit (bytes 1) or 16-bit samples.
static __attribute__((always_inline)) inline uint vif_tile_at(__local const void* p, int bytes, int i)
{
    return bytes == 1 ? (uint)((__local const uchar*)p)[i] : (uint)((__local const ushort*)p)[i];
}

// The horizontal items: each item's sigmas (filter f, half width H, XS
// outputs, vertical results of row stride VS) and the shares of its outputs
// inside the w x h plane (tile origin x0, y0) into *sums.
static __attribute__((always_inline)) inline void vif_tile_score(
    __local const ushort* l_m1, __local const ushort* l_m2, __local const uint* l_xx, __local const uint* l_yy,
    __local const uint* l_xy, const int f, const int H, const int XS, const int VS, int x0, int y0, int w, int h,
    vmafx_vif_limit lim, __global const ushort* log2_table, vmafx_vif_sums* sums)
{
    const int lid = get_local_id(0), nt = get_local_size(0);
    for (int t = lid; t < VMAFX_VIF_TILE_ITEMS; t += nt) {
        const int ty = t >> 4, xb = (t & 15) * XS, o = ty * VS + xb;  // 16 items per row
        int s1[VMAFX_VIF_TILE_MAXXS], s2[VMAFX_VIF_TILE_MAXXS], s12[VMAFX_VIF_TILE_MAXXS];
        vmafx_vif_tile_horizontal(l_m1 + o, l_m2 + o, l_xx + o, l_yy + o, l_xy + o, f, H, XS, s1, s2, s12);
        if (y0 + ty < h) {
            for (int j = 0; j < XS; ++j)
                if (x0 + xb + j < w) vmafx_vif_accumulate(sums, s1[j], s2[j], s12[j], log2_table, lim);
        }
    }
}

// The subsampling to the next scale (vif_subsample with filter sub), fused
// into a tiled statistic: outputs (x0/2 + j, y0/2 + i), j < TX/2, i < 8, take
// input rows y0 + 2i - HS .. y0 + 2i + HS and columns x0 + 2j - HS .. x0 + 2j
// + HS (HS = the sub filter's half width < H), local rows H - HS + 2i + k and
// columns H - HS + 2j + k: inside the input tile (sr, sd: IW columns of
// `bytes`-byte samples), and within H of the plane (2 (x0/2 + j) <= w - 2),
// where it holds what vif_subsample reads. The integers are vif_subsample's
// (uint32 sums of c a, a < 2^16, < 2^32: no wrap, rounded with the
// statistic's vertical mu_round and mu_shift, then (s + 32768) >> 16). The
// vertical pass (NC = TX - 1 + 2 HS columns by 8 rows, both planes) goes to
// l_sub: the moments' memory, free once every item passed the first barrier.
// bytes, IW, H, TX and sub: constants.
static __attribute__((always_inline)) inline void vif_tile_subsample(
    __local const void* sr, __local const void* sd, const int bytes, const int IW, const int H, const int TX,
    const int sub, uint mu_round, int mu_shift, int x0, int y0, int w, int h, __local ushort* l_sub,
    __global ushort* o_ref, __global ushort* o_dis)
{
    const int lid = get_local_id(0), nt = get_local_size(0), R = VMAFX_VIF_TILE_ROWS;
    const int HS = sub == 1 ? 4 : sub == 2 ? 2 : 1, NC = TX - 1 + 2 * HS;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int q = lid; q < 2 * NC; q += nt) {
        const int pl = q >= NC ? 1 : 0, cc = q - NC * pl;
        const int at = (H - HS) * IW + (H - HS) + cc;
        uint v[2 * VMAFX_VIF_TILE_ROWS + 2 * 4];
#pragma unroll
        for (int k = 0; k < 2 * R - 1 + 2 * HS; ++k) v[k] = vif_tile_at(pl ? sd : sr, bytes, at + k * IW);
#pragma unroll
        for (int i = 0; i < R; ++i) {
            uint a = 0;
#pragma unroll
            for (int k = 0; k < 2 * HS + 1; ++k) a += vmafx_vif_tap(sub, k) * v[2 * i + k];
            l_sub[(pl * R + i) * NC + cc] = (ushort)((a + mu_round) >> mu_shift);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int ow = w / 2, oh = h / 2, ox0 = x0 / 2, oy0 = y0 / 2, OW = TX / 2;
    for (int q = lid; q < 2 * R * OW; q += nt) {
        const int pl = q >= R * OW ? 1 : 0, rem = q - R * OW * pl;
        const int i = rem / OW, j = rem - OW * i;
        if (ox0 + j < ow && oy0 + i < oh) {
            __local const ushort* src = l_sub + (pl * R + i) * NC + 2 * j;
            uint a = 0;
#pragma unroll
            for (int k = 0; k < 2 * HS + 1; ++k) a += vmafx_vif_tap(sub, k) * src[k];
            __global ushort* o = pl ? o_dis : o_ref;
            o[(size_t)(oy0 + i) * (size_t)ow + (size_t)(ox0 + j)] = (ushort)((a + 32768) >> 16);
        }
    }
}

// Scale 0, 8-bit: the "v2" tile (112 x 16 outputs from 128 x 32 samples, the
// CUDA kernel's), mirrored at the picture's edges, 8-byte loads for interior
// tiles of rows that are 8-byte aligned; it also makes scale 1.
__kernel void vif_statistic0_v2(__global const uchar* ref, __global const uchar* dis, int w, int h, int vec,
                                ulong limit_bits, __global const ushort* log2_table, __global long* acc,
                                int first_group, __global ushort* o_ref, __global ushort* o_dis)
{
    const int IW = VMAFX_VIF_V2_IW, IH = VMAFX_VIF_V2_IH, VS = VMAFX_VIF_V2_VS;
    // The two input tiles (ulong: 8-byte aligned rows); after the subsampling's
    // vertical pass the same memory holds the reduction (4 x 256 longs).
    __local ulong l_in[2 * VMAFX_VIF_V2_IH * VMAFX_VIF_V2_IW / 8];
    __local ushort l_m1[VMAFX_VIF_TILE_TY * VMAFX_VIF_V2_VS], l_m2[VMAFX_VIF_TILE_TY * VMAFX_VIF_V2_VS];
    __local uint l_xx[VMAFX_VIF_TILE_TY * VMAFX_VIF_V2_VS], l_yy[VMAFX_VIF_TILE_TY * VMAFX_VIF_V2_VS],
        l_xy[VMAFX_VIF_TILE_TY * VMAFX_VIF_V2_VS];
    __local uchar* sr = (__local uchar*)l_in;
    __local uchar* sd = sr + IH * IW;
    const int lid = get_local_id(0), nt = get_local_size(0);
    const int x0 = get_group_id(0) * VMAFX_VIF_V2_TX, y0 = get_group_id(1) * VMAFX_VIF_TILE_TY;
    const int xs = x0 - VMAFX_VIF_V2_H, ys = y0 - VMAFX_VIF_V2_H;  // input tile origin (xs: a multiple of 8)

    if (vec && xs >= 0 && xs + IW <= w && ys >= 0 && ys + IH <= h) {
        // interior: no mirroring; 16 eight-byte words per row and plane
        for (int q = lid; q < IH * (IW / 8); q += nt) {
            const int r = q >> 4, c8 = q & 15;
            const size_t off = (size_t)(ys + r) * (size_t)w + (size_t)(xs + 8 * c8);
            l_in[q] = *(__global const ulong*)(ref + off);
            l_in[IH * (IW / 8) + q] = *(__global const ulong*)(dis + off);
        }
    } else {
        for (int q = lid; q < IH * IW; q += nt) {
            const int r = q >> 7, c = q & 127;
            const size_t off = (size_t)vmafx_vif_mirror(ys + r, h) * (size_t)w + (size_t)vmafx_vif_mirror(xs + c, w);
            sr[q] = ref[off];
            sd[q] = dis[off];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = lid; t < VMAFX_VIF_TILE_ITEMS; t += nt) vmafx_vif_v2_vertical(t, sr, sd, l_m1, l_m2, l_xx, l_yy, l_xy);
    barrier(CLK_LOCAL_MEM_FENCE);

    vmafx_vif_sums sums = {0, 0, 0, 0};
    vif_tile_score(l_m1, l_m2, l_xx, l_yy, l_xy, 0, VMAFX_VIF_V2_H, VMAFX_VIF_V2_XS, VS, x0, y0, w, h,
                   vmafx_vif_limit_make(limit_bits), log2_table, &sums);
    // bpc 8, scale 0: mu round 128, shift 8
    vif_tile_subsample(sr, sd, 1, IW, VMAFX_VIF_V2_H, VMAFX_VIF_V2_TX, 1, 128u, 8, x0, y0, w, h,
                       (__local ushort*)l_xx, o_ref, o_dis);
    // l_in is free (the subsampling's vertical pass was its last reader, before its barrier)
    vif_group_sums((__local long*)l_in, VMAFX_VIF_TILE_ITEMS, sums, acc, first_group);
}

// Scales 1..3 and scale 0 above 8 bits: the "vt" tiles of uint16 samples,
// one kernel per filter: vif_stat_t17 (scale 0, bpc 9..16), vif_stat_t9 / t5 /
// t3 (scales 1 / 2 / 3), each but t3 making the next scale. Every sample of
// the input tile is the one vmafx_vif_mirror gives: every scale is at least
// H + 1 long, so the reference's sequential padding is the same reflection,
// and a plane narrower or shorter than a tile is mirrored at both of its edges
// inside the tile. filter, H, XS, VS and sub (the subsampling's filter, or -1:
// none) are constants at every call, so the loops unroll and the arrays stay in
// registers.
static __attribute__((always_inline)) inline void vt_body(
    __global const ushort* ref, __global const ushort* dis, int w, int h, uint mu_round, int mu_shift,
    ulong sq_round, int sq_shift, ulong limit_bits, __global const ushort* log2_table, __global long* acc,
    int first_group, __global ushort* o_ref, __global ushort* o_dis, __local ushort* sr, __local ushort* sd,
    __local ushort* l_m1, __local ushort* l_m2, __local uint* l_xx, __local uint* l_yy, __local uint* l_xy,
    __local long* red, const int filter, const int H, const int XS, const int VS, const int sub)
{
    const int TX = 16 * XS, IW = TX + 2 * H, IH = VMAFX_VIF_TILE_TY + 2 * H;
    const int lid = get_local_id(0), nt = get_local_size(0);
    const int x0 = get_group_id(0) * TX, y0 = get_group_id(1) * VMAFX_VIF_TILE_TY;
    const int xs = x0 - H, ys = y0 - H;  // input tile origin

    for (int q = lid; q < IH * IW; q += nt) {
        const int r = q / IW, c = q - r * IW;
        const size_t off = (size_t)vmafx_vif_mirror(ys + r, h) * (size_t)w + (size_t)vmafx_vif_mirror(xs + c, w);
        sr[q] = ref[off];
        sd[q] = dis[off];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = lid; t < 2 * IW; t += nt)
        vmafx_vif_vt_vertical(t, sr, sd, l_m1, l_m2, l_xx, l_yy, l_xy, filter, H, XS, VS, mu_round, mu_shift, sq_round,
                              sq_shift);
    barrier(CLK_LOCAL_MEM_FENCE);

    vmafx_vif_sums sums = {0, 0, 0, 0};
    vif_tile_score(l_m1, l_m2, l_xx, l_yy, l_xy, filter, H, XS, VS, x0, y0, w, h, vmafx_vif_limit_make(limit_bits),
                   log2_table, &sums);
    if (sub >= 0)
        vif_tile_subsample(sr, sd, 2, IW, H, TX, sub, mu_round, mu_shift, x0, y0, w, h, (__local ushort*)l_xx, o_ref,
                           o_dis);
    // red: the input tile's memory, free once every item passed this barrier
    barrier(CLK_LOCAL_MEM_FENCE);
    vif_group_sums(red, VMAFX_VIF_TILE_ITEMS, sums, acc, first_group);
}

// One kernel per filter: NAME, filter, H, XS, VS, sub. Local memory: the two
// input tiles (ushort; also the reduction, VT_RED_BYTES), the two mu planes
// (ushort) and the three moment planes (uint) of 16 x VS vertical results.
#define VT_TY VMAFX_VIF_TILE_TY
#define VT_RED_BYTES (4 * VMAFX_VIF_TILE_ITEMS * 8)
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
