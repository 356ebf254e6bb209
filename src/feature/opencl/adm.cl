// SPDX-License-Identifier: BSD-3-Clause
// Integer ADM ("adm") on an OpenCL device, without fp64: the reference's
// (feature/adm.cpp) integer pipeline, stage by stage, with its widths, shifts
// and wrap-arounds. The two places where it leaves integers per pixel are
// replayed exactly: the 1-degree angle test (int64 -> float -> double
// products and a comparison) and the enhancement-gain limit (a double product,
// a comparison and a truncation) in soft fp64. The denominator and masking
// sums leave one integer per row and band; the host adds the rows and does
// the per-scale float finish in the reference's order.
#pragma OPENCL FP_CONTRACT OFF

#include "ocl_f32.cl"
typedef short int16_t;
typedef int int32_t;
typedef ushort uint16_t;
typedef uint uint32_t;
#define VMAFX_ADM_CONST __constant
#include "feature/adm_tables.h"

// Row reductions use a power-of-two work-group of at most ADM_WG items.
#define ADM_WG 256

// ---- helpers ----------------------------------------------------------------

// Source index k (0..3) of DWT output i for an input of n samples.
inline int adm_dwt_idx(int i, int k, int n)
{
    const int half_n = (n + 1) / 2;
    int x = 2 * i - 1 + k;
    if (i == 0) {
        if (k == 0) x = 1;
    } else if (i >= half_n - 2) {
        if (x >= n) x = 2 * n - x - 1;
    }
    return x;
}

inline int adm_abs32(int x) { return (int)(x < 0 ? 0u - (uint)x : (uint)x); }

// libvmaf's division table: 2^30 / i, negated for negative i.
inline int adm_div_lookup(int i)
{
    if (i == 0) return 0;
    return i > 0 ? (int)(VMAFX_ADM_DIV_Q / i) : -(int)(VMAFX_ADM_DIV_Q / -i);
}

// (float)v for an int64, round to nearest even.
inline float adm_i64_to_f32(long v)
{
    if (v == 0) return 0.0f;
    const uint sign = v < 0 ? 0x80000000u : 0u;
    ulong m = v < 0 ? (ulong)0 - (ulong)v : (ulong)v;
    const int lz = (int)clz(m);
    m <<= lz;  // bit 63 set; value m * 2^-lz
    ulong q = m >> 40;
    const ulong rem = m & ((1UL << 40) - 1), halfway = 1UL << 39;
    if (rem > halfway || (rem == halfway && (q & 1))) q += 1;
    int e = 63 - lz;  // exponent of the leading bit
    if (q == (1UL << 24)) {
        q >>= 1;
        e += 1;
    }
    return as_float(sign | ((uint)(e + 127) << 23) | (uint)(q - (1UL << 23)));
}

// The reference's angle test: dp^2 >= cos(1 deg)^2 * |o|^2 * |t|^2 with each
// int64 taken through float and scaled by 1/4096 in double. The scaling is
// exact and common to both sides, so it drops out of the fp32 filter: the
// left side is exactly dp^2 (a 48-bit product, fp64 holds it) and the right
// side the fp64 rounding of c * om * tm (c * om exact, then one rounding).
// Their fp32 estimates are within 2^-23 and 2^-22 (relative; no overflow:
// every magnitude is at most 2^126; no underflow: nonzero inputs are >= 1)
// and the margin is 2^-20, so where the filter decides, the fp64 comparison
// decides the same way; the rest is replayed in soft fp64.
inline int adm_angle_ok(long ot_dp, long o_mag_sq, long t_mag_sq, uint cos_sq_bits)
{
    const float dpf = adm_i64_to_f32(ot_dp);
    if (dpf < 0.0f) return 0;  // !(dp >= 0)
    const float omf = adm_i64_to_f32(o_mag_sq), tmf = adm_i64_to_f32(t_mag_sq);
    const float lhs = dpf * dpf, rhs = (as_float(cos_sq_bits) * omf) * tmf;
    if (rhs <= lhs * (1.0f - 0x1p-20f)) return 1;
    if (rhs >= lhs * (1.0f + 0x1p-20f) && rhs > 0.0f) return 0;
    const vmafx_sd dp = vmafx_sd_mul_pow2(f32_sd(dpf), -12);
    const vmafx_sd om = vmafx_sd_mul_pow2(f32_sd(omf), -12);
    const vmafx_sd tm = vmafx_sd_mul_pow2(f32_sd(tmf), -12);
    const vmafx_sd l = vmafx_sd_mul(dp, dp);
    const vmafx_sd r = vmafx_sd_mul(vmafx_sd_mul(f32_to_sd(cos_sq_bits), om), tm);
    return vmafx_sd_le(r, l);
}

