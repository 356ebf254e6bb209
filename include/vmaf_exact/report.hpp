// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Pooling and reports in libvmaf's layouts.
#include <cstdio>
#include <functional>
#include <optional>
#include <vector>
#include <string>

#include "vmaf_exact/collector.hpp"

namespace vmafx {

enum class PoolMethod { kMin, kMax, kMean, kHarmonicMean };
constexpr PoolMethod kPoolMethods[] = {PoolMethod::kMin, PoolMethod::kMax, PoolMethod::kMean,
                                       PoolMethod::kHarmonicMean};
const char* pool_method_name(PoolMethod m);

// libvmaf's pooling over frames [0, frames) (every `subsample`-th frame), in
// frame order and in double. nullopt if any of those frames lacks a value.
std::optional<double> pool(const FeatureCollector::Series& s, PoolMethod m, unsigned frames, unsigned subsample);

enum class OutputFormat { kXml, kJson, kCsv, kSub };

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
};

// Writes a report in libvmaf's layout (XML, JSON, CSV, or MicroDVD
// subtitles), as libvmaf's CLI writes it, to a stream. Throws Error (kind
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
