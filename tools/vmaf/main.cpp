// SPDX-License-Identifier: BSD-3-Clause
// vmaf: libvmaf-compatible command line front end of vmaf-exact.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "vmaf_exact/vmaf_exact.hpp"

namespace vmafx {
namespace {

struct Settings {
  std::string ref_path;
  std::vector<std::string> dis_paths;
  unsigned width = 0, height = 0, bitdepth = 0;
  std::string pix_fmt;
  SessionConfig session;  // models, features, threads, subsample, backend, gpu, no_prediction
  std::string output_path;
  OutputFormat output_fmt = OutputFormat::kXml;
  unsigned frame_cnt = 0;
  unsigned frame_skip_ref = 0, frame_skip_dist = 0;
  std::string precision;
  bool quiet = false;
  // Compressed input (FFmpeg's libraries) and frame pairing.
  int ref_stream = 0, dis_stream = 0;
  std::string hwdec;
  int decode_segments = 0;  // decoders at once on segments of one compressed clip (0/1: one)
  std::string sync = "index";
  bool shortest = false;
  bool progress = false;     // a progress line even when stderr is not a terminal
  bool decode_only = false;  // read (decode) and pair the clips, score nothing: the input's own rate
  std::string scale;         // libswscale flags for renditions of another format ("": the default)
  int sync_window = 30;      // --sync auto looks this many frames either way
  std::string summary_path;  // the ladder's summary table as CSV or JSON
  // The HTML report (vmaf_exact/html.hpp) and pooled percentiles in the reports.
  std::string html_path, percentiles;
  unsigned html_worst = 6;
};

ChromaFormat parse_pix_fmt(const std::string& s) {
  if (s == "420") return ChromaFormat::k420;
  if (s == "422") return ChromaFormat::k422;
  if (s == "444") return ChromaFormat::k444;
  throw Error("-p/--pixel_format " + s + ": expected 420, 422 or 444");
}

// The progress line: frames, speed, and the time left when the length is known.
class Progress {
 public:
  Progress(bool on, std::uint64_t total) : on_(on), tty_(isatty(fileno(stderr))), total_(total) {}
  void frame(unsigned n) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(tty_ ? 250 : 5000) && n != 1) return;
    last_ = now;
    print(n, false);
  }
  void done(unsigned n, double fps) {
    if (!on_) return;
    fps_ = fps;
    print(n, true);
  }

 private:
  void print(unsigned n, bool final) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    const double fps = final ? fps_ : (secs > 0 ? n / secs : 0.0);
    char line[160];
    int len = std::snprintf(line, sizeof line, "%u", n);
    if (total_ && !final) len += std::snprintf(line + len, sizeof line - len, "/%llu", (unsigned long long)total_);
    len += std::snprintf(line + len, sizeof line - len, " frames %.2f FPS", fps);
    if (total_ > n && fps > 0 && !final) {
      const unsigned long long left = (unsigned long long)((total_ - n) / fps + 0.5);
      std::snprintf(line + len, sizeof line - len, ", ETA %llu:%02llu", left / 60, left % 60);
    }
    if (tty_)
      std::fprintf(stderr, "\r%s\033[K%s", line, final ? "\n" : "");
    else
      std::fprintf(stderr, "%s\n", line);
  }
  bool on_, tty_;
  std::uint64_t total_;
  double fps_ = 0;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now(), last_{};
};

// What the options say about reading the clips, shared by one run and a ladder.
struct Inputs {
  std::optional<RawFormat> raw;
  Precision precision;
  FrameSource::Options::Sync sync = FrameSource::Options::Sync::kIndex;
  bool sync_auto = false;
  std::string hwdec;
  int decode_segments = 0;
  std::vector<Percentile> percentiles;
};

