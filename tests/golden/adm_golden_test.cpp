// SPDX-License-Identifier: BSD-3-Clause
// Integer ADM vs libvmaf 3.2.0 (plain C path): integer_adm2, integer_aim,
// integer_adm3 and integer_adm_scale0..3, and their *_egl_1 variants, on every
// frame of every run that has them. For life176__x264_crf30 the expected file
// is the --cpumask 255 one (golden_oracle_path picks it): libvmaf's AVX2
// adm_cm differs from its C code there.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "support/golden.hpp"

namespace vmafx::test {
namespace {

// Runs with the default-option scores (egl1 has both) and runs with the
// adm_enhn_gain_limit=1 scores (*_egl_1).
const char* const kDefaultRuns[] = {"vmaf_v0.6.1", "vmaf_4k_v0.6.1", "vmaf_b_v0.6.3", "egl1", "subsample2"};
const char* const kEglRuns[] = {"egl1", "vmaf_v0.6.1neg"};

const std::string kDefaultNames = "integer_(adm2|aim|adm3|adm_scale[0-3])";
const std::string kEglNames = "integer_(adm2|aim|adm3|adm_scale[0-3])_egl_1";

const FeatureRequest kDefault{"adm", {}};
const FeatureRequest kEgl1{"adm", {{"adm_enhn_gain_limit", "1.0"}}};

class AdmGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(AdmGolden, DefaultOptionsEveryRunEqual) {
  const GoldenPair& pair = golden_pair(GetParam());
  const FeatureCollector all = run_features(pair, {kDefault}, {});
  int runs = 0;
  std::size_t values = 0;
  for (const char* run : kDefaultRuns) {
    if (!golden_run_exists(pair.name, run)) continue;
    SCOPED_TRACE(run);
    const GoldenRun want = load_golden(golden_oracle_path(pair.name, run));
    const std::vector<std::string> names = golden_names(want, kDefaultNames);
    ASSERT_EQ(names.size(), 7u);
    if (std::string(run) == "subsample2") {
      const FeatureCollector sub = run_features(pair, {kDefault}, EngineOptions{.subsample = 2});
      EXPECT_TRUE(frames_equal(sub, want, names));
    } else {
      EXPECT_TRUE(frames_equal(all, want, names));
    }
    values += names.size() * want.frame_nums.size();
    ++runs;
  }
  EXPECT_GE(runs, 1);
  RecordProperty("values_compared", static_cast<int>(values));
  std::printf("[adm] %s: %zu default-option values in %d runs\n", pair.name.c_str(), values, runs);
}

INSTANTIATE_TEST_SUITE_P(Pairs, AdmGolden, ::testing::ValuesIn(pair_names()), param_name);

// The pairs with a run holding the *_egl_1 scores.
std::vector<std::string> egl_pair_names() {
  std::vector<std::string> out;
  for (const std::string& p : pair_names())
    for (const char* run : kEglRuns)
      if (golden_run_exists(p, run)) {
        out.push_back(p);
        break;
      }
  return out;
}

class AdmGoldenEgl : public ::testing::TestWithParam<std::string> {};

TEST_P(AdmGoldenEgl, GainLimit1EveryRunEqual) {
  const GoldenPair& pair = golden_pair(GetParam());
  const FeatureCollector got = run_features(pair, {kEgl1}, {});
  std::size_t values = 0;
  for (const char* run : kEglRuns) {
    if (!golden_run_exists(pair.name, run)) continue;
    SCOPED_TRACE(run);
    const GoldenRun want = load_golden(golden_oracle_path(pair.name, run));
    const std::vector<std::string> names = golden_names(want, kEglNames);
    ASSERT_EQ(names.size(), 7u);
    EXPECT_TRUE(frames_equal(got, want, names));
    values += names.size() * want.frame_nums.size();
  }
  EXPECT_GT(values, 0u);
  std::printf("[adm] %s: %zu egl_1 values\n", pair.name.c_str(), values);
}

INSTANTIATE_TEST_SUITE_P(Pairs, AdmGoldenEgl, ::testing::ValuesIn(egl_pair_names()), param_name);

// Same output, same order, with worker threads (default and egl=1 instances together).
class AdmThreads : public ::testing::TestWithParam<std::string> {};

TEST_P(AdmThreads, Identical) {
  const GoldenPair& pair = golden_pair(GetParam());
  const FeatureCollector a = run_features(pair, {kDefault, kEgl1}, {});
  const FeatureCollector b = run_features(pair, {kDefault, kEgl1}, EngineOptions{.threads = 2});
  ASSERT_EQ(a.all().size(), 14u);
  ASSERT_EQ(a.all().size(), b.all().size());
  for (std::size_t i = 0; i < a.all().size(); ++i) {
    EXPECT_EQ(a.all()[i].name, b.all()[i].name);
    EXPECT_EQ(a.all()[i].value, b.all()[i].value);
    EXPECT_EQ(a.all()[i].written, b.all()[i].written);
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, AdmThreads,
                         ::testing::Values("astro176__unsharp", "camera351x287p444__bright12",
                                           "rocket240x177p422p10__x264_crf32", "gradnoise240p16__noise_gblur",
                                           "life176__x264_crf30"),
                         param_name);

// Output names and order as libvmaf's collector, and the debug outputs
// (put with the option suffix; num before den per scale), whose values must
// agree with the main ones.
TEST(AdmGoldenDebug, NamesOrderAndValues) {
  const GoldenPair& pair = golden_pair("chelsea352__gblur1.5");
  const FeatureCollector got = run_features(pair, {FeatureRequest{"adm", {{"debug", "true"}}}}, {});
  const std::vector<std::string> expected = {"integer_adm2",           "integer_aim",
                                             "integer_adm3",           "integer_adm_scale0",
                                             "integer_adm_scale1",     "integer_adm_scale2",
                                             "integer_adm_scale3",     "integer_adm",
                                             "integer_adm_num",        "integer_adm_den",
                                             "integer_adm_num_scale0", "integer_adm_den_scale0",
                                             "integer_adm_num_scale1", "integer_adm_den_scale1",
                                             "integer_adm_num_scale2", "integer_adm_den_scale2",
                                             "integer_adm_num_scale3", "integer_adm_den_scale3"};
  ASSERT_EQ(got.all().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(got.all()[i].name, expected[i]);

  const GoldenRun want = load_golden(golden_oracle_path(pair.name, "vmaf_v0.6.1"));
  EXPECT_TRUE(frames_equal(got, want, golden_names(want, kDefaultNames)));
  for (int f = 0; f < pair.frames; ++f) {
    auto v = [&](const std::string& n) { return got.find(n)->value[f]; };
    EXPECT_EQ(v("integer_adm"), v("integer_adm2"));
    EXPECT_EQ(v("integer_adm2"), v("integer_adm_num") / v("integer_adm_den"));
    double num = 0, den = 0;
    for (int s = 0; s < 4; ++s) {
      const std::string k = std::to_string(s);
      EXPECT_EQ(v("integer_adm_scale" + k), v("integer_adm_num_scale" + k) / v("integer_adm_den_scale" + k));
      num += v("integer_adm_num_scale" + k);
      den += v("integer_adm_den_scale" + k);
    }
    EXPECT_EQ(num, v("integer_adm_num"));
    EXPECT_EQ(den, v("integer_adm_den"));
  }
}

// With egl=1 the suffix goes on every output name, debug ones included.
TEST(AdmGoldenDebug, SuffixOnDebugNames) {
  const GoldenPair& pair = golden_pair("astro176__unsharp");
  const FeatureCollector got =
      run_features(pair, {FeatureRequest{"adm", {{"debug", "true"}, {"adm_enhn_gain_limit", "1"}}}}, {});
  ASSERT_EQ(got.all().size(), 18u);
  for (const auto& s : got.all()) EXPECT_TRUE(s.name.ends_with("_egl_1")) << s.name;
  const GoldenRun want = load_golden(golden_oracle_path(pair.name, "egl1"));
  EXPECT_TRUE(frames_equal(got, want, golden_names(want, kEglNames)));
}

}  // namespace
}  // namespace vmafx::test
