// SPDX-License-Identifier: BSD-3-Clause
// float_adm on an OpenCL device, without fp64: the reference's float
// operations in its order (float_ops.cl), its double constants and the gain
// limit's double products in soft fp64, the p-norm terms (x * x * x, or the
// base x for the host's powf when p != 3) and their per-row float sums; the
// host adds the rows in row order and pools (float_adm_opencl.cpp).
// `tab`: the db2 low-pass and high-pass taps as float bits. `cpu`: the
// division's variant (VMAFX_LIBVMAF_CPU_*, exact/fadm_rcp.h). `opq` is always
// 0 (see float_ops.cl).
#pragma OPENCL FP_CONTRACT OFF

#include "float_ops.cl"
#include "exact/fadm_rcp.h"

inline float fa_abs(float x) { return as_float(as_uint(x) & 0x7FFFFFFFu); }

inline int fa_index(int n, int k, int m)
{
    int i = 2 * n - 1 + k;
    if (i < 0) return -i;
    if (i >= m) return 2 * m - i - 1;
    return i;
}

inline float fa_fir4(__global const uint* f, float s0, float s1, float s2, float s3, uint opq)
{
    float acc = 0.0f;
    acc = fl_add(acc, fl_mul(as_float(f[0]), s0, opq));
    acc = fl_add(acc, fl_mul(as_float(f[1]), s1, opq));
    acc = fl_add(acc, fl_mul(as_float(f[2]), s2, opq));
    acc = fl_add(acc, fl_mul(as_float(f[3]), s3, opq));
    return acc;
}

// One db2 level of a w x h image (rows of `sstride`) into packed bands: a,
// and the triple h, v, d at planes 0, 1, 2 of `tri`.
__kernel void fa_dwt(__global const float* src, int sstride, int w, int h, int lo_only, __global const uint* tab,
                     uint opq, __global float* a, __global float* tri, ulong plane)
{
    __global float* hb = tri;
    __global float* v = tri + plane;
    __global float* d = tri + 2 * plane;
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= ow || i >= oh) return;
    __global const uint* flo = tab;
    __global const uint* fhi = flo + 4;
    size_t r[4];
    for (int k = 0; k < 4; ++k) r[k] = (size_t)fa_index(i, k, h) * sstride;
    float lo[4], hi[4];
    for (int k = 0; k < 4; ++k) {
        const int x = fa_index(j, k, w);
        lo[k] = fa_fir4(flo, src[r[0] + x], src[r[1] + x], src[r[2] + x], src[r[3] + x], opq);
        if (!lo_only) hi[k] = fa_fir4(fhi, src[r[0] + x], src[r[1] + x], src[r[2] + x], src[r[3] + x], opq);
    }
    const size_t o = (size_t)i * ow + j;
    a[o] = fa_fir4(flo, lo[0], lo[1], lo[2], lo[3], opq);
    if (lo_only) return;
    v[o] = fa_fir4(fhi, lo[0], lo[1], lo[2], lo[3], opq);
    hb[o] = fa_fir4(flo, hi[0], hi[1], hi[2], hi[3], opq);
    d[o] = fa_fir4(fhi, hi[0], hi[1], hi[2], hi[3], opq);
}

// libvmaf's DIVS(n, d) of the chosen variant (flt::adm_divide): n times the
// RCPSS estimate refined by one Newton step (rcp_s), or the correctly rounded
// quotient (generic).
inline float fa_divide(float n, float d, uint cpu, uint opq)
{
    if (cpu == VMAFX_LIBVMAF_CPU_GENERIC) return f32_div(n, d);
    const float xi = as_float(vmafx_fadm_rcp_estimate_bits(as_uint(d), (int)cpu));
    return fl_mul(n, fl_add(xi, fl_mul(xi, fl_sub(1.0f, fl_mul(d, xi, opq)), opq)), opq);
}

inline float fa_limit(float rst, float t, int angle, vmafx_sd gain_limit)
{
    if (angle && fl_gt0(rst)) {
        const vmafx_sd x = vmafx_sd_mul(f32_sd(rst), gain_limit);
        rst = vmafx_sd_lt(x, f32_sd(t)) ? as_float(sd_to_f32(x)) : t;
    }
    if (angle && fl_lt0(rst)) {
        const vmafx_sd x = vmafx_sd_mul(f32_sd(rst), gain_limit);
        rst = vmafx_sd_lt(f32_sd(t), x) ? as_float(sd_to_f32(x)) : t;
    }
    return rst;
}

