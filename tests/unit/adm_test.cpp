// SPDX-License-Identifier: BSD-3-Clause
// Integer ADM unit tests: option table, errors, edge sizes, bit depths,
// invariants, option variants against values recorded from libvmaf 3.2.0's
// plain C integer_adm.c (run on the frames adm_test_frames() makes), threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "core/feature.hpp"
#include "core/options.hpp"
#include "vmaf_exact/picture.hpp"
#include "feature/adm.hpp"
#include "exact/adm_tables.h"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

// Deterministic test frames: a diagonal ramp with blocks and noise; the
// distorted one adds noise and sparse bright dots. For bpc > 8 the 8-bit
// value is shifted up and random low bits are filled in.
void adm_test_frames(int w, int h, int bpc, unsigned seed, std::vector<std::uint16_t>& ref,
                     std::vector<std::uint16_t>& dis) {
  std::uint32_t s = seed;
  auto rnd = [&] {
    s = s * 1664525u + 1013904223u;
    return s >> 16;
  };
  ref.resize(std::size_t(w) * h);
  dis.resize(std::size_t(w) * h);
  const int extra = bpc - 8;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int base = (x * 5 + y * 3) % 97 * 2 + ((x / 7 + y / 5) % 2) * 40 + int(rnd() % 24);
      int d = base + int(rnd() % 17) - 8 + ((x + y) % 11 == 0 ? 30 : 0);
      d = d < 0 ? 0 : (d > 255 ? 255 : d);
      const std::uint32_t lo_r = extra ? (rnd() & ((1u << extra) - 1)) : 0;
      const std::uint32_t lo_d = extra ? (rnd() & ((1u << extra) - 1)) : 0;
      ref[std::size_t(y) * w + x] = std::uint16_t((std::uint32_t(base) << extra) | lo_r);
      dis[std::size_t(y) * w + x] = std::uint16_t((std::uint32_t(d) << extra) | lo_d);
    }
}

PictureFormat luma_format(int w, int h, int bpc, ChromaFormat c = ChromaFormat::k420) {
  PictureFormat f;
  f.width = w;
  f.height = h;
  f.bpc = bpc;
  f.chroma = c;
  return f;
}

// A picture whose luma holds `v` (values already in range for bpc).
Picture make_picture(const PictureFormat& fmt, const std::vector<std::uint16_t>& v) {
  Picture p(fmt);
  test::fill_plane(p, 0, [&](int x, int y) { return long(v[std::size_t(y) * fmt.width + x]); });
  return p;
}

class Capture final : public FeatureSink {
 public:
  std::vector<std::pair<std::string, double>> values;
  void put(std::string_view name, unsigned, double v) override { values.emplace_back(std::string(name), v); }
  void put_plain(std::string_view name, unsigned, double v) override { values.emplace_back(std::string(name), v); }
  double at(const std::string& n) const {
    for (const auto& [k, v] : values)
      if (k == n) return v;
    ADD_FAILURE() << "no " << n;
    return NAN;
  }
};

std::unique_ptr<Extractor> make(const PictureFormat& fmt, const std::map<std::string, std::string>& opts = {}) {
  OptionSet set(kAdmExtractor.options, opts, kAdmExtractor.name);
  return kAdmExtractor.create(set, fmt);
}

Capture run_once(int w, int h, int bpc, unsigned seed, const std::map<std::string, std::string>& opts = {},
                 ChromaFormat chroma = ChromaFormat::k420) {
  std::vector<std::uint16_t> r, d;
  adm_test_frames(w, h, bpc, seed, r, d);
  const PictureFormat fmt = luma_format(w, h, bpc, chroma);
  const Picture a = make_picture(fmt, r), b = make_picture(fmt, d);
  Capture c;
  make(fmt, opts)->extract(a, b, 0, c);
  return c;
}

const char* const kMain[] = {"VMAF_integer_feature_adm2_score",
                             "VMAF_integer_feature_aim_score",
                             "VMAF_integer_feature_adm3_score",
                             "integer_adm_scale0",
                             "integer_adm_scale1",
                             "integer_adm_scale2",
                             "integer_adm_scale3"};

// ---------------------------------------------------------------------------

