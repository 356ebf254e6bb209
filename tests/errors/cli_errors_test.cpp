// SPDX-License-Identifier: BSD-3-Clause
// One test per class of bad input: the CLI must exit non-zero with a single
// line on stderr that names the input and the problem, and leave no report.
#include <sys/stat.h>

#include <gtest/gtest.h>
#include <thread>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Result {
  int status;
  std::string err;
};

class CliErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vmafx_errors_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // A Y4M clip of `frames` frames; `header` replaces the stream header's fields.
  std::string y4m(const std::string& name, int w, int h, int frames, const std::string& tags = "C420jpeg",
                  int bytes_per_sample = 1, std::size_t chop = 0) {
    std::string data = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip A1:1 " + tags + "\n";
    const std::size_t cw = (w + 1) / 2, ch = (h + 1) / 2;
    const std::size_t frame = (std::size_t(w) * h + 2 * cw * ch) * bytes_per_sample;
    for (int i = 0; i < frames; ++i) {
      data += "FRAME\n";
      for (std::size_t k = 0; k < frame; ++k) data.push_back(char((k * 7 + i) & (bytes_per_sample == 2 ? 0x03 : 0xff)));
    }
    data.resize(data.size() - chop);
    return write(name, data);
  }
  std::string write(const std::string& name, const std::string& bytes) {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }

  Result run(const std::vector<std::string>& args) {
    std::string cmd = std::string("'") + VMAFX_CLI_PATH + "'";
    for (const auto& a : args) cmd += " '" + a + "'";
    const std::string err = path("stderr.txt");
    cmd += " >/dev/null 2>'" + err + "'";
    int rc = std::system(cmd.c_str());
    std::ifstream in(err);
    std::stringstream ss;
    ss << in.rdbuf();
    return {WIFEXITED(rc) ? WEXITSTATUS(rc) : 128, ss.str()};
  }

  // Runs with -o, checks failure, one line, the expected text, and no report.
  void expect_error(std::vector<std::string> args, const std::string& needle) {
    const std::string out = path("out.json");
    args.insert(args.end(), {"--json", "-o", out, "-q"});
    Result r = run(args);
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "stderr: " << r.err;
    EXPECT_FALSE(fs::exists(out)) << "a report was written";
    for (const auto& e : fs::directory_iterator(dir_))
      EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << "temporary left: " << e.path();
  }

  fs::path dir_;
};

TEST_F(CliErrors, BadEnvironmentValue) {
  std::string ok = y4m("a.y4m", 16, 16, 1);
  ::setenv("VMAFX_SIMD", "no", 1);
  expect_error({"-r", ok, "-d", ok}, "vmaf: error: VMAFX_SIMD=no: expected on, off");
  ::unsetenv("VMAFX_SIMD");
}

TEST_F(CliErrors, MissingFile) {
  std::string ok = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", path("nope.y4m"), "-d", ok}, path("nope.y4m") + ": cannot open: No such file or directory");
}

TEST_F(CliErrors, DirectoryAsClip) {
  std::string ok = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", ok, "-d", dir_.string()}, dir_.string() + ": is a directory");
}

TEST_F(CliErrors, BadY4mWidth) {
  std::string ok = y4m("a.y4m", 16, 16, 1);
  std::string bad = write("b.y4m", "YUV4MPEG2 Wabc H16 C420jpeg\nFRAME\n");
  expect_error({"-r", ok, "-d", bad}, bad + ": bad Y4M width 'abc'");
}

TEST_F(CliErrors, Y4mWithoutHeight) {
  std::string ok = y4m("a.y4m", 16, 16, 1);
  std::string bad = write("b.y4m", "YUV4MPEG2 W16 C420\n");
  expect_error({"-r", ok, "-d", bad}, bad + ": Y4M header has no height (H)");
}

TEST_F(CliErrors, UnsupportedColourSpace) {
  std::string ok = y4m("a.y4m", 16, 16, 1);
  std::string bad = write("b.y4m", "YUV4MPEG2 W16 H16 C411\n");
  expect_error({"-r", ok, "-d", bad}, bad + ": unsupported Y4M colour space 'C411'");
}

TEST_F(CliErrors, NoFrames) {
  std::string a = write("a.y4m", "YUV4MPEG2 W16 H16 C420\n");
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr"}, a + ": no frames to score");
}

