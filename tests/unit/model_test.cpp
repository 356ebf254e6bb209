// SPDX-License-Identifier: BSD-3-Clause
// Model loading and per-frame prediction vs libvmaf 3.2.0.
// The golden oracle JSON files hold every frame's feature values and the model
// scores libvmaf computed from them (printed with %.17g, so exact doubles):
// feeding the golden features to Model::predict must give the golden scores, ==.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/feature.hpp"
#include "vmaf_exact/session.hpp"
#include "model/model.hpp"

#ifndef VMAFX_TEST_DATA_DIR
#error "VMAFX_TEST_DATA_DIR must be defined (the tests/data folder)"
#endif

namespace fs = std::filesystem;
using vmafx::Model;
using vmafx::ModelFeature;
using vmafx::ModelOptions;

namespace {

const fs::path kOracleDir = fs::path(VMAFX_TEST_DATA_DIR) / "golden" / "oracle";

std::string g17(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  EXPECT_TRUE(in.good()) << p;
  return nlohmann::json::parse(in);
}

// The name libvmaf's JSON writer uses for a model feature: the alias of the
// internal name, plus "_egl_1" when the model sets an enhancement gain limit of 1.
std::string output_name(const ModelFeature& f) {
  static const std::map<std::string, std::string> alias = {
      {"VMAF_integer_feature_adm2_score", "integer_adm2"},
      {"VMAF_integer_feature_motion2_score", "integer_motion2"},
      {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
      {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
      {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
      {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
  };
  auto it = alias.find(f.name);
  if (it == alias.end()) return f.name;
  std::string n = it->second;
  for (const auto& [k, v] : f.opts) {
    if ((k == "adm_enhn_gain_limit" || k == "vif_enhn_gain_limit") && v == "1")
      n += "_egl_1";
    else
      ADD_FAILURE() << "unexpected option " << k << "=" << v << " on " << f.name;
  }
  return n;
}

// ---------------------------------------------------------------------------
// Golden per-frame equality.

struct GoldenCase {
  std::string file;     // oracle file name
  std::string version;  // built-in model that made its scores
};

std::string version_for_run(const std::string& run) {
  if (run == "vmaf_v0.6.1" || run == "vmaf_v0.6.1.cpumask255" || run == "egl1" || run == "subsample2")
    return "vmaf_v0.6.1";
  if (run == "vmaf_4k_v0.6.1" || run == "vmaf_v0.6.1neg" || run == "vmaf_b_v0.6.3") return run;
  return "";
}

// "<pair>.<run>.json" -> run, for the runs that carry model scores ("" for
// others). Pair names may contain dots (chelsea352__gblur1.5).
std::string run_of(const std::string& file) {
  for (const char* run : {"vmaf_v0.6.1.cpumask255", "vmaf_v0.6.1", "vmaf_4k_v0.6.1", "vmaf_v0.6.1neg", "vmaf_b_v0.6.3",
                          "egl1", "subsample2"}) {
    const std::string suffix = std::string(".") + run + ".json";
    if (file.size() > suffix.size() && file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0)
      return run;
  }
  return "";
}

std::vector<GoldenCase> golden_cases() {
  std::vector<GoldenCase> cases;
  for (const auto& e : fs::directory_iterator(kOracleDir)) {
    const std::string file = e.path().filename().string();
    const std::string v = version_for_run(run_of(file));
    if (!v.empty()) cases.push_back({file, v});
  }
  std::sort(cases.begin(), cases.end(), [](auto& a, auto& b) { return a.file < b.file; });
  return cases;
}

class GoldenModelTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenModelTest, EveryFrameEqualsLibvmaf) {
  const GoldenCase& c = GetParam();
  const nlohmann::json doc = read_json(kOracleDir / c.file);
  const Model model = Model::builtin(c.version, {});
  std::vector<std::string> keys;
  for (const ModelFeature& f : model.features()) keys.push_back(output_name(f));

  std::size_t compared = 0;
  ASSERT_FALSE(doc.at("frames").empty());
  for (const auto& frame : doc.at("frames")) {
    const auto& m = frame.at("metrics");
    const int fn = frame.at("frameNum").get<int>();
    std::vector<double> values;
    for (const std::string& k : keys) {
      ASSERT_TRUE(m.contains(k)) << c.file << " frame " << fn << ": no " << k;
      values.push_back(m.at(k).get<double>());
    }
    const auto scores = model.predict(values);
    if (model.is_bootstrap())
      ASSERT_EQ(scores.size(), 25u);
    else
      ASSERT_EQ(scores.size(), 1u);
    for (const auto& [name, score] : scores) {
      ASSERT_TRUE(m.contains(name)) << c.file << " frame " << fn << ": golden has no " << name;
      const double want = m.at(name).get<double>();
      EXPECT_EQ(score, want) << c.file << " frame " << fn << " " << name << ": got " << g17(score) << ", libvmaf "
                             << g17(want);
      ++compared;
    }
  }
  EXPECT_GT(compared, 0u);
}

// The test name of a case: its file name without ".json", [^A-Za-z0-9] -> '_'.
std::string case_name(const ::testing::TestParamInfo<GoldenCase>& i) {
  std::string n = i.param.file.substr(0, i.param.file.size() - 5);
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Oracle, GoldenModelTest, ::testing::ValuesIn(golden_cases()), case_name);

// The golden set's oracle runs (libvmaf's CLI with the four models it builds
// in) score neither the float_ models nor vmaf_4k_v0.6.1neg (the float models
// have libvmaf runs of their own in tests/data/libvmaf_cpu, replayed by
// CliGolden with --libvmaf-cpu; vmaf_4k_v0.6.1neg has none), but each holds
// the same SVM, normalization and score transforms as one that has: only the
// feature names (float_ extractors) or the feature options (neg: an enhancement
// gain limit of 1) differ. Fed the same feature values in the same order, each
// must predict the scores libvmaf wrote for its integer twin, ==.
const std::map<std::string, std::vector<std::string>>& twin_models() {
  static const std::map<std::string, std::vector<std::string>> t = {
      {"vmaf_v0.6.1", {"vmaf_float_v0.6.1"}},
      {"vmaf_4k_v0.6.1", {"vmaf_float_4k_v0.6.1", "vmaf_4k_v0.6.1neg"}},
      {"vmaf_v0.6.1neg", {"vmaf_float_v0.6.1neg"}},
      {"vmaf_b_v0.6.3", {"vmaf_float_b_v0.6.3"}},
  };
  return t;
}

// "VMAF_integer_feature_adm2_score" and "VMAF_feature_adm2_score" -> "adm2_score".
std::string feature_stem(const std::string& name) { return name.substr(name.rfind("feature_") + 8); }

// The plain runs of a model with twins (a variant run, e.g. egl1, holds the
// same model's scores with other feature options: the plain runs cover it).
std::vector<GoldenCase> twin_cases() {
  std::vector<GoldenCase> out;
  for (const GoldenCase& c : golden_cases())
    if (twin_models().count(c.version) && run_of(c.file) == c.version) out.push_back(c);
  return out;
}

class GoldenTwinModelTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenTwinModelTest, TwinModelsEqualLibvmafOnTheSameFeatures) {
  const GoldenCase& c = GetParam();
  const auto twins = twin_models().find(c.version);
  ASSERT_NE(twins, twin_models().end());
  const nlohmann::json doc = read_json(kOracleDir / c.file);
  const Model model = Model::builtin(c.version, {});
  std::vector<std::string> keys;
  for (const ModelFeature& f : model.features()) keys.push_back(output_name(f));
  std::size_t compared = 0;
  for (const std::string& version : twins->second) {
    const Model twin = Model::builtin(version, {});
    ASSERT_EQ(twin.features().size(), model.features().size()) << version;
    for (std::size_t i = 0; i < keys.size(); ++i)
      ASSERT_EQ(feature_stem(twin.features()[i].name), feature_stem(model.features()[i].name)) << version << " " << i;
    ASSERT_EQ(twin.is_bootstrap(), model.is_bootstrap()) << version;
    for (const auto& frame : doc.at("frames")) {
      const auto& m = frame.at("metrics");
      std::vector<double> values;
      for (const std::string& k : keys) values.push_back(m.at(k).get<double>());
      for (const auto& [name, score] : twin.predict(values)) {
        ASSERT_TRUE(m.contains(name)) << c.file << ": golden has no " << name;
        const double want = m.at(name).get<double>();
        EXPECT_EQ(score, want) << version << " on " << c.file << " frame " << frame.at("frameNum") << " " << name
                               << ": got " << g17(score) << ", libvmaf (" << c.version << ") " << g17(want);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 0u);
}

INSTANTIATE_TEST_SUITE_P(Oracle, GoldenTwinModelTest, ::testing::ValuesIn(twin_cases()), case_name);

TEST(GoldenModelCoverage, EveryModelRunIsCovered) {
  std::map<std::string, int> per_run;
  for (const GoldenCase& c : golden_cases()) per_run[run_of(c.file)]++;
  EXPECT_EQ(per_run["vmaf_v0.6.1"], 20);
  EXPECT_EQ(per_run["vmaf_v0.6.1.cpumask255"], 1);
  EXPECT_EQ(per_run["vmaf_4k_v0.6.1"], 6);
  EXPECT_EQ(per_run["vmaf_v0.6.1neg"], 7);
  EXPECT_EQ(per_run["vmaf_b_v0.6.3"], 6);
  EXPECT_EQ(per_run["egl1"], 1);
  EXPECT_EQ(per_run["subsample2"], 1);
  // Every oracle file with a "vmaf" score is one of the cases above.
  std::size_t with_vmaf = 0;
  for (const auto& e : fs::directory_iterator(kOracleDir)) {
    if (e.path().extension() != ".json") continue;
    const nlohmann::json doc = read_json(e.path());
    if (!doc.at("frames").empty() && doc.at("frames")[0].at("metrics").contains("vmaf")) ++with_vmaf;
  }
  EXPECT_EQ(with_vmaf, golden_cases().size());
}

// ---------------------------------------------------------------------------
// The built-in models.

using Opts = std::map<std::string, std::string>;

TEST(BuiltinModels, SeventeenVersions) {
  const std::vector<std::string> want = {
      "vmaf_4k_v0.6.1",       "vmaf_4k_v0.6.1neg",          "vmaf_b_v0.6.3",         "vmaf_float_4k_v0.6.1",
      "vmaf_float_b_v0.6.3",  "vmaf_float_v0.6.1",          "vmaf_float_v0.6.1neg",  "vmaf_v0.6.1",
      "vmaf_v0.6.1neg",       "vmaf_v1.0.16_1d5h_2160",     "vmaf_v1.0.16_3d0h",     "vmaf_v1.0.16_3d0h_2160",
      "vmaf_v1.0.16_5d0h",    "vmaf_v1.0.16_hfr_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_3d0h_2160",
      "vmaf_v1.0.16_hfr_5d0h"};
  EXPECT_EQ(Model::builtin_versions(), want);
}

std::vector<ModelFeature> v061_features(const std::string& prefix, bool integer, const Opts& adm, const Opts& vif) {
  const std::string e = integer ? "" : "float_";
  return {{prefix + "adm2_score", adm, e + "adm"},       {prefix + "motion2_score", {}, e + "motion"},
          {prefix + "vif_scale0_score", vif, e + "vif"}, {prefix + "vif_scale1_score", vif, e + "vif"},
          {prefix + "vif_scale2_score", vif, e + "vif"}, {prefix + "vif_scale3_score", vif, e + "vif"}};
}

TEST(BuiltinModels, V061Family) {
  const Opts egl_adm = {{"adm_enhn_gain_limit", "1"}}, egl_vif = {{"vif_enhn_gain_limit", "1"}};
  const std::string I = "VMAF_integer_feature_", F = "VMAF_feature_";
  const std::vector<std::pair<std::string, std::vector<ModelFeature>>> cases = {
      {"vmaf_v0.6.1", v061_features(I, true, {}, {})},
      {"vmaf_4k_v0.6.1", v061_features(I, true, {}, {})},
      {"vmaf_b_v0.6.3", v061_features(I, true, {}, {})},
      {"vmaf_v0.6.1neg", v061_features(I, true, egl_adm, egl_vif)},
      {"vmaf_4k_v0.6.1neg", v061_features(I, true, egl_adm, egl_vif)},
      {"vmaf_float_v0.6.1", v061_features(F, false, {}, {})},
      {"vmaf_float_4k_v0.6.1", v061_features(F, false, {}, {})},
      {"vmaf_float_b_v0.6.3", v061_features(F, false, {}, {})},
      {"vmaf_float_v0.6.1neg", v061_features(F, false, egl_adm, egl_vif)},
  };
  for (const auto& [version, features] : cases) {
    const Model m = Model::builtin(version, {});
    EXPECT_EQ(m.name(), "vmaf") << version;
    ASSERT_EQ(m.features().size(), 6u) << version;
    for (std::size_t i = 0; i < 6; ++i) {
      EXPECT_EQ(m.features()[i].name, features[i].name) << version << " " << i;
      EXPECT_EQ(m.features()[i].opts, features[i].opts) << version << " " << i;
      EXPECT_EQ(m.features()[i].extractor, features[i].extractor) << version << " " << i;
    }
    const bool boot = version.find("_b_") != std::string::npos;
    EXPECT_EQ(m.is_bootstrap(), boot) << version;
    const std::vector<double> values = {0.9, 3.0, 0.5, 0.8, 0.9, 0.95};
    const auto out = m.predict(values);
    ASSERT_EQ(out.size(), boot ? 25u : 1u) << version;
    EXPECT_EQ(out[0].first, "vmaf");
    for (const auto& [n, v] : out) EXPECT_TRUE(std::isfinite(v)) << version << " " << n;
  }
}

TEST(BuiltinModels, V1016Family) {
  const Opts cambi = {{"cambi_high_res_speedup", "1080"}, {"cambi_max_val", "17"}, {"cambi_vis_lum_threshold", "0.06"}};
  auto adm = [](const char* dist, const char* height) {
    return Opts{{"adm_csf_mode", "2"},
                {"adm_dlm_weight", "0.7"},
                {"adm_enhn_gain_limit", "1"},
                {"adm_min_val", "0.5"},
                {"adm_noise_weight", "0.02"},
                {"adm_norm_view_dist", dist},
                {"adm_ref_display_height", height}};
  };
  const Opts speed_base = {
      {"speed_max_val", "45"}, {"speed_nn_floor", "0.1"}, {"speed_sigma_nn", "0.19"}, {"speed_weight_var_mode", "5"}};
  auto speed = [&](Opts extra) {
    Opts o = speed_base;
    o.insert(extra.begin(), extra.end());
    return o;
  };
  struct Case {
    std::string version;
    Opts speed, adm;
  };
  const std::vector<Case> cases = {
      {"1d5h_2160", speed({}), adm("1.5", "2160")},
      {"3d0h", speed({{"speed_kernelscale", "1"}}), adm("3", "1080")},
      {"3d0h_2160", speed({{"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"}}), adm("3", "2160")},
      {"5d0h", speed({{"speed_prescale", "0.6"}, {"speed_prescale_method", "bilinear"}}), adm("5", "1080")},
  };
  for (bool hfr : {false, true}) {
    for (const Case& c : cases) {
      const std::string version = std::string("vmaf_v1.0.16_") + (hfr ? "hfr_" : "") + c.version;
      const Model m = Model::builtin(version, {});
      Opts motion = {{"motion_max_val", "18"}};
      if (hfr) {
        motion["motion_five_frame_window"] = "true";
        motion["motion_moving_average"] = "true";
      }
      const std::vector<ModelFeature> want = {
          {"Cambi_feature_cambi_score", cambi, "cambi"},
          {"Speed_chroma_feature_speed_chroma_uv_score", c.speed, "speed_chroma"},
          {"VMAF_integer_feature_adm3_score", c.adm, "adm"},
          {"VMAF_integer_feature_motion3_score", motion, "motion"},
      };
      ASSERT_EQ(m.features().size(), want.size()) << version;
      for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(m.features()[i].name, want[i].name) << version;
        EXPECT_EQ(m.features()[i].opts, want[i].opts) << version << " " << want[i].name;
        EXPECT_EQ(m.features()[i].extractor, want[i].extractor) << version;
      }
      EXPECT_FALSE(m.is_bootstrap());

      // Chroma from luma: a speed_chroma value of exactly 0 is replaced by
      // 120 - 120 * adm3 before the SVM, so both inputs give the same score.
      const double cambi_v = 1.5, adm3 = 0.93, motion3 = 4.0;
      const auto zero = m.predict(std::vector<double>{cambi_v, 0.0, adm3, motion3});
      const auto corrected = m.predict(std::vector<double>{cambi_v, (-120.0 * adm3) + 120.0, adm3, motion3});
      const auto other = m.predict(std::vector<double>{cambi_v, 3.0, adm3, motion3});
      ASSERT_EQ(zero.size(), 1u);
      EXPECT_EQ(zero[0].second, corrected[0].second) << version;
      EXPECT_NE(zero[0].second, other[0].second) << version;
    }
  }
}

// ---------------------------------------------------------------------------
// Options.

// Golden features of one frame, in the model's feature order.
std::vector<double> golden_values(const Model& m, const std::string& file, int frame) {
  const nlohmann::json doc = read_json(kOracleDir / file);
  std::vector<double> v;
  for (const ModelFeature& f : m.features())
    v.push_back(doc.at("frames").at(frame).at("metrics").at(output_name(f)).get<double>());
  return v;
}

TEST(ModelOptions, NameRenamesEveryOutput) {
  ModelOptions o;
  o.name = "foo";
  const Model m = Model::builtin("vmaf_b_v0.6.3", o);
  EXPECT_EQ(m.name(), "foo");
  const auto out = m.predict(golden_values(m, "astro176__x264_crf18.vmaf_b_v0.6.3.json", 0));
  const auto ref =
      Model::builtin("vmaf_b_v0.6.3", {}).predict(golden_values(m, "astro176__x264_crf18.vmaf_b_v0.6.3.json", 0));
  ASSERT_EQ(out.size(), 25u);
  EXPECT_EQ(out[0].first, "foo");
  EXPECT_EQ(out[1].first, "foo_0001");
  EXPECT_EQ(out[20].first, "foo_0020");
  EXPECT_EQ(out[21].first, "foo_bagging");
  EXPECT_EQ(out[22].first, "foo_stddev");
  EXPECT_EQ(out[23].first, "foo_ci_p95_lo");
  EXPECT_EQ(out[24].first, "foo_ci_p95_hi");
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i].second, ref[i].second);
}

TEST(ModelOptions, DisableClip) {
  // vmaf_0019 is clipped to 100 on this frame.
  const std::string file = "astro176__x264_crf18.vmaf_b_v0.6.3.json";
  ModelOptions o;
  o.disable_clip = true;
  const Model clipped = Model::builtin("vmaf_b_v0.6.3", {});
  const Model unclipped = Model::builtin("vmaf_b_v0.6.3", o);
  const auto a = clipped.predict(golden_values(clipped, file, 0));
  const auto b = unclipped.predict(golden_values(unclipped, file, 0));
  EXPECT_EQ(a[19].first, "vmaf_0019");
  EXPECT_EQ(a[19].second, 100.0);
  EXPECT_GT(b[19].second, 100.0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].second < 100.0 && a[i].second > 0.0 && a[i].first != "vmaf_stddev" &&
        a[i].first.find("ci_p95") == std::string::npos) {
      EXPECT_EQ(a[i].second, b[i].second) << a[i].first;
    }
  }
}

