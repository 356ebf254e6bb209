// SPDX-License-Identifier: BSD-3-Clause
// speed_chroma and speed_temporal (libvmaf 3.2.0 speed.c) and the eight
// built-in vmaf_v1.0.16* models that use speed_chroma, against libvmaf.
//
// There is no speed data in tests/data/golden. The expected values are in
// tests/data/speed/<pair>.json, made by tests/data/speed/regenerate.py:
// libvmaf 3.2.0 (commit f85a8536) built with its plain C path (meson
// -Denable_asm=false) and every score format changed to "%.17g"
// (tests/data/golden/make/setup_oracle.sh), run in tests/data/golden on every
// golden pair with
//   vmaf -r <ref> -d <dis> [-w W -h H -p 420 -b 16 for the raw 16-bit pair]
//        -q --threads 1 --json -o <out> -n --feature <speed_chroma|speed_temporal>[=<opts>]
//   vmaf -r <ref> -d <dis> ... -q --threads 1 --json -o <out> --model version=<vmaf_v1.0.16*>
// (the exact argv of each run is stored next to its output, "argv"). The
// feature runs cover every option: speed_kernelscale 0.5/1.5/2, speed_prescale
// 0.5..2 with every speed_prescale_method, speed_sigma_nn, speed_nn_floor,
// speed_max_val, every speed_weight_var_mode and speed_use_ref_diff. Where
// libvmaf failed ("rc" != 0: it crashes on planes under 80x80 after the
// prescale, on speed_temporal with a prescale that enlarges the frame, and
// cambi refuses pictures under 216 on a side) we must refuse as well.
//
// SpeedCli: every run through our CLI with the same argv (+ --precision max);
// every per-frame, pooled and aggregate value compared with == and the metric
// order compared (on a device backend with VMAFX_GOLDEN_EXTRA_ARGS, e.g.
// "--backend opencl"). SpeedEngine: every feature run through the engine
// (test::run_features), single-threaded and with 2 threads, per frame ==.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <regex>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "support/golden.hpp"

