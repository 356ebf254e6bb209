// SPDX-License-Identifier: BSD-3-Clause
// Integer ADM ("adm") on an OpenCL device, without fp64: the reference's
// (feature/adm.cpp) pipeline stage by stage, every per-sample step taken from
// exact/adm.h (which replays the decoupling's two double steps, the angle
// test and the gain limit, exactly without fp64). The denominator and
// masking sums leave one integer per row and band; the host adds the rows and
// does the per-scale float finish in the reference's order.
#pragma OPENCL FP_CONTRACT OFF

#include "exact/adm.h"

// Row reductions use a power-of-two work-group of at most ADM_WG items.
#define ADM_WG 256

// ---- DWT ----------------------------------------------------------------------

// Sample (x, y) of a DWT step's w-wide input: scale 0's picture (8-bit, or
// 16-bit when `wide`), scale 1's int16 band, scales 2 and 3's int32 band.
inline long adm_dwt_in(__global const uchar* p, int scale, int wide, int w, int x, int y)
{
    const size_t k = (size_t)y * w + x;
    if (scale == 0) return wide ? (long)((__global const ushort*)p)[k] : (long)p[k];
    return scale == 1 ? (long)((__global const short*)p)[k] : (long)((__global const int*)p)[k];
}

// One DWT step, both passes in one launch: a work-group makes a tile of
// ADM_TX x ADM_TY outputs of one picture (groups [0, tiles_y) along y are the
// reference's, the rest the distorted picture's). It first forms the vertical
// pass (lo, hi) of its output rows at the 2 ADM_TX + 2 input columns its
// horizontal taps reach, in local memory, then the horizontal pass. Output
// (i, j) takes column taps 2j - 1 .. 2j + 2 with the reference's mirroring,
// i.e. local column 2 (j - j0) + k holds input column
// vmafx_adm_mirror(2 j0 - 1 + that), the same value the separate passes
// produced. Scale 0 makes int16 bands (samples of bpc bits in), scales 1..3
// int32 bands with their roundings; the bands a, h, v, d are planes of
// hw x hh.
#define ADM_TX 32
#define ADM_TY 8
#define ADM_LC (2 * ADM_TX + 2)