TEST(ModelOptions, EnableTransform) {
  // vmaf_v0.6.1 has a score_transform without "enabled": it only applies with
  // enable_transform: y' = max(y, p0 + p1*y + p2*y*y).
  const std::string file = "astro176__x264_crf45.vmaf_v0.6.1.json";
  ModelOptions o;
  o.enable_transform = true;
  ModelOptions raw_opts;
  raw_opts.disable_clip = true;
  const Model plain = Model::builtin("vmaf_v0.6.1", raw_opts);
  const Model transformed = Model::builtin("vmaf_v0.6.1", o);
  const nlohmann::json doc = read_json(kOracleDir / file);
  for (int f = 0; f < static_cast<int>(doc.at("frames").size()); ++f) {
    const std::vector<double> v = golden_values(plain, file, f);
    const double y = plain.predict(v)[0].second;
    double t = 0.;
    t += 1.70674692;
    t += 1.72643844 * y;
    t += -0.00705305 * y * y;
    if (t < y) t = y;
    t = std::min(100.0, std::max(0.0, t));
    EXPECT_EQ(transformed.predict(v)[0].second, t) << f;
    EXPECT_EQ(Model::builtin("vmaf_v0.6.1", {}).predict(v)[0].second, std::min(100.0, std::max(0.0, y)));
  }
}

