/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenCL C 1.2: long/ulong are 64 bits wide by definition; clz() is a builtin
 * that returns 64 for a zero ulong; size_t and ptrdiff_t are built in. */
#ifndef VMAFX_EXACT_COMPAT_OPENCL_H
#define VMAFX_EXACT_COMPAT_OPENCL_H

#define VMAFX_FN static inline
#define VMAFX_U64C(x) x##UL

typedef ulong vmafx_u64;
typedef long vmafx_i64;
typedef uint vmafx_u32;
typedef int vmafx_i32;
typedef ushort vmafx_u16;
typedef uchar vmafx_u8;

/* The address spaces of a kernel's buffers and of its work-group's memory. */
#define VMAFX_GLOBAL __global
#define VMAFX_LOCAL __local

VMAFX_FN int vmafx_clz64(vmafx_u64 x) { return (int)clz(x); }

#endif
