// SPDX-License-Identifier: BSD-3-Clause
// Test kernels for src/exact on an OpenCL device: the same vectors as the host
// tests, through the very headers the host compiles. No fp64 anywhere.
#pragma OPENCL FP_CONTRACT OFF

#include "softfp64.h"
#include "ssim_term.h"
#include "vif_gain.h"
#include "fixed_decimate.h"

__kernel void sd_binop(int op, __global const ulong* a, __global const ulong* b, __global ulong* out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n) return;
    vmafx_sd x = vmafx_sd_from_bits(a[i]);
    vmafx_sd y = vmafx_sd_from_bits(b[i]);
    vmafx_sd r;
    if (op == 0) r = vmafx_sd_add(x, y);
    else if (op == 1) r = vmafx_sd_sub(x, y);
    else if (op == 2) r = vmafx_sd_mul(x, y);
    else r = vmafx_sd_div(x, y);
    out[i] = vmafx_sd_to_bits(r);
}

// eq | lt << 1 | le << 2 | lt(b, a) << 3
__kernel void sd_compare(__global const ulong* a, __global const ulong* b, __global int* out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n) return;
    vmafx_sd x = vmafx_sd_from_bits(a[i]);
    vmafx_sd y = vmafx_sd_from_bits(b[i]);
    out[i] = vmafx_sd_eq(x, y) | vmafx_sd_lt(x, y) << 1 | vmafx_sd_le(x, y) << 2 | vmafx_sd_lt(y, x) << 3;
}

// from_u64 and from_i64 of the same 64 bits
__kernel void sd_from_int(__global const ulong* v, __global ulong* out_u, __global ulong* out_i, uint n)
{
    uint i = get_global_id(0);
    if (i >= n) return;
    out_u[i] = vmafx_sd_to_bits(vmafx_sd_from_u64(v[i]));
    out_i[i] = vmafx_sd_to_bits(vmafx_sd_from_i64((long)v[i]));
}

__kernel void sd_to_int(__global const ulong* v, __global long* out64, __global int* out32, uint n)
{
    uint i = get_global_id(0);
    if (i >= n) return;
    vmafx_sd x = vmafx_sd_from_bits(v[i]);
    out64[i] = vmafx_sd_to_i64(x);
    out32[i] = vmafx_sd_to_i32(x);
}

__kernel void ssim_term(__global const long* m, ulong k1f, ulong k2f, __global ulong* out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n) return;
    __global const long* p = m + 6 * (size_t)i;
    out[i] = vmafx_ssim_term_bits(p[0], p[1], p[2], p[3], p[4], p[5], k1f, k2f);
}

__kernel void vif_gain(__global const int* s, ulong limit_bits, __global int* sv, __global long* gg,
                       __global int* replayed, uint n)
{
    uint i = get_global_id(0);
    if (i >= n) return;
    vmafx_vif_limit lim = vmafx_vif_limit_make(limit_bits);
    vmafx_vif_gain g = vmafx_vif_gain_terms(s[3 * (size_t)i], s[3 * (size_t)i + 1], s[3 * (size_t)i + 2], lim);
    sv[i] = g.sv_sq;
    gg[i] = g.gg;
    replayed[i] = g.replayed;
}

__kernel void decimate(__global const ushort* samples, __global const uint* start, __global const int* scale,
                       int bpc, __global uint* out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n) return;
    int s = scale[i];
    uint tap = vmafx_decimate_tap_bits(s);
    __global const ushort* p = samples + start[i];
    ulong sum = 0;
    for (int k = 0; k < s * s; ++k) sum += vmafx_decimate_product_fx(vmafx_decimate_sample_fx(p[k], bpc), tap);
    out[i] = vmafx_decimate_round_fx(sum);
}
