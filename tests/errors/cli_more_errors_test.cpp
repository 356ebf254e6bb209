// SPDX-License-Identifier: BSD-3-Clause
// More bad input for the CLI, one test per error message that had none
// (scripts/error-audit.py lists them): a non-zero exit, one line on stderr
// naming the input or option and the problem, no report and no temporary
// file left behind.
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "backend/backends.hpp"

namespace {

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define VMAFX_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define VMAFX_SANITIZED 1
#endif
#endif
#ifndef VMAFX_SANITIZED
#define VMAFX_SANITIZED 0
#endif

struct Result {
  int status;
  std::string err;
};

class CliMoreErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vmafx_more_errors_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& bytes) {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }
  // An 8-bit 4:2:0 Y4M clip with a gradient.
  std::string y4m(const std::string& name, int w, int h, int frames) {
    std::string data = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 C420jpeg\n";
    const std::size_t n = std::size_t(w) * h + 2 * std::size_t((w + 1) / 2) * ((h + 1) / 2);
    for (int i = 0; i < frames; ++i) {
      data += "FRAME\n";
      for (std::size_t k = 0; k < n; ++k) data.push_back(char((k * 3 + k / w + i) & 0xff));
    }
    return write(name, data);
  }

  // Runs the CLI; `prefix` is shell text run before it in its own subshell
  // (ulimit, trap). Its stderr goes through a pipe, so that a file-size
  // limit on the CLI does not stop the message from being recorded.
  Result run(const std::vector<std::string>& args, const std::string& prefix = "",
             const std::string& stdout_to = "/dev/null") {
    std::string cli = std::string("'") + VMAFX_CLI_PATH + "'";
    for (const auto& a : args) cli += " '" + a + "'";
    const std::string err = path("stderr.txt");
    const std::string cmd =
        "{ (" + prefix + " exec " + cli + " >" + stdout_to + ") 2>&1; echo \"exit=$?\"; } | cat >'" + err + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(err);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const auto at = text.rfind("exit=");
    if (at == std::string::npos) return {-1, text};
    return {std::atoi(text.c_str() + at + 5), text.substr(0, at)};
  }

  // Failure, exactly `line` on stderr, no report, no temporary.
  void expect_error(std::vector<std::string> args, const std::string& line, const std::string& prefix = "",
                    const std::string& out = "") {
    const std::string report = out.empty() ? path("out.json") : out;
    args.insert(args.end(), {"--json", "-o", report, "-q"});
    const Result r = run(args, prefix);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "vmaf: error: " + line + "\n");
    if (report.rfind(dir_.string(), 0) == 0) {
      EXPECT_FALSE(fs::exists(report)) << "a report was written";
    }
    for (const auto& e : fs::directory_iterator(dir_))
      EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << "temporary left: " << e.path();
  }

  fs::path dir_;
};

TEST_F(CliMoreErrors, MissingDistortedFlag) {
  const Result r = run({"-r", "x.y4m"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "vmaf: -d/--distorted is required (see --help)\n");
}

TEST_F(CliMoreErrors, NegativeStreamIndex) {
  expect_error({"-r", "a.mkv", "-d", "b.mkv", "--ref-stream", "-1"}, "--ref-stream/--dis-stream: expected 0 or more");
}

TEST_F(CliMoreErrors, UnknownLibvmafCpu) {
  const std::string a = y4m("a.y4m", 32, 32, 1);
  expect_error({"-r", a, "-d", a, "--libvmaf-cpu", "arm"}, "libvmaf_cpu 'arm': expected auto, intel, amd or generic");
}

TEST_F(CliMoreErrors, UnknownLibvmafCpuOfAFeature) {
  const std::string a = y4m("a.y4m", 32, 32, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "float_adm=libvmaf_cpu=x86"},
               "float_adm: libvmaf_cpu 'x86': expected auto, intel, amd or generic");
}

TEST_F(CliMoreErrors, Y4mHeaderTooLong) {
  const std::string a = y4m("a.y4m", 16, 16, 1);
  const std::string b = write("b.y4m", "YUV4MPEG2 W16 H16 X" + std::string(5000, 'x') + "\nFRAME\n");
  expect_error({"-r", a, "-d", b}, b + ": Y4M header too long");
}