__kernel void adm_dwt(__global const uchar* src_r, __global const uchar* src_d, int scale, int wide, int bpc, int w,
                      int h, __global uchar* band_r, __global uchar* band_d)
{
    __local int l_lo[ADM_TY * ADM_LC], l_hi[ADM_TY * ADM_LC];
    const int hw = (w + 1) / 2, hh = (h + 1) / 2;
    const int tiles_y = (hh + ADM_TY - 1) / ADM_TY, gy = get_group_id(1);
    const int pic = gy >= tiles_y;  // 0: the reference, 1: the distorted picture
    const int i0 = (pic ? gy - tiles_y : gy) * ADM_TY, j0 = get_group_id(0) * ADM_TX;
    __global const uchar* src = pic ? src_d : src_r;
    __global uchar* band = pic ? band_d : band_r;
    const int s = scale > 0 ? scale - 1 : 0;
    const long vr = vmafx_adm_s123_v_round[s], hr = vmafx_adm_s123_h_round[s];
    const int vs = vmafx_adm_s123_v_shift[s], hs = vmafx_adm_s123_h_shift[s];
    const int lid = get_local_id(0), nt = get_local_size(0);
    for (int q = lid; q < ADM_TY * ADM_LC; q += nt) {
        const int ly = q / ADM_LC, lc = q - ly * ADM_LC;
        const int i = i0 + ly, x = 2 * j0 - 1 + lc;
        int lo = 0, hi = 0;
        if (i < hh && x < 2 * w) {
            const int c = vmafx_adm_mirror(x, w);
            long u[4];
            for (int k = 0; k < 4; ++k) u[k] = adm_dwt_in(src, scale, wide, w, c, vmafx_adm_dwt_src(i, k, h));
            lo = scale == 0 ? vmafx_adm_dwt0_vlo(u[0], u[1], u[2], u[3], bpc)
                            : vmafx_adm_dwt123_lo(u[0], u[1], u[2], u[3], vr, vs);
            hi = scale == 0 ? vmafx_adm_dwt0_vhi(u[0], u[1], u[2], u[3], bpc)
                            : vmafx_adm_dwt123_hi(u[0], u[1], u[2], u[3], vr, vs);
        }
        l_lo[q] = lo;
        l_hi[q] = hi;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const size_t n = (size_t)hw * hh;
    for (int q = lid; q < ADM_TY * ADM_TX; q += nt) {
        const int ly = q / ADM_TX, lx = q - ly * ADM_TX;
        const int i = i0 + ly, j = j0 + lx;
        if (i >= hh || j >= hw) continue;
        __local const int* l = l_lo + ly * ADM_LC + 2 * lx;
        __local const int* g = l_hi + ly * ADM_LC + 2 * lx;
        const size_t o = (size_t)i * hw + j;
        if (scale == 0) {
            __global short* b = (__global short*)band;
            b[o] = (short)vmafx_adm_dwt0_hlo(l[0], l[1], l[2], l[3]);
            b[n + o] = (short)vmafx_adm_dwt0_hlo(g[0], g[1], g[2], g[3]);
            b[2 * n + o] = (short)vmafx_adm_dwt0_hhi(l[0], l[1], l[2], l[3]);
            b[3 * n + o] = (short)vmafx_adm_dwt0_hhi(g[0], g[1], g[2], g[3]);
        } else {
            __global int* b = (__global int*)band;
            b[o] = vmafx_adm_dwt123_lo(l[0], l[1], l[2], l[3], hr, hs);
            b[n + o] = vmafx_adm_dwt123_lo(g[0], g[1], g[2], g[3], hr, hs);
            b[2 * n + o] = vmafx_adm_dwt123_hi(l[0], l[1], l[2], l[3], hr, hs);
            b[3 * n + o] = vmafx_adm_dwt123_hi(g[0], g[1], g[2], g[3], hr, hs);
        }
    }
}

// ---- CSF ----------------------------------------------------------------------
// The reference weights the masker band (dst) and derives the masking
// filter's input (flt) over the filter region, then reads them in the 3x3
// neighbourhoods of the score region, which lie inside the filter region.
// The masking threshold of a sample is, summed in 32 bits (wrapping) over the
// three bands, the centre's CSF value scaled by 1/15 plus the eight
// neighbours' filter inputs. A 32-bit wrapping sum can be regrouped, so the
// decoupling kernels, which make every masker sample of the filter region,
// store per sample the band sums of both terms (mask planes: [0, n) the
// filter inputs, [n, 2n) the centre terms); a threshold is then nine loads.

// Band values: int16 at scale 0 (s0), int32 at scales 1..3.
inline int adm_band(__global const uchar* p, int s0, size_t k)
{
    return s0 ? (int)((__global const short*)p)[k] : ((__global const int*)p)[k];
}

inline void adm_band_put(__global uchar* p, int s0, size_t k, int v)
{
    if (s0)
        ((__global short*)p)[k] = (short)v;
    else
        ((__global int*)p)[k] = v;
}

// One band's share of a masker sample m (band b, CSF weight rf): its filter
// input to *nb (what the neighbours read) and its centre term to *ct.
inline void adm_mask_terms(int m, uint rf, int b, int s0, uint* nb, uint* ct)
{
    const int c = s0 ? vmafx_adm_s0_csf(m, b, (int)rf) : vmafx_adm_s123_csf(m, rf);
    *nb += (uint)(s0 ? vmafx_adm_s0_flt(c) : vmafx_adm_s123_flt(c));
    *ct += (uint)(s0 ? vmafx_adm_s0_centre(c) : vmafx_adm_s123_centre(c));
}

// ---- Decoupling (over the filter region [x0, x1) x [y0, y1)) -------------------
// Bands: [a,] h, v, d planes of n; r and a outputs hold h, v, d. Each sample
// also stores the masking terms of its r and a (above): mask_r / mask_a hold
// the filter inputs in [0, n) and the centre terms in [n, 2n).
__kernel void adm_decouple(__global const uchar* ref, __global const uchar* dis, int s0, int w, int n, int x0,
                           int x1, int y0, int y1, ulong egl_bits, long egl_int, uint cos_sq_bits, uint rf0, uint rf1,
                           uint rf2, __global uchar* r, __global uchar* a, __global uint* mask_r, __global uint* mask_a)
{
    const int j = x0 + get_global_id(0), i = y0 + get_global_id(1);
    if (j >= x1 || i >= y1) return;
    const size_t p = (size_t)i * w + j;
    int o[3], t[3];
    for (int b = 0; b < 3; ++b) {
        o[b] = adm_band(ref, s0, (size_t)(b + 1) * n + p);
        t[b] = adm_band(dis, s0, (size_t)(b + 1) * n + p);
    }
    const int angle = vmafx_adm_angle_ok(vmafx_adm_dot2(o[0], t[0], o[1], t[1]), vmafx_adm_dot2(o[0], o[0], o[1], o[1]),
                                         vmafx_adm_dot2(t[0], t[0], t[1], t[1]), as_float(cos_sq_bits));
    vmafx_adm_gain egl;
    egl.bits = egl_bits;
    egl.int_value = egl_int;
    const uint rf[3] = {rf0, rf1, rf2};
    uint m[4] = {0, 0, 0, 0};  // filter inputs and centre terms of r, then of a
    for (int b = 0; b < 3; ++b) {
        int rb, ab;
        if (s0) {
            rb = vmafx_adm_s0_restore(o[b], t[b], vmafx_adm_div(o[b]), angle, egl);
            ab = (short)(t[b] - rb);
        } else {
            int shift;
            const int idx = vmafx_adm_s123_div_index(o[b], &shift);
            rb = vmafx_adm_s123_restore(o[b], t[b], vmafx_adm_div(idx), shift, angle, egl);
            ab = vmafx_adm_sub32(t[b], rb);
        }
        adm_band_put(r, s0, (size_t)b * n + p, rb);
        adm_band_put(a, s0, (size_t)b * n + p, ab);
        adm_mask_terms(rb, rf[b], b, s0, &m[0], &m[1]);
        adm_mask_terms(ab, rf[b], b, s0, &m[2], &m[3]);
    }
    mask_r[p] = m[0];
    mask_r[(size_t)n + p] = m[1];
    mask_a[p] = m[2];
    mask_a[(size_t)n + p] = m[3];
}

// ---- Row sums (score region [x0, x1) x [y0, y1)); one work-group per row ---------

inline void adm_reduce3(__local long* l, long v0, long v1, long v2, __global long* out, size_t o)
{
    const int lid = get_local_id(0);
    l[lid] = v0;
    l[ADM_WG + lid] = v1;
    l[2 * ADM_WG + lid] = v2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = (int)get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) {
            l[lid] += l[lid + s];
            l[ADM_WG + lid] += l[ADM_WG + lid + s];
            l[2 * ADM_WG + lid] += l[2 * ADM_WG + lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        out[3 * o] = l[0];
        out[3 * o + 1] = l[ADM_WG];
        out[3 * o + 2] = l[2 * ADM_WG];
    }
}

// Denominator: per row and band, the sum of the terms of the reference's
// bands (scale 0: |x|^3; scales 1..3 with sq_shift, add_cub, shift_cub); the
// per-row rounding is applied by adm_rows_total.
__kernel void adm_den(__global const uchar* ref, int s0, int w, int n, int x0, int x1, int y0, int sq_shift,
                      int shift_cub, ulong add_cub, __global long* out, int first)
{
    __local long l[3 * ADM_WG];
    const int i = y0 + get_group_id(0);
    ulong s[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0))
        for (int b = 0; b < 3; ++b) {
            const int x = adm_band(ref, s0, (size_t)(b + 1) * n + (size_t)i * w + j);
            s[b] += s0 ? vmafx_adm_s0_den(x) : vmafx_adm_s123_den(x, sq_shift, add_cub, shift_cub);
        }
    adm_reduce3(l, (long)s[0], (long)s[1], (long)s[2], out, first + get_group_id(0));
}