TEST_F(CliErrors, BadBitDepth) {
  std::string a = write("a.yuv", std::string(384, '\x10'));
  expect_error({"-r", a, "-d", a, "-w", "16", "-h", "16", "-p", "420", "-b", "7"}, "-b/--bitdepth 7: expected 8 to 16");
}

TEST_F(CliErrors, BadThreadsAndSubsample) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr", "--threads", "5000"}, "threads 5000: at most 256");
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr", "--subsample", "0"}, "subsample 0: expected 1 or more");
}

TEST_F(CliErrors, FrameTooLarge) {
  std::string ok = y4m("a.y4m", 16, 16, 1);
  std::string bad = write("b.y4m", "YUV4MPEG2 W30000 H30000 C420\nFRAME\n");
  expect_error({"-r", ok, "-d", bad}, bad + ": frame size 30000x30000 is too large");
  std::string raw = write("c.yuv", std::string(64, '\x10'));
  expect_error({"-r", raw, "-d", raw, "-w", "20000", "-h", "20000", "-p", "420", "-b", "8"},
               raw + ": frame size 20000x20000 is too large");
}

TEST_F(CliErrors, TruncatedY4mHeader) {
  std::string ok = y4m("a.y4m", 16, 16, 1);
  std::string bad = write("b.y4m", "YUV4MPEG2 W16 H16");
  expect_error({"-r", ok, "-d", bad}, bad + ": truncated Y4M header");
}

TEST_F(CliErrors, TruncatedFrame) {
  std::string ok = y4m("a.y4m", 16, 16, 2);
  std::string bad = y4m("b.y4m", 16, 16, 2, "C420jpeg", 1, 10);
  expect_error({"-r", ok, "-d", bad, "-n", "--feature", "psnr"}, bad + ": frame 1: truncated frame data");
}

TEST_F(CliErrors, MissingFrameMarker) {
  std::string ok = y4m("a.y4m", 16, 16, 1);
  std::string bad = write("b.y4m", "YUV4MPEG2 W16 H16 C420\nFRAMX\n");
  expect_error({"-r", ok, "-d", bad, "-n", "--feature", "psnr"}, bad + ": frame 0: missing FRAME marker");
}

// Another size is converted (tests/libav check the frames against ffmpeg's);
// a picture with chroma against a monochrome one is not.
TEST_F(CliErrors, MonochromeAgainstChroma) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  std::string b = y4m("b.y4m", 32, 16, 1, "Cmono");
  expect_error({"-r", a, "-d", b},
               "videos are incompatible: " + a + " is 16x16 420 8-bit, " + b + " is 32x16 400 8-bit");
}

