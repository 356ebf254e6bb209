// SPDX-License-Identifier: BSD-3-Clause
// exact/ciede.h compiled for the host (the code the CUDA and OpenCL ciede
// twins run): every certified pixel equals the CPU reference's dE00 bit for
// bit (random pairs at every bit depth: plain, near, grey, extreme), the
// replay rate stays tiny, the constants are the reference's, and the chroma
// addressing equals the extractor's upsampling.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

#include "exact/ciede.h"
#include "ciede_stress.hpp"
#include "feature/ciede.hpp"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
std::uint64_t bits(double f) {
  std::uint64_t u;
  std::memcpy(&u, &f, 8);
  return u;
}

float reference(const std::int32_t* s, int bpc) {
  return ciede::delta_e00(ciede::lab_from_yuv(s[0], s[1], s[2], unsigned(bpc)),
                          ciede::lab_from_yuv(s[3], s[4], s[5], unsigned(bpc)));
}

TEST(CiedeExact, CertifiedPixelsEqualTheReference) {
  for (int bpc : {8, 10, 12, 16}) {
    const int n = 12000;
    const auto s = test::ciede_pairs(bpc, n, 1000 + bpc);
    int flagged = 0, mismatches = 0;
    for (int k = 0; k < n; ++k) {
      int ok = 0;
      const std::int32_t* p = &s[std::size_t(k) * 6];
      const std::uint32_t got = vmafx_ciede_pixel(p[0], p[1], p[2], p[3], p[4], p[5], bpc, &ok);
      if (!ok) {
        ++flagged;
        continue;
      }
      const float want = reference(p, bpc);
      if (got != bits(want)) {
        if (++mismatches <= 5)
          ADD_FAILURE() << bpc << "-bit (" << p[0] << "," << p[1] << "," << p[2] << ") vs (" << p[3] << "," << p[4]
                        << "," << p[5] << "): device bits " << std::hex << got << ", reference " << bits(want);
      }
    }
    EXPECT_EQ(mismatches, 0) << bpc << "-bit";
    // The certificate fails on a handful of pixels at most (about 1e-5 measured).
    EXPECT_LE(flagged, n / 1000) << bpc << "-bit";
    std::printf("ciede certificate, %d-bit: %d pairs, %d replayed\n", bpc, n, flagged);
  }
}

TEST(CiedeExact, IdenticalAndZeroChromaPairs) {
  // dE00 of a colour with itself is 0; greys have zero chroma (hue angle 0).
  for (int bpc : {8, 16}) {
    const int mx = (1 << bpc) - 1, mid = 128 << (bpc - 8);
    const std::int32_t cases[][6] = {{0, 0, 0, 0, 0, 0},
                                     {mx, mx, mx, mx, mx, mx},
                                     {mid, mid, mid, mid, mid, mid},
                                     {16, mid, mid, 235, mid, mid},
                                     {mx, 0, mx, 0, mx, 0},
                                     {1, mid, mid, 1, mid + 1, mid}};
    for (const auto& c : cases) {
      int ok = 0;
      const std::uint32_t got = vmafx_ciede_pixel(c[0], c[1], c[2], c[3], c[4], c[5], bpc, &ok);
      ASSERT_TRUE(ok) << c[0] << " " << c[3];
      EXPECT_EQ(got, bits(reference(c, bpc))) << c[0] << " " << c[3];
    }
  }
}

