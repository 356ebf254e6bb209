// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of the SSIM family: the integer ssim (hand-computed cases, edge
// windows, 16-bit input, identical inputs) and the float_ssim / float_ms_ssim
// building blocks and extractors (sizes, depths, options, errors).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "feature/float_ssim.hpp"
#include "feature/ms_ssim.hpp"
#include "feature/ssim.hpp"
#include "support/pictures.hpp"
#include "feature/ssim_common.hpp"
#include "exact/ssim_tables.h"

namespace vmafx {
namespace {

using test::fill_all;
using test::fill_random;

// ---------------------------------------------------------------- helpers

PictureFormat luma_format(int w, int h, int bpc) { return PictureFormat{w, h, bpc, ChromaFormat::k444}; }

int get(const Picture& p, int x, int y) {
  return p.bpc() == 8 ? p.row<std::uint8_t>(0, y)[x] : p.row<std::uint16_t>(0, y)[x];
}
void put(Picture& p, int x, int y, int v) {
  if (p.bpc() == 8)
    p.row<std::uint8_t>(0, y)[x] = std::uint8_t(v);
  else
    p.row<std::uint16_t>(0, y)[x] = std::uint16_t(v);
}
// A smooth pattern with some texture, in [0, max].
int pattern(int x, int y, int max, int seed) {
  const double v =
      0.5 + 0.35 * std::sin(0.21 * x + 0.05 * seed) * std::cos(0.17 * y) + 0.1 * std::sin(1.3 * x * y + seed);
  return std::clamp(int(std::lround(v * max)), 0, max);
}

// Captures what an extractor writes, in order.
struct Capture : FeatureSink {
  std::vector<std::pair<std::string, double>> got;
  void put(std::string_view n, unsigned, double v) override { got.emplace_back(std::string(n), v); }
  void put_plain(std::string_view n, unsigned, double v) override { got.emplace_back(std::string(n), v); }
  double value(const std::string& n) const {
    for (const auto& [k, v] : got)
      if (k == n) return v;
    ADD_FAILURE() << "no " << n;
    return std::numeric_limits<double>::quiet_NaN();
  }
};

Capture extract_with(const std::string& extractor, const std::map<std::string, std::string>& opts, const Picture& ref,
                     const Picture& dis) {
  const ExtractorDescriptor* d = find_extractor(extractor);
  EXPECT_NE(d, nullptr) << extractor;
  OptionSet os(d->options, opts, d->name);
  auto ex = d->create(os, ref.format());
  Capture c;
  ex->extract(ref, dis, 0, c);
  return c;
}

std::string create_error(const std::string& extractor, const std::map<std::string, std::string>& opts,
                         const PictureFormat& fmt) {
  const ExtractorDescriptor* d = find_extractor(extractor);
  EXPECT_NE(d, nullptr) << extractor;
  try {
    OptionSet os(d->options, opts, d->name);
    d->create(os, fmt);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// ------------------------------------------------------- integer ssim

// Reference: every window summed directly in 2-D (weights tap[i] * tap[j]),
// truncated at the frame edge, moments in 64-bit. The moments are exact
// integers, so they equal the separable ones bit for bit; the per-pixel
// expression is libvmaf's, in its evaluation order.
double naive_integer_ssim(const Picture& ref, const Picture& dis) {
  const int w = ref.width(), h = ref.height();
  const int r = VMAFX_SSIM_TAP_RADIUS;
  const std::int64_t maxv = (std::int64_t(1) << ref.bpc()) - 1;
  double ssim = 0, ssimw = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::int64_t mx = 0, my = 0, xx = 0, xy = 0, yy = 0, ww = 0;
      for (int j = -r; j <= r; ++j)
        for (int i = -r; i <= r; ++i) {
          if (x + i < 0 || x + i >= w || y + j < 0 || y + j >= h) continue;
          const std::int64_t t = std::int64_t(vmafx_issim_taps[i + r]) * vmafx_issim_taps[j + r];
          const std::int64_t a = get(ref, x + i, y + j), b = get(dis, x + i, y + j);
          mx += t * a;
          my += t * b;
          xx += t * a * a;
          xy += t * a * b;
          yy += t * b * b;
          ww += t;
        }
      const double W = double(ww);
      const double c1 = double(maxv * maxv) * VMAFX_ISSIM_K1 * W * W;
      const double c2 = double(maxv * maxv) * VMAFX_ISSIM_K2 * W * W;
      const double mx2 = double(mx) * double(mx), mxy = double(mx) * double(my), my2 = double(my) * double(my);
      ssim += W * (2 * mxy + c1) * (c2 + 2 * (double(xy) * W - mxy)) /
              ((mx2 + my2 + c1) * (double(xx) * W - mx2 + double(yy) * W - my2 + c2));
      ssimw += W;
    }
  return ssim / ssimw;
}

double integer_ssim(const Picture& a, const Picture& b) { return ssim::integer_ssim(a.plane(0), b.plane(0), a.bpc()); }

TEST(IntegerSsim, TapsAreTheRoundedGaussian) {
  // round(256 * N(i; 0, 1.5)) for |i| = 1..4, the centre taking the rest; the
  // support 4 is where a tap would fall below half a unit.
  const double sigma = VMAFX_ISSIM_SIGMA;
  const double pi = std::acos(-1.0);
  int sum = 0;
  for (int i = 1; i <= VMAFX_SSIM_TAP_RADIUS; ++i) {
    const int t = int(256.0 * std::exp(-0.5 * i * i / (sigma * sigma)) / (std::sqrt(2 * pi) * sigma) + 0.5);
    EXPECT_EQ(vmafx_issim_taps[VMAFX_SSIM_TAP_RADIUS + i], t) << i;
    EXPECT_EQ(vmafx_issim_taps[VMAFX_SSIM_TAP_RADIUS - i], t) << i;
    sum += 2 * t;
  }
  EXPECT_EQ(vmafx_issim_taps[VMAFX_SSIM_TAP_RADIUS], 256 - sum);
  EXPECT_EQ(int(std::floor(sigma * std::sqrt(-2 * std::log(std::sqrt(0.5 * pi) * sigma / 256)))),
            VMAFX_SSIM_TAP_RADIUS);
  // An interior 2-D window weighs exactly 2^16.
  int total = 0;
  for (int t : {2, 9, 28, 55, 68, 55, 28, 9, 2}) total += t;
  EXPECT_EQ(total, 256);
}

TEST(IntegerSsim, OnePixelFrameIsTheLuminanceTerm) {
  // 1x1: the window is the centre tap only (68 * 68); the variance terms are
  // exactly 0, so ssim = (2ab + k1) / (a^2 + b^2 + k1), k1 = (255 * 0.01)^2.
  Picture a(luma_format(1, 1, 8)), b(luma_format(1, 1, 8));
  fill_all(a, [](int, int) { return 100; });
  fill_all(b, [](int, int) { return 110; });
  const double k1 = 255.0 * 255.0 * 0.0001;
  EXPECT_DOUBLE_EQ(integer_ssim(a, b), (2.0 * 100 * 110 + k1) / (100.0 * 100 + 110.0 * 110 + k1));
  EXPECT_EQ(integer_ssim(a, a), 1.0);
}

TEST(IntegerSsim, FlatFramesGiveTheLuminanceTermEverywhere) {
  // Flat frames: every window (edge ones too, whatever their weight) has zero
  // variance, so every pixel has the same term.
  for (int bpc : {8, 10, 12, 16}) {
    const int maxv = (1 << bpc) - 1;
    const int va = maxv / 3, vb = maxv / 2;
    Picture a(luma_format(13, 7, bpc)), b(luma_format(13, 7, bpc));
    fill_all(a, [&](int, int) { return va; });
    fill_all(b, [&](int, int) { return vb; });
    const double k1 = double(maxv) * maxv * 0.0001;
    const double want = (2.0 * va * vb + k1) / (double(va) * va + double(vb) * vb + k1);
    EXPECT_NEAR(integer_ssim(a, b), want, 1e-14) << bpc;
  }
}

TEST(IntegerSsim, EqualsDirect2DWindowsIncludingEdgesAndTinyFrames) {
  std::mt19937 rng(7);
  const int sizes[][2] = {{1, 1}, {2, 3}, {3, 2}, {5, 9}, {9, 9}, {10, 17}, {17, 10}, {31, 23}, {64, 48}};
  for (int bpc : {8, 10, 12}) {
    for (const auto& s : sizes) {
      Picture a(luma_format(s[0], s[1], bpc)), b(luma_format(s[0], s[1], bpc));
      const int maxv = (1 << bpc) - 1;
      fill_all(a, [&](int x, int y) { return pattern(x, y, maxv, 1); });
      std::uniform_int_distribution<int> noise(-maxv / 20, maxv / 20);
      fill_all(b, [&](int x, int y) { return std::clamp(get(a, x, y) + noise(rng), 0, maxv); });
      EXPECT_EQ(integer_ssim(a, b), naive_integer_ssim(a, b)) << bpc << " bit " << s[0] << "x" << s[1];
    }
  }
}

TEST(IntegerSsim, EdgeWindowsAreTruncatedNotMirrored) {
  // Only the corner pixel differs. With truncated windows the corner pixel's
  // own window (weight 162^2) differs from what a mirrored border would give;
  // the direct 2-D reference with truncation must match exactly.
  Picture a(luma_format(20, 20, 8)), b(luma_format(20, 20, 8));
  fill_all(a, [](int x, int y) { return 60 + 3 * x + 2 * y; });
  fill_all(b, [](int x, int y) { return 60 + 3 * x + 2 * y; });
  put(b, 0, 0, 200);
  const double got = integer_ssim(a, b);
  EXPECT_EQ(got, naive_integer_ssim(a, b));
  EXPECT_LT(got, 1.0);
  // The same change deep inside, where windows are whole, weighs differently.
  Picture c(luma_format(20, 20, 8));
  fill_all(c, [](int x, int y) { return 60 + 3 * x + 2 * y; });
  put(c, 10, 10, 200);
  EXPECT_EQ(integer_ssim(a, c), naive_integer_ssim(a, c));
  EXPECT_NE(integer_ssim(a, c), got);
}

TEST(IntegerSsim, SixteenBitDoesNotOverflow) {
  // 65535^2 * 68 does not fit an int; the score must equal the exact 64-bit
  // reference, and an 8-bit pair scaled by 257 (= 65535 / 255) must give the
  // 8-bit score (all moments and constants scale by 257 or 257^2).
  Picture a8(luma_format(40, 30, 8)), b8(luma_format(40, 30, 8));
  fill_all(a8, [](int x, int y) { return pattern(x, y, 255, 3); });
  fill_all(b8, [](int x, int y) { return std::clamp(pattern(x, y, 255, 3) + ((x * 7 + y * 3) % 11) - 5, 0, 255); });
  Picture a16(luma_format(40, 30, 16)), b16(luma_format(40, 30, 16));
  fill_all(a16, [&](int x, int y) { return get(a8, x, y) * 257; });
  fill_all(b16, [&](int x, int y) { return get(b8, x, y) * 257; });
  const double s8 = integer_ssim(a8, b8);
  const double s16 = integer_ssim(a16, b16);
  EXPECT_EQ(s16, naive_integer_ssim(a16, b16));
  EXPECT_NEAR(s16, s8, 1e-12);
  EXPECT_GT(s16, 0.5);
  EXPECT_LT(s16, 1.0);
  // Extreme samples: a checkerboard of 0 / 65535 against its inverse.
  Picture c(luma_format(16, 16, 16)), d(luma_format(16, 16, 16));
  fill_all(c, [](int x, int y) { return ((x + y) & 1) ? 65535 : 0; });
  fill_all(d, [](int x, int y) { return ((x + y) & 1) ? 0 : 65535; });
  const double sc = integer_ssim(c, d);
  EXPECT_EQ(sc, naive_integer_ssim(c, d));
  EXPECT_TRUE(std::isfinite(sc));
  EXPECT_LT(sc, 0.0);  // anti-correlated
  EXPECT_EQ(integer_ssim(c, c), 1.0);
}

TEST(IntegerSsim, IdenticalInputsGiveExactlyOne) {
  std::mt19937 rng(11);
  const int sizes[][2] = {{16, 16}, {33, 20}, {64, 48}, {176, 144}, {351, 287}};
  for (int bpc : {8, 10, 12, 16})
    for (const auto& s : sizes)
      for (int seed = 0; seed < 4; ++seed) {
        Picture a(luma_format(s[0], s[1], bpc));
        if (seed < 3)
          fill_random(a, rng, 0, (1 << bpc) - 1);
        else
          fill_all(a, [&](int x, int y) { return pattern(x, y, (1 << bpc) - 1, seed); });
        Picture b(luma_format(s[0], s[1], bpc));
        fill_all(b, [&](int x, int y) { return get(a, x, y); });
        EXPECT_EQ(integer_ssim(a, b), 1.0) << bpc << " bit " << s[0] << "x" << s[1] << " seed " << seed;
      }
  // Flat frames of any size, the smallest included: every term is exactly 1.
  for (int bpc : {8, 16})
    for (int n : {1, 2, 5, 9, 40}) {
      Picture f(luma_format(n, n + 1, bpc));
      fill_all(f, [&](int, int) { return (1 << bpc) / 3; });
      EXPECT_EQ(integer_ssim(f, f), 1.0) << bpc << " bit " << n;
    }
}

TEST(IntegerSsim, IdenticalTinyFramesAreWithinAFewUlpOfOne) {
  // libvmaf's per-pixel expression w * A * B / (A * B) is not exactly w when
  // the window weight w is not a power of two (every window of a frame under
  // 9 pixels is truncated), so on tiny textured frames libvmaf itself gives
  // 1 +- 1..3 ulp; we reproduce that arithmetic rather than special-casing it.
  // From about 16x16 the interior windows (w = 2^16, exact) dominate and the
  // result is exactly 1 (test above).
  std::mt19937 rng(5);
  for (int bpc : {8, 12, 16})
    for (int n : {1, 2, 3, 5})
      for (int seed = 0; seed < 50; ++seed) {
        Picture a(luma_format(n, n, bpc));
        fill_random(a, rng, 0, (1 << bpc) - 1);
        const double v = integer_ssim(a, a);
        EXPECT_EQ(v, naive_integer_ssim(a, a));
        EXPECT_NEAR(v, 1.0, 4 * std::numeric_limits<double>::epsilon()) << bpc << " bit " << n;
      }
}

TEST(IntegerSsim, ExtractorWritesPlainSsimAndRejectsBadDepth) {
  Picture a(luma_format(24, 24, 10)), b(luma_format(24, 24, 10));
  fill_all(a, [](int x, int y) { return pattern(x, y, 1023, 5); });
  fill_all(b, [](int x, int y) { return pattern(x, y, 1023, 6); });
  const Capture c = extract_with("ssim", {}, a, b);
  ASSERT_EQ(c.got.size(), 1u);
  EXPECT_EQ(c.got[0].first, "ssim");
  EXPECT_EQ(c.got[0].second, integer_ssim(a, b));
  EXPECT_EQ(create_error("ssim", {}, luma_format(24, 24, 17)), "ssim: bit depth 17 is not supported (8 to 16)");
  EXPECT_NE(create_error("ssim", {{"scale", "2"}}, luma_format(24, 24, 8)).find("ssim: unknown option 'scale'"),
            std::string::npos);
}

// ----------------------------------------------------- float building blocks

TEST(FloatSsim, AutoScaleRoundsHalfUp) {
  EXPECT_EQ(ssim::auto_scale(176, 144), 1);
  EXPECT_EQ(ssim::auto_scale(1920, 1080), 4);  // 4.22
  EXPECT_EQ(ssim::auto_scale(3840, 2160), 8);  // 8.44
  EXPECT_EQ(ssim::auto_scale(384, 400), 2);    // 1.5 rounds up
  EXPECT_EQ(ssim::auto_scale(1000, 383), 1);   // 1.496
  EXPECT_EQ(ssim::auto_scale(640, 1000), 3);   // 2.5 rounds up
  EXPECT_EQ(ssim::auto_scale(20, 20), 1);      // never below 1
  EXPECT_EQ(ssim::float_ssim_scale(1920, 1080, 0), 4);
  EXPECT_EQ(ssim::float_ssim_scale(1920, 1080, 1), 1);
  EXPECT_EQ(ssim::float_ssim_scale(1920, 1080, 7), 7);
}

TEST(FloatSsim, DecimatedSizeAddsOneForOddSides) {
  EXPECT_EQ(ssim::decimated_size(1920, 4), 480);
  EXPECT_EQ(ssim::decimated_size(1080, 4), 270);
  EXPECT_EQ(ssim::decimated_size(1081, 4), 271);
  EXPECT_EQ(ssim::decimated_size(287, 2), 144);
  EXPECT_EQ(ssim::decimated_size(1083, 3), 362);  // the last sample sits at 1083, mirrored
}

TEST(FloatSsim, LumaToFloatIsOnTheEightBitScale) {
  for (int bpc : {8, 10, 12, 16}) {
    Picture p(luma_format(3, 2, bpc));
    fill_all(p, [&](int x, int y) { return (x + 3 * y) * ((1 << bpc) - 1) / 5; });
    float out[6];
    ssim::luma_to_float(p.plane(0), bpc, out);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], float(get(p, i % 3, i / 3)) / float(1 << (bpc - 8))) << bpc;
  }
}

// Out-of-place reference of the box decimation: the in-place version never
// overwrites a sample that a later output still reads.
std::vector<float> box_reference(const std::vector<float>& img, int w, int h, int f) {
  const int sw = ssim::decimated_size(w, f), sh = ssim::decimated_size(h, f);
  const float tap = 1.0f / float(f * f);
  const int lo = f / 2, hi = lo - (f % 2 == 0);
  auto m = [](int i, int n) { return i < 0 ? -1 - i : i >= n ? 2 * n - i - 1 : i; };
  std::vector<float> out(std::size_t(sw) * sh);
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x) {
      double s = 0;
      for (int v = -lo; v <= hi; ++v)
        for (int u = -lo; u <= hi; ++u) s += img[m(y * f + v, h) * w + m(x * f + u, w)] * tap;
      out[y * sw + x] = float(s);
    }
  return out;
}

