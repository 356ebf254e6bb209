// SPDX-License-Identifier: BSD-3-Clause
// The HTML report's pieces that need no browser: chart decimation, worst
// frames, the page's tables and notes, thumbnails, size of long clips, and
// writing. tests/html/html_report_test.py opens pages in headless Chromium.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "output/html_report.hpp"
#include "output/report.hpp"
#include "vmaf_exact/error.hpp"
#include "vmaf_exact/html.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/version.hpp"

namespace vmafx {
namespace {

namespace fs = std::filesystem;

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

FeatureCollector::Series series(std::vector<double> v) {
  return FeatureCollector::Series{"x", v, std::vector<char>(v.size(), 1)};
}

ReportInfo frames(unsigned n, unsigned subsample = 1) {
  ReportInfo i;
  i.frames = n;
  i.subsample = subsample;
  return i;
}

TEST(HtmlChart, EveryFrameWhenWithinBudget) {
  const auto s = series({3, 1, 2, 5, 4});
  EXPECT_EQ(html_chart_frames(s, frames(5), 1000), (std::vector<unsigned>{0, 1, 2, 3, 4}));
  EXPECT_EQ(html_chart_frames(s, frames(5, 2), 1000), (std::vector<unsigned>{0, 2, 4}));
  EXPECT_EQ(html_chart_frames(s, frames(3), 1000), (std::vector<unsigned>{0, 1, 2}));
}

TEST(HtmlChart, MinMaxOfEachRun) {
  std::mt19937 rng(3);
  const unsigned n = 100000;
  std::vector<double> v(n);
  for (double& x : v) x = double(rng() % 100000) / 1000;
  v[54321] = -7;   // the global minimum
  v[77777] = 1e6;  // the global maximum
  const auto s = series(v);
  const std::size_t budget = 2000, runs = budget / 2;
  const auto f = html_chart_frames(s, frames(n), budget);
  EXPECT_LE(f.size(), budget);
  EXPECT_TRUE(std::is_sorted(f.begin(), f.end()));
  EXPECT_NE(std::find(f.begin(), f.end(), 54321u), f.end());
  EXPECT_NE(std::find(f.begin(), f.end(), 77777u), f.end());
  // Each run's minimum and maximum, by an independent scan.
  std::size_t k = 0;
  for (std::size_t r = 0; r < runs; ++r) {
    const std::size_t a = r * n / runs, b = (r + 1) * n / runs;
    const auto lo = std::min_element(v.begin() + a, v.begin() + b) - v.begin();
    const auto hi = std::max_element(v.begin() + a, v.begin() + b) - v.begin();
    ASSERT_LT(k + 1, f.size() + 1);
    EXPECT_EQ(f[k++], unsigned(std::min(lo, hi)));
    if (lo != hi) {
      EXPECT_EQ(f[k++], unsigned(std::max(lo, hi)));
    }
  }
  EXPECT_EQ(k, f.size());
}

TEST(HtmlChart, NanIsNeverARunsExtreme) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // 3 runs: {nan, 3}, {1, nan, nan}, {nan, nan, 4}
  const auto s = series({nan, 3, 1, nan, nan, nan, nan, 4});
  EXPECT_EQ(html_chart_frames(s, frames(8), 6), (std::vector<unsigned>{1, 2, 7}));
  // 2 runs: {nan, nan, nan} (its first frame), {nan, 1, 2, 3}
  const auto t = series({nan, nan, nan, nan, 1, 2, 3});
  EXPECT_EQ(html_chart_frames(t, frames(7), 4), (std::vector<unsigned>{0, 4, 6}));
}

TEST(HtmlWorst, LowestFirstEarlierAmongEqual) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto s = series({5, 1, 3, 1, nan, 2, 0});
  EXPECT_EQ(html_worst_frames(s, frames(7), 4), (std::vector<unsigned>{6, 1, 3, 5}));
  EXPECT_EQ(html_worst_frames(s, frames(7), 100), (std::vector<unsigned>{6, 1, 3, 5, 2, 0}));
  EXPECT_EQ(html_worst_frames(s, frames(7, 2), 2), (std::vector<unsigned>{6, 2}));
  EXPECT_TRUE(html_worst_frames(s, frames(7), 0).empty());
}

FeatureCollector scores(const std::vector<double>& vmaf) {
  FeatureCollector fc;
  for (unsigned i = 0; i < vmaf.size(); ++i) {
    fc.append("integer_adm2", i, 0.9 + i * 0.001);
    fc.append("vmaf", i, vmaf[i]);
  }
  return fc;
}

std::string clip(const std::string& name) { return std::string(VMAFX_TEST_DATA_DIR) + "/golden/clips/" + name; }

