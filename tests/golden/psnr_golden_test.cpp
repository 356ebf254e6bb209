// SPDX-License-Identifier: BSD-3-Clause
// Integer PSNR vs libvmaf 3.2.0: psnr_y/cb/cr (features and extras runs),
// mse_y/cb/cr and the aggregate apsnr_y/cb/cr (extras run).
#include <gtest/gtest.h>

#include <cstdio>
#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/golden.hpp"

namespace vmafx::test {
namespace {

std::string g17(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

class PsnrGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(PsnrGolden, FeaturesRun) {
  const GoldenPair pair = pair_named(GetParam());
  const GoldenRun want = load_golden(golden_oracle_path(pair.name, "features"));
  const std::vector<std::string> names = golden_names(want, "psnr_(y|cb|cr)");
  ASSERT_EQ(names.size(), 3u);
  const FeatureCollector got = run_features(pair, {FeatureRequest{"psnr", {}}}, {});
  EXPECT_TRUE(frames_equal(got, want, names));
  EXPECT_TRUE(got.aggregate().empty());
}

TEST_P(PsnrGolden, ExtrasRunWithMseAndApsnr) {
  const GoldenPair pair = pair_named(GetParam());
  const GoldenRun want = load_golden(golden_oracle_path(pair.name, "extras"));
  const std::vector<std::string> names = golden_names(want, "(psnr|mse)_(y|cb|cr)");
  ASSERT_EQ(names.size(), 6u);
  for (unsigned threads : {0u, 2u}) {
    SCOPED_TRACE(threads);
    const FeatureCollector got =
        run_features(pair, {FeatureRequest{"psnr", {{"enable_mse", "true"}, {"enable_apsnr", "true"}}}},
                     EngineOptions{.threads = threads});
    EXPECT_TRUE(frames_equal(got, want, names));
    // Same order as libvmaf's collector (and its JSON): psnr_y, mse_y, psnr_cb, ...
    // (GoldenRun::names is sorted, so the order is spelled out here.)
    const char* const order[] = {"psnr_y", "mse_y", "psnr_cb", "mse_cb", "psnr_cr", "mse_cr"};
    ASSERT_EQ(got.all().size(), 6u);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(got.all()[i].name, order[i]);
    ASSERT_EQ(want.aggregate.size(), 3u);
    ASSERT_EQ(got.aggregate().size(), 3u);
    const char* const agg[] = {"apsnr_y", "apsnr_cb", "apsnr_cr"};
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(got.aggregate()[i].first, agg[i]);
      const double w = want.aggregate.at(agg[i]);
      EXPECT_TRUE(got.aggregate()[i].second == w)
          << agg[i] << ": want " << g17(w) << ", got " << g17(got.aggregate()[i].second);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, PsnrGolden, ::testing::ValuesIn(pair_names()), param_name);

}  // namespace
}  // namespace vmafx::test