TEST(FloatSsim, BoxDecimationInPlaceEqualsOutOfPlace) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(0, 255);
  const int sizes[][2] = {{33, 27}, {40, 40}, {45, 31}, {64, 36}, {111, 99}};
  for (const auto& s : sizes)
    for (int f = 2; f <= 10; ++f) {
      const int w = s[0], h = s[1];
      std::vector<float> img(std::size_t(w) * h);
      for (float& v : img) v = std::round(d(rng) * 4) / 4;
      const std::vector<float> want = box_reference(img, w, h, f);
      int sw = 0, sh = 0;
      ssim::decimate_box_in_place(img.data(), w, h, f, &sw, &sh);
      ASSERT_EQ(std::size_t(sw) * sh, want.size());
      EXPECT_EQ(std::memcmp(img.data(), want.data(), want.size() * sizeof(float)), 0) << w << "x" << h << " /" << f;
    }
}

TEST(FloatSsim, FlatFramesGiveTheLuminanceTerm) {
  // Flat frames: zero variance, so c = s = 1 and ssim = l, which for means
  // a and b (the Gaussian sums to 1.000002) is (2ab + C1) / (a^2 + b^2 + C1).
  const int w = 11, h = 11;
  std::vector<float> a(w * h, 100.0f), b(w * h, 120.0f);
  const ssim::SsimMeans m = ssim::gaussian_ssim(a.data(), b.data(), w, h);
  const double C1 = 6.5025;
  const double want = (2.0 * 100 * 120 + C1) / (100.0 * 100 + 120.0 * 120 + C1);
  EXPECT_NEAR(m.ssim, want, 1e-6);
  EXPECT_NEAR(m.l, want, 1e-6);
  EXPECT_EQ(m.c, 1.0f);
  EXPECT_EQ(m.s, 1.0f);
  // Identical flat frames: the structure term is clamped to exactly 1.
  const ssim::SsimMeans same = ssim::gaussian_ssim(a.data(), a.data(), w, h);
  EXPECT_EQ(same.ssim, 1.0f);
  EXPECT_EQ(same.s, 1.0f);
}

