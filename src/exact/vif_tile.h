/* SPDX-License-Identifier: BSD-3-Clause */
/* The tiled integer VIF statistic's arithmetic, written once for the CUDA
 * scale-0 "v2" kernel (feature/cuda/vif.cu), the OpenCL v2 and "vt" kernels
 * (feature/opencl/vif.cl) and a host test that runs the CUDA tiling on the
 * CPU (tests/unit/vif_tiling_test.cpp). The loads, barriers and reductions
 * stay with the kernels; the functions here are one work item's share of a
 * pass, over tiles in shared (CUDA) or local (OpenCL) memory.
 *
 * A tile: VMAFX_VIF_TILE_TY (16) rows of TX = 16 XS outputs, from an input tile
 * of IH = 16 + 2H rows by IW = TX + 2H columns (H: the filter's half width),
 * each sample the one vmafx_vif_mirror gives. 256 items:
 *   vertical:   item (row group g in 0..1, column c < IW) makes the five
 *               vertical results of tile rows 8g .. 8g+7 at input column c
 *               (mu1, mu2 in uint16 planes, the moments in uint32 planes of
 *               16 rows, row stride VS >= IW);
 *   horizontal: item (row ty in 0..15, group xg in 0..15) scores outputs
 *               XS xg .. XS xg + XS-1 of row ty.
 * v2 is the tile of 8-bit samples and filter 0 (H 8, XS 7: 112 x 16 outputs
 * from 128 x 32 samples); vt any filter over uint16 samples.
 *
 * Exactness: every integer is the reference's (feature/vif.cpp statistic).
 * The filters are symmetric (c[k] = c[T-1-k]) and sum to 65536.
 *  - vertical mu: sum c a <= 65536 * 65535 < 2^32, so the reference's uint32
 *    sum never wraps and pairing c[k] a[k] + c[T-1-k] a[T-1-k] = c[k] (a[k] +
 *    a[T-1-k]) in uint32 gives the same integer (every partial sum is
 *    nonnegative and at most the total). (sum + mu_round) >> mu_shift is
 *    stored truncated to uint16 as the reference stores it.
 *  - vertical moments, v2 (bpc 8: round 0, shift 0): sum c a b <= 65536 *
 *    255^2 = 4261478400 < 2^32, so the reference's uint64 sum fits uint32 and
 *    the uint32 sums of the paired terms never wrap either.
 *  - vertical moments, vt: the reference forms (uint64)(c * a) * b with c * a
 *    < 2^32, i.e. the exact product, and sums in uint64 (< 2^48). Here a * b
 *    < 2^32 in uint32 (exact) times c widened to 64 bits: the same terms.
 *  - horizontal mu: sum c m, m < 2^16: as the vertical mu.
 *  - horizontal moments: uint64 sums of c v, v < 2^32 (< 2^48, exact), no
 *    pairing, then vmafx_vif_sigma as the reference. */
#ifndef VMAFX_EXACT_VIF_TILE_H
#define VMAFX_EXACT_VIF_TILE_H

#include "vif.h"

#define VMAFX_VIF_TILE_TY 16    /* output rows per tile */
#define VMAFX_VIF_TILE_ROWS 8   /* rows per vertical item */
#define VMAFX_VIF_TILE_XG 16    /* horizontal items per row */
#define VMAFX_VIF_TILE_ITEMS 256
#define VMAFX_VIF_TILE_MAXH 8
#define VMAFX_VIF_TILE_MAXXS 7

#define VMAFX_VIF_V2_H 8
#define VMAFX_VIF_V2_XS 7
#define VMAFX_VIF_V2_TX 112 /* 16 XS */
#define VMAFX_VIF_V2_IW 128 /* TX + 2H */
#define VMAFX_VIF_V2_IH 32  /* 16 + 2H */
/* Row stride of the v2 vertical results. With 16 items per row, 7 columns
 * apart, and two rows per warp, a stride of 16 mod 32 puts the two rows'
 * uint32 reads in disjoint banks ({7x mod 32}, {7x + 16 mod 32}, x < 16). */
#define VMAFX_VIF_V2_VS 144

/* Tap k of filter f; an immediate once f and k are constants. */
VMAFX_VIF_FN vmafx_u32 vmafx_vif_tap(int f, int k) { return (vmafx_u32)vmafx_vif_filter_tap(f, k); }

/* The v2 vertical pass of item t (t < 256) from the 8-bit input tiles sr, sd
 * (IH x IW) into the planes m1 .. xy (stride VMAFX_VIF_V2_VS). bpc 8: mu
 * round 128, shift 8; moments unrounded. */
