/* SPDX-License-Identifier: BSD-3-Clause */
/* One 8x8 block of PSNR-HVS (feature/psnr_hvs.cpp, libvmaf's xiph
 * psnr_hvs.c) in the common subset of C++, CUDA and OpenCL C: the block's
 * means and variances, the integer DCT of both blocks, the masking and the 64
 * CSF-weighted squared errors, every float operation as the reference forms
 * it, in its order. The reference adds the 64 terms of every block into one
 * float in raster order of the blocks; a caller returns the terms and leaves
 * that sum to the host.
 *
 * Float division and square root must be correctly rounded: the OpenCL file
 * includes ocl_f32.cl first (f32_div, f32_sqrt); CUDA's and the host's / and
 * sqrtf are (nvcc without fast math: -prec-div, -prec-sqrt). The reference's
 * (float)(sqrt((double)x) / 32.f) is sqrtf(x) / 32: rounding sqrt to double
 * first is innocuous and the division by 32 is exact (no result here is
 * subnormal). Divisions by 64 and 16 are exact multiplications. No float
 * here is subnormal: sums and squares of integers and multiples of 2^-6 are
 * 0 or far above 2^-126, so a device that flushes subnormals agrees. */
#ifndef VMAFX_EXACT_PSNR_HVS_BLOCK_H
#define VMAFX_EXACT_PSNR_HVS_BLOCK_H

#include "compat.h"

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_HVS_TABLE __global const
#define VMAFX_HVS_DIV(a, b) f32_div((a), (b))
#define VMAFX_HVS_SQRT(a) f32_sqrt(a)
#else
#include <math.h>
#define VMAFX_HVS_TABLE const
#define VMAFX_HVS_DIV(a, b) ((a) / (b))
#define VMAFX_HVS_SQRT(a) sqrtf(a)
#endif

/* a / 2^b rounded toward zero. */
VMAFX_FN vmafx_i32 vmafx_hvs_shr0(vmafx_i32 a, int b)
{
    return (vmafx_i32)((vmafx_u32)a + ((vmafx_u32)a >> (32 - b))) >> b;
}

/* (a * m + 2^(s-1)) >> s. */
VMAFX_FN vmafx_i32 vmafx_hvs_mulr(vmafx_i32 a, vmafx_i32 m, int s)
{
    return (a * m + (1 << (s - 1))) >> s;
}

/* The 8-point integer DCT (the lifting steps of Daala's od_bin_fdct8) of
 * in[0], in[stride], ..., in[7 * stride] into out[0..7]. */
VMAFX_FN void vmafx_hvs_fdct8(vmafx_i32* out, const vmafx_i32* in, int stride)
{
    vmafx_i32 t0 = in[0 * stride], t4 = in[1 * stride], t2 = in[2 * stride], t6 = in[3 * stride];
    vmafx_i32 t7 = in[4 * stride], t3 = in[5 * stride], t5 = in[6 * stride], t1 = in[7 * stride];
    vmafx_i32 t1h, t4h, t6h;
    t1 = t0 - t1;
    t1h = vmafx_hvs_shr0(t1, 1);
    t0 -= t1h;
    t4 += t5;
    t4h = vmafx_hvs_shr0(t4, 1);
    t5 -= t4h;
    t3 = t2 - t3;
    t2 -= vmafx_hvs_shr0(t3, 1);
    t6 += t7;
    t6h = vmafx_hvs_shr0(t6, 1);
    t7 = t6h - t7;
    t0 += t6h;
    t6 = t0 - t6;
    t2 = t4h - t2;
    t4 = t2 - t4;
    t0 -= vmafx_hvs_mulr(t4, 13573, 15);
    t4 += vmafx_hvs_mulr(t0, 11585, 14);
    t0 -= vmafx_hvs_mulr(t4, 13573, 15);
    t6 -= vmafx_hvs_mulr(t2, 21895, 15);
    t2 += vmafx_hvs_mulr(t6, 15137, 14);
    t6 -= vmafx_hvs_mulr(t2, 21895, 15);
    t3 += vmafx_hvs_mulr(t5, 19195, 15);
    t5 += vmafx_hvs_mulr(t3, 11585, 14);
    t3 -= vmafx_hvs_mulr(t5, 7489, 13);
    t7 = vmafx_hvs_shr0(t5, 1) - t7;
    t5 -= t7;
    t3 = t1h - t3;
    t1 -= t3;
    t7 += vmafx_hvs_mulr(t1, 3227, 15);
    t1 -= vmafx_hvs_mulr(t7, 6393, 15);
    t7 += vmafx_hvs_mulr(t1, 3227, 15);
    t5 += vmafx_hvs_mulr(t3, 2485, 13);
    t3 -= vmafx_hvs_mulr(t5, 18205, 15);
    t5 += vmafx_hvs_mulr(t3, 2485, 13);
    out[0] = t0;
    out[1] = t1;
    out[2] = t2;
    out[3] = t3;
    out[4] = t4;
    out[5] = t5;
    out[6] = t6;
    out[7] = t7;
}

