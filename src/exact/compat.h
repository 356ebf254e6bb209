/* SPDX-License-Identifier: BSD-3-Clause */
/* Selects the qualifier and integer-type shim of the compiler that reads this
 * file. Everything under src/exact/ is written in the common subset of C++20,
 * CUDA C++ and OpenCL C 1.2: no templates, no references, no fp64 type, no
 * 64-bit high-half multiply builtin. The OpenCL program is built from these
 * very files. */
#ifndef VMAFX_EXACT_COMPAT_H
#define VMAFX_EXACT_COMPAT_H

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#include "compat_opencl.h"
#else
#include <stddef.h>
#include <stdint.h>
typedef uint16_t vmafx_u16;
typedef uint8_t vmafx_u8;
/* Buffers are plain pointers (OpenCL C's __global and __local spaces). */
#define VMAFX_GLOBAL
#define VMAFX_LOCAL
#if defined(__CUDACC__)
#include "compat_cuda.h"
#else
#include "compat_host.h"
#endif
#endif

#define VMAFX_U64_ONE ((vmafx_u64)1)
#define VMAFX_I64_MAX_ ((vmafx_i64)VMAFX_U64C(0x7FFFFFFFFFFFFFFF))
#define VMAFX_I64_MIN (-VMAFX_I64_MAX_ - 1)
#define VMAFX_I32_MIN (-2147483647 - 1)

#endif