// limit_gain(): with the angle flag, rst is capped at t (rst_f > 0) or
// floored at t (rst_f < 0) after scaling by the gain limit, in double. For an
// integer limit g (egl_int = g, else 0; the option lies in [1, 100]) the
// double product rst * g is an exact integer below 2^40 and the capped value
// fits the band's type, so int64 arithmetic gives the same result.
inline long adm_limit_gain(long rst, int rst_sign, long t, int angle, ulong egl_bits, long egl_int)
{
    if (!angle || rst_sign == 0) return rst;
    if (egl_int > 0) {
        const long x = rst * egl_int;
        if (rst_sign > 0) return x < t ? x : t;
        return t < x ? x : t;
    }
    const vmafx_sd x = vmafx_sd_mul(vmafx_sd_from_i64(rst), vmafx_sd_from_bits(egl_bits));
    const vmafx_sd y = vmafx_sd_from_i64(t);
    if (rst_sign > 0) return vmafx_sd_lt(x, y) ? (long)vmafx_sd_to_i32(x) : t;
    return vmafx_sd_lt(y, x) ? (long)vmafx_sd_to_i32(x) : t;
}

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
// (i, j) takes column taps 2j - 1 .. 2j + 2 with the reference's mirroring
// (adm_dwt_idx), i.e. local column 2 (j - j0) + k holds input column
// adm_dwt_col(2 j0 - 1 + that), the same value the separate passes produced.
#define ADM_TX 32
#define ADM_TY 8
#define ADM_LC (2 * ADM_TX + 2)