TEST(ModelOptions, FeatureOverloads) {
  ModelOptions o;
  o.feature_overloads = {{"adm", "adm_enhn_gain_limit", "1.0"},
                         {"vif", "vif_enhn_gain_limit", "1.00"},
                         {"motion", "motion_force_zero", "true"},
                         {"float_adm", "adm_enhn_gain_limit", "2"}};
  const Model m = Model::builtin("vmaf_v0.6.1", o);
  ASSERT_EQ(m.features().size(), 6u);
  EXPECT_EQ(m.features()[0].opts, (Opts{{"adm_enhn_gain_limit", "1"}}));
  EXPECT_EQ(m.features()[1].opts, (Opts{{"motion_force_zero", "true"}}));
  for (int i = 2; i < 6; ++i) EXPECT_EQ(m.features()[i].opts, (Opts{{"vif_enhn_gain_limit", "1"}}));
  // With the gain limits overloaded, vmaf_v0.6.1 reads the same features as
  // vmaf_v0.6.1neg (but keeps its own SVM).
  ModelOptions o2;
  o2.feature_overloads = {{"adm", "adm_enhn_gain_limit", "1.0"}, {"vif", "vif_enhn_gain_limit", "1"}};
  const Model m2 = Model::builtin("vmaf_v0.6.1", o2);
  const Model neg = Model::builtin("vmaf_v0.6.1neg", {});
  EXPECT_EQ(m2.features(), neg.features());
  // Overwrites the model's own option; non-numeric text is kept as is.
  ModelOptions o3;
  o3.feature_overloads = {{"adm", "adm_enhn_gain_limit", "1.5e0"},
                          {"speed_chroma", "speed_prescale_method", "bicubic"}};
  const Model m3 = Model::builtin("vmaf_v1.0.16_3d0h_2160", o3);
  EXPECT_EQ(m3.features()[2].opts.at("adm_enhn_gain_limit"), "1.5");
  EXPECT_EQ(m3.features()[1].opts.at("speed_prescale_method"), "bicubic");
}

