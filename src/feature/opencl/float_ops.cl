// SPDX-License-Identifier: BSD-3-Clause
// fp32 operations for the float features' kernels (float_vif, float_adm,
// float_motion), each the value the host's SSE unit computes (round to
// nearest even, gradual underflow), fast where the device's own operation is
// that value and in soft fp64 (ocl_f32.cl) where it may not be.
//
// Contraction: a product that reaches an add through fl_mul has passed an
// exclusive-or with `opq`, a kernel argument that is always 0; the compiler
// cannot see through it, so it cannot fuse the two even if it ignored the
// FP_CONTRACT pragma. Subnormals: an add whose operand or result may be
// subnormal (the device may flush those) is done in soft fp64; so is a
// product (f32_mul). Divisions are soft (correctly rounded on any device).
// Comparisons with zero read the bits (a device that flushes subnormal
// operands would call a tiny negative value zero).
// Included by kernel files; it has no kernels of its own.
#pragma OPENCL FP_CONTRACT OFF

#ifndef VMAFX_FLOAT_OPS_CL
#define VMAFX_FLOAT_OPS_CL

#include "ocl_f32.cl"

inline int fl_tiny_bits(uint b) { return (b & 0x7F800000u) == 0 && (b & 0x7FFFFFu) != 0; }

inline float fl_mul(float a, float b, uint opq) { return as_float(as_uint(f32_mul(a, b)) ^ opq); }

inline float fl_add(float a, float b)
{
    const float r = a + b;
    const uint ab = as_uint(a), bb = as_uint(b), rb = as_uint(r);
    if (fl_tiny_bits(ab) || fl_tiny_bits(bb) || (rb & 0x7F800000u) == 0) return f32_add(a, b);
    return r;
}

inline float fl_sub(float a, float b)
{
    const float r = a - b;
    const uint ab = as_uint(a), bb = as_uint(b), rb = as_uint(r);
    if (fl_tiny_bits(ab) || fl_tiny_bits(bb) || (rb & 0x7F800000u) == 0) return f32_sub(a, b);
    return r;
}

inline int fl_is_nan(float a) { return (as_uint(a) & 0x7FFFFFFFu) > 0x7F800000u; }
// a > 0, a < 0 exactly as IEEE compares (NaN: false).
inline int fl_gt0(float a) { return !fl_is_nan(a) && !(as_uint(a) >> 31) && (as_uint(a) & 0x7FFFFFFFu) != 0; }
inline int fl_lt0(float a) { return !fl_is_nan(a) && (as_uint(a) >> 31) && (as_uint(a) & 0x7FFFFFFFu) != 0; }
// a < b for floats, exact whatever the device does with subnormals.
inline int fl_lt(float a, float b) { return vmafx_sd_lt(f32_sd(a), f32_sd(b)); }

#endif
