/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-pixel arithmetic of the integer VIF (feature/vif.cpp, libvmaf
 * integer_vif.c), written once for the CPU (feature/vif.cpp), the CUDA twin
 * (feature/cuda/vif.cu) and the OpenCL twin (feature/opencl/vif.cl): the
 * mirror at the picture's edges, the Q11 log2, the sigmas from a pixel's
 * filtered sums and the pixel's share of a scale's four sums. Integer widths,
 * wrap-arounds and roundings are the reference's; the loops and the tiling
 * stay with the callers (the device tiles: vif_tile.h).
 *
 * The log branch's gain step leaves integers. OpenCL C (no fp64) and the CUDA
 * kernels for slow-fp64 GPUs take its two integers from vif_gain.h; the host
 * and the other CUDA kernels from vif_fp64.h (the compiler's fp64): the same
 * integers. */
#ifndef VMAFX_EXACT_VIF_H
#define VMAFX_EXACT_VIF_H

#include "vif_gain.h"
#include "vif_tables.h"

/* VMAFX_VIF_FN: always inlined (the callers' loop bounds and the gain path
 * are constants at every call and must fold). VMAFX_VIF_GLOBAL and
 * VMAFX_VIF_LOCAL: OpenCL's address spaces of the log2 table buffer and of a
 * work-group's tiles; CUDA's shared memory goes through generic pointers.
 * VMAFX_VIF_UNROLL: full unrolling of a loop whose bound is a constant once
 * inlined (the host leaves that to its compiler). */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define VMAFX_VIF_OPENCL 1
#define VMAFX_VIF_FN static inline __attribute__((always_inline))
#define VMAFX_VIF_GLOBAL __global
#define VMAFX_VIF_LOCAL __local
#define VMAFX_VIF_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define VMAFX_VIF_FN __host__ __device__ static __forceinline__
#define VMAFX_VIF_GLOBAL
#define VMAFX_VIF_LOCAL
#define VMAFX_VIF_UNROLL _Pragma("unroll")
#else
#define VMAFX_VIF_FN static inline
#define VMAFX_VIF_GLOBAL
#define VMAFX_VIF_LOCAL
#define VMAFX_VIF_UNROLL
#endif

#ifndef VMAFX_VIF_OPENCL
#include "vif_fp64.h"
#endif

/* The reference's padding: a reflection that does not repeat the edge. One
 * reflection suffices (every scale is at least as long as its filter's half
 * width + 1); positions beyond it only feed outputs outside the picture and
 * are clamped into it. */
VMAFX_VIF_FN int vmafx_vif_mirror(int i, int n)
{
    if (i < 0) i = -i;
    if (i >= n) i = 2 * (n - 1) - i;
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

/* libvmaf's log2_32 / log2_64: log2(v) in Q11 from the top 16 significant
 * bits of v (k bits dropped are worth k whole units), looked up in
 * vmafx_vif_log2_table (on OpenCL a buffer: the table fills a device's whole
 * constant space). Every caller passes v >= 2^17; the floor on k and the index
 * mask keep any other v inside the table and change nothing for those. */
VMAFX_VIF_FN vmafx_i32 vmafx_vif_log2_q11(vmafx_u64 v, VMAFX_VIF_GLOBAL const unsigned short* table)
{
    int k = 48 - vmafx_clz64(v);
    if (k < 1) k = 1;
    return (vmafx_i32)table[((v >> k) - VMAFX_VIF_LOG2_BASE) & 0x7FFF] + 2048 * k;
}

/* A sigma from the horizontal sum of a moment (Q16: rounded to Q0, truncated
 * to 32 bits) and two Q16 means (their product rounded to Q0 in 64 bits): the
 * 32-bit difference wraps and is read as signed, as in the reference. */
VMAFX_VIF_FN vmafx_i32 vmafx_vif_sigma(vmafx_u64 moment, vmafx_u32 mu_a, vmafx_u32 mu_b)
{
    const vmafx_u32 prod = (vmafx_u32)(((vmafx_u64)mu_a * mu_b + VMAFX_U64C(0x80000000)) >> 32);
    return (vmafx_i32)((vmafx_u32)((moment + 32768) >> 16) - prod);
}

/* A scale's four sums, libvmaf's int64 accumulators, in its order. */
typedef struct vmafx_vif_sums {
    vmafx_i64 num_log;
    vmafx_i64 den_log;
    vmafx_i64 num_non_log;
    vmafx_i64 den_non_log;
} vmafx_vif_sums;

/* One pixel's share (sigma2_sq unclamped). Log branch (sigma1_sq >= 2^17):
 * log2(1 + sigma1_sq / sigma_nsq) = log2(sigma_nsq + sigma1_sq) - 17 into the
 * denominator and, when sigma12 > 0 and sigma2_sq > 0, log2(total) -
 * log2(noise) of the gain's integers into the numerator: vif_gain.h's from
 * lim, or on the host and CUDA with fp64 != 0 vif_fp64.h's from gain_limit
 * (the same limit). Otherwise sigma2_sq and one pixel into the flat-area sums
 * (finished on the host). */
VMAFX_VIF_FN void vmafx_vif_accumulate(vmafx_vif_sums* a, vmafx_i32 s1, vmafx_i32 s2, vmafx_i32 s12,
                                       VMAFX_VIF_GLOBAL const unsigned short* log2_table, vmafx_vif_limit lim
#ifndef VMAFX_VIF_OPENCL
                                       , int fp64, double gain_limit
#endif
)
{
    if (s2 < 0) s2 = 0;
    if (s1 >= VMAFX_VIF_SIGMA_NSQ) {
        a->den_log += vmafx_vif_log2_q11((vmafx_u32)VMAFX_VIF_SIGMA_NSQ + (vmafx_u32)s1, log2_table) - 2048 * 17;
        if (s12 > 0 && s2 > 0) {
            vmafx_u32 noise;
            vmafx_i64 total;
#ifndef VMAFX_VIF_OPENCL
            if (fp64) {
                const vmafx_vif_terms_fp64 t = vmafx_vif_gain_fp64(s1, s2, s12, gain_limit);
                noise = t.noise;
                total = t.total;
            } else
#endif
            {
                const vmafx_vif_gain g = vmafx_vif_gain_terms(s1, s12, s2, lim);
                noise = (vmafx_u32)g.sv_sq + (vmafx_u32)VMAFX_VIF_SIGMA_NSQ;
                total = g.gg + (vmafx_i64)noise;
            }
            a->num_log += vmafx_vif_log2_q11((vmafx_u64)total, log2_table) - vmafx_vif_log2_q11(noise, log2_table);
        }
    } else {
        a->num_non_log += s2;
        a->den_non_log += 1;
    }
}

#endif
