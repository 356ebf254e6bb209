// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "io/video_reader.hpp"
#include "support/golden.hpp"

namespace vmafx {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::string& header) {
  try {
    parse_y4m_header(header, "x.y4m");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Y4mHeader, ColourSpacesAndDepths) {
  struct Case {
    const char* tag;
    ChromaFormat chroma;
    int bpc;
  } cases[] = {
      {"C420jpeg", ChromaFormat::k420, 8}, {"C420mpeg2", ChromaFormat::k420, 8}, {"C420paldv", ChromaFormat::k420, 8},
      {"C420", ChromaFormat::k420, 8},     {"C422", ChromaFormat::k422, 8},      {"C444", ChromaFormat::k444, 8},
      {"C420p10", ChromaFormat::k420, 10}, {"C422p10", ChromaFormat::k422, 10},  {"C444p12", ChromaFormat::k444, 12},
      {"C420p16", ChromaFormat::k420, 16}, {"Cmono", ChromaFormat::k400, 8}};
  for (const Case& c : cases) {
    PictureFormat f = parse_y4m_header(std::string("W352 H288 F30000:1001 It A1:1 ") + c.tag + " XYSCSS=420JPEG", "x");
    EXPECT_EQ(f.width, 352) << c.tag;
    EXPECT_EQ(f.height, 288) << c.tag;
    EXPECT_EQ(f.chroma, c.chroma) << c.tag;
    EXPECT_EQ(f.bpc, c.bpc) << c.tag;
  }
}

TEST(Y4mHeader, DefaultsTo420EightBit) {
  PictureFormat f = parse_y4m_header("W4 H2", "x");
  EXPECT_EQ(f.chroma, ChromaFormat::k420);
  EXPECT_EQ(f.bpc, 8);
}

TEST(Y4mHeader, Errors) {
  EXPECT_EQ(error_of("H2 C420"), "x.y4m: Y4M header has no width (W)");
  EXPECT_EQ(error_of("W2 C420"), "x.y4m: Y4M header has no height (H)");
  EXPECT_EQ(error_of("W0 H2"), "x.y4m: bad Y4M width '0'");
  EXPECT_EQ(error_of("W2 H-1"), "x.y4m: bad Y4M height '-1'");
  EXPECT_EQ(error_of("W99999 H2"), "x.y4m: bad Y4M width '99999'");
  EXPECT_EQ(error_of("W2 H2 C420p11"), "x.y4m: unsupported Y4M colour space 'C420p11'");
  EXPECT_EQ(error_of("W2 H2 Z1"), "x.y4m: unknown Y4M header field 'Z1'");
  EXPECT_EQ(error_of("W16384 H16384 C420"),
            "x.y4m: frame size 16384x16384 is too large (at most 67108864 luma samples, e.g. 8192x8192)");
  EXPECT_EQ(error_of("W8192 H8192 C420p16"), "no error");
}

TEST(PictureFormat, OddSizesRoundChromaUp) {
  PictureFormat f{351, 287, 8, ChromaFormat::k420};
  EXPECT_EQ(f.plane_width(1), 176);
  EXPECT_EQ(f.plane_height(2), 144);
  f.chroma = ChromaFormat::k422;
  EXPECT_EQ(f.plane_width(1), 176);
  EXPECT_EQ(f.plane_height(1), 287);
  f.chroma = ChromaFormat::k444;
  EXPECT_EQ(f.plane_width(1), 351);
  EXPECT_EQ(f.frame_bytes(), 3u * 351 * 287);
}

TEST(VideoReader, ReadsEveryGoldenClipCompletely) {
  for (const test::GoldenPair& p : test::golden_pairs()) {
    for (const std::string& path : {p.ref, p.dis}) {
      auto r = open_video(path, p.raw);
      EXPECT_EQ(r->format().width, p.width) << path;
      EXPECT_EQ(r->format().height, p.height) << path;
      EXPECT_EQ(r->format().bpc, p.bpc) << path;
      Picture pic(r->format());
      int n = 0;
      while (r->read(pic)) ++n;
      EXPECT_EQ(n, p.frames) << path;
    }
  }
}

TEST(VideoReader, SamplesLandInPlanes) {
  const fs::path dir = fs::temp_directory_path() / "vmafx_reader_test";
  fs::create_directories(dir);
  const std::string path = (dir / "t.y4m").string();
  {
    std::ofstream o(path, std::ios::binary);
    o << "YUV4MPEG2 W3 H3 C420p10 XCOLORRANGE=FULL\nFRAME Ixyz\n";
    // 3x3 luma, 2x2 chroma twice, little-endian 16-bit words.
    for (int i = 0; i < 9 + 4 + 4; ++i) {
      const int v = i * 60;
      o.put(char(v & 255));
      o.put(char(v >> 8));
    }
  }
  auto r = open_video(path, std::nullopt);
  Picture pic(r->format());
  ASSERT_TRUE(r->read(pic));
  EXPECT_EQ(pic.row<std::uint16_t>(0, 0)[0], 0);
  EXPECT_EQ(pic.row<std::uint16_t>(0, 2)[2], 8 * 60);
  EXPECT_EQ(pic.row<std::uint16_t>(1, 0)[0], 9 * 60);
  EXPECT_EQ(pic.row<std::uint16_t>(1, 1)[1], 12 * 60);
  EXPECT_EQ(pic.row<std::uint16_t>(2, 1)[1], 16 * 60);
  EXPECT_FALSE(r->read(pic));
  EXPECT_EQ(r->frames_read(), 1u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace vmafx
