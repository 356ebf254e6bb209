// SPDX-License-Identifier: BSD-3-Clause
// The host side of the SpEED device twins (feature/cuda/speed.cu,
// feature/opencl/speed.cl): flt::scale_axis's per-axis tables, evaluated as
// the kernels evaluate them, give flt::scale_frame's image bit for bit for
// every method, for shrinking and enlarging, odd sizes and one axis
// unchanged; and speed::score() is score_decimated() of the decimation the
// kernels compute.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "feature/float_common.hpp"
#include "feature/speed.hpp"

namespace vmafx {
namespace {

// The kernels' arithmetic (speed_scale_nearest / _bilinear / _interp).
std::vector<float> scale_by_tables(flt::ScaleMethod m, const std::vector<float>& src, int w, int h, int dw, int dh) {
  std::vector<int> ix, iy;
  std::vector<float> wx, wy;
  const int taps = flt::scale_axis(m, w, dw, ix, wx);
  EXPECT_EQ(flt::scale_axis(m, h, dh, iy, wy), taps);
  std::vector<float> out(std::size_t(dw) * dh);
  for (int y = 0; y < dh; ++y)
    for (int x = 0; x < dw; ++x) {
      float v = 0.0f;
      switch (m) {
        case flt::ScaleMethod::kNearest: v = src[std::size_t(iy[y]) * w + ix[x]]; break;
        case flt::ScaleMethod::kBilinear: {
          const float* r1 = src.data() + std::size_t(iy[2 * y]) * w;
          const float* r2 = src.data() + std::size_t(iy[2 * y + 1]) * w;
          const float ox = wx[2 * x], dx = wx[2 * x + 1], oy = wy[2 * y], dy = wy[2 * y + 1];
          const float a = (oy * ox) * r1[ix[2 * x]];
          const float b = (oy * dx) * r1[ix[2 * x + 1]];
          const float c = (dy * ox) * r2[ix[2 * x]];
          const float d = (dy * dx) * r2[ix[2 * x + 1]];
          v = ((a + b) + c) + d;
          break;
        }
        default: {
          float value = 0.0f, sum = 0.0f;
          for (int j = 0; j < taps; ++j)
            for (int i = 0; i < taps; ++i) {
              const float wgt = wx[std::size_t(x) * taps + i] * wy[std::size_t(y) * taps + j];
              sum += wgt;
              value += src[std::size_t(iy[std::size_t(y) * taps + j]) * w + ix[std::size_t(x) * taps + i]] * wgt;
            }
          v = m == flt::ScaleMethod::kLanczos4 ? value / sum : value;
        }
      }
      out[std::size_t(y) * dw + x] = v;
    }
  return out;
}

TEST(SpeedTwin, ScaleTablesReproduceScaleFrame) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> px(0, 65535);
  const int sizes[][4] = {{80, 80, 40, 40},    {97, 83, 48, 41},  {97, 83, 194, 166},   {120, 88, 150, 110},
                          {176, 144, 176, 72}, {64, 90, 64, 135}, {352, 288, 211, 173}, {101, 99, 303, 99}};
  int compared = 0;
  for (auto m : {flt::ScaleMethod::kNearest, flt::ScaleMethod::kBilinear, flt::ScaleMethod::kBicubic,
                 flt::ScaleMethod::kLanczos4})
    for (const auto& s : sizes) {
      const int w = s[0], h = s[1], dw = s[2], dh = s[3];
      std::vector<float> src(std::size_t(w) * h);
      for (float& v : src) v = static_cast<float>(px(rng)) / 256.0f + -128.0f;  // 16-bit picture_copy
      std::vector<float> want(std::size_t(dw) * dh);
      flt::scale_frame(m, src.data(), w, h, want.data(), dw, dh);
      const std::vector<float> got = scale_by_tables(m, src, w, h, dw, dh);
      ASSERT_EQ(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)), 0)
          << "method " << int(m) << " " << w << "x" << h << " -> " << dw << "x" << dh;
      ++compared;
    }
  EXPECT_EQ(compared, 32);
}

TEST(SpeedTwin, ScaleAxisShapes) {
  std::vector<int> idx;
  std::vector<float> wt;
  EXPECT_EQ(flt::scale_axis(flt::ScaleMethod::kNearest, 100, 50, idx, wt), 1);
  EXPECT_EQ(idx.size(), 50u);
  EXPECT_EQ(idx[49], 98);  // int(49 * 2.0f)
  EXPECT_EQ(flt::scale_axis(flt::ScaleMethod::kBilinear, 100, 50, idx, wt), 2);
  // source_pos(0, 2) = 0.5: floor 0, ceil 1, weights 0.5 / 0.5
  EXPECT_EQ(idx[0], 0);
  EXPECT_EQ(idx[1], 1);
  EXPECT_EQ(wt[0], 0.5f);
  EXPECT_EQ(wt[1], 0.5f);
  EXPECT_EQ(flt::scale_axis(flt::ScaleMethod::kBicubic, 100, 50, idx, wt), 4);
  EXPECT_EQ(flt::scale_axis(flt::ScaleMethod::kLanczos4, 100, 50, idx, wt), 9);
  // mirrored left edge at output 0: x0 = 0, taps -4 .. 4 -> 4 3 2 1 0 1 2 3 4
  EXPECT_EQ(idx[0], 4);
  EXPECT_EQ(idx[4], 0);
  EXPECT_EQ(idx[8], 4);
}

TEST(SpeedTwin, AntialiasFilterIsNormalisedGaussian) {
  float f[128];
  speed::Params p;
  EXPECT_EQ(speed::antialias_filter(p, f), 9);  // (2^3 + 1) * 1, odd
  p.kernelscale = 2.0f;
  const int n = speed::antialias_filter(p, f);
  EXPECT_EQ(n, 19);  // 18 is even: 19
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += f[i];
  EXPECT_NEAR(sum, 1.0f, 1e-6f);
  for (int i = 0; i < n / 2; ++i) EXPECT_EQ(f[i], f[n - 1 - i]);
  EXPECT_GT(f[n / 2], f[0]);
}

}  // namespace
}  // namespace vmafx
