// SPDX-License-Identifier: BSD-3-Clause
// float_adm on an OpenCL device, without fp64: loops around exact/float_adm.h
// (the reference's float operations in its order through float_ops.cl, its
// double constants and the gain limit's double products in soft fp64), the
// p-norm terms (x * x * x, or the base x for the host's powf when p != 3) and
// their per-row float sums; the host adds the rows in row order and pools
// (float_adm_opencl.cpp).
// `tab`: the db2 low-pass and high-pass taps as float bits. `cpu`: the
// division's variant (VMAFX_LIBVMAF_CPU_*, exact/fadm_rcp.h). `opq` is always
// 0 (see float_ops.cl).
#pragma OPENCL FP_CONTRACT OFF

#include "float_ops.cl"
#include "exact/float_adm.h"

inline float fa_fir4(__global const uint* f, float s0, float s1, float s2, float s3, uint opq)
{
    return vmafx_fadm_fir4(as_float(f[0]), as_float(f[1]), as_float(f[2]), as_float(f[3]), s0, s1, s2, s3, opq);
}

// The constants of exact/float_adm.h from the kernels' arguments.
inline vmafx_fadm_consts fa_consts(ulong gain_limit_bits, ulong one_by_30_bits, ulong one_by_15_bits, uint eps_bits,
                                   uint cos1_bits, uint cpu, uint opq)
{
    vmafx_fadm_consts k;
    k.gain_limit = vmafx_sd_from_bits(gain_limit_bits);
    k.one_by_30 = vmafx_sd_from_bits(one_by_30_bits);
    k.one_by_15 = vmafx_sd_from_bits(one_by_15_bits);
    k.eps = as_float(eps_bits);
    k.cos1 = as_float(cos1_bits);
    k.cpu = (int)cpu;
    k.opq = opq;
    return k;
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
    for (int k = 0; k < 4; ++k) r[k] = (size_t)vmafx_fadm_dwt_index(i, k, h) * sstride;
    float lo[4], hi[4];
    for (int k = 0; k < 4; ++k) {
        const int x = vmafx_fadm_dwt_index(j, k, w);
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

// Decoupling over the filter region [l, r) x [t, b) of bands of width w.
// Band triples (h, v, d) are planes 0, 1, 2 of `plane` floats.
__kernel void fa_decouple(int w, int l, int t, int r, int b, ulong plane, uint cpu,
                          ulong gain_limit_bits, uint eps_bits, uint cos1_bits, uint opq, __global const float* o,
                          __global const float* dt, __global float* rst, __global float* add)
{
    const int j = l + (int)get_global_id(0), i = t + (int)get_global_id(1);
    if (j >= r || i >= b) return;
    const size_t q = (size_t)i * w + j;
    const vmafx_fadm_consts k = fa_consts(gain_limit_bits, 0, 0, eps_bits, cos1_bits, cpu, opq);
    const float ov[3] = {o[q], o[plane + q], o[2 * plane + q]};
    const float tv[3] = {dt[q], dt[plane + q], dt[2 * plane + q]};
    float rv[3], av[3];
    vmafx_fadm_decouple(ov, tv, &k, rv, av);
    for (int c = 0; c < 3; ++c) {
        rst[c * plane + q] = rv[c];
        add[c * plane + q] = av[c];
    }
}

inline float fa_term(float x, int cube, uint opq) { return cube ? vmafx_fadm_cube(x, opq) : x; }

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
    terms[o] = fa_term(vmafx_fabs(fl_mul(as_float(rf0), b0[q], opq)), cube, opq);
    terms[n + o] = fa_term(vmafx_fabs(fl_mul(as_float(rf1), b1[q], opq)), cube, opq);
    terms[2 * n + o] = fa_term(vmafx_fabs(fl_mul(as_float(rf2), b2[q], opq)), cube, opq);
}

// CSF over the filter region of the three bands (weights rf0, rf1, rf2):
// dst = rf * src, flt = (float)(1/30 * |dst|).
__kernel void fa_csf(int w, int l, int t, int r, int b, ulong plane, uint rf0, uint rf1, uint rf2,
                     ulong one_by_30_bits, uint opq, __global const float* src, __global float* dst,
                     __global float* flt)
{
    const int j = l + (int)get_global_id(0), i = t + (int)get_global_id(1);
    if (j >= r || i >= b) return;
    const vmafx_fadm_consts c = fa_consts(0, one_by_30_bits, 0, 0, 0, 0, opq);
    const uint rf[3] = {rf0, rf1, rf2};
    for (int k = 0; k < 3; ++k) {
        const size_t q = k * plane + (size_t)i * w + j;
        float f;
        dst[q] = vmafx_fadm_csf(as_float(rf[k]), src[q], &c, &f);
        flt[q] = f;
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
    const vmafx_fadm_consts c = fa_consts(0, 0, one_by_15_bits, 0, 0, 0, opq);
    float thr = 0.0f;
    if (!bypass) {
        for (int k = 0; k < 3; ++k) {
            __global const float* fu = flt + k * plane + (size_t)up * w;
            __global const float* fm = flt + k * plane + (size_t)i * w;
            __global const float* fd = flt + k * plane + (size_t)dn * w;
            thr = fl_add(thr, vmafx_fadm_thr(fu[lf], fu[j], fu[rt], fm[lf], fm[rt], fd[lf], fd[j], fd[rt],
                                             ang[k * plane + (size_t)i * w + j], &c));
        }
    }
    const size_t n = (size_t)rw * rh, o = (size_t)y * rw + x;
    const uint rf[3] = {rf0, rf1, rf2};
    for (int k = 0; k < 3; ++k)
        terms[k * n + o] = fa_term(vmafx_fadm_masked(src[k * plane + (size_t)i * w + j], as_float(rf[k]), thr, opq),
                                   cube, opq);
}

// rows[off + y * 9 + k]: float sum in column order of row y of terms plane k.
__kernel void fa_rows(__global const float* terms, int rw, int rh, __global float* rows, int off)
{
    const int y = get_global_id(0), k = get_global_id(1);
    if (y >= rh || k >= 9) return;
    rows[off + y * 9 + k] = vmafx_fsum(terms + (size_t)k * rw * rh + (size_t)y * rw, rw);
}
