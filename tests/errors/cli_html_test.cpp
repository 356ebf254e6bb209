// SPDX-License-Identifier: BSD-3-Clause
// The CLI's --html, --html-worst and --percentiles: bad values are one-line
// errors that leave no report; a page is written beside the report; without
// --percentiles the reports do not change.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const std::string kClips = std::string(VMAFX_TEST_DATA_DIR) + "/golden/clips/";
const std::string kRef = kClips + "chelsea352.ref.y4m", kDis = kClips + "chelsea352__gblur1.5.dis.y4m";

class CliHtml : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vmafx_html_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& n) const { return (dir_ / n).string(); }
  std::string read(const std::string& p) const {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // Runs the CLI with a shell command line's arguments; returns (status, stderr).
  std::pair<int, std::string> run(const std::string& args, const std::string& before = "") {
    const std::string cmd = before + "'" + VMAFX_CLI_PATH + "' " + args + " >/dev/null 2>'" + path("err") + "'";
    const int rc = std::system(cmd.c_str());
    return {WIFEXITED(rc) ? WEXITSTATUS(rc) : 128, read(path("err"))};
  }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_))
      if (e.path().filename() != "err") out.push_back(e.path().filename().string());
    return out;
  }
  fs::path dir_;
};

TEST_F(CliHtml, BadPercentiles) {
  const std::string base = "-r '" + kRef + "' -d '" + kDis + "' --json -o '" + path("r.json") + "' --html '" +
                           path("r.html") + "' -q --percentiles ";
  auto [rc, err] = run(base + "1,abc");
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(err,
            "vmaf: error: --percentiles 1,abc: percentile 'abc': expected a number from 0 to 100 with at most 3 "
            "decimals\n");
  EXPECT_TRUE(files().empty());
  std::tie(rc, err) = run(base + "5,5");
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(err, "vmaf: error: --percentiles 5,5: percentile 5 is given twice\n");
  EXPECT_TRUE(files().empty());
}

TEST_F(CliHtml, UnwritablePage) {
  fs::create_directories(path("page"));
  auto [rc, err] = run("-r '" + kRef + "' -d '" + kDis + "' -q --html '" + path("page") + "'");
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(err, "vmaf: error: " + path("page") + ": cannot write output file: is a directory\n");
  std::tie(rc, err) = run("-r '" + kRef + "' -d '" + kDis + "' -q --html '" + path("no/r.html") + "'");
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(err, "vmaf: error: " + path("no/r.html") + ": cannot create output file: No such file or directory\n");
  EXPECT_EQ(files(), std::vector<std::string>{"page"});
  EXPECT_TRUE(fs::is_empty(path("page")));
}

TEST_F(CliHtml, PageAndUnchangedReports) {
  const std::string common = "-r '" + kRef + "' -d '" + kDis + "' -q --threads 1 ";
  ASSERT_EQ(run(common + "--json -o '" + path("a.json") + "'").first, 0);
  ASSERT_EQ(run(common + "--json -o '" + path("b.json") + "' --html '" + path("b.html") + "' --html-worst 2").first, 0);
  // The page does not change the report (fps aside, which is measured).
  auto no_fps = [](std::string s) {
    return s.erase(s.find("\"fps\""), s.find('\n', s.find("\"fps\"")) - s.find("\"fps\""));
  };
  EXPECT_EQ(no_fps(read(path("a.json"))), no_fps(read(path("b.json"))));
  const std::string page = read(path("b.html"));
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  std::size_t frames = 0;
  for (std::size_t p = page.find("class=\"frame\""); p != std::string::npos; p = page.find("class=\"frame\"", p + 1))
    ++frames;
  EXPECT_EQ(frames, 2u);
  EXPECT_NE(page.find("chelsea352__gblur1.5.dis.y4m, 352x288 420 8-bit, 3 frames"), std::string::npos);
  EXPECT_NE(page.find("version=vmaf_v0.6.1"), std::string::npos);
  // --percentiles adds to the JSON's pooled_metrics only.
  ASSERT_EQ(run(common + "--json -o '" + path("c.json") + "' --percentiles 50").first, 0);
  const std::string c = read(path("c.json"));
  EXPECT_NE(c.find("\"p50\": "), std::string::npos);
  const std::string a = read(path("a.json"));
  EXPECT_EQ(no_fps(c.substr(0, c.find("\"pooled_metrics\""))), no_fps(a.substr(0, a.find("\"pooled_metrics\""))));
}

TEST_F(CliHtml, ThumbnailsNeedFilesNotPipes) {
  // The reference from a pipe: the page is written, with a note instead of thumbnails.
  ASSERT_EQ(run("-r /dev/stdin -d '" + kDis + "' -q --html '" + path("p.html") + "'", "cat '" + kRef + "' | ").first,
            0);
  const std::string page = read(path("p.html"));
  EXPECT_TRUE(page.find("No thumbnails: the clips could not be read a second time (input from a pipe).") !=
                  std::string::npos ||
              page.find("need a build with FFmpeg's libavcodec") != std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
}

TEST_F(CliHtml, ThumbnailsNotForPairsByTime) {
  ASSERT_EQ(run("-r '" + kRef + "' -d '" + kDis + "' -q --sync pts --html '" + path("t.html") + "'").first, 0);
  const std::string page = read(path("t.html"));
  EXPECT_TRUE(page.find("No thumbnails: frames paired by presentation time are not re-read") != std::string::npos ||
              page.find("need a build with FFmpeg's libavcodec") != std::string::npos);
}

TEST_F(CliHtml, LadderPage) {
  // Two renditions of one reference: one page with the summary and both.
  ASSERT_EQ(run("-r '" + kRef + "' -d '" + kDis + "' -d '" + kRef + "' -q --html '" + path("l.html") + "'").first, 0);
  const std::string page = read(path("l.html"));
  EXPECT_NE(page.find("id=\"summary\""), std::string::npos);
  EXPECT_NE(page.find("<tr data-rendition=\"1\" data-series=\"vmaf\"><td>chelsea352.ref.y4m</td>"), std::string::npos);
  EXPECT_NE(page.find("<section class=\"rendition\" data-rendition=\"1\">"), std::string::npos);
  EXPECT_EQ(page.find("data-rendition=\"2\""), std::string::npos);
}

}  // namespace