Inputs parse_inputs(const Settings& s) {
  Inputs in;
  const bool raw_args = s.width || s.height || s.bitdepth || !s.pix_fmt.empty();
  if (raw_args) {
    if (!s.width || !s.height || !s.bitdepth || s.pix_fmt.empty())
      throw Error("raw .yuv input needs all of -w/--width, -h/--height, -p/--pixel_format and -b/--bitdepth");
    if (s.bitdepth < 8 || s.bitdepth > 16)
      throw Error("-b/--bitdepth " + std::to_string(s.bitdepth) + ": expected 8 to 16");
    in.raw = RawFormat{int(s.width), int(s.height), parse_pix_fmt(s.pix_fmt), int(s.bitdepth)};
  }
  if (!s.precision.empty()) {
    if (s.precision == "max") {
      in.precision.digits = 17;
    } else {
      char* end = nullptr;
      long d = std::strtol(s.precision.c_str(), &end, 10);
      if (*end || d < 1 || d > 17) throw Error("--precision " + s.precision + ": expected 1..17 or max");
      in.precision.digits = int(d);
    }
  }
  if (!s.percentiles.empty()) {
    try {
      in.percentiles = parse_percentiles(s.percentiles);
    } catch (const Error& e) {
      throw Error("--percentiles " + s.percentiles + ": " + e.what());
    }
  }
  if (s.sync == "pts")
    in.sync = FrameSource::Options::Sync::kPts;
  else if (s.sync == "auto")
    in.sync_auto = true;
  else if (s.sync != "index")
    throw Error("--sync " + s.sync + ": expected index, pts or auto");
  if (s.sync_window < 0 || s.sync_window > 1000)
    throw Error("--sync-window " + std::to_string(s.sync_window) + ": expected 0 to 1000");
  if (!s.hwdec.empty() && s.hwdec != "cuda" && s.hwdec != "none")
    throw Error("--hwdec " + s.hwdec + ": expected cuda or none");
  if (s.ref_stream < 0 || s.dis_stream < 0) throw Error("--ref-stream/--dis-stream: expected 0 or more");
  if (s.decode_segments < 0 || s.decode_segments > 64)
    throw Error("--decode-segments " + std::to_string(s.decode_segments) + ": expected 0 to 64");
  in.decode_segments = s.decode_segments;
  if (s.dis_paths.size() > 1) {
    if (in.sync == FrameSource::Options::Sync::kPts)
      throw Error("--sync pts pairs one distorted clip at a time: give one -d (or --sync index/auto for a ladder)");
    if (s.decode_only) throw Error("--decode-only measures one pair of clips: give one -d");
    if (s.output_path == "-") throw Error("-o -: with several -d, -o names a directory for the reports");
  }
  // NVDEC is the default decoder of compressed input with --backend cuda
  // (its frames then stay on the GPU); --hwdec none decodes on the CPU.
  in.hwdec = s.hwdec == "none" ? "" : s.hwdec;
  if (s.hwdec.empty() && s.session.backend == "cuda") in.hwdec = "cuda";
  return in;
}

