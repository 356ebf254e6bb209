// SPDX-License-Identifier: BSD-3-Clause
// Pooled percentiles (nearest rank) and their place in the XML, JSON and CSV
// reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "output/report.hpp"
#include "vmaf_exact/error.hpp"

namespace vmafx {
namespace {

FeatureCollector::Series series(std::vector<double> v) {
  return FeatureCollector::Series{"x", v, std::vector<char>(v.size(), 1)};
}

std::string error_of(const std::string& list) {
  try {
    parse_percentiles(list);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Percentiles, ParseAndNames) {
  const auto p = parse_percentiles("1,5,10,50,0,100,99.9,0.125,7.50");
  const std::vector<std::uint32_t> milli = {1000, 5000, 10000, 50000, 0, 100000, 99900, 125, 7500};
  ASSERT_EQ(p.size(), milli.size());
  for (std::size_t i = 0; i < p.size(); ++i) EXPECT_EQ(p[i].milli, milli[i]);
  EXPECT_EQ(p[0].name(), "p1");
  EXPECT_EQ(p[4].name(), "p0");
  EXPECT_EQ(p[5].name(), "p100");
  EXPECT_EQ(p[6].name(), "p99.9");
  EXPECT_EQ(p[7].name(), "p0.125");
  EXPECT_EQ(p[8].name(), "p7.5");
}

TEST(Percentiles, ParseErrors) {
  const std::string want = "': expected a number from 0 to 100 with at most 3 decimals";
  for (const std::string bad : {"abc", "101", "100.001", "1.2345", "-1", "+1", "1.", ".5", " 1", "1e1", "10000"})
    EXPECT_EQ(error_of(bad), "percentile '" + bad + want) << bad;
  EXPECT_EQ(error_of(""), "percentile '" + want);
  EXPECT_EQ(error_of("1,,5"), "percentile '" + want);
  EXPECT_EQ(error_of("5,"), "percentile '" + want);
  EXPECT_EQ(error_of("5,1,5.0"), "percentile 5.0 is given twice");
}

// The definition, computed another way: the smallest sorted value whose
// rank r (from 1) has r / n >= P / 100, i.e. 100000 r >= milli n.
double by_definition(std::vector<double> v, Percentile p) {
  std::sort(v.begin(), v.end());
  for (std::size_t r = 1; r <= v.size(); ++r)
    if (std::uint64_t(r) * 100000 >= std::uint64_t(p.milli) * v.size()) return v[r - 1];
  return v.back();
}

TEST(Percentiles, NearestRankAgainstTheDefinition) {
  std::mt19937 rng(7);
  const auto ps = parse_percentiles("0,0.001,1,5,7,10,33.333,50,90,99,99.9,100");
  for (std::size_t n : {1, 2, 3, 7, 10, 99, 100, 101, 1000, 1001}) {
    std::vector<double> v(n);
    // few distinct values: many ties
    for (double& x : v) x = double(rng() % 17) * 0.25;
    const auto s = series(v);
    for (Percentile p : ps) {
      const auto got = percentile(s, p, unsigned(n), 1);
      ASSERT_TRUE(got.has_value());
      EXPECT_EQ(*got, by_definition(v, p)) << "n " << n << " " << p.name();
    }
  }
}

TEST(Percentiles, Edges) {
  // One frame: every percentile is its value.
  for (Percentile p : parse_percentiles("0,1,50,100")) EXPECT_EQ(*percentile(series({42.5}), p, 1, 1), 42.5);
  // Ties.
  const auto t = series({5, 5, 1, 5});
  EXPECT_EQ(*percentile(t, {25000}, 4, 1), 1.0);  // rank 1
  EXPECT_EQ(*percentile(t, {25001}, 4, 1), 5.0);  // rank 2
  EXPECT_EQ(*percentile(t, {100000}, 4, 1), 5.0);
  // P = 7 of 100 frames is rank 7 (0.07 * 100 in double is above 7).
  std::vector<double> v(100);
  for (int i = 0; i < 100; ++i) v[i] = i + 1;
  EXPECT_EQ(*percentile(series(v), {7000}, 100, 1), 7.0);
  EXPECT_EQ(*percentile(series(v), {1000}, 100, 1), 1.0);
  EXPECT_EQ(*percentile(series(v), {1001}, 100, 1), 2.0);
  // 0 and 100 are the minimum and the maximum.
  EXPECT_EQ(*percentile(series(v), {0}, 100, 1), *pool(series(v), PoolMethod::kMin, 100, 1));
  EXPECT_EQ(*percentile(series(v), {100000}, 100, 1), *pool(series(v), PoolMethod::kMax, 100, 1));
  // NaN sorts above +inf; the others keep their ranks.
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto s = series({nan, 2, inf, 1});
  EXPECT_EQ(*percentile(s, {25000}, 4, 1), 1.0);
  EXPECT_EQ(*percentile(s, {50000}, 4, 1), 2.0);
  EXPECT_EQ(*percentile(s, {75000}, 4, 1), inf);
  EXPECT_TRUE(std::isnan(*percentile(s, {100000}, 4, 1)));
}

TEST(Percentiles, FramesLikePool) {
  auto s = series({1.0, 100.0, 5.0, 200.0, 3.0});
  EXPECT_EQ(*percentile(s, {100000}, 5, 2), 5.0);    // frames 0, 2, 4
  EXPECT_EQ(*percentile(s, {100000}, 3, 1), 100.0);  // frames 0 .. 2
  EXPECT_FALSE(percentile(s, {50000}, 0, 1).has_value());
  s.written[2] = 0;
  EXPECT_FALSE(percentile(s, {50000}, 5, 1).has_value());
  EXPECT_TRUE(percentile(s, {50000}, 5, 2).has_value() == pool(s, PoolMethod::kMean, 5, 2).has_value());
}

FeatureCollector two_series() {
  FeatureCollector fc;
  const double a[] = {90, 80, 85, 70, 95};
  const double b[] = {0.5, 0.25, 0.75, 1, 0.125};
  for (unsigned i = 0; i < 5; ++i) {
    fc.append("integer_adm2", i, b[i]);
    fc.append("vmaf", i, a[i]);
  }
  return fc;
}

TEST(Percentiles, InTheReports) {
  const FeatureCollector fc = two_series();
  ReportInfo info;
  info.frames = 5;
  info.width = 64;
  info.height = 48;
  const std::string json0 = report_text(OutputFormat::kJson, fc, info);
  const std::string xml0 = report_text(OutputFormat::kXml, fc, info);
  const std::string csv0 = report_text(OutputFormat::kCsv, fc, info);
  EXPECT_EQ(json0.find("\"p1\""), std::string::npos);
  info.percentiles = parse_percentiles("1,50,99.5");
  const std::string json = report_text(OutputFormat::kJson, fc, info);
  const auto j = nlohmann::json::parse(json);
  for (const auto& s : fc.all())
    for (Percentile p : info.percentiles) {
      const std::string want = info.precision.format(*percentile(s, p, 5, 1));
      EXPECT_EQ(info.precision.format(j["pooled_metrics"][s.name][p.name()].get<double>()), want);
    }
  EXPECT_NE(json.find("      \"harmonic_mean\": 83.084812,\n      \"p1\": 70.000000,\n      \"p50\": 85.000000,\n"
                      "      \"p99.5\": 95.000000\n    }"),
            std::string::npos)
      << json;
  // Only pooled_metrics changes.
  EXPECT_EQ(json.substr(0, json.find("\"pooled_metrics\"")), json0.substr(0, json0.find("\"pooled_metrics\"")));
  const std::string xml = report_text(OutputFormat::kXml, fc, info);
  EXPECT_NE(xml.find("<metric name=\"vmaf\" min=\"70.000000\" max=\"95.000000\" mean=\"84.000000\" "
                     "harmonic_mean=\"83.084812\" p1=\"70.000000\" p50=\"85.000000\" p99.5=\"95.000000\" />"),
            std::string::npos)
      << xml;
  const std::string csv = report_text(OutputFormat::kCsv, fc, info);
  EXPECT_EQ(csv, csv0 + "p1,0.125000,70.000000,\np50,0.500000,85.000000,\np99.5,1.000000,95.000000,\n");
  // SUB has no pooled values.
  EXPECT_EQ(report_text(OutputFormat::kSub, fc, info), report_text(OutputFormat::kSub, fc, ReportInfo{5, 1, 64, 48}));
}

}  // namespace
}  // namespace vmafx