// ---------------------------------------------------------------------------
// Hand-made models: transform and kernels.

std::string tiny_model(const std::string& extra, const std::string& svm,
                       const std::string& norm = "\"norm_type\": \"none\"") {
  return R"({"model_dict": {"model_type": "LIBSVMNUSVR", )" + norm +
         R"(, "feature_names": ["VMAF_integer_feature_adm2_score"], "model": ")" + svm + "\"" + extra + "}}";
}
// One support vector (coefficient 1, x = 1), linear kernel, rho 0: score = feature value.
const std::string kIdentitySvm =
    "svm_type nu_svr\\nkernel_type linear\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1 1:1 \\n";

double score_of(const std::string& json, double x, const ModelOptions& o = {}) {
  return Model::from_json(json, "tiny", o).predict(std::vector<double>{x})[0].second;
}

TEST(ModelTransform, KnotsAndRectification) {
  const std::string knots = R"(, "score_transform": {"enabled": true, "knots": [[0, 0], [50, 60], [100, 100]]})";
  const std::string j = tiny_model(knots, kIdentitySvm);
  EXPECT_EQ(score_of(j, 25.0), 1.2 * 25.0 + 0.0);
  EXPECT_EQ(score_of(j, 75.0), 0.8 * 75.0 + (60.0 - 50.0 * 0.8));
  EXPECT_EQ(score_of(j, 120.0), 0.8 * 120.0 + (60.0 - 50.0 * 0.8));  // extrapolated
  EXPECT_EQ(score_of(j, -10.0), 1.2 * -10.0);
  const std::string lte =
      R"(, "score_transform": {"enabled": true, "knots": [[0, 0], [50, 60], [100, 100]], "out_lte_in": "true"})";
  EXPECT_EQ(score_of(tiny_model(lte, kIdentitySvm), 25.0), 25.0);                 // 30 > 25
  EXPECT_EQ(score_of(tiny_model(lte, kIdentitySvm), 75.0), 75.0);                 // 80 > 75
  EXPECT_EQ(score_of(tiny_model(lte, kIdentitySvm), 110.0), 0.8 * 110.0 + 20.0);  // 108 < 110
  const std::string gte =
      R"(, "score_transform": {"enabled": true, "knots": [[0, 0], [50, 60], [100, 100]], "out_gte_in": "true"})";
  EXPECT_EQ(score_of(tiny_model(gte, kIdentitySvm), 25.0), 30.0);
  EXPECT_EQ(score_of(tiny_model(gte, kIdentitySvm), 110.0), 110.0);
  // A horizontal segment, and values below the first knot.
  const std::string flat = R"(, "score_transform": {"enabled": true, "knots": [[10, 5], [20, 5], [30, 25]]})";
  EXPECT_EQ(score_of(tiny_model(flat, kIdentitySvm), 15.0), 5.0);
  EXPECT_EQ(score_of(tiny_model(flat, kIdentitySvm), 0.0), 5.0);
  EXPECT_EQ(score_of(tiny_model(flat, kIdentitySvm), 25.0), 2.0 * 25.0 + (5.0 - 20.0 * 2.0));
  // Not enabled: no transform unless enable_transform.
  const std::string off = R"(, "score_transform": {"p0": 1.0, "p1": 2.0})";
  EXPECT_EQ(score_of(tiny_model(off, kIdentitySvm), 3.0), 3.0);
  ModelOptions et;
  et.enable_transform = true;
  EXPECT_EQ(score_of(tiny_model(off, kIdentitySvm), 3.0, et), 7.0);
  // Clip.
  const std::string clip = R"(, "score_clip": [0, 10])";
  EXPECT_EQ(score_of(tiny_model(clip, kIdentitySvm), 30.0), 10.0);
  EXPECT_EQ(score_of(tiny_model(clip, kIdentitySvm), -3.0), 0.0);
  ModelOptions dc;
  dc.disable_clip = true;
  EXPECT_EQ(score_of(tiny_model(clip, kIdentitySvm), 30.0, dc), 30.0);
}