TEST(FloatSsim, OppositeSignalsHaveNegativeStructure) {
  // ref = 128 + d, cmp = 128 - d: same mean and variance, covariance -var.
  const int w = 21, h = 15;
  std::vector<float> a(w * h), b(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float d = ((x + y) & 1) ? 40.0f : -40.0f;
      a[y * w + x] = 128 + d;
      b[y * w + x] = 128 - d;
    }
  const ssim::SsimMeans m = ssim::gaussian_ssim(a.data(), b.data(), w, h);
  EXPECT_NEAR(m.l, 1.0, 1e-6);
  EXPECT_NEAR(m.c, 1.0, 1e-6);
  EXPECT_LT(m.s, -0.9f);
  EXPECT_LT(m.ssim, -0.9f);
}

// ------------------------------------------------------- float extractors

struct Pair {
  Picture ref, dis;
};
Pair textured_pair(int w, int h, int bpc) {
  Pair p{Picture(luma_format(w, h, bpc)), Picture(luma_format(w, h, bpc))};
  const int scale = 1 << (bpc - 8);  // samples = 8-bit value * 2^(bpc - 8)
  fill_all(p.ref, [&](int x, int y) { return pattern(x, y, 255, 1) * scale; });
  fill_all(p.dis,
           [&](int x, int y) { return std::clamp(pattern(x, y, 255, 1) + ((x * 5 + y * 3) % 9) - 4, 0, 255) * scale; });
  return p;
}