TEST(CiedeExact, SqrtAndFloatRoundingAreIeee) {
  std::mt19937_64 rng(7);
  for (int k = 0; k < 200000; ++k) {
    std::uint64_t b = rng();
    if (k % 4 == 0) b &= 0x7FFFFFFFFFFFFFFFull;
    if (k % 8 == 1) b = (b & 0x800FFFFFFFFFFFFFull) | (std::uint64_t(0x3FF + int(rng() % 200) - 100) << 52);
    double x;
    std::memcpy(&x, &b, 8);
    const vmafx_sd a = vmafx_sd_from_bits(b);
    const double want = std::sqrt(x);
    const std::uint64_t got = vmafx_sd_to_bits(vmafx_ce_sqrt(a));
    if (!std::isnan(want)) {
      ASSERT_EQ(got, bits(want)) << std::hexfloat << x;
    }
    int ok = 1;
    const vmafx_sd f = vmafx_ce_f32(a, &ok);
    const float wantf = float(x);
    if (std::isfinite(wantf)) {
      ASSERT_TRUE(ok) << std::hexfloat << x;
      ASSERT_EQ(vmafx_ce_f32_bits(f), bits(wantf)) << std::hexfloat << x;
      ASSERT_EQ(vmafx_sd_to_bits(f), bits(double(wantf))) << std::hexfloat << x;
      ASSERT_EQ(vmafx_sd_to_bits(vmafx_ce_from_f32_bits(bits(wantf))), bits(double(wantf)));
    } else if (!std::isnan(x)) {
      EXPECT_FALSE(ok) << std::hexfloat << x;
    }
  }
}

// The approximations stay far inside the bound the certificate assumes
// (2^VMAFX_CE_REL_ERR, minus glibc's own error), against glibc itself.
TEST(CiedeExact, ApproximationsAreWithinTheirBound) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u01(0., 1.);
  double worst[6] = {};
  auto rel = [](double a, double b) { return b == 0 ? std::fabs(a) : std::fabs(a - b) / std::fabs(b); };
  auto sd = [](double x) { return vmafx_sd_from_bits(bits(x)); };
  auto dd = [](vmafx_sd a) {
    const std::uint64_t b = vmafx_sd_to_bits(a);
    double x;
    std::memcpy(&x, &b, 8);
    return x;
  };
  for (int k = 0; k < 100000; ++k) {
    const double t = 0.04 + 2.3 * u01(rng), c = 0.008 + 8 * u01(rng), a = -30 + 60 * u01(rng);
    const double e = -130 * u01(rng), y = -200 + 400 * u01(rng), x = -200 + 400 * u01(rng);
    worst[0] = std::max(worst[0], rel(dd(vmafx_ce_pow24(sd(t))), std::pow(t, 2.4)));
    worst[1] = std::max(worst[1], rel(dd(vmafx_ce_cbrt(sd(c))), std::pow(c, 1.0 / 3.0)));
    worst[2] = std::max(worst[2], rel(dd(vmafx_ce_sincos(sd(a), 0)), std::cos(a)));
    worst[3] = std::max(worst[3], rel(dd(vmafx_ce_sincos(sd(a / 16), 1)), std::sin(a / 16)));
    worst[4] = std::max(worst[4], rel(dd(vmafx_ce_exp(sd(e))), std::exp(e)));
    const vmafx_ce_iv at = vmafx_ce_atan2(sd(y), sd(x));  // the approximation widened both ways
    worst[5] = std::max(worst[5], rel(dd(at.lo) / 2 + dd(at.hi) / 2, std::atan2(y, x)));
  }
  const char* names[6] = {"pow(t, 2.4)", "pow(c, 1/3)", "cos", "sin", "exp", "atan2"};
  for (int i = 0; i < 6; ++i) {
    std::printf("ciede approximation %-20s worst relative difference from glibc 2^%.1f\n", names[i],
                std::log2(std::max(worst[i], 1e-300)));
    EXPECT_LT(worst[i], std::ldexp(1.0, VMAFX_CE_REL_ERR - 4)) << names[i];
  }
}

