// SPDX-License-Identifier: BSD-3-Clause
// vmafx_html_ladder: scores several distorted clips (renditions of the same
// size as the reference) against one reference with the default model and
// writes each one's JSON report and one HTML page with all of them, through
// the public API only (vmaf_exact/html.hpp). For the browser test.
//
//   vmafx_html_ladder REF.y4m OUT.html JSON_PREFIX DIS1.y4m DIS2.y4m ...
// writes OUT.html and JSON_PREFIX0.json, JSON_PREFIX1.json, ...
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "vmaf_exact/vmaf_exact.hpp"

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: vmafx_html_ladder REF OUT.html JSON_PREFIX DIS...\n");
    return 2;
  }
  try {
    const std::string ref_path = argv[1], html = argv[2], prefix = argv[3];
    std::vector<std::string> dis_paths(argv + 4, argv + argc);
    std::vector<std::unique_ptr<vmafx::Session>> sessions;
    std::vector<vmafx::HtmlRendition> renditions;
    std::string ref_desc;
    for (std::size_t r = 0; r < dis_paths.size(); ++r) {
      auto ref = vmafx::open_video(ref_path), dis = vmafx::open_video(dis_paths[r]);
      const vmafx::PictureFormat f = ref->format();
      ref_desc = std::to_string(f.width) + "x" + std::to_string(f.height) + " " + vmafx::chroma_name(f.chroma) + " " +
                 std::to_string(f.bpc) + "-bit";
      sessions.push_back(std::make_unique<vmafx::Session>(f, vmafx::SessionConfig{}));
      vmafx::Session& s = *sessions.back();
      vmafx::FrameSource src(*ref, *dis, s, {});
      std::shared_ptr<vmafx::Picture> a, b;
      unsigned n = 0;
      while (src.next(a, b)) {
        s.push(std::move(a), std::move(b));
        ++n;
      }
      s.finish();
      vmafx::ReportInfo info;
      info.frames = n;
      info.width = f.width;
      info.height = f.height;
      info.percentiles = vmafx::parse_percentiles("1");
      vmafx::save_report(prefix + std::to_string(r) + ".json", vmafx::OutputFormat::kJson, s.scores(), info);
      renditions.push_back({.label = dis_paths[r], .scores = &s.scores(), .info = info, .description = ref_desc});
    }
    vmafx::HtmlRunInfo run{.reference = ref_path, .reference_description = ref_desc, .models = {"vmaf"}};
    vmafx::HtmlOptions opts{.worst = 3};
    opts.reopen = [&](std::size_t r) {
      return std::make_pair(vmafx::open_video(ref_path), vmafx::open_video(dis_paths[r]));
    };
    vmafx::save_html_report(html, renditions, run, opts);
  } catch (const vmafx::Error& e) {
    std::fprintf(stderr, "vmafx_html_ladder: %s\n", e.what());
    return 1;
  }
  return 0;
}
