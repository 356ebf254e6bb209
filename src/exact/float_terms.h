/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact integer forms of the per-pixel float terms of float_psnr and
 * float_moment (libvmaf's float picture_copy: a sample s at bit depth b is
 * the float s / 2^(b - 8), exactly). With k = b - 8:
 *   the sample itself        s        in units of 2^-k,
 *   its float square         rne24(s * s)  in units of 2^-2k,
 *   a float squared error    rne24(e * e)  in units of 2^-2k, e = s_ref - s_dis,
 * where rne24 rounds to 24 significant bits, to nearest, ties to even: the
 * float multiplication of two such values (the difference of two samples is
 * exact in float, and no product is subnormal). Each result is below 2^32 and
 * has at most 24 significant bits, so it is also the term's float value. */
#ifndef VMAFX_EXACT_FLOAT_TERMS_H
#define VMAFX_EXACT_FLOAT_TERMS_H

#include "compat.h"

/* v (< 2^40) rounded to 24 significant bits, nearest, ties to even. */
VMAFX_FN vmafx_u64 vmafx_rne24(vmafx_u64 v)
{
    int bits = 64 - vmafx_clz64(v);
    if (bits <= 24) return v;
    int sh = bits - 24;
    vmafx_u64 q = v >> sh;
    vmafx_u64 rem = v & ((VMAFX_U64_ONE << sh) - 1);
    vmafx_u64 mid = VMAFX_U64_ONE << (sh - 1);
    if (rem > mid || (rem == mid && (q & 1))) q += 1;
    return q << sh; /* a carry to 2^24 stays representable */
}

/* Term kinds of the row-sum kernels. */
#define VMAFX_FTERM_SAMPLE 0 /* s: float_moment 1st, units 2^-k */
#define VMAFX_FTERM_SQUARE 1 /* rne24(s * s): float_moment 2nd, units 2^-2k */
#define VMAFX_FTERM_ERROR 2  /* rne24((a - b)^2): float_psnr, units 2^-2k */

VMAFX_FN vmafx_u64 vmafx_fterm(int kind, vmafx_i32 a, vmafx_i32 b)
{
    if (kind == VMAFX_FTERM_SAMPLE) return (vmafx_u64)a;
    vmafx_i32 e = kind == VMAFX_FTERM_SQUARE ? a : a - b;
    vmafx_u64 m = (vmafx_u64)(e < 0 ? -e : e);
    return vmafx_rne24(m * m);
}

/* ---- fp32 and fp64 operations of the float features' shared arithmetic ---
 * The per-pixel code of float_vif.h, float_adm.h and float_ansnr.h is written
 * with these, so that one text is the host's scalar reference, the CUDA
 * kernels and the OpenCL kernels:
 *   host, CUDA  the plain IEEE float and double operations (the host builds
 *               with -ffp-contract=off, nvcc with --fmad=false);
 *   OpenCL      float_ops.cl's fl_* (the host's value on any device, whatever
 *               it does with subnormals; the kernel file includes
 *               float_ops.cl before the exact header) and soft fp64
 *               (vmafx_sd) for the double steps, as no fp64 type is used.
 * VMAFX_FMUL takes `opq`, which is 0 at run time: on OpenCL the product passes
 * an exclusive-or with it, which no compiler can see through, so no product is
 * fused with the add that consumes it (float_ops.cl); host and CUDA ignore it.
 * Comparisons are IEEE's (false when an operand is NaN). An OpenCL program
 * that has not included float_ops.cl first (the integer-only float_psnr.cl)
 * gets none of this part. */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_FTERMS_OPENCL_ 1
