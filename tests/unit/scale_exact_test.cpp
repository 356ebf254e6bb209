// SPDX-License-Identifier: BSD-3-Clause
// The exact scaler's set-up (core/scale_exact.hpp) without libswscale: the
// pairs it refuses, each with its message, and properties of its filters
// and of its same-size depth conversion. Equality with libswscale itself is
// tests/scale (built where libswscale is found).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "core/scale_exact.hpp"
#include "exact/swscale.h"

namespace vmafx {
namespace {

std::string plan_error(const PictureFormat& a, const PictureFormat& b) {
  try {
    sws::Plan p(a, b);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), Error::Kind::kUsage);
    return e.what();
  }
  return "";
}

TEST(ScaleExactPlan, RefusedPairs) {
  const ChromaFormat c420 = ChromaFormat::k420, c400 = ChromaFormat::k400;
  EXPECT_EQ(plan_error({64, 36, 11, c420}, {128, 72, 8, c420}),
            "exact scaling: no libswscale format for 64x36 11-bit (8, 9, 10, 12, 14 or 16 bits)");
  EXPECT_EQ(plan_error({64, 36, 8, c420}, {128, 72, 13, c420}),
            "exact scaling: no libswscale format for 128x72 13-bit (8, 9, 10, 12, 14 or 16 bits)");
  EXPECT_EQ(plan_error({64, 36, 8, c400}, {128, 72, 8, c420}), "exact scaling: gray pictures convert only to gray");
  EXPECT_EQ(plan_error({64, 36, 8, c420}, {0, 72, 8, c420}), "exact scaling: empty picture");
  EXPECT_EQ(plan_error({1, 1, 8, c420}, {8000, 1, 8, c420}),
            "exact scaling: 1x1 8-bit to 8000x1 8-bit is out of libswscale's range");
  EXPECT_EQ(plan_error({7680, 64, 8, c400}, {16, 64, 8, c400}),
            "scaling 7680 samples to 16 needs libswscale's two-step reduction, which vmaf-exact does not reproduce");
  EXPECT_EQ(plan_error({3840, 2160, 10, c420}, {1280, 720, 8, c420}), "");
}

TEST(ScaleExactPlan, Kinds) {
  const PictureFormat a{64, 36, 8, ChromaFormat::k420};
  EXPECT_EQ(sws::Plan(a, a).kind(), sws::Plan::Kind::kCopy);
  EXPECT_EQ(sws::Plan(a, {64, 36, 10, ChromaFormat::k420}).kind(), sws::Plan::Kind::kDepth);
  EXPECT_EQ(sws::Plan(a, {64, 36, 8, ChromaFormat::k444}).kind(), sws::Plan::Kind::kScale);
  EXPECT_EQ(sws::Plan(a, {65, 36, 8, ChromaFormat::k420}).kind(), sws::Plan::Kind::kScale);
}

// Every filter's taps sum to libswscale's one (2^14 across, 2^12 down),
// positions start inside the input and never decrease.
TEST(ScaleExactPlan, FiltersAreNormalised) {
  const int sizes[][2] = {{100, 200}, {200, 100}, {1920, 3840}, {3840, 1280}, {321, 640}, {17, 3}, {3, 17}, {5, 7}};
  for (const auto& s : sizes)
    for (const int one : {1 << 14, 1 << 12}) {
      const std::int64_t inc = ((std::int64_t(s[0]) << 16) + (s[1] >> 1)) / s[1];
      const sws::Filter f = sws::make_filter(s[0], s[1], inc, 128, 128, one);
      ASSERT_GE(f.size, 1);
      for (int i = 0; i < s[1]; ++i) {
        int sum = 0;
        for (int j = 0; j < f.size; ++j) sum += f.taps[std::size_t(i) * f.size + j];
        EXPECT_EQ(sum, one) << s[0] << " -> " << s[1] << " at " << i;
        EXPECT_GE(f.pos[i], 0);
        EXPECT_LT(f.pos[i], s[0]);
        if (i > 0) {
          EXPECT_GE(f.pos[i], f.pos[i - 1]);
        }
      }
    }
}

// Unscaled directions are the identity filter; an 8-bit picture whose rows
// only change chroma format keeps its luma.
TEST(ScaleExactPlan, UnscaledDirectionIsIdentity) {
  const sws::Filter f = sws::make_filter(64, 64, 0x10000, 128, 128, 1 << 14);
  ASSERT_EQ(f.size, 1);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(f.pos[i], i);
    EXPECT_EQ(f.taps[i], 1 << 14);
  }
  const PictureFormat a{33, 17, 8, ChromaFormat::k420}, b{33, 17, 8, ChromaFormat::k444};
  Picture in(a), out(b);
  for (int p = 0; p < 3; ++p)
    for (int y = 0; y < in.plane(p).height; ++y)
      for (int x = 0; x < in.plane(p).width; ++x) in.row<std::uint8_t>(p, y)[x] = std::uint8_t(x * 7 + y * 13 + p);
  sws::scale(sws::Plan(a, b), in, out);
  for (int y = 0; y < 17; ++y)
    for (int x = 0; x < 33; ++x) ASSERT_EQ(out.row<std::uint8_t>(0, y)[x], in.row<std::uint8_t>(0, y)[x]);
}

// Same-size depth changes: up is a shift, down is a dithered shift that
// never overflows the narrower range.
TEST(ScaleExactPlan, DepthConversion) {
  EXPECT_EQ(vmafx_sws_depth(255, 8, 10, 3, 5, 1), 1020);
  EXPECT_EQ(vmafx_sws_depth(255, 8, 10, 3, 5, 0), 1023);
  for (int v = 0; v < 1024; ++v)
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) {
        const int d = vmafx_sws_depth(v, 10, 8, x, y, 1);
        EXPECT_GE(d, 0);
        EXPECT_LE(d, 255);
        EXPECT_LE(std::abs(d * 4 - v), 4);
      }
}

}  // namespace
}  // namespace vmafx
