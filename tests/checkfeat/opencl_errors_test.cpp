// SPDX-License-Identifier: BSD-3-Clause
// OpenCL backend error paths: no ICD platform, a bad --gpu index, auto
// fallback. Each failure is one line on stderr, a non-zero exit and no report.
// The platform-less cases run the CLI with OCL_ICD_VENDORS pointed at an
// empty directory, so they need no device and run everywhere.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "core/error.hpp"

namespace vmafx {
namespace {

#ifdef VMAFX_HAVE_OPENCL
namespace fs = std::filesystem;

struct Result {
  int status = -1;
  std::string out, err;
};

class OpenclErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vmafx_ocl_errors_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "no_vendors");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Runs the CLI; `no_platform` hides every OpenCL ICD from it.
  Result run(const std::vector<std::string>& args, bool no_platform) {
    std::string cmd;
    if (no_platform) cmd = "env -u OCL_ICD_FILENAMES OCL_ICD_VENDORS='" + path("no_vendors") + "' ";
    cmd += std::string("'") + VMAFX_CLI_PATH + "'";
    for (const auto& a : args) cmd += " '" + a + "'";
    cmd += " >'" + path("stdout.txt") + "' 2>'" + path("stderr.txt") + "'";
    const int rc = std::system(cmd.c_str());
    Result r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    r.out = slurp(path("stdout.txt"));
    r.err = slurp(path("stderr.txt"));
    return r;
  }
  static std::string slurp(const std::string& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  static std::vector<std::string> clip_args() {
    const std::string clips = std::string(VMAFX_TEST_DATA_DIR) + "/golden/clips/";
    return {"-r", clips + "astro176.ref.y4m", "-d", clips + "astro176__noise.dis.y4m"};
  }
  static int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
  }

  fs::path dir_;
};

TEST_F(OpenclErrors, NoPlatformIsOneLineAndNonZeroExit) {
  std::vector<std::string> a = clip_args();
  const std::string report = path("report.json");
  a.insert(a.end(), {"--backend", "opencl", "--json", "-o", report});
  const Result r = run(a, true);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("opencl: no OpenCL platform found"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(report)) << "a report was written";
}

TEST_F(OpenclErrors, NoPlatformListsNoDevice) {
  const Result r = run({"--list-devices"}, true);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("opencl "), std::string::npos) << r.out;
}

TEST_F(OpenclErrors, NoPlatformAutoFallsBackToCpu) {
  std::vector<std::string> a = clip_args();
  const std::string report = path("report.json");
  a.insert(a.end(), {"--backend", "auto", "--json", "-o", report});
  const Result r = run(a, true);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(report));
}

TEST_F(OpenclErrors, AutoNeverPicksACpuDevice) {
  // PoCL alone (the OpenCL device is the host CPU) and no CUDA device: auto
  // scores on the CPU backend, which is faster there, and says why.
  const fs::path pocl = "/etc/OpenCL/vendors/pocl.icd";
  if (!fs::exists(pocl)) GTEST_SKIP() << "PoCL is not installed";
  fs::create_directories(dir_ / "pocl_only");
  fs::copy_file(pocl, dir_ / "pocl_only" / "pocl.icd");
  std::vector<std::string> a = clip_args();
  const std::string report = path("report.json");
  a.insert(a.end(), {"--backend", "auto", "--json", "-o", report});
  std::string cmd = "env -u OCL_ICD_FILENAMES CUDA_VISIBLE_DEVICES= OCL_ICD_VENDORS='" + path("pocl_only") + "' '" +
                    VMAFX_CLI_PATH + "'";
  for (const auto& x : a) cmd += " '" + x + "'";
  cmd += " >'" + path("stdout.txt") + "' 2>'" + path("stderr.txt") + "'";
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc)) << rc;
  EXPECT_EQ(WEXITSTATUS(rc), 0);
  const std::string err = slurp(path("stderr.txt"));
  EXPECT_NE(err.find("is the CPU itself; not used by --backend auto"), std::string::npos) << err;
  EXPECT_EQ(err.find("opencl backend on"), std::string::npos) << err;
  EXPECT_TRUE(fs::exists(report));
}

TEST_F(OpenclErrors, BadGpuIndex) {
  if (list_opencl_devices().empty()) GTEST_SKIP() << "no OpenCL device";
  std::vector<std::string> a = clip_args();
  const std::string report = path("report.json");
  a.insert(a.end(), {"--backend", "opencl", "--gpu", "99", "--json", "-o", report});
  const Result r = run(a, false);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("device 99: no such device"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(report));
}

TEST(OpenclBackend, ListDevicesNames) {
  for (const std::string& s : list_opencl_devices()) {
    EXPECT_EQ(s.rfind("opencl ", 0), 0u) << s;
    EXPECT_NE(s.find(" / "), std::string::npos) << s;
  }
}

TEST(OpenclBackend, InProcessBadIndexThrowsError) {
  if (list_opencl_devices().empty()) GTEST_SKIP() << "no OpenCL device";
  EXPECT_THROW(create_backend("opencl", -1), Error);
  EXPECT_THROW(create_backend("opencl", 1 << 20), Error);
}

#endif  // a build without the backend has no such tests

}  // namespace
}  // namespace vmafx
