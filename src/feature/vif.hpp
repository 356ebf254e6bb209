// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Integer VIF ("vif"), the fixed-point visual information fidelity of libvmaf
// 3.2.0 (feature/integer_vif.c, plain C path). Four scales on the luma plane;
// each scale yields a numerator and a denominator, its score is num / den.
//
// The pieces below are exposed so that unit tests, and the GPU twins that must
// return the same bits, can check them in isolation:
//   log2_q11()    the table-driven fixed-point log2,
//   gain_terms()  the one place where libvmaf leaves integer arithmetic,
//   accumulate()  what one pixel's (sigma1_sq, sigma2_sq, sigma12) adds,
//   finish()      the int64 sums -> the float num/den of a scale,
//   compute_scales() the whole plane,
//   write_scores() the four scales -> the extractor's outputs.
#include <array>
#include <cstdint>

#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kVifExtractor;

namespace vif {

// Variance of the assumed visual noise, in the fixed-point unit of the sigmas
// (2^-16 of an 8-bit sample squared at every bit depth): 2.0 in the float VIF.
inline constexpr std::int32_t kSigmaNsq = 65536 << 1;

// The smallest picture the extractor accepts: every scale must be at least 2x2
// (see VifExtractor's create for why).
inline constexpr int kMinSize = 16;

// libvmaf's log2_32 / log2_64: log2(v) in Q11, from the top 16 significant
// bits of v. Needs v >= 2^17 (always true: both arguments include kSigmaNsq).
std::int32_t log2_q11(std::uint64_t v);

// The two integers whose log2 difference is a log-branch pixel's numerator:
//   noise = sv_sq + sigma_nsq            (libvmaf's numer1)
//   total = noise + (int64)(g*g*sigma1_sq) (libvmaf's numer1_tmp)
struct GainTerms {
  std::uint32_t noise;
  std::int64_t total;
};
// Precondition (libvmaf's branch): sigma1_sq >= kSigmaNsq, sigma12 > 0, sigma2_sq > 0.
GainTerms gain_terms(std::int32_t sigma1_sq, std::int32_t sigma2_sq, std::int32_t sigma12, double gain_limit);

// libvmaf's four int64 accumulators of one scale.
struct Accum {
  std::int64_t num_log = 0;
  std::int64_t den_log = 0;
  std::int64_t num_non_log = 0;
  std::int64_t den_non_log = 0;
};
// Adds one pixel. sigma2_sq is the raw (unclamped) value.
void accumulate(Accum& acc, std::int32_t sigma1_sq, std::int32_t sigma2_sq, std::int32_t sigma12, double gain_limit);

struct ScaleResult {
  float num = 0;
  float den = 0;
};
ScaleResult finish(const Accum& acc);

// All four scales of one luma plane pair (samples uint8_t when bpc == 8, else
// uint16_t). With skip_scale0, scale 0's statistic is not computed and its
// result is {0, 0}. Requires width, height >= kMinSize. Thread-safe (scratch
// is thread-local).
std::array<ScaleResult, 4> compute_scales(const PlaneView& ref, const PlaneView& dis, int bpc, double gain_limit,
                                          bool skip_scale0);

// Writes the extractor's outputs for frame `index` from the four scales (the
// scores; with debug also the sums and the per-scale num/den, libvmaf's marks
// for a skipped scale 0). The reference and its twins all write through this.
void write_scores(const std::array<ScaleResult, 4>& s, bool debug, bool skip_scale0, unsigned index, FeatureSink& out);

}  // namespace vif
}  // namespace vmafx
