// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Integer PSNR ("psnr" extractor of libvmaf 3.2.0, integer_psnr.c).
//
// Per frame: psnr_y/cb/cr (and mse_y/cb/cr with enable_mse), written with
// libvmaf's plain append (no alias, no option suffix). With enable_apsnr the
// whole-clip apsnr_y/cb/cr are written on flush as aggregate metrics (all
// three, even when chroma is off: then cb/cr are -inf, as libvmaf).
// The extractor is temporal (as in libvmaf): it sees every frame, also with
// subsampling, and the apsnr sums cover every frame.
#include <atomic>
#include <cstdint>

#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kPsnrExtractor;

namespace psnr {

// Peak sample value: 2^bpc - 1, or 255 << (bpc - 8) with reduced_hbd_peak.
std::uint32_t peak(int bpc, bool reduced_hbd_peak);

// Upper clip of a frame's PSNR: 6 * bpc + 12 when min_sse is 0, else
// ceil(10 log10(peak^2 / (min_sse / n_pixels))).
double max_psnr(int bpc, std::uint32_t peak, double min_sse, std::uint32_t n_pixels);

// Sum of squared differences of one plane (uint8_t samples when bpc == 8,
// uint16_t otherwise). For 8-bit input each row is summed in 32 bits, as libvmaf.
std::uint64_t sse(const PlaneView& ref, const PlaneView& dis, int bpc);

// MSE and PSNR of one plane of one frame.
double mse(std::uint64_t sse, std::uint32_t n_pixels);
double frame_psnr(double mse, std::uint32_t peak, double max_psnr);

// Whole-clip PSNR of one plane from the SSE and pixel count summed over all
// frames ("apsnr_*"): 10 (log10 peak^2 + log10 n - log10 sse), clipped at
// ceil(10 log10(2 peak^2 n)).
double aggregate_psnr(std::uint32_t peak, std::uint64_t n_pixels, std::uint64_t sse);

// The extractor's host-side state, shared by the reference and its twins: the
// options, each plane's PSNR clip and the whole-clip sums. A backend finds each
// plane's SSE its own way and hands it to put_plane(), planes in order.
class Scorer {
 public:
  Scorer(const OptionSet& o, const PictureFormat& f);
  // The planes scored: 3 with enable_chroma on a picture with chroma, else 1.
  int planes() const { return planes_; }
  // Frame `index`, plane p: adds to the apsnr sums, writes psnr (and mse).
  // Thread-safe: frames may be scored on several threads at once (the sums
  // are integers, so their order does not matter).
  void put_plane(int p, std::uint64_t sse, std::uint32_t n_pixels, unsigned index, FeatureSink& out);
  // With enable_apsnr: the whole-clip apsnr_y/cb/cr.
  void flush(FeatureSink& out) const;

 private:
  bool mse_, apsnr_;
  std::uint32_t peak_;
  int planes_ = 1;
  double max_[3] = {0, 0, 0};
  std::atomic<std::uint64_t> sum_sse_[3] = {0, 0, 0};
  std::atomic<std::uint64_t> sum_pixels_[3] = {0, 0, 0};
};

}  // namespace psnr
}  // namespace vmafx
