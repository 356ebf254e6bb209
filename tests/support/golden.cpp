// SPDX-License-Identifier: BSD-3-Clause
#include "support/golden.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace vmafx::test {

using nlohmann::json;
using ordered = nlohmann::ordered_json;  // keeps the JSON's key order

std::string data_dir() { return VMAFX_TEST_DATA_DIR; }

namespace {

json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  return json::parse(in);
}

template <class J>
std::optional<double> number_or_null(const J& v) {
  if (v.is_null()) return std::nullopt;
  return v.template get<double>();
}

ChromaFormat chroma_of(const std::string& s) {
  if (s == "420") return ChromaFormat::k420;
  if (s == "422") return ChromaFormat::k422;
  if (s == "444") return ChromaFormat::k444;
  throw std::runtime_error("bad chroma " + s);
}

}  // namespace

GoldenRun load_golden(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  ordered j = ordered::parse(in);
  GoldenRun g;
  g.path = path;
  const auto& frames = j.at("frames");
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto& f = frames[i];
    g.frame_nums.push_back(f.at("frameNum").get<unsigned>());
    for (auto it = f.at("metrics").begin(); it != f.at("metrics").end(); ++it) {
      if (i == 0) g.names.push_back(it.key());
      auto& v = g.frames[it.key()];
      v.resize(frames.size());
      v[i] = number_or_null(it.value());
    }
  }
  for (auto it = j.at("pooled_metrics").begin(); it != j.at("pooled_metrics").end(); ++it)
    for (auto m = it.value().begin(); m != it.value().end(); ++m)
      g.pooled[it.key()][m.key()] = number_or_null(m.value());
  if (j.contains("aggregate_metrics"))
    for (auto it = j["aggregate_metrics"].begin(); it != j["aggregate_metrics"].end(); ++it)
      g.aggregate[it.key()] = it.value().get<double>();
  return g;
}

const std::vector<GoldenPair>& golden_pairs() {
  static const std::vector<GoldenPair> pairs = [] {
    std::vector<GoldenPair> out;
    const std::string root = data_dir() + "/golden/";
    json m = read_json(root + "manifest.json");
    for (const json& p : m.at("pairs")) {
      GoldenPair g;
      g.name = p.at("name").get<std::string>();
      g.ref = root + p.at("ref").at("file").get<std::string>();
      g.dis = root + p.at("dis").at("file").get<std::string>();
      g.width = p.at("ref").at("width").get<int>();
      g.height = p.at("ref").at("height").get<int>();
      g.bpc = p.at("ref").at("bitdepth").get<int>();
      g.frames = p.at("ref").at("frames").get<int>();
      g.chroma = p.at("ref").at("chroma").get<std::string>();
      if (!p.at("raw_yuv_args").is_null()) {
        const json& r = p["raw_yuv_args"];
        g.raw = RawFormat{r.at("width").get<int>(), r.at("height").get<int>(),
                          chroma_of(r.at("pixel_format").get<std::string>()), r.at("bitdepth").get<int>()};
      }
      out.push_back(std::move(g));
    }
    return out;
  }();
  return pairs;
}

const GoldenPair& golden_pair(const std::string& name) {
  for (const GoldenPair& p : golden_pairs())
    if (p.name == name) return p;
  throw std::runtime_error("no golden pair " + name);
}

std::string golden_oracle_path(const std::string& pair, const std::string& run) {
  static const json manifest = read_json(data_dir() + "/golden/manifest.json");
  for (const json& p : manifest.at("pairs")) {
    if (p.at("name") != pair) continue;
    for (const json& o : p.at("oracle")) {
      if (o.at("run") != run) continue;
      std::string file = o.at("file").get<std::string>();
      if (o.contains("scalar_path") && !o["scalar_path"].value("identical", true))
        file = o["scalar_path"].at("file").get<std::string>();
      return data_dir() + "/golden/" + file;
    }
  }
  throw std::runtime_error("no golden run " + pair + "." + run);
}

bool golden_run_exists(const std::string& pair, const std::string& run) {
  try {
    golden_oracle_path(pair, run);
    return true;
  } catch (const std::runtime_error&) {
    return false;
  }
}

FeatureCollector run_features(const GoldenPair& pair, const std::vector<FeatureRequest>& requests, EngineOptions opts) {
  auto ref = open_video(pair.ref, pair.raw);
  auto dis = open_video(pair.dis, pair.raw);
  if (opts.libvmaf_cpu.empty()) opts.libvmaf_cpu = "amd";  // the golden set was made on AMD processors
  Engine engine(ref->format(), opts);
  for (const FeatureRequest& r : requests) engine.use(r);
  for (;;) {
    auto a = engine.acquire();
    auto b = engine.acquire();
    bool ra = ref->read(*a);
    bool rb = dis->read(*b);
    if (!ra || !rb) break;
    engine.push(std::move(a), std::move(b));
  }
  engine.finish();
  return std::move(engine.collector());
}

}  // namespace vmafx::test

#include <cctype>
#include <cmath>
#include <cstdio>
#include <regex>

namespace vmafx::test {

namespace {
std::string g17(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}
}  // namespace

::testing::AssertionResult frames_equal(const FeatureCollector& got, const GoldenRun& want,
                                        const std::vector<std::string>& names) {
  std::size_t compared = 0;
  for (const std::string& name : names) {
    auto w = want.frames.find(name);
    if (w == want.frames.end()) return ::testing::AssertionFailure() << want.path << ": golden has no " << name;
    const FeatureCollector::Series* s = got.find(name);
    if (!s) return ::testing::AssertionFailure() << want.path << ": we produced no " << name;
    for (std::size_t i = 0; i < want.frame_nums.size(); ++i) {
      const unsigned fn = want.frame_nums[i];
      const std::optional<double>& exp = w->second[i];
      if (!s->has(fn))
        return ::testing::AssertionFailure() << want.path << ": " << name << " frame " << fn << " missing";
      const double v = s->value[fn];
      if (!exp) {
        if (std::isfinite(v))
          return ::testing::AssertionFailure()
                 << want.path << ": " << name << " frame " << fn << ": want non-finite, got " << g17(v);
      } else if (!(v == *exp)) {
        return ::testing::AssertionFailure() << want.path << ": " << name << " frame " << fn << ": want " << g17(*exp)
                                             << ", got " << g17(v) << " (diff " << g17(v - *exp) << ")";
      }
      ++compared;
    }
  }
  if (compared == 0) return ::testing::AssertionFailure() << want.path << ": nothing compared";
  return ::testing::AssertionSuccess() << compared << " values equal";
}

std::vector<std::string> pair_names() {
  std::vector<std::string> out;
  for (const GoldenPair& p : golden_pairs()) out.push_back(p.name);
  return out;
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

std::vector<std::string> golden_names(const GoldenRun& want, const std::string& regex) {
  std::vector<std::string> out;
  std::regex re(regex);
  for (const std::string& n : want.names)
    if (std::regex_match(n, re)) out.push_back(n);
  return out;
}

}  // namespace vmafx::test