TEST(AdmOptions, TableMirrorsLibvmaf) {
  struct Want {
    const char* name;
    const char* alias;
    OptionType type;
    double def, min, max;
    bool fp;
  };
  const Want want[] = {
      {"debug", "", OptionType::kBool, 0, 0, 1, false},
      {"adm_csf_scale", "scf", OptionType::kDouble, 1.0, 0.0, 50.0, true},
      {"adm_csf_diag_scale", "scfd", OptionType::kDouble, 1.0, 0.0, 50.0, true},
      {"adm_dlm_weight", "dlmw", OptionType::kDouble, 0.5, 0.0, 1.0, true},
      {"adm_enhn_gain_limit", "egl", OptionType::kDouble, 100.0, 1.0, 100.0, true},
      {"adm_norm_view_dist", "nvd", OptionType::kDouble, 3.0, 0.75, 24.0, true},
      {"adm_ref_display_height", "rdh", OptionType::kInt, 1080, 1, 4320, true},
      {"adm_csf_mode", "csf", OptionType::kInt, 0, 0, 3, true},
      {"adm_noise_weight", "nw", OptionType::kDouble, 0.03125, 0.0, 1500.0, true},
      {"adm_skip_aim", "", OptionType::kBool, 0, 0, 1, false},
      {"adm_skip_scale0", "ssz", OptionType::kBool, 0, 0, 1, true},
      {"adm_min_val", "min", OptionType::kDouble, 0.0, 0.0, 1.0, true},
  };
  ASSERT_EQ(kAdmExtractor.options.size(), std::size(want));
  for (std::size_t i = 0; i < std::size(want); ++i) {
    const OptionSpec& o = kAdmExtractor.options[i];
    EXPECT_EQ(o.name, want[i].name);
    EXPECT_EQ(o.alias, want[i].alias) << o.name;
    EXPECT_EQ(o.type, want[i].type) << o.name;
    EXPECT_EQ(o.default_num, want[i].def) << o.name;
    if (o.type != OptionType::kBool) {
      EXPECT_EQ(o.min, want[i].min) << o.name;
      EXPECT_EQ(o.max, want[i].max) << o.name;
    }
    EXPECT_EQ(o.feature_param, want[i].fp) << o.name;
  }
  EXPECT_EQ(kAdmExtractor.name, "adm");
  EXPECT_EQ(kAdmExtractor.flags, 0u);
  ASSERT_EQ(kAdmExtractor.provided.size(), 18u);
  EXPECT_EQ(kAdmExtractor.provided[0], "VMAF_integer_feature_adm2_score");
  EXPECT_EQ(kAdmExtractor.provided[17], "integer_adm_den_scale3");
  EXPECT_EQ(find_extractor("adm"), &kAdmExtractor);
  EXPECT_EQ(find_extractor_by_feature("VMAF_integer_feature_adm3_score"), &kAdmExtractor);
}

TEST(AdmOptions, Suffixes) {
  EXPECT_EQ(OptionSet(kAdmExtractor.options, {{"adm_enhn_gain_limit", "1.0"}}, "adm").name_suffix(), "_egl_1");
  EXPECT_EQ(OptionSet(kAdmExtractor.options, {{"adm_enhn_gain_limit", "1"}}, "adm").name_suffix(), "_egl_1");
  EXPECT_EQ(OptionSet(kAdmExtractor.options, {{"debug", "true"}, {"adm_skip_aim", "true"}}, "adm").name_suffix(), "");
  EXPECT_EQ(OptionSet(kAdmExtractor.options, {{"adm_skip_scale0", "true"}}, "adm").name_suffix(), "_ssz");
}

// ---------------------------------------------------------------------------
// Errors

TEST(AdmErrors, TooSmall) {
  for (auto [w, h] : {std::pair{32, 64}, std::pair{64, 32}, std::pair{1, 1}}) {
    try {
      make(luma_format(w, h, 8));
      FAIL() << w << "x" << h;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), "adm: frame size " + std::to_string(w) + "x" + std::to_string(h) +
                                           " is too small (at least 33x33 luma samples)");
    }
  }
  EXPECT_NO_THROW(make(luma_format(33, 33, 8)));
}

TEST(AdmErrors, BitDepth) {
  for (int bpc : {7, 17}) {
    try {
      make(luma_format(64, 64, bpc));
      FAIL() << bpc;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), "adm: unsupported bit depth " + std::to_string(bpc) + " (8 to 16 bits)");
    }
  }
}