inline float fa_clip01(float k) { return fl_lt0(k) ? 0.0f : (fl_lt(1.0f, k) ? 1.0f : k); }

// Decoupling over the filter region [l, r) x [t, b) of bands of width w.
// Band triples (h, v, d) are planes 0, 1, 2 of `plane` floats.
__kernel void fa_decouple(int w, int l, int t, int r, int b, ulong plane, uint cpu,
                          ulong gain_limit_bits, uint eps_bits, uint cos1_bits, uint opq, __global const float* o,
                          __global const float* dt, __global float* rst, __global float* add)
{
    const int j = l + (int)get_global_id(0), i = t + (int)get_global_id(1);
    if (j >= r || i >= b) return;
    const size_t q = (size_t)i * w + j;
    __global const float* o0 = o;
    __global const float* o1 = o + plane;
    __global const float* o2 = o + 2 * plane;
    __global const float* t0 = dt;
    __global const float* t1 = dt + plane;
    __global const float* t2 = dt + 2 * plane;
    __global float* r0 = rst;
    __global float* r1 = rst + plane;
    __global float* r2 = rst + 2 * plane;
    __global float* a0 = add;
    __global float* a1 = add + plane;
    __global float* a2 = add + 2 * plane;
    const float eps = as_float(eps_bits), cos1 = as_float(cos1_bits);
    const vmafx_sd gl = vmafx_sd_from_bits(gain_limit_bits);
    const float oh = o0[q], ov = o1[q], od = o2[q];
    const float th = t0[q], tv = t1[q], td = t2[q];
    const float kh = fa_clip01(fa_divide(th, fl_add(oh, eps), cpu, opq));
    const float kv = fa_clip01(fa_divide(tv, fl_add(ov, eps), cpu, opq));
    const float kd = fa_clip01(fa_divide(td, fl_add(od, eps), cpu, opq));
    float rst_h = fl_mul(kh, oh, opq), rst_v = fl_mul(kv, ov, opq), rst_d = fl_mul(kd, od, opq);
    const float ot_dp = fl_add(fl_mul(oh, th, opq), fl_mul(ov, tv, opq));
    const float o_mag_sq = fl_add(fl_mul(oh, oh, opq), fl_mul(ov, ov, opq));
    const float t_mag_sq = fl_add(fl_mul(th, th, opq), fl_mul(tv, tv, opq));
    const float lhs = fl_mul(ot_dp, ot_dp, opq);
    const float rhs = fl_mul(fl_mul(cos1, o_mag_sq, opq), t_mag_sq, opq);
    const int angle = !fl_is_nan(ot_dp) && !fl_lt0(ot_dp) && vmafx_sd_le(f32_sd(rhs), f32_sd(lhs));
    rst_h = fa_limit(rst_h, th, angle, gl);
    rst_v = fa_limit(rst_v, tv, angle, gl);
    rst_d = fa_limit(rst_d, td, angle, gl);
    r0[q] = rst_h;
    r1[q] = rst_v;
    r2[q] = rst_d;
    a0[q] = fl_sub(th, rst_h);
    a1[q] = fl_sub(tv, rst_v);
    a2[q] = fl_sub(td, rst_d);
}

inline float fa_term(float x, int cube, uint opq) { return cube ? fl_mul(fl_mul(x, x, opq), x, opq) : x; }

// Denominator terms over the score region (rw x rh from (l, t)) of band k at
// src + k * plane: terms[k * n + y * rw + x].
__kernel void fa_den(int w, int l, int t, int rw, int rh, ulong plane, uint rf0, uint rf1, uint rf2, int cube,
                     uint opq, __global const float* bands, __global float* terms_all, ulong toff)
{
    __global float* terms = terms_all + toff;
    __global const float* b0 = bands;
    __global const float* b1 = bands + plane;
    __global const float* b2 = bands + 2 * plane;
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= rw || y >= rh) return;
    const size_t q = (size_t)(y + t) * w + (x + l);
    const size_t n = (size_t)rw * rh, o = (size_t)y * rw + x;
    terms[o] = fa_term(fa_abs(fl_mul(as_float(rf0), b0[q], opq)), cube, opq);
    terms[n + o] = fa_term(fa_abs(fl_mul(as_float(rf1), b1[q], opq)), cube, opq);
    terms[2 * n + o] = fa_term(fa_abs(fl_mul(as_float(rf2), b2[q], opq)), cube, opq);
}

