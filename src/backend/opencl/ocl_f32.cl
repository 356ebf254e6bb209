// SPDX-License-Identifier: BSD-3-Clause
// fp32 arithmetic that every OpenCL device computes alike: the float
// operations of the float SSIM family as the host's SSE unit performs them
// (round to nearest even, gradual underflow), built on exact/softfp64.h.
// Included by kernel files; it has no kernels of its own.
//
// A float add, subtract, divide or square root is formed in soft fp64 and
// rounded once more to fp32: the double rounding is innocuous because 53 >=
// 2 * 24 + 2, so the result is the correctly rounded fp32 value. A float
// multiply uses the device's multiplier, which IEEE 754 and the OpenCL spec
// require to be correctly rounded, unless an operand or the result is
// subnormal (a device may flush those); then it is formed in soft fp64 too.
// No device float add consumes a device product, so nothing can be fused.
#pragma OPENCL FP_CONTRACT OFF

#ifndef VMAFX_OCL_F32_CL
#define VMAFX_OCL_F32_CL

#include "exact/softfp64.h"

// The fp32 value with bits b, as a soft double (exact).
inline vmafx_sd f32_to_sd(uint b)
{
    const uint s = b >> 31;
    const int be = (int)((b >> 23) & 0xFFu);
    const ulong f = (ulong)(b & 0x7FFFFFu);
    if (be == 0xFF) {
        if (f == 0) return vmafx_sd_inf(s);
        return vmafx_sd_make_(s, VMAFX_SD_NAN, (f << 29) | VMAFX_SD_QUIET, 0);
    }
    if (be == 0) {
        if (f == 0) return vmafx_sd_zero(s);
        const int k = vmafx_clz64(f) - 11;
        return vmafx_sd_make_(s, VMAFX_SD_FINITE, f << k, -149 - k);
    }
    return vmafx_sd_make_(s, VMAFX_SD_FINITE, (f | 0x800000UL) << 29, be - 150 - 29);
}

// A soft double rounded to fp32 (nearest even, subnormals, overflow to inf).
inline uint sd_to_f32(vmafx_sd a)
{
    const uint sign = a.s << 31;
    if (a.c == VMAFX_SD_NAN) return sign | 0x7FC00000u | (uint)((a.m >> 29) & 0x3FFFFFu);
    if (a.c == VMAFX_SD_INF) return sign | 0x7F800000u;
    if (a.m == 0) return sign;
    int ue = a.e + 29;  // exponent of an fp32 ulp for a normal result
    int sh = 29;
    if (ue < -149) {
        sh += -149 - ue;
        ue = -149;
    }
    ulong q;
    if (sh >= 64) {
        q = 0;  // below half of the smallest subnormal (m < 2^53 <= 2^63)
    } else {
        const ulong half_ulp = 1UL << (sh - 1);
        const ulong rem = a.m & ((half_ulp << 1) - 1);
        q = a.m >> sh;
        if (rem > half_ulp || (rem == half_ulp && (q & 1))) q += 1;
    }
    if (q == 0) return sign;
    if (q == (1UL << 24)) {
        q >>= 1;
        ue += 1;
    }
    if (q < (1UL << 23)) return sign | (uint)q;  // subnormal (ue == -149)
    const int biased = ue + 150;
    if (biased >= 255) return sign | 0x7F800000u;
    return sign | ((uint)biased << 23) | (uint)(q - (1UL << 23));
}

inline int f32_is_small(uint b)  // subnormal (non-zero)
{
    return (b & 0x7F800000u) == 0 && (b & 0x7FFFFFu) != 0;
}

inline float f32_mul(float a, float b)
{
    const uint ab = as_uint(a), bb = as_uint(b);
    const float p = a * b;
    const uint pb = as_uint(p);
    const int a_zero = (ab & 0x7FFFFFFFu) == 0, b_zero = (bb & 0x7FFFFFFFu) == 0;
    const int p_tiny = (pb & 0x7F800000u) == 0 && !(a_zero || b_zero);
    if (!f32_is_small(ab) && !f32_is_small(bb) && !p_tiny) return p;
    return as_float(sd_to_f32(vmafx_sd_mul(f32_to_sd(ab), f32_to_sd(bb))));
}

inline float f32_add(float a, float b)
{
    return as_float(sd_to_f32(vmafx_sd_add(f32_to_sd(as_uint(a)), f32_to_sd(as_uint(b)))));
}