TEST(ModelKernels, LinearRescaleAndKernels) {
  // linear_rescale: x' = 2x + 1; score = (svm - 3) / 0.5.
  const std::string rescale = R"("norm_type": "linear_rescale", "slopes": [0.5, 2.0], "intercepts": [3.0, 1.0])";
  EXPECT_EQ(score_of(tiny_model("", kIdentitySvm, rescale), 4.0), ((2.0 * 4.0 + 1.0) - 3.0) / 0.5);
  // rbf: 2 * exp(-0.5 * (x - 1)^2) - 0.25
  const std::string rbf =
      "svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\nnr_class 2\\ntotal_sv 1\\nrho 0.25\\nSV\\n2 1:1 \\n";
  EXPECT_EQ(score_of(tiny_model("", rbf), 3.0), 2 * std::exp(-0.5 * 4.0) - 0.25);
  // sparse support vector (no entry = 0): |x|^2 is added
  const std::string rbf0 =
      "svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1\\n";
  EXPECT_EQ(score_of(tiny_model("", rbf0), 3.0), std::exp(-0.5 * 9.0));
  // polynomial: (gamma * dot + coef0)^degree
  const std::string poly =
      "svm_type epsilon_svr\\nkernel_type polynomial\\ndegree 3\\ngamma 0.5\\ncoef0 1\\nnr_class 2\\n"
      "total_sv 1\\nrho 0\\nSV\\n1 1:2 \\n";
  EXPECT_EQ(score_of(tiny_model("", poly), 3.0), 4.0 * 4.0 * 4.0);
  const std::string sig =
      "svm_type nu_svr\\nkernel_type sigmoid\\ngamma 0.5\\ncoef0 0.1\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1 1:2 "
      "\\n";
  EXPECT_EQ(score_of(tiny_model("", sig), 3.0), std::tanh(0.5 * 6.0 + 0.1));
}