VMAFX_VIF_FN void vmafx_vif_v2_vertical(int t, VMAFX_VIF_LOCAL const unsigned char* sr,
                                        VMAFX_VIF_LOCAL const unsigned char* sd, VMAFX_VIF_LOCAL unsigned short* m1,
                                        VMAFX_VIF_LOCAL unsigned short* m2, VMAFX_VIF_LOCAL vmafx_u32* xx,
                                        VMAFX_VIF_LOCAL vmafx_u32* yy, VMAFX_VIF_LOCAL vmafx_u32* xy)
{
    const int H = VMAFX_VIF_V2_H, IW = VMAFX_VIF_V2_IW, R = VMAFX_VIF_TILE_ROWS;
    const int c = (int)((unsigned)t % IW), g = (int)((unsigned)t / IW);
    vmafx_u32 a[VMAFX_VIF_TILE_ROWS + 2 * VMAFX_VIF_V2_H], b[VMAFX_VIF_TILE_ROWS + 2 * VMAFX_VIF_V2_H];
    VMAFX_VIF_UNROLL
    for (int k = 0; k < R + 2 * H; ++k) {
        a[k] = sr[(g * R + k) * IW + c];
        b[k] = sd[(g * R + k) * IW + c];
    }
    VMAFX_VIF_UNROLL
    for (int row = 0; row < R; ++row) {
        const vmafx_u32 ch = vmafx_vif_tap(0, H), am = a[row + H], bm = b[row + H];
        vmafx_u32 mu1 = ch * am, mu2 = ch * bm;
        vmafx_u32 sxx = ch * (am * am), syy = ch * (bm * bm), sxy = ch * (am * bm);
        VMAFX_VIF_UNROLL
        for (int k = 0; k < H; ++k) {
            const vmafx_u32 ck = vmafx_vif_tap(0, k);
            const vmafx_u32 ak = a[row + k], aj = a[row + 2 * H - k], bk = b[row + k], bj = b[row + 2 * H - k];
            mu1 += ck * (ak + aj);
            mu2 += ck * (bk + bj);
            sxx += ck * (ak * ak + aj * aj);
            syy += ck * (bk * bk + bj * bj);
            sxy += ck * (ak * bk + aj * bj);
        }
        const int o = (g * R + row) * VMAFX_VIF_V2_VS + c;
        m1[o] = (unsigned short)((mu1 + 128u) >> 8);
        m2[o] = (unsigned short)((mu2 + 128u) >> 8);
        xx[o] = sxx;
        yy[o] = syy;
        xy[o] = sxy;
    }
}

/* The vt vertical pass of item t (t < 2 IW, IW = 16 XS + 2H) from the uint16
 * input tiles sr, sd into the planes m1 .. xy (stride VS), with filter f of
 * half width H and the scale's roundings. f, H, XS and VS: constants. */
VMAFX_VIF_FN void vmafx_vif_vt_vertical(int t, VMAFX_VIF_LOCAL const unsigned short* sr,
                                        VMAFX_VIF_LOCAL const unsigned short* sd, VMAFX_VIF_LOCAL unsigned short* m1,
                                        VMAFX_VIF_LOCAL unsigned short* m2, VMAFX_VIF_LOCAL vmafx_u32* xx,
                                        VMAFX_VIF_LOCAL vmafx_u32* yy, VMAFX_VIF_LOCAL vmafx_u32* xy, int f, int H,
                                        int XS, int VS, vmafx_u32 mu_round, int mu_shift, vmafx_u64 sq_round,
                                        int sq_shift)
{
    const int IW = 16 * XS + 2 * H, R = VMAFX_VIF_TILE_ROWS;
    const int g = t / IW, c = t - g * IW;
    vmafx_u32 a[VMAFX_VIF_TILE_ROWS + 2 * VMAFX_VIF_TILE_MAXH], b[VMAFX_VIF_TILE_ROWS + 2 * VMAFX_VIF_TILE_MAXH];
    VMAFX_VIF_UNROLL
    for (int k = 0; k < R + 2 * H; ++k) {
        a[k] = sr[(g * R + k) * IW + c];
        b[k] = sd[(g * R + k) * IW + c];
    }
    VMAFX_VIF_UNROLL
    for (int row = 0; row < R; ++row) {
        const vmafx_u32 ch = vmafx_vif_tap(f, H), am = a[row + H], bm = b[row + H];
        vmafx_u32 mu1 = ch * am, mu2 = ch * bm;
        vmafx_u64 sxx = (vmafx_u64)ch * (am * am), syy = (vmafx_u64)ch * (bm * bm), sxy = (vmafx_u64)ch * (am * bm);
        VMAFX_VIF_UNROLL
        for (int k = 0; k < H; ++k) {
            const vmafx_u32 ck = vmafx_vif_tap(f, k);
            const vmafx_u32 ak = a[row + k], aj = a[row + 2 * H - k], bk = b[row + k], bj = b[row + 2 * H - k];
            mu1 += ck * (ak + aj);
            mu2 += ck * (bk + bj);
            sxx += (vmafx_u64)ck * (ak * ak);
            sxx += (vmafx_u64)ck * (aj * aj);
            syy += (vmafx_u64)ck * (bk * bk);
            syy += (vmafx_u64)ck * (bj * bj);
            sxy += (vmafx_u64)ck * (ak * bk);
            sxy += (vmafx_u64)ck * (aj * bj);
        }
        const int o = (g * R + row) * VS + c;
        m1[o] = (unsigned short)((mu1 + mu_round) >> mu_shift);
        m2[o] = (unsigned short)((mu2 + mu_round) >> mu_shift);
        xx[o] = (vmafx_u32)((sxx + sq_round) >> sq_shift);
        yy[o] = (vmafx_u32)((syy + sq_round) >> sq_shift);
        xy[o] = (vmafx_u32)((sxy + sq_round) >> sq_shift);
    }
}

