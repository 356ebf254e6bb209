/* SPDX-License-Identifier: BSD-3-Clause */
// The reference's own fp64 / fp32 expressions (libvmaf 3.2.0), written out in
// the same operand order and types, for comparison with src/exact. Host code
// only; built with -ffp-contract=off (a fused multiply-add would change them).
#pragma once

#include <cstdint>

#include "exact_vectors.h"

namespace vmafx::exact_test {

// What an x86-64 build's conversion of an fp64 value to int32 / int64 gives:
// the C conversion in range, and the "integer indefinite" INT_MIN otherwise
// (out of range the C conversion is undefined, so it is spelled out here).
inline int32_t x86_trunc_i32(double v)
{
    if (v > -2147483649.0 && v < 2147483648.0) return (int32_t)v;
    return INT32_MIN;
}
inline int64_t x86_trunc_i64(double v)
{
    if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) return (int64_t)v;
    return INT64_MIN;
}

// integer_ssim.c, calc_ssim(): the per-pixel term. The int product
// samplemax * samplemax wraps at 16 bits as it does in an x86-64 build.
inline double ref_ssim_term(const SsimMoments& m, int depth)
{
    const int samplemax = (1 << depth) - 1;
    const int sm2 = (int)((unsigned)samplemax * (unsigned)samplemax);
    const double k1 = 0.01 * 0.01, k2 = 0.03 * 0.03;
    double w = m.w;
    double c1 = sm2 * k1 * w * w;
    double c2 = sm2 * k2 * w * w;
    double mx2 = m.mux * (double)m.mux;
    double mxy = m.mux * (double)m.muy;
    double my2 = m.muy * (double)m.muy;
    return m.w * (2 * mxy + c1) * (c2 + 2 * (m.xy * w - mxy)) /
           ((mx2 + my2 + c1) * (m.x2 * w - mx2 + m.y2 * w - my2 + c2));
}

// The stabiliser factor samplemax * samplemax * K as the reference forms it.
inline double ref_ssim_factor(int depth, double k)
{
    const int samplemax = (1 << depth) - 1;
    const int sm2 = (int)((unsigned)samplemax * (unsigned)samplemax);
    return sm2 * k;
}

struct VifGainRef {
    int32_t sv_sq;
    int64_t gg;
};

// integer_vif.c, the log branch of vif_statistic_8 / vif_statistic_16.
inline VifGainRef ref_vif_gain(int32_t sigma1_sq, int32_t sigma12, int32_t sigma2_sq, double vif_enhn_gain_limit)
{
    const double eps = 65536 * 1.0e-10;
    double g = sigma12 / (sigma1_sq + eps);
    int32_t sv_sq = x86_trunc_i32(sigma2_sq - g * sigma12);
    sv_sq = (uint32_t)(sv_sq > 0 ? sv_sq : 0);
    g = g < vif_enhn_gain_limit ? g : vif_enhn_gain_limit;
    return {sv_sq, x86_trunc_i64(g * g * sigma1_sq)};
}

// picture_copy() then _iqa_filter_pixel() over one decimation window with
// the low-pass tap 1.0f / (scale * scale) and kscale 1.0f.
inline float ref_decimate_window(const uint16_t* s, int scale, int bpc)
{
    const float tap = 1.0f / (scale * scale);
    const float scaler = bpc == 10 ? 4.0f : (bpc == 12 ? 16.0f : 256.0f);
    double sum = 0.0;
    for (int i = 0; i < scale * scale; ++i) {
        const float px = bpc == 8 ? (float)s[i] + 0 : (float)s[i] / scaler + 0;
        sum += px * tap;
    }
    const float kscale = 1.0f;
    return (float)(sum * kscale);
}

} // namespace vmafx::exact_test

namespace vmafx::exact_test {

// The host's IEEE fp64 operation on two bit patterns.
inline uint64_t host_binop(int op, uint64_t a, uint64_t b)
{
    const double x = dval(a), y = dval(b);
    double z;
    switch (op) {
    case kAdd: z = x + y; break;
    case kSub: z = x - y; break;
    case kMul: z = x * y; break;
    default: z = x / y; break;
    }
    return dbits(z);
}

constexpr uint64_t kDefaultNanBits = 0xFFF8000000000000ull;

// Bit equality; a NaN result only has to be a NaN (which operand a compiler
// puts first decides the payload), and where no operand is a NaN it has to be
// the x86-64 default NaN.
inline bool same_result(uint64_t got, uint64_t want, bool nan_operand)
{
    if (is_nan_bits(want)) {
        if (!is_nan_bits(got)) return false;
#if defined(__x86_64__)
        if (!nan_operand) return got == kDefaultNanBits && want == kDefaultNanBits;
#endif
        return true;
    }
    return got == want;
}

} // namespace vmafx::exact_test
