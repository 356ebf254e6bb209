// SPDX-License-Identifier: BSD-3-Clause
// The report must be byte-identical for every --threads (fps aside).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/golden.hpp"

namespace vmafx::test {
namespace {

namespace fs = std::filesystem;

std::string run_cli(const GoldenPair& p, const std::string& extra, const std::string& tag, const char* fmt) {
  const fs::path out = fs::temp_directory_path() /
                       ("vmafx_threads_" + std::to_string(::getpid()) + "_" + p.name + "_" + tag + "." + fmt);
  std::string cmd = std::string("'") + VMAFX_CLI_PATH + "' -q -r '" + p.ref + "' -d '" + p.dis + "'";
  if (p.raw)
    cmd += " -w " + std::to_string(p.raw->width) + " -h " + std::to_string(p.raw->height) + " -p 420 -b " +
           std::to_string(p.raw->bpc);
  cmd += " --" + std::string(fmt) + " -o '" + out.string() + "' " + extra;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  fs::remove(out);
  // fps is wall-clock speed.
  return std::regex_replace(ss.str(), std::regex("(\"fps\": |fps=\")[0-9.]+"), "$1");
}

class CliThreads : public ::testing::TestWithParam<std::string> {};

TEST_P(CliThreads, ReportIdenticalForEveryThreadCount) {
  const GoldenPair& p = golden_pair(GetParam());
  const std::string features = "--feature psnr --precision max";
  for (const char* fmt : {"json", "xml"}) {
    const std::string base = run_cli(p, features, "t0", fmt);
    ASSERT_NE(base.find("vmaf"), std::string::npos);
    for (int t : {1, 2, 5}) {
      EXPECT_EQ(run_cli(p, features + " --threads " + std::to_string(t), "t" + std::to_string(t), fmt), base)
          << "--threads " << t << " (" << fmt << ")";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, CliThreads,
                         ::testing::Values("astro176__noise", "mandel240p10__x265_crf30",
                                           "gradnoise240p16__noise_gblur", "camera351x287p444__bright12"));

}  // namespace
}  // namespace vmafx::test
