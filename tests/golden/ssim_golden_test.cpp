// SPDX-License-Identifier: BSD-3-Clause
// float_ssim, float_ms_ssim and the integer ssim against libvmaf 3.2.0: every
// per-frame value of every golden run that holds them, compared with ==.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "feature/ms_ssim.hpp"
#include "support/golden.hpp"

namespace vmafx {
namespace {

using test::GoldenPair;
using test::pair_names;
using test::param_name;
using vmafx::FeatureCollector;

bool has_ms_ssim(const GoldenPair& p) { return ssim::ms_ssim_size_ok(p.width, p.height); }

// Runs `requests` on the pair and compares every value of `run` whose name
// matches `regex`. Prints the count so the log shows what was verified.
void check_run(const GoldenPair& pair, const std::string& run, const std::vector<FeatureRequest>& requests,
               const std::string& regex, std::size_t expect_names) {
  ASSERT_TRUE(test::golden_run_exists(pair.name, run)) << pair.name << "." << run;
  const test::GoldenRun golden = test::load_golden(test::golden_oracle_path(pair.name, run));
  const std::vector<std::string> names = test::golden_names(golden, regex);
  ASSERT_EQ(names.size(), expect_names) << golden.path;
  const FeatureCollector got = test::run_features(pair, requests);
  const ::testing::AssertionResult r = test::frames_equal(got, golden, names);
  EXPECT_TRUE(r);
  if (r) std::printf("[ verified ] %s.%s: %s\n", pair.name.c_str(), run.c_str(), r.message());
}

class SsimGolden : public ::testing::TestWithParam<std::string> {
 protected:
  const GoldenPair& pair() const { return test::golden_pair(GetParam()); }
  // float_ssim (+ float_ms_ssim where the frame is large enough) with `opts`.
  std::vector<FeatureRequest> float_requests(const std::map<std::string, std::string>& opts) const {
    std::vector<FeatureRequest> r{{"float_ssim", opts}};
    if (has_ms_ssim(pair())) r.push_back({"float_ms_ssim", opts});
    return r;
  }
};

TEST_P(SsimGolden, Features) {
  check_run(pair(), "features", float_requests({}), "float_(ms_)?ssim", has_ms_ssim(pair()) ? 2 : 1);
}

TEST_P(SsimGolden, Lcs) {
  check_run(pair(), "float_ssim_lcs", float_requests({{"enable_lcs", "true"}}), "float_(ms_)?ssim.*",
            has_ms_ssim(pair()) ? 4 + 16 : 4);
}

TEST_P(SsimGolden, Db) {
  check_run(pair(), "float_ssim_db", float_requests({{"enable_db", "true"}}), "float_(ms_)?ssim",
            has_ms_ssim(pair()) ? 2 : 1);
}

TEST_P(SsimGolden, DbClip) {
  check_run(pair(), "float_ssim_db_clip", float_requests({{"enable_db", "true"}, {"clip_db", "true"}}),
            "float_(ms_)?ssim", has_ms_ssim(pair()) ? 2 : 1);
}

TEST_P(SsimGolden, IntegerSsim) {
  if (!test::golden_run_exists(pair().name, "ssim")) {
    // Only the pairs above 12 bit lack it (libvmaf's int arithmetic overflows
    // there); ours must still give a sane score (see also the unit tests).
    ASSERT_GT(pair().bpc, 12);
    const FeatureCollector got = test::run_features(pair(), {{"ssim", {}}});
    const auto* s = got.find("ssim");
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->value.size(), std::size_t(pair().frames));
    for (double v : s->value) {
      EXPECT_GT(v, 0.5);
      EXPECT_LE(v, 1.0);
    }
    return;
  }
  check_run(pair(), "ssim", {{"ssim", {}}}, "ssim", 1);
}

// float_ssim with the decimation forced (auto is 4 at 1080p).
TEST(SsimGoldenScale, Mosaic1080ForcedScale1) {
  check_run(test::golden_pair("mosaic1080__down960_x264_crf23_up"), "float_ssim_scale1",
            {{"float_ssim", {{"scale", "1"}}}}, "float_ssim", 1);
}
TEST(SsimGoldenScale, Mosaic1080ForcedScale2) {
  check_run(test::golden_pair("mosaic1080__down960_x264_crf23_up"), "float_ssim_scale2",
            {{"float_ssim", {{"scale", "2"}}}}, "float_ssim", 1);
}

// libvmaf drops float_ms_ssim on the small pairs; we refuse it at create time.
TEST_P(SsimGolden, MsSsimRejectedExactlyWhereLibvmafFails) {
  const test::GoldenRun golden = test::load_golden(test::golden_oracle_path(pair().name, "features"));
  const bool golden_has = golden.frames.count("float_ms_ssim") != 0;
  EXPECT_EQ(golden_has, has_ms_ssim(pair()));
  if (golden_has) return;
  try {
    test::run_features(pair(), {{"float_ms_ssim", {}}});
    ADD_FAILURE() << "float_ms_ssim accepted " << pair().width << "x" << pair().height;
  } catch (const Error& e) {
    EXPECT_NE(std::strstr(e.what(), "float_ms_ssim: "), nullptr) << e.what();
    EXPECT_NE(std::strstr(e.what(), "needs at least 176x176"), nullptr) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, SsimGolden, ::testing::ValuesIn(pair_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// Two worker threads give the very same values as the calling thread.
class SsimThreads : public ::testing::TestWithParam<std::string> {};

TEST_P(SsimThreads, SameOutputWithTwoThreads) {
  const GoldenPair& p = test::golden_pair(GetParam());
  std::vector<FeatureRequest> req{{"float_ssim", {{"enable_lcs", "true"}}}, {"ssim", {}}};
  if (has_ms_ssim(p)) req.push_back({"float_ms_ssim", {{"enable_lcs", "true"}}});
  const FeatureCollector a = test::run_features(p, req);
  const FeatureCollector b = test::run_features(p, req, EngineOptions{.threads = 2});
  ASSERT_EQ(a.all().size(), b.all().size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.all().size(); ++i) {
    const auto& sa = a.all()[i];
    const auto& sb = b.all()[i];
    ASSERT_EQ(sa.name, sb.name);
    ASSERT_EQ(sa.value.size(), sb.value.size()) << sa.name;
    for (std::size_t f = 0; f < sa.value.size(); ++f, ++n)
      EXPECT_EQ(std::memcmp(&sa.value[f], &sb.value[f], sizeof(double)), 0) << sa.name << " frame " << f;
  }
  EXPECT_GT(n, 0u);
}

INSTANTIATE_TEST_SUITE_P(Pairs, SsimThreads,
                         ::testing::Values("astro176__noise", "coffee320__x264_crf30",
                                           "rocket240x177p422p10__x264_crf32", "gradnoise240p16__noise_gblur",
                                           "mosaic1080__down960_x264_crf23_up"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace vmafx
