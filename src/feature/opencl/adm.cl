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

inline long adm_pel(__global const uchar* p, int w, int x, int y, int wide)
{
    if (wide) return (long)((__global const ushort*)p)[(size_t)y * w + x];
    return (long)p[(size_t)y * w + x];
}

// One DWT step, both passes in one launch: a work-group makes a tile of
// ADM_TX x ADM_TY outputs of one picture (groups [0, tiles_y) along y are the
// reference's, the rest the distorted picture's). It first forms the vertical
// pass (lo, hi) of its output rows at the 2 ADM_TX + 2 input columns its
// horizontal taps reach, in local memory, then the horizontal pass. Output
// (i, j) takes column taps 2j - 1 .. 2j + 2 with the reference's mirroring,
// i.e. local column 2 (j - j0) + k holds input column
// vmafx_adm_mirror(2 j0 - 1 + that), the same value the separate passes produced.
#define ADM_TX 32
#define ADM_TY 8
#define ADM_LC (2 * ADM_TX + 2)

// This work-group's tile: its first output row and column, and the picture
// (0: the reference, 1: the distorted one) for hh output rows.
inline int adm_dwt_tile(int hh, int* i0, int* j0)
{
    const int tiles_y = (hh + ADM_TY - 1) / ADM_TY, gy = get_group_id(1);
    const int pic = gy >= tiles_y;
    *i0 = (pic ? gy - tiles_y : gy) * ADM_TY;
    *j0 = get_group_id(0) * ADM_TX;
    return pic;
}