/* The 2-D DCT in place: columns into the rows of z, then the columns of z. */
VMAFX_FN void vmafx_hvs_fdct8x8(vmafx_i32* block)
{
    vmafx_i32 z[64];
    int i;
    for (i = 0; i < 8; ++i) vmafx_hvs_fdct8(z + 8 * i, block + i, 8);
    for (i = 0; i < 8; ++i) vmafx_hvs_fdct8(block + 8 * i, z + i, 8);
}

/* Means and variance ratio of one block (s_gvar of the reference). */
VMAFX_FN float vmafx_hvs_var_ratio(const vmafx_i32* v, float var63, float var15)
{
    float means[4] = {0.0f, 0.0f, 0.0f, 0.0f}, vars[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float gmean = 0.0f, gvar = 0.0f;
    int i, j;
    for (i = 0; i < 8; ++i)
        for (j = 0; j < 8; ++j) {
            int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
            gmean += (float)v[i * 8 + j];
            means[sub] += (float)v[i * 8 + j];
        }
    gmean *= 0.015625f;
    for (i = 0; i < 4; ++i) means[i] *= 0.0625f;
    for (i = 0; i < 8; ++i)
        for (j = 0; j < 8; ++j) {
            int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
            float x = (float)v[i * 8 + j];
            gvar += (x - gmean) * (x - gmean);
            vars[sub] += (x - means[sub]) * (x - means[sub]);
        }
    gvar *= var63;
    for (i = 0; i < 4; ++i) vars[i] *= var15;
    if (gvar > 0) gvar = VMAFX_HVS_DIV(vars[0] + vars[1] + vars[2] + vars[3], gvar);
    return gvar;
}

/* The masking energy of a transformed block: sqrtf(sum * var) / 32. */
VMAFX_FN float vmafx_hvs_mask(const vmafx_i32* c, VMAFX_HVS_TABLE float* mask, float var)
{
    float m = 0.0f;
    int i, j;
    for (i = 0; i < 8; ++i)
        for (j = (i == 0); j < 8; ++j) m += (float)(c[i * 8 + j] * c[i * 8 + j]) * mask[i * 8 + j];
    return VMAFX_HVS_SQRT(m * var) * 0.03125f;
}

/* The block's 64 terms (err * csf)^2 into out, raster order. s and d: the
 * samples of the reference and distorted blocks, overwritten by their DCTs.
 * mask, csf: the plane's 8x8 tables. var63 = 1 / 63.f * 64, var15 = 1 / 15.f
 * * 16 as the reference's float constants. */
VMAFX_FN void vmafx_hvs_block_terms(vmafx_i32* s, vmafx_i32* d, VMAFX_HVS_TABLE float* mask,
                                    VMAFX_HVS_TABLE float* csf, float var63, float var15, float* out)
{
    float s_var = vmafx_hvs_var_ratio(s, var63, var15);
    float d_var = vmafx_hvs_var_ratio(d, var63, var15);
    float s_mask, d_mask;
    int i, j;
    vmafx_hvs_fdct8x8(s);
    vmafx_hvs_fdct8x8(d);
    s_mask = vmafx_hvs_mask(s, mask, s_var);
    d_mask = vmafx_hvs_mask(d, mask, d_var);
    if (d_mask > s_mask) s_mask = d_mask;
    for (i = 0; i < 8; ++i)
        for (j = 0; j < 8; ++j) {
            vmafx_i32 e = s[i * 8 + j] - d[i * 8 + j];
            float err = (float)(e < 0 ? -e : e);
            float t;
            if (i != 0 || j != 0) {
                float q = VMAFX_HVS_DIV(s_mask, mask[i * 8 + j]);
                err = err < q ? 0.0f : err - q;
            }
            t = err * csf[i * 8 + j];
            out[i * 8 + j] = t * t;
        }
}

#endif