// Several -d (a ladder): the options that need one pair, -o naming a
// directory, report names, the summary's format.
TEST_F(CliErrors, LadderOptions) {
  std::string a = y4m("a.y4m", 16, 16, 2);
  std::string b = y4m("b.y4m", 16, 16, 2);
  expect_error({"-r", a, "-d", a, "-d", b, "--sync", "pts"},
               "vmaf: error: --sync pts pairs one distorted clip at a time: give one -d (or --sync index/auto for a "
               "ladder)");
  expect_error({"-r", a, "-d", a, "-d", b, "--decode-only"},
               "vmaf: error: --decode-only measures one pair of clips: give one -d");
  expect_error({"-r", a, "-d", a, "-d", b, "--sync-window", "-1"}, "vmaf: error: --sync-window -1: expected 0 to 1000");
  expect_error({"-r", a, "-d", a, "--decode-segments", "65"}, "vmaf: error: --decode-segments 65: expected 0 to 64");
  expect_error({"-r", a, "-d", a, "--decode-segments", "-1"}, "vmaf: error: --decode-segments -1: expected 0 to 64");
  expect_error({"-r", a, "-d", a, "-d", b, "--summary", path("sum.txt")},
               "vmaf: error: --summary " + path("sum.txt") + ": expected a file name ending in .csv or .json");
  fs::create_directories(path("x"));
  std::string c = write("x/a.y4m", "");
  expect_error({"-r", a, "-d", a, "-d", c, "-d", b}, "vmaf: error: " + a + " and " + c + " would both write " +
                                                         path("out.json") +
                                                         "/a.json (the reports are named after the renditions' files)");
  fs::remove_all(path("out.json"));
  write("file", "x");
  const Result r = run({"-r", a, "-d", a, "-d", b, "-o", path("file") + "/sub", "-q"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("vmaf: error: " + path("file") +
                            "/sub: with several -d, -o names a directory, and this one "
                            "cannot be made: ",
                        0),
            0u)
      << r.err;
}

TEST_F(CliErrors, LadderStdoutIsNotADirectory) {
  std::string a = y4m("a.y4m", 16, 16, 2);
  const Result r = run({"-r", a, "-d", a, "-d", a, "-o", "-", "-q"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "vmaf: error: -o -: with several -d, -o names a directory for the reports\n");
}

// A rendition that fails is named; the others are scored and the summary
// table (stdout) lists it as failed; exit status 1.
TEST_F(CliErrors, LadderRenditionLengthMismatch) {
  std::string a = y4m("a.y4m", 16, 16, 3);
  std::string b = y4m("b.y4m", 16, 16, 2);
  const fs::path dir = path("reports");
  const Result r = run({"-r", a, "-d", a, "-d", b, "-n", "--feature", "psnr", "--json", "-o", dir.string(), "-q"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "vmaf: error: " + b + ": ended after 2 frames, but " + a +
                       " has more (use --shortest or --frame_cnt to score a prefix)\nvmaf: error: 1 of 2 renditions "
                       "failed\n");
  EXPECT_TRUE(fs::exists(dir / "a.json"));
  EXPECT_FALSE(fs::exists(dir / "b.json"));
}

TEST_F(CliErrors, SampleOutOfRange) {
  std::string a = y4m("a.y4m", 16, 16, 1, "C420p10", 2);
  std::string data = "YUV4MPEG2 W16 H16 C420p10\nFRAME\n" + std::string(2 * (256 + 128), '\xff');
  std::string b = write("b.y4m", data);
  expect_error({"-r", a, "-d", b, "-n", "--feature", "psnr"}, b + ": frame 0: sample value 65535 exceeds 10-bit range");
}

TEST_F(CliErrors, FrameTooSmallForExtractor) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a}, "adm: frame size 16x16 is too small");
}

TEST_F(CliErrors, FrameCountMismatch) {
  std::string a = y4m("a.y4m", 16, 16, 3);
  std::string b = y4m("b.y4m", 16, 16, 2);
  expect_error({"-r", a, "-d", b, "-n", "--feature", "psnr"}, b + ": ended after 2 frames, but " + a + " has more");
}

TEST_F(CliErrors, RawNeedsAllGeometry) {
  std::string a = write("a.yuv", std::string(384, '\x10'));
  expect_error({"-r", a, "-d", a, "-w", "16", "-h", "16"}, "raw .yuv input needs all of");
}

TEST_F(CliErrors, RawNotY4mWithoutGeometry) {
  std::string a = write("a.yuv", std::string(384, '\x10'));
  expect_error({"-r", a, "-d", a}, a + ": not a Y4M file; raw YUV input needs -w, -h, -p and -b");
}

TEST_F(CliErrors, RawSizeNotMultipleOfFrame) {
  std::string a = write("a.yuv", std::string(384 + 5, '\x10'));
  expect_error({"-r", a, "-d", a, "-w", "16", "-h", "16", "-p", "420", "-b", "8", "-n", "--feature", "psnr"},
               a + ": frame 1: truncated frame data");
}

TEST_F(CliErrors, BadPixelFormat) {
  std::string a = write("a.yuv", std::string(384, '\x10'));
  expect_error({"-r", a, "-d", a, "-w", "16", "-h", "16", "-p", "411", "-b", "8"},
               "-p/--pixel_format 411: expected 420, 422 or 444");
}

TEST_F(CliErrors, UnknownModel) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "--model", "version=vmaf_v9"}, "vmaf_v9");
}

TEST_F(CliErrors, UnreadableModelFile) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "--model", "path=" + path("none.json")}, path("none.json"));
}

TEST_F(CliErrors, MalformedModelFile) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  std::string m = write("m.json", "{ not json");
  expect_error({"-r", a, "-d", a, "--model", "path=" + m}, m);
}

TEST_F(CliErrors, BadModelKey) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error(
      {"-r", a, "-d", a, "--model", "version=vmaf_v0.6.1:colour=red"},
      "unknown key 'colour' (expected version, path, name, disable_clip, enable_transform or extractor.option)");
}

