// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of the ciede extractor: colour conversion, chroma layouts, edge sizes and depths, errors.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "feature/ciede.hpp"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using namespace vmafx::test;

constexpr double kInf = std::numeric_limits<double>::infinity();

FeatureCollector run(const PictureFormat& fmt, const std::string& extractor, unsigned frames, const Filler& f,
                     const std::map<std::string, std::string>& opts = {}, unsigned threads = 0) {
  return run_engine(fmt, frames, f, {FeatureRequest{extractor, opts}}, EngineOptions{.threads = threads});
}

TEST(Ciede, FrameScore) {
  EXPECT_EQ(ciede::frame_score(6.0 * 4.0, 6, 4), 45.0);  // mean dE00 of 1
  EXPECT_EQ(ciede::frame_score(0.0, 6, 4), kInf);
  EXPECT_EQ(ciede::frame_score(60.0 * 40.0 * 10.0, 60, 40), 25.0);
}

TEST(Ciede, SameColourHasNoDifference) {
  for (auto [y, u, v] : {std::tuple{16.0, 128.0, 128.0}, std::tuple{235.0, 128.0, 128.0}, std::tuple{81.0, 90.0, 240.0},
                         std::tuple{145.0, 54.0, 34.0}}) {
    const ciede::Lab c = ciede::lab_from_yuv(y, u, v, 8);
    EXPECT_EQ(ciede::delta_e00(c, c), 0.0f);
  }
  // Limited-range black is a = b = 0 and L = 0 up to the float rounding of
  // the companded 16/116, at every depth.
  const float f0 = float(16.0 * (1.0 / 116.0));
  const float black_l = float((116.0 * double(f0)) - 16.0);
  EXPECT_NE(black_l, 0.0f);
  for (unsigned bpc : {8u, 10u, 12u, 16u}) {
    const double s = double(1 << (bpc - 8));
    const ciede::Lab k = ciede::lab_from_yuv(16 * s, 128 * s, 128 * s, bpc);
    EXPECT_EQ(k.l, black_l);
    EXPECT_EQ(k.a, 0.0f);
    EXPECT_EQ(k.b, 0.0f);
  }
  const ciede::Lab black = ciede::lab_from_yuv(16, 128, 128, 8);
  const ciede::Lab white = ciede::lab_from_yuv(235, 128, 128, 8);
  EXPECT_NEAR(white.l, 100.0f, 0.01f);
  EXPECT_GT(ciede::delta_e00(black, white), 100.0f);  // lightness weight 1 / 0.65
}

TEST(Ciede, IdenticalPicturesAreInfinite) {
  for (ChromaFormat cf : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444}) {
    const auto c = run({20, 10, 10, cf}, "ciede", 2, [](Picture& r, Picture& d, unsigned i) {
      for (int p = 0; p < 3; ++p) {
        fill_plane(r, p, [i, p](int x, int y) { return long(64 + (x * 31 + y * 17 + i + p * 100) % 876); });
        fill_plane(d, p, [i, p](int x, int y) { return long(64 + (x * 31 + y * 17 + i + p * 100) % 876); });
      }
    });
    EXPECT_EQ(names(c), std::vector<std::string>{"ciede2000"});
    EXPECT_EQ(at(c, "ciede2000", 0), kInf);
    EXPECT_EQ(at(c, "ciede2000", 1), kInf);
  }
}

TEST(Ciede, Chroma422ReadsLikeLibvmaf) {
  // 40x4 4:2:2: chroma rows of 20 samples, padded to 32 in libvmaf. Luma row i
  // reads chroma row i / 2 at column j: j < 20 the sample, 20..31 padding (0),
  // then row i / 2 + 1 at j - 32.
  PictureFormat f{40, 4, 8, ChromaFormat::k422};
  Picture p(f);
  fill_plane(p, 0, [](int, int) { return 0L; });
  fill_plane(p, 1, [](int x, int y) { return long(1 + y * 20 + x); });
  fill_plane(p, 2, [](int x, int y) { return long(101 + y * 20 + x); });
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 40; ++j) {
      const unsigned want = j < 20 ? 1 + (i / 2) * 20 + j : (j < 32 ? 0 : 1 + (i / 2 + 1) * 20 + (j - 32));
      EXPECT_EQ(ciede::chroma422_sample(p, 1, i, j), want) << i << "," << j;
      EXPECT_EQ(ciede::chroma422_sample(p, 2, i, j), want ? want + 100 : 0) << i << "," << j;
    }
  }
  // One row: reading past U continues in V; past V there is nothing (0).
  PictureFormat f1{40, 1, 16, ChromaFormat::k422};
  Picture q(f1);
  fill_plane(q, 1, [](int x, int) { return long(1000 + x); });
  fill_plane(q, 2, [](int x, int) { return long(2000 + x); });
  EXPECT_EQ(ciede::chroma422_sample(q, 1, 0, 5), 1005u);
  EXPECT_EQ(ciede::chroma422_sample(q, 1, 0, 35), 2003u);
  EXPECT_EQ(ciede::chroma422_sample(q, 2, 0, 35), 0u);
}

TEST(Ciede, SixteenBitExtremesAreFinite) {
  const auto c = run({16, 8, 16, ChromaFormat::k420}, "ciede", 1, [](Picture& r, Picture& d, unsigned) {
    fill(r, 0);
    fill(d, 65535);
  });
  EXPECT_TRUE(std::isfinite(at(c, "ciede2000", 0)));
}

TEST(Ciede, OddSizesUseEveryPixel) {
  // 4:4:4 at 5x3 and 4:2:0 at 5x3 (chroma 3x2, rounded up): finite, and one
  // changed corner pixel changes the score.
  for (ChromaFormat cf : {ChromaFormat::k444, ChromaFormat::k420}) {
    const auto c = run({5, 3, 8, cf}, "ciede", 1, [](Picture& r, Picture& d, unsigned) {
      fill(r, 128);
      fill(d, 128);
      set_sample(d, 0, 4, 2, 140);
    });
    const double v = at(c, "ciede2000", 0);
    EXPECT_TRUE(std::isfinite(v));
    EXPECT_GT(v, 45.0);
  }
}

TEST(Ciede, Errors) {
  EXPECT_EQ(create_error("ciede", {64, 64, 8, ChromaFormat::k400}),
            "ciede: 4:0:0 (luma-only) input is not supported; ciede needs chroma");
  for (int bpc : {9, 11, 13, 14, 15})
    EXPECT_EQ(create_error("ciede", {64, 64, bpc, ChromaFormat::k444}),
              "ciede: unsupported bit depth " + std::to_string(bpc) + " (8, 10, 12 or 16)");
  for (int bpc : {8, 10, 12, 16}) EXPECT_EQ(create_error("ciede", {64, 64, bpc, ChromaFormat::k420}), "");
}

}  // namespace
}  // namespace vmafx
