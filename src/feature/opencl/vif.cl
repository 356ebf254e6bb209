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

// One scale's statistic. A work-group covers a tile of tw x th pixels: it
// first forms the vertical pass of its rows for the tile's columns and the
// filter's halo (mirrored at the picture's edges) in local memory, then the
// horizontal pass, each pixel's sigmas and its share of the four sums, and
// reduces them: acc[(first_group + group) * 4 + {num_log, den_log,
// num_non_log, den_non_log}], groups numbered row by row.
#define VIF_TILE_W 64
#define VIF_TILE_H 4
#define VIF_HALO 8
#define VIF_LW (VIF_TILE_W + 2 * VIF_HALO)

__kernel void vif_statistic(__global const uchar* ref, __global const uchar* dis, int w, int h, int kind,
                            int filter, uint mu_round, int mu_shift, ulong sq_round, int sq_shift,
                            ulong limit_bits, __global const ushort* log2_table, __global long* acc,
                            int first_group)
{
    __local uint l_mu1[VIF_TILE_H][VIF_LW], l_mu2[VIF_TILE_H][VIF_LW], l_xx[VIF_TILE_H][VIF_LW],
        l_yy[VIF_TILE_H][VIF_LW], l_xy[VIF_TILE_H][VIF_LW];
    __local long red[4][VIF_WG];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int tw = get_local_size(0), th = get_local_size(1);
    const int x = get_global_id(0), y = get_global_id(1);
    const int taps = vif_width(filter), half_w = taps / 2;
    const int x0 = get_group_id(0) * tw;

    for (int c = lx; c < tw + 2 * half_w; c += tw) {
        const int gx = x0 - half_w + c;
        uint mu1 = 0, mu2 = 0;
        ulong xx = 0, yy = 0, xy = 0;
        if (y < h && gx >= -half_w && gx <= w - 1 + half_w) {
            const int sx = vif_mirror(gx, w);
            for (int k = 0; k < taps; ++k) {
                const int r = vif_mirror(y - half_w + k, h);
                const uint a = vif_sample(ref, w, sx, r, kind), b = vif_sample(dis, w, sx, r, kind);
                const uint cf = vif_tap(filter, k);
                const uint ca = cf * a, cb = cf * b;
                mu1 += ca;
                mu2 += cb;
                xx += (ulong)ca * a;
                yy += (ulong)cb * b;
                xy += (ulong)ca * b;
            }
        }
        l_mu1[ly][c] = (ushort)((mu1 + mu_round) >> mu_shift);
        l_mu2[ly][c] = (ushort)((mu2 + mu_round) >> mu_shift);
        l_xx[ly][c] = (uint)((xx + sq_round) >> sq_shift);
        l_yy[ly][c] = (uint)((yy + sq_round) >> sq_shift);
        l_xy[ly][c] = (uint)((xy + sq_round) >> sq_shift);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    long num_log = 0, den_log = 0, num_non = 0, den_non = 0;
    if (x < w && y < h) {
        uint mu1 = 0, mu2 = 0;
        ulong xx = 0, yy = 0, xy = 0;
        for (int k = 0; k < taps; ++k) {
            const int c = lx + k;
            const uint cf = vif_tap(filter, k);
            mu1 += cf * l_mu1[ly][c];
            mu2 += cf * l_mu2[ly][c];
            xx += (ulong)cf * l_xx[ly][c];
            yy += (ulong)cf * l_yy[ly][c];
            xy += (ulong)cf * l_xy[ly][c];
        }
        const uint xx_f = (uint)((xx + 32768) >> 16);
        const uint yy_f = (uint)((yy + 32768) >> 16);
        const uint xy_f = (uint)((xy + 32768) >> 16);
        const uint m11 = (uint)(((ulong)mu1 * mu1 + 0x80000000UL) >> 32);
        const uint m22 = (uint)(((ulong)mu2 * mu2 + 0x80000000UL) >> 32);
        const uint m12 = (uint)(((ulong)mu1 * mu2 + 0x80000000UL) >> 32);
        const int sigma1_sq = (int)(xx_f - m11);
        int sigma2_sq = (int)(yy_f - m22);
        const int sigma12 = (int)(xy_f - m12);
        if (sigma2_sq < 0) sigma2_sq = 0;
        if (sigma1_sq >= VMAFX_VIF_SIGMA_NSQ) {
            den_log = vif_log2_q11((ulong)((uint)VMAFX_VIF_SIGMA_NSQ + (uint)sigma1_sq), log2_table) - 2048 * 17;
            if (sigma12 > 0 && sigma2_sq > 0) {
                const vmafx_vif_gain g =
                    vmafx_vif_gain_terms(sigma1_sq, sigma12, sigma2_sq, vmafx_vif_limit_make(limit_bits));
                const uint noise = (uint)(g.sv_sq + VMAFX_VIF_SIGMA_NSQ);
                const long total = g.gg + (long)noise;
                num_log = vif_log2_q11((ulong)total, log2_table) - vif_log2_q11((ulong)noise, log2_table);
            }
        } else {
            num_non = sigma2_sq;
            den_non = 1;
        }
    }
    const int lid = ly * tw + lx, n = tw * th;
    red[0][lid] = num_log;
    red[1][lid] = den_log;
    red[2][lid] = num_non;
    red[3][lid] = den_non;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s >>= 1) {
        if (lid < s) {
            red[0][lid] += red[0][lid + s];
            red[1][lid] += red[1][lid + s];
            red[2][lid] += red[2][lid + s];
            red[3][lid] += red[3][lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        const size_t g = (first_group + get_group_id(1) * get_num_groups(0) + get_group_id(0)) * 4;
        acc[g] = red[0][0];
        acc[g + 1] = red[1][0];
        acc[g + 2] = red[2][0];
        acc[g + 3] = red[3][0];
    }
}

// Subsampling: scale `from` low-passed with filter from + 1 at the even rows
// and columns, (w / 2) x (h / 2) uint16 samples. A work-group covers a tile
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
