// SPDX-License-Identifier: BSD-3-Clause
// Compressed input through FFmpeg's libraries, end to end through the CLI.
// Every clip is made by the test with Debian's ffmpeg CLI (small: 64x48, 8 to
// 20 frames). Exactness: a compressed clip scores exactly (same report, every
// digit of --precision max) as the same frames decoded by ffmpeg to Y4M.
// Pairing by time: lossless clips whose right pairs have PSNR 60 dB (the 8-bit
// cap) and whose wrong pairs do not. Bad input: one line, non-zero exit, no
// report.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

int shell(const std::string& cmd) {
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

// Clips are cached (by their ffmpeg command) in the build tree, shared by the
// test processes: made under a temporary name and renamed into place.
fs::path clip_dir() {
  static const fs::path d = [] {
    fs::path p = fs::path(VMAFX_LIBAV_CLIP_DIR);
    fs::create_directories(p);
    return p;
  }();
  return d;
}

// Runs `ffmpeg -y -hide_banner -loglevel error <args> OUT` once; returns OUT.
std::string ffmpeg(const std::string& name, const std::string& args) {
  const std::string key = std::to_string(std::hash<std::string>{}(args));
  const fs::path out = clip_dir() / (key + "-" + name);
  if (fs::exists(out)) return out.string();
  const fs::path tmp = clip_dir() / (key + ".tmp" + std::to_string(::getpid()) + "-" + name);
  const std::string cmd =
      std::string(VMAFX_FFMPEG) + " -nostdin -y -hide_banner -loglevel error " + args + " " + quote(tmp.string());
  EXPECT_EQ(shell(cmd), 0) << cmd;
  fs::rename(tmp, out);
  return out.string();
}

// The source clips: ffmpeg's moving test pattern with temporal noise (no two
// frames alike), 64x48 at 25 fps.
std::string source(const std::string& pix_fmt, int frames) {
  return ffmpeg("src-" + pix_fmt + "-" + std::to_string(frames) + ".y4m",
                "-f lavfi -i testsrc2=size=64x48:rate=25,noise=alls=20:allf=t -frames:v " + std::to_string(frames) +
                    " -pix_fmt " + pix_fmt + " -strict -1");
}

// `in` decoded by ffmpeg to Y4M (samples unchanged: same pixel format).
std::string decoded(const std::string& in) {
  return ffmpeg(fs::path(in).filename().string() + ".y4m", "-i " + quote(in) + " -f yuv4mpegpipe -strict -1");
}

struct Result {
  int status;
  std::string err;
  std::string report;  // the -o file, when there is one
};

Result vmaf(const std::vector<std::string>& args, const std::string& report = "") {
  std::string tag = std::to_string(::getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(tag.begin(), tag.end(), '/', '_');
  const fs::path err = fs::temp_directory_path() / ("vmafx_libav_err_" + tag);
  std::string cmd = quote(VMAFX_CLI_PATH);
  for (const auto& a : args) cmd += " " + quote(a);
  if (!report.empty()) fs::remove(report);
  cmd += " >/dev/null 2>" + quote(err.string());
  Result r{shell(cmd), slurp(err), ""};
  fs::remove(err);
  if (!report.empty() && fs::exists(report)) r.report = slurp(report);
  return r;
}

std::string tmp_report(const std::string& name) {
  return (fs::temp_directory_path() / ("vmafx_libav_" + std::to_string(::getpid()) + "_" + name)).string();
}

// The report without its fps line (the one value that is a measurement).
std::string without_fps(const std::string& report) {
  std::istringstream in(report);
  std::string line, out;
  while (std::getline(in, line))
    if (line.find("\"fps\"") == std::string::npos) out += line + "\n";
  return out;
}

// Scores with a JSON report at full precision; fails the test on an error.
std::string score(std::vector<std::string> args) {
  const std::string out = tmp_report("score.json");
  args.insert(args.end(), {"--json", "--precision", "max", "-q", "-o", out});
  Result r = vmaf(args, out);
  EXPECT_EQ(r.status, 0) << r.err;
  fs::remove(out);
  return r.report;
}

// psnr_y of every frame of a JSON report.
std::vector<double> psnr_y(const std::string& report) {
  std::vector<double> v;
  const auto j = nlohmann::json::parse(report);
  for (const auto& f : j.at("frames")) v.push_back(f.at("metrics").at("psnr_y").get<double>());
  return v;
}

std::vector<double> psnr_y_of(std::vector<std::string> args) {
  args.insert(args.end(), {"-n", "--feature", "psnr"});
  return psnr_y(score(args));
}

// ---- exactness: compressed == the same frames from Y4M ----

struct Codec {
  const char* name;     // test name
  const char* pix_fmt;  // source and coded format
  const char* args;     // encoder options
  const char* file;     // output name (its extension picks the container)
};

class Exact : public ::testing::TestWithParam<Codec> {};

TEST_P(Exact, SameScoresAsDecodedY4m) {
  const Codec& c = GetParam();
  const std::string src = source(c.pix_fmt, 8);
  const std::string enc = ffmpeg(c.file, "-i " + quote(src) + " -pix_fmt " + c.pix_fmt + " " + c.args);
  const std::string y4m = decoded(enc);
  const std::vector<std::string> extra = {"--feature", "psnr", "--feature", "float_ssim"};
  auto with = [&](std::vector<std::string> a) {
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  // As the distorted clip and as the reference.
  const std::string as_dis = score(with({"-r", src, "-d", enc}));
  EXPECT_EQ(without_fps(as_dis), without_fps(score(with({"-r", src, "-d", y4m}))));
  const std::string as_ref = score(with({"-r", enc, "-d", src}));
  EXPECT_EQ(without_fps(as_ref), without_fps(score(with({"-r", y4m, "-d", src}))));
  // Real values: 8 lossy frames, scores below the lossless cap.
  const std::vector<double> p = psnr_y(as_dis);
  ASSERT_EQ(p.size(), 8u);
  for (double v : p) EXPECT_LT(v, 60.0);
  EXPECT_NE(as_dis.find("\"vmaf\""), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Libav, Exact,
    ::testing::Values(Codec{"x264_mp4_420_8bit", "yuv420p", "-c:v libx264 -bf 2 -crf 32", "x264-420.mp4"},
                      Codec{"x265_mkv_420_10bit", "yuv420p10le", "-c:v libx265 -x265-params log-level=error -crf 32",
                            "x265.mkv"},
                      Codec{"aom_ivf_444_8bit", "yuv444p", "-c:v libaom-av1 -cpu-used 8 -crf 45", "aom-444.ivf"},
                      Codec{"aom_webm_420_10bit", "yuv420p10le", "-c:v libaom-av1 -cpu-used 8 -crf 45", "aom-10.webm"},
                      Codec{"vp9_webm_444_10bit", "yuv444p10le",
                            "-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -crf 40 -b:v 0", "vp9-444-10.webm"},
                      Codec{"vp9_ivf_420_8bit", "yuv420p",
                            "-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -crf 40 -b:v 0", "vp9.ivf"},
                      Codec{"x264_mkv_444_10bit", "yuv444p10le", "-c:v libx264 -crf 30", "x264-444-10.mkv"},
                      Codec{"x265_mp4_422_10bit", "yuv422p10le", "-c:v libx265 -x265-params log-level=error -crf 32",
                            "x265-422.mp4"}),
    [](const ::testing::TestParamInfo<Codec>& i) { return std::string(i.param.name); });

// A clip read from a pipe (no seeking) scores as the file does.
TEST(Libav, PipedInput) {
  const std::string src = source("yuv420p", 8);
  const std::string enc = ffmpeg("pipe.mkv", "-i " + quote(src) + " -c:v libx264 -crf 32");
  const std::string out = tmp_report("pipe.json");
  const std::string cmd = "cat " + quote(enc) + " | " + quote(VMAFX_CLI_PATH) + " -r " + quote(src) +
                          " -d /dev/stdin --json --precision max -q -o " + quote(out);
  ASSERT_EQ(shell(cmd), 0);
  EXPECT_EQ(without_fps(slurp(out)), without_fps(score({"-r", src, "-d", enc})));
  fs::remove(out);
}

// --hwdec cuda: NVDEC where there is a device (the GPU machine), otherwise
// CPU decoding with a notice; the scores are the CPU decode's either way.
TEST(Libav, HwdecCudaScoresAsCpuDecode) {
  for (const char* pix : {"yuv420p", "yuv420p10le"}) {
    const std::string src = source(pix, 8);
    const std::string enc =
        ffmpeg(std::string("hw-") + pix + ".mkv",
               "-i " + quote(src) + " -c:v libx265 -x265-params log-level=error -crf 30 -pix_fmt " + pix);
    EXPECT_EQ(without_fps(score({"-r", src, "-d", enc, "--hwdec", "cuda"})),
              without_fps(score({"-r", src, "-d", enc})));
    const Result r = vmaf({"-r", enc, "-d", enc, "-n", "--feature", "psnr", "--hwdec", "cuda", "-o", "/dev/null"});
    EXPECT_EQ(r.status, 0) << r.err;
    if (r.err.find("decoding on the CPU") == std::string::npos)  // a device: NVDEC said so in the format name
      EXPECT_EQ(r.err.find("notice"), std::string::npos) << r.err;
  }
}

// --hwdec none decodes on the CPU (the way to turn off NVDEC, the default
// with --backend cuda); an AV1 clip asked of NVDEC where there is none falls
// back to the CPU decoder (libdav1d) with a notice, same scores.
TEST(Libav, HwdecNoneAndAv1Fallback) {
  const std::string src = source("yuv420p", 8);
  const std::string enc =
      ffmpeg("hw-none.mkv", "-i " + quote(src) + " -c:v libx265 -x265-params log-level=error -crf 30");
  EXPECT_EQ(without_fps(score({"-r", src, "-d", enc, "--hwdec", "none"})), without_fps(score({"-r", src, "-d", enc})));
  const std::string av1 = ffmpeg("hw-av1.ivf", "-i " + quote(src) + " -c:v libaom-av1 -cpu-used 8 -crf 50");
  EXPECT_EQ(without_fps(score({"-r", src, "-d", av1, "--hwdec", "cuda"})), without_fps(score({"-r", src, "-d", av1})));
  const Result r = vmaf({"-r", av1, "-d", av1, "-n", "--feature", "psnr", "--hwdec", "cuda", "-o", "/dev/null"});
  EXPECT_EQ(r.status, 0) << r.err;
  // No device, or a GPU without AV1 NVDEC (Hopper): the CPU decodes, and says so.
  if (r.err.find("notice") != std::string::npos)
    EXPECT_NE(r.err.find("decoding on the CPU"), std::string::npos) << r.err;
}

// --decode-only: the clips are read and paired, nothing is scored.
TEST(Libav, DecodeOnly) {
  const std::string src = source("yuv420p", 8);
  const std::string enc = ffmpeg("dec.webm", "-i " + quote(src) + " -c:v libvpx-vp9 -deadline realtime -cpu-used 8");
  const std::string out = tmp_report("decode-only.json");
  const Result r = vmaf({"-r", src, "-d", enc, "--decode-only", "-o", out}, out);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("vmaf: decode only: 8 frame pairs in "), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

// ---- frame pairing ----

// Lossless 8-bit clips of the 20-frame source: a right pair has PSNR 60.
struct Lossless {
  std::string src = source("yuv420p", 20);
  // 25 fps in mp4 (time base 1/90000), B-frames (reordered, an edit list).
  std::string ref = ffmpeg("ll-ref.mp4", "-i " + quote(src) + " -c:v libx264 -qp 0 -bf 2 -video_track_timescale 90000");
  // Every other frame, 12.5 fps, starting at 1.7 s, in Matroska (1/1000).
  std::string half = ffmpeg("ll-half.mkv", "-i " + quote(src) +
                                               " -vf 'select=not(mod(n\\,2)),setpts=N/12.5/TB' -r 12.5 -c:v libx264 "
                                               "-qp 0 -output_ts_offset 1.7");
  // Frames 5..19 (15), starting at 0, in Matroska.
  std::string cut =
      ffmpeg("ll-cut.mkv", "-i " + quote(src) + " -vf 'select=gte(n\\,5),setpts=N/25/TB' -c:v libx264 -qp 0");
};

bool all_60(const std::vector<double>& v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [](double x) { return x == 60.0; });
}

TEST(LibavSync, PtsPairsShiftedStartsAndTimeBases) {
  Lossless c;
  // Each of the 10 distorted frames with reference frame 2k, whatever the
  // offsets (0 vs 1.7 s) and time bases (1/90000 vs 1/1000).
  const auto p = psnr_y_of({"-r", c.ref, "-d", c.half, "--sync", "pts"});
  EXPECT_EQ(p.size(), 10u);
  EXPECT_TRUE(all_60(p));
  // The Y4M source (F25:1) as reference: the same pairs.
  EXPECT_EQ(psnr_y_of({"-r", c.src, "-d", c.half, "--sync", "pts"}), p);
  // By index the pairs are wrong (frame k with k): a different frame count,
  // and with --shortest, frames 1.. differ.
  const Result r = vmaf({"-r", c.ref, "-d", c.half, "-n", "--feature", "psnr", "-q"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find(c.half + ": ended after 10 frames, but " + c.ref + " has more (use --shortest"),
            std::string::npos)
      << r.err;
  const auto q = psnr_y_of({"-r", c.ref, "-d", c.half, "--shortest"});
  ASSERT_EQ(q.size(), 10u);
  EXPECT_EQ(q[0], 60.0);
  for (std::size_t i = 1; i < q.size(); ++i) EXPECT_LT(q[i], 60.0) << i;
}

TEST(LibavSync, PtsReferenceAtHalfRate) {
  Lossless c;
  // 20 distorted frames on 10 reference frames: frame 2k with reference k,
  // frame 2k+1 halfway between k and k+1 goes with the earlier one.
  const auto p = psnr_y_of({"-r", c.half, "-d", c.ref, "--sync", "pts"});
  ASSERT_EQ(p.size(), 20u);
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (i % 2 == 0)
      EXPECT_EQ(p[i], 60.0) << i;
    else
      EXPECT_LT(p[i], 60.0) << i;
  }
  // The same as the Y4M source paired that way by hand: frame i with 2*(i/2).
  const std::string data = slurp(c.src);
  const std::size_t header = data.find('\n') + 1, frame = 6 + 64 * 48 * 3 / 2;
  ASSERT_EQ(data.size(), header + 20 * frame);
  std::string pairs = data.substr(0, header);
  for (std::size_t i = 0; i < 20; ++i) pairs += data.substr(header + (i / 2 * 2) * frame, frame);
  const std::string paired = (clip_dir() / "ll-pairs.y4m").string();
  std::ofstream(paired, std::ios::binary) << pairs;
  EXPECT_EQ(psnr_y_of({"-r", paired, "-d", c.src}), p);
}

TEST(LibavSync, SkipsAndShortest) {
  Lossless c;
  EXPECT_TRUE(all_60(psnr_y_of({"-r", c.ref, "-d", c.cut, "--ref-skip", "5"})));
  EXPECT_EQ(psnr_y_of({"-r", c.ref, "-d", c.cut, "--ref-skip", "5"}).size(), 15u);
  const auto both = psnr_y_of({"-r", c.ref, "-d", c.cut, "--ref-skip", "7", "--dis-skip", "2"});
  EXPECT_EQ(both.size(), 13u);
  EXPECT_TRUE(all_60(both));
  // By time after the skips: both clips then start with source frame 7.
  EXPECT_EQ(psnr_y_of({"-r", c.ref, "-d", c.cut, "--ref-skip", "7", "--dis-skip", "2", "--sync", "pts"}), both);
  // Without the skip: 15 vs 20 frames is an error, --shortest scores 15 (wrong) pairs.
  const Result r = vmaf({"-r", c.ref, "-d", c.cut, "-n", "--feature", "psnr", "-q"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("ended after 15 frames"), std::string::npos) << r.err;
  const auto s = psnr_y_of({"-r", c.ref, "-d", c.cut, "--shortest"});
  ASSERT_EQ(s.size(), 15u);
  EXPECT_LT(s[0], 60.0);
  // --frame_cnt limits the pairs by time too.
  EXPECT_EQ(psnr_y_of({"-r", c.ref, "-d", c.half, "--sync", "pts", "--frame_cnt", "4"}).size(), 4u);
  // By time, a reference that ends early is an error unless --shortest.
  const Result e = vmaf({"-r", c.cut, "-d", c.ref, "--sync", "pts", "-n", "--feature", "psnr", "-q"});
  EXPECT_EQ(e.status, 1);
  EXPECT_NE(e.err.find(c.cut + ": ended after 15 frames, but " + c.ref + " has more"), std::string::npos) << e.err;
  EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
  EXPECT_EQ(psnr_y_of({"-r", c.cut, "-d", c.ref, "--sync", "pts", "--shortest"}).size(), 15u);
}

// ---- progress line ----

TEST(Libav, ProgressLine) {
  Lossless c;
  const std::string out = tmp_report("progress.json");
  const std::vector<std::string> base = {"-r", c.ref, "-d", c.ref, "-n", "--feature", "psnr", "--json", "-o", out};
  auto with = [&](std::vector<std::string> a) {
    a.insert(a.begin(), base.begin(), base.end());
    return a;
  };
  const Result plain = vmaf(base, out);
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err, "");  // not a terminal: no progress line by default
  const Result p = vmaf(with({"--progress"}), out);
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_NE(p.err.find("1/20 frames"), std::string::npos) << p.err;  // the length is known: mp4 counts frames
  EXPECT_NE(p.err.find("ETA "), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("\n20 frames "), std::string::npos) << p.err;
  EXPECT_EQ(without_fps(p.report), without_fps(plain.report));
  const Result q = vmaf(with({"--progress", "-q"}), out);
  EXPECT_EQ(q.status, 0);
  EXPECT_EQ(q.err, "");
  fs::remove(out);
}

// ---- bad input: one line naming the file and the problem, no report ----

// Where packet `i` of the first stream of `file` lies: {offset, size}.
std::pair<std::size_t, std::size_t> packet(const std::string& file, int i) {
  const std::string list = file + ".packets";
  EXPECT_EQ(shell(std::string(VMAFX_FFPROBE) +
                  " -v error -select_streams v:0 -show_entries packet=pos,size "
                  "-of csv=p=0 " +
                  quote(file) + " > " + quote(list)),
            0);
  std::istringstream rows(slurp(list));
  std::string row;
  for (int k = 0; k <= i; ++k) std::getline(rows, row);
  const std::size_t comma = row.find(',');
  EXPECT_NE(comma, std::string::npos) << file << " has no packet " << i;
  return {std::stoul(row.substr(comma + 1)), std::stoul(row.substr(0, comma))};
}

class LibavErrors : public ::testing::Test {
 protected:
  void expect_error(std::vector<std::string> args, const std::string& needle) {
    const std::string out = tmp_report("err.json");
    args.insert(args.end(), {"--json", "-o", out, "-q"});
    const Result r = vmaf(args, out);
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "stderr: " << r.err;
    EXPECT_EQ(r.err.rfind("vmaf: error: ", 0), 0u) << r.err;
    EXPECT_FALSE(fs::exists(out)) << "a report was written";
  }
  // The first `bytes` of `in` (a file cut short).
  std::string cut(const std::string& in, std::uintmax_t bytes, const std::string& name) {
    const std::string data = slurp(in);
    EXPECT_LT(bytes, data.size());
    const std::string p = (clip_dir() / ("cut-" + std::to_string(bytes) + "-" + name)).string();
    std::ofstream(p, std::ios::binary) << data.substr(0, bytes);
    return p;
  }
  // `in` with `n` bytes from `at` overwritten by `value`.
  std::string damage(const std::string& in, std::size_t at, std::size_t n, char value, const std::string& name) {
    std::string data = slurp(in);
    EXPECT_LE(at + n, data.size());
    for (std::size_t k = at; k < at + n && k < data.size(); ++k) data[k] = value;
    const std::string p = (clip_dir() / ("damaged-" + name)).string();
    std::ofstream(p, std::ios::binary) << data;
    return p;
  }
  std::string src8 = source("yuv420p", 8);
};

TEST_F(LibavErrors, TruncatedMp4) {
  // moov at the end (ffmpeg's default): the index is missing.
  const std::string enc = ffmpeg("t.mp4", "-i " + quote(src8) + " -c:v libx264 -crf 30");
  const std::string bad = cut(enc, fs::file_size(enc) / 2, "t.mp4");
  expect_error({"-r", src8, "-d", bad}, bad + ": cannot be opened as a video: ");
  // moov first: the index promises frames the file no longer holds.
  const std::string fast = ffmpeg("tf.mp4", "-i " + quote(src8) + " -c:v libx264 -crf 30 -movflags +faststart");
  const std::string bad2 = cut(fast, fs::file_size(fast) - 300, "tf.mp4");
  expect_error({"-r", src8, "-d", bad2}, bad2 + ": frame ");
  expect_error({"-r", src8, "-d", bad2}, "is truncated or corrupt");
}

TEST_F(LibavErrors, TruncatedWebmAndIvf) {
  // Matroska/WebM and IVF end quietly at a cut: their declared duration
  // tells (--shortest, so that the length check does not come first).
  const std::string src = source("yuv420p", 20);
  const std::string vp9 = " -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -g 5";
  const std::string webm = ffmpeg("t.webm", "-i " + quote(src) + vp9);
  const std::string bad = cut(webm, packet(webm, 14).first + 10, "t.webm");
  expect_error({"-r", src, "-d", bad, "--shortest"}, bad + ": ended after ");
  expect_error({"-r", src, "-d", bad, "--shortest"}, "(truncated file?)");
  const std::string ivf = ffmpeg("t.ivf", "-i " + quote(src) + vp9);
  // (ffprobe's pos of an IVF packet is its 12-byte frame header.) Cut in
  // packet 14's data: a short packet; cut in its header: the duration tells.
  const auto [pos, size] = packet(ivf, 14);
  const std::string bad2 = cut(ivf, pos + 12 + size / 2, "t.ivf");
  expect_error({"-r", bad2, "-d", src, "--shortest"}, bad2 + ": frame ");
  expect_error({"-r", bad2, "-d", src, "--shortest"}, ": packet 14 is truncated or corrupt");
  const std::string bad3 = cut(ivf, pos + 6, "t.ivf");
  expect_error({"-r", bad3, "-d", src, "--shortest"},
               bad3 + ": ended after 14 frames (0.560 s), but the container says 0.800 s");
}

TEST_F(LibavErrors, DecoderErrorMidStreamNamesTheFrame) {
  // All-intra H.264 in Matroska; packet 12's data overwritten.
  const std::string src = source("yuv420p", 20);
  const std::string enc = ffmpeg("intra.mkv", "-i " + quote(src) + " -c:v libx264 -g 1 -crf 20");
  const auto [pos, size] = packet(enc, 12);
  const std::string bad = damage(enc, pos + size / 3, 40, '\xff', "intra.mkv");
  expect_error({"-r", src, "-d", bad}, bad + ": frame 12: decoding failed: ");
}

TEST_F(LibavErrors, NoVideoStream) {
  const std::string audio = ffmpeg("audio.m4a", "-f lavfi -i sine=duration=0.2 -c:a aac");
  expect_error({"-r", src8, "-d", audio}, audio + ": no video stream (a mov,mp4,m4a,3gp,3g2,mj2 file)");
}

TEST_F(LibavErrors, UnsupportedCodec) {
  // An IVF whose codec tag no decoder knows.
  const std::string ivf = ffmpeg("u.ivf", "-i " + quote(src8) + " -c:v libvpx-vp9 -deadline realtime -cpu-used 8");
  const std::string bad = damage(ivf, 8, 4, 'X', "u.ivf");
  expect_error({"-r", bad, "-d", src8}, bad + ": no decoder for codec ");
}

TEST_F(LibavErrors, RgbIsRefused) {
  const std::string rgb = ffmpeg("rgb.mkv", "-i " + quote(src8) + " -c:v libx264rgb -pix_fmt gbrp");
  expect_error({"-r", src8, "-d", rgb}, rgb + ": pixel format gbrp (RGB) is not supported");
}

TEST_F(LibavErrors, FullRangeAgainstLimitedRange) {
  const std::string mj = ffmpeg("mj.mkv", "-i " + quote(src8) + " -c:v mjpeg -pix_fmt yuvj420p");
  expect_error({"-r", src8, "-d", mj}, "videos are incompatible: " + src8 + " is 64x48 420 8-bit, " + mj +
                                           " is 64x48 420 8-bit (yuvj420p, mjpeg in matroska)");
  // Full range on both sides: scored as the samples are.
  EXPECT_EQ(psnr_y_of({"-r", mj, "-d", mj}).size(), 8u);
}

// Another size, bit depth or chroma format is converted to the reference's
// (libswscale), with a notice saying so; another aspect ratio is stretched,
// with a notice.
TEST_F(LibavErrors, DifferentSizesAndFormatsAreConverted) {
  const std::string small = ffmpeg("small.mp4", "-i " + quote(src8) + " -vf scale=32:24 -c:v libx264");
  Result r = vmaf({"-r", src8, "-d", small, "-n", "--feature", "psnr"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("vmaf: notice: " + small +
                       ": 32x24 420 8-bit (yuv420p, h264 in mov) converted to 64x48 420 8-bit by libswscale "
                       "(bicubic+accurate_rnd+bitexact)\n"),
            std::string::npos)
      << r.err;
  const std::string ten =
      ffmpeg("ten.mkv", "-i " + quote(src8) + " -c:v libx265 -x265-params log-level=error -pix_fmt yuv420p10le");
  const std::string x264 = ffmpeg("e8.mp4", "-i " + quote(src8) + " -c:v libx264");
  r = vmaf({"-r", x264, "-d", ten, "-n", "--feature", "psnr", "--scale", "lanczos"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(ten + ": 64x48 420 10-bit (yuv420p10le, hevc in matroska) converted to 64x48 420 8-bit by "
                             "libswscale (lanczos)"),
            std::string::npos)
      << r.err;
  const std::string square = ffmpeg("square.mp4", "-i " + quote(src8) + " -vf scale=48:48 -c:v libx264");
  r = vmaf({"-r", src8, "-d", square, "-n", "--feature", "psnr"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("; its aspect ratio differs from the reference's (48:48 against 64:48), stretched as ffmpeg's "
                       "scale filter does\n"),
            std::string::npos)
      << r.err;
}

TEST_F(LibavErrors, StreamSelection) {
  // Two video streams: the second is chosen with --dis-stream 1 and scores
  // as a file holding only it; stream 2 does not exist.
  const std::string a = ffmpeg("s-a.mp4", "-i " + quote(src8) + " -c:v libx264 -crf 40");
  const std::string b = ffmpeg("s-b.mp4", "-i " + quote(src8) + " -c:v libx264 -crf 20");
  const std::string two = ffmpeg("two.mkv", "-i " + quote(a) + " -i " + quote(b) + " -map 0 -map 1 -c copy");
  EXPECT_EQ(without_fps(score({"-r", src8, "-d", two, "--dis-stream", "1"})),
            without_fps(score({"-r", src8, "-d", b})));
  EXPECT_EQ(without_fps(score({"-r", two, "-d", src8})), without_fps(score({"-r", a, "-d", src8})));
  expect_error({"-r", src8, "-d", two, "--dis-stream", "2"},
               two + ": has 2 video streams, no stream 2 (streams count from 0)");
}

TEST_F(LibavErrors, PtsNeedsTimestamps) {
  const std::string raw = (clip_dir() / "gray.yuv").string();
  std::ofstream(raw, std::ios::binary) << std::string(64 * 48 * 3 / 2 * 2, '\x80');
  expect_error({"-r", raw, "-d", raw, "-w", "64", "-h", "48", "-p", "420", "-b", "8", "--sync", "pts"},
               raw + ": frame 0 has no presentation time");
}

TEST_F(LibavErrors, BadOptions) {
  expect_error({"-r", src8, "-d", src8, "--sync", "frame"}, "--sync frame: expected index, pts or auto");
  expect_error({"-r", src8, "-d", src8, "--hwdec", "vaapi"}, "--hwdec vaapi: expected cuda or none");
}

TEST_F(LibavErrors, UnknownBytesStayAnError) {
  // Neither Y4M nor anything FFmpeg recognizes: the raw-input hint, as before.
  const std::string junk = (clip_dir() / "junk.bin").string();
  std::ofstream(junk, std::ios::binary) << std::string(5000, 'q');
  expect_error({"-r", junk, "-d", src8}, junk + ": not a Y4M file; raw YUV input needs -w, -h, -p and -b");
}

// ---- crafted streams: each remaining failure of the reader, one line ----

// `in` with `bytes` written at `at` (little-endian fields of a header, a NAL
// unit type): a file broken in one known place.
std::string patched(const std::string& in, std::size_t at, const std::string& bytes, const std::string& name) {
  std::string data = slurp(in);
  EXPECT_LE(at + bytes.size(), data.size());
  data.replace(at, bytes.size(), bytes);
  const std::string p = (clip_dir() / ("patched-" + name)).string();
  std::ofstream(p, std::ios::binary) << data;
  return p;
}

std::string le32(std::uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[std::size_t(i)] = char((v >> (8 * i)) & 0xff);
  return s;
}

// IVF: a 32-byte file header, then per frame a 12-byte header (32-bit size,
// 64-bit presentation time) and the frame. VP9 without hidden frames: one
// frame a packet, times 0, 1, 2, ... (time base 1/25).
std::string plain_ivf(const std::string& src) {
  return ffmpeg("plain.ivf", "-i " + quote(src) +
                                 " -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -auto-alt-ref 0 -lag-in-frames 0");
}

// The offset of frame `k`'s 12-byte header in an IVF file.
std::size_t ivf_frame(const std::string& ivf, int k) {
  const std::string d = slurp(ivf);
  std::size_t pos = 32;
  for (int i = 0; i < k; ++i) {
    const auto* b = reinterpret_cast<const unsigned char*>(d.data() + pos);
    pos += 12 + (b[0] | b[1] << 8 | b[2] << 16 | std::uint32_t(b[3]) << 24);
  }
  EXPECT_LT(pos + 12, d.size());
  return pos;
}

TEST_F(LibavErrors, PresentationTimeGoingBack) {
  // Frame 3 stamped with frame 2's time: pairing by time cannot place it.
  const std::string ivf = plain_ivf(src8);
  const std::string bad = patched(ivf, ivf_frame(ivf, 3) + 4, le32(2) + le32(0), "pts-back.ivf");
  expect_error({"-r", bad, "-d", src8, "--sync", "pts"}, bad + ": frame 3: presentation time 2 does not come after 2");
  // By index the times do not matter: 8 frames scored.
  EXPECT_EQ(psnr_y_of({"-r", bad, "-d", src8}).size(), 8u);
}

TEST_F(LibavErrors, NoFrameInTheStream) {
  // An IVF file header and no frame.
  const std::string ivf = plain_ivf(src8);
  const std::string bad = cut(ivf, 32, "header-only.ivf");
  expect_error({"-r", src8, "-d", bad}, bad + ": no frame could be decoded (empty or truncated stream)");
}

TEST_F(LibavErrors, PacketThatCannotBeRead) {
  // Frame 4's size field says 2.4 GB: libavformat refuses to read the packet.
  const std::string ivf = plain_ivf(src8);
  const std::string bad = patched(ivf, ivf_frame(ivf, 4), le32(0x90000000u), "huge-packet.ivf");
  // (The frame number depends on how many frames the decoder's threads hold.)
  expect_error({"-r", src8, "-d", bad}, ": reading packet 4 failed: ");
  expect_error({"-r", src8, "-d", bad}, " (truncated or corrupt file)");
}

TEST_F(LibavErrors, FrameSizePastTheLimit) {
  // Raw video of 2x40000 (taller than 32768) in NUT and Matroska.
  for (const char* ext : {"nut", "mkv"}) {
    const std::string tall =
        ffmpeg(std::string("tall.") + ext,
               "-f lavfi -i color=size=2x40000:rate=25 -frames:v 2 -c:v rawvideo -pix_fmt yuv420p");
    expect_error({"-r", tall, "-d", tall}, tall + ": frame size 2x40000 is not supported");
  }
}

TEST_F(LibavErrors, PictureChangesMidStream) {
  // Two H.264 elementary streams one after the other: the second's size, or
  // its depth, differs from the first's.
  const std::string a = ffmpeg("a.h264", "-i " + quote(src8) + " -frames:v 4 -c:v libx264");
  const std::string b = ffmpeg("b.h264", "-i " + quote(src8) + " -frames:v 4 -vf scale=32:24 -c:v libx264");
  const std::string c = ffmpeg("c.h264", "-i " + quote(src8) + " -frames:v 4 -c:v libx264 -pix_fmt yuv420p10le");
  for (const auto& [second, what] : {std::pair{b, std::string("32x24 yuv420p")}, {c, "64x48 yuv420p10le"}}) {
    const std::string both = (clip_dir() / ("joined-" + fs::path(second).filename().string())).string();
    std::ofstream(both, std::ios::binary) << slurp(a) << slurp(second);
    expect_error({"-r", both, "-d", both},
                 both + ": frame 4: the picture changed from 64x48 yuv420p to " + what + " mid-stream");
  }
}

TEST_F(LibavErrors, DecoderThatDoesNotOpen) {
  // Raw video in AVI whose bitmap header says 7 bits a pixel: no such format.
  const std::string avi = ffmpeg("raw.avi", "-i " + quote(src8) + " -c:v rawvideo -pix_fmt bgr24");
  const std::string d = slurp(avi);
  const std::size_t strf = d.find("strf");
  ASSERT_NE(strf, std::string::npos);
  // strf: tag, size, then BITMAPINFOHEADER (size, width, height, planes, bit count).
  const std::string bad = patched(avi, strf + 8 + 14, std::string("\x07\x00", 2), "bpp7.avi");
  expect_error({"-r", bad, "-d", src8}, bad + ": cannot open the rawvideo decoder: Invalid argument");
}

TEST_F(LibavErrors, FewerFramesThanTheContainerCounts) {
  // An AVI whose headers count 12 frames; it holds 8.
  const std::string avi = ffmpeg("m4.avi", "-i " + quote(src8) + " -c:v mpeg4 -q:v 5");
  const std::string d = slurp(avi);
  const std::size_t strh = d.find("strh"), avih = d.find("avih");
  ASSERT_NE(strh, std::string::npos);
  ASSERT_NE(avih, std::string::npos);
  // strh's dwLength at 32 bytes into its data; avih's dwTotalFrames at 16.
  const std::string once = patched(avi, strh + 8 + 32, le32(12), "long1.avi");
  const std::string bad = patched(once, avih + 8 + 16, le32(12), "long.avi");
  expect_error({"-r", src8, "-d", bad}, bad + ": ended after 8 of its 12 frames (truncated or corrupt)");
}

TEST_F(LibavErrors, FrameDecodedWithErrors) {
  // H.264 with two slices a picture; frame 3's second slice turned into a
  // filler NAL unit: the decoder conceals it without failing the call.
  const std::string enc = ffmpeg("slices.mp4", "-i " + quote(src8) + " -c:v libx264 -g 1 -slices 2");
  const auto [pos, size] = packet(enc, 3);
  const std::string d = slurp(enc);
  std::size_t nal = pos, last = 0;  // length-prefixed NAL units (4 bytes, big-endian)
  while (nal < pos + size) {
    const auto* b = reinterpret_cast<const unsigned char*>(d.data() + nal);
    last = nal + 4;
    nal += 4 + (std::size_t(b[0]) << 24 | b[1] << 16 | b[2] << 8 | b[3]);
  }
  ASSERT_EQ(nal, pos + size);
  ASSERT_NE(last, pos + 4) << "one slice only";
  const std::string bad = patched(enc, last, std::string(1, char((d[last] & 0xe0) | 12)), "slices.mp4");
  expect_error({"-r", src8, "-d", bad}, bad + ": frame 3: decoded with errors (corrupt or truncated stream)");
}

TEST_F(LibavErrors, DamagedMpeg4InAvi) {
  // An MPEG-4 part 2 AVI damaged by fuzz_libav: FFmpeg 5.1's decoder with
  // frame threads aborted the process (an assertion, no message, exit 134).
  // Every file that fuzz_libav found is one line, exit 1, no report.
  const std::string dir = VMAFX_FUZZ_CORPUS_DIR "/fuzz_libav/";
  for (const char* found : {"found-damaged-mpeg4-avi-frame-threads"}) {
    const std::string f = dir + found;
    expect_error({"-r", f, "-d", f}, f + ": ");
  }
}

TEST_F(LibavErrors, JpegXlIsRefusedBeforeItsDecoderWrites) {
  // libjxl writes its own lines to stderr on a damaged image (fuzz_yuv found
  // it): JPEG XL is refused before anything decodes, whole or damaged.
  const std::string jxl = ffmpeg("a.jxl", "-f lavfi -i testsrc2=size=64x48 -frames:v 1 -c:v libjxl");
  expect_error({"-r", jxl, "-d", jxl}, jxl + ": JPEG XL is not supported");
  std::string d = slurp(jxl);
  ASSERT_GT(d.size(), 200u);
  for (std::size_t k = 100; k < d.size(); k += 37) d[k] = char(d[k] ^ 0x5a);
  const std::string bad = (clip_dir() / "damaged.jxl").string();
  std::ofstream(bad, std::ios::binary) << d;
  expect_error({"-r", bad, "-d", bad}, bad + ": JPEG XL is not supported");
}

// Bad input decoded in segments fails as with one decoder: one line naming
// the file and the problem, no report.
TEST_F(LibavErrors, SameErrorsInSegments) {
  const std::vector<std::string> seg = {"--decode-segments", "3"};
  auto with = [&](std::vector<std::string> a) {
    a.insert(a.end(), seg.begin(), seg.end());
    return a;
  };
  const std::string fast = ffmpeg("tf.mp4", "-i " + quote(src8) + " -c:v libx264 -crf 30 -movflags +faststart");
  const std::string bad = cut(fast, fs::file_size(fast) - 300, "tf.mp4");
  expect_error(with({"-r", src8, "-d", bad}), bad + ": frame ");
  expect_error(with({"-r", src8, "-d", bad}), "is truncated or corrupt");
  const std::string ivf = plain_ivf(src8);
  const std::string huge = patched(ivf, ivf_frame(ivf, 4), le32(0x90000000u), "huge-packet.ivf");
  expect_error(with({"-r", src8, "-d", huge}), huge + ": frame ");
  expect_error(with({"-r", src8, "-d", huge}), ": reading packet 4 failed: ");
  const std::string avi = ffmpeg("m4.avi", "-i " + quote(src8) + " -c:v mpeg4 -q:v 5");
  const std::string d = slurp(avi);
  const std::string once = patched(avi, d.find("strh") + 8 + 32, le32(12), "long1.avi");
  const std::string longer = patched(once, d.find("avih") + 8 + 16, le32(12), "long.avi");
  expect_error(with({"-r", src8, "-d", longer}), longer + ": ended after 8 of its 12 frames (truncated or corrupt)");
  const std::string a = ffmpeg("a.h264", "-i " + quote(src8) + " -frames:v 4 -c:v libx264");
  const std::string b = ffmpeg("b.h264", "-i " + quote(src8) + " -frames:v 4 -vf scale=32:24 -c:v libx264");
  const std::string both = (clip_dir() / "joined-seg.h264").string();
  std::ofstream(both, std::ios::binary) << slurp(a) << slurp(b);
  expect_error(with({"-r", both, "-d", both}),
               both + ": frame 4: the picture changed from 64x48 yuv420p to 32x24 yuv420p mid-stream");
}

// An mp4 cut with `ffmpeg -ss T -c copy`: an edit list hides the frames before
// T that the first shown one needs. They count in the container's frame
// number but are not shown: not a truncated file (it was refused so).
#ifdef VMAFX_FAKE_AVUTIL_DIR
// LD_LIBRARY_PATH for the CLIs a test starts, while it lives.
struct LibraryPath {
  explicit LibraryPath(const char* dir) { ::setenv("LD_LIBRARY_PATH", dir, 1); }
  ~LibraryPath() { ::unsetenv("LD_LIBRARY_PATH"); }
};

// FFmpeg is loaded on first use (io/ffmpeg_dl.cpp): with a libavutil that has
// none of its functions first in the library path, Y4M and raw YUV runs still
// work (they load no FFmpeg), and a compressed clip is one clear error.
TEST_F(LibavErrors, RunsOnY4mAndRawLoadNoFfmpeg) {
  const std::string raw = (clip_dir() / "ondemand.yuv").string();
  {
    std::string frames;
    for (int i = 0; i < 2 * 64 * 48 * 3 / 2; ++i) frames.push_back(char(16 + (i * 7) % 200));
    std::ofstream(raw, std::ios::binary) << frames;
  }
  const std::string mp4 = ffmpeg("ondemand.mp4", "-i " + quote(src8) + " -c:v libx264");
  const std::vector<std::string> y4m = {"-r", src8, "-d", src8, "--feature", "psnr", "-n"};
  const std::vector<std::string> yuv = {"-r", raw,   "-d", raw, "-w",        "64",   "-h", "48",
                                        "-p", "420", "-b", "8", "--feature", "psnr", "-n"};
  const std::string y4m_report = without_fps(score(y4m)), raw_report = without_fps(score(yuv));
  ASSERT_NE(y4m_report.find("psnr_y"), std::string::npos) << y4m_report;
  LibraryPath fake(VMAFX_FAKE_AVUTIL_DIR);
  EXPECT_EQ(without_fps(score(y4m)), y4m_report);
  EXPECT_EQ(without_fps(score(yuv)), raw_report);
  expect_error({"-r", src8, "-d", mp4}, mp4 + ": cannot load FFmpeg's libavcodec.so.");
}

TEST_F(LibavErrors, FfmpegWithoutTheFunctionsItWasBuiltWith) {
  const std::string mp4 = ffmpeg("ondemand.mp4", "-i " + quote(src8) + " -c:v libx264");
  LibraryPath fake(VMAFX_FAKE_SWSCALE_DIR);
  expect_error({"-r", src8, "-d", mp4},
               mp4 + ": FFmpeg's " VMAFX_FAKE_SWSCALE " has no sws_alloc_context (built against another FFmpeg)");
}
#endif

TEST(Libav, EditListHidingFramesIsNotTruncation) {
  const std::string src = source("yuv420p", 8);
  const std::string enc = ffmpeg("gop.mp4", "-i " + quote(src) + " -c:v libx264 -g 100 -bf 0 -qp 0");
  const std::string cut = ffmpeg("gop-cut.mp4", "-ss 0.12 -i " + quote(enc) + " -c copy");
  const std::string y4m = decoded(cut);
  // ffmpeg shows 5 frames (8 coded); scored against its own decode: lossless.
  const std::vector<double> p = psnr_y_of({"-r", cut, "-d", y4m});
  EXPECT_EQ(p.size(), 5u);
  EXPECT_TRUE(all_60(p));
  // They are frames 3..7 of the source.
  EXPECT_TRUE(all_60(psnr_y_of({"-r", cut, "-d", src, "--dis-skip", "3"})));
}

}  // namespace

// ---- decoding in segments (--decode-segments) ----
//
// Several decoders at once on segments cut at keyframes give the frames one
// decoder gives: the same report, by index and by time, as the distorted clip
// and as the reference; the VMAFX_STATS line says how many segments there were.

// The stderr of `args` run with VMAFX_STATS=1 (`env` added for the run).
std::string stats_of(std::vector<std::string> args, const std::vector<std::pair<std::string, std::string>>& env = {}) {
  ::setenv("VMAFX_STATS", "1", 1);
  for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
  args.insert(args.end(), {"-q", "--json", "-o", "/dev/null"});
  const Result r = vmaf(args);
  ::unsetenv("VMAFX_STATS");
  for (const auto& [k, v] : env) ::unsetenv(k.c_str());
  EXPECT_EQ(r.status, 0) << r.err;
  return r.err;
}

// The number in "decoding in segments: N segment(s)" of the reader line
// `side` ("ref" or "dis"); 0 when there is none.
int segments_in(const std::string& stats, const std::string& side) {
  const std::size_t line = stats.find("reader " + side + ": ");
  if (line == std::string::npos) return 0;
  const std::size_t end = stats.find('\n', line);
  const std::size_t at = stats.find("decoding in segments: ", line);
  if (at == std::string::npos || at > end) return 0;
  return std::stoi(stats.substr(at + 22));
}

struct Segmented {
  const char* name;
  const char* pix_fmt;
  const char* args;  // encoder options (keyframes every 10 frames at most)
  const char* file;
  bool cuts;          // keyframes a segment may start at (IDR pictures, no leading pictures)
  bool timed = true;  // time stamps (not a raw stream): --sync pts too
};

class Segments : public ::testing::TestWithParam<Segmented> {};

TEST_P(Segments, SameReportsAsOneDecoder) {
  const Segmented& c = GetParam();
  const std::string src = source(c.pix_fmt, 60);
  const std::string enc = ffmpeg(c.file, "-i " + quote(src) + " -pix_fmt " + c.pix_fmt + " " + c.args);
  const std::vector<std::string> extra = {"--feature", "psnr"};
  std::vector<std::vector<std::string>> pairs = {{"-r", src, "-d", enc}, {"-r", enc, "-d", src}};
  if (c.timed) pairs.push_back({"-r", enc, "-d", enc, "--sync", "pts"});
  for (const std::vector<std::string>& pair : pairs) {
    std::vector<std::string> args = pair;
    args.insert(args.end(), extra.begin(), extra.end());
    const std::string one = without_fps(score(args));
    for (const char* n : {"2", "5"}) {
      std::vector<std::string> seg = args;
      seg.insert(seg.end(), {"--decode-segments", n});
      EXPECT_EQ(without_fps(score(seg)), one) << c.name << " --decode-segments " << n << " " << pair[1];
    }
  }
  const int n = segments_in(stats_of({"-r", src, "-d", enc, "--decode-segments", "3"}), "dis");
  if (c.cuts)
    EXPECT_GE(n, 3) << c.name;  // 60 frames, keyframes every 10 or fewer, segments of 8 packets or more
  else
    EXPECT_EQ(n, 1) << c.name;
}

INSTANTIATE_TEST_SUITE_P(
    Libav, Segments,
    ::testing::Values(
        Segmented{"x264_mp4_bframes", "yuv420p", "-c:v libx264 -bf 3 -g 10 -crf 30", "seg-x264.mp4", true},
        // Open groups: recovery points, not IDR pictures: no cut.
        Segmented{"x264_mkv_open_gop", "yuv420p", "-c:v libx264 -bf 3 -g 10 -x264-params open-gop=1 -crf 30",
                  "seg-x264-open.mkv", false},
        Segmented{"x265_mp4_10bit_closed", "yuv420p10le",
                  "-c:v libx265 -x265-params log-level=error:keyint=10:open-gop=0 -crf 30", "seg-x265.mp4", true},
        // CRA pictures with leading pictures after them: no cut.
        Segmented{"x265_mkv_open_gop", "yuv420p",
                  "-c:v libx265 -x265-params log-level=error:keyint=10:open-gop=1:bframes=4 -crf 30",
                  "seg-x265-open.mkv", false},
        Segmented{"vp9_webm_444", "yuv444p", "-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -g 10 -crf 40 -b:v 0",
                  "seg-vp9.webm", true},
        Segmented{"aom_ivf_10bit", "yuv420p10le", "-c:v libaom-av1 -cpu-used 8 -g 10 -crf 45", "seg-aom.ivf", true},
        // Raw streams (no time stamps): cut at IDR pictures, found in the
        // stream (HEVC's with leading pictures that refer only to it too).
        Segmented{"raw_h264", "yuv420p", "-c:v libx264 -bf 3 -g 10 -crf 30", "seg.h264", true, false},
        Segmented{"raw_hevc_radl", "yuv420p",
                  "-c:v libx265 -x265-params log-level=error:keyint=10:open-gop=0:radl=2 -crf 30", "seg.hevc", true,
                  false}),
    [](const ::testing::TestParamInfo<Segmented>& i) { return std::string(i.param.name); });

// The checks that keep a wrong cut from changing a frame: with no packet of
// lookahead a CRA's leading picture comes after the cut, and the read fails.
TEST(Libav, SegmentsFailOnAPictureShownBeforeTheCut) {
  const std::string src = source("yuv420p", 60);
  const std::string enc = ffmpeg("seg-x265-open.mkv", "-i " + quote(src) + " -pix_fmt yuv420p " +
                                                          "-c:v libx265 -x265-params log-level=error:keyint=10:"
                                                          "open-gop=1:bframes=4 -crf 30");
  ::setenv("VMAFX_DECODE_LOOKAHEAD", "0", 1);
  const std::string out = tmp_report("lookahead.json");
  const Result r = vmaf({"-r", src, "-d", enc, "--decode-segments", "2", "--json", "-o", out}, out);
  ::unsetenv("VMAFX_DECODE_LOOKAHEAD");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find(enc + ": frame "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": decoding in segments: packet "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" is shown before the segment from packet "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" (decode without --decode-segments)\n"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

// ---- ladders: renditions of other sizes and formats, one reference ----
//
// Renditions encoded by the test (x264, x265, VP9) at three smaller sizes,
// scored in one ladder command: every rendition's report equals the report of
// the frames that `ffmpeg -i DIS -vf scale=W:H:flags=F -pix_fmt P` produces,
// scored alone (the same FFmpeg libraries: Debian's).

namespace ladder {

constexpr const char* kDefaultFlags = "bicubic+accurate_rnd+bitexact";  // docs/input.md

struct Rendition {
  std::string file;
  int width, height;
};

// The source: ffmpeg's moving test pattern with temporal noise, 128x96.
std::string src(const std::string& pix_fmt = "yuv420p", int frames = 10) {
  return ffmpeg("lsrc-" + pix_fmt + "-" + std::to_string(frames) + ".y4m",
                "-f lavfi -i testsrc2=size=128x96:rate=25,noise=alls=12:allf=t -frames:v " + std::to_string(frames) +
                    " -pix_fmt " + pix_fmt + " -strict -1");
}

std::vector<Rendition> renditions(const std::string& source) {
  const std::string tag = fs::path(source).stem().string();
  return {
      {ffmpeg(tag + "-96.mp4", "-i " + quote(source) + " -vf scale=96:72 -c:v libx264 -pix_fmt yuv420p -crf 28"), 96,
       72},
      {ffmpeg(tag + "-64.mkv",
              "-i " + quote(source) +
                  " -vf scale=64:48 -c:v libx265 -pix_fmt yuv420p -x265-params log-level=error -crf 28"),
       64, 48},
      {ffmpeg(tag + "-80.webm", "-i " + quote(source) +
                                    " -vf scale=80:60 -c:v libvpx-vp9 -pix_fmt yuv420p -deadline realtime -cpu-used 8 "
                                    "-b:v 100k"),
       80, 60},
  };
}

// `dis` converted by ffmpeg's scale filter to 128x96 in `pix_fmt`, as Y4M.
std::string ffmpeg_scaled(const std::string& dis, const std::string& flags, const std::string& pix_fmt, int w = 128,
                          int h = 96) {
  return ffmpeg(fs::path(dis).filename().string() + "-" + flags + "-" + pix_fmt + ".y4m",
                "-i " + quote(dis) + " -vf scale=" + std::to_string(w) + ":" + std::to_string(h) + ":flags=" + flags +
                    " -pix_fmt " + pix_fmt + " -f yuv4mpegpipe -strict -1");
}

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("vmafx_ladder_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(d);
  return d;
}

std::string report_in(const fs::path& dir, const std::string& dis) {
  const fs::path p = dir / (fs::path(dis).stem().string() + ".json");
  EXPECT_TRUE(fs::exists(p)) << p;
  return slurp(p);
}

// Scores a ladder with the extra `args`; checks each report against the
// ffmpeg-scaled frames scored alone.
void expect_ladder_equals_ffmpeg(const std::string& source, const std::vector<Rendition>& rs, const std::string& flags,
                                 const std::string& pix_fmt, const std::vector<std::string>& args) {
  const fs::path dir = fresh_dir(flags + pix_fmt);
  std::vector<std::string> cmd = {"-r",          source, "--feature", "psnr", "--json",
                                  "--precision", "max",  "-q",        "-o",   dir.string()};
  for (const Rendition& r : rs) cmd.insert(cmd.end(), {"-d", r.file});
  cmd.insert(cmd.end(), args.begin(), args.end());
  const Result r = vmaf(cmd);
  ASSERT_EQ(r.status, 0) << r.err;
  for (const Rendition& rd : rs) {
    const std::string alone = score({"-r", source, "-d", ffmpeg_scaled(rd.file, flags, pix_fmt), "--feature", "psnr"});
    const std::string got = report_in(dir, rd.file);
    EXPECT_FALSE(got.empty());
    EXPECT_EQ(without_fps(got), without_fps(alone)) << rd.file << " with " << flags;
  }
  fs::remove_all(dir);
}

}  // namespace ladder

TEST(Ladder, BicubicEqualsFfmpegScaleFilter) {
  const std::string s = ladder::src();
  ladder::expect_ladder_equals_ffmpeg(s, ladder::renditions(s), "bicubic", "yuv420p", {"--scale", "bicubic"});
}

TEST(Ladder, LanczosEqualsFfmpegScaleFilter) {
  const std::string s = ladder::src();
  ladder::expect_ladder_equals_ffmpeg(s, ladder::renditions(s), "lanczos", "yuv420p", {"--scale", "lanczos"});
}

TEST(Ladder, DefaultEqualsFfmpegScaleFilterWithItsFlags) {
  const std::string s = ladder::src();
  ladder::expect_ladder_equals_ffmpeg(s, ladder::renditions(s), ladder::kDefaultFlags, "yuv420p", {});
}

// Another bit depth and chroma format: 8-bit 4:2:0 renditions of a 10-bit
// 4:4:4 reference are converted to it (sizes, depth and chroma at once).
TEST(Ladder, ConvertsBitDepthAndChromaFormat) {
  const std::string s = ladder::src("yuv444p10le", 6);
  ladder::expect_ladder_equals_ffmpeg(s, ladder::renditions(s), ladder::kDefaultFlags, "yuv444p10le", {});
}

// The default's output does not depend on libswscale's SIMD: VMAFX_SIMD=off
// (av_force_cpu_flags(0)) gives the same reports.
TEST(Ladder, DefaultIsTheSameWithSimdOff) {
  const std::string s = ladder::src();
  const auto rs = ladder::renditions(s);
  auto run = [&](const std::string& name) {
    const fs::path dir = ladder::fresh_dir(name);
    std::vector<std::string> cmd = {"-r", s, "--json", "--precision", "max", "-q", "-o", dir.string()};
    for (const auto& r : rs) cmd.insert(cmd.end(), {"-d", r.file});
    const Result r = vmaf(cmd);
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::string> out;
    for (const auto& rd : rs) out.push_back(without_fps(ladder::report_in(dir, rd.file)));
    fs::remove_all(dir);
    return out;
  };
  const auto on = run("simd-on");
  ::setenv("VMAFX_SIMD", "off", 1);
  const auto off = run("simd-off");
  ::unsetenv("VMAFX_SIMD");
  ASSERT_EQ(on.size(), 3u);
  EXPECT_EQ(on, off);
}

// A ladder's report of a rendition equals scoring that rendition alone, and
// the summary file holds each report's pooled values.
TEST(Ladder, SummaryHoldsEachRenditionsPooledScores) {
  const std::string s = ladder::src();
  const auto rs = ladder::renditions(s);
  const fs::path dir = ladder::fresh_dir("summary");
  const std::string sum = (dir / "summary.json").string();
  std::vector<std::string> cmd = {"-r", s, "--json", "--precision", "max", "-q", "-o", dir.string(), "--summary", sum};
  for (const auto& r : rs) cmd.insert(cmd.end(), {"-d", r.file});
  const Result r = vmaf(cmd);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(sum));
  ASSERT_EQ(j.at("renditions").size(), 3u);
  for (std::size_t k = 0; k < rs.size(); ++k) {
    const auto& row = j.at("renditions")[k];
    EXPECT_EQ(row.at("path"), rs[k].file);
    EXPECT_EQ(row.at("width"), rs[k].width);
    EXPECT_EQ(row.at("height"), rs[k].height);
    const std::string alone = score({"-r", s, "-d", rs[k].file});
    EXPECT_EQ(without_fps(ladder::report_in(dir, rs[k].file)), without_fps(alone));
    const auto rep = nlohmann::json::parse(alone);
    const auto& pooled = rep.at("pooled_metrics").at("vmaf");
    const auto& m = row.at("models").at("vmaf");
    EXPECT_EQ(m.at("mean").get<double>(), pooled.at("mean").get<double>());
    EXPECT_EQ(m.at("harmonic_mean").get<double>(), pooled.at("harmonic_mean").get<double>());
    EXPECT_EQ(m.at("min").get<double>(), pooled.at("min").get<double>());
    // 10 frames: the 1% low is the lowest frame's score.
    EXPECT_EQ(m.at("1pct_low").get<double>(), pooled.at("min").get<double>());
    EXPECT_EQ(row.at("frames"), rep.at("frames").size());
  }
  fs::remove_all(dir);
}

// One broken rendition: reported by name, the others scored and written,
// exit status 1.
TEST(Ladder, ABrokenRenditionDoesNotStopTheOthers) {
  const std::string s = ladder::src();
  const auto rs = ladder::renditions(s);
  const std::string good = rs[0].file;
  const std::string data = slurp(rs[2].file);
  const std::string broken = (clip_dir() / "ladder-broken.webm").string();
  std::ofstream(broken, std::ios::binary) << data.substr(0, data.size() * 2 / 3);
  const fs::path dir = ladder::fresh_dir("broken");
  const Result r = vmaf(
      {"-r", s, "-d", good, "-d", broken, "-d", rs[1].file, "--json", "--precision", "max", "-q", "-o", dir.string()});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("vmaf: error: " + broken + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("vmaf: error: 1 of 3 renditions failed"), std::string::npos) << r.err;
  EXPECT_EQ(without_fps(ladder::report_in(dir, good)), without_fps(score({"-r", s, "-d", good})));
  EXPECT_EQ(without_fps(ladder::report_in(dir, rs[1].file)), without_fps(score({"-r", s, "-d", rs[1].file})));
  EXPECT_FALSE(fs::exists(dir / "ladder-broken.json"));
  fs::remove_all(dir);
}

// ---- --sync auto: a constant offset found from the first frames ----

namespace ladder {

// A moving source (no noise: the pattern moves) and clips cut from it.
std::string sync_src() {
  return ffmpeg("sync-src.y4m", "-f lavfi -i testsrc2=size=128x96:rate=25 -frames:v 40 -pix_fmt yuv420p");
}
std::string cut_clip(const std::string& name, const std::string& filter) {
  return ffmpeg(name, "-i " + quote(sync_src()) + " -vf " + filter + " -c:v libx264 -crf 23 -pix_fmt yuv420p");
}
// +3: three black frames before the source; -7: the source from frame 7.
std::string plus3() { return cut_clip("sync-plus3.mp4", "tpad=start=3:color=black"); }
std::string minus7() { return cut_clip("sync-minus7.mp4", "trim=start_frame=7,setpts=PTS-STARTPTS"); }
std::string zero() { return cut_clip("sync-zero.mp4", "null"); }

}  // namespace ladder

TEST(SyncAuto, FindsTheOffsetAndScoresWithIt) {
  const std::string s = ladder::sync_src();
  struct Case {
    std::string dis;
    std::string said;
    std::vector<std::string> skip;
  } cases[] = {{ladder::zero(), "sync offset +0", {}},
               {ladder::plus3(), "sync offset +3", {"--dis-skip", "3"}},
               {ladder::minus7(), "sync offset -7", {"--ref-skip", "7"}}};
  for (const Case& c : cases) {
    const std::string out = tmp_report("sync.json");
    const Result r = vmaf({"-r", s, "-d", c.dis, "--sync", "auto", "--json", "--precision", "max", "-o", out}, out);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("vmaf: " + c.dis + ": " + c.said + " ("), std::string::npos) << r.err;
    std::vector<std::string> alone = {"-r", s, "-d", c.dis};
    alone.insert(alone.end(), c.skip.begin(), c.skip.end());
    EXPECT_EQ(without_fps(r.report), without_fps(score(alone))) << c.dis;
    fs::remove(out);
  }
}

// One ladder, three offsets: each rendition with its own.
TEST(SyncAuto, EachRenditionOfALadderHasItsOwnOffset) {
  const std::string s = ladder::sync_src();
  const fs::path dir = ladder::fresh_dir("sync");
  const Result r = vmaf({"-r", s, "-d", ladder::minus7(), "-d", ladder::zero(), "-d", ladder::plus3(), "--sync", "auto",
                         "--json", "--precision", "max", "-o", dir.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(without_fps(ladder::report_in(dir, ladder::minus7())),
            without_fps(score({"-r", s, "-d", ladder::minus7(), "--ref-skip", "7"})));
  EXPECT_EQ(without_fps(ladder::report_in(dir, ladder::zero())), without_fps(score({"-r", s, "-d", ladder::zero()})));
  EXPECT_EQ(without_fps(ladder::report_in(dir, ladder::plus3())),
            without_fps(score({"-r", s, "-d", ladder::plus3(), "--dis-skip", "3"})));
  fs::remove_all(dir);
}

TEST_F(LibavErrors, SyncAutoRefusesToGuessOnStaticContent) {
  const std::string flat =
      ffmpeg("flat.y4m", "-f lavfi -i color=c=gray:size=64x48:rate=25 -frames:v 12 -pix_fmt yuv420p");
  const std::string enc = ffmpeg("flat.mp4", "-i " + quote(flat) + " -c:v libx264 -crf 20");
  expect_error({"-r", flat, "-d", enc, "--sync", "auto"},
               enc + ": --sync auto found no clearly best offset within +-30 frames: offsets ");
}

TEST_F(LibavErrors, SyncAutoNeedsEnoughFrames) {
  // Four frames: only offset 0 has four pairs to compare.
  const std::string four = source("yuv420p", 4);
  expect_error({"-r", four, "-d", four, "--sync", "auto", "--sync-window", "6"},
               four +
                   ": too few frames to find a sync offset (--sync auto compares 4 or more frames at each offset "
                   "within +-6)");
}

TEST_F(LibavErrors, SyncAutoNeedsARegularFile) {
  const std::string fifo = tmp_report("sync.fifo");
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_error({"-r", src8, "-d", fifo, "--sync", "auto"},
               fifo + ": --sync auto reads the first frames twice, so it needs a regular file (not a pipe)");
  fs::remove(fifo);
}

TEST_F(LibavErrors, ScaleFlagsAreChecked) {
  const std::string small = ffmpeg("small.mp4", "-i " + quote(src8) + " -vf scale=32:24 -c:v libx264");
  expect_error({"-r", src8, "-d", small, "--scale", "bicubicc"},
               "vmaf: error: --scale bicubicc: not a libswscale flags string (e.g. bicubic, lanczos, "
               "bicubic+accurate_rnd)");
}
