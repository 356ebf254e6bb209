// SPDX-License-Identifier: BSD-3-Clause
// Scores a distorted clip against its reference with vmaf_v0.6.1 and writes
// libvmaf's JSON report, using only vmaf-exact's public API:
//   score REF.y4m DIS.y4m REPORT.json
#include <chrono>
#include <cstdio>

#include <vmaf_exact/vmaf_exact.hpp>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: score REF.y4m DIS.y4m REPORT.json\n");
    return 2;
  }
  try {
    auto ref = vmafx::open_video(argv[1]);
    auto dis = vmafx::open_video(argv[2]);
    vmafx::SessionConfig cfg;
    cfg.models = {"version=vmaf_v0.6.1"};
    vmafx::Session session(ref->format(), cfg);
    const auto t0 = std::chrono::steady_clock::now();
    vmafx::FrameSource source(*ref, *dis, session, {});
    std::shared_ptr<vmafx::Picture> a, b;
    while (source.next(a, b)) session.push(std::move(a), std::move(b));
    session.finish();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    vmafx::ReportInfo info;
    info.frames = session.frames();
    info.width = ref->format().width;
    info.height = ref->format().height;
    info.fps = secs > 0 ? session.frames() / secs : 0;
    vmafx::save_report(argv[3], vmafx::OutputFormat::kJson, session.scores(), info);
    for (const vmafx::ModelSummary& m : session.summaries()) std::printf("%s: %f\n", m.name.c_str(), m.mean);
    std::printf("vmaf-exact %s (libvmaf %s)\n", VMAF_EXACT_VERSION, std::string(vmafx::kLibvmafVersion).c_str());
  } catch (const vmafx::Error& e) {
    std::fprintf(stderr, "score: %s error: %s\n", vmafx::kind_name(e.kind()), e.what());
    return 1;
  }
  return 0;
}
