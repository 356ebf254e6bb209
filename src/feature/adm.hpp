// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Integer ADM ("adm" extractor of libvmaf 3.2.0, integer_adm.c, plain C path).
//
// Per frame it writes, with put (alias + option suffix), in this order:
//   VMAF_integer_feature_adm2_score (integer_adm2), VMAF_integer_feature_aim_score
//   (integer_aim), VMAF_integer_feature_adm3_score (integer_adm3),
//   integer_adm_scale0..3 (num/den of each scale),
// and with debug=true also integer_adm, integer_adm_num, integer_adm_den and
// integer_adm_num_scaleN / integer_adm_den_scaleN (N = 0..3, num before den).
// Luma only; every chroma format; 8..16 bits; at least 33x33 luma samples.
#include <cstdint>

#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kAdmExtractor;

namespace adm {

// The option values (libvmaf's defaults).
struct Params {
  double enhn_gain_limit = 100.0;
  double norm_view_dist = 3.0;
  int ref_display_height = 1080;
  int csf_mode = 0;  // 0 Watson97, 1 Barten, 2 Barten/Watson blend, 3 blend (MAE fit)
  double csf_scale = 1.0;
  double csf_diag_scale = 1.0;
  double noise_weight = 0.03125;
  double dlm_weight = 0.5;
  double min_val = 0.0;
  bool skip_aim = false;
  bool skip_scale0 = false;
};

// The CSF weights of each scale, float and fixed point, as libvmaf derives
// them from the viewing condition. A GPU port computes these on the host.
struct Factors {
  float rfactor[4][3];               // [scale][h, v, d]
  std::uint16_t s0_rfactor[3];       // scale 0: rfactor * 2^21 (h, v), * 2^23 (d)
  std::uint32_t s123_rfactor[3][3];  // scales 1..3: rfactor * 2^32
};

// Throws Error (naming "adm") for viewing conditions libvmaf cannot score:
// norm_view_dist * ref_display_height < 3240, or a blend CSF mode (2, 3)
// without a table for (ref_display_height, norm_view_dist).
Factors csf_factors(const Params& p);

struct Scores {
  double adm2 = 0;  // num / den (1 when den is 0)
  double aim = 0;   // aim_num / den (0 when den is 0: libvmaf leaves it unset)
  double adm3 = 0;  // max(adm2 * w + (1 - aim) * (1 - w), min_val)
  double num = 0, den = 0;
  double num_scale[4] = {0, 0, 0, 0};
  double den_scale[4] = {0, 0, 0, 0};
};

// The options of an "adm" option set (checked by the extractor's create).
Params params(const OptionSet& o);

// Host-side pieces of the reference that the GPU twins reuse as they are.
// (uint32_t)x as gcc compiles it on x86-64: cvttsd2si to int64, low 32 bits.
std::uint32_t to_u32(double x);
// ceil(log2(n)) for n >= 1, as libvmaf's ceil(log2(n)) on an integer gives.
std::int32_t ceil_log2(std::int64_t n);
struct Region {
  int top, bottom, left, right;
};
// The region scored by the denominator and the masking stage of a w x h band.
Region score_region(int w, int h);
// The region computed by the decouple and CSF stages (one more sample for the
// 3x3 masking filter), clamped to the band.
Region filter_region(int w, int h);
// cos(1 degree)^2, computed in double and stored as float.
extern const float kCos1DegSq;

// The float tails of the denominator and contrast-masking stages of one scale,
// from the integer sums of h, v and d (after the per-row rounding); `area` is
// the score region's (bottom - top) * (right - left). Denominator: the sums /
// shift_csf, times rf^3, cube-rooted, plus the noise floor.
float den_from_sums(const std::uint64_t acc[3], double shift_csf, const float rf[3], int area, double noise_weight);
// Masking, scale 0: band t is scaled by 2^-(num_exp[t] - shift_cub[t] - shift_rows).
float cm_from_sums_s0(const std::int64_t acc[3], const std::uint32_t shift_cub[3], std::uint32_t shift_rows, int area,
                      double noise_weight);
// Masking, scales 1..3: every band divided by final_shift (a float).
float cm_from_sums_s123(const std::int64_t acc[3], float final_shift, int area, double noise_weight);

// The integer constants of one scale's denominator and masking stages on a
// w x h band (scale 0 or 1..3), as the reference forms them.
struct ScaleConsts {
  Region score;  // score_region(w, h)
  int area;      // its (bottom - top) * (right - left)
  // Denominator, per row: (inner + den_add) >> den_shift; at scales 1..3 each
  // term ((x*x + 2^(sq - 1)) >> den_sq_shift) * x + den_cub_add) >> den_cub_shift
  // first; the sums are divided by den_csf.
  std::uint64_t den_add;
  int den_shift;
  int den_sq_shift;
  std::uint64_t den_cub_add;
  int den_cub_shift;
  double den_csf;
  // Masking: per term (x_sq * x + cm_add[t]) >> cm_shift[t]; per row
  // (inner + row_add) >> row_shift; at scales 1..3 the sums are divided by
  // cm_final_shift.
  std::int64_t cm_add[3];
  std::uint32_t cm_shift[3];
  std::int64_t row_add;
  std::uint32_t row_shift;
  float cm_final_shift;
};
ScaleConsts scale_consts(int scale, int w, int h);
// One scale's den and num (or aim, noise_weight 0) from the integer sums of
// its stages (after the per-row rounding).
float den_scale(const ScaleConsts& c, const std::uint64_t acc[3], const float rf[3], double noise_weight);
float cm_scale(int scale, const ScaleConsts& c, const std::int64_t acc[3], double noise_weight);
// A device twin's scores of a width x height frame from its stages' integer
// sums: totals[9 scale + 3 stage + band], stage 0 den, 1 num, 2 aim.
Scores scores_from_totals(const Params& p, const Factors& f, int width, int height, const std::int64_t totals[36]);

// The tail of a frame's scoring, from the sums over the scales (num_scale and
// den_scale already in `s`): the clamp of num and den at libvmaf's limit for a
// width x height picture, then adm2, aim and adm3.
void finish(Scores& s, double num, double den, double aim_num, int width, int height, const Params& p);

// Writes the extractor's outputs for frame `index` (the reference and its twins).
void write_scores(const Scores& s, bool debug, unsigned index, FeatureSink& out);

// Scores one frame pair. `ref` and `dis` are luma planes of the same size
// (at least VMAFX_ADM_MIN_SIZE = 33 on each side) holding uint8_t samples when
// bpc == 8 and uint16_t when 9 <= bpc <= 16.
Scores compute(const PlaneView& ref, const PlaneView& dis, int bpc, const Params& p, const Factors& f);

}  // namespace adm
}  // namespace vmafx
