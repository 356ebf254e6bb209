// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// PSNR-HVS ("psnr_hvs" extractor of libvmaf 3.2.0, third_party/xiph/psnr_hvs.c).
//
// Per frame it writes psnr_hvs_y, psnr_hvs_cb, psnr_hvs_cr and psnr_hvs with
// libvmaf's plain append (no alias, no option suffix; the extractor has no
// options). Each plane is scored on 8x8 blocks placed every 7 samples: an
// integer DCT (Daala's od_bin_fdct8x8) of both blocks, a contrast-masking
// threshold from the AC energy, and the CSF-weighted squared error above it.
// psnr_hvs = dB of 0.8 * Y + 0.1 * (Cb + Cr). Identical planes give +inf.
// A plane smaller than 8 samples in either direction has no block: libvmaf
// then divides 0 by 0, and the score is NaN.
//
// Bit depths 8 to 12 (libvmaf refuses more: the integer DCT would overflow);
// 4:0:0 is refused.
#include <cstddef>
#include <cstdint>

#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kPsnrHvsExtractor;

namespace psnr_hvs {

// 2-D 8x8 integer forward DCT, in place (row-major block of 64 values).
void fdct8x8(std::int32_t block[64]);

// The mean CSF-weighted masked squared DCT error of one plane, normalised by
// (2^bpc - 1)^2 (uint8_t samples when bpc == 8, uint16_t otherwise). `plane`
// is 0 (luma, Y table), 1 (Cb table) or 2 (Cr table).
double plane_error(const PlaneView& ref, const PlaneView& dis, int bpc, int plane);

// The device twins' half: plane `plane`'s 8x8 mask and CSF tables as the
// reference uses them (row-major), the number of blocks along a side of n
// samples, and the plane error from the blocks' 64 terms each (raster order),
// summed in float as the reference sums them.
void plane_tables(int plane, float mask[64], float csf[64]);
inline int blocks_along(int n) { return n > 7 ? (n - 7 + 6) / 7 : 0; }
double error_from_terms(const float* terms, std::size_t blocks, int bpc);
// The reference's float constants 1 / 63.f * 64 and 1 / 15.f * 16.
inline constexpr float kVar63 = 1 / 63.f * 64;
inline constexpr float kVar15 = 1 / 15.f * 16;

// 10 * -log10(error): +inf for 0.
double to_db(double error);

}  // namespace psnr_hvs
}  // namespace vmafx
