// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of the psnr_hvs extractor: the DCT, block counting, edge sizes and depths, errors.
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
#include "feature/psnr_hvs.hpp"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using namespace vmafx::test;

constexpr double kInf = std::numeric_limits<double>::infinity();

FeatureCollector run(const PictureFormat& fmt, const std::string& extractor, unsigned frames, const Filler& f,
                     const std::map<std::string, std::string>& opts = {}, unsigned threads = 0) {
  return run_engine(fmt, frames, f, {FeatureRequest{extractor, opts}}, EngineOptions{.threads = threads});
}

TEST(PsnrHvs, DctOfConstantBlockIsDcOnly) {
  for (auto [c, dc] : {std::pair{100, 800}, std::pair{101, 809}, std::pair{0, 0}}) {
    std::int32_t b[64];
    std::fill(b, b + 64, c);
    psnr_hvs::fdct8x8(b);
    EXPECT_EQ(b[0], dc) << c;
    for (int i = 1; i < 64; ++i) EXPECT_EQ(b[i], 0) << c << " at " << i;
  }
}

TEST(PsnrHvs, DctIsLinearInTheSign) {
  // The lifting steps round toward zero symmetrically only at the shifts by
  // one, so check the exact values of a simple ramp and its negation instead.
  std::int32_t a[64], n[64];
  for (int i = 0; i < 64; ++i) a[i] = (i % 8) * 10, n[i] = -(i % 8) * 10;
  psnr_hvs::fdct8x8(a);
  psnr_hvs::fdct8x8(n);
  EXPECT_GT(a[0], 0);
  EXPECT_LT(n[0], 0);
  for (int r = 1; r < 8; ++r)
    for (int c = 0; c < 8; ++c) EXPECT_EQ(a[r * 8 + c], 0) << "vertical frequency " << r << " of a horizontal ramp";
}

TEST(PsnrHvs, FlatOffsetCountsBlocksEverySevenSamples) {
  // 22x15: blocks at x = 0, 7, 14 and y = 0, 7 (6 blocks). Each has only a DC
  // error of 809 - 800 = 9; the masking threshold is 0 (no AC energy).
  PictureFormat f{22, 15, 8, ChromaFormat::k444};
  Picture r(f), d(f);
  fill(r, 100);
  fill(d, 101);
  const double e = psnr_hvs::plane_error(r.plane(0), d.plane(0), 8, 0);
  const float csf00 = 1.61938727f;
  const float term = (9.0f * csf00) * (9.0f * csf00);
  float want = 0;
  for (int b = 0; b < 6; ++b) want += term;
  want /= float(6 * 64);
  want /= float(255 * 255);
  EXPECT_EQ(e, double(want));
}

TEST(PsnrHvs, IdenticalPlanesAreInfiniteAndNamesArePlain) {
  const auto c = run({64, 48, 8, ChromaFormat::k420}, "psnr_hvs", 2, [](Picture& r, Picture& d, unsigned i) {
    fill_plane(r, 0, [i](int x, int y) { return long((x * 7 + y * 3 + i) % 256); });
    fill_plane(r, 1, [](int x, int) { return long(x); });
    fill_plane(r, 2, [](int, int y) { return long(y); });
    fill_plane(d, 0, [i](int x, int y) { return long((x * 7 + y * 3 + i) % 256); });
    fill_plane(d, 1, [](int x, int) { return long(x); });
    fill_plane(d, 2, [](int, int y) { return long(y); });
  });
  EXPECT_EQ(names(c), (std::vector<std::string>{"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"}));
  for (unsigned i = 0; i < 2; ++i)
    for (const char* n : {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"}) EXPECT_EQ(at(c, n, i), kInf) << n;
  EXPECT_EQ(psnr_hvs::to_db(0.0), kInf);
}

TEST(PsnrHvs, PlaneBelowEightSamplesIsNan) {
  // 4:2:0 at 14x14: chroma is 7x7, which holds no 8x8 block (libvmaf: 0 / 0).
  const auto c = run({14, 14, 8, ChromaFormat::k420}, "psnr_hvs", 1, [](Picture& r, Picture& d, unsigned) {
    fill(r, 50);
    fill(d, 60);
  });
  EXPECT_TRUE(std::isfinite(at(c, "psnr_hvs_y", 0)));
  EXPECT_TRUE(std::isnan(at(c, "psnr_hvs_cb", 0)));
  EXPECT_TRUE(std::isnan(at(c, "psnr_hvs_cr", 0)));
  EXPECT_TRUE(std::isnan(at(c, "psnr_hvs", 0)));
}

TEST(PsnrHvs, TwelveBitExtremesDoNotOverflow) {
  // Full-scale checkerboards of opposite phase: the largest DCT coefficients.
  PictureFormat f{32, 32, 12, ChromaFormat::k444};
  Picture r(f), d(f);
  fill_plane(r, 0, [](int x, int y) { return (x + y) % 2 ? 4095L : 0L; });
  fill_plane(d, 0, [](int x, int y) { return (x + y) % 2 ? 0L : 4095L; });
  const double e = psnr_hvs::plane_error(r.plane(0), d.plane(0), 12, 0);
  EXPECT_TRUE(std::isfinite(e));
  EXPECT_GT(e, 0.0);
  // The same picture at 8 bit (scaled by 255/4095 = 1/16.06) is in the same
  // range once normalised by the peak.
  PictureFormat f8{32, 32, 8, ChromaFormat::k444};
  Picture r8(f8), d8(f8);
  fill_plane(r8, 0, [](int x, int y) { return (x + y) % 2 ? 255L : 0L; });
  fill_plane(d8, 0, [](int x, int y) { return (x + y) % 2 ? 0L : 255L; });
  const double e8 = psnr_hvs::plane_error(r8.plane(0), d8.plane(0), 8, 0);
  EXPECT_NEAR(e / e8, 1.0, 0.01);
}

TEST(PsnrHvs, Errors) {
  for (int bpc : {13, 16})
    EXPECT_EQ(create_error("psnr_hvs", {64, 64, bpc, ChromaFormat::k420}),
              "psnr_hvs: invalid bit depth " + std::to_string(bpc) + ", bpc must be less than or equal to 12");
  EXPECT_EQ(create_error("psnr_hvs", {64, 64, 8, ChromaFormat::k400}),
            "psnr_hvs: 4:0:0 (luma-only) input is not supported; psnr_hvs scores all three planes");
  EXPECT_EQ(create_error("psnr_hvs", {64, 64, 8, ChromaFormat::k420}, {{"x", "1"}}),
            "psnr_hvs: unknown option 'x' (it takes no options)");
  for (int bpc : {8, 9, 10, 11, 12}) EXPECT_EQ(create_error("psnr_hvs", {64, 64, bpc, ChromaFormat::k422}), "");
}

TEST(PsnrHvs, ThreadsGiveIdenticalOutput) {
  const PictureFormat f{67, 45, 10, ChromaFormat::k444};
  auto filler = [](Picture& r, Picture& d, unsigned i) {
    for (int p = 0; p < 3; ++p) {
      fill_plane(r, p, [i, p](int x, int y) { return long((x * 13 + y * 7 + i * 5 + p) % 1024); });
      fill_plane(d, p, [i, p](int x, int y) { return long((x * 13 + y * 7 + i * 5 + p + (x * y) % 9) % 1024); });
    }
  };
  EXPECT_TRUE(same_collectors(run(f, "psnr_hvs", 5, filler), run(f, "psnr_hvs", 5, filler, {}, 2)));
}

}  // namespace
}  // namespace vmafx
