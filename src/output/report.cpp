// SPDX-License-Identifier: BSD-3-Clause
#include "output/report.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string_view>

#include "core/error.hpp"
#include "output/html_report.hpp"

namespace vmafx {

const char* pool_method_name(PoolMethod m) {
  switch (m) {
    case PoolMethod::kMin: return "min";
    case PoolMethod::kMax: return "max";
    case PoolMethod::kMean: return "mean";
    case PoolMethod::kHarmonicMean: return "harmonic_mean";
  }
  return "?";
}

std::optional<double> pool(const FeatureCollector::Series& s, PoolMethod m, unsigned frames, unsigned subsample) {
  if (frames == 0) return std::nullopt;
  unsigned n = 0;
  double lo = 0, hi = 0, sum = 0, inv_sum = 0;
  for (unsigned i = 0; i < frames; ++i) {
    if (subsample > 1 && i % subsample) continue;
    if (!s.has(i)) return std::nullopt;
    const double v = s.value[i];
    ++n;
    sum += v;
    inv_sum += 1.0 / (v + 1.0);
    if (i == 0 || v < lo) lo = v;
    if (i == 0 || v > hi) hi = v;
  }
  switch (m) {
    case PoolMethod::kMin: return lo;
    case PoolMethod::kMax: return hi;
    case PoolMethod::kMean: return sum / n;
    case PoolMethod::kHarmonicMean: return n / inv_sum - 1.0;
  }
  return std::nullopt;
}

std::string Percentile::name() const {
  std::string out = "p";
  out += std::to_string(milli / 1000);
  if (unsigned frac = milli % 1000) {
    char buf[8];
    std::snprintf(buf, sizeof buf, ".%03u", frac);
    std::string f = buf;
    while (f.back() == '0') f.pop_back();
    out += f;
  }
  return out;
}

std::vector<Percentile> parse_percentiles(const std::string& list) {
  std::vector<Percentile> out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = list.find(',', pos);
    const std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    // digits, then at most three decimals; 0 .. 100
    std::uint64_t whole = 0, frac = 0;
    std::size_t i = 0, int_digits = 0, frac_digits = 0;
    for (; i < item.size() && item[i] >= '0' && item[i] <= '9' && int_digits < 4; ++i, ++int_digits)
      whole = whole * 10 + unsigned(item[i] - '0');
    bool ok = int_digits > 0;
    if (ok && i < item.size() && item[i] == '.') {
      for (++i; i < item.size() && item[i] >= '0' && item[i] <= '9' && frac_digits < 3; ++i, ++frac_digits)
        frac = frac * 10 + unsigned(item[i] - '0');
      ok = frac_digits > 0;
      for (std::size_t k = frac_digits; k < 3; ++k) frac *= 10;
    }
    const std::uint64_t milli = whole * 1000 + frac;
    if (!ok || i != item.size() || milli > 100000)
      throw Error("percentile '" + item + "': expected a number from 0 to 100 with at most 3 decimals");
    const Percentile p{std::uint32_t(milli)};
    for (const Percentile& q : out)
      if (q == p) throw Error("percentile " + item + " is given twice");
    out.push_back(p);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

namespace {

// The values pool() reads, sorted ascending (NaN last); nullopt when pool()
// would give none.
std::optional<std::vector<double>> sorted_values(const FeatureCollector::Series& s, unsigned frames,
                                                 unsigned subsample) {
  if (frames == 0) return std::nullopt;
  std::vector<double> v;
  for (unsigned i = 0; i < frames; ++i) {
    if (subsample > 1 && i % subsample) continue;
    if (!s.has(i)) return std::nullopt;
    v.push_back(s.value[i]);
  }
  std::sort(v.begin(), v.end(), [](double a, double b) {
    if (std::isnan(a)) return false;
    return std::isnan(b) || a < b;
  });
  return v;
}

double nearest_rank(const std::vector<double>& sorted, Percentile p) {
  const std::uint64_t n = sorted.size();
  std::uint64_t rank = (std::uint64_t(p.milli) * n + 99999) / 100000;
  if (rank == 0) rank = 1;
  return sorted[rank - 1];
}

// Every requested percentile of `s` (empty when pool() gives none).
std::vector<double> percentiles_of(const FeatureCollector::Series& s, const ReportInfo& info) {
  std::vector<double> out;
  if (info.percentiles.empty()) return out;
  if (auto v = sorted_values(s, info.frames, info.subsample))
    for (Percentile p : info.percentiles) out.push_back(nearest_rank(*v, p));
  return out;
}

}  // namespace

std::optional<double> percentile(const FeatureCollector::Series& s, Percentile p, unsigned frames, unsigned subsample) {
  if (auto v = sorted_values(s, frames, subsample)) return nearest_rank(*v, p);
  return std::nullopt;
}

namespace {

// libvmaf counts the zeros right after the decimal point to choose between
// 6 and 16 decimals.
int leading_zeros(double x) {
  x = std::fabs(x);
  // trunc, not a cast to long long: the cast is undefined for NaN, the
  // infinities and |x| >= 2^63 (and trunc equals it everywhere else; those
  // values have no fraction, or a NaN one, and get 0 zeros either way).
  double frac = x - std::trunc(x);
  int n = 0;
  while (frac < 1.0 && frac != 0) {
    frac *= 10;
    ++n;
  }
  return n;
}

class Out {
 public:
  explicit Out(std::FILE* f) : f_(f) {}
  template <class... A>
  void operator()(const char* fmt, A... a) {
    if (std::fprintf(f_, fmt, a...) < 0) fail();
  }
  void str(std::string_view s) {
    if (std::fwrite(s.data(), 1, s.size(), f_) != s.size()) fail();
  }
  bool failed() const { return failed_ || std::ferror(f_); }
  int error() const { return errno_; }  // of the first failed write, 0 if none
  void fail() {
    if (!failed_) errno_ = errno;
    failed_ = true;
  }

 private:
  std::FILE* f_;
  bool failed_ = false;
  int errno_ = 0;
};

bool frame_has_any(const FeatureCollector& fc, unsigned i) {
  for (const auto& s : fc.all())
    if (s.has(i)) return true;
  return false;
}

bool skipped(unsigned i, unsigned subsample) { return subsample > 1 && i % subsample; }

void write_xml(Out& o, const FeatureCollector& fc, const ReportInfo& info) {
  const Precision& p = info.precision;
  o("<VMAF version=\"%s\">\n", "3.2.0");
  o("  <params qualityWidth=\"%d\" qualityHeight=\"%d\" />\n", info.width, info.height);
  o("  <fyi fps=\"%.2f\" />\n", info.fps);
  o("  <frames>\n");
  for (unsigned i = 0; i < fc.capacity(); ++i) {
    if (skipped(i, info.subsample) || !frame_has_any(fc, i)) continue;
    o("    <frame frameNum=\"%u\" ", i);
    for (const auto& s : fc.all())
      if (s.has(i)) o("%s=\"%s\" ", s.name.c_str(), p.format(s.value[i]).c_str());
    o("/>\n");
  }
  o("  </frames>\n");
  o("  <pooled_metrics>\n");
  for (const auto& s : fc.all()) {
    o("    <metric name=\"%s\" ", s.name.c_str());
    for (PoolMethod m : kPoolMethods)
      if (auto v = pool(s, m, info.frames, info.subsample)) o("%s=\"%s\" ", pool_method_name(m), p.format(*v).c_str());
    const std::vector<double> pv = percentiles_of(s, info);
    for (std::size_t k = 0; k < pv.size(); ++k)
      o("%s=\"%s\" ", info.percentiles[k].name().c_str(), p.format(pv[k]).c_str());
    o("/>\n");
  }
  o("  </pooled_metrics>\n");
  o("  <aggregate_metrics ");
  for (const auto& [name, v] : fc.aggregate()) o("%s=\"%s\" ", name.c_str(), p.format(v).c_str());
  o("/>\n");
  o("</VMAF>\n");
}

std::string json_number(const Precision& p, double v) { return std::isfinite(v) ? p.format(v) : std::string("null"); }

void write_json(Out& o, const FeatureCollector& fc, const ReportInfo& info) {
  const Precision& p = info.precision;
  o("{\n");
  o("  \"version\": \"%s\",\n", "3.2.0");
  if (std::isfinite(info.fps))
    o("  \"fps\": %.2f,\n", info.fps);
  else
    o("  \"fps\": null,\n");
  o("  \"frames\": [");
  bool first_frame = true;
  for (unsigned i = 0; i < fc.capacity(); ++i) {
    if (skipped(i, info.subsample)) continue;
    unsigned cnt = 0;
    for (const auto& s : fc.all()) cnt += s.has(i);
    if (!cnt) continue;
    // libvmaf tests i > 0, which gives "[," when frame 0 has no values; the
    // same bytes whenever it has (as in every scored clip).
    o("%s", first_frame ? "\n" : ",\n");
    first_frame = false;
    o("    {\n");
    o("      \"frameNum\": %u,\n", i);
    o("      \"metrics\": {\n");
    unsigned k = 0;
    for (const auto& s : fc.all()) {
      if (!s.has(i)) continue;
      ++k;
      const double v = s.value[i];
      // libvmaf ends a null entry without a newline; the file is still valid JSON.
      if (std::isfinite(v))
        o("        \"%s\": %s%s\n", s.name.c_str(), p.format(v).c_str(), k < cnt ? "," : "");
      else
        o("        \"%s\": null%s", s.name.c_str(), k < cnt ? "," : "");
    }
    o("      }\n");
    o("    }");
  }
  o("\n  ],\n");
  o("  \"pooled_metrics\": {");
  bool first = true;
  for (const auto& s : fc.all()) {
    o("%s", first ? "\n" : ",\n");
    first = false;
    o("    \"%s\": {", s.name.c_str());
    bool first_m = true;
    for (PoolMethod m : kPoolMethods) {
      auto v = pool(s, m, info.frames, info.subsample);
      if (!v) continue;
      o("%s", first_m ? "\n" : ",\n");
      first_m = false;
      o("      \"%s\": %s", pool_method_name(m), json_number(p, *v).c_str());
    }
    const std::vector<double> pv = percentiles_of(s, info);
    for (std::size_t k = 0; k < pv.size(); ++k) {
      o("%s", first_m ? "\n" : ",\n");
      first_m = false;
      o("      \"%s\": %s", info.percentiles[k].name().c_str(), json_number(p, pv[k]).c_str());
    }
    o("\n");
    o("    }");
  }
  o("\n  },\n");
  o("  \"aggregate_metrics\": {");
  const auto& agg = fc.aggregate();
  for (std::size_t i = 0; i < agg.size(); ++i) {
    o("\n    \"%s\": %s", agg[i].first.c_str(), json_number(p, agg[i].second).c_str());
    o("%s", i + 1 < agg.size() ? "," : "");
  }
  o("\n  }\n");
  o("}\n");
}

void write_csv(Out& o, const FeatureCollector& fc, const ReportInfo& info) {
  o("Frame,");
  for (const auto& s : fc.all()) o("%s,", s.name.c_str());
  o("\n");
  for (unsigned i = 0; i < fc.capacity(); ++i) {
    if (skipped(i, info.subsample) || !frame_has_any(fc, i)) continue;
    o("%u,", i);
    for (const auto& s : fc.all())
      if (s.has(i)) o("%s,", info.precision.format(s.value[i]).c_str());
    o("\n");
  }
  if (info.percentiles.empty()) return;
  std::vector<std::vector<double>> pv;
  for (const auto& s : fc.all()) pv.push_back(percentiles_of(s, info));
  for (std::size_t k = 0; k < info.percentiles.size(); ++k) {
    o("%s,", info.percentiles[k].name().c_str());
    for (const auto& v : pv) o("%s,", v.empty() ? "" : info.precision.format(v[k]).c_str());
    o("\n");
  }
}

void write_sub(Out& o, const FeatureCollector& fc, const ReportInfo& info) {
  for (unsigned i = 0; i < fc.capacity(); ++i) {
    if (skipped(i, info.subsample) || !frame_has_any(fc, i)) continue;
    o("{%u}{%u}frame: %u|", i, i + 1, i);
    for (const auto& s : fc.all())
      if (s.has(i)) o("%s: %s|", s.name.c_str(), info.precision.format(s.value[i]).c_str());
    o("\n");
  }
}

}  // namespace

std::string Precision::format(double v) const {
  char buf[512];
  if (digits > 0)
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  else
    std::snprintf(buf, sizeof buf, leading_zeros(v) <= 6 ? "%.6f" : "%.16f", v);
  return buf;
}

void write_report(std::FILE* f, OutputFormat fmt, const FeatureCollector& fc, const ReportInfo& info) {
  Out o(f);
  switch (fmt) {
    case OutputFormat::kXml: write_xml(o, fc, info); break;
    case OutputFormat::kJson: write_json(o, fc, info); break;
    case OutputFormat::kCsv: write_csv(o, fc, info); break;
    case OutputFormat::kSub: write_sub(o, fc, info); break;
    case OutputFormat::kHtml: o.str(html_page(fc, info)); break;
  }
  if (std::fflush(f) != 0) o.fail();
  if (o.failed())
    throw output_error(o.error() ? std::string("write failed: ") + std::strerror(o.error()) : "write failed");
}

void write_text(std::FILE* f, const std::string& text) {
  Out o(f);
  o.str(text);
  if (std::fflush(f) != 0) o.fail();
  if (o.failed())
    throw output_error(o.error() ? std::string("write failed: ") + std::strerror(o.error()) : "write failed");
}

std::string report_text(OutputFormat fmt, const FeatureCollector& fc, const ReportInfo& info) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  if (!f) throw output_error("report: out of memory");
  try {
    write_report(f, fmt, fc, info);
  } catch (...) {
    std::fclose(f);
    std::free(buf);
    throw;
  }
  std::fclose(f);
  std::string text(buf, len);
  std::free(buf);
  return text;
}

namespace {

// Writes straight into `path`, which is not a regular file (a device such as
// /dev/null, a FIFO): nothing can be renamed over it.
void save_direct(const std::string& shown, const std::string& path, const std::function<void(std::FILE*)>& write) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw output_error(shown + ": cannot write output file: " + std::strerror(errno));
  try {
    write(f);
  } catch (const Error& e) {
    std::fclose(f);
    throw output_error(shown + ": " + e.what());
  }
  if (std::fclose(f) != 0) throw output_error(shown + ": write failed: " + std::strerror(errno));
}

}  // namespace

