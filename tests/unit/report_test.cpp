// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "vmaf_exact/collector.hpp"
#include "output/report.hpp"

namespace vmafx {
namespace {

TEST(Precision, LibvmafRuleAndDigits) {
  Precision def;
  EXPECT_EQ(def.format(92.119328283033909), "92.119328");
  EXPECT_EQ(def.format(0.0000001234), "0.0000001234000000");  // more than 6 leading zeros
  EXPECT_EQ(def.format(0.000001234), "0.000001");             // exactly 6 leading zeros
  EXPECT_EQ(def.format(0), "0.000000");
  Precision max{17};
  EXPECT_EQ(max.format(0.1), "0.10000000000000001");
  EXPECT_EQ(max.format(100), "100");
  Precision four{4};
  EXPECT_EQ(four.format(92.119328283033909), "92.12");
}

FeatureCollector::Series series(std::vector<double> v) {
  FeatureCollector::Series s{"x", v, std::vector<char>(v.size(), 1)};
  return s;
}

TEST(Pool, MeanMinMaxHarmonic) {
  auto s = series({1.0, 3.0, 2.0});
  EXPECT_EQ(*pool(s, PoolMethod::kMean, 3, 1), 2.0);
  EXPECT_EQ(*pool(s, PoolMethod::kMin, 3, 1), 1.0);
  EXPECT_EQ(*pool(s, PoolMethod::kMax, 3, 1), 3.0);
  // libvmaf: n / sum(1 / (x + 1)) - 1, summed in frame order.
  const double inv = 1.0 / 2.0 + 1.0 / 4.0 + 1.0 / 3.0;
  EXPECT_EQ(*pool(s, PoolMethod::kHarmonicMean, 3, 1), 3.0 / inv - 1.0);
}

TEST(Pool, SubsampleAndMissing) {
  auto s = series({1.0, 100.0, 5.0});
  EXPECT_EQ(*pool(s, PoolMethod::kMean, 3, 2), 3.0);
  s.written[2] = 0;
  EXPECT_FALSE(pool(s, PoolMethod::kMean, 3, 1).has_value());
  EXPECT_FALSE(pool(s, PoolMethod::kMean, 0, 1).has_value());
}

std::string render(OutputFormat fmt, const FeatureCollector& fc, const ReportInfo& info) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  write_report(f, fmt, fc, info);
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

TEST(Report, JsonLayoutMatchesLibvmaf) {
  FeatureCollector fc;
  fc.append("a", 0, 0.5);
  fc.append("b", 0, std::numeric_limits<double>::infinity());
  fc.append("a", 1, 1.5);
  ReportInfo info{.frames = 2, .subsample = 1, .width = 4, .height = 2, .fps = 12.345};
  const std::string want =
      "{\n"
      "  \"version\": \"3.2.0\",\n"
      "  \"fps\": 12.35,\n"
      "  \"frames\": [\n"
      "    {\n"
      "      \"frameNum\": 0,\n"
      "      \"metrics\": {\n"
      "        \"a\": 0.500000,\n"
      "        \"b\": null      }\n"
      "    },\n"
      "    {\n"
      "      \"frameNum\": 1,\n"
      "      \"metrics\": {\n"
      "        \"a\": 1.500000\n"
      "      }\n"
      "    }\n"
      "  ],\n"
      "  \"pooled_metrics\": {\n"
      "    \"a\": {\n"
      "      \"min\": 0.500000,\n"
      "      \"max\": 1.500000,\n"
      "      \"mean\": 1.000000,\n"
      "      \"harmonic_mean\": 0.875000\n"
      "    },\n"
      "    \"b\": {\n"
      "    }\n"
      "  },\n"
      "  \"aggregate_metrics\": {\n"
      "  }\n"
      "}\n";
  EXPECT_EQ(render(OutputFormat::kJson, fc, info), want);
}

TEST(Report, XmlCsvSub) {
  FeatureCollector fc;
  fc.append("vmaf", 0, 90.0);
  fc.append("vmaf", 1, 80.0);
  fc.append_aggregate("apsnr_y", 40.0);
  ReportInfo info{.frames = 2, .subsample = 1, .width = 4, .height = 2, .fps = 1.0};
  EXPECT_EQ(render(OutputFormat::kXml, fc, info),
            "<VMAF version=\"3.2.0\">\n"
            "  <params qualityWidth=\"4\" qualityHeight=\"2\" />\n"
            "  <fyi fps=\"1.00\" />\n"
            "  <frames>\n"
            "    <frame frameNum=\"0\" vmaf=\"90.000000\" />\n"
            "    <frame frameNum=\"1\" vmaf=\"80.000000\" />\n"
            "  </frames>\n"
            "  <pooled_metrics>\n"
            "    <metric name=\"vmaf\" min=\"80.000000\" max=\"90.000000\" mean=\"85.000000\" "
            "harmonic_mean=\"84.709302\" />\n"
            "  </pooled_metrics>\n"
            "  <aggregate_metrics apsnr_y=\"40.000000\" />\n"
            "</VMAF>\n");
  EXPECT_EQ(render(OutputFormat::kCsv, fc, info), "Frame,vmaf,\n0,90.000000,\n1,80.000000,\n");
  EXPECT_EQ(render(OutputFormat::kSub, fc, info), "{0}{1}frame: 0|vmaf: 90.000000|\n{1}{2}frame: 1|vmaf: 80.000000|\n");
}

}  // namespace
}  // namespace vmafx
