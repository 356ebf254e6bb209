// SPDX-License-Identifier: BSD-3-Clause
// Integer VIF against libvmaf 3.2.0: every integer_vif_scale* value (and the
// *_egl_1 variants) of every golden run that has them, compared with ==.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/golden.hpp"

namespace vmafx::test {
namespace {

// Runs that carry integer VIF scores. The NEG model and the egl1 run hold the
// features computed with vif_enhn_gain_limit=1 (suffix _egl_1); egl1 holds the
// default ones too.
const std::vector<std::string> kRuns = {"vmaf_v0.6.1",   "vmaf_4k_v0.6.1", "vmaf_v0.6.1neg",
                                        "vmaf_b_v0.6.3", "egl1",           "subsample2"};

const GoldenPair& find_pair(const std::string& name) { return golden_pair(name); }

// Compares one run. `threads` only changes how frames are scheduled.
void check_run(const std::string& pair, const std::string& run, unsigned threads, std::size_t* values) {
  const GoldenRun want = load_golden(golden_oracle_path(pair, run));
  const std::vector<std::string> plain = golden_names(want, R"(integer_vif_scale[0-3])");
  const std::vector<std::string> egl = golden_names(want, R"(integer_vif_scale[0-3]_egl_1)");
  ASSERT_FALSE(plain.empty() && egl.empty()) << want.path << " has no integer_vif_scale*";

  EngineOptions opts{.threads = threads, .subsample = run == "subsample2" ? 2u : 1u};
  std::vector<FeatureRequest> req;
  if (!plain.empty()) req.push_back({"vif", {}});
  if (!egl.empty()) req.push_back({"vif", {{"vif_enhn_gain_limit", "1.0"}}});
  const FeatureCollector got = run_features(find_pair(pair), req, opts);
  if (!plain.empty()) {
    EXPECT_EQ(plain.size(), 4u);
    EXPECT_TRUE(frames_equal(got, want, plain));
  }
  if (!egl.empty()) {
    EXPECT_EQ(egl.size(), 4u);
    EXPECT_TRUE(frames_equal(got, want, egl));
  }
  *values += (plain.size() + egl.size()) * want.frame_nums.size();
}

class VifGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(VifGolden, EveryRunEqual) {
  const std::string pair = GetParam();
  std::size_t values = 0;
  for (const std::string& run : kRuns) {
    if (!golden_run_exists(pair, run)) continue;
    SCOPED_TRACE(pair + "." + run);
    check_run(pair, run, 0, &values);
  }
  EXPECT_GT(values, 0u);
  RecordProperty("values_compared", int(values));
}

// The same with two worker threads: frames are extracted concurrently on one
// instance, and the output must not change. A few pairs: 8/10/16 bit, odd
// sizes, the gain-limit run.
class VifGoldenThreads : public ::testing::TestWithParam<std::string> {};

TEST_P(VifGoldenThreads, TwoThreadsEqual) {
  const std::string pair = GetParam();
  std::size_t values = 0;
  for (const std::string& run : kRuns) {
    if (!golden_run_exists(pair, run)) continue;
    SCOPED_TRACE(pair + "." + run + " (threads=2)");
    check_run(pair, run, 2, &values);
  }
  EXPECT_GT(values, 0u);
}

std::string test_name(const ::testing::TestParamInfo<std::string>& i) {
  std::string n = i.param;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Pairs, VifGolden, ::testing::ValuesIn(pair_names()), test_name);
INSTANTIATE_TEST_SUITE_P(Pairs, VifGoldenThreads,
                         ::testing::Values("astro176__unsharp", "mandel240p10__x265_crf30",
                                           "gradnoise240p16__noise_gblur", "camera351x287p444__bright12",
                                           "rocket240x177p422p10__x264_crf32", "astro176__noise"),
                         test_name);

}  // namespace
}  // namespace vmafx::test
