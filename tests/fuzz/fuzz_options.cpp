// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the --model and --feature option strings, as a Session
// receives them (parse_model_arg / parse_feature_arg in session.cpp, the
// option tables and value parsing of core/options.cpp, model overloads,
// built-in and path= models), then a short run of what they configured.
//
// The input is text, one item a line:
//   m <model string>     e.g. "m version=vmaf_v0.6.1:name=x:adm.adm_enhn_gain_limit=1.2"
//   f <feature string>   e.g. "f float_ssim=enable_lcs=true"
//   o <option string>    parse_option_string alone, e.g. "o a=1:b=true"
//   n                    no model (features only)
//   s <N>                --subsample N
//   p <0..3>             picture format: 64x48 8-bit 4:2:0 (default), 65x49
//                        10-bit 4:2:2, 40x40 12-bit 4:4:4, 48x36 16-bit 4:2:0
// path= models are looked up in a scratch directory that holds a.json (the
// built-in vmaf_v0.6.1), b.json (the bootstrap vmaf_b_v0.6.3), bad.json
// (truncated) and a directory d; lines with '/' (other paths) and cambi's
// heatmaps_path (which writes files) are ignored.
//
// Oracle: no sanitizer report, no crash, no hang; a configuration that is
// refused is refused with a vmafx::Error of one non-empty line; one that is
// accepted scores three frames and writes a JSON report that parses, with
// every per-frame value the collector holds.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/embedded.hpp"
#include "core/error.hpp"
#include "core/options.hpp"
#include "fuzz_common.hpp"
#include "output/report.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {
extern const EmbeddedFile kBuiltinModels[];
extern const std::size_t kBuiltinModels_count;
}  // namespace vmafx

using namespace vmafx;

namespace {

std::string builtin_text(std::string_view file) {
  for (std::size_t i = 0; i < kBuiltinModels_count; ++i)
    if (kBuiltinModels[i].name == file) return std::string(kBuiltinModels[i].view());
  std::abort();
}

void make_sandbox() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("vmafx_fuzz_options_" + std::to_string(::getpid()));
  fs::create_directories(dir / "d");
  std::ofstream(dir / "a.json") << builtin_text("vmaf_v0.6.1.json");
  std::ofstream(dir / "b.json") << builtin_text("vmaf_b_v0.6.3.json");
  const std::string a = builtin_text("vmaf_v0.6.1.json");
  std::ofstream(dir / "bad.json") << a.substr(0, a.size() / 2);
  fs::current_path(dir);
}

const PictureFormat kFormats[] = {
    {64, 48, 8, ChromaFormat::k420},
    {65, 49, 10, ChromaFormat::k422},
    {40, 40, 12, ChromaFormat::k444},
    {48, 36, 16, ChromaFormat::k420},
};

void fill(Picture& p, unsigned seed) {
  const PictureFormat& f = p.format();
  const unsigned maxv = (1u << f.bpc) - 1;
  std::uint32_t s = seed * 2654435761u + 1;
  for (int c = 0; c < f.plane_count(); ++c)
    for (int y = 0; y < f.plane_height(c); ++y)
      for (int x = 0; x < f.plane_width(c); ++x) {
        s = s * 1664525u + 1013904223u;
        const unsigned v = ((x * 7 + y * 3 + c * 50) + (s >> 28)) & maxv;
        if (f.bpc == 8)
          p.row<std::uint8_t>(c, y)[x] = std::uint8_t(v);
        else
          p.row<std::uint16_t>(c, y)[x] = std::uint16_t(v);
      }
}

void check_report(Session& s) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = ::open_memstream(&buf, &len);
  ReportInfo info;
  info.frames = s.frames();
  info.subsample = s.config().subsample;
  info.precision.digits = 17;
  write_report(f, OutputFormat::kJson, s.scores(), info);
  std::fclose(f);
  const std::string text(buf, len);
  std::free(buf);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    std::fprintf(stderr, "the JSON report does not parse:\n%s\n", text.c_str());
    std::abort();
  }
  for (const auto& series : s.scores().all()) {
    for (unsigned i = 0; i < series.written.size(); ++i) {
      if (!series.has(i) || !std::isfinite(series.value[i])) continue;
      if (info.subsample > 1 && i % info.subsample) continue;
      const auto& frame = j.at("frames").at(i / info.subsample);
      if (frame.at("frameNum") != i || frame.at("metrics").at(series.name).get<double>() != series.value[i]) {
        std::fprintf(stderr, "report and collector differ at %s, frame %u\n", series.name.c_str(), i);
        std::abort();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  make_sandbox();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  SessionConfig cfg;
  cfg.threads = 1;
  PictureFormat fmt = kFormats[0];
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.size() < 1 || line.find('/') != std::string::npos || line.find("heatmaps_path") != std::string::npos)
      continue;
    const std::string arg = line.size() > 2 ? line.substr(2) : "";
    switch (line[0]) {
      case 'm':
        if (cfg.models.size() < 4) cfg.models.push_back(arg);
        break;
      case 'f':
        if (cfg.features.size() < 6) cfg.features.push_back(arg);
        break;
      case 'n': cfg.no_prediction = true; break;
      case 's': cfg.subsample = unsigned(std::strtoul(arg.c_str(), nullptr, 10) % 5); break;
      case 'p': fmt = kFormats[std::strtoul(arg.c_str(), nullptr, 10) % 4]; break;
      case 'o':
        try {
          for (const auto& [k, v] : parse_option_string(arg, "fuzz"))
            if (k.empty() || v.empty()) std::abort();
        } catch (const Error& e) {
          fuzz::check_message(e.what(), "fuzz: ");
        }
        break;
      default: break;
    }
  }
  try {
    Session s(fmt, cfg);
    for (unsigned i = 0; i < 3; ++i) {
      auto ref = s.acquire(), dis = s.acquire();
      fill(*ref, i);
      fill(*dis, i + 100);
      s.push(std::move(ref), std::move(dis));
    }
    s.finish();
    check_report(s);
  } catch (const Error& e) {
    fuzz::check_message(e.what(), "");
  }
  return 0;
}