// adm_dwt_idx(i, k, n) as a function of x = 2 i - 1 + k alone (n >= 2).
inline int adm_dwt_col(int x, int n) { return x < 0 ? 1 : (x >= n ? 2 * n - x - 1 : x); }

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
    const long add_v = 1L << (bpc - 1);
    const long offset = (long)VMAFX_ADM_DWT_LO_SUM * add_v;
    for (int q = lid; q < ADM_TY * ADM_LC; q += nt) {
        const int ly = q / ADM_LC, lc = q - ly * ADM_LC;
        const int i = i0 + ly, x = 2 * j0 - 1 + lc;
        short lo = 0, hi = 0;
        if (i < hh && x < 2 * w) {
            const int c = adm_dwt_col(x, w);
            long al = 0, ah = 0;
            for (int k = 0; k < 4; ++k) {
                const long u = adm_pel(src, w, c, adm_dwt_idx(i, k, h), wide);
                al += (long)vmafx_adm_dwt_lo[k] * u;
                ah += (long)vmafx_adm_dwt_hi[k] * u;
            }
            lo = (short)((al - offset + add_v) >> bpc);
            hi = (short)((ah + add_v) >> bpc);
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
        int a = 0, v = 0, hb = 0, d = 0;
        for (int k = 0; k < 4; ++k) {
            const int x = ly * ADM_LC + 2 * lx + k;
            const int sl = l_lo[x], sh = l_hi[x];
            a += vmafx_adm_dwt_lo[k] * sl;
            v += vmafx_adm_dwt_hi[k] * sl;
            hb += vmafx_adm_dwt_lo[k] * sh;
            d += vmafx_adm_dwt_hi[k] * sh;
        }
        const size_t o = (size_t)i * hw + j;
        band[o] = (short)((a + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);
        band[n + o] = (short)((hb + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);
        band[2 * n + o] = (short)((v + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);
        band[3 * n + o] = (short)((d + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);
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
            const int c = adm_dwt_col(x, w);
            long al = 0, ah = 0;
            for (int k = 0; k < 4; ++k) {
                const size_t at = (size_t)adm_dwt_idx(i, k, h) * w + c;
                const long u = is16 ? (long)src16[at] : (long)src32[at];
                al += (long)vmafx_adm_dwt_lo[k] * u;
                ah += (long)vmafx_adm_dwt_hi[k] * u;
            }
            lo = (int)((al + vr) >> vs);
            hi = (int)((ah + vr) >> vs);
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
        long a = 0, v = 0, hb = 0, d = 0;
        for (int k = 0; k < 4; ++k) {
            const int x = ly * ADM_LC + 2 * lx + k;
            const long sl = l_lo[x], sh = l_hi[x];
            a += (long)vmafx_adm_dwt_lo[k] * sl;
            v += (long)vmafx_adm_dwt_hi[k] * sl;
            hb += (long)vmafx_adm_dwt_lo[k] * sh;
            d += (long)vmafx_adm_dwt_hi[k] * sh;
        }
        const size_t o = (size_t)i * hw + j;
        band[o] = (int)((a + hr) >> hs);
        band[n + o] = (int)((hb + hr) >> hs);
        band[2 * n + o] = (int)((v + hr) >> hs);
        band[3 * n + o] = (int)((d + hr) >> hs);
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

inline short adm_csf0(short m, uint rf, int b)
{
    return (short)(((int)rf * (int)m + vmafx_adm_s0_csf_round[b]) >> vmafx_adm_s0_csf_shift[b]);
}

inline short adm_flt0(short d)
{
    return (short)((VMAFX_ADM_S0_ONE_BY_30 * abs((int)d) + VMAFX_ADM_S0_FLT_ROUND) >> VMAFX_ADM_S0_FLT_SHIFT);
}

inline int adm_csf123(int m, uint rf)
{
    return (int)(((long)rf * m + VMAFX_ADM_S123_CSF_ROUND) >> VMAFX_ADM_S123_CSF_SHIFT);
}

inline int adm_flt123(int d)
{
    return (int)(((long)VMAFX_ADM_S123_ONE_BY_30 * adm_abs32(d) + (long)VMAFX_ADM_S123_FLT_ROUND) >>
                 VMAFX_ADM_S123_FLT_SHIFT);
}

// One band's share of a masker sample: its filter input to *nb (what the
// neighbours read) and its centre term to *ct.
inline void adm_mask_terms0(short m, uint rf, int b, uint* nb, uint* ct)
{
    const short c = adm_csf0(m, rf, b);
    *nb += (uint)(int)adm_flt0(c);
    *ct += (uint)(int)(short)((VMAFX_ADM_S0_ONE_BY_15 * abs((int)c) + VMAFX_ADM_S0_FLT_ROUND) >>
                              VMAFX_ADM_S0_FLT_SHIFT);
}

inline void adm_mask_terms123(int m, uint rf, uint* nb, uint* ct)
{
    const int c = adm_csf123(m, rf);
    *nb += (uint)adm_flt123(c);
    *ct += (uint)(int)(((long)VMAFX_ADM_S123_ONE_BY_15 * adm_abs32(c) + (long)VMAFX_ADM_S123_FLT_ROUND) >>
                       VMAFX_ADM_S123_FLT_SHIFT);
}

// ---- Decoupling (over the filter region [x0, x1) x [y0, y1)) -------------------
// Bands: [a,] h, v, d planes of n; r and a outputs hold h, v, d.

__kernel void adm_decouple0(__global const short* ref, __global const short* dis, int w, int n, int x0, int x1,
                            int y0, int y1, ulong egl_bits, long egl_int, uint cos_sq_bits, uint rf0, uint rf1,
                            uint rf2, __global short* r, __global short* a, __global uint* mask_r,
                            __global uint* mask_a)
{
    const int j = x0 + get_global_id(0), i = y0 + get_global_id(1);
    if (j >= x1 || i >= y1) return;
    const size_t p = (size_t)i * w + j;
    long o[3], t[3];
    for (int b = 0; b < 3; ++b) {
        o[b] = ref[(size_t)(b + 1) * n + p];
        t[b] = dis[(size_t)(b + 1) * n + p];
    }
    const long ot_dp = o[0] * t[0] + o[1] * t[1];
    const long o_mag_sq = o[0] * o[0] + o[1] * o[1];
    const long t_mag_sq = t[0] * t[0] + t[1] * t[1];
    const int angle = adm_angle_ok(ot_dp, o_mag_sq, t_mag_sq, cos_sq_bits);
    const uint rf[3] = {rf0, rf1, rf2};
    uint nr = 0, cr = 0, na = 0, ca = 0;
    for (int b = 0; b < 3; ++b) {
        const int ob = (int)o[b], tb = (int)t[b];
        const int tmp_k = ob == 0 ? 32768 : (int)(((long)adm_div_lookup(ob) * tb + 16384) >> 15);
        const int k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
        long rst = (short)((k * ob + 16384) >> 15);
        const int rst_sign = k == 0 ? 0 : (ob > 0 ? 1 : (ob < 0 ? -1 : 0));
        rst = (short)adm_limit_gain(rst, rst_sign, tb, angle, egl_bits, egl_int);
        const short rb = (short)rst, ab = (short)(tb - (int)rst);
        r[(size_t)b * n + p] = rb;
        a[(size_t)b * n + p] = ab;
        adm_mask_terms0(rb, rf[b], b, &nr, &cr);
        adm_mask_terms0(ab, rf[b], b, &na, &ca);
    }
    mask_r[p] = nr;
    mask_r[(size_t)n + p] = cr;
    mask_a[p] = na;
    mask_a[(size_t)n + p] = ca;
}

__kernel void adm_decouple123(__global const int* ref, __global const int* dis, int w, int n, int x0, int x1,
                              int y0, int y1, ulong egl_bits, long egl_int, uint cos_sq_bits, uint rf0, uint rf1,
                              uint rf2, __global int* r, __global int* a, __global uint* mask_r,
                              __global uint* mask_a)
{
    const int j = x0 + get_global_id(0), i = y0 + get_global_id(1);
    if (j >= x1 || i >= y1) return;
    const size_t p = (size_t)i * w + j;
    long o[3], t[3];
    for (int b = 0; b < 3; ++b) {
        o[b] = ref[(size_t)(b + 1) * n + p];
        t[b] = dis[(size_t)(b + 1) * n + p];
    }
    const long ot_dp = (long)((ulong)(o[0] * t[0]) + (ulong)(o[1] * t[1]));
    const long o_mag_sq = (long)((ulong)(o[0] * o[0]) + (ulong)(o[1] * o[1]));
    const long t_mag_sq = (long)((ulong)(t[0] * t[0]) + (ulong)(t[1] * t[1]));
    const int angle = adm_angle_ok(ot_dp, o_mag_sq, t_mag_sq, cos_sq_bits);
    const uint rf[3] = {rf0, rf1, rf2};
    uint nr = 0, cr = 0, na = 0, ca = 0;
    for (int b = 0; b < 3; ++b) {
        const int ob = (int)o[b], tb = (int)t[b];
        long tmp_k = 32768;
        if (ob != 0) {
            const uint abs_o = (uint)adm_abs32(ob);
            const long sign = ob < 0 ? -1 : 1;
            int shift = 0;
            uint msb = abs_o;
            if (abs_o >= 32768) {
                shift = 17 - (int)clz(abs_o);
                msb = (ushort)((abs_o + (1u << (shift - 1))) >> shift);
            }
            tmp_k = (((long)adm_div_lookup((int)msb) * tb) * sign + (1L << (14 + shift))) >> (15 + shift);
        }
        const long k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
        long rst = (int)((k * ob + 16384) >> 15);
        const int rst_sign = k == 0 ? 0 : (ob > 0 ? 1 : (ob < 0 ? -1 : 0));
        rst = (int)adm_limit_gain(rst, rst_sign, tb, angle, egl_bits, egl_int);
        const int rb = (int)rst, ab = (int)((uint)tb - (uint)rst);
        r[(size_t)b * n + p] = rb;
        a[(size_t)b * n + p] = ab;
        adm_mask_terms123(rb, rf[b], &nr, &cr);
        adm_mask_terms123(ab, rf[b], &na, &ca);
    }
    mask_r[p] = nr;
    mask_r[(size_t)n + p] = cr;
    mask_a[p] = na;
    mask_a[(size_t)n + p] = ca;
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
        for (int b = 0; b < 3; ++b) {
            const ulong x = (ushort)abs((int)ref[(size_t)(b + 1) * n + (size_t)i * w + j]);
            s[b] += (x * x) * x;
        }
    // the per-row shift is applied by adm_rows_total (it needs the whole row)
    adm_reduce3(l, (long)s[0], (long)s[1], (long)s[2], out, first + get_group_id(0));
}

__kernel void adm_den123(__global const int* ref, int w, int n, int x0, int x1, int y0, int sq_shift,
                         int shift_cub, ulong add_cub, __global long* out, int first)
{
    __local long l[3 * ADM_WG];
    const int row = y0 + get_group_id(0);
    const ulong sq_add = 1UL << sq_shift;
    ulong s[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0))
        for (int b = 0; b < 3; ++b) {
            const ulong x = (uint)adm_abs32(ref[(size_t)(b + 1) * n + (size_t)row * w + j]);
            s[b] += ((((x * x) + sq_add) >> sq_shift) * x + add_cub) >> shift_cub;
        }
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
                const int x0v = (int)src[(size_t)b * n + r0 + j] * rf[b];
                int x = (int)((uint)adm_abs32(x0v) - (thr << vmafx_adm_s0_thr_shift[b]));
                x = x < 0 ? 0 : x;
                const int x_sq = (int)(((long)x * x + vmafx_adm_s0_sq_round[b]) >> vmafx_adm_s0_sq_shift[b]);
                const long t = ((long)x_sq * x + ac[b]) >> sc[b];
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
    const long rf[3] = {rf0, rf1, rf2};
    long sn[3] = {0, 0, 0}, sa[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0)) {
        const int jm = j == 0 ? 1 : j - 1;
        const int jp = j == w - 1 ? w - 1 : j + 1;
        for (int pass = 0; pass < 1 + (aim != 0); ++pass) {
            __global const int* src = pass ? a : r;
            const uint thr = adm_thr(pass ? mask_r : mask_a, n, rm, r0, rp, jm, j, jp);
            for (int b = 0; b < 3; ++b) {
                const int x0v = (int)((src[(size_t)b * n + r0 + j] * rf[b] + VMAFX_ADM_S123_CSF_ROUND) >>
                                      VMAFX_ADM_S123_CSF_SHIFT);
                int x = (int)((uint)adm_abs32(x0v) - thr);
                x = x < 0 ? 0 : x;
                const int x_sq = (int)(((long)x * x + VMAFX_ADM_S123_SQ_ROUND) >> VMAFX_ADM_S123_SQ_SHIFT);
                const long t = ((long)x_sq * x + add_cub) >> shift_cub;
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