TEST(HtmlPage, SingleRenditionTablesAndInfo) {
  const FeatureCollector fc = scores({80, 60, 70});
  HtmlRendition r{.label = "dis.y4m", .scores = &fc, .info = frames(3), .description = "64x48 420 8-bit"};
  const std::string page = html_report({r}, {.reference = "ref.y4m", .models = {"vmaf"}, .backend = "cpu"});
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(page, "<table class=\"stats\""), 1u);
  EXPECT_EQ(count(page, "id=\"summary\""), 0u);
  EXPECT_NE(page.find("<tr class=\"model\" data-series=\"vmaf\"><td>vmaf</td><td data-stat=\"mean\">70.000000</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<td data-stat=\"p50\">70.000000</td>"), std::string::npos);
  // worst frames in order: 1, 2, 0
  const auto a = page.find("data-frame=\"1\""), b = page.find("data-frame=\"2\""), c = page.find("data-frame=\"0\"");
  EXPECT_TRUE(a < b && b < c) << a << " " << b << " " << c;
  EXPECT_NE(page.find("No thumbnails: the clips could not be read a second time"), std::string::npos);
  EXPECT_NE(page.find("vmaf-exact " + std::string(kVersion)), std::string::npos);
  EXPECT_NE(page.find("ref.y4m"), std::string::npos);
  // Nothing that would reach a network.
  EXPECT_EQ(page.find("http:"), page.find("http://www.w3.org/2000/svg"));
  EXPECT_EQ(page.find("https:"), std::string::npos);
  EXPECT_EQ(page.find("<script src"), std::string::npos);
}

TEST(HtmlPage, ModelsByNameWhenNotGiven) {
  FeatureCollector fc;
  for (unsigned i = 0; i < 2; ++i)
    for (const char* n : {"psnr_y", "vmaf_neg", "vmaf_neg_bagging", "vmaf_neg_ci_p95_lo", "vmaf"}) fc.append(n, i, i);
  const std::string page = html_page(fc, frames(2));
  EXPECT_NE(page.find("<tr class=\"model\" data-series=\"vmaf_neg\">"), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"model\" data-series=\"vmaf\">"), std::string::npos);
  EXPECT_NE(page.find("<tr data-series=\"vmaf_neg_bagging\">"), std::string::npos);
  EXPECT_NE(page.find("<tr data-series=\"psnr_y\">"), std::string::npos);
  EXPECT_EQ(page, report_text(OutputFormat::kHtml, fc, frames(2)));
}

TEST(HtmlPage, SeveralRenditions) {
  const FeatureCollector a = scores({80, 60, 70}), b = scores({50, 55, 40, 45});
  std::vector<HtmlRendition> rs = {
      {.label = "1080p.mp4", .scores = &a, .info = frames(3), .description = "1920x1080 420 8-bit"},
      {.label = "720p.mp4",
       .scores = &b,
       .info = frames(4),
       .description = "1280x720 420 8-bit (h264 in mp4)",
       .sync_offset = "2 frames",
       .scaling = "bicubic to 1920x1080"}};
  const std::string page = html_report(rs, {.reference = "ref.y4m", .models = {"vmaf"}}, {.worst = 2});
  EXPECT_NE(page.find("id=\"summary\""), std::string::npos);
  EXPECT_EQ(count(page, "<table class=\"stats\""), 2u);
  EXPECT_NE(page.find("<tr data-rendition=\"1\" data-series=\"vmaf\"><td>720p.mp4</td><td>1280x720 420 8-bit (h264 in "
                      "mp4)</td><td>4</td><td>vmaf</td><td data-stat=\"mean\">47.500000</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<td data-stat=\"low1\">40.000000</td>"), std::string::npos);
  EXPECT_NE(page.find("scaling: bicubic to 1920x1080"), std::string::npos);
  EXPECT_NE(page.find("sync: 2 frames"), std::string::npos);
  EXPECT_NE(page.find("\"label\":\"720p.mp4: vmaf\""), std::string::npos);
  EXPECT_EQ(count(page, "class=\"frame\""), 4u);
}

TEST(HtmlPage, LongClipStaysSmall) {
  // 100,000 frames of a model and 14 features, values with all their digits.
  std::mt19937 rng(5);
  FeatureCollector fc;
  const unsigned n = 100000;
  for (unsigned i = 0; i < n; ++i) {
    for (int k = 0; k < 14; ++k) fc.append("feature" + std::to_string(k), i, double(rng()) / 7.0);
    fc.append("vmaf", i, double(rng() % 100000000) / 1e6);
  }
  const std::string page = html_report({{.label = "d", .scores = &fc, .info = frames(n)}}, {});
  EXPECT_LT(page.size(), 5u << 20);
  EXPECT_NE(page.find("Long clip"), std::string::npos);
}