// --sync auto: the offset of `dis` against the reference, from readers of
// their own (decoded on the CPU), printed unless quiet.
int find_offset(const Settings& s, const Inputs& in, const std::string& dis_path) {
  for (const std::string* p : {&s.ref_path, &dis_path}) {
    struct stat st {};
    if (stat(p->c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      throw Error(*p + ": --sync auto reads the first frames twice, so it needs a regular file (not a pipe)");
  }
  auto ref = open_video(s.ref_path, in.raw, {.stream = s.ref_stream});
  auto dis = open_video(dis_path, in.raw, {.stream = s.dis_stream});
  const SyncResult r = find_sync_offset(*ref, *dis, s.sync_window);
  if (!s.quiet) {
    std::fprintf(stderr, "vmaf: %s: sync offset %+d (%s; mean luma difference %.3f, next best %+d: %.3f)\n",
                 dis_path.c_str(), r.offset,
                 r.offset > 0   ? ("its first " + std::to_string(r.offset) + " frames are dropped").c_str()
                 : r.offset < 0 ? ("the reference's first " + std::to_string(-r.offset) + " frames are dropped").c_str()
                                : "frames pair as they are",
                 r.best_cost, r.second_offset, r.second_cost);
  }
  return r.offset;
}

std::unique_ptr<Session> make_session(const Settings& s, const PictureFormat& fmt, bool announce) {
  // auto is the default; only an explicit --backend auto explains why a GPU
  // was not used (no device, a CPU OpenCL device): the bits are the same.
  const bool explicit_backend = !s.session.backend.empty();
  SessionConfig cfg = s.session;
  if (cfg.backend.empty()) cfg.backend = "auto";
  auto session = std::make_unique<Session>(fmt, cfg);
  if (announce && !s.quiet) {
    if (explicit_backend)
      for (const std::string& n : session->notices()) std::fprintf(stderr, "vmaf: notice: %s\n", n.c_str());
    if (const std::string b = session->backend_description(); !b.empty()) std::fprintf(stderr, "vmaf: %s\n", b.c_str());
  }
  return session;
}

void print_notice(const Settings& s, const std::string& n) {
  if (!s.quiet && !n.empty()) std::fprintf(stderr, "vmaf: notice: %s\n", n.c_str());
}

ReportInfo report_info(const Settings& s, const Inputs& in, const PictureFormat& fmt, unsigned n, double secs) {
  ReportInfo info;
  info.frames = n;
  info.subsample = s.session.subsample;
  info.width = fmt.width;
  info.height = fmt.height;
  info.fps = secs > 0 ? n / secs : 0.0;
  info.precision = in.precision;
  info.percentiles = in.percentiles;
  return info;
}

// --html: the page of one run or of a ladder (vmaf_exact/html.hpp). The worst
// frames' thumbnails read the clips again on the CPU, each rendition with
// its skips and sync offset and scaled as it was scored.
struct HtmlRung {
  std::string dis_path;
  unsigned skip_ref = 0, skip_dis = 0;
};
void save_html(const Settings& s, const Inputs& in, const std::string& ref_desc, const Session& session,
               const std::vector<HtmlRendition>& renditions, const std::vector<HtmlRung>& rungs) {
  HtmlRunInfo run{.reference = s.ref_path,
                  .reference_description = ref_desc,
                  .model_options = s.session.models,
                  .features = s.session.features,
                  .backend = session.backend_description()};
  for (const ModelSummary& m : session.summaries()) run.models.push_back(m.name);
  if (run.model_options.empty() && !s.session.no_prediction) run.model_options = {"version=vmaf_v0.6.1"};
  if (s.session.subsample > 1) run.options.push_back("subsample " + std::to_string(s.session.subsample));
  if (s.frame_skip_ref || s.frame_skip_dist)
    run.options.push_back("frames skipped: reference " + std::to_string(s.frame_skip_ref) + ", distorted " +
                          std::to_string(s.frame_skip_dist));
  if (in.sync == FrameSource::Options::Sync::kPts) run.options.push_back("frames paired by presentation time");
  HtmlOptions opts{.worst = s.html_worst};
  opts.reopen = [&](std::size_t r) -> std::pair<std::unique_ptr<VideoReader>, std::unique_ptr<VideoReader>> {
    const HtmlRung& g = rungs[r];
    struct stat st {};
    for (const std::string* p : {&s.ref_path, &g.dis_path})
      if (stat(p->c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    if (in.sync == FrameSource::Options::Sync::kPts) throw Error("frames paired by presentation time are not re-read");
    auto ref = open_video(s.ref_path, in.raw, {.stream = s.ref_stream});
    auto dis = open_rendition(g.dis_path, *ref, in.raw, {.stream = s.dis_stream}, s.scale);
    Picture a(ref->format()), b(dis->format());
    for (unsigned i = 0; i < g.skip_ref; ++i) ref->skip(a);
    for (unsigned i = 0; i < g.skip_dis; ++i) dis->skip(b);
    return {std::move(ref), std::move(dis)};
  };
  save_html_report(s.html_path, renditions, run, opts);
}

// "+3 (the distorted clip's first 3 frames dropped)" for --sync auto's offset; "" for 0.
std::string offset_text(int off) {
  if (off == 0) return {};
  const std::string n = std::to_string(off > 0 ? off : -off);
  return (off > 0 ? "+" : "-") + n + (off > 0 ? " (the distorted clip's first " : " (the reference's first ") + n +
         " frames dropped)";
}

int run_one(const Settings& s, const Inputs& in) {
  const std::string& dis_path = s.dis_paths[0];
  unsigned skip_ref = s.frame_skip_ref, skip_dis = s.frame_skip_dist;
  int off = 0;
  if (in.sync_auto) {
    off = find_offset(s, in, dis_path);
    (off > 0 ? skip_dis : skip_ref) += unsigned(off > 0 ? off : -off);
  }
  // Inputs first: a bad file is the most common mistake.
  auto ref = open_video(s.ref_path, in.raw,
                        {.stream = s.ref_stream,
                         .hwdec = in.hwdec,
                         .hwdec_device = s.session.gpu,
                         .decode_segments = in.decode_segments});
  std::string scaled;
  auto dis = open_rendition(
      dis_path, *ref, in.raw,
      {.stream = s.dis_stream, .hwdec = in.hwdec, .hwdec_device = s.session.gpu, .decode_segments = in.decode_segments},
      s.scale, &scaled);
  const PictureFormat fmt = ref->format();
  for (const VideoReader* r : {ref.get(), dis.get()}) print_notice(s, r->notice());
  print_notice(s, scaled);

  auto session_ptr = make_session(s, fmt, true);
  Session& session = *session_ptr;
  // Frames: both clips read ahead on their own threads.
  FrameSource source(*ref, *dis, session,
                     {.skip_ref = skip_ref,
                      .skip_dis = skip_dis,
                      .max_frames = s.frame_cnt,
                      .sync = in.sync,
                      .shortest = s.shortest,
                      .decode_only = s.decode_only});
  // The expected length, for the time left: the distorted clip's (the
  // shorter one's when pairing by index), after the skips and --frame_cnt.
  auto left = [](std::uint64_t hint, unsigned skip) -> std::uint64_t { return hint > skip ? hint - skip : 0; };
  std::uint64_t total = left(dis->frame_count_hint(), skip_dis);
  if (in.sync == FrameSource::Options::Sync::kIndex && total)
    total = std::min(total, left(ref->frame_count_hint(), skip_ref));
  if (s.frame_cnt && total) total = std::min<std::uint64_t>(total, s.frame_cnt);
  Progress progress(!s.quiet && (s.progress || isatty(fileno(stderr))), total);
  const auto t0 = std::chrono::steady_clock::now();
  unsigned n = 0;
  std::shared_ptr<Picture> a, b;
  if (s.decode_only) {
    while (source.next(a, b)) {
      a.reset();
      b.reset();
      progress.frame(++n);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress.done(n, secs > 0 ? n / secs : 0.0);
    std::fprintf(stderr, "vmaf: decode only: %u frame pairs in %.3f s, %.2f pairs/s\n", n, secs,
                 secs > 0 ? n / secs : 0.0);
    if (stats_requested()) std::fprintf(stderr, "%s", source.timing_report().c_str());
    return 0;
  }
  while (source.next(a, b)) {
    session.push(std::move(a), std::move(b));
    progress.frame(++n);
  }
  if (n == 0) throw Error(s.ref_path + ": no frames to score");
  const double t_read = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  session.finish();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (stats_requested()) {
    std::fprintf(stderr, "vmaf: %u frames in %.3f s (last frame pushed at %.3f s), %u worker threads\n%s%s", n, secs,
                 t_read, session.threads(), source.timing_report().c_str(), session.timing_report().c_str());
  }
  const ReportInfo info = report_info(s, in, fmt, n, secs);
  progress.done(n, info.fps);
  if (!s.output_path.empty()) save_report(s.output_path, s.output_fmt, session.scores(), info);
  if (!s.html_path.empty())
    save_html(s, in, describe_video(*ref), session,
              {{.label = dis_path,
                .scores = &session.scores(),
                .info = info,
                .description = describe_video(*dis),
                .sync_offset = offset_text(off),
                .scaling = scaled}},
              {{dis_path, skip_ref, skip_dis}});

  if (!s.quiet || s.output_path.empty()) {
    for (const ModelSummary& m : session.summaries()) {
      if (m.bootstrap)
        std::fprintf(stderr, "%s: %f, ci.p95: [%f, %f], stddev: %f\n", m.name.c_str(), m.mean, m.ci_lo, m.ci_hi,
                     m.stddev);
      else
        std::fprintf(stderr, "%s: %f\n", m.name.c_str(), m.mean);
    }
  }
  return 0;
}

const char* extension(OutputFormat f) {
  switch (f) {
    case OutputFormat::kJson: return ".json";
    case OutputFormat::kCsv: return ".csv";
    case OutputFormat::kSub: return ".sub";
    default: return ".xml";
  }
}

// The report of a rendition in the ladder's output directory: its file name
// without the extension, and the report's.
std::string report_path(const std::string& dir, const std::string& dis_path, OutputFormat f) {
  std::filesystem::path p(dis_path);
  return (std::filesystem::path(dir) / p.stem()).string() + extension(f);
}

SummaryFormat summary_format(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".csv") return SummaryFormat::kCsv;
  if (ext == ".json") return SummaryFormat::kJson;
  throw Error("--summary " + path + ": expected a file name ending in .csv or .json");
}

// Several -d: the reference is read once and every rendition scored against
// it in one pass; a failing rendition is reported, the others still scored.
int run_ladder(const Settings& s, const Inputs& in) {
  const std::size_t n = s.dis_paths.size();
  std::optional<SummaryFormat> sum_fmt;
  if (!s.summary_path.empty()) sum_fmt = summary_format(s.summary_path);
  // Reports: one per rendition in the -o directory; two renditions of the
  // same name would overwrite each other.
  std::vector<std::string> out(n);
  if (!s.output_path.empty()) {
    for (std::size_t k = 0; k < n; ++k) {
      out[k] = report_path(s.output_path, s.dis_paths[k], s.output_fmt);
      for (std::size_t j = 0; j < k; ++j)
        if (out[j] == out[k])
          throw Error(s.dis_paths[j] + " and " + s.dis_paths[k] + " would both write " + out[k] +
                      " (the reports are named after the renditions' files)");
    }
    std::error_code ec;
    std::filesystem::create_directories(s.output_path, ec);
    if (!std::filesystem::is_directory(s.output_path))
      throw Error(s.output_path + ": with several -d, -o names a directory, and this one cannot be made" +
                      (ec ? ": " + ec.message() : std::string()),
                  Error::Kind::kOutput);
  }
  auto ref = open_video(s.ref_path, in.raw,
                        {.stream = s.ref_stream,
                         .hwdec = in.hwdec,
                         .hwdec_device = s.session.gpu,
                         .decode_segments = in.decode_segments});
  const PictureFormat fmt = ref->format();
  print_notice(s, ref->notice());

  std::vector<LadderRow> rows(n);
  std::vector<std::unique_ptr<VideoReader>> dis(n);
  std::vector<std::unique_ptr<Session>> sessions(n);
  std::vector<LadderSource::Rendition> rungs;
  std::vector<std::size_t> rung_of;  // rendition index of each rung
  std::vector<std::string> scaled_notes(n);
  auto failed = [&](std::size_t k, const std::string& why) {
    rows[k].error = why;
    std::fprintf(stderr, "vmaf: error: %s\n", why.c_str());
  };
  for (std::size_t k = 0; k < n; ++k) {
    rows[k].path = s.dis_paths[k];
    try {
      if (in.sync_auto) rows[k].offset = find_offset(s, in, s.dis_paths[k]);
      std::string scaled;
      dis[k] = open_rendition(s.dis_paths[k], *ref, in.raw,
                              {.stream = s.dis_stream,
                               .hwdec = in.hwdec,
                               .hwdec_device = s.session.gpu,
                               .decode_segments = in.decode_segments},
                              s.scale, &scaled);
      print_notice(s, dis[k]->notice());
      print_notice(s, scaled);
      scaled_notes[k] = scaled;
    } catch (const Error& e) {
      failed(k, e.what());
      continue;
    }
    rows[k].format = describe_video(*dis[k]);
    rows[k].width = dis[k]->source_format().width;
    rows[k].height = dis[k]->source_format().height;
    // The models, features and backend are the same for every rendition: a
    // bad one stops the whole run.
    sessions[k] = make_session(s, fmt, rungs.empty());
    rungs.push_back({dis[k].get(), sessions[k].get(), rows[k].offset});
    rung_of.push_back(k);
  }
  unsigned pass_frames = 0;
  double secs = 0;
  if (!rungs.empty()) {
    std::uint64_t total = ref->frame_count_hint();
    total = total > s.frame_skip_ref ? total - s.frame_skip_ref : 0;
    if (s.frame_cnt && total) total = std::min<std::uint64_t>(total, s.frame_cnt);
    Progress progress(!s.quiet && (s.progress || isatty(fileno(stderr))), total);
    const auto t0 = std::chrono::steady_clock::now();
    LadderSource ladder(*ref, rungs,
                        {.skip_ref = s.frame_skip_ref,
                         .skip_dis = s.frame_skip_dist,
                         .max_frames = s.frame_cnt,
                         .shortest = s.shortest});
    const auto outcome = ladder.run([&](unsigned i) {
      pass_frames = i;
      progress.frame(i);
    });
    for (std::size_t r = 0; r < rungs.size(); ++r) {
      const std::size_t k = rung_of[r];
      rows[k].frames = outcome[r].frames;
      if (!outcome[r].error.empty()) {
        std::string what = outcome[r].error;
        if (what.size() > 9 && what.compare(what.size() - 9, 9, " has more") == 0)
          what += " (use --shortest or --frame_cnt to score a prefix)";
        failed(k, what);
        continue;
      }
      if (outcome[r].frames == 0) {
        failed(k, s.dis_paths[k] + ": no frames to score");
        continue;
      }
      try {
        sessions[k]->finish();
      } catch (const Error& e) {
        failed(k, s.dis_paths[k] + ": " + e.what());
      }
    }
    secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress.done(pass_frames, secs > 0 ? pass_frames / secs : 0.0);
  }
  for (std::size_t r = 0; r < rungs.size(); ++r) {
    const std::size_t k = rung_of[r];
    if (!rows[k].error.empty()) continue;
    const Session& ses = *sessions[k];
    if (stats_requested())
      std::fprintf(stderr, "vmaf: %s: %u frames, %u worker threads\n%s", s.dis_paths[k].c_str(), rows[k].frames,
                   ses.threads(), ses.timing_report().c_str());
    for (const ModelSummary& m : ses.summaries())
      if (const FeatureCollector::Series* series = ses.scores().find(m.name))
        if (auto st = score_stats(*series, rows[k].frames, s.session.subsample))
          rows[k].models.push_back({m.name, *st});
    if (!out[k].empty()) {
      try {
        save_report(out[k], s.output_fmt, ses.scores(), report_info(s, in, fmt, rows[k].frames, secs));
      } catch (const Error& e) {
        failed(k, e.what());
      }
    }
  }
  std::string html_error;
  if (!s.html_path.empty()) {
    std::vector<HtmlRendition> hr;
    std::vector<HtmlRung> hg;
    for (std::size_t r = 0; r < rungs.size(); ++r) {
      const std::size_t k = rung_of[r];
      if (!rows[k].error.empty()) continue;
      const int off = rows[k].offset;
      hr.push_back({.label = s.dis_paths[k],
                    .scores = &sessions[k]->scores(),
                    .info = report_info(s, in, fmt, rows[k].frames, secs),
                    .description = rows[k].format,
                    .sync_offset = offset_text(off),
                    .scaling = scaled_notes[k]});
      hg.push_back({s.dis_paths[k], s.frame_skip_ref + unsigned(off < 0 ? -off : 0),
                    s.frame_skip_dist + unsigned(off > 0 ? off : 0)});
    }
    try {
      if (!hr.empty()) save_html(s, in, describe_video(*ref), *sessions[rung_of[0]], hr, hg);
    } catch (const Error& e) {
      html_error = e.what();
    }
  }
  // Sessions share the first one's reference pictures: it goes last.
  for (std::size_t k = n; k-- > 0;) sessions[k].reset();
  std::fputs(summary_text(SummaryFormat::kText, s.ref_path, rows, in.precision).c_str(), stdout);
  std::fflush(stdout);
  if (sum_fmt)
    save_output(s.summary_path, [&](std::FILE* f) {
      const std::string t = summary_text(*sum_fmt, s.ref_path, rows, in.precision);
      if (std::fwrite(t.data(), 1, t.size(), f) != t.size()) throw Error("write failed", Error::Kind::kOutput);
    });
  if (!html_error.empty()) {
    std::fprintf(stderr, "vmaf: error: %s\n", html_error.c_str());
    return 1;
  }
  std::size_t bad = 0;
  for (const LadderRow& r : rows) bad += !r.error.empty();
  if (bad) {
    std::fprintf(stderr, "vmaf: error: %zu of %zu renditions failed\n", bad, n);
    return 1;
  }
  return 0;
}

int run(const Settings& s) {
  const Inputs in = parse_inputs(s);
  return s.dis_paths.size() == 1 ? run_one(s, in) : run_ladder(s, in);
}

}  // namespace
}  // namespace vmafx

int main(int argc, char** argv) {
  using namespace vmafx;
  Settings s;
  CLI::App app{"vmaf-exact: VMAF and companion metrics, bit-exact with libvmaf 3.2.0"};
  app.set_help_flag("--help", "Print this help and exit");
  app.get_formatter()->column_width(34);
  bool xml = false, json = false, csv = false, sub = false;
  app.add_option("-r,--reference", s.ref_path,
                 "Reference clip (.y4m, raw .yuv with -w -h -p -b, or mp4/mkv/webm/ivf... when built with FFmpeg)");
  app.add_option("-d,--distorted", s.dis_paths,
                 "Distorted clip (.y4m, raw .yuv with -w -h -p -b, or mp4/mkv/webm/ivf... when built with FFmpeg); "
                 "repeat for a ladder: every rendition scored against the reference, read once");
  app.add_option("-w,--width", s.width, "Width of raw .yuv input");
  app.add_option("-h,--height", s.height, "Height of raw .yuv input");
  app.add_option("-p,--pixel_format", s.pix_fmt, "Chroma format of raw .yuv input: 420, 422 or 444");
  app.add_option("-b,--bitdepth", s.bitdepth, "Bit depth of raw .yuv input: 8 to 16");
  app.add_option("-m,--model", s.session.models,
                 "Model: version=NAME or path=FILE, with :name=, :disable_clip, :enable_transform, "
                 ":extractor.option=value (repeatable; default version=vmaf_v0.6.1)");
  app.add_option("--feature", s.session.features, "Extra feature extractor: NAME[=opt=val:opt=val] (repeatable)");
  app.add_option("-o,--output", s.output_path,
                 "Output file ('-' for standard output); with several -d, a directory for one report per rendition");
  app.add_flag("--xml", xml, "Write XML (default)");
  app.add_flag("--json", json, "Write JSON");
  app.add_flag("--csv", csv, "Write CSV");
  app.add_flag("--sub", sub, "Write subtitles (MicroDVD)");
  app.add_option("--threads", s.session.threads,
                 "Worker threads (default: what is fastest here; the output is identical for every count)");
  app.add_option("--subsample", s.session.subsample, "Score every N-th frame");
  app.add_option("--frame_cnt", s.frame_cnt, "Score at most N frames");
  app.add_option("--frame_skip_ref,--ref-skip", s.frame_skip_ref, "Skip the first N reference frames");
  app.add_option("--frame_skip_dist,--dis-skip", s.frame_skip_dist, "Skip the first N distorted frames");
  app.add_option("--ref-stream", s.ref_stream, "Video stream of a compressed reference (0: the first)");
  app.add_option("--dis-stream", s.dis_stream, "Video stream of a compressed distorted clip (0: the first)");
  app.add_option("--sync", s.sync,
                 "Frame pairing: index (default: frame i with frame i), pts (each distorted frame with the "
                 "reference frame nearest in presentation time, from each clip's start) or auto (a constant "
                 "frame offset found from the first frames' luma)");
  app.add_option("--sync-window", s.sync_window, "--sync auto tries offsets from -N to +N frames (default 30)");
  app.add_option("--scale", s.scale,
                 "libswscale flags for a distorted clip of another size or format, converted to the reference's "
                 "as ffmpeg's scale filter does (e.g. bicubic, lanczos; default: a bicubic independent of the "
                 "CPU's SIMD, see docs/input.md)");
  app.add_option("--summary", s.summary_path, "With several -d: the summary table as FILE.csv or FILE.json");
  app.add_flag("--shortest", s.shortest, "Stop at the end of the shorter clip instead of failing");
  app.add_option("--hwdec", s.hwdec,
                 "Decode compressed input on the GPU: cuda (NVDEC; the default with --backend cuda, frames then stay "
                 "on the GPU) or none (the default otherwise)");
  app.add_option("--decode-segments", s.decode_segments,
                 "Decode each compressed clip as N segments at once (split at keyframes that start a closed "
                 "group; N NVDEC sessions with --hwdec cuda); the frames are the same as with one decoder "
                 "(default 0: one decoder)");
  app.add_flag("--progress", s.progress, "Print the progress line even when stderr is not a terminal");
  app.add_flag("--decode-only", s.decode_only,
               "Read (decode) and pair both clips, score nothing, print the rate (input speed measurements)");
  app.add_option("--html", s.html_path,
                 "Also write a self-contained HTML report (chart, pooled values, percentiles, worst frames; with "
                 "several -d, every rendition)");
  app.add_option("--html-worst", s.html_worst, "Worst frames shown with thumbnails in the HTML report (default 6)");
  app.add_option("--percentiles", s.percentiles,
                 "Add these pooled percentiles (nearest rank) to the report: e.g. 1,5 (0 to 100, 3 decimals)");
  app.add_option("--precision", s.precision,
                 "Digits of scores: N significant digits (%.Ng), or max (%.17g, exact); default as libvmaf");
  s.session.backend = "";
  app.add_option("--backend", s.session.backend,
                 "auto (default: a GPU's twins where one works, the CPU otherwise), cpu, cuda or opencl");
  app.add_option("--gpu", s.session.gpu, "Device index for --backend cuda/opencl (see --list-devices)");
  app.add_option("--libvmaf-cpu", s.session.libvmaf_cpu,
                 "Which libvmaf to equal for float_adm and the vmaf_float_* models, whose division differs by "
                 "processor: auto (default: this machine's), intel, amd (x86 builds) or generic (builds without SSE2)");
  bool list = false, list_features = false;
  app.add_flag("--list-devices", list, "List the GPU devices of every built backend and exit");
  app.add_flag("--list-features", list_features,
               "List every feature extractor (outputs, options, backends with a twin) and exit");
  app.add_flag("-n,--no_prediction", s.session.no_prediction, "Extract features only, no model");
  app.add_flag("-q,--quiet", s.quiet, "No progress line and no score summary when writing a file");
  unsigned cpumask = 0, gpumask = 0;
  app.add_option("-c,--cpumask", cpumask, "Accepted for compatibility; the reference path is always plain C++");
  app.add_option("--gpumask", gpumask, "Accepted for compatibility");
  bool version = false;
  app.add_flag("-v,--version", version, "Print the version and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "vmaf: %s (see --help)\n", e.what());
    return 2;
  }
  if (list_features) {
    std::fputs(describe_features().c_str(), stdout);
    return 0;
  }
  if (list) {
    try {
      auto devs = list_devices();
      if (devs.empty()) std::printf("no GPU devices (backends built: %zu)\n", available_backends().size());
      for (const auto& d : devs) std::printf("%s\n", d.c_str());
    } catch (const Error& e) {
      std::fprintf(stderr, "vmaf: error: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  if (version) {
    std::printf("vmaf-exact %s (libvmaf %s compatible)\n", VMAF_EXACT_VERSION, std::string(kLibvmafVersion).c_str());
    return 0;
  }
  if (s.ref_path.empty() || s.dis_paths.empty()) {
    std::fprintf(stderr, "vmaf: %s is required (see --help)\n",
                 s.ref_path.empty() ? "-r/--reference" : "-d/--distorted");
    return 2;
  }
  if (json) s.output_fmt = OutputFormat::kJson;
  if (csv) s.output_fmt = OutputFormat::kCsv;
  if (sub) s.output_fmt = OutputFormat::kSub;
  if (xml) s.output_fmt = OutputFormat::kXml;
  try {
    return run(s);
  } catch (const Error& e) {
    if (isatty(fileno(stderr))) std::fputc('\n', stderr);  // end a progress line
    std::string what = e.what();
    if (what.size() > 9 && what.compare(what.size() - 9, 9, " has more") == 0)
      what += " (use --shortest or --frame_cnt to score a prefix)";
    std::fprintf(stderr, "vmaf: error: %s\n", what.c_str());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "vmaf: error: out of memory\n");
    return 1;
  }
}
