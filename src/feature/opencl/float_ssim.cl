// SPDX-License-Identifier: BSD-3-Clause
// The float SSIM family (float_ssim, float_ms_ssim) on an OpenCL device,
// without fp64: libvmaf's float products summed in double and rounded to
// float are replayed in soft fp64 operation by operation (the sums are not
// exact, so their order is kept), the box decimation is an exact int64
// fixed-point sum (exact/fixed_decimate.h), and every per-pixel double term is
// stored as its IEEE bits for the host to add in raster order.
#pragma OPENCL FP_CONTRACT OFF

#define VMAFX_SSIM_TABLE __constant
#include "ocl_f32.cl"
#include "exact/fixed_decimate.h"
#include "exact/ssim.h"
#include "plane_sample.cl"

// ssim_lcs.h's operations: ocl_f32.cl's correctly rounded fp32 (a sign test
// on the bits, whatever the device does with subnormals) and soft fp64.
inline int f32_negative(float a) { return (as_uint(a) >> 31) && (as_uint(a) & 0x7FFFFFFFu); }
inline int f32_positive(float a) { return !(as_uint(a) >> 31) && (as_uint(a) & 0x7FFFFFFFu); }
#define VMAFX_FS_ADD(a, b) f32_add(a, b)
#define VMAFX_FS_SUB(a, b) f32_sub(a, b)
#define VMAFX_FS_MUL(a, b) f32_mul(a, b)
#define VMAFX_FS_DIV(a, b) f32_div(a, b)
#define VMAFX_FS_SQRT(a) f32_sqrt(a)
#define VMAFX_FS_LT0(a) f32_negative(a)
#define VMAFX_FS_LE0(a) (!f32_positive(a))
#define VMAFX_FD vmafx_sd
#define VMAFX_FD_OF(a) f32_sd(a)
#define VMAFX_FD_TWICE(a) vmafx_sd_mul_pow2(a, 1)
#define VMAFX_FD_ADD(a, b) vmafx_sd_add(a, b)
#define VMAFX_FD_MUL(a, b) vmafx_sd_mul(a, b)
#define VMAFX_FD_DIV(a, b) vmafx_sd_div(a, b)
#include "exact/ssim_lcs.h"

// Luma on the 8-bit scale: sample / 2^(bpc - 8), exact.
__kernel void fs_to_float(__global const uchar* src, int w, int h, int wide, int bpc, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    const uint fx = vmafx_decimate_sample_fx((uint)plane_sample(src, (size_t)y * w + x, wide), bpc);  // units of 2^-8
    dst[(size_t)y * w + x] = as_float(fx == 0 ? 0u : vmafx_decimate_round_fx((ulong)fx << 44));
}

// float_ssim's box decimation by `scale` (2 .. 10): output (x, y) of sw x sh.
__kernel void fs_decimate_box(__global const uchar* src, int w, int h, int wide, int bpc, int scale,
                              uint tap_bits, int sw, int sh, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= sw || y >= sh) return;
    const int first = vmafx_decimate_first_offset(scale);
    ulong sum = 0;
    for (int v = 0; v < scale; ++v) {
        const int yy = vmafx_fssim_mirror(y * scale + first + v, h);
        for (int u = 0; u < scale; ++u) {
            const int xx = vmafx_fssim_mirror(x * scale + first + u, w);
            const uint fx = vmafx_decimate_sample_fx((uint)plane_sample(src, (size_t)yy * w + xx, wide), bpc);
            sum += vmafx_decimate_product_fx(fx, tap_bits);
        }
    }
    dst[(size_t)y * sw + x] = as_float(vmafx_decimate_round_fx(sum));
}

// float_ms_ssim's halving with the 9x9 low-pass filter: the products are
// floats, added in double row by row, tap by tap.
__kernel void fs_lpf(__global const float* src, int w, int h, int sw, int sh, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= sw || y >= sh) return;
    const int r = VMAFX_MS_SSIM_LPF_RADIUS;
    float prod[VMAFX_MS_SSIM_LPF_TAPS * VMAFX_MS_SSIM_LPF_TAPS];
    int k = 0;
    for (int v = -r; v <= r; ++v) {
        const size_t row = (size_t)vmafx_fssim_mirror(2 * y + v, h) * w;
        for (int u = -r; u <= r; ++u, ++k) prod[k] = f32_mul(src[row + vmafx_fssim_mirror(2 * x + u, w)], vmafx_ms_ssim_lpf[k]);
    }
    dst[(size_t)y * sw + x] = f32_sum_in_double(prod, VMAFX_MS_SSIM_LPF_TAPS * VMAFX_MS_SSIM_LPF_TAPS, 7);
}

