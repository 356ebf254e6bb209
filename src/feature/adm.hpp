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
#include "core/picture.hpp"

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
  float rfactor[4][3];             // [scale][h, v, d]
  std::uint16_t s0_rfactor[3];     // scale 0: rfactor * 2^21 (h, v), * 2^23 (d)
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

// Scores one frame pair. `ref` and `dis` are luma planes of the same size
// (at least VMAFX_ADM_MIN_SIZE = 33 on each side) holding uint8_t samples when
// bpc == 8 and uint16_t when 9 <= bpc <= 16.
Scores compute(const PlaneView& ref, const PlaneView& dis, int bpc, const Params& p, const Factors& f);

}  // namespace adm
}  // namespace vmafx
