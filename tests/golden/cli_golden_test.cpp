// SPDX-License-Identifier: BSD-3-Clause
// End to end: every oracle run of the golden set through our `vmaf` CLI with
// the oracle's own command line (plus --precision max), every per-frame,
// pooled and aggregate value compared with == and the metric order compared.
// The golden set was made on AMD processors: it runs with --libvmaf-cpu amd.
// So does each run of tests/data/libvmaf_cpu/<variant>/runs.json (float_adm
// and the vmaf_float_* models from libvmaf built and run as that variant,
// see its make/) with --libvmaf-cpu <variant>.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/feature.hpp"
#include "support/golden.hpp"

namespace vmafx::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct OracleRun {
  std::string pair, run, expected_file;
  std::vector<std::string> argv;
  std::string libvmaf_cpu;  // --libvmaf-cpu
  std::string prefix;       // of the test name ("" for the golden set)
};

std::vector<OracleRun> all_runs() {
  std::vector<OracleRun> out;
  std::ifstream in(data_dir() + "/golden/manifest.json");
  json m = json::parse(in);
  for (const json& p : m.at("pairs")) {
    for (const json& o : p.at("oracle")) {
      OracleRun r;
      r.pair = p.at("name");
      r.run = o.at("run");
      r.expected_file = golden_oracle_path(r.pair, r.run);
      for (const json& a : o.at("argv")) r.argv.push_back(a);
      r.libvmaf_cpu = "amd";
      out.push_back(std::move(r));
    }
  }
  for (const char* cpu : {"amd", "generic", "intel"}) {
    const std::string dir = data_dir() + "/libvmaf_cpu/" + cpu;
    if (!fs::exists(dir + "/runs.json")) continue;  // not recorded (yet)
    std::ifstream rin(dir + "/runs.json");
    const json runs = json::parse(rin);
    for (const json& o : runs.at("runs")) {
      OracleRun r;
      r.pair = o.at("pair");
      r.run = o.at("run");
      r.expected_file = dir + "/" + o.at("file").get<std::string>();
      for (const json& a : o.at("argv")) r.argv.push_back(a);
      r.libvmaf_cpu = cpu;
      r.prefix = std::string("cpu_") + cpu + "__";
      out.push_back(std::move(r));
    }
  }
  return out;
}

void PrintTo(const OracleRun& r, std::ostream* os) { *os << r.prefix << r.pair << "." << r.run; }

std::string quote(const std::string& s) { return "'" + s + "'"; }

class CliGolden : public ::testing::TestWithParam<OracleRun> {};

TEST_P(CliGolden, EveryValueEqual) {
  const OracleRun& r = GetParam();
  std::vector<std::string> argv = r.argv;
  std::vector<std::string> cmd{VMAFX_CLI_PATH};
  // Unique per process: ctest runs the CPU and the OpenCL replays side by side.
  const fs::path out = fs::temp_directory_path() /
                       ("vmafx_golden_" + std::to_string(::getpid()) + "_" + r.prefix + r.pair + "." + r.run + ".json");
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "-o") {
      cmd.push_back("-o");
      cmd.push_back(out.string());
      ++i;
      continue;
    }
    if (argv[i] == "--feature") {
      // Every extractor of the golden set is implemented: one the registry
      // does not know is a regression, never a smaller comparison.
      const std::string name = argv[i + 1].substr(0, argv[i + 1].find('='));
      ASSERT_NE(find_extractor(name), nullptr) << "no extractor '" << name << "' for " << r.pair << "." << r.run;
    }
    cmd.push_back(argv[i]);
  }
  cmd.push_back("--precision");
  cmd.push_back("max");
  cmd.push_back("--libvmaf-cpu");
  cmd.push_back(r.libvmaf_cpu);
  // VMAFX_GOLDEN_EXTRA_ARGS="--backend cuda" replays the set on a device backend.
  if (const char* extra = std::getenv("VMAFX_GOLDEN_EXTRA_ARGS")) {
    std::istringstream words(extra);
    for (std::string w; words >> w;) cmd.push_back(w);
  }
  std::string line = "cd " + quote(data_dir() + "/golden") + " &&";
  for (const std::string& a : cmd) line += " " + quote(a);
  line += " 2>" + quote(out.string() + ".err");
  fs::remove(out);
  const int rc = std::system(line.c_str());
  std::ifstream err(out.string() + ".err");
  std::stringstream errs;
  errs << err.rdbuf();
  ASSERT_EQ(rc, 0) << line << "\n" << errs.str();

  const GoldenRun want = load_golden(r.expected_file);
  const GoldenRun got = load_golden(out.string());
  const std::vector<std::string>& names = want.names;
  ASSERT_FALSE(names.empty()) << "nothing to compare";

  // Order of metrics, per frame count, per-frame values.
  EXPECT_EQ(got.names, names) << "metric order differs";
  ASSERT_EQ(got.frame_nums, want.frame_nums);
  std::size_t compared = 0;
  auto same = [](const std::optional<double>& a, const std::optional<double>& b) {
    return a.has_value() == b.has_value() && (!a || *a == *b);
  };
  auto show = [](const std::optional<double>& v) {
    char b[64];
    if (!v) return std::string("null");
    std::snprintf(b, sizeof b, "%.17g", *v);
    return std::string(b);
  };
  for (const std::string& n : names) {
    auto g = got.frames.find(n);
    ASSERT_NE(g, got.frames.end()) << "missing " << n;
    const auto& w = want.frames.at(n);
    for (std::size_t i = 0; i < w.size(); ++i) {
      EXPECT_TRUE(same(g->second[i], w[i]))
          << n << " frame " << want.frame_nums[i] << ": want " << show(w[i]) << " got " << show(g->second[i]);
      ++compared;
    }
    const auto& wp = want.pooled.at(n);
    auto gp = got.pooled.find(n);
    ASSERT_NE(gp, got.pooled.end()) << "no pooled " << n;
    EXPECT_EQ(gp->second.size(), wp.size()) << "pooled methods of " << n;
    for (const auto& [method, v] : wp) {
      auto it = gp->second.find(method);
      ASSERT_NE(it, gp->second.end()) << n << " pooled " << method << " missing";
      EXPECT_TRUE(same(it->second, v)) << n << " pooled " << method << ": want " << show(v) << " got "
                                       << show(it->second);
      ++compared;
    }
  }
  for (const auto& [name, v] : want.aggregate) {
    auto it = got.aggregate.find(name);
    ASSERT_NE(it, got.aggregate.end()) << "aggregate " << name << " missing";
    EXPECT_EQ(it->second, v) << "aggregate " << name;
    ++compared;
  }
  fs::remove(out);
  fs::remove(out.string() + ".err");
  RecordProperty("values_compared", int(compared));
}

INSTANTIATE_TEST_SUITE_P(All, CliGolden, ::testing::ValuesIn(all_runs()),
                         [](const ::testing::TestParamInfo<OracleRun>& i) {
                           std::string n = i.param.prefix + i.param.pair + "__" + i.param.run;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace vmafx::test