/* XS horizontal mu sums of filter f (paired taps, uint32) from XS + 2H values
 * at src. */
VMAFX_VIF_FN void vmafx_vif_tile_hmu(VMAFX_VIF_LOCAL const unsigned short* src, int f, int H, int XS, vmafx_u32* out)
{
    vmafx_u32 v[VMAFX_VIF_TILE_MAXXS + 2 * VMAFX_VIF_TILE_MAXH];
    VMAFX_VIF_UNROLL
    for (int k = 0; k < XS + 2 * H; ++k) v[k] = src[k];
    VMAFX_VIF_UNROLL
    for (int o = 0; o < XS; ++o) {
        vmafx_u32 s = vmafx_vif_tap(f, H) * v[o + H];
        VMAFX_VIF_UNROLL
        for (int k = 0; k < H; ++k) s += vmafx_vif_tap(f, k) * (v[o + k] + v[o + 2 * H - k]);
        out[o] = s;
    }
}

/* XS sigmas from one moment's horizontal sums (uint64) of XS + 2H values at
 * src and the means mu_a, mu_b of the same outputs. */
VMAFX_VIF_FN void vmafx_vif_tile_hsigma(VMAFX_VIF_LOCAL const vmafx_u32* src, int f, int H, int XS,
                                        const vmafx_u32* mu_a, const vmafx_u32* mu_b, vmafx_i32* out)
{
    vmafx_u32 v[VMAFX_VIF_TILE_MAXXS + 2 * VMAFX_VIF_TILE_MAXH];
    VMAFX_VIF_UNROLL
    for (int k = 0; k < XS + 2 * H; ++k) v[k] = src[k];
    VMAFX_VIF_UNROLL
    for (int o = 0; o < XS; ++o) {
        vmafx_u64 s = 0;
        VMAFX_VIF_UNROLL
        for (int k = 0; k < 2 * H + 1; ++k) s += (vmafx_u64)vmafx_vif_tap(f, k) * v[o + k];
        out[o] = vmafx_vif_sigma(s, mu_a[o], mu_b[o]);
    }
}

/* The horizontal pass of one item: sigma1_sq, sigma2_sq and sigma12 of XS
 * adjacent outputs of one tile row from the vertical results, each pointer at
 * the item's first column of that row. f, H and XS: constants. */
VMAFX_VIF_FN void vmafx_vif_tile_horizontal(VMAFX_VIF_LOCAL const unsigned short* m1,
                                            VMAFX_VIF_LOCAL const unsigned short* m2,
                                            VMAFX_VIF_LOCAL const vmafx_u32* xx, VMAFX_VIF_LOCAL const vmafx_u32* yy,
                                            VMAFX_VIF_LOCAL const vmafx_u32* xy, int f, int H, int XS, vmafx_i32* s1,
                                            vmafx_i32* s2, vmafx_i32* s12)
{
    vmafx_u32 mu1[VMAFX_VIF_TILE_MAXXS], mu2[VMAFX_VIF_TILE_MAXXS];
    vmafx_vif_tile_hmu(m1, f, H, XS, mu1);
    vmafx_vif_tile_hmu(m2, f, H, XS, mu2);
    vmafx_vif_tile_hsigma(xy, f, H, XS, mu1, mu2, s12);
    vmafx_vif_tile_hsigma(xx, f, H, XS, mu1, mu1, s1);
    vmafx_vif_tile_hsigma(yy, f, H, XS, mu2, mu2, s2);
}

#endif
