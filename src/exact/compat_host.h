/* SPDX-License-Identifier: BSD-3-Clause */
/* Host C++ (GCC, Clang): plain static inline functions, <stdint.h> types. */
#ifndef VMAFX_EXACT_COMPAT_HOST_H
#define VMAFX_EXACT_COMPAT_HOST_H

#include <stdint.h>

#define VMAFX_FN static inline
#define VMAFX_U64C(x) UINT64_C(x)

typedef uint64_t vmafx_u64;
typedef int64_t vmafx_i64;
typedef uint32_t vmafx_u32;
typedef int32_t vmafx_i32;

/* Leading zero bits of a 64-bit value; 64 for zero. */
VMAFX_FN int vmafx_clz64(vmafx_u64 x) { return x ? __builtin_clzll(x) : 64; }

#endif
