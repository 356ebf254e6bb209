// SPDX-License-Identifier: BSD-3-Clause
// float_vif on an OpenCL device, without fp64: loops around
// exact/float_vif.h (the moments' taps, the statistic: the reference's float
// operations in its order through float_ops.cl, its two double expressions in
// soft fp64), the filters' taps, and each row's float totals in column order;
// the host adds the rows in row order (feature/opencl/float_vif_opencl.cpp).
// `tab` holds the log2 polynomial (9 floats) and then the scale's taps at
// `f`; `opq` is always 0 (see float_ops.cl).
#pragma OPENCL FP_CONTRACT OFF

#include "float_ops.cl"
#include "exact/float_vif.h"

// Luma on the 8-bit scale minus 128 (every step exact).
__kernel void fv_to_float(__global const uchar* src, int w, int h, int bpc, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    const size_t i = (size_t)y * w + x;
    float v;
    if (bpc == 8) {
        v = (float)src[i];
    } else {
        const uint s = (uint)((__global const ushort*)src)[i];
        v = (float)s * as_float((uint)(127 - (bpc - 8)) << 23);  // / 2^(bpc - 8), exact
    }
    dst[i] = v + -128.0f;
}

// Vertical pass at the even rows: tmp[i * w + j], i < h / 2.
__kernel void fv_vdec(__global const float* tab, int f, int fw, __global const float* src, int w, int h,
                      uint opq, __global float* tmp)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h / 2) return;
    const int r = fw / 2;
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k)
        acc = vmafx_ftap(acc, tab[f + k], src[(size_t)vmafx_fvif_mirror(2 * i - r + k, h) * w + j], opq);
    tmp[(size_t)i * w + j] = acc;
}

// Horizontal pass at the even columns: dst[i * dw + j].
__kernel void fv_hdec(__global const float* tab, int f, int fw, __global const float* tmp, int w, int dh,
                      uint opq, __global float* dst)
{
    const int j = get_global_id(0), i = get_global_id(1);
    const int dw = w / 2;
    if (j >= dw || i >= dh) return;
    const int r = fw / 2;
    __global const float* row = tmp + (size_t)i * w;
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) acc = vmafx_ftap(acc, tab[f + k], row[vmafx_fvif_mirror(2 * j - r + k, w)], opq);
    dst[(size_t)i * dw + j] = acc;
}

// Vertical pass of the five moments: planes of w * h floats.
__kernel void fv_vmom(__global const float* tab, int f, int fw, __global const float* ref,
                      __global const float* dis, int w, int h, uint opq, __global float* m)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    const int r = fw / 2;
    float m5[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int k = 0; k < fw; ++k) {
        const size_t off = (size_t)vmafx_fvif_mirror(i - r + k, h) * w + j;
        vmafx_fvif_moments_tap(m5, tab[f + k], ref[off], dis[off], opq);
    }
    const size_t n = (size_t)w * h, o = (size_t)i * w + j;
    for (int q = 0; q < 5; ++q) m[q * n + o] = m5[q];
}

// Horizontal pass of the five moments and the statistic at (i, j) (Stat in
// float_vif.cpp): num at terms[o], den at terms[n + o].
__kernel void fv_hstat(__global const float* tab, int f, int fw, __global const float* m, int w, int h,
                       uint max_inv_bits, uint gain_limit_bits, ulong sigma_nsq_bits, uint opq,
                       __global float* terms)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    const int r = fw / 2;
    const size_t n = (size_t)w * h, o = (size_t)i * w + j;
    float v[5];
    for (int q = 0; q < 5; ++q) {
        __global const float* p = m + q * n + (size_t)i * w;
        float acc = 0.0f;
        for (int k = 0; k < fw; ++k) acc = vmafx_ftap(acc, tab[f + k], p[vmafx_fvif_mirror(j - r + k, w)], opq);
        v[q] = acc;
    }
    vmafx_fvif_consts c;
    c.sigma_nsq = vmafx_sd_from_bits(sigma_nsq_bits);
    for (int q = 0; q < VMAFX_FVIF_LOG2_TERMS; ++q) c.poly[q] = tab[q];
    c.max_inv = as_float(max_inv_bits);
    c.gain_limit = as_float(gain_limit_bits);
    c.opq = opq;
    float num, den;
    vmafx_fvif_stat(v[0], v[1], v[2], v[3], v[4], &c, &num, &den);
    terms[o] = num;
    terms[n + o] = den;
}

// Each row's float totals in column order: rows[off + i], rows[off + h + i].
__kernel void fv_rows(__global const float* terms, int w, int h, __global float* rows, int off)
{
    const int i = get_global_id(0);
    if (i >= h) return;
    const size_t n = (size_t)w * h;
    __global const float* a = terms + (size_t)i * w;
    rows[off + i] = vmafx_fsum(a, w);
    rows[off + h + i] = vmafx_fsum(a + n, w);
}
