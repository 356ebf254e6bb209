// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the report writers (XML, JSON, CSV, subtitles) and
// pooling, on collectors built from the input: series names (from libvmaf's
// character set for names: letters, digits, '_', '.', '-'), sparse frames,
// any double (NaN, infinities, subnormals, huge), aggregates, --subsample
// and --precision.
//
// Oracle: no sanitizer report, no crash; the JSON report parses (numbers
// beyond a double only where fewer than 17 digits round past DBL_MAX) and, at
// --precision max, holds every finite per-frame value of every written,
// non-skipped frame exactly (and null for the non-finite ones); every pooled
// value is the one pool() returns.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>

#include "vmaf_exact/collector.hpp"
#include "output/report.hpp"

using namespace vmafx;

namespace {

class Input {
 public:
  Input(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  bool empty() const { return n_ == 0; }
  std::uint8_t byte() {
    if (!n_) return 0;
    --n_;
    return *d_++;
  }
  double number() {
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = bits << 8 | byte();
    // Mostly raw bit patterns (every double, NaN payloads included), some
    // small integers and libvmaf-like scores.
    const std::uint8_t kind = bits & 3;
    if (kind == 0) return double(std::int64_t(bits >> 56) - 64);
    if (kind == 1) return double(bits >> 12) / double(1ull << 52) * 100.0;
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }

 private:
  const std::uint8_t* d_;
  std::size_t n_;
};

std::string render(OutputFormat fmt, const FeatureCollector& fc, const ReportInfo& info) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = ::open_memstream(&buf, &len);
  write_report(f, fmt, fc, info);
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

[[noreturn]] void fail(const char* what, const std::string& report) {
  std::fprintf(stderr, "%s\n%s\n", what, report.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  static const char* kNames[] = {"vmaf", "integer_vif_scale0", "psnr_y", "float_ssim", "cambi", "vmaf_bagging"};
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";
  FeatureCollector fc;
  ReportInfo info;
  info.subsample = 1 + in.byte() % 4;
  const int digits = in.byte() % 19;  // 0 (libvmaf's rule), 1..17, 18 -> 17
  info.precision.digits = digits > 17 ? 17 : digits;
  info.width = 1 + in.byte();
  info.height = 1 + in.byte();
  info.fps = in.number();
  const unsigned nseries = 1 + in.byte() % 6;
  unsigned max_index = 0;
  for (unsigned s = 0; s < nseries && !in.empty(); ++s) {
    std::string name = kNames[in.byte() % 6];
    for (unsigned k = in.byte() % 4; k > 0; --k) name += kChars[in.byte() % (sizeof kChars - 1)];
    if (fc.find(name)) continue;
    const unsigned count = in.byte() % 12;
    for (unsigned k = 0; k < count; ++k) {
      const unsigned index = in.byte() % 40;
      const double v = in.number();
      const auto* series = fc.find(name);
      if (series && series->has(index)) continue;
      fc.append(name, index, v);
      max_index = std::max(max_index, index + 1);
    }
  }
  for (unsigned a = in.byte() % 3; a > 0; --a) fc.append_aggregate("aggregate_" + std::to_string(a), in.number());
  info.frames = max_index + in.byte() % 3;  // frames read may exceed the frames written
  // --percentiles (last, so that older corpus entries keep their meaning)
  static const std::uint32_t kMilli[] = {0, 1, 1000, 5000, 7000, 50000, 99900, 99999, 100000};
  for (unsigned k = in.byte() % 4; k > 0; --k) {
    const Percentile p{kMilli[in.byte() % (sizeof kMilli / sizeof kMilli[0])]};
    if (std::find(info.percentiles.begin(), info.percentiles.end(), p) == info.percentiles.end())
      info.percentiles.push_back(p);
  }

  for (OutputFormat fmt : {OutputFormat::kXml, OutputFormat::kCsv, OutputFormat::kSub, OutputFormat::kHtml})
    render(fmt, fc, info);
  const std::string text = render(OutputFormat::kJson, fc, info);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::out_of_range&) {
    // Valid JSON whose number does not fit a double: a value near DBL_MAX
    // printed with 1 to 16 digits rounds past it ("-1.8e+308"). Fine.
    if (info.precision.digits >= 1 && info.precision.digits <= 16) return 0;
    fail("the JSON report has a number out of range", text);
  } catch (const nlohmann::json::exception&) {
    fail("the JSON report does not parse", text);
  }

  // Per-frame values, in order of frame number.
  const auto& frames = j.at("frames");
  std::size_t at = 0;
  for (unsigned i = 0; i < fc.capacity(); ++i) {
    if (info.subsample > 1 && i % info.subsample) continue;
    bool any = false;
    for (const auto& s : fc.all()) any |= s.has(i);
    if (!any) continue;
    if (at >= frames.size() || frames[at].at("frameNum") != i) fail("frame missing from the JSON report", text);
    const auto& metrics = frames[at++].at("metrics");
    for (const auto& s : fc.all()) {
      if (!s.has(i)) {
        if (metrics.contains(s.name)) fail("a value that was not written is in the JSON report", text);
        continue;
      }
      const auto& v = metrics.at(s.name);
      if (!std::isfinite(s.value[i])) {
        if (!v.is_null()) fail("a non-finite value is not null in the JSON report", text);
      } else if (info.precision.digits == 17 && v.get<double>() != s.value[i]) {
        fail("a value does not round-trip through the JSON report at --precision max", text);
      }
    }
  }
  if (at != frames.size()) fail("the JSON report has extra frames", text);

  // Pooled values are pool()'s.
  if (info.precision.digits == 17) {
    for (const auto& s : fc.all()) {
      for (PoolMethod m : kPoolMethods) {
        const auto v = pool(s, m, info.frames, info.subsample);
        const auto& pooled = j.at("pooled_metrics").at(s.name);
        if (!v) {
          if (pooled.contains(pool_method_name(m))) fail("a pooled value without all frames", text);
        } else if (std::isfinite(*v) ? pooled.at(pool_method_name(m)).get<double>() != *v
                                     : !pooled.at(pool_method_name(m)).is_null()) {
          fail("a pooled value differs from pool()", text);
        }
      }
      for (Percentile p : info.percentiles) {
        const auto v = percentile(s, p, info.frames, info.subsample);
        const auto& pooled = j.at("pooled_metrics").at(s.name);
        if (!v) {
          if (pooled.contains(p.name())) fail("a percentile without all frames", text);
        } else if (std::isfinite(*v) ? pooled.at(p.name()).get<double>() != *v : !pooled.at(p.name()).is_null()) {
          fail("a percentile differs from percentile()", text);
        }
      }
    }
  }
  return 0;
}