namespace vmafx::test {
namespace {

using nlohmann::ordered_json;
namespace fs = std::filesystem;

struct SpeedRun {
  std::string pair, run;
  ordered_json entry;
};

void PrintTo(const SpeedRun& r, std::ostream* os) { *os << r.pair << "." << r.run; }

std::vector<SpeedRun> all_runs(bool features_only) {
  std::vector<SpeedRun> out;
  for (const GoldenPair& p : golden_pairs()) {
    std::ifstream in(data_dir() + "/speed/" + p.name + ".json");
    if (!in) throw std::runtime_error("missing tests/data/speed/" + p.name + ".json");
    const ordered_json j = ordered_json::parse(in);
    for (const ordered_json& e : j.at("runs")) {
      if (features_only && !e.contains("extractor")) continue;
      out.push_back({p.name, e.at("run").get<std::string>(), e});
    }
  }
  return out;
}

std::string show(const ordered_json& v) {
  if (v.is_null()) return "null";
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v.get<double>());
  return b;
}

bool same(const ordered_json& a, const ordered_json& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  return a.get<double>() == b.get<double>();
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string test_name(const ::testing::TestParamInfo<SpeedRun>& i) {
  std::string n = i.param.pair + "__" + i.param.run;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

class SpeedCli : public ::testing::TestWithParam<SpeedRun> {};

TEST_P(SpeedCli, EveryValueEqual) {
  const SpeedRun& r = GetParam();
  const fs::path out =
      fs::temp_directory_path() / ("vmafx_speed_" + std::to_string(::getpid()) + "_" + r.pair + "." + r.run + ".json");
  std::string line = "cd " + quote(data_dir() + "/golden") + " && " + quote(VMAFX_CLI_PATH);
  const auto& argv = r.entry.at("argv");
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string a = argv[i].get<std::string>();
    line += " " + quote(a == "<out>" ? out.string() : a);
  }
  line += " --precision max";
  // VMAFX_GOLDEN_EXTRA_ARGS="--backend opencl" replays the runs on a device
  // backend (the ctest golden_speed_opencl, the twins' gate).
  if (const char* extra = std::getenv("VMAFX_GOLDEN_EXTRA_ARGS")) {
    std::istringstream words(extra);
    for (std::string w; words >> w;) line += " " + quote(w);
  }
  line += " 2>" + quote(out.string() + ".err");
  fs::remove(out);
  const int rc = std::system(line.c_str());
  std::ifstream err(out.string() + ".err");
  std::stringstream errs;
  errs << err.rdbuf();
  fs::remove(out.string() + ".err");

  if (const int oracle_rc = r.entry.at("rc").get<int>(); oracle_rc != 0) {
    // libvmaf failed here: it crashed (killed by a signal: rc < 0) where we
    // refuse with the reason it would crash, or it refused (255: cambi's
    // minimum size, for the v1.0.16 models) where we refuse the same way.
    // One line, the extractor and the reason; no report.
    static const std::regex crash(
        R"(vmaf: error: speed_(chroma|temporal): [^\n]*\(libvmaf crashes( or corrupts memory)?\)\n)");
    static const std::regex refusal(
        R"(vmaf: error: cambi: picture \d+x\d+ is too small \(one side must be at least 216\)\n)");
    EXPECT_EQ(WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, 1) << line;
    EXPECT_TRUE(std::regex_match(errs.str(), oracle_rc < 0 ? crash : refusal))
        << "libvmaf rc " << oracle_rc << ", ours: " << errs.str();
    EXPECT_FALSE(fs::exists(out));
    fs::remove(out);
    return;
  }
  ASSERT_EQ(rc, 0) << line << "\n" << errs.str();
  std::ifstream in(out);
  const ordered_json got = ordered_json::parse(in);
  fs::remove(out);
  const ordered_json& want = r.entry.at("output");

  std::size_t compared = 0;
  const auto& wf = want.at("frames");
  const auto& gf = got.at("frames");
  ASSERT_EQ(gf.size(), wf.size());
  for (std::size_t i = 0; i < wf.size(); ++i) {
    ASSERT_EQ(gf[i].at("frameNum"), wf[i].at("frameNum"));
    const auto& wm = wf[i].at("metrics");
    const auto& gm = gf[i].at("metrics");
    std::vector<std::string> wn, gn;
    for (const auto& [k, v] : wm.items()) wn.push_back(k);
    for (const auto& [k, v] : gm.items()) gn.push_back(k);
    EXPECT_EQ(gn, wn) << "metric order of frame " << i;
    for (const auto& [k, v] : wm.items()) {
      ASSERT_TRUE(gm.contains(k)) << "frame " << i << " misses " << k;
      EXPECT_TRUE(same(gm.at(k), v)) << k << " frame " << i << ": want " << show(v) << " got " << show(gm.at(k));
      ++compared;
    }
  }
  for (const char* section : {"pooled_metrics", "aggregate_metrics"}) {
    if (!want.contains(section)) continue;
    ASSERT_TRUE(got.contains(section)) << section;
    const auto& w = want.at(section);
    const auto& g = got.at(section);
    EXPECT_EQ(g.size(), w.size()) << section;
    for (const auto& [k, v] : w.items()) {
      ASSERT_TRUE(g.contains(k)) << section << " misses " << k;
      if (v.is_object()) {
        EXPECT_EQ(g.at(k).size(), v.size()) << section << " " << k;
        for (const auto& [m, x] : v.items()) {
          ASSERT_TRUE(g.at(k).contains(m)) << section << " " << k << " misses " << m;
          EXPECT_TRUE(same(g.at(k).at(m), x))
              << section << " " << k << " " << m << ": want " << show(x) << " got " << show(g.at(k).at(m));
          ++compared;
        }
      } else {
        EXPECT_TRUE(same(g.at(k), v)) << section << " " << k << ": want " << show(v) << " got " << show(g.at(k));
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 0u);
  RecordProperty("values_compared", int(compared));
}

INSTANTIATE_TEST_SUITE_P(All, SpeedCli, ::testing::ValuesIn(all_runs(false)), test_name);

class SpeedEngine : public ::testing::TestWithParam<SpeedRun> {};

TEST_P(SpeedEngine, PerFrameEqualAtOneAndTwoThreads) {
  const SpeedRun& r = GetParam();
  FeatureRequest req{r.entry.at("extractor").get<std::string>(), {}};
  for (const auto& [k, v] : r.entry.at("options").items()) req.opts[k] = v.get<std::string>();
  const GoldenPair& pair = golden_pair(r.pair);
  for (unsigned threads : {0u, 2u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    if (r.entry.at("rc").get<int>() != 0) {
      try {
        run_features(pair, {req}, EngineOptions{.threads = threads});
        ADD_FAILURE() << "libvmaf failed on this run, we did not";
      } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(req.extractor + ": ", 0), 0u) << e.what();
      }
      continue;
    }
    const FeatureCollector got = run_features(pair, {req}, EngineOptions{.threads = threads});
    const ordered_json& frames = r.entry.at("output").at("frames");
    std::size_t compared = 0;
    for (const auto& f : frames) {
      const unsigned idx = f.at("frameNum").get<unsigned>();
      for (const auto& [name, v] : f.at("metrics").items()) {
        const FeatureCollector::Series* s = got.find(name);
        ASSERT_NE(s, nullptr) << "no " << name;
        ASSERT_TRUE(s->has(idx)) << name << " frame " << idx;
        EXPECT_EQ(s->value[idx], v.get<double>())
            << name << " frame " << idx << ": want " << show(v) << " got " << show(ordered_json(s->value[idx]));
        ++compared;
      }
    }
    // Nothing else was written.
    std::size_t written = 0;
    for (const auto& s : got.all())
      for (char w : s.written) written += w ? 1 : 0;
    EXPECT_EQ(written, compared);
  }
}

INSTANTIATE_TEST_SUITE_P(All, SpeedEngine, ::testing::ValuesIn(all_runs(true)), test_name);

}  // namespace
}  // namespace vmafx::test
