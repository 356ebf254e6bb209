// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test support: golden libvmaf outputs and a one-call feature run over a clip pair.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vmaf_exact/collector.hpp"
#include "core/engine.hpp"
#include "io/video_reader.hpp"

namespace vmafx::test {

std::string data_dir();  // tests/data

// One libvmaf JSON output. null (non-finite) values are nullopt.
struct GoldenRun {
  std::string path;
  std::vector<unsigned> frame_nums;                                            // as listed
  std::vector<std::string> names;                                              // metric order of the first frame
  std::map<std::string, std::vector<std::optional<double>>> frames;            // per listed frame
  std::map<std::string, std::map<std::string, std::optional<double>>> pooled;  // name -> method -> value
  std::map<std::string, double> aggregate;
};
GoldenRun load_golden(const std::string& path);

// A golden pair: clip paths (absolute) and raw geometry for .yuv clips.
struct GoldenPair {
  std::string name;
  std::string ref, dis;
  std::optional<RawFormat> raw;
  int width = 0, height = 0, bpc = 8, frames = 0;
  std::string chroma;
};
const std::vector<GoldenPair>& golden_pairs();  // from tests/data/golden/manifest.json
const GoldenPair& golden_pair(const std::string& name);
// Helpers for tests parameterised over golden pairs.
std::vector<std::string> pair_names();  // every pair's name, manifest order
inline const GoldenPair& pair_named(const std::string& name) { return golden_pair(name); }
// tests/data/golden/oracle/<pair>.<run>.json, or the .cpumask255.json variant
// when the manifest says libvmaf's plain C path differs for that run.
std::string golden_oracle_path(const std::string& pair, const std::string& run);
bool golden_run_exists(const std::string& pair, const std::string& run);

// Reads both clips in lock step and runs the requested extractors; float_adm
// as libvmaf on AMD (the golden set's) unless opts.libvmaf_cpu says otherwise.
FeatureCollector run_features(const GoldenPair& pair, const std::vector<FeatureRequest>& requests,
                              EngineOptions opts = {});

}  // namespace vmafx::test

#include <gtest/gtest.h>
namespace vmafx::test {
// Compares, with == on doubles, every per-frame value of each name in `names`
// that `want` lists, against `got` (frame numbers as the JSON lists them).
// null in the JSON must be a non-finite value in `got`. On failure the message
// names the file, the feature, the frame and both values as %.17g.
::testing::AssertionResult frames_equal(const FeatureCollector& got, const GoldenRun& want,
                                        const std::vector<std::string>& names);
// A gtest parameter name: the string with every non-alphanumeric as '_'.
std::string param_name(const ::testing::TestParamInfo<std::string>& info);
// Names of `want` matching a regular expression (ECMAScript).
std::vector<std::string> golden_names(const GoldenRun& want, const std::string& regex);
}  // namespace vmafx::test