TEST(CiedeExact, ConstantsAreTheReferences) {
  const double pi = 3.141592653589793;
  EXPECT_EQ(VMAFX_CE_K_7PI_20, bits(7.0 * pi / 20.0));
  EXPECT_EQ(VMAFX_CE_K_PI_6, bits(pi / 6.0));
  EXPECT_EQ(VMAFX_CE_K_PI_30, bits(pi / 30.0));
  EXPECT_EQ(VMAFX_CE_K_180_PI, bits(180.0 / pi));
  EXPECT_EQ(VMAFX_CE_K_PI_180, bits(pi / 180.0));
  EXPECT_EQ(VMAFX_CE_K_KAPPA, bits(24389.0 / 27.0));
  EXPECT_EQ(VMAFX_CE_K_EPSILON, bits(216.0 / 24389.0));
  EXPECT_EQ(VMAFX_CE_K_INV_1_055, bits(1.0 / 1.055));
  EXPECT_EQ(VMAFX_CE_K_INV_XN, bits(1.0 / 0.95047));
  EXPECT_EQ(VMAFX_CE_K_INV_ZN, bits(1.0 / 1.08883));
  EXPECT_EQ(VMAFX_CE_K_0_65F, bits(double(0.65f)));
}

// powf(c, 7) replayed: the certified float is glibc's on this machine.
TEST(CiedeExact, PowfReplayEqualsGlibc) {
  std::mt19937 rng(5);
  int uncertain = 0;
  for (int k = 0; k < 300000; ++k) {
    const float c = std::ldexp(1.0f + float(rng() % (1u << 23)) / float(1u << 23), int(rng() % 12) - 4);
    int ok = 1;
    const vmafx_sd got = vmafx_ce_powf7(vmafx_sd_from_bits(bits(double(c))), &ok);
    if (!ok) {
      ++uncertain;
      continue;
    }
    ASSERT_EQ(vmafx_ce_f32_bits(got), bits(::powf(c, 7.0f))) << std::hexfloat << c;
  }
  EXPECT_LT(uncertain, 300);
  std::printf("ciede powf replay: %d of 300000 uncertain\n", uncertain);
}

// The chroma addressing of the kernels equals the extractor's upsampling
// (4:2:2's reads run through the stride padding into the next plane).
TEST(CiedeExact, ChromaAddressingEqualsTheExtractor) {
  std::mt19937 rng(3);
  for (ChromaFormat cf : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444})
    for (auto [w, h] : {std::pair{40, 4}, {97, 61}, {33, 1}, {7, 3}}) {
      PictureFormat f{w, h, 10, cf};
      Picture p(f);
      test::fill_random(p, rng, 0, 1023);
      const int cw = f.plane_width(1), ch = f.plane_height(1);
      const int fmt = cf == ChromaFormat::k420 ? 0 : cf == ChromaFormat::k422 ? 1 : 2;
      for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
          unsigned want[3];
          ciede::samples_at(p, i, j, want);
          for (int c = 1; c <= 2; ++c) {
            int plane, row, col;
            unsigned got = 0;
            if (vmafx_ciede_chroma_at(fmt, cw, ch, c == 1 ? 2 : 1, i, j, &plane, &row, &col))
              got = p.row<std::uint16_t>(c + plane, row)[col];
            ASSERT_EQ(got, want[c]) << w << "x" << h << " fmt " << fmt << " (" << i << "," << j << ") plane " << c;
          }
        }
    }
}

// pixel_difference (the twins' replay) adds up to the extractor's score.
TEST(CiedeExact, PixelDifferenceIsTheExtractorsTerm) {
  std::mt19937 rng(9);
  for (ChromaFormat cf : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444}) {
    PictureFormat f{97, 61, 8, cf};
    double total = 0;
    auto fc = test::run_engine(f, 1,
                               [&](Picture& r, Picture& d, unsigned) {
                                 test::fill_random(r, rng, 0, 255);
                                 test::fill_random(d, rng, 0, 255);
                                 for (int i = 0; i < f.height; ++i)
                                   for (int j = 0; j < f.width; ++j) total += ciede::pixel_difference(r, d, i, j);
                               },
                               {FeatureRequest{"ciede", {}}});
    EXPECT_EQ(test::at(fc, "ciede2000", 0), ciede::frame_score(total, 97, 61));
  }
}

}  // namespace
}  // namespace vmafx