TEST_F(CliErrors, DuplicateModelNames) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "--model", "version=vmaf_v0.6.1", "--model", "version=vmaf_v0.6.1neg"},
               "two models are named 'vmaf'");
}

TEST_F(CliErrors, UnknownFeature) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "sharpness"}, "unknown feature extractor 'sharpness'");
}

TEST_F(CliErrors, UnknownFeatureOption) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr=colour=1"}, "psnr: unknown option 'colour'");
}

TEST_F(CliErrors, MalformedFeatureOption) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr=enable_mse"}, "psnr: malformed option 'enable_mse'");
}

TEST_F(CliErrors, BadFeatureOptionValue) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr=enable_mse=maybe"},
               "psnr: option enable_mse=maybe: expected true or false");
}

TEST_F(CliErrors, BadPrecision) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "--precision", "99"}, "--precision 99: expected 1..17 or max");
}

TEST_F(CliErrors, UnknownBackend) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "--backend", "metal"}, "backend 'metal': unknown");
}

TEST_F(CliErrors, SkipBeyondEnd) {
  std::string a = y4m("a.y4m", 16, 16, 2);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr", "--frame_skip_ref", "5"},
               a + ": has only 2 frames, cannot skip 5");
}

TEST_F(CliErrors, OutputDirectoryMissing) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  Result r = run({"-r", a, "-d", a, "-n", "--feature", "psnr", "-o", path("no/such/dir/out.xml")});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find(path("no/such/dir/out.xml") + ": cannot create output file"), std::string::npos) << r.err;
}

TEST_F(CliErrors, ExistingReportUntouchedOnError) {
  std::string a = y4m("a.y4m", 16, 16, 2);
  std::string b = y4m("b.y4m", 16, 16, 2, "C420jpeg", 1, 3);
  const std::string out = write("keep.json", "previous");
  Result r = run({"-r", a, "-d", b, "-n", "--feature", "psnr", "--json", "-o", out});
  EXPECT_NE(r.status, 0);
  std::ifstream in(out);
  std::string s((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(s, "previous");
}

TEST_F(CliErrors, OutputToADeviceWritesThroughIt) {
  // -o /dev/null is common: the report goes into the device, which must stay
  // a device (renaming a temporary over it would replace it with a file).
  std::string a = y4m("a.y4m", 16, 16, 1);
  Result r = run({"-r", a, "-d", a, "-n", "--feature", "psnr", "--json", "-o", "/dev/null", "-q"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  // and a FIFO receives the report (a reader drains it)
  const std::string fifo = path("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] {
    std::ifstream in(fifo);
    got.assign(std::istreambuf_iterator<char>(in), {});
  });
  r = run({"-r", a, "-d", a, "-n", "--feature", "psnr", "--json", "-o", fifo, "-q"});
  reader.join();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_NE(got.find("\"psnr_y\""), std::string::npos) << got;
}

TEST_F(CliErrors, OutputThroughASymlinkKeepsTheLink) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  const std::string real = write("real.json", "old");
  const std::string link = path("link.json");
  fs::create_symlink(real, link);
  Result r = run({"-r", a, "-d", a, "-n", "--feature", "psnr", "--json", "-o", link, "-q"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link));
  std::ifstream in(real);
  const std::string s((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(s.find("\"psnr_y\""), std::string::npos) << s;
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << "temporary left: " << e.path();
}

TEST_F(CliErrors, OutputIsADirectory) {
  std::string a = y4m("a.y4m", 16, 16, 1);
  fs::create_directories(path("adir"));
  Result r = run({"-r", a, "-d", a, "-n", "--feature", "psnr", "-o", path("adir")});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err, "vmaf: error: " + path("adir") + ": cannot write output file: is a directory\n");
  EXPECT_TRUE(fs::is_directory(path("adir")));
}

TEST_F(CliErrors, MissingReferenceFlag) {
  Result r = run({"-d", "x.y4m"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "vmaf: -r/--reference is required (see --help)\n");
}

TEST_F(CliErrors, UnknownFlag) {
  Result r = run({"-r", "a", "-d", "b", "--colour"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--colour"), std::string::npos) << r.err;
}

}  // namespace