// ---------------------------------------------------------------------------
// Errors: one line, naming the source and the problem.

void expect_error(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one containing \"" << parts[0] << "\"";
  } catch (const vmafx::Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    for (const std::string& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "\"" << msg << "\" lacks \"" << p << "\"";
  }
}

TEST(ModelErrors, UnknownVersion) {
  expect_error([] { Model::builtin("vmaf_v9", {}); },
               {"no built-in model \"vmaf_v9\"", "valid versions: ", "vmaf_v0.6.1", "vmaf_v1.0.16_hfr_5d0h"});
  expect_error([] { Model::builtin("", {}); }, {"no built-in model \"\""});
}

TEST(ModelErrors, UnreadablePath) {
  expect_error([] { Model::from_file("/nonexistent/dir/m.json", {}); },
               {"/nonexistent/dir/m.json: cannot open model file"});
  expect_error([] { Model::from_file("/nonexistent/dir/m.pkl", {}); }, {"/nonexistent/dir/m.pkl: "});
  const std::string dir = fs::temp_directory_path().string();
  expect_error([&] { Model::from_file(dir, {}); }, {dir + ": cannot open model file: it is a directory"});
}

TEST(ModelErrors, FromFileWorksAndNamesThePath) {
  const fs::path dir = fs::temp_directory_path() / "vmafx_model_test";
  fs::create_directories(dir);
  const fs::path good = dir / "good.json", bad = dir / "bad.json";
  { std::ofstream(good) << tiny_model("", kIdentitySvm); }
  { std::ofstream(bad) << "{\"model_dict\": "; }
  EXPECT_EQ(Model::from_file(good.string(), {}).predict(std::vector<double>{2.5})[0].second, 2.5);
  expect_error([&] { Model::from_file(bad.string(), {}); }, {bad.string() + ": invalid JSON: "});
  fs::remove_all(dir);
}

TEST(ModelErrors, MalformedJson) {
  expect_error([] { Model::from_json("{\"model_dict\": {", "m.json", {}); }, {"m.json: invalid JSON: "});
  expect_error([] { Model::from_json("", "m.json", {}); }, {"m.json: invalid JSON: "});
  expect_error([] { Model::from_json("[1, 2]", "m.json", {}); }, {"m.json: ", "not an object"});
  expect_error([] { Model::from_json("{\"a\": 1}", "m.json", {}); },
               {"m.json: no \"model_dict\" (and no bootstrap sub-models \"0\", \"1\", ...)"});
}

std::string drop_key(std::string json, const std::string& key_and_value) {
  const auto p = json.find(key_and_value);
  EXPECT_NE(p, std::string::npos) << key_and_value;
  json.erase(p, key_and_value.size());
  return json;
}

TEST(ModelErrors, MissingKeys) {
  const std::string base = tiny_model("", kIdentitySvm);
  expect_error([&] { Model::from_json(drop_key(base, R"("model_type": "LIBSVMNUSVR", )"), "m", {}); },
               {"m: model_dict: missing \"model_type\""});
  expect_error([&] { Model::from_json(drop_key(base, R"("norm_type": "none", )"), "m", {}); },
               {"m: model_dict: missing \"norm_type\""});
  expect_error(
      [&] { Model::from_json(drop_key(base, R"("feature_names": ["VMAF_integer_feature_adm2_score"], )"), "m", {}); },
      {"m: model_dict: missing \"feature_names\""});
  expect_error(
      [&] {
        Model::from_json(R"({"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "none",
      "feature_names": []}})",
                         "m", {});
      },
      {"m: model_dict: missing \"model\""});
  expect_error([&] { Model::from_json(tiny_model("", kIdentitySvm, R"("norm_type": "linear_rescale")"), "m", {}); },
               {"m: model_dict: missing \"slopes\""});
}

TEST(ModelErrors, BadValues) {
  expect_error([] { Model::from_json(tiny_model("", kIdentitySvm, R"("norm_type": "zscore")"), "m", {}); },
               {"m: model_dict: unknown norm_type \"zscore\""});
  std::string t = tiny_model("", kIdentitySvm);
  t.replace(t.find("LIBSVMNUSVR"), 11, "RANDOMFOREST");
  expect_error([&] { Model::from_json(t, "m", {}); }, {"m: model_dict: unknown model_type \"RANDOMFOREST\""});
  expect_error(
      [] {
        Model::from_json(
            tiny_model("", kIdentitySvm, R"("norm_type": "linear_rescale", "slopes": [1, 2, 3], "intercepts": [0, 0])"),
            "m", {});
      },
      {"m: model_dict: \"slopes\" has 3 entries, expected 2"});
  std::string f = tiny_model("", kIdentitySvm);
  f.replace(f.find("VMAF_integer_feature_adm2_score"), 31, "VMAF_feature_ansnr_score");
  expect_error([&] { Model::from_json(f, "m", {}); },
               {"m: model_dict: feature \"VMAF_feature_ansnr_score\" is not provided by any feature extractor"});
  expect_error([] { Model::from_json(tiny_model(R"(, "feature_opts_dicts": [{"a": [1]}])", kIdentitySvm), "m", {}); },
               {"m: ", "option \"a\" is an array"});
  expect_error([] { Model::from_json(tiny_model(R"(, "feature_opts_dicts": [{}, {}])", kIdentitySvm), "m", {}); },
               {"m: ", "\"feature_opts_dicts\" has 2 entries but there are 1 features"});
  expect_error(
      [] { Model::from_json(tiny_model(R"(, "score_transform": {"enabled": "yes"})", kIdentitySvm), "m", {}); },
      {"m: ", "\"enabled\" is a string, expected a boolean"});
}

