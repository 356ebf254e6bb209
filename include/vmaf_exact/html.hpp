// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The HTML report: one self-contained page (inline CSS, JavaScript and SVG,
// images as data: URIs; nothing is fetched when it is viewed) with
//   - a per-frame chart of every model's score and of every feature (hover
//     for the values, drag to zoom, double-click to zoom out); long clips are
//     plotted through a min/max-preserving decimation (HtmlOptions::max_points);
//   - per series: pooled mean, harmonic mean, min, max (libvmaf's pooling)
//     and percentiles (nearest rank, see Percentile in report.hpp);
//   - the worst frames by the first model (lowest scores, the earlier frame
//     first among equal ones) with thumbnails of the reference, the distorted
//     frame and their luma difference, when the caller can reopen the clips
//     and the build has FFmpeg's libavcodec (its libwebp encoder, lossy at
//     quality 80, or else its PNG encoder);
//   - what was scored: files, formats, frames, models, options, backend,
//     versions.
// With several renditions (a ladder: one reference, several distorted
// clips), one chart holds every rendition's model scores and a summary table
// compares them; each rendition then has its own section.
//
//   vmafx::HtmlRendition r{.label = "dis.mp4", .scores = &session.scores(), .info = info,
//                          .description = "1920x1080 420 8-bit (h264 in mp4)"};
//   vmafx::save_html_report("report.html", {r}, {.reference = "ref.y4m", .models = {"vmaf"}}, {});
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vmaf_exact/collector.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/report.hpp"

namespace vmafx {

// One distorted clip scored against the reference.
struct HtmlRendition {
  std::string label;                         // the distorted file's name, as shown
  const FeatureCollector* scores = nullptr;  // its scores (must outlive the call)
  ReportInfo info;                           // frames, subsample, size, fps, precision
  std::string description;                   // "1280x720 420 8-bit (h264 in mp4)"
  std::string sync_offset;                   // shown when not empty: "distorted frames skipped: 2"
  std::string scaling;                       // shown when not empty: "bicubic to 1920x1080"
};

// What every rendition shares.
struct HtmlRunInfo {
  std::string title;                  // "" : "VMAF report"
  std::string reference;              // the reference's file name
  std::string reference_description;  // "1920x1080 420 8-bit"
  // The series that are model scores, in order (charted and tabled first;
  // the first one ranks the worst frames). Empty: series named vmaf*, except
  // a bootstrap model's _bagging, _stddev and _ci_* series.
  std::vector<std::string> models;
  std::vector<std::string> model_options;  // the model strings as given (-m)
  std::vector<std::string> features;       // the feature strings as given (--feature)
  std::vector<std::string> options;        // other settings, one line each ("subsample 2")
  std::string backend;                     // Session::backend_description(); "" : the CPU
};

// Opens the reference and rendition `r`'s distorted clip again, positioned at
// the first frame that was scored (skips and offsets applied), each frame in
// the reference's format (a scaled rendition comes scaled). Frame k of the
// two readers must be the pair that was scored as frame k. Throw Error, or
// return a null reader, when that cannot be done (input from a pipe).
using HtmlReopen =
    std::function<std::pair<std::unique_ptr<VideoReader>, std::unique_ptr<VideoReader>>(std::size_t rendition)>;

struct HtmlOptions {
  unsigned worst = 6;  // worst frames shown per rendition (0: none)
  // Percentiles in the tables (nearest rank; see Percentile).
  std::vector<Percentile> percentiles = {{1000}, {5000}, {10000}, {50000}};
  // Thumbnails of the worst frames: empty, the page says why there are none.
  HtmlReopen reopen;
  // Points the chart data may hold in all (every series of every rendition
  // share it, each gets at least 1000 and at most 20000); a series with more
  // scored frames keeps the minimum and maximum of each of budget / 2 runs
  // of consecutive frames.
  std::size_t max_points = 160000;
  int thumbnail_width = 480;  // thumbnails are at most this wide (integer box filter)
};

// The page as text. Throws Error on a bad argument (no renditions, a null
// scores pointer); problems reading thumbnails are shown on the page.
std::string html_report(const std::vector<HtmlRendition>& renditions, const HtmlRunInfo& run,
                        const HtmlOptions& opts = {});
// Writes the page as save_report writes reports (atomically; "-" is standard
// output). Throws Error (kind kOutput) naming `path`.
void save_html_report(const std::string& path, const std::vector<HtmlRendition>& renditions, const HtmlRunInfo& run,
                      const HtmlOptions& opts = {});
// Whether this build can make thumbnails (FFmpeg's libavcodec with its
// libwebp or PNG encoder).
bool html_thumbnails_supported();

// The frames a series is plotted with: every scored frame (of frames
// [0, info.frames), every subsample-th, with a value), or, when there are
// more than `budget` (>= 2), in budget / 2 runs of consecutive ones, each
// run's minimum and maximum (the earliest of equal ones; one frame when they
// are the same), in frame order. NaN is never a run's minimum or maximum
// unless the run holds nothing else.
std::vector<unsigned> html_chart_frames(const FeatureCollector::Series& s, const ReportInfo& info, std::size_t budget);
// The `n` worst frames of `s`: lowest values first, the earlier frame first
// among equal values; only scored frames with a finite value.
std::vector<unsigned> html_worst_frames(const FeatureCollector::Series& s, const ReportInfo& info, unsigned n);

}  // namespace vmafx
