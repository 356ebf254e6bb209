// SPDX-License-Identifier: BSD-3-Clause
// Reader refusals that only a library caller can reach (the CLI checks its
// -b and -p first): the exact one-line message, naming the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "io/video_reader.hpp"

namespace vmafx {
namespace {

namespace fs = std::filesystem;

std::string open_error(const std::string& path, const RawFormat& raw) {
  try {
    open_video(path, raw);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ReaderErrors, RawFormatOutsideWhatAPictureHolds) {
  const fs::path f = fs::temp_directory_path() / "vmafx_reader_errors.yuv";
  std::ofstream(f, std::ios::binary) << std::string(96, '\x10');
  const std::string p = f.string();
  EXPECT_EQ(open_error(p, {8, 8, ChromaFormat::k420, 7}), p + ": bad raw bit depth 7 (8 to 16)");
  EXPECT_EQ(open_error(p, {8, 8, ChromaFormat::k420, 40}), p + ": bad raw bit depth 40 (8 to 16)");
  EXPECT_EQ(open_error(p, {8, 8, ChromaFormat(4), 8}), p + ": bad raw chroma format 4");
  EXPECT_EQ(open_error(p, {8, 8, ChromaFormat::k400, 8}), "no error");  // 64 bytes a frame: fine to open
  fs::remove(f);
}

}  // namespace
}  // namespace vmafx
