// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The libswscale flags of the default scaler: what a rendition of another
// size, bit depth or chroma format is converted with when no --scale is given.
// A bicubic (B = 0, C = 0.6, as FFmpeg's "bicubic") whose output does not
// depend on the CPU: with libswscale 6 (FFmpeg 5.1), "bitexact" cuts every
// filter to the length the C code uses (SIMD builds otherwise keep taps the C
// code drops when they pad filters to 4 or 8 taps) and turns off the x86
// 8-bit vertical filter that keeps only the high 16 bits of each product;
// "accurate_rnd" keeps that filter off as well. The equivalent command:
//   ffmpeg -i DIS -vf scale=W:H:flags=bicubic+accurate_rnd+bitexact -pix_fmt P ...
// tests/scale proves SIMD == C over sizes, depths and chroma formats, and
// core/scale_exact.hpp reproduces this scaler (and the GPU twins with it).
namespace vmafx {

inline constexpr const char* kDefaultScaleFlags = "bicubic+accurate_rnd+bitexact";

}  // namespace vmafx