TEST(FloatSsimExtractor, NamesAndOrder) {
  const Pair p = textured_pair(48, 40, 8);
  const Capture c = extract_with("float_ssim", {{"enable_lcs", "true"}}, p.ref, p.dis);
  ASSERT_EQ(c.got.size(), 4u);
  EXPECT_EQ(c.got[0].first, "float_ssim");
  EXPECT_EQ(c.got[1].first, "float_ssim_l");
  EXPECT_EQ(c.got[2].first, "float_ssim_c");
  EXPECT_EQ(c.got[3].first, "float_ssim_s");
  for (const auto& [n, v] : c.got) EXPECT_EQ(double(float(v)), v) << n << " is a float widened";
  const Capture plain = extract_with("float_ssim", {}, p.ref, p.dis);
  ASSERT_EQ(plain.got.size(), 1u);
  EXPECT_EQ(plain.got[0].second, c.got[0].second);
}

TEST(FloatSsimExtractor, HighBitDepthOnTheEightBitScaleGivesTheSameScore) {
  // picture_copy divides 10/12/16-bit samples by 4/16/256: scaled copies of an
  // 8-bit pair give bit-identical floats, hence identical scores.
  const Pair p8 = textured_pair(60, 44, 8);
  const double s8 = extract_with("float_ssim", {}, p8.ref, p8.dis).value("float_ssim");
  EXPECT_LT(s8, 1.0);
  for (int bpc : {10, 12, 16}) {
    const Pair p = textured_pair(60, 44, bpc);
    EXPECT_EQ(extract_with("float_ssim", {}, p.ref, p.dis).value("float_ssim"), s8) << bpc;
  }
}