// Horizontal pass of the 11-tap Gaussian over the positions where it fits:
// five moments (ref, cmp, ref^2, cmp^2, ref*cmp) of dw x h, planes of `plane` floats.
__kernel void fs_horizontal(__global const float* ref, __global const float* cmp, int w, int h,
                            __global float* out)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int dw = w - (VMAFX_SSIM_GAUSS_TAPS - 1);
    if (x >= dw || y >= h) return;
    const size_t plane = (size_t)dw * h;
    __global const float* a = ref + (size_t)y * w + x;
    __global const float* b = cmp + (size_t)y * w + x;
    float p0[VMAFX_SSIM_GAUSS_TAPS], p1[VMAFX_SSIM_GAUSS_TAPS], p2[VMAFX_SSIM_GAUSS_TAPS],
        p3[VMAFX_SSIM_GAUSS_TAPS], p4[VMAFX_SSIM_GAUSS_TAPS];
    for (int u = 0; u < VMAFX_SSIM_GAUSS_TAPS; ++u) {
        const float ra = a[u], cb = b[u], k = vmafx_ssim_gauss[u];
        const float rr = f32_mul(ra, ra), cc = f32_mul(cb, cb), rc = f32_mul(ra, cb);
        p0[u] = f32_mul(ra, k);
        p1[u] = f32_mul(cb, k);
        p2[u] = f32_mul(rr, k);
        p3[u] = f32_mul(cc, k);
        p4[u] = f32_mul(rc, k);
    }
    const size_t i = (size_t)y * dw + x;
    out[i] = f32_sum_in_double(p0, VMAFX_SSIM_GAUSS_TAPS, 4);
    out[plane + i] = f32_sum_in_double(p1, VMAFX_SSIM_GAUSS_TAPS, 4);
    out[2 * plane + i] = f32_sum_in_double(p2, VMAFX_SSIM_GAUSS_TAPS, 4);
    out[3 * plane + i] = f32_sum_in_double(p3, VMAFX_SSIM_GAUSS_TAPS, 4);
    out[4 * plane + i] = f32_sum_in_double(p4, VMAFX_SSIM_GAUSS_TAPS, 4);
}

// Vertical pass and the per-pixel SSIM of position (x, y) of dw x dh: the
// double l * c * s (and l, c, s with lcs) as IEEE bits, at term[k * n + i].
__kernel void fs_vertical(__global const float* hm, int w, int h, uint c1_bits, uint c2_bits, uint c3_bits,
                          int lcs, __global ulong* term)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int dw = w - (VMAFX_SSIM_GAUSS_TAPS - 1), dh = h - (VMAFX_SSIM_GAUSS_TAPS - 1);
    if (x >= dw || y >= dh) return;
    const size_t plane = (size_t)dw * h;
    float mom[5];
    for (int m = 0; m < 5; ++m) {
        float prod[VMAFX_SSIM_GAUSS_TAPS];
        for (int v = 0; v < VMAFX_SSIM_GAUSS_TAPS; ++v)
            prod[v] = f32_mul(hm[m * plane + (size_t)(y + v) * dw + x], vmafx_ssim_gauss[v]);
        mom[m] = f32_sum_in_double(prod, VMAFX_SSIM_GAUSS_TAPS, 4);
    }
    vmafx_fssim_consts k;
    k.c1 = as_float(c1_bits);
    k.c2 = as_float(c2_bits);
    k.c3 = as_float(c3_bits);
    const vmafx_fssim_terms t = vmafx_fssim_lcs(mom[0], mom[1], mom[2], mom[3], mom[4], k);
    const size_t n = (size_t)dw * dh, i = (size_t)y * dw + x;
    term[i] = vmafx_sd_to_bits(t.lcs);
    if (lcs) {
        term[n + i] = vmafx_sd_to_bits(t.l);
        term[2 * n + i] = vmafx_sd_to_bits(t.c);
        term[3 * n + i] = vmafx_sd_to_bits(t.s);
    }
}
