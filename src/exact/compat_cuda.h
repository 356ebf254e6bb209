/* SPDX-License-Identifier: BSD-3-Clause */
/* CUDA C++ (nvcc): every function is callable from host and device code. */
#ifndef VMAFX_EXACT_COMPAT_CUDA_H
#define VMAFX_EXACT_COMPAT_CUDA_H

#include <stdint.h>

#define VMAFX_FN __host__ __device__ static inline
#define VMAFX_U64C(x) UINT64_C(x)

typedef uint64_t vmafx_u64;
typedef int64_t vmafx_i64;
typedef uint32_t vmafx_u32;
typedef int32_t vmafx_i32;

VMAFX_FN int vmafx_clz64(vmafx_u64 x)
{
#ifdef __CUDA_ARCH__
    return __clzll((long long)x); /* 64 for zero */
#else
    return x ? __builtin_clzll(x) : 64;
#endif
}

#endif
