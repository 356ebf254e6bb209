// SPDX-License-Identifier: BSD-3-Clause
// Report formatting of values no ordinary clip gives (found by fuzz_report):
// the libvmaf rule (%.6f, or %.16f after more than 6 leading fractional
// zeros) for NaN, the infinities and values beyond 2^63, whose integer part
// the rule once took with an undefined cast; and JSON that stays valid when
// the first frames have no values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "vmaf_exact/collector.hpp"
#include "output/report.hpp"

namespace vmafx {
namespace {

TEST(ReportEdges, LibvmafRuleOnExtremeValues) {
  const Precision p;
  EXPECT_EQ(p.format(std::nan("")), "nan");
  EXPECT_EQ(p.format(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(p.format(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(p.format(1e19), "10000000000000000000.000000");
  EXPECT_EQ(p.format(-9.5e18), "-9500000000000000000.000000");
  EXPECT_EQ(p.format(2.5e-8), "0.0000000250000000");
  EXPECT_EQ(p.format(12.0000000125), "12.0000000124999993");  // the nearest double, to 16 decimals
}

TEST(ReportEdges, JsonWithoutValuesAtFrameZero) {
  FeatureCollector fc;
  fc.append("psnr_y", 1, 30.5);
  fc.append("psnr_y", 2, 31.25);
  ReportInfo info;
  info.frames = 3;
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  write_report(f, OutputFormat::kJson, fc, info);
  std::fclose(f);
  const std::string text(buf, len);
  std::free(buf);
  EXPECT_NE(text.find("\"frames\": [\n    {\n      \"frameNum\": 1,"), std::string::npos) << text;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << text;
  ASSERT_EQ(j.at("frames").size(), 2u);
  EXPECT_EQ(j.at("frames")[1].at("metrics").at("psnr_y"), 31.25);
}

}  // namespace
}  // namespace vmafx