// CSF over the filter region of the three bands (weights rf0, rf1, rf2):
// dst = rf * src, flt = (float)(1/30 * |dst|).
__kernel void fa_csf(int w, int l, int t, int r, int b, ulong plane, uint rf0, uint rf1, uint rf2,
                     ulong one_by_30_bits, uint opq, __global const float* src, __global float* dst,
                     __global float* flt)
{
    const int j = l + (int)get_global_id(0), i = t + (int)get_global_id(1);
    if (j >= r || i >= b) return;
    const vmafx_sd c30 = vmafx_sd_from_bits(one_by_30_bits);
    const uint rf[3] = {rf0, rf1, rf2};
    for (int k = 0; k < 3; ++k) {
        const size_t q = k * plane + (size_t)i * w + j;
        const float v = fl_mul(as_float(rf[k]), src[q], opq);
        dst[q] = v;
        flt[q] = as_float(sd_to_f32(vmafx_sd_mul(c30, f32_sd(fa_abs(v)))));
    }
}

// Masking terms over the score region: bands k of src, flt, ang at + k * plane.
__kernel void fa_masked(int w, int h, int l, int t, int rw, int rh, ulong plane, uint rf0, uint rf1, uint rf2,
                        int bypass, ulong one_by_15_bits, int cube, uint opq, __global const float* src,
                        __global const float* flt, __global const float* ang, __global float* terms_all, ulong toff)
{
    __global float* terms = terms_all + toff;
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= rw || y >= rh) return;
    const int i = y + t, j = x + l;
    const int up = i == 0 ? 1 : i - 1;
    const int dn = i == h - 1 ? h - 1 : i + 1;
    const int lf = j == 0 ? 1 : j - 1;
    const int rt = j == w - 1 ? w - 1 : j + 1;
    const vmafx_sd c15 = vmafx_sd_from_bits(one_by_15_bits);
    float thr = 0.0f;
    if (!bypass) {
        for (int k = 0; k < 3; ++k) {
            __global const float* fu = flt + k * plane + (size_t)up * w;
            __global const float* fm = flt + k * plane + (size_t)i * w;
            __global const float* fd = flt + k * plane + (size_t)dn * w;
            float v = 0.0f;
            v = fl_add(v, fu[lf]);
            v = fl_add(v, fu[j]);
            v = fl_add(v, fu[rt]);
            v = fl_add(v, fm[lf]);
            v = as_float(sd_to_f32(vmafx_sd_add(f32_sd(v),
                                                vmafx_sd_mul(c15, f32_sd(fa_abs(ang[k * plane + (size_t)i * w + j]))))));
            v = fl_add(v, fm[rt]);
            v = fl_add(v, fd[lf]);
            v = fl_add(v, fd[j]);
            v = fl_add(v, fd[rt]);
            thr = fl_add(thr, v);
        }
    }
    const size_t n = (size_t)rw * rh, o = (size_t)y * rw + x;
    const uint rf[3] = {rf0, rf1, rf2};
    for (int k = 0; k < 3; ++k) {
        float v = fl_sub(fa_abs(fl_mul(src[k * plane + (size_t)i * w + j], as_float(rf[k]), opq)), thr);
        v = fl_lt0(v) ? 0.0f : v;
        terms[k * n + o] = fa_term(v, cube, opq);
    }
}

// rows[off + y * 9 + k]: float sum in column order of row y of terms plane k.
__kernel void fa_rows(__global const float* terms, int rw, int rh, __global float* rows, int off)
{
    const int y = get_global_id(0), k = get_global_id(1);
    if (y >= rh || k >= 9) return;
    __global const float* p = terms + (size_t)k * rw * rh + (size_t)y * rw;
    float acc = 0.0f;
    for (int x = 0; x < rw; ++x) acc = fl_add(acc, p[x]);
    rows[off + y * 9 + k] = acc;
}