// Scale 0: samples -> int16 bands a, h, v, d of hw x hh (planes of n).
__kernel void adm_dwt0(__global const uchar* src_r, __global const uchar* src_d, int w, int h, int wide, int bpc,
                       __global short* band_r, __global short* band_d)
{
    __local short l_lo[ADM_TY * ADM_LC], l_hi[ADM_TY * ADM_LC];
    const int hw = (w + 1) / 2, hh = (h + 1) / 2;
    int i0, j0;
    const int pic = adm_dwt_tile(hh, &i0, &j0);
    __global const uchar* src = pic ? src_d : src_r;
    __global short* band = pic ? band_d : band_r;
    const int lid = get_local_id(0), nt = get_local_size(0);
    for (int q = lid; q < ADM_TY * ADM_LC; q += nt) {
        const int ly = q / ADM_LC, lc = q - ly * ADM_LC;
        const int i = i0 + ly, x = 2 * j0 - 1 + lc;
        short lo = 0, hi = 0;
        if (i < hh && x < 2 * w) {
            const int c = vmafx_adm_mirror(x, w);
            long u[4];
            for (int k = 0; k < 4; ++k) u[k] = adm_pel(src, w, c, vmafx_adm_dwt_src(i, k, h), wide);
            lo = (short)vmafx_adm_dwt0_vlo(u[0], u[1], u[2], u[3], bpc);
            hi = (short)vmafx_adm_dwt0_vhi(u[0], u[1], u[2], u[3], bpc);
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
        __local const short* sl = l_lo + ly * ADM_LC + 2 * lx;
        __local const short* sh = l_hi + ly * ADM_LC + 2 * lx;
        const size_t o = (size_t)i * hw + j;
        band[o] = (short)vmafx_adm_dwt0_hlo(sl[0], sl[1], sl[2], sl[3]);
        band[n + o] = (short)vmafx_adm_dwt0_hlo(sh[0], sh[1], sh[2], sh[3]);
        band[2 * n + o] = (short)vmafx_adm_dwt0_hhi(sl[0], sl[1], sl[2], sl[3]);
        band[3 * n + o] = (short)vmafx_adm_dwt0_hhi(sh[0], sh[1], sh[2], sh[3]);
    }
}

// Scales 1..3: the previous approximation band (int16 when `is16`, else
// int32) of w x h -> int32 bands of hw x hh; vertical round/shift vr/vs,
// horizontal hr/hs.
__kernel void adm_dwt123(__global const short* s16_r, __global const short* s16_d, __global const int* s32_r,
                         __global const int* s32_d, int is16, int w, int h, long vr, int vs, long hr, int hs,
                         __global int* band_r, __global int* band_d)
{
    __local int l_lo[ADM_TY * ADM_LC], l_hi[ADM_TY * ADM_LC];
    const int hw = (w + 1) / 2, hh = (h + 1) / 2;
    int i0, j0;
    const int pic = adm_dwt_tile(hh, &i0, &j0);
    __global const short* src16 = pic ? s16_d : s16_r;
    __global const int* src32 = pic ? s32_d : s32_r;
    __global int* band = pic ? band_d : band_r;
    const int lid = get_local_id(0), nt = get_local_size(0);
    for (int q = lid; q < ADM_TY * ADM_LC; q += nt) {
        const int ly = q / ADM_LC, lc = q - ly * ADM_LC;
        const int i = i0 + ly, x = 2 * j0 - 1 + lc;
        int lo = 0, hi = 0;
        if (i < hh && x < 2 * w) {
            const int c = vmafx_adm_mirror(x, w);
            long u[4];
            for (int k = 0; k < 4; ++k) {
                const size_t at = (size_t)vmafx_adm_dwt_src(i, k, h) * w + c;
                u[k] = is16 ? (long)src16[at] : (long)src32[at];
            }
            lo = vmafx_adm_dwt123_lo(u[0], u[1], u[2], u[3], vr, vs);
            hi = vmafx_adm_dwt123_hi(u[0], u[1], u[2], u[3], vr, vs);
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
        __local const int* sl = l_lo + ly * ADM_LC + 2 * lx;
        __local const int* sh = l_hi + ly * ADM_LC + 2 * lx;
        const size_t o = (size_t)i * hw + j;
        band[o] = vmafx_adm_dwt123_lo(sl[0], sl[1], sl[2], sl[3], hr, hs);
        band[n + o] = vmafx_adm_dwt123_lo(sh[0], sh[1], sh[2], sh[3], hr, hs);
        band[2 * n + o] = vmafx_adm_dwt123_hi(sl[0], sl[1], sl[2], sl[3], hr, hs);
        band[3 * n + o] = vmafx_adm_dwt123_hi(sh[0], sh[1], sh[2], sh[3], hr, hs);
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

// One band's share of a masker sample m (CSF weight rf): its filter input to
// *nb (what the neighbours read) and its centre term to *ct.
inline void adm_mask_terms0(int m, uint rf, int b, uint* nb, uint* ct)
{
    const int c = vmafx_adm_s0_csf(m, b, (int)rf);
    *nb += (uint)vmafx_adm_s0_flt(c);
    *ct += (uint)vmafx_adm_s0_centre(c);
}

inline void adm_mask_terms123(int m, uint rf, uint* nb, uint* ct)
{
    const int c = vmafx_adm_s123_csf(m, rf);
    *nb += (uint)vmafx_adm_s123_flt(c);
    *ct += (uint)vmafx_adm_s123_centre(c);
}

// ---- Decoupling (over the filter region [x0, x1) x [y0, y1)) -------------------
// Bands: [a,] h, v, d planes of n; r and a outputs hold h, v, d. Each sample
// also stores the masking terms of its r and a (above).

// The angle flag of a sample from its reference and distorted h and v bands.
inline int adm_angle(long oh, long ov, long th, long tv, uint cos_sq_bits)
{
    return vmafx_adm_angle_ok(vmafx_adm_dot2(oh, th, ov, tv), vmafx_adm_dot2(oh, oh, ov, ov),
                              vmafx_adm_dot2(th, th, tv, tv), as_float(cos_sq_bits));
}

inline vmafx_adm_gain adm_gain(ulong bits, long int_value)
{
    vmafx_adm_gain g;
    g.bits = bits;
    g.int_value = int_value;
    return g;
}

// m: the filter inputs and centre terms of r, then of a.
inline void adm_store_masks(__global uint* mask_r, __global uint* mask_a, int n, size_t p, const uint* m)
{
    mask_r[p] = m[0];
    mask_r[(size_t)n + p] = m[1];
    mask_a[p] = m[2];
    mask_a[(size_t)n + p] = m[3];
}

__kernel void adm_decouple0(__global const short* ref, __global const short* dis, int w, int n, int x0, int x1,
                            int y0, int y1, ulong egl_bits, long egl_int, uint cos_sq_bits, uint rf0, uint rf1,
                            uint rf2, __global short* r, __global short* a, __global uint* mask_r,
                            __global uint* mask_a)
{
    const int j = x0 + get_global_id(0), i = y0 + get_global_id(1);
    if (j >= x1 || i >= y1) return;
    const size_t p = (size_t)i * w + j;
    __global const short* o = ref + n + p;  // band b at [b * n]
    __global const short* t = dis + n + p;
    const int angle = adm_angle(o[0], o[n], t[0], t[n], cos_sq_bits);
    const vmafx_adm_gain egl = adm_gain(egl_bits, egl_int);
    const uint rf[3] = {rf0, rf1, rf2};
    uint m[4] = {0, 0, 0, 0};
    for (int b = 0; b < 3; ++b) {
        const int ob = o[(size_t)b * n], tb = t[(size_t)b * n];
        const short rb = (short)vmafx_adm_s0_restore(ob, tb, vmafx_adm_div(ob), angle, egl);
        const short ab = (short)(tb - rb);
        r[(size_t)b * n + p] = rb;
        a[(size_t)b * n + p] = ab;
        adm_mask_terms0(rb, rf[b], b, &m[0], &m[1]);
        adm_mask_terms0(ab, rf[b], b, &m[2], &m[3]);
    }
    adm_store_masks(mask_r, mask_a, n, p, m);
}

__kernel void adm_decouple123(__global const int* ref, __global const int* dis, int w, int n, int x0, int x1,
                              int y0, int y1, ulong egl_bits, long egl_int, uint cos_sq_bits, uint rf0, uint rf1,
                              uint rf2, __global int* r, __global int* a, __global uint* mask_r,
                              __global uint* mask_a)
{
    const int j = x0 + get_global_id(0), i = y0 + get_global_id(1);
    if (j >= x1 || i >= y1) return;
    const size_t p = (size_t)i * w + j;
    __global const int* o = ref + n + p;  // band b at [b * n]
    __global const int* t = dis + n + p;
    const int angle = adm_angle(o[0], o[n], t[0], t[n], cos_sq_bits);
    const vmafx_adm_gain egl = adm_gain(egl_bits, egl_int);
    const uint rf[3] = {rf0, rf1, rf2};
    uint m[4] = {0, 0, 0, 0};
    for (int b = 0; b < 3; ++b) {
        const int ob = o[(size_t)b * n], tb = t[(size_t)b * n];
        int shift;
        const int idx = vmafx_adm_s123_div_index(ob, &shift);
        const int rb = vmafx_adm_s123_restore(ob, tb, vmafx_adm_div(idx), shift, angle, egl);
        const int ab = vmafx_adm_sub32(tb, rb);
        r[(size_t)b * n + p] = rb;
        a[(size_t)b * n + p] = ab;
        adm_mask_terms123(rb, rf[b], &m[0], &m[1]);
        adm_mask_terms123(ab, rf[b], &m[2], &m[3]);
    }
    adm_store_masks(mask_r, mask_a, n, p, m);
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

// Denominator, scale 0: per row and band, (sum |x|^3 + add) >> shift.
__kernel void adm_den0(__global const short* ref, int w, int n, int x0, int x1, int y0, int shift,
                       __global long* out, int first)
{
    __local long l[3 * ADM_WG];
    const int i = y0 + get_group_id(0);
    ulong s[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0))
        for (int b = 0; b < 3; ++b) s[b] += vmafx_adm_s0_den(ref[(size_t)(b + 1) * n + (size_t)i * w + j]);
    // the per-row shift is applied by adm_rows_total (it needs the whole row)
    adm_reduce3(l, (long)s[0], (long)s[1], (long)s[2], out, first + get_group_id(0));
}

__kernel void adm_den123(__global const int* ref, int w, int n, int x0, int x1, int y0, int sq_shift,
                         int shift_cub, ulong add_cub, __global long* out, int first)
{
    __local long l[3 * ADM_WG];
    const int row = y0 + get_group_id(0);
    ulong s[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0))
        for (int b = 0; b < 3; ++b)
            s[b] += vmafx_adm_s123_den(ref[(size_t)(b + 1) * n + (size_t)row * w + j], sq_shift, add_cub, shift_cub);
    adm_reduce3(l, (long)s[0], (long)s[1], (long)s[2], out, first + get_group_id(0));
}

// The masking threshold at (i, j) from a mask plane pair (above).
inline uint adm_thr(__global const uint* mk, int n, size_t rm, size_t r0, size_t rp, int jm, int j, int jp)
{
    return mk[(size_t)n + r0 + j] + mk[rm + jm] + mk[rm + j] + mk[rm + jp] + mk[r0 + jm] + mk[r0 + jp] +
           mk[rp + jm] + mk[rp + j] + mk[rp + jp];
}

// Contrast masking, scale 0: per row (offset y0) and band, the sum of
// (x^2 * x + add_cub) >> shift_cub of `src` masked by its masker's mask
// plane; the row shift is applied by adm_rows_total. num: src = r, masker = a;
// aim (when `aim`): src = a, masker = r. Rows go to out[first_num + row],
// out[first_aim + row].
__kernel void adm_cm0(__global const short* r, __global const short* a, __global const uint* mask_r,
                      __global const uint* mask_a, int w, int h, int n, int x0, int x1, int y0, uint rf0, uint rf1,
                      uint rf2, uint sc0, uint sc1, uint sc2, long ac0, long ac1, long ac2, int aim,
                      __global long* out, int first_num, int first_aim)
{
    __local long l[3 * ADM_WG];
    const int i = y0 + get_group_id(0);
    const int im = i == 0 ? 1 : i - 1;
    const int ip = i == h - 1 ? h - 1 : i + 1;
    const size_t rm = (size_t)im * w, r0 = (size_t)i * w, rp = (size_t)ip * w;
    const int rf[3] = {(int)rf0, (int)rf1, (int)rf2};
    const uint sc[3] = {sc0, sc1, sc2};
    const long ac[3] = {ac0, ac1, ac2};
    long sn[3] = {0, 0, 0}, sa[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0)) {
        const int jm = j == 0 ? 1 : j - 1;
        const int jp = j == w - 1 ? w - 1 : j + 1;
        for (int pass = 0; pass < 1 + (aim != 0); ++pass) {
            __global const short* src = pass ? a : r;
            const uint thr = adm_thr(pass ? mask_r : mask_a, n, rm, r0, rp, jm, j, jp);
            for (int b = 0; b < 3; ++b) {
                const long t = vmafx_adm_s0_cm_term(src[(size_t)b * n + r0 + j], b, rf[b], thr, ac[b], (int)sc[b]);
                if (pass) sa[b] += t;
                else sn[b] += t;
            }
        }
    }
    adm_reduce3(l, sn[0], sn[1], sn[2], out, first_num + get_group_id(0));
    if (aim) adm_reduce3(l, sa[0], sa[1], sa[2], out, first_aim + get_group_id(0));
}

__kernel void adm_cm123(__global const int* r, __global const int* a, __global const uint* mask_r,
                        __global const uint* mask_a, int w, int h, int n, int x0, int x1, int y0, uint rf0,
                        uint rf1, uint rf2, uint shift_cub, long add_cub, int aim, __global long* out, int first_num,
                        int first_aim)
{
    __local long l[3 * ADM_WG];
    const int i = y0 + get_group_id(0);
    const int im = i == 0 ? 1 : i - 1;
    const int ip = i == h - 1 ? h - 1 : i + 1;
    const size_t rm = (size_t)im * w, r0 = (size_t)i * w, rp = (size_t)ip * w;
    const uint rf[3] = {rf0, rf1, rf2};
    long sn[3] = {0, 0, 0}, sa[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0)) {
        const int jm = j == 0 ? 1 : j - 1;
        const int jp = j == w - 1 ? w - 1 : j + 1;
        for (int pass = 0; pass < 1 + (aim != 0); ++pass) {
            __global const int* src = pass ? a : r;
            const uint thr = adm_thr(pass ? mask_r : mask_a, n, rm, r0, rp, jm, j, jp);
            for (int b = 0; b < 3; ++b) {
                const long t = vmafx_adm_s123_cm_term(src[(size_t)b * n + r0 + j], rf[b], thr, add_cub, (int)shift_cub);
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
