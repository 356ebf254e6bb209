// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Pooling and reports in libvmaf's layouts.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <vector>
#include <string>
#include <vector>

#include "vmaf_exact/collector.hpp"

namespace vmafx {

enum class PoolMethod { kMin, kMax, kMean, kHarmonicMean };
constexpr PoolMethod kPoolMethods[] = {PoolMethod::kMin, PoolMethod::kMax, PoolMethod::kMean,
                                       PoolMethod::kHarmonicMean};
const char* pool_method_name(PoolMethod m);

// libvmaf's pooling over frames [0, frames) (every `subsample`-th frame), in
// frame order and in double. nullopt if any of those frames lacks a value.
std::optional<double> pool(const FeatureCollector::Series& s, PoolMethod m, unsigned frames, unsigned subsample);

// A percentile of the per-frame values, P from 0 to 100 with at most three
// decimals (kept exactly, in thousandths of a percent).
//
// Definition (nearest rank): the n values pooled (the frames pool() reads)
// are sorted ascending, NaN above +inf; the P-th percentile is the value of
// rank ceil(P / 100 * n), counted from 1, and rank 1 (the minimum) for P = 0.
// The rank is computed in integers, so P = 7 of 100 frames is rank 7. Ties
// need no rule: equal values are the same value. P = 100 is the maximum.
struct Percentile {
  std::uint32_t milli = 0;  // P * 1000, 0 .. 100000
  // "p1", "p5", "p99.9": the key in reports.
  std::string name() const;
  bool operator==(const Percentile&) const = default;
};
// Parses "1,5,10.5" (numbers from 0 to 100, at most three decimals, comma
// separated). Throws Error (kind kUsage) naming the bad item.
std::vector<Percentile> parse_percentiles(const std::string& list);
// The percentile of `s` over the frames pool() reads; nullopt when pool()
// gives none (no frames, a frame without a value).
std::optional<double> percentile(const FeatureCollector::Series& s, Percentile p, unsigned frames, unsigned subsample);

// kHtml: a self-contained page (chart, pooled values, percentiles); see
// vmaf_exact/html.hpp for the page with several renditions and thumbnails.
enum class OutputFormat { kXml, kJson, kCsv, kSub, kHtml };

// Number formatting: libvmaf's rule by default ("%.6f", or "%.16f" when the
// fraction has more than 6 leading zeros); or "%.<digits>g" (17 = "max",
// which round-trips every double).
struct Precision {
  int digits = 0;  // 0: libvmaf's rule
  std::string format(double v) const;
};

struct ReportInfo {
  unsigned frames = 0;  // pictures read
  unsigned subsample = 1;
  int width = 0, height = 0;
  double fps = 0;
  Precision precision;
  // Pooled percentiles added to the XML, JSON and CSV reports (empty: the
  // reports are libvmaf's, byte for byte). XML and JSON get them beside
  // min/max/mean/harmonic_mean, named Percentile::name(); CSV gets one line
  // per percentile after the frames, its first field the name.
  std::vector<Percentile> percentiles;
};

// Writes a report in libvmaf's layout (XML, JSON, CSV, or MicroDVD
// subtitles), as libvmaf's CLI writes it, or the HTML page, to a stream. Throws Error (kind
// kOutput) on a write failure.
void write_report(std::FILE* out, OutputFormat fmt, const FeatureCollector& fc, const ReportInfo& info);
// The same report as text.
std::string report_text(OutputFormat fmt, const FeatureCollector& fc, const ReportInfo& info);
// Writes the report to `path` so that a failure leaves nothing half-written:
// a regular file (or what a symbolic link points to) is written beside and
// renamed into place; a device or FIFO (/dev/null, /dev/stdout) is written
// directly; "-" is standard output. Throws Error (kind kOutput) naming the
// path.
void save_report(const std::string& path, OutputFormat fmt, const FeatureCollector& fc, const ReportInfo& info);

// Writes what `write` prints to `path` with save_report's rules (a regular
// file is written beside and renamed into place; "-" is standard output).
// Throws Error (kind kOutput) naming the path.
void save_output(const std::string& path, const std::function<void(std::FILE*)>& write);

// Pooled statistics of one model's per-frame scores (frames [0, frames),
// every `subsample`-th): libvmaf's mean, harmonic mean and min, and the 1%
// low: the mean of the lowest ceil(n / 100) of the n scores, added in
// ascending order. nullopt if any of those frames lacks a score.
struct ScoreStats {
  double mean = 0, harmonic_mean = 0, min = 0, low1 = 0;
};
std::optional<ScoreStats> score_stats(const FeatureCollector::Series& s, unsigned frames, unsigned subsample);

// A ladder's summary (vmaf with several -d): one row per rendition.
struct LadderRow {
  std::string path;           // the rendition
  std::string format;         // its own format ("1280x720 420 8-bit (yuv420p, h264 in mov)")
  int width = 0, height = 0;  // its own size
  unsigned frames = 0;        // frames scored
  int offset = 0;             // frame offset (--sync auto)
  std::string error;          // why it was not scored ("": it was)
  std::vector<std::pair<std::string, ScoreStats>> models;  // per model, in the session's order
};
enum class SummaryFormat { kText, kCsv, kJson };
// The table as text (aligned columns), CSV (one row per rendition, columns
// <model>_mean, <model>_harmonic_mean, <model>_min, <model>_1pct_low) or
// JSON; numbers formatted by `precision`.
std::string summary_text(SummaryFormat fmt, const std::string& reference, const std::vector<LadderRow>& rows,
                         const Precision& precision);

}  // namespace vmafx