#endif
#if !defined(VMAFX_FTERMS_OPENCL_) || defined(VMAFX_FLOAT_OPS_CL)
#ifdef VMAFX_FTERMS_OPENCL_
#include "softfp64.h"
#define VMAFX_FGLOBAL __global /* the address space of a kernel's buffers */
typedef vmafx_sd vmafx_f64;
#define VMAFX_FADD(a, b) fl_add((a), (b))
#define VMAFX_FSUB(a, b) fl_sub((a), (b))
#define VMAFX_FMUL(a, b, opq) fl_mul((a), (b), (opq))
#define VMAFX_FDIV(a, b) f32_div((a), (b))
#define VMAFX_FLT(a, b) fl_lt((a), (b))
#define VMAFX_FLE(a, b) vmafx_sd_le(f32_sd(a), f32_sd(b))
#define VMAFX_FGT0(a) fl_gt0(a)
#define VMAFX_FLT0(a) fl_lt0(a)
#define VMAFX_FGE0(a) (!fl_is_nan(a) && !fl_lt0(a))
#define VMAFX_FBITS(a) as_uint(a)
#define VMAFX_FFROM(b) as_float((vmafx_u32)(b))
#define VMAFX_D(a) f32_sd(a) /* float to double (exact) */
#define VMAFX_DBITS(b) vmafx_sd_from_bits(b)
#define VMAFX_DADD(a, b) vmafx_sd_add((a), (b))
#define VMAFX_DMUL(a, b) vmafx_sd_mul((a), (b))
#define VMAFX_DDIV(a, b) vmafx_sd_div((a), (b))
#define VMAFX_DLT(a, b) vmafx_sd_lt((a), (b))
#define VMAFX_DF(a) as_float(sd_to_f32(a)) /* double to float (nearest) */
#else
#include <string.h>
#define VMAFX_FGLOBAL
typedef double vmafx_f64;
#define VMAFX_FADD(a, b) ((a) + (b))
#define VMAFX_FSUB(a, b) ((a) - (b))
#define VMAFX_FMUL(a, b, opq) ((void)(opq), (a) * (b))
#define VMAFX_FDIV(a, b) ((a) / (b))
#define VMAFX_FLT(a, b) ((a) < (b))
#define VMAFX_FLE(a, b) ((a) <= (b))
#define VMAFX_FGT0(a) ((a) > 0.0f)
#define VMAFX_FLT0(a) ((a) < 0.0f)
#define VMAFX_FGE0(a) ((a) >= 0.0f)
#define VMAFX_D(a) ((double)(a))
#define VMAFX_DADD(a, b) ((a) + (b))
#define VMAFX_DMUL(a, b) ((a) * (b))
#define VMAFX_DDIV(a, b) ((a) / (b))
#define VMAFX_DLT(a, b) ((a) < (b))
#define VMAFX_DF(a) ((float)(a))
#ifdef __CUDA_ARCH__
#define VMAFX_FBITS(a) __float_as_uint(a)
#define VMAFX_FFROM(b) __uint_as_float((vmafx_u32)(b))
#define VMAFX_DBITS(b) __longlong_as_double((long long)(b))
#else
/* The bits of a value as another type of the same size (host code). */
#define VMAFX_FBITS(a) vmafx_bitcast_u32_(a)
#define VMAFX_FFROM(b) vmafx_bitcast_f32_((vmafx_u32)(b))
#define VMAFX_DBITS(b) vmafx_bitcast_f64_((vmafx_u64)(b))
VMAFX_FN vmafx_u32 vmafx_bitcast_u32_(float a) { vmafx_u32 r; memcpy(&r, &a, sizeof r); return r; }
VMAFX_FN float vmafx_bitcast_f32_(vmafx_u32 a) { float r; memcpy(&r, &a, sizeof r); return r; }
VMAFX_FN double vmafx_bitcast_f64_(vmafx_u64 a) { double r; memcpy(&r, &a, sizeof r); return r; }
#endif
#endif

/* |a| (the sign bit cleared, as fabsf). */
VMAFX_FN float vmafx_fabs(float a) { return VMAFX_FFROM(VMAFX_FBITS(a) & 0x7FFFFFFFu); }

/* acc + c * x, the product rounded before the sum: one tap of a filter. */
VMAFX_FN float vmafx_ftap(float acc, float c, float x, vmafx_u32 opq)
{
    return VMAFX_FADD(acc, VMAFX_FMUL(c, x, opq));
}

/* The float sum from 0, in order, of p[0 .. n): a row's total. */
VMAFX_FN float vmafx_fsum(const VMAFX_FGLOBAL float* p, int n)
{
    float acc = 0.0f;
    int i;
    for (i = 0; i < n; ++i) acc = VMAFX_FADD(acc, p[i]);
    return acc;
}

#endif /* the fp32 and fp64 operations */

#endif