TEST(ModelErrors, BadLibsvm) {
  auto with_svm = [](const std::string& svm) { return tiny_model("", svm); };
  expect_error(
      [&] {
        Model::from_json(with_svm("svm_type nu_svr\\nkernel_type cubic\\nnr_class 2\\ntotal_sv 1\\n"
                                  "rho 0\\nSV\\n1 1:1\\n"),
                         "m", {});
      },
      {"m: libsvm model: unknown kernel_type \"cubic\""});
  expect_error(
      [&] {
        Model::from_json(with_svm("svm_type nu_svr\\nkernel_type precomputed\\nnr_class 2\\n"
                                  "total_sv 1\\nrho 0\\nSV\\n1 1:1\\n"),
                         "m", {});
      },
      {"m: libsvm model: unsupported kernel_type \"precomputed\""});
  expect_error(
      [&] {
        Model::from_json(with_svm("svm_type c_svc\\nkernel_type rbf\\nnr_class 2\\ntotal_sv 1\\n"
                                  "rho 0\\nSV\\n1 1:1\\n"),
                         "m", {});
      },
      {"m: libsvm model: unsupported svm_type \"c_svc\""});
  expect_error(
      [&] {
        Model::from_json(with_svm("svm_type nu_svr\\nkernel_type rbf\\nnr_class 2\\ntotal_sv 3\\n"
                                  "rho 0\\nSV\\n1 1:1\\n"),
                         "m", {});
      },
      {"m: libsvm model: total_sv is 3 but there are only 1 support vectors"});
  expect_error(
      [&] {
        Model::from_json(with_svm("svm_type nu_svr\\nkernel_type rbf\\nnr_class 2\\ntotal_sv 1\\n"
                                  "rho 0\\nSV\\n1 1:1 2:0.5\\n"),
                         "m", {});
      },
      {"m: model_dict: the libsvm model uses feature index 2 but there are 1 features"});
  expect_error(
      [&] {
        Model::from_json(with_svm("svm_type nu_svr\\nkernel_type rbf\\nnr_class 2\\ntotal_sv 1\\n"
                                  "rho 0\\nSV\\n1 1=1\\n"),
                         "m", {});
      },
      {"m: libsvm model: support vector 1: bad entry \"1=1\""});
  expect_error([&] { Model::from_json(with_svm("svm_type nu_svr\\nkernel_type rbf\\nbogus 1\\nSV\\n"), "m", {}); },
               {"m: libsvm model: unknown text \"bogus\""});
  expect_error(
      [&] { Model::from_json(with_svm("svm_type nu_svr\\nkernel_type rbf\\nnr_class 2\\ntotal_sv 0\\n"), "m", {}); },
      {"m: libsvm model: no \"SV\" line"});
}

TEST(ModelErrors, BadCollection) {
  const std::string sub = tiny_model("", kIdentitySvm);
  expect_error([&] { Model::from_json("{\"0\": " + sub + "}", "c.json", {}); },
               {"c.json: bootstrap collection has sub-model \"0\" but no \"1\""});
  expect_error([&] { Model::from_json("{\"0\": " + sub + ", \"1\": " + sub + "}", "c.json", {}); },
               {"c.json: bootstrap collection sub-models have model_type LIBSVMNUSVR"});
  std::string broken = sub;
  broken.replace(broken.find("\"none\""), 6, "\"nope\"");
  expect_error([&] { Model::from_json("{\"0\": " + sub + ", \"1\": " + broken + "}", "c.json", {}); },
               {"c.json: model \"1\": model_dict: unknown norm_type \"nope\""});
}

TEST(ModelErrors, PredictWrongFeatureCount) {
  const Model m = Model::builtin("vmaf_v0.6.1", {});
  expect_error(
      [&] {
        m.predict(std::vector<double>{1.0, 2.0});
      },
      {"model vmaf: predict() got 2 feature values, expected 6"});
}

TEST(ModelCollection, SmallBootstrapStatistics) {
  // Three sub-models that return the feature value plus 0, 1 and 3; no clip, no transform.
  auto sub = [](const char* rho) {
    return std::string(R"({"model_dict": {"model_type": "BOOTSTRAP_LIBSVMNUSVR", "norm_type": "none",
      "feature_names": ["VMAF_integer_feature_adm2_score"], "model": "svm_type nu_svr\nkernel_type linear\n)"
                       R"(nr_class 2\ntotal_sv 1\nrho )") +
           rho + R"(\nSV\n1 1:1\n"}})";
  };
  const std::string j = "{\"0\": " + sub("0") + ", \"1\": " + sub("0") + ", \"2\": " + sub("-1") +
                        ", \"x\": 5, \"3\": " + sub("-3") + "}";
  const Model m = Model::from_json(j, "c", {});
  EXPECT_TRUE(m.is_bootstrap());
  ASSERT_EQ(m.features().size(), 1u);
  const auto out = m.predict(std::vector<double>{10.0});
  ASSERT_EQ(out.size(), 8u);
  const double mean = (10.0 + 11.0 + 13.0) / 3;
  EXPECT_EQ(out[0], (std::pair<std::string, double>{"vmaf", 10.0}));
  EXPECT_EQ(out[1], (std::pair<std::string, double>{"vmaf_0001", 10.0}));
  EXPECT_EQ(out[2], (std::pair<std::string, double>{"vmaf_0002", 11.0}));
  EXPECT_EQ(out[3], (std::pair<std::string, double>{"vmaf_0003", 13.0}));
  EXPECT_EQ(out[4], (std::pair<std::string, double>{"vmaf_bagging", mean}));
  const double ssd = (10.0 - mean) * (10.0 - mean) + (11.0 - mean) * (11.0 - mean) + (13.0 - mean) * (13.0 - mean);
  const double slope = ((mean + 0.01) - (mean - 0.01)) / (2.0 * 0.01);
  EXPECT_EQ(out[5].first, "vmaf_stddev");
  EXPECT_EQ(out[5].second, std::sqrt(ssd / 3) * slope);
  const double plo = 2.5 * 2 / 100., phi = 97.5 * 2 / 100.;
  EXPECT_EQ(out[6], (std::pair<std::string, double>{"vmaf_ci_p95_lo", 10.0 * (1 - plo) + 11.0 * (plo - 0)}));
  EXPECT_EQ(out[7], (std::pair<std::string, double>{"vmaf_ci_p95_hi", 11.0 * (2 - phi) + 13.0 * (phi - 1)}));
}

