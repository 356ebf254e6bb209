// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Pooling and reports in libvmaf's layouts.
#include <cstdio>
#include <optional>
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

}  // namespace vmafx
