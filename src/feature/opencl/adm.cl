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
// int64 taken through float and scaled by 1/4096 in double.
inline int adm_angle_ok(long ot_dp, long o_mag_sq, long t_mag_sq, uint cos_sq_bits)
{
    const vmafx_sd dp = vmafx_sd_mul_pow2(f32_sd(adm_i64_to_f32(ot_dp)), -12);
    if (dp.s && !vmafx_sd_is_zero(dp)) return 0;  // !(dp >= 0)
    const vmafx_sd om = vmafx_sd_mul_pow2(f32_sd(adm_i64_to_f32(o_mag_sq)), -12);
    const vmafx_sd tm = vmafx_sd_mul_pow2(f32_sd(adm_i64_to_f32(t_mag_sq)), -12);
    const vmafx_sd lhs = vmafx_sd_mul(dp, dp);
    const vmafx_sd rhs = vmafx_sd_mul(vmafx_sd_mul(f32_to_sd(cos_sq_bits), om), tm);
    return vmafx_sd_le(rhs, lhs);
}

// limit_gain(): with the angle flag, rst is capped at t (rst_f > 0) or
// floored at t (rst_f < 0) after scaling by the gain limit, in double.
inline long adm_limit_gain(long rst, int rst_sign, long t, int angle, ulong egl_bits)
{
    if (!angle || rst_sign == 0) return rst;
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

// Scale 0, vertical: samples -> int16 lo/hi rows (hh x w).
__kernel void adm_dwt0_v(__global const uchar* src, int w, int h, int wide, int bpc, __global short* tlo,
                         __global short* thi)
{
    const int j = get_global_id(0), i = get_global_id(1);
    const int hh = (h + 1) / 2;
    if (j >= w || i >= hh) return;
    const long add_v = 1L << (bpc - 1);
    const long offset = (long)VMAFX_ADM_DWT_LO_SUM * add_v;
    long al = 0, ah = 0;
    for (int k = 0; k < 4; ++k) {
        const long u = adm_pel(src, w, j, adm_dwt_idx(i, k, h), wide);
        al += (long)vmafx_adm_dwt_lo[k] * u;
        ah += (long)vmafx_adm_dwt_hi[k] * u;
    }
    tlo[(size_t)i * w + j] = (short)((al - offset + add_v) >> bpc);
    thi[(size_t)i * w + j] = (short)((ah + add_v) >> bpc);
}

// Scale 0, horizontal: int16 bands a, h, v, d of hw x hh (planes of n).
__kernel void adm_dwt0_h(__global const short* tlo, __global const short* thi, int w, int hh,
                         __global short* band)
{
    const int j = get_global_id(0), i = get_global_id(1);
    const int hw = (w + 1) / 2;
    if (j >= hw || i >= hh) return;
    const size_t n = (size_t)hw * hh;
    int a = 0, v = 0, hb = 0, d = 0;
    for (int k = 0; k < 4; ++k) {
        const size_t x = (size_t)i * w + adm_dwt_idx(j, k, w);
        const int sl = tlo[x], sh = thi[x];
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

// Scales 1..3, vertical: the previous approximation band (int16 when
// `src16`, else int32) -> int32 lo/hi rows.
__kernel void adm_dwt123_v(__global const short* src16, __global const int* src32, int is16, int w, int h,
                           long vr, int vs, __global int* tlo, __global int* thi)
{
    const int j = get_global_id(0), i = get_global_id(1);
    const int hh = (h + 1) / 2;
    if (j >= w || i >= hh) return;
    long al = 0, ah = 0;
    for (int k = 0; k < 4; ++k) {
        const size_t x = (size_t)adm_dwt_idx(i, k, h) * w + j;
        const long s = is16 ? (long)src16[x] : (long)src32[x];
        al += (long)vmafx_adm_dwt_lo[k] * s;
        ah += (long)vmafx_adm_dwt_hi[k] * s;
    }
    tlo[(size_t)i * w + j] = (int)((al + vr) >> vs);
    thi[(size_t)i * w + j] = (int)((ah + vr) >> vs);
}

__kernel void adm_dwt123_h(__global const int* tlo, __global const int* thi, int w, int hh, long hr, int hs,
                           __global int* band)
{
    const int j = get_global_id(0), i = get_global_id(1);
    const int hw = (w + 1) / 2;
    if (j >= hw || i >= hh) return;
    const size_t n = (size_t)hw * hh;
    long a = 0, v = 0, hb = 0, d = 0;
    for (int k = 0; k < 4; ++k) {
        const size_t x = (size_t)i * w + adm_dwt_idx(j, k, w);
        const long sl = tlo[x], sh = thi[x];
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

// ---- Decoupling (over the filter region [x0, x1) x [y0, y1)) -------------------
// Bands: [a,] h, v, d planes of n; r and a outputs hold h, v, d.

__kernel void adm_decouple0(__global const short* ref, __global const short* dis, int w, int n, int x0, int x1,
                            int y0, int y1, ulong egl_bits, uint cos_sq_bits, __global short* r,
                            __global short* a)
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
    for (int b = 0; b < 3; ++b) {
        const int ob = (int)o[b], tb = (int)t[b];
        const int tmp_k = ob == 0 ? 32768 : (int)(((long)adm_div_lookup(ob) * tb + 16384) >> 15);
        const int k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
        long rst = (short)((k * ob + 16384) >> 15);
        const int rst_sign = k == 0 ? 0 : (ob > 0 ? 1 : (ob < 0 ? -1 : 0));
        rst = (short)adm_limit_gain(rst, rst_sign, tb, angle, egl_bits);
        r[(size_t)b * n + p] = (short)rst;
        a[(size_t)b * n + p] = (short)(tb - (int)rst);
    }
}

__kernel void adm_decouple123(__global const int* ref, __global const int* dis, int w, int n, int x0, int x1,
                              int y0, int y1, ulong egl_bits, uint cos_sq_bits, __global int* r,
                              __global int* a)
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
        rst = (int)adm_limit_gain(rst, rst_sign, tb, angle, egl_bits);
        r[(size_t)b * n + p] = (int)rst;
        a[(size_t)b * n + p] = (int)((uint)tb - (uint)rst);
    }
}

// ---- CSF (filter region): dst = weighted band, flt = masking-filter input -------

__kernel void adm_csf0(__global const short* src, int w, int n, int x0, int x1, int y0, int y1, uint rf0,
                       uint rf1, uint rf2, __global short* dst, __global short* flt)
{
    const int j = x0 + get_global_id(0), i = y0 + get_global_id(1);
    if (j >= x1 || i >= y1) return;
    const size_t p = (size_t)i * w + j;
    const uint rf[3] = {rf0, rf1, rf2};
    for (int b = 0; b < 3; ++b) {
        const int v = (int)rf[b] * (int)src[(size_t)b * n + p];
        const short d = (short)((v + vmafx_adm_s0_csf_round[b]) >> vmafx_adm_s0_csf_shift[b]);
        dst[(size_t)b * n + p] = d;
        flt[(size_t)b * n + p] =
            (short)((VMAFX_ADM_S0_ONE_BY_30 * abs((int)d) + VMAFX_ADM_S0_FLT_ROUND) >> VMAFX_ADM_S0_FLT_SHIFT);
    }
}

__kernel void adm_csf123(__global const int* src, int w, int n, int x0, int x1, int y0, int y1, uint rf0,
                         uint rf1, uint rf2, __global int* dst, __global int* flt)
{
    const int j = x0 + get_global_id(0), i = y0 + get_global_id(1);
    if (j >= x1 || i >= y1) return;
    const size_t p = (size_t)i * w + j;
    const long rf[3] = {rf0, rf1, rf2};
    for (int b = 0; b < 3; ++b) {
        const int d = (int)((rf[b] * src[(size_t)b * n + p] + VMAFX_ADM_S123_CSF_ROUND) >> VMAFX_ADM_S123_CSF_SHIFT);
        dst[(size_t)b * n + p] = d;
        flt[(size_t)b * n + p] = (int)(((long)VMAFX_ADM_S123_ONE_BY_30 * adm_abs32(d) +
                                        (long)VMAFX_ADM_S123_FLT_ROUND) >> VMAFX_ADM_S123_FLT_SHIFT);
    }
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
    // the per-row shift is applied on the host (it needs the whole row)
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

inline uint adm_nb16(__global const short* f, size_t rm, size_t r0, size_t rp, int jm, int j, int jp)
{
    return (uint)(int)f[rm + jm] + (uint)(int)f[rm + j] + (uint)(int)f[rm + jp] + (uint)(int)f[r0 + jm] +
           (uint)(int)f[r0 + jp] + (uint)(int)f[rp + jm] + (uint)(int)f[rp + j] + (uint)(int)f[rp + jp];
}

inline uint adm_nb32(__global const int* f, size_t rm, size_t r0, size_t rp, int jm, int j, int jp)
{
    return (uint)f[rm + jm] + (uint)f[rm + j] + (uint)f[rm + jp] + (uint)f[r0 + jm] + (uint)f[r0 + jp] +
           (uint)f[rp + jm] + (uint)f[rp + j] + (uint)f[rp + jp];
}

// Contrast masking, scale 0: per row (offset y0) and band, the sum of
// (x^2 * x + add_cub) >> shift_cub; the row shift is applied on the host.
__kernel void adm_cm0(__global const short* src, __global const short* ang, __global const short* flt, int w,
                      int h, int n, int x0, int x1, int y0, uint rf0, uint rf1, uint rf2, uint sc0, uint sc1,
                      uint sc2, long ac0, long ac1, long ac2, __global long* out, int first)
{
    __local long l[3 * ADM_WG];
    const int i = y0 + get_group_id(0);
    const int im = i == 0 ? 1 : i - 1;
    const int ip = i == h - 1 ? h - 1 : i + 1;
    const size_t rm = (size_t)im * w, r0 = (size_t)i * w, rp = (size_t)ip * w;
    const int rf[3] = {(int)rf0, (int)rf1, (int)rf2};
    const uint sc[3] = {sc0, sc1, sc2};
    const long ac[3] = {ac0, ac1, ac2};
    long s[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0)) {
        const int jm = j == 0 ? 1 : j - 1;
        const int jp = j == w - 1 ? w - 1 : j + 1;
        uint thr = 0;
        for (int b = 0; b < 3; ++b) {
            const size_t bo = (size_t)b * n;
            const short centre = (short)((VMAFX_ADM_S0_ONE_BY_15 * abs((int)ang[bo + r0 + j]) +
                                          VMAFX_ADM_S0_FLT_ROUND) >> VMAFX_ADM_S0_FLT_SHIFT);
            thr += adm_nb16(flt + bo, rm, r0, rp, jm, j, jp) + (uint)(int)centre;
        }
        for (int b = 0; b < 3; ++b) {
            const int x0v = (int)src[(size_t)b * n + r0 + j] * rf[b];
            int x = (int)((uint)adm_abs32(x0v) - (thr << vmafx_adm_s0_thr_shift[b]));
            x = x < 0 ? 0 : x;
            const int x_sq = (int)(((long)x * x + vmafx_adm_s0_sq_round[b]) >> vmafx_adm_s0_sq_shift[b]);
            s[b] += ((long)x_sq * x + ac[b]) >> sc[b];
        }
    }
    adm_reduce3(l, s[0], s[1], s[2], out, first + get_group_id(0));
}

__kernel void adm_cm123(__global const int* src, __global const int* ang, __global const int* flt, int w, int h,
                        int n, int x0, int x1, int y0, uint rf0, uint rf1, uint rf2, uint shift_cub, long add_cub,
                        __global long* out, int first)
{
    __local long l[3 * ADM_WG];
    const int i = y0 + get_group_id(0);
    const int im = i == 0 ? 1 : i - 1;
    const int ip = i == h - 1 ? h - 1 : i + 1;
    const size_t rm = (size_t)im * w, r0 = (size_t)i * w, rp = (size_t)ip * w;
    const long rf[3] = {rf0, rf1, rf2};
    long s[3] = {0, 0, 0};
    for (int j = x0 + get_local_id(0); j < x1; j += (int)get_local_size(0)) {
        const int jm = j == 0 ? 1 : j - 1;
        const int jp = j == w - 1 ? w - 1 : j + 1;
        uint thr = 0;
        for (int b = 0; b < 3; ++b) {
            const size_t bo = (size_t)b * n;
            const int centre = (int)(((long)VMAFX_ADM_S123_ONE_BY_15 * adm_abs32(ang[bo + r0 + j]) +
                                      (long)VMAFX_ADM_S123_FLT_ROUND) >> VMAFX_ADM_S123_FLT_SHIFT);
            thr += adm_nb32(flt + bo, rm, r0, rp, jm, j, jp) + (uint)centre;
        }
        for (int b = 0; b < 3; ++b) {
            const int x0v = (int)((src[(size_t)b * n + r0 + j] * rf[b] + VMAFX_ADM_S123_CSF_ROUND) >>
                                  VMAFX_ADM_S123_CSF_SHIFT);
            int x = (int)((uint)adm_abs32(x0v) - thr);
            x = x < 0 ? 0 : x;
            const int x_sq = (int)(((long)x * x + VMAFX_ADM_S123_SQ_ROUND) >> VMAFX_ADM_S123_SQ_SHIFT);
            s[b] += ((long)x_sq * x + add_cub) >> shift_cub;
        }
    }
    adm_reduce3(l, s[0], s[1], s[2], out, first + get_group_id(0));
}