TEST(FloatSsimExtractor, IdenticalFramesGiveOneAndInfiniteDb) {
  const Pair p = textured_pair(50, 37, 8);
  EXPECT_EQ(extract_with("float_ssim", {}, p.ref, p.ref).value("float_ssim"), 1.0);
  EXPECT_EQ(extract_with("float_ssim", {{"enable_db", "true"}}, p.ref, p.ref).value("float_ssim"),
            std::numeric_limits<double>::infinity());
  // Clipped at ceil(10 log10(255^2 / (0.5 / (50 * 37))));
  const double cap = std::ceil(10. * std::log10(255.0 * 255.0 / (0.5 / (50 * 37))));
  EXPECT_EQ(cap, 84.0);
  EXPECT_EQ(extract_with("float_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, p.ref, p.ref).value("float_ssim"),
            cap);
  // Not identical: -10 log10(1 - ssim), below the cap.
  const double s = extract_with("float_ssim", {}, p.ref, p.dis).value("float_ssim");
  EXPECT_EQ(extract_with("float_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, p.ref, p.dis).value("float_ssim"),
            -10. * std::log10(1 - s));
}

TEST(FloatSsimExtractor, MaxDbAt16Bit) {
  // peak^2 = 65535^2 still fits the unsigned arithmetic libvmaf uses.
  EXPECT_EQ(ssim::max_db(true, 16, 240, 176), std::ceil(10. * std::log10(65535.0 * 65535.0 / (0.5 / (240 * 176)))));
  EXPECT_EQ(ssim::max_db(false, 8, 240, 176), std::numeric_limits<double>::infinity());
}

TEST(FloatSsimExtractor, ForcedScaleDecimates) {
  const Pair p = textured_pair(64, 48, 8);
  const double s1 = extract_with("float_ssim", {{"scale", "1"}}, p.ref, p.dis).value("float_ssim");
  const double s2 = extract_with("float_ssim", {{"scale", "2"}}, p.ref, p.dis).value("float_ssim");
  const double s0 = extract_with("float_ssim", {}, p.ref, p.dis).value("float_ssim");
  EXPECT_EQ(s0, s1);  // auto is 1 below 384
  EXPECT_NE(s1, s2);
  // scale=2 equals decimating by hand and running the 11x11 SSIM.
  std::vector<float> r(64 * 48), d(64 * 48);
  ssim::luma_to_float(p.ref.plane(0), 8, r.data());
  ssim::luma_to_float(p.dis.plane(0), 8, d.data());
  int w = 0, h = 0;
  ssim::decimate_box_in_place(r.data(), 64, 48, 2, &w, &h);
  ssim::decimate_box_in_place(d.data(), 64, 48, 2, &w, &h);
  EXPECT_EQ(w, 32);
  EXPECT_EQ(h, 24);
  EXPECT_EQ(s2, double(ssim::gaussian_ssim(r.data(), d.data(), w, h).ssim));
}

TEST(FloatSsimExtractor, OddSizes) {
  for (auto [w, h] : {std::pair{11, 11}, {13, 29}, {351, 287}, {1083, 390}}) {
    const Pair p = textured_pair(w, h, 8);
    const double s = extract_with("float_ssim", {}, p.ref, p.dis).value("float_ssim");
    EXPECT_GT(s, 0.3) << w << "x" << h;
    EXPECT_LT(s, 1.0) << w << "x" << h;
    EXPECT_EQ(extract_with("float_ssim", {}, p.ref, p.ref).value("float_ssim"), 1.0) << w << "x" << h;
  }
}

TEST(FloatSsimExtractor, Errors) {
  EXPECT_EQ(create_error("float_ssim", {}, luma_format(64, 48, 9)),
            "float_ssim: bit depth 9 is not supported (8, 10, 12 or 16)");
  EXPECT_EQ(create_error("float_ssim", {}, luma_format(64, 10, 8)),
            "float_ssim: frame 64x10 is too small: needs at least 11x11 for the 11x11 window");
  EXPECT_EQ(create_error("float_ssim", {{"scale", "4"}}, luma_format(64, 40, 8)),
            "float_ssim: frame 64x40 (16x10 after decimation by 4) is too small: needs at least 11x11 for the "
            "11x11 window");
  EXPECT_EQ(create_error("float_ssim", {{"scale", "11"}}, luma_format(64, 48, 8)),
            "float_ssim: option scale=11: out of range [0, 10]");
  EXPECT_EQ(create_error("float_ssim", {{"scale", "4"}}, luma_format(64, 48, 8)), "");
  EXPECT_EQ(create_error("float_ssim", {}, luma_format(11, 11, 16)), "");
}

TEST(FloatMsSsim, SizeRuleIsLibvmafs) {
  EXPECT_TRUE(ssim::ms_ssim_size_ok(176, 176));
  EXPECT_FALSE(ssim::ms_ssim_size_ok(176, 144));
  EXPECT_FALSE(ssim::ms_ssim_size_ok(175, 1000));
  EXPECT_TRUE(ssim::ms_ssim_size_ok(240, 177));
  EXPECT_TRUE(ssim::ms_ssim_size_ok(191, 191));  // 191 >> 4 = 11
  EXPECT_EQ(create_error("float_ms_ssim", {}, luma_format(176, 144, 8)),
            "float_ms_ssim: frame 176x144 is too small: needs at least 176x176 (11x11 window at 5 scales)");
  EXPECT_EQ(create_error("float_ms_ssim", {}, luma_format(240, 176, 14)),
            "float_ms_ssim: bit depth 14 is not supported (8, 10, 12 or 16)");
  EXPECT_NE(create_error("float_ms_ssim", {{"scale", "2"}}, luma_format(240, 176, 8))
                .find("float_ms_ssim: unknown option 'scale'"),
            std::string::npos);
}

TEST(FloatMsSsim, NamesOrderAndIdentity) {
  const Pair p = textured_pair(181, 179, 8);  // odd sides: every level rounds up
  const Capture c = extract_with("float_ms_ssim", {{"enable_lcs", "true"}}, p.ref, p.dis);
  ASSERT_EQ(c.got.size(), 16u);
  EXPECT_EQ(c.got[0].first, "float_ms_ssim");
  const char* kinds = "lcs";
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 5; ++i)
      EXPECT_EQ(c.got[1 + 5 * k + i].first, std::string("float_ms_ssim_") + kinds[k] + "_scale" + std::to_string(i));
  // The score is the product of the means raised to libvmaf's exponents.
  const float alpha[] = VMAFX_MS_SSIM_ALPHA_INIT, beta[] = VMAFX_MS_SSIM_BETA_INIT, gamma[] = VMAFX_MS_SSIM_GAMMA_INIT;
  double want = 1.0;
  for (int i = 0; i < 5; ++i)
    want *= std::pow(c.got[1 + i].second, double(alpha[i])) * std::pow(c.got[6 + i].second, double(beta[i])) *
            std::pow(c.got[11 + i].second, double(gamma[i]));
  EXPECT_EQ(c.got[0].second, want);
  EXPECT_LT(want, 1.0);
  EXPECT_GT(want, 0.5);
  EXPECT_EQ(extract_with("float_ms_ssim", {}, p.ref, p.ref).value("float_ms_ssim"), 1.0);
  EXPECT_EQ(extract_with("float_ms_ssim", {{"enable_db", "true"}}, p.ref, p.ref).value("float_ms_ssim"),
            std::numeric_limits<double>::infinity());
}

TEST(FloatMsSsim, HighBitDepthOnTheEightBitScaleGivesTheSameScore) {
  const Pair p8 = textured_pair(192, 180, 8);
  const double s8 = extract_with("float_ms_ssim", {}, p8.ref, p8.dis).value("float_ms_ssim");
  for (int bpc : {10, 12, 16}) {
    const Pair p = textured_pair(192, 180, bpc);
    EXPECT_EQ(extract_with("float_ms_ssim", {}, p.ref, p.dis).value("float_ms_ssim"), s8) << bpc;
  }
}

TEST(SsimEngine, RegisteredUnderLibvmafNames) {
  for (const char* n : {"float_ssim", "float_ms_ssim", "ssim"}) EXPECT_NE(find_extractor(n), nullptr) << n;
  EXPECT_EQ(find_extractor_by_feature("float_ssim"), find_extractor("float_ssim"));
  EXPECT_EQ(find_extractor_by_feature("float_ms_ssim"), find_extractor("float_ms_ssim"));
  EXPECT_EQ(find_extractor_by_feature("ssim"), find_extractor("ssim"));
  EXPECT_EQ(find_extractor("integer_ssim"), nullptr);
}

}  // namespace
}  // namespace vmafx