// libvmaf 3.2.0's provided-feature lists (each extractor's provided_features
// in libvmaf/src/feature/*.c, in the order of its feature_extractor_list):
// the model loader's lookup through the feature table must give the extractor
// libvmaf gives, and no name may belong to two extractors.
TEST(FeatureTable, ResolvesLibvmafProvidedFeatures) {
  using namespace vmafx;
  struct Provided {
    const char* extractor;
    std::vector<const char*> features;
  };
  const std::vector<Provided> libvmaf = {
      {"float_psnr", {"float_psnr"}},
      {"float_ansnr", {"float_ansnr"}},
      {"float_adm",
       {"VMAF_feature_adm2_score", "VMAF_feature_aim_score", "VMAF_feature_adm3_score", "VMAF_feature_adm_scale0_score",
        "VMAF_feature_adm_scale1_score", "VMAF_feature_adm_scale2_score", "VMAF_feature_adm_scale3_score", "adm_num",
        "adm_den", "adm_scale0", "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1",
        "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3"}},
      {"float_vif",
       {"VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score", "VMAF_feature_vif_scale2_score",
        "VMAF_feature_vif_scale3_score", "vif", "vif_num", "vif_den", "vif_num_scale0", "vif_den_scale0",
        "vif_num_scale1", "vif_den_scale1", "vif_num_scale2", "vif_den_scale2", "vif_num_scale3", "vif_den_scale3"}},
      {"float_motion", {"VMAF_feature_motion_score", "VMAF_feature_motion2_score", "VMAF_feature_motion3_score"}},
      {"float_moment", {"float_moment"}},
      {"speed_chroma",
       {"Speed_chroma_feature_speed_chroma_u_score", "Speed_chroma_feature_speed_chroma_v_score",
        "Speed_chroma_feature_speed_chroma_uv_score"}},
      {"speed_temporal", {"Speed_temporal_feature_speed_temporal_score"}},
      {"float_ms_ssim", {"float_ms_ssim"}},
      {"float_ssim", {"float_ssim"}},
      {"ciede", {"ciede2000"}},
      {"psnr", {"psnr_y", "psnr_cb", "psnr_cr"}},
      {"psnr_hvs", {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"}},
      {"adm",
       {"VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score", "VMAF_integer_feature_adm3_score",
        "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3", "integer_adm",
        "integer_adm_num", "integer_adm_den", "integer_adm_num_scale0", "integer_adm_den_scale0",
        "integer_adm_num_scale1", "integer_adm_den_scale1", "integer_adm_num_scale2", "integer_adm_den_scale2",
        "integer_adm_num_scale3", "integer_adm_den_scale3"}},
      {"motion",
       {"VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_score",
        "VMAF_integer_feature_motion2_score", "VMAF_integer_feature_motion3_score"}},
      {"vif",
       {"VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
        "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score", "integer_vif",
        "integer_vif_num", "integer_vif_den", "integer_vif_num_scale0", "integer_vif_den_scale0",
        "integer_vif_num_scale1", "integer_vif_den_scale1", "integer_vif_num_scale2", "integer_vif_den_scale2",
        "integer_vif_num_scale3", "integer_vif_den_scale3"}},
      {"cambi", {"Cambi_feature_cambi_score"}},
  };
  for (const Provided& p : libvmaf)
    for (const char* f : p.features) {
      const ExtractorDescriptor* d = find_extractor_by_feature(f);
      ASSERT_NE(d, nullptr) << f;
      EXPECT_EQ(d->name, p.extractor) << f;
    }
  std::map<std::string_view, std::string_view> owner;
  for (const ExtractorDescriptor* d : all_extractors())
    for (std::string_view f : d->provided) {
      auto [it, fresh] = owner.emplace(f, d->name);
      EXPECT_TRUE(fresh) << f << " is provided by " << it->second << " and " << d->name;
    }
}

}  // namespace

TEST(FeatureTable, DescribesEveryExtractor) {
  const std::string d = vmafx::describe_features();
  for (const vmafx::ExtractorDescriptor* e : vmafx::all_extractors())
    EXPECT_NE(d.find(std::string(e->name) + "  ["), std::string::npos) << e->name;
  EXPECT_NE(d.find("\nvif  [cpu, cuda, opencl]\n"), std::string::npos);
  EXPECT_NE(d.find("motion  [cpu, cuda, opencl]  temporal"), std::string::npos);
  EXPECT_NE(d.find("\nciede  [cpu, cuda, opencl]\n"), std::string::npos);  // every extractor has both twins
  EXPECT_NE(d.find("  vif_enhn_gain_limit (egl) double, default 100, 1..100"), std::string::npos);
  EXPECT_NE(d.find("  outputs: integer_vif_scale0 integer_vif_scale1"), std::string::npos);
}
