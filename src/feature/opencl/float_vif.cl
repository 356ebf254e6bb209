// SPDX-License-Identifier: BSD-3-Clause
// float_vif on an OpenCL device, without fp64: the reference's float
// operations in its order (float_ops.cl: native where the device's value is
// the host's, soft fp64 otherwise), its two double expressions of the
// statistic in soft fp64, and each row's float totals in column order; the
// host adds the rows in row order (feature/opencl/float_vif_opencl.cpp).
// `tab` holds the log2 polynomial (9 floats) and then the scale's taps at
// `f`; `opq` is always 0 (see float_ops.cl).
#pragma OPENCL FP_CONTRACT OFF

#include "float_ops.cl"

inline int fv_mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

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
        acc = fl_add(acc, fl_mul(tab[f + k], src[(size_t)fv_mirror(2 * i - r + k, h) * w + j], opq));
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
    for (int k = 0; k < fw; ++k) acc = fl_add(acc, fl_mul(tab[f + k], row[fv_mirror(2 * j - r + k, w)], opq));
    dst[(size_t)i * dw + j] = acc;
}

// Vertical pass of the five moments: planes of w * h floats.
__kernel void fv_vmom(__global const float* tab, int f, int fw, __global const float* ref,
                      __global const float* dis, int w, int h, uint opq, __global float* m)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    const int r = fw / 2;
    float t1 = 0.0f, t2 = 0.0f, txx = 0.0f, tyy = 0.0f, txy = 0.0f;
    for (int k = 0; k < fw; ++k) {
        const float c = tab[f + k];
        const size_t off = (size_t)fv_mirror(i - r + k, h) * w + j;
        const float a = ref[off], b = dis[off];
        t1 = fl_add(t1, fl_mul(c, a, opq));
        t2 = fl_add(t2, fl_mul(c, b, opq));
        txx = fl_add(txx, fl_mul(c, fl_mul(a, a, opq), opq));
        tyy = fl_add(tyy, fl_mul(c, fl_mul(b, b, opq), opq));
        txy = fl_add(txy, fl_mul(c, fl_mul(a, b, opq), opq));
    }
    const size_t n = (size_t)w * h, o = (size_t)i * w + j;
    m[o] = t1;
    m[n + o] = t2;
    m[2 * n + o] = txx;
    m[3 * n + o] = tyy;
    m[4 * n + o] = txy;
}

// libvmaf's log2 replacement (float_vif.cpp, log2_approx).
inline float fv_log2(float x, __global const float* tab, uint opq)
{
    const uint u = as_uint(x);
    if ((u & 0x7FFFFFFFu) == 0) return as_float(0xFF800000u);  // -inf
    if (fl_lt0(x)) return as_float(0x7FC00000u);                 // the reference's NAN
    const uint exponent = (u & 0x7F800000u) >> 23;
    const float m = as_float((u & 0x007FFFFFu) | 0x3F800000u);
    const float base = (float)((int)exponent - 127);
    const float t = fl_sub(m, 1.0f);
    float p = 0.0f;
    for (int i = 0; i < 9; ++i) p = fl_add(fl_mul(p, t, opq), tab[i]);
    return fl_add(base, p);
}

// (float)(1.0f + a / b) with a / b and the sum in double.
inline float fv_one_plus_ratio(vmafx_sd a, vmafx_sd b)
{
    return as_float(sd_to_f32(vmafx_sd_add(vmafx_sd_from_u64(1), vmafx_sd_div(a, b))));
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
        for (int k = 0; k < fw; ++k) acc = fl_add(acc, fl_mul(tab[f + k], p[fv_mirror(j - r + k, w)], opq));
        v[q] = acc;
    }
    const float eps = 1.0e-10f;
    const float max_inv = as_float(max_inv_bits), gain_limit = as_float(gain_limit_bits);
    const vmafx_sd sigma_nsq = vmafx_sd_from_bits(sigma_nsq_bits);
    const float mu1 = v[0], mu2 = v[1], xx = v[2], yy = v[3], xy = v[4];
    const float mu1_sq = fl_mul(mu1, mu1, opq);
    const float mu2_sq = fl_mul(mu2, mu2, opq);
    const float mu1_mu2 = fl_mul(mu1, mu2, opq);
    float sigma1_sq = fl_sub(xx, mu1_sq);
    float sigma2_sq = fl_sub(yy, mu2_sq);
    const float sigma12 = fl_sub(xy, mu1_mu2);
    sigma1_sq = fl_gt0(sigma1_sq) ? sigma1_sq : 0.0f;
    sigma2_sq = fl_gt0(sigma2_sq) ? sigma2_sq : 0.0f;

    float g = f32_div(sigma12, fl_add(sigma1_sq, eps));
    float sv_sq = fl_sub(sigma2_sq, fl_mul(g, sigma12, opq));
    if (fl_lt(sigma1_sq, eps)) {
        g = 0.0f;
        sv_sq = sigma2_sq;
        sigma1_sq = 0.0f;
    }
    if (fl_lt(sigma2_sq, eps)) {
        g = 0.0f;
        sv_sq = 0.0f;
    }
    if (fl_lt0(g)) {
        sv_sq = sigma2_sq;
        g = 0.0f;
    }
    sv_sq = fl_lt(eps, sv_sq) ? sv_sq : eps;
    g = fl_lt(g, gain_limit) ? g : gain_limit;

    float num, den;
    if (vmafx_sd_lt(f32_sd(sigma1_sq), sigma_nsq)) {
        num = fl_sub(1.0f, fl_mul(sigma2_sq, max_inv, opq));
        den = 1.0f;
    } else {
        den = fv_log2(fv_one_plus_ratio(f32_sd(sigma1_sq), sigma_nsq), tab, opq);
        if (fl_lt0(sigma12)) {
            num = 0.0f;
        } else {
            const float gg = fl_mul(fl_mul(g, g, opq), sigma1_sq, opq);
            num = fv_log2(fv_one_plus_ratio(f32_sd(gg), vmafx_sd_add(f32_sd(sv_sq), sigma_nsq)), tab, opq);
        }
    }
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
    __global const float* b = a + n;
    float sn = 0.0f, sd = 0.0f;
    for (int j = 0; j < w; ++j) {
        sn = fl_add(sn, a[j]);
        sd = fl_add(sd, b[j]);
    }
    rows[off + i] = sn;
    rows[off + h + i] = sd;
}