void save_output(const std::string& path, const std::function<void(std::FILE*)>& write) {
  if (path == "-") {
    try {
      write(stdout);
    } catch (const Error& e) {
      throw output_error(std::string("standard output: ") + e.what());
    }
    return;
  }
  std::string target = path;
  struct stat st {};
  if (stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw output_error(path + ": cannot write output file: is a directory");
    if (!S_ISREG(st.st_mode)) return save_direct(path, target, write);
    std::error_code ec;
    const std::filesystem::path real = std::filesystem::canonical(target, ec);
    if (!ec) target = real.string();
  } else if (lstat(target.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    return save_direct(path, target, write);  // a dangling link: write where it points
  }
  std::string tmp = target + ".tmp.XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) throw output_error(path + ": cannot create output file: " + std::strerror(errno));
  std::FILE* f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    std::remove(tmp.c_str());
    throw output_error(path + ": cannot write output file");
  }
  try {
    write(f);
  } catch (const Error& e) {
    std::fclose(f);
    std::remove(tmp.c_str());
    throw output_error(path + ": " + e.what());
  }
  if (std::fclose(f) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw output_error(path + ": write failed: " + std::strerror(e));
  }
  // mkstemp makes the file 0600; give it the permissions a plain fopen would.
  const mode_t mask = umask(0);
  umask(mask);
  chmod(tmp.c_str(), 0666 & ~mask);
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw output_error(path + ": cannot write output file: " + std::strerror(e));
  }
}

void save_report(const std::string& path, OutputFormat fmt, const FeatureCollector& fc, const ReportInfo& info) {
  save_output(path, [&](std::FILE* f) { write_report(f, fmt, fc, info); });
}

}  // namespace vmafx