TEST_F(CliMoreErrors, FrameHeaderTooLong) {
  const std::string a = y4m("a.y4m", 16, 16, 1);
  const std::string b = write("b.y4m", "YUV4MPEG2 W16 H16 C420\nFRAME X" + std::string(5000, 'x') + "\n");
  expect_error({"-r", a, "-d", b, "-n", "--feature", "psnr"}, b + ": frame 0: frame header too long");
}

TEST_F(CliMoreErrors, BadY4mSignature) {
  const std::string a = y4m("a.y4m", 16, 16, 1);
  const std::string b = write("b.y4m", "YUV4MPEG W16 H16 C420\nFRAME\n");
  expect_error({"-r", a, "-d", b}, b + ": bad Y4M signature");
}

TEST_F(CliMoreErrors, BadRawFrameSize) {
  const std::string a = write("a.yuv", std::string(384, '\x10'));
  expect_error({"-r", a, "-d", a, "-w", "40000", "-h", "16", "-p", "420", "-b", "8"},
               a + ": bad raw frame size 40000x16");
}

TEST_F(CliMoreErrors, ReadError) {
  // Reading /proc/self/mem at offset 0 fails with EIO.
  const std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", "/proc/self/mem", "-d", a}, "/proc/self/mem: read error: Input/output error");
}

TEST_F(CliMoreErrors, ModelFileReadError) {
  const std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "--model", "path=/proc/self/mem"},
               "/proc/self/mem: cannot read model file: Input/output error");
}

TEST_F(CliMoreErrors, ReportOnAFullDisk) {
  // A device: written through, and the failure is reported with its reason.
  const std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr"}, "/dev/full: write failed: No space left on device", "",
               "/dev/full");
}

TEST_F(CliMoreErrors, ReportToAFullStandardOutput) {
  const std::string a = y4m("a.y4m", 16, 16, 1);
  const Result r = run({"-r", a, "-d", a, "-n", "--feature", "psnr", "--json", "-o", "-", "-q"}, "", "/dev/full");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "vmaf: error: standard output: write failed: No space left on device\n");
}

TEST_F(CliMoreErrors, ReportLargerThanTheFileSizeLimit) {
  // A regular file: the temporary cannot grow (RLIMIT_FSIZE, SIGXFSZ
  // ignored), the run fails, and neither a report nor a temporary is left.
  const std::string a = y4m("a.y4m", 16, 16, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr"}, path("out.json") + ": write failed: File too large",
               "trap '' XFSZ; ulimit -S -f 0;");
}

// Not in the sanitizer builds: their shadow memory takes more address space
// than the limit.
#if !VMAFX_SANITIZED
TEST_F(CliMoreErrors, OutOfMemory) {
  // Each picture of 8192x8192 16-bit 4:4:4 takes 384 MiB: none fits in 256 MiB.
  const std::string a = write("a.y4m", "YUV4MPEG2 W8192 H8192 C444p16\nFRAME\n");
  expect_error({"-r", a, "-d", a, "-n", "--feature", "psnr", "--threads", "1", "--backend", "cpu"}, "out of memory",
               "ulimit -v 262144;");
}
#endif

TEST_F(CliMoreErrors, CambiHeatmapFileCannotBeOpened) {
  // heatmaps_path is a directory in which no file can be made.
  const std::string a = y4m("a.y4m", 256, 64, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "cambi=heatmaps_path=/proc/self"},
               "cambi: could not open heatmap file '/proc/self/cambi_heatmap_scale_0_256x64_16b.gray'");
}

TEST_F(CliMoreErrors, CambiHeatmapCannotBeWritten) {
  const std::string a = y4m("a.y4m", 256, 64, 1);
  expect_error({"-r", a, "-d", a, "-n", "--feature", "cambi=heatmaps_path=" + path("maps")},
               "cambi: cannot write heatmap for frame 0", "trap '' XFSZ; ulimit -S -f 0;");
}

}  // namespace