// The masking threshold at (i, j) from a mask plane pair (above).
inline uint adm_thr(__global const uint* mk, int n, size_t rm, size_t r0, size_t rp, int jm, int j, int jp)
{
    return mk[(size_t)n + r0 + j] + mk[rm + jm] + mk[rm + j] + mk[rm + jp] + mk[r0 + jm] + mk[r0 + jp] +
           mk[rp + jm] + mk[rp + j] + mk[rp + jp];
}

// Contrast masking: per row (offset y0) and band b, the sum of
// (x^2 * x + ac_b) >> sc_b of `src` masked by its masker's mask plane; the
// row shift is applied by adm_rows_total. num: src = r, masker = a; aim (when
// `aim`): src = a, masker = r. Rows go to out[first_num + row],
// out[first_aim + row].
__kernel void adm_cm(__global const uchar* r, __global const uchar* a, __global const uint* mask_r,
                     __global const uint* mask_a, int s0, int w, int h, int n, int x0, int x1, int y0, uint rf0,
                     uint rf1, uint rf2, uint sc0, uint sc1, uint sc2, long ac0, long ac1, long ac2, int aim,
                     __global long* out, int first_num, int first_aim)
{
    __local long l[3 * ADM_WG];
    const int i = y0 + get_group_id(0);
    const int im = i == 0 ? 1 : i - 1;
    const int ip = i == h - 1 ? h - 1 : i + 1;
    const size_t rm = (size_t)im * w, r0 = (size_t)i * w, rp = (size_t)ip * w;
    const uint rf[3] = {rf0, rf1, rf2};
    const int sc[3] = {(int)sc0, (int)sc1, (int)sc2};
    const long ac[3] = {ac0, ac1, ac2};
    long sn[3] = {0, 0, 0}, sa[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0)) {
        const int jm = j == 0 ? 1 : j - 1;
        const int jp = j == w - 1 ? w - 1 : j + 1;
        for (int pass = 0; pass < 1 + (aim != 0); ++pass) {
            __global const uchar* src = pass ? a : r;
            const uint thr = adm_thr(pass ? mask_r : mask_a, n, rm, r0, rp, jm, j, jp);
            for (int b = 0; b < 3; ++b) {
                const int x = adm_band(src, s0, (size_t)b * n + r0 + j);
                const long t = s0 ? vmafx_adm_s0_cm_term(x, b, (int)rf[b], thr, ac[b], sc[b])
                                  : vmafx_adm_s123_cm_term(x, rf[b], thr, ac[b], sc[b]);
                if (pass) sa[b] += t;
                else sn[b] += t;
            }
        }
    }
    adm_reduce3(l, sn[0], sn[1], sn[2], out, first_num + get_group_id(0));
    if (aim) adm_reduce3(l, sa[0], sa[1], sa[2], out, first_aim + get_group_id(0));
}

