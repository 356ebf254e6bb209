// SPDX-License-Identifier: BSD-3-Clause
// CLI options that select frames or shape the report, checked against full runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/golden.hpp"

namespace vmafx::test {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs the CLI on a golden pair; returns the report's path.
fs::path run(const std::string& pair, const std::string& args, const std::string& tag, const char* fmt = "json") {
  const GoldenPair& p = golden_pair(pair);
  const fs::path out = fs::temp_directory_path() / ("vmafx_opts_" + std::to_string(::getpid()) + "_" + tag + "." + fmt);
  fs::remove(out);
  const std::string cmd = std::string("'") + VMAFX_CLI_PATH + "' -q -r '" + p.ref + "' -d '" + p.dis + "' --" + fmt +
                          " -o '" + out.string() + "' --precision max " + args;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return out;
}

TEST(CliOptions, FrameCountScoresAPrefix) {
  const GoldenRun full = load_golden(run("astro176__x264_crf45", "", "full").string());
  const GoldenRun two = load_golden(run("astro176__x264_crf45", "--frame_cnt 2", "cnt2").string());
  ASSERT_EQ(two.frame_nums, (std::vector<unsigned>{0, 1}));
  // Spatial features of the prefix equal the full run's; motion2 of the last
  // frame differs by design (it has no successor), so it is left out.
  for (const char* n : {"integer_adm2", "integer_vif_scale0", "integer_vif_scale3", "integer_adm_scale2"})
    for (int i = 0; i < 2; ++i) EXPECT_EQ(two.frames.at(n)[i], full.frames.at(n)[i]) << n << " frame " << i;
  EXPECT_EQ(two.frames.at("integer_motion2")[0], full.frames.at("integer_motion2")[0]);
}

TEST(CliOptions, FrameSkipShiftsBothClips) {
  const GoldenRun full = load_golden(run("coffee320__x264_crf30", "-n --feature psnr", "noskip").string());
  const GoldenRun skip = load_golden(
      run("coffee320__x264_crf30", "-n --feature psnr --frame_skip_ref 1 --frame_skip_dist 1", "skip").string());
  ASSERT_EQ(skip.frame_nums.size(), full.frame_nums.size() - 1);
  for (std::size_t i = 0; i + 1 < full.frame_nums.size(); ++i)
    EXPECT_EQ(skip.frames.at("psnr_y")[i], full.frames.at("psnr_y")[i + 1]) << i;
  // Skipping one side only pairs frame i+1 of the reference with frame i.
  const GoldenRun ref_only = load_golden(
      run("coffee320__x264_crf30", "-n --feature psnr --frame_skip_ref 1 --frame_cnt 2", "skipref").string());
  ASSERT_EQ(ref_only.frame_nums.size(), full.frame_nums.size() - 1);
  EXPECT_NE(ref_only.frames.at("psnr_y")[0], full.frames.at("psnr_y")[0]);
}

TEST(CliOptions, AllFormatsCarryTheSameNumbers) {
  const GoldenRun json = load_golden(run("chelsea352__gblur1.5", "", "fmt").string());
  const std::string csv = slurp(run("chelsea352__gblur1.5", "", "fmt", "csv"));
  const std::string xml = slurp(run("chelsea352__gblur1.5", "", "fmt", "xml"));
  const std::string sub = slurp(run("chelsea352__gblur1.5", "", "fmt", "sub"));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", *json.frames.at("vmaf")[1]);
  EXPECT_NE(csv.find(std::string(",") + buf + ","), std::string::npos) << csv;
  EXPECT_NE(xml.find(std::string("vmaf=\"") + buf + "\""), std::string::npos);
  EXPECT_NE(sub.find(std::string("{1}{2}frame: 1|")), std::string::npos);
  EXPECT_NE(sub.find(std::string("vmaf: ") + buf + "|"), std::string::npos);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "Frame,integer_adm2,integer_aim,integer_adm3,integer_adm_scale0,integer_adm_scale1,integer_adm_scale2,"
            "integer_adm_scale3,VMAF_integer_feature_motion_sad_score,integer_vif_scale0,integer_vif_scale1,"
            "integer_vif_scale2,integer_vif_scale3,integer_motion2,integer_motion3,vmaf,");
}

TEST(CliOptions, StdoutAndPrecisionDigits) {
  const GoldenPair& p = golden_pair("chelsea352__gblur1.5");
  const fs::path out = fs::temp_directory_path() / "vmafx_opts_stdout.txt";
  const std::string cmd = std::string("'") + VMAFX_CLI_PATH + "' -q -r '" + p.ref + "' -d '" + p.dis +
                          "' --csv -o - --precision 4 > '" + out.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string csv = slurp(out);
  const GoldenRun json = load_golden(run("chelsea352__gblur1.5", "", "prec").string());
  char buf[64];
  std::snprintf(buf, sizeof buf, ",%.4g,", *json.frames.at("vmaf")[0]);
  EXPECT_NE(csv.find(buf), std::string::npos) << csv;
}

}  // namespace
}  // namespace vmafx::test