inline float f32_sub(float a, float b)
{
    return as_float(sd_to_f32(vmafx_sd_sub(f32_to_sd(as_uint(a)), f32_to_sd(as_uint(b)))));
}

inline float f32_div(float a, float b)
{
    return as_float(sd_to_f32(vmafx_sd_div(f32_to_sd(as_uint(a)), f32_to_sd(as_uint(b)))));
}

// Correctly rounded square root of a float (what (float)sqrt((double)x)
// gives: rounding sqrt to fp64 first is innocuous). x >= 0 or -0 here.
inline float f32_sqrt(float x)
{
    const uint b = as_uint(x);
    if ((b & 0x7FFFFFFFu) == 0) return x;  // +-0
    if (b >> 31) return as_float(0x7FC00000u | 0x80000000u);
    if ((b & 0x7F800000u) == 0x7F800000u) return x;  // inf, NaN
    const vmafx_sd v = f32_to_sd(b);  // m in [2^52, 2^53), value m * 2^e
    ulong m = v.m;
    int e = v.e;
    if (e & 1) {  // make the exponent even: m in [2^52, 2^54)
        m <<= 1;
        e -= 1;
    }
    // r = floor(sqrt(m)) lies in [2^26, 2^27): an fp32 estimate, corrected
    ulong r = (ulong)sqrt((float)m);
    while (r * r > m) r -= 1;
    while ((r + 1) * (r + 1) <= m) r += 1;
    const int sticky = r * r != m;
    // 27 bits: keep 24, round on the other three and the sticky bit
    ulong q = r >> 3;
    const uint low = (uint)(r & 7);
    int ue = e / 2 + 3;
    if (low > 4 || (low == 4 && (sticky || (q & 1)))) q += 1;
    if (q == (1UL << 24)) {
        q >>= 1;
        ue += 1;
    }
    return as_float(((uint)(ue + 150) << 23) | (uint)(q - (1UL << 23)));
}

// float -> double, and a double's bits.
inline vmafx_sd f32_sd(float a) { return f32_to_sd(as_uint(a)); }

// (float) of the double sum 0.0 + p[0] + ... + p[n - 1] of n floats, every
// addition rounded to double as the reference's loop rounds it; n <= 2^lg.
// When all the floats are multiples of 2^emin and below 2^etop, every partial
// sum is a multiple of 2^emin below 2^(etop + lg) in magnitude: with
// etop + lg - emin <= 53 each one is a double as it stands, no addition
// rounds, and the sum is exact in an int64 (one rounding to float follows,
// the only one the reference's result has). Otherwise the additions are
// replayed one by one in soft fp64. An exact zero sum is +0, as 0.0 + ... is.
inline float f32_sum_in_double(const float* p, int n, int lg)
{
    int emin = 1 << 20, etop = -(1 << 20), any = 0;
    for (int i = 0; i < n; ++i) {
        const uint b = as_uint(p[i]);
        if ((b & 0x7FFFFFFFu) == 0) continue;
        const int be = (int)((b >> 23) & 0xFFu);
        if (be == 0 || be == 0xFF) {  // subnormal, inf or NaN: no shortcut
            etop = emin + 64;
            any = 1;
            break;
        }
        const int e = be - 150;  // the float is m * 2^e, m < 2^24
        emin = min(emin, e);
        etop = max(etop, e + 24);
        any = 1;
    }
    if (!any) return 0.0f;
    if (etop + lg - emin <= 53) {
        long sum = 0;
        for (int i = 0; i < n; ++i) {
            const uint b = as_uint(p[i]);
            if ((b & 0x7FFFFFFFu) == 0) continue;
            const long m = (long)((b & 0x7FFFFFu) | 0x800000u) << ((int)((b >> 23) & 0xFFu) - 150 - emin);
            sum += (b >> 31) ? -m : m;
        }
        if (sum == 0) return 0.0f;
        return as_float(sd_to_f32(vmafx_sd_mul_pow2(vmafx_sd_from_i64(sum), emin)));
    }
    vmafx_sd acc = vmafx_sd_zero(0);
    for (int i = 0; i < n; ++i) acc = vmafx_sd_add(acc, f32_sd(p[i]));
    return as_float(sd_to_f32(acc));
}

#endif