// The reference's last integer step: per stage (work-group g: scale g / 3;
// den, num, aim for g % 3 = 0, 1, 2; rows [g * h0, g * h0 + rows of that
// scale) of the row buffer) and band, the sum over its rows of
// (row + add) >> shift, unsigned for the denominator and signed for the
// masking sums, into out[3 g + band]. Integer additions (mod 2^64, as the
// reference's accumulators) give its sums in any order; 288 bytes are read
// back instead of every row.
#define ADM_PICK(v, k) ((k) == 0 ? (v).s0 : (k) == 1 ? (v).s1 : (k) == 2 ? (v).s2 : (v).s3)
__kernel void adm_rows_total(__global const long* rows, int h0, int4 nrows, ulong4 den_add, int4 den_shift,
                             long4 cm_add, int4 cm_shift, __global long* out)
{
    __local ulong l[3 * ADM_WG];
    const int g = get_group_id(0), k = g / 3, kind = g % 3, lid = get_local_id(0);
    const int n = ADM_PICK(nrows, k);
    const ulong dadd = ADM_PICK(den_add, k);
    const int dsh = ADM_PICK(den_shift, k);
    const long cadd = ADM_PICK(cm_add, k);
    const int csh = ADM_PICK(cm_shift, k);
    __global const long* v = rows + (size_t)g * h0 * 3;
    ulong s[3] = {0, 0, 0};
    for (int i = lid; i < n; i += (int)get_local_size(0))
        for (int b = 0; b < 3; ++b) {
            const long x = v[3 * i + b];
            s[b] += kind == 0 ? ((ulong)x + dadd) >> dsh : (ulong)((x + cadd) >> csh);
        }
    for (int b = 0; b < 3; ++b) l[b * ADM_WG + lid] = s[b];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = (int)get_local_size(0) / 2; t > 0; t >>= 1) {
        if (lid < t)
            for (int b = 0; b < 3; ++b) l[b * ADM_WG + lid] += l[b * ADM_WG + lid + t];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        for (int b = 0; b < 3; ++b) out[3 * g + b] = (long)l[b * ADM_WG];
}