TEST(AdmErrors, ViewingDistanceTooShort) {
  // libvmaf fails every extract call when nvd * rdh < 3.0 * 1080.
  try {
    make(luma_format(64, 64, 8), {{"adm_norm_view_dist", "2.5"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "adm: adm_norm_view_dist * adm_ref_display_height must be at least 3240 (3.0 * 1080); got "
              "2.500000 * 1080");
  }
  EXPECT_THROW(make(luma_format(64, 64, 8), {{"adm_ref_display_height", "720"}}), Error);
  EXPECT_NO_THROW(make(luma_format(64, 64, 8), {{"adm_norm_view_dist", "1.5"}, {"adm_ref_display_height", "2160"}}));
  EXPECT_NO_THROW(make(luma_format(64, 64, 8), {{"adm_norm_view_dist", "0.75"}, {"adm_ref_display_height", "4320"}}));
}

TEST(AdmErrors, BlendCsfWithoutTable) {
  try {
    make(luma_format(64, 64, 8), {{"adm_csf_mode", "2"}, {"adm_ref_display_height", "1440"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "adm: adm_csf_mode=2 has no CSF table for adm_ref_display_height=1440 and "
              "adm_norm_view_dist=3.000000 (supported: 1080 at 3 or 5, 2160 at 1.5, 3 or 5)");
  }
  EXPECT_THROW(make(luma_format(64, 64, 8), {{"adm_csf_mode", "3"}, {"adm_norm_view_dist", "4"}}), Error);
  // Watson and Barten work at any condition.
  EXPECT_NO_THROW(make(luma_format(64, 64, 8), {{"adm_csf_mode", "0"}, {"adm_ref_display_height", "1440"}}));
  EXPECT_NO_THROW(make(luma_format(64, 64, 8), {{"adm_csf_mode", "1"}, {"adm_ref_display_height", "1440"}}));
}

TEST(AdmErrors, OptionOutOfRange) {
  EXPECT_THROW(make(luma_format(64, 64, 8), {{"adm_enhn_gain_limit", "0.5"}}), Error);
  EXPECT_THROW(make(luma_format(64, 64, 8), {{"adm_csf_mode", "4"}}), Error);
}

// ---------------------------------------------------------------------------
// Values recorded from libvmaf 3.2.0 integer_adm.c (plain C) on the same frames.
// Recipe: tests/data/golden/make/oracle-unit-adm-vif.sh (cases adm00..adm06).

struct Recorded {
  const char* what;
  int w, h, bpc;
  unsigned seed;
  std::map<std::string, std::string> opts;
  double v[7];  // adm2, aim, adm3, scale0..3
};

const Recorded kRecorded[] = {
    {"8-bit 67x45, defaults",
     67,
     45,
     8,
     7,
     {},
     {0.97113040402749862, 0.0063208196677172089, 0.98240479217989063, 0.95452031757195388, 0.95023087484913604,
      0.95920520559716316, 0.99109296359615873}},
    {"8-bit, egl 1.2, 2160 lines (computed fixed-point factors)",
     67,
     45,
     8,
     7,
     {{"adm_enhn_gain_limit", "1.2"}, {"adm_ref_display_height", "2160"}},
     {0.97654516428670357, 0.0038127146291800375, 0.98636622482876168, 0.97747143903828937, 0.96172999219702815,
      0.96111768645871787, 0.99111943347137132}},
    {"8-bit, Barten CSF",
     67,
     45,
     8,
     7,
     {{"adm_csf_mode", "1"}},
     {0.018834630192232839, 2.3685374474570887e-05, 0.50940547240887912, 0.020737365697557894, 0.0087372098622513269,
      0.018817402474969713, 0.019703024957246826}},
    {"8-bit, vmaf_v1.0.16_1d5h_2160 options",
     67,
     45,
     8,
     7,
     {{"adm_dlm_weight", "0.7"},
      {"adm_enhn_gain_limit", "1.0"},
      {"adm_noise_weight", "0.02"},
      {"adm_norm_view_dist", "1.5"},
      {"adm_ref_display_height", "2160"},
      {"adm_min_val", "0.5"},
      {"adm_csf_mode", "2"}},
     {0.96939547247358049, 0.0043264398196624192, 0.97727889878560759, 0.95302251926108461, 0.94299459295384391,
      0.9523136080218807, 0.98780618345682492}},
    {"10-bit, blend CSF (MAE) 1080@5H",
     67,
     45,
     10,
     7,
     {{"adm_csf_mode", "3"}, {"adm_norm_view_dist", "5"}},
     {0.98250742134452773, 0.0031501586869294657, 0.98967863132879907, 0.98220679005372968, 0.95819793525792241,
      0.96649007229667983, 0.99668384042827729}},
    {"10-bit, skip scale 0",
     67,
     45,
     10,
     7,
     {{"adm_skip_scale0", "true"}},
     {0.9777315007156967, 0.0025158908586853912, 0.98760780492850564, 0, 0.94983488591410337, 0.96588376896927508,
      0.99657574475654531}},
    {"16-bit 35x33",
     35,
     33,
     16,
     9,
     {},
     {0.97499990400823222, 0.0073125471478012651, 0.98384367843021547, 0.95327229042727624, 0.93884300010544652,
      0.96807366358926994, 0.99335570619524305}},
};

TEST(AdmValues, RecordedFromLibvmaf) {
  for (const Recorded& r : kRecorded) {
    SCOPED_TRACE(r.what);
    const Capture c = run_once(r.w, r.h, r.bpc, r.seed, r.opts);
    ASSERT_EQ(c.values.size(), 7u);
    for (int k = 0; k < 7; ++k) {
      EXPECT_EQ(c.values[k].first, kMain[k]);
      EXPECT_EQ(c.values[k].second, r.v[k]) << kMain[k];
    }
  }
}

// ---------------------------------------------------------------------------
// Invariants

TEST(AdmValues, FlatFramesScoreOne) {
  // No detail at all: numerator and denominator are the same noise floor.
  for (int bpc : {8, 10, 16}) {
    const int w = 41, h = 37;
    const PictureFormat fmt = luma_format(w, h, bpc);
    const std::uint16_t top = std::uint16_t((1u << bpc) - 1);
    const Picture a = make_picture(fmt, std::vector<std::uint16_t>(std::size_t(w) * h, top));
    const Picture b = make_picture(fmt, std::vector<std::uint16_t>(std::size_t(w) * h, 0));
    Capture c;
    make(fmt)->extract(a, b, 0, c);
    EXPECT_EQ(c.at("VMAF_integer_feature_adm2_score"), 1.0) << bpc;
    EXPECT_EQ(c.at("VMAF_integer_feature_aim_score"), 0.0) << bpc;
    EXPECT_EQ(c.at("VMAF_integer_feature_adm3_score"), 1.0) << bpc;
    for (int s = 0; s < 4; ++s) EXPECT_EQ(c.at("integer_adm_scale" + std::to_string(s)), 1.0) << bpc;
  }
}

TEST(AdmValues, FlatReferenceWithoutNoiseFloor) {
  // den == 0: adm2 is 1 and libvmaf leaves aim unset; we write 0.
  const PictureFormat fmt = luma_format(40, 40, 8);
  std::vector<std::uint16_t> flat(1600, 77), r, d;
  adm_test_frames(40, 40, 8, 3, r, d);
  const Picture a = make_picture(fmt, flat), b = make_picture(fmt, d);
  Capture c;
  make(fmt, {{"adm_noise_weight", "0"}})->extract(a, b, 0, c);
  EXPECT_EQ(c.at("VMAF_integer_feature_adm2_score"), 1.0);
  EXPECT_EQ(c.at("VMAF_integer_feature_aim_score"), 0.0);
  EXPECT_EQ(c.at("VMAF_integer_feature_adm3_score"), 1.0);
}

TEST(AdmValues, IdenticalFramesHaveNoAdditiveImpairment) {
  std::vector<std::uint16_t> r, d;
  adm_test_frames(80, 50, 8, 11, r, d);
  const PictureFormat fmt = luma_format(80, 50, 8);
  const Picture a = make_picture(fmt, r), b = make_picture(fmt, r);
  Capture c;
  make(fmt)->extract(a, b, 0, c);
  const double adm2 = c.at("VMAF_integer_feature_adm2_score");
  EXPECT_EQ(c.at("VMAF_integer_feature_aim_score"), 0.0);
  EXPECT_EQ(c.at("VMAF_integer_feature_adm3_score"), adm2 * 0.5 + (1 - 0.0) * (1 - 0.5));
  EXPECT_NEAR(adm2, 1.0, 0.01);
}

// The DWT's first pass divides by 2^bpc with rounding, so samples shifted up
// from 8 bits give exactly the 8-bit result at every depth (and 16-bit input
// at the top of the range does not overflow).
TEST(AdmValues, ShiftedSamplesMatchEightBit) {
  const int w = 53, h = 39;
  std::vector<std::uint16_t> r, d;
  adm_test_frames(w, h, 8, 5, r, d);
  // Push some samples to the extremes.
  for (std::size_t i = 0; i < r.size(); i += 7) r[i] = 255;
  for (std::size_t i = 3; i < d.size(); i += 5) d[i] = 0;
  const Capture base = [&] {
    const PictureFormat fmt = luma_format(w, h, 8);
    const Picture a = make_picture(fmt, r), b = make_picture(fmt, d);
    Capture c;
    make(fmt, {{"debug", "true"}})->extract(a, b, 0, c);
    return c;
  }();
  ASSERT_EQ(base.values.size(), 18u);
  for (int bpc = 9; bpc <= 16; ++bpc) {
    std::vector<std::uint16_t> rs(r), ds(d);
    for (auto& v : rs) v = std::uint16_t(v << (bpc - 8));
    for (auto& v : ds) v = std::uint16_t(v << (bpc - 8));
    const PictureFormat fmt = luma_format(w, h, bpc);
    const Picture a = make_picture(fmt, rs), b = make_picture(fmt, ds);
    Capture c;
    make(fmt, {{"debug", "true"}})->extract(a, b, 0, c);
    ASSERT_EQ(c.values.size(), base.values.size());
    for (std::size_t k = 0; k < c.values.size(); ++k) EXPECT_EQ(c.values[k], base.values[k]) << bpc;
  }
}

// Full-range 16-bit checkerboard and noise: the largest DWT coefficients.
TEST(AdmValues, SixteenBitExtremesAreFinite) {
  const int w = 64, h = 48;
  std::vector<std::uint16_t> r(std::size_t(w) * h), d(r.size());
  std::uint32_t s = 1;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      s = s * 1664525u + 1013904223u;
      r[std::size_t(y) * w + x] = ((x + y) & 1) ? 65535 : 0;
      d[std::size_t(y) * w + x] = std::uint16_t(s >> 16);
    }
  const PictureFormat fmt = luma_format(w, h, 16);
  const Picture a = make_picture(fmt, r), b = make_picture(fmt, d);
  Capture c;
  make(fmt, {{"debug", "true"}})->extract(a, b, 0, c);
  for (const auto& [n, v] : c.values) EXPECT_TRUE(std::isfinite(v)) << n;
}

TEST(AdmValues, EdgeAndOddSizes) {
  for (auto [w, h] : {std::pair{33, 33}, std::pair{33, 200}, std::pair{200, 33}, std::pair{34, 35}, std::pair{47, 63},
                      std::pair{65, 65}, std::pair{127, 33}}) {
    const Capture c = run_once(w, h, 8, unsigned(w * 1000 + h), {{"debug", "true"}});
    ASSERT_EQ(c.values.size(), 18u);
    for (const auto& [n, v] : c.values) EXPECT_TRUE(std::isfinite(v)) << w << "x" << h << " " << n;
    const double adm2 = c.at("VMAF_integer_feature_adm2_score");
    EXPECT_GT(adm2, 0.5) << w << "x" << h;
    EXPECT_LE(adm2, 1.1) << w << "x" << h;
  }
}

TEST(AdmValues, ChromaFormatDoesNotMatter) {
  const Capture base = run_once(48, 40, 10, 4, {}, ChromaFormat::k420);
  for (ChromaFormat cf : {ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::k400}) {
    const Capture c = run_once(48, 40, 10, 4, {}, cf);
    ASSERT_EQ(c.values.size(), base.values.size());
    for (std::size_t k = 0; k < c.values.size(); ++k) EXPECT_EQ(c.values[k], base.values[k]);
  }
}

TEST(AdmValues, OptionEffects) {
  const Capture def = run_once(67, 45, 8, 7, {{"debug", "true"}});
  // skip_aim: AIM is 0, DLM unchanged.
  const Capture no_aim = run_once(67, 45, 8, 7, {{"adm_skip_aim", "true"}});
  EXPECT_EQ(no_aim.at("VMAF_integer_feature_aim_score"), 0.0);
  EXPECT_EQ(no_aim.at("VMAF_integer_feature_adm2_score"), def.at("VMAF_integer_feature_adm2_score"));
  // dlm_weight 1: adm3 is adm2; min_val 1: adm3 is clipped to 1.
  const Capture dlm = run_once(67, 45, 8, 7, {{"adm_dlm_weight", "1"}});
  EXPECT_EQ(dlm.at("VMAF_integer_feature_adm3_score"), dlm.at("VMAF_integer_feature_adm2_score"));
  const Capture clip = run_once(67, 45, 8, 7, {{"adm_min_val", "1"}});
  EXPECT_EQ(clip.at("VMAF_integer_feature_adm3_score"), 1.0);
  // skip_scale0: scale 0 num is 0 and den is (float)1e-10; the others are unchanged.
  const Capture ssz = run_once(67, 45, 8, 7, {{"adm_skip_scale0", "true"}, {"debug", "true"}});
  EXPECT_EQ(ssz.at("integer_adm_num_scale0"), 0.0);
  EXPECT_EQ(ssz.at("integer_adm_den_scale0"), double(1e-10f));
  for (int s = 1; s < 4; ++s) {
    const std::string k = std::to_string(s);
    EXPECT_EQ(ssz.at("integer_adm_num_scale" + k), def.at("integer_adm_num_scale" + k));
    EXPECT_EQ(ssz.at("integer_adm_den_scale" + k), def.at("integer_adm_den_scale" + k));
  }
}

TEST(AdmFactors, DefaultConditionUsesLibvmafConstants) {
  const adm::Factors f = adm::csf_factors(adm::Params{});
  for (int t = 0; t < 3; ++t) EXPECT_EQ(f.s0_rfactor[t], vmafx_adm_s0_rfactor_default[t]);
  EXPECT_EQ(f.rfactor[0][0], f.rfactor[0][1]);
  // libvmaf's constants are not quite the float factors at 2^21 / 2^23
  // (36451, 49414): the default condition must use the constants.
  EXPECT_EQ(std::uint16_t(double(f.rfactor[0][0]) * 2097152.0), 36451);
  EXPECT_EQ(std::uint16_t(double(f.rfactor[0][2]) * 8388608.0), 49414);
  // Any other product of distance and height, or another CSF, computes them.
  adm::Params p;
  p.ref_display_height = 2160;
  const adm::Factors g = adm::csf_factors(p);
  EXPECT_EQ(g.s0_rfactor[0], std::uint16_t(double(g.rfactor[0][0]) * 2097152.0));
  EXPECT_EQ(g.s0_rfactor[2], std::uint16_t(double(g.rfactor[0][2]) * 8388608.0));
  // Same product as the default (6 * 540 = 3 * 1080): the constants again.
  p.ref_display_height = 540;
  p.norm_view_dist = 6.0;
  const adm::Factors h = adm::csf_factors(p);
  for (int t = 0; t < 3; ++t) EXPECT_EQ(h.s0_rfactor[t], vmafx_adm_s0_rfactor_default[t]);
  for (int s = 1; s < 4; ++s)
    for (int t = 0; t < 3; ++t)
      EXPECT_EQ(f.s123_rfactor[s - 1][t], std::uint32_t(double(f.rfactor[s][t]) * 4294967296.0));
}

// Concurrent extract calls on one instance give the sequential results.
TEST(AdmThreads, ConcurrentExtractIsDeterministic) {
  const int w = 96, h = 72;
  const PictureFormat fmt = luma_format(w, h, 8);
  auto ex = make(fmt, {{"debug", "true"}});
  std::vector<Picture> refs, diss;
  for (unsigned k = 0; k < 4; ++k) {
    std::vector<std::uint16_t> r, d;
    adm_test_frames(w, h, 8, 100 + k, r, d);
    refs.push_back(make_picture(fmt, r));
    diss.push_back(make_picture(fmt, d));
  }
  std::vector<Capture> seq(4), par(4);
  for (unsigned k = 0; k < 4; ++k) ex->extract(refs[k], diss[k], k, seq[k]);
  for (int round = 0; round < 3; ++round) {
    std::vector<std::thread> ts;
    for (unsigned k = 0; k < 4; ++k)
      ts.emplace_back([&, k] {
        par[k].values.clear();
        ex->extract(refs[k], diss[k], k, par[k]);
      });
    for (auto& t : ts) t.join();
    for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(par[k].values, seq[k].values);
  }
}

}  // namespace
}  // namespace vmafx
