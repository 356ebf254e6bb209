// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD passes of CAMBI (feature/cambi.cpp), through Google Highway with
// runtime dispatch (AVX-512, AVX2, SSE4, SSSE3 on x86), the scheme of
// vif_simd.cpp. Each function gives, value for value, what the scalar code of
// cambi.cpp (namespace cambi::scalar, which stays the reference) gives; the
// unit tests compare the two with == on every target this CPU runs.
//
// The switch is vmafx::simd::enabled() (VMAFX_SIMD=off turns all SIMD off).
// Without Highway the functions must not be called (enabled() is false).
#include <cstddef>
#include <cstdint>

#include "feature/cambi.hpp"

namespace vmafx::cambi::simd {

// Luma row to 10 bit: bpc <= 8: v << (10 - bpc).
void convert_row(const std::uint8_t* in, std::uint16_t* out, int w, int bpc);
// bpc 9: v << 1; 10: v; 11..16: (v + 2^(bpc-11)) >> (bpc - 10), in 32-bit
// arithmetic (so 65535 at 16 bit gives 1024).
void convert_row(const std::uint16_t* in, std::uint16_t* out, int w, int bpc);
// Largest sample of a row (0 for w = 0).
std::uint16_t row_max(const std::uint16_t* in, int w);

// scalar::anti_dither, for samples up to 0x3FFF (the 10-bit pipeline holds at
// most 1024; a 16-bit sum of four such samples cannot wrap).
void anti_dither(std::uint16_t* d, int w, int h);
// Its row r (stride-free): `next` is the row below (not yet filtered), nullptr for the last row.
void anti_dither_row(std::uint16_t* r, const std::uint16_t* next, int w);
// scalar::decimate.
void decimate(std::uint16_t* d, std::ptrdiff_t stride, int w, int h);
// scalar::spatial_mask at `threshold` (mask_threshold of the size). `colsum`
// holds w + 64 values (scratch). With `half`, only the mask's even rows and
// columns are written, packed as scalar::decimate leaves them: (w + 1) / 2 x
// (h + 1) / 2 at the same stride.
void spatial_mask(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t threshold,
                  std::uint16_t* mask, std::uint16_t* colsum, bool half = false);
// scalar::mode_filter; `scratch` holds 3 * w values.
void mode_filter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* scratch);
// scalar::c_values. `hist` holds band_size * w + kHistSlack counters that are
// all 0 on entry; they are all 0 again on return.
// w must not exceed kMaxWidth (column numbers are formed in int16 lanes).
constexpr std::size_t kHistSlack = 128;
constexpr int kMaxWidth = 30000;
void c_values(const std::uint16_t* img, const std::uint16_t* mask, std::ptrdiff_t stride, int w, int h, int window,
              const Settings& st, float* out, std::uint16_t* hist);

// One pass over n floats: how many are not +0, the smallest such bit pattern
// (as uint32; 0xFFFFFFFF when none), the largest bit pattern (>= 0x7F800000
// when some value is negative, -0, infinite or NaN), and their sum in double,
// in an unspecified order (see topk_mean in cambi.cpp for when that order
// cannot matter).
struct FloatStats {
  std::uint32_t nonzero;
  std::uint32_t min_nonzero_bits;
  std::uint32_t max_bits;
  double sum;
};
FloatStats float_stats(const float* v, int n);

}  // namespace vmafx::cambi::simd
