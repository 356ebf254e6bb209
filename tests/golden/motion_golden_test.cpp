// SPDX-License-Identifier: BSD-3-Clause
// Integer motion vs libvmaf 3.2.0: VMAF_integer_feature_motion_sad_score,
// integer_motion2 and integer_motion3 on every frame of every run that has them.
#include <gtest/gtest.h>

#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/golden.hpp"

namespace vmafx::test {
namespace {

// Every run whose output holds the integer motion scores (default options).
const char* const kRuns[] = {"vmaf_v0.6.1", "vmaf_4k_v0.6.1", "vmaf_v0.6.1neg", "vmaf_b_v0.6.3", "egl1", "subsample2"};

const std::string kNames = "VMAF_integer_feature_motion_sad_score|integer_motion2|integer_motion3";

class MotionGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(MotionGolden, EveryRunEqual) {
  const GoldenPair pair = pair_named(GetParam());
  int runs = 0;
  for (const char* run : kRuns) {
    if (!golden_run_exists(pair.name, run)) continue;
    SCOPED_TRACE(run);
    const GoldenRun want = load_golden(golden_oracle_path(pair.name, run));
    const std::vector<std::string> names = golden_names(want, kNames);
    ASSERT_EQ(names.size(), 3u);
    EngineOptions opts;
    if (std::string(run) == "subsample2") opts.subsample = 2;
    const FeatureCollector got = run_features(pair, {FeatureRequest{"motion", {}}}, opts);
    EXPECT_TRUE(frames_equal(got, want, names));
    // Every frame of the clip gets all three, subsampled or not.
    for (const std::string& n : names) {
      const FeatureCollector::Series* s = got.find(n);
      ASSERT_NE(s, nullptr);
      for (int i = 0; i < pair.frames; ++i) EXPECT_TRUE(s->has(unsigned(i))) << n << " " << i;
    }
    ++runs;
  }
  EXPECT_GE(runs, 1);
}

// Same output, same order, with worker threads.
TEST_P(MotionGolden, ThreadsIdentical) {
  const GoldenPair pair = pair_named(GetParam());
  const FeatureCollector a = run_features(pair, {FeatureRequest{"motion", {}}}, {});
  const FeatureCollector b = run_features(pair, {FeatureRequest{"motion", {}}}, EngineOptions{.threads = 2});
  ASSERT_EQ(a.all().size(), b.all().size());
  for (std::size_t i = 0; i < a.all().size(); ++i) {
    EXPECT_EQ(a.all()[i].name, b.all()[i].name);
    EXPECT_EQ(a.all()[i].value, b.all()[i].value);
    EXPECT_EQ(a.all()[i].written, b.all()[i].written);
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, MotionGolden, ::testing::ValuesIn(pair_names()), param_name);

// Output order as libvmaf's collector: the SAD score first (written per frame),
// then motion2 and motion3 (written on flush).
TEST(MotionGoldenOrder, NamesInLibvmafOrder) {
  const GoldenPair pair = pair_named("astro176__noise");
  const FeatureCollector got = run_features(pair, {FeatureRequest{"motion", {}}}, {});
  ASSERT_EQ(got.all().size(), 3u);
  EXPECT_EQ(got.all()[0].name, "VMAF_integer_feature_motion_sad_score");
  EXPECT_EQ(got.all()[1].name, "integer_motion2");
  EXPECT_EQ(got.all()[2].name, "integer_motion3");
}

}  // namespace
}  // namespace vmafx::test