TEST(HtmlPage, Errors) {
  auto what = [](auto f) -> std::string {
    try {
      f();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(what([] { html_report({}, {}); }), "HTML report: no renditions");
  EXPECT_EQ(what([] { html_report({{.label = "d.y4m"}}, {}); }), "HTML report: rendition d.y4m has no scores");
  const FeatureCollector fc = scores({1, 2});
  const fs::path dir = fs::temp_directory_path() / "vmafx_html_errors";
  fs::remove_all(dir);
  fs::create_directories(dir);
  EXPECT_EQ(what([&] { save_html_report(dir.string(), {{.label = "d", .scores = &fc, .info = frames(2)}}, {}); }),
            dir.string() + ": cannot write output file: is a directory");
  const std::string missing = (dir / "no" / "r.html").string();
  EXPECT_EQ(what([&] { save_html_report(missing, {{.label = "d", .scores = &fc, .info = frames(2)}}, {}); }),
            missing + ": cannot create output file: No such file or directory");
  EXPECT_EQ(what([&] { save_html_report((dir / "r.html").string(), {}, {}); }),
            (dir / "r.html").string() + ": HTML report: no renditions");
  EXPECT_TRUE(fs::is_empty(dir));
  save_html_report((dir / "r.html").string(), {{.label = "d", .scores = &fc, .info = frames(2)}}, {});
  std::ifstream in(dir / "r.html");
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), html_report({{.label = "d", .scores = &fc, .info = frames(2)}}, {}));
  fs::remove_all(dir);
}

TEST(HtmlThumbnails, WorstFramesReadAgain) {
  // chelsea352: 3 frames. Scores that make frames 2 and 0 the worst.
  const FeatureCollector fc = scores({50, 90, 10});
  HtmlRendition r{.label = "dis", .scores = &fc, .info = frames(3)};
  HtmlOptions o{.worst = 2};
  int calls = 0;
  o.reopen = [&](std::size_t i) -> std::pair<std::unique_ptr<VideoReader>, std::unique_ptr<VideoReader>> {
    ++calls;
    EXPECT_EQ(i, 0u);
    return {open_video(clip("chelsea352.ref.y4m")), open_video(clip("chelsea352__gblur1.5.dis.y4m"))};
  };
  const std::string page = html_report({r}, {}, o);
  EXPECT_EQ(calls, 1);
  if (!html_thumbnails_supported()) {
    EXPECT_NE(page.find("Thumbnails of the worst frames need a build with FFmpeg's libavcodec"), std::string::npos);
    GTEST_SKIP() << "no libavcodec image encoder in this build";
  }
  EXPECT_EQ(count(page, "<img class=\"thumb\""), 6u);
  EXPECT_EQ(count(page, "src=\"data:image/"), 6u);
  const auto f2 = page.find("data-frame=\"2\""), f0 = page.find("data-frame=\"0\"");
  EXPECT_LT(f2, f0);
  EXPECT_LT(page.find("data-kind=\"reference\"", f2), f0);
  EXPECT_EQ(page.find("class=\"note\""), std::string::npos);
}

TEST(HtmlThumbnails, NotesWhenTheClipsCannotBeRead) {
  if (!html_thumbnails_supported()) GTEST_SKIP() << "no libavcodec image encoder in this build";
  const FeatureCollector fc = scores({50, 90, 10, 20});
  HtmlRendition r{.label = "dis", .scores = &fc, .info = frames(4)};
  HtmlOptions o{.worst = 2};
  o.reopen = [](std::size_t) -> std::pair<std::unique_ptr<VideoReader>, std::unique_ptr<VideoReader>> { return {}; };
  EXPECT_NE(
      html_report({r}, {}, o).find("No thumbnails: the clips could not be read a second time (input from a pipe)."),
      std::string::npos);
  o.reopen = [](std::size_t) -> std::pair<std::unique_ptr<VideoReader>, std::unique_ptr<VideoReader>> {
    return {open_video("/nonexistent/ref.y4m"), nullptr};
  };
  const std::string p2 = html_report({r}, {}, o);
  EXPECT_NE(p2.find("No thumbnails: /nonexistent/ref.y4m"), std::string::npos);
  // 4 scored frames, clips of 3: frame 3 is not there.
  o.reopen = [](std::size_t) -> std::pair<std::unique_ptr<VideoReader>, std::unique_ptr<VideoReader>> {
    return {open_video(clip("chelsea352.ref.y4m")), open_video(clip("chelsea352__gblur1.5.dis.y4m"))};
  };
  const std::string p3 = html_report({r}, {}, o);
  EXPECT_NE(p3.find("No thumbnails: " + clip("chelsea352.ref.y4m") + " ended before frame 3."), std::string::npos);
  EXPECT_EQ(count(p3, "<img"), 0u);
  o.reopen = [](std::size_t) -> std::pair<std::unique_ptr<VideoReader>, std::unique_ptr<VideoReader>> {
    return {open_video(clip("chelsea352.ref.y4m")), open_video(clip("coffee320.ref.y4m"))};
  };
  EXPECT_NE(html_report({r}, {}, o).find("No thumbnails: the distorted frames are not in the reference&#39;s format."),
            std::string::npos);
}

}  // namespace
}  // namespace vmafx
