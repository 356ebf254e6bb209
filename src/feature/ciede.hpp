// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CIEDE2000 colour difference ("ciede" extractor of libvmaf 3.2.0, ciede.c).
//
// Per frame it writes "ciede2000" with libvmaf's plain append (no alias, no
// option suffix): 45 - 20 log10(mean over luma pixels of dE00(ref, dis)),
// +inf when the pictures are identical. Each pixel's YCbCr (BT.709, limited
// range) is turned into CIELAB; chroma is upsampled to the luma grid first.
//
// libvmaf's chroma upsampling is exact for 4:2:0 (nearest sample at i/2, j/2)
// but, for 4:2:2, halves the row index and keeps the column index: a 4:2:2
// output pixel (i, j) reads chroma row i/2 at column j, which runs past the
// chroma row into libvmaf's zeroed stride padding (rows are padded to 32
// samples) and then into the next chroma row. This extractor reproduces that
// read pattern, so 4:2:2 scores equal libvmaf's.
//
// Bit depths 8, 10, 12 and 16 (as libvmaf); 4:0:0 is refused.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kCiedeExtractor;

namespace ciede {

// CIELAB colour as libvmaf keeps it (float components).
struct Lab {
  float l, a, b;
};

// One YCbCr sample triple (at bit depth bpc, limited range, BT.709) in CIELAB,
// with libvmaf's float/double steps.
Lab lab_from_yuv(double y, double u, double v, unsigned bpc);

// CIEDE2000 difference of two colours with kL = 0.65, kC = 1, kH = 4.
float delta_e00(const Lab& c1, const Lab& c2);

// The frame score from the sum of per-pixel differences over width x height pixels.
double frame_score(double de00_sum, unsigned width, unsigned height);

// libvmaf's 4:2:2 chroma read (see above): the sample that libvmaf's upsampler
// puts at column j of luma row i, for chroma plane p (1 or 2) of `pic`.
// Samples are read from the picture; padding reads as 0. Exposed for tests.
unsigned chroma422_sample(const Picture& pic, int p, int i, int j);

// The luma and upsampled chroma samples the extractor uses at luma pixel
// (i, j) of `pic` (y, u, v), and the dE00 it adds for pixel (i, j) of a
// reference/distorted pair: the device twins' host replay.
void samples_at(const Picture& pic, int i, int j, unsigned yuv[3]);
float pixel_difference(const Picture& ref, const Picture& dis, int i, int j);
// The same from the two pixels' samples (y, u, v) at bit depth bpc.
float pixel_difference(const unsigned ref[3], const unsigned dis[3], unsigned bpc);

// The device twins' frame sum, in the reference's order (row-major, in
// double): the device's float for each pixel it certified (`bits` where `ok`
// is set), `replay(i, j)` for the others, which `replayed` counts.
template <class Replay>
double ordered_sum(const std::uint32_t* bits, const std::uint32_t* ok, int w, int h, Replay&& replay,
                   long long& replayed) {
  double total = 0.;
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      const std::size_t k = std::size_t(i) * std::size_t(w) + std::size_t(j);
      float v;
      if (ok[k]) {
        std::memcpy(&v, &bits[k], 4);
      } else {
        v = replay(i, j);
        ++replayed;
      }
      total += v;
    }
  return total;
}

}  // namespace ciede
}  // namespace vmafx
