// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of what the float features (float_vif, float_adm, float_motion, float_psnr,
// float_ansnr, float_moment) share: the RCPSS estimate, convolution and rescaling, and
// the six together through the engine (bit-depth equivalence, 16-bit extremes, flat and
// identical inputs, edge sizes, threads), their output names and every error path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/libvmaf_cpu.hpp"
#include "feature/float_adm.hpp"
#include "exact/float_adm_tables.h"
#include "feature/float_ansnr.hpp"
#include "feature/float_common.hpp"
#include "feature/float_moment.hpp"
#include "feature/float_motion.hpp"
#include "feature/float_psnr.hpp"
#include "feature/float_vif.hpp"
#include "exact/float_vif_tables.h"
#include "support/float_bits.hpp"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using namespace vmafx::test;

FeatureCollector run(const PictureFormat& fmt, unsigned frames, const Filler& fill,
                     const std::vector<FeatureRequest>& req, EngineOptions eo = {}) {
  return run_engine(fmt, frames, fill, req, eo);
}

const std::vector<FeatureRequest> kAll = {{"float_vif", {}},  {"float_adm", {}},   {"float_motion", {}},
                                          {"float_psnr", {}}, {"float_ansnr", {}}, {"float_moment", {}}};

// ---- RCPSS estimate -------------------------------------------------------

TEST(FloatRcp, KnownEstimates) {
  for (const LibvmafCpu cpu : {LibvmafCpu::kIntel, LibvmafCpu::kAmd}) {
    EXPECT_EQ(bits(flt::rcp_estimate(1.0f, cpu)), 0x3f7ff000u);
    EXPECT_EQ(bits(flt::rcp_estimate(2.0f, cpu)), 0x3efff000u);  // exponent scales exactly
    EXPECT_EQ(bits(flt::rcp_estimate(0.25f, cpu)), 0x407ff000u);
    EXPECT_EQ(bits(flt::rcp_estimate(-1.0f, cpu)), 0xbf7ff000u);  // sign kept
  }
  // AMD: the top 12 mantissa bits select the estimate; Intel: the top 11.
  EXPECT_EQ(flt::rcp_estimate(from_bits(0x3fc00000u), LibvmafCpu::kAmd),
            flt::rcp_estimate(from_bits(0x3fc007ffu), LibvmafCpu::kAmd));
  EXPECT_EQ(flt::rcp_estimate(from_bits(0x3fc00000u), LibvmafCpu::kIntel),
            flt::rcp_estimate(from_bits(0x3fc00fffu), LibvmafCpu::kIntel));
  // The two differ: 1 + 1/4096 is a step of AMD's table, not of Intel's.
  EXPECT_EQ(bits(flt::rcp_estimate(from_bits(0x3f800800u), LibvmafCpu::kAmd)), 0x3f7fe000u);
  EXPECT_EQ(bits(flt::rcp_estimate(from_bits(0x3f800800u), LibvmafCpu::kIntel)), 0x3f7ff000u);
}

TEST(FloatRcp, SpecialInputs) {
  for (const LibvmafCpu cpu : {LibvmafCpu::kIntel, LibvmafCpu::kAmd}) {
    EXPECT_EQ(flt::rcp_estimate(0.0f, cpu), std::numeric_limits<float>::infinity());
    EXPECT_EQ(flt::rcp_estimate(-0.0f, cpu), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(flt::rcp_estimate(1e-40f, cpu), std::numeric_limits<float>::infinity());  // subnormal
    EXPECT_EQ(bits(flt::rcp_estimate(std::numeric_limits<float>::infinity(), cpu)), 0u);
    EXPECT_EQ(bits(flt::rcp_estimate(-std::numeric_limits<float>::infinity(), cpu)), 0x80000000u);
    EXPECT_TRUE(std::isnan(flt::rcp_estimate(std::numeric_limits<float>::quiet_NaN(), cpu)));
    EXPECT_EQ(bits(flt::rcp_estimate(3e38f, cpu)), 0u);          // result below the normal range: flushed
    EXPECT_TRUE(std::isfinite(flt::rcp_estimate(1e-30f, cpu)));  // ADM's epsilon divisor
  }
}

TEST(FloatRcp, RefinedIsCloseToTheQuotient) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(-1000.0f, 1000.0f);
  for (int i = 0; i < 10000; ++i) {
    const float x = d(rng);
    if (x == 0) continue;
    for (const LibvmafCpu cpu : {LibvmafCpu::kIntel, LibvmafCpu::kAmd}) {
      const float r = flt::rcp_refined(x, cpu);
      EXPECT_NEAR(r * x, 1.0f, 3e-7f) << x;
    }
  }
}

TEST(FloatRcp, DivideOfEachVariant) {
  // generic: the quotient; intel / amd: n times the refined estimate, which
  // differ from each other and from the quotient for some inputs.
  const float n = 0.7f, d = from_bits(0x3f9a3c21u);
  EXPECT_EQ(bits(flt::adm_divide(n, d, LibvmafCpu::kGeneric)), bits(n / d));
  for (const LibvmafCpu cpu : {LibvmafCpu::kIntel, LibvmafCpu::kAmd})
    EXPECT_EQ(bits(flt::adm_divide(n, d, cpu)), bits(n * flt::rcp_refined(d, cpu)));
  int intel_amd = 0, amd_exact = 0;
  for (std::uint32_t m = 0; m < (1u << 23); m += 101) {
    const float x = from_bits(0x3f800000u | m);
    const std::uint32_t q = bits(flt::adm_divide(1.0f, x, LibvmafCpu::kGeneric));
    const std::uint32_t a = bits(flt::adm_divide(1.0f, x, LibvmafCpu::kAmd));
    intel_amd += a != bits(flt::adm_divide(1.0f, x, LibvmafCpu::kIntel));
    amd_exact += a != q;
  }
  EXPECT_GT(intel_amd, 0);
  EXPECT_GT(amd_exact, 0);
}

TEST(LibvmafCpu, Names) {
  for (const LibvmafCpu c : {LibvmafCpu::kIntel, LibvmafCpu::kAmd, LibvmafCpu::kGeneric})
    EXPECT_EQ(parse_libvmaf_cpu(libvmaf_cpu_name(c), "x"), c);
  EXPECT_EQ(parse_libvmaf_cpu("auto", "x"), host_libvmaf_cpu());
#if defined(__x86_64__) || defined(__i386__)
  EXPECT_EQ(host_libvmaf_cpu(), __builtin_cpu_is("amd") ? LibvmafCpu::kAmd : LibvmafCpu::kIntel);
#else
  EXPECT_EQ(host_libvmaf_cpu(), LibvmafCpu::kGeneric);
#endif
}

TEST(LibvmafCpu, RejectsOtherNames) {
  for (const char* bad : {"", "Intel", "arm", "auto "}) {
    try {
      parse_libvmaf_cpu(bad, "libvmaf_cpu");
      FAIL() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), std::string("libvmaf_cpu '") + bad + "': expected auto, intel, amd or generic");
    }
  }
}

#if defined(__x86_64__) || defined(__i386__)
// On a processor of the table's vendor, the table is the instruction: every
// mantissa at the exponents where the rescaling reaches the edges (1, 2, the
// 1 + 126 of the normal range, 253, 254) and in the middle, every exponent
// (zero and subnormals, inf and NaN among them) on a spread of mantissas,
// both signs.
void expect_instruction(LibvmafCpu cpu) {
  const auto check = [cpu](std::uint32_t u) {
    const float x = from_bits(u);
    const float hw = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
    if (bits(flt::rcp_estimate(x, cpu)) != bits(hw)) {
      ADD_FAILURE() << std::hex << "x 0x" << u << ": table 0x" << bits(flt::rcp_estimate(x, cpu)) << ", instruction 0x"
                    << bits(hw);
      return false;
    }
    return true;
  };
  for (std::uint32_t m = 0; m < (1u << 23); ++m)
    for (std::uint32_t e : {1u, 2u, 126u, 127u, 128u, 253u, 254u})
      for (std::uint32_t s : {0u, 0x80000000u})
        if (!check(s | (e << 23) | m)) return;
  for (std::uint32_t e = 0; e < 256; ++e)
    for (std::uint32_t m = 0; m < (1u << 23); m += (e == 0 || e == 255) ? 1 : 4093)
      for (std::uint32_t s : {0u, 0x80000000u})
        if (!check(s | (e << 23) | m)) return;
}

TEST(FloatRcp, IntelTableIsTheInstructionOnIntel) {
  if (!__builtin_cpu_is("intel")) GTEST_SKIP() << "RCPSS differs between vendors: this processor is not Intel";
  expect_instruction(LibvmafCpu::kIntel);
}

TEST(FloatRcp, AmdTableIsTheInstructionOnAmd) {
  if (!__builtin_cpu_is("amd")) GTEST_SKIP() << "RCPSS differs between vendors: this processor is not AMD";
  expect_instruction(LibvmafCpu::kAmd);
}
#endif

// ---- Convolution and rescaling -----------------------------------------------

// Per-pixel definition: vertical sums then horizontal sums, each from 0 in tap
// order, mirrored indices.
std::vector<float> convolve_reference(const std::vector<float>& f, const std::vector<float>& img, int w, int h) {
  const int r = int(f.size()) / 2;
  auto m = [](int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); };
  std::vector<float> tmp(img.size()), out(img.size());
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      float a = 0;
      for (int k = 0; k < int(f.size()); ++k) a += f[k] * img[std::size_t(m(i - r + k, h)) * w + j];
      tmp[std::size_t(i) * w + j] = a;
    }
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      float a = 0;
      for (int k = 0; k < int(f.size()); ++k) a += f[k] * tmp[std::size_t(i) * w + m(j - r + k, w)];
      out[std::size_t(i) * w + j] = a;
    }
  return out;
}

TEST(FloatConvolve, MatchesPerPixelDefinitionAtEdgeSizes) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> d(-128.0f, 127.0f);
  for (int taps : {3, 5, 9, 17}) {
    const std::vector<float> f = fvif::gaussian_kernel(taps == 17 ? 0 : taps == 9 ? 1 : taps == 5 ? 2 : 3, 1.0);
    const int r = taps / 2;
    for (auto [w, h] : {std::pair{r + 1, r + 1}, {r + 1, 2 * r + 3}, {2 * r + 5, r + 1}, {37, 23}}) {
      std::vector<float> img(std::size_t(w) * h), out(img.size());
      for (float& v : img) v = d(rng);
      flt::convolve(f.data(), taps, img.data(), w, h, out.data());
      const std::vector<float> want = convolve_reference(f, img, w, h);
      for (std::size_t i = 0; i < img.size(); ++i)
        ASSERT_EQ(bits(out[i]), bits(want[i])) << taps << " taps " << w << "x" << h << " at " << i;
    }
  }
}

TEST(FloatScale, SameSizeCopiesAndNearestRepeats) {
  const std::vector<float> img = {1, 2, 3, 4, 5, 6};  // 3x2
  std::vector<float> out(6);
  for (auto m : {flt::ScaleMethod::kNearest, flt::ScaleMethod::kBilinear, flt::ScaleMethod::kBicubic,
                 flt::ScaleMethod::kLanczos4}) {
    flt::scale_frame(m, img.data(), 3, 2, out.data(), 3, 2);
    EXPECT_EQ(out, img);
  }
  std::vector<float> up(24);
  flt::scale_frame(flt::ScaleMethod::kNearest, img.data(), 3, 2, up.data(), 6, 4);
  EXPECT_EQ(up, (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 4, 4, 5, 5, 6, 6}));
}

TEST(FloatScale, BilinearHalvingAveragesPairs) {
  // ratio 2: source positions 2x + 0.5 -> mean of columns 2x and 2x + 1.
  std::vector<float> img(8 * 4);
  for (int i = 0; i < 32; ++i) img[i] = float(i % 8) * 4.0f + float(i / 8) * 32.0f;
  std::vector<float> out(4 * 2);
  flt::scale_frame(flt::ScaleMethod::kBilinear, img.data(), 8, 4, out.data(), 4, 2);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) EXPECT_EQ(out[y * 4 + x], (2 * x + 0.5f) * 4.0f + (2 * y + 0.5f) * 32.0f);
}

TEST(FloatScale, InterpolatorsKeepFlatImagesAndStayInBoundsAtMinimumSizes) {
  for (auto [m, n] :
       {std::pair{flt::ScaleMethod::kBicubic, 3}, {flt::ScaleMethod::kLanczos4, 6}, {flt::ScaleMethod::kBilinear, 2}}) {
    std::vector<float> img(std::size_t(n) * n, 42.0f);
    for (int dw : {1, n - 1, 2 * n + 1, 4 * n}) {
      std::vector<float> out(std::size_t(dw) * dw);
      flt::scale_frame(m, img.data(), n, n, out.data(), dw, dw);
      for (float v : out) EXPECT_NEAR(v, 42.0f, 1e-4f);
    }
  }
}

TEST(FloatScale, MethodNames) {
  flt::ScaleMethod m;
  EXPECT_TRUE(flt::parse_scale_method("lanczos4", &m));
  EXPECT_EQ(m, flt::ScaleMethod::kLanczos4);
  EXPECT_TRUE(flt::parse_scale_method("nearest", &m));
  EXPECT_EQ(m, flt::ScaleMethod::kNearest);
  EXPECT_FALSE(flt::parse_scale_method("lanczos", &m));
  EXPECT_FALSE(flt::parse_scale_method("", &m));
}

// ---- Through the engine ---------------------------------------------------------

// The float features see every depth on the 8-bit scale (sample / 2^(bpc-8),
// exact): the same content at 10, 12 and 16 bit gives the same scores, except
// the PSNRs, whose peak and cap depend on the depth.
TEST(FloatFeaturesEngine, SameScoresAtEveryBitDepth) {
  const PictureFormat f8{.width = 40, .height = 34, .bpc = 8, .chroma = ChromaFormat::k420};
  const FeatureCollector base = run(f8, 3, scaled_content(8), kAll);
  ASSERT_EQ(base.all().size(), 21u);
  for (int bpc : {10, 12, 16}) {
    PictureFormat f = f8;
    f.bpc = bpc;
    const FeatureCollector got = run(f, 3, scaled_content(bpc), kAll);
    ASSERT_EQ(got.all().size(), base.all().size());
    for (std::size_t i = 0; i < base.all().size(); ++i) {
      const auto& a = base.all()[i];
      const auto& b = got.all()[i];
      ASSERT_EQ(a.name, b.name);
      if (a.name == "float_psnr" || a.name == "float_anpsnr") continue;
      EXPECT_EQ(a.value, b.value) << a.name << " at " << bpc << " bit";
    }
  }
}

// Full-scale 16-bit checkerboards: no overflow, every score finite.
TEST(FloatFeaturesEngine, SixteenBitExtremesStayFinite) {
  const PictureFormat f{.width = 33, .height = 21, .bpc = 16, .chroma = ChromaFormat::k444};
  const FeatureCollector got = run(
      f, 3,
      [](Picture& r, Picture& d, unsigned fr) {
        for (int p = 0; p < 3; ++p) {
          fill_plane(r, p, [&](int x, int y) { return std::uint16_t(((x + y + fr) & 1) ? 65535 : 0); });
          fill_plane(d, p, [&](int x, int y) { return std::uint16_t(((x + y) & 1) ? 0 : 65535); });
        }
      },
      kAll);
  for (const auto& s : got.all())
    for (std::size_t i = 0; i < s.value.size(); ++i) EXPECT_TRUE(std::isfinite(s.value[i])) << s.name << " " << i;
  // 346 of the 693 samples of frame 0 are 65535 / 256, summed exactly in double.
  EXPECT_EQ(got.find("float_moment_ref1st")->value[0], 346 * 255.99609375 / 693);
}

// Identical flat pictures (mid-grey, 0 after the -128 offset): vif 1 at every scale, adm2 1, aim 0, no motion,
// PSNRs at their caps, exact moments.
TEST(FloatFeaturesEngine, FlatIdenticalPictures) {
  for (int bpc : {8, 10, 12, 16}) {
    const PictureFormat f{.width = 24, .height = 20, .bpc = bpc, .chroma = ChromaFormat::k420};
    const FeatureCollector got = run(
        f, 3,
        [bpc](Picture& r, Picture& d, unsigned) {
          for (int p = 0; p < 3; ++p) {
            if (bpc == 8) {
              fill_plane(r, p, [](int, int) { return std::uint8_t(128); });
              fill_plane(d, p, [](int, int) { return std::uint8_t(128); });
            } else {
              const std::uint16_t v = std::uint16_t(128 << (bpc - 8));
              fill_plane(r, p, [v](int, int) { return v; });
              fill_plane(d, p, [v](int, int) { return v; });
            }
          }
        },
        kAll);
    const double cap = fpsnr::peak_for(bpc).psnr_max;
    for (unsigned i = 0; i < 3; ++i) {
      for (const char* n : {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3", "adm2", "adm_scale0", "adm_scale3"})
        EXPECT_EQ(got.find(n)->value[i], 1.0) << n << " " << bpc;
      EXPECT_EQ(got.find("aim")->value[i], 0.0);
      EXPECT_EQ(got.find("adm3")->value[i], 1.0 * 0.5 + (1 - 0.0) * (1 - 0.5));
      for (const char* n : {"motion", "motion2", "motion3"}) EXPECT_EQ(got.find(n)->value[i], 0.0) << n;
      EXPECT_EQ(got.find("float_psnr")->value[i], cap);
      EXPECT_EQ(got.find("float_ansnr")->value[i], cap);
      EXPECT_EQ(got.find("float_anpsnr")->value[i], cap);
      EXPECT_EQ(got.find("float_moment_ref1st")->value[i], 128.0);
      EXPECT_EQ(got.find("float_moment_dis2nd")->value[i], 128.0 * 128.0);
    }
  }
}

// Smallest accepted sizes run; odd sizes with 4:2:0 chroma too.
TEST(FloatFeaturesEngine, SmallestAndOddSizes) {
  for (auto [w, h, c] : {std::tuple{17, 17, ChromaFormat::k444},
                         {17, 19, ChromaFormat::k420},
                         {31, 17, ChromaFormat::k422},
                         {18, 17, ChromaFormat::k400}}) {
    const PictureFormat f{.width = w, .height = h, .bpc = 8, .chroma = c};
    const FeatureCollector got = run(f, 2, scaled_content(8), kAll);
    EXPECT_EQ(got.all().size(), 21u) << w << "x" << h;
    for (const auto& s : got.all()) EXPECT_TRUE(s.has(0) && s.has(1)) << s.name;
  }
  const PictureFormat tiny{.width = 3, .height = 3, .bpc = 8, .chroma = ChromaFormat::k444};
  const FeatureCollector got =
      run(tiny, 2, scaled_content(8),
          {{"float_motion", {}}, {"float_psnr", {}}, {"float_ansnr", {}}, {"float_moment", {}}});
  EXPECT_EQ(got.all().size(), 10u);
}

TEST(FloatFeaturesEngine, ThreadsGiveTheSameOutput) {
  const PictureFormat f{.width = 48, .height = 36, .bpc = 10, .chroma = ChromaFormat::k420};
  const FeatureCollector a = run(f, 5, scaled_content(10), kAll);
  const FeatureCollector b = run(f, 5, scaled_content(10), kAll, EngineOptions{.threads = 2});
  ASSERT_EQ(a.all().size(), b.all().size());
  for (std::size_t i = 0; i < a.all().size(); ++i) {
    EXPECT_EQ(a.all()[i].name, b.all()[i].name);
    EXPECT_EQ(a.all()[i].value, b.all()[i].value);
  }
}

// ---- Names ----------------------------------------------------------------------

TEST(FloatFeatureNames, SuffixesAndPlainNames) {
  const PictureFormat f{.width = 32, .height = 32, .bpc = 8, .chroma = ChromaFormat::k420};
  const FeatureCollector got =
      run(f, 1, scaled_content(8),
          {{"float_adm", {{"debug", "true"}, {"adm_enhn_gain_limit", "1.0"}}},
           {"float_vif", {{"debug", "true"}, {"vif_prescale_method", "bicubic"}, {"vif_kernelscale", "0.5"}}}});
  std::vector<std::string> names;
  for (const auto& s : got.all()) names.push_back(s.name);
  const std::vector<std::string> want = {"adm2_egl_1",
                                         "aim_egl_1",
                                         "adm3_egl_1",
                                         "adm_scale0_egl_1",
                                         "adm_scale1_egl_1",
                                         "adm_scale2_egl_1",
                                         "adm_scale3_egl_1",
                                         "adm",  // not among libvmaf's provided features: no suffix
                                         "adm_num_egl_1",
                                         "adm_den_egl_1",
                                         "adm_num_scale0_egl_1",
                                         "adm_den_scale0_egl_1",
                                         "adm_num_scale1_egl_1",
                                         "adm_den_scale1_egl_1",
                                         "adm_num_scale2_egl_1",
                                         "adm_den_scale2_egl_1",
                                         "adm_num_scale3_egl_1",
                                         "adm_den_scale3_egl_1",
                                         "vif_scale0_ks_0.5_pm_bicubic",
                                         "vif_scale1_ks_0.5_pm_bicubic",
                                         "vif_scale2_ks_0.5_pm_bicubic",
                                         "vif_scale3_ks_0.5_pm_bicubic",
                                         "vif_ks_0.5_pm_bicubic",
                                         "vif_num_ks_0.5_pm_bicubic",
                                         "vif_den_ks_0.5_pm_bicubic",
                                         "vif_num_scale0_ks_0.5_pm_bicubic",
                                         "vif_den_scale0_ks_0.5_pm_bicubic",
                                         "vif_num_scale1_ks_0.5_pm_bicubic",
                                         "vif_den_scale1_ks_0.5_pm_bicubic",
                                         "vif_num_scale2_ks_0.5_pm_bicubic",
                                         "vif_den_scale2_ks_0.5_pm_bicubic",
                                         "vif_num_scale3_ks_0.5_pm_bicubic",
                                         "vif_den_scale3_ks_0.5_pm_bicubic"};
  EXPECT_EQ(names, want);
  // debug values are the pieces of the scores
  EXPECT_EQ(got.find("adm")->value[0], got.find("adm2_egl_1")->value[0]);
  EXPECT_EQ(got.find("adm2_egl_1")->value[0],
            got.find("adm_num_egl_1")->value[0] / got.find("adm_den_egl_1")->value[0]);
  const double n0 = got.find("vif_num_scale0_ks_0.5_pm_bicubic")->value[0];
  const double d0 = got.find("vif_den_scale0_ks_0.5_pm_bicubic")->value[0];
  EXPECT_EQ(got.find("vif_scale0_ks_0.5_pm_bicubic")->value[0], n0 / d0);
}

TEST(FloatFeatureNames, SkipScale0AndMinimums) {
  const PictureFormat f{.width = 32, .height = 32, .bpc = 8, .chroma = ChromaFormat::k420};
  const FeatureCollector got =
      run(f, 1, scaled_content(8),
          {{"float_vif", {{"debug", "true"}, {"vif_skip_scale0", "true"}, {"vif_scale2_min_val", "1"}}},
           {"float_adm", {{"debug", "true"}, {"adm_skip_scale0", "true"}}}});
  EXPECT_EQ(got.find("vif_scale0_s2miv_1_ssclz")->value[0], 0.0);
  EXPECT_EQ(got.find("vif_num_scale0_s2miv_1_ssclz")->value[0], 0.0);
  EXPECT_EQ(got.find("vif_den_scale0_s2miv_1_ssclz")->value[0], -1.0);
  EXPECT_EQ(got.find("vif_scale2_s2miv_1_ssclz")->value[0], 1.0);
  EXPECT_EQ(got.find("adm_scale0_ssz")->value[0], 0.0);
  EXPECT_EQ(got.find("adm_num_scale0_ssz")->value[0], 0.0);
  EXPECT_EQ(got.find("adm_den_scale0_ssz")->value[0], double(static_cast<float>(1e-10)));
}

TEST(FloatFeatureNames, DescriptorsAreRegistered) {
  for (const char* n : {"float_vif", "float_adm", "float_motion", "float_psnr", "float_ansnr", "float_moment"})
    EXPECT_NE(find_extractor(n), nullptr) << n;
  EXPECT_EQ(find_extractor_by_feature("VMAF_feature_vif_scale2_score"), &kFloatVifExtractor);
  EXPECT_EQ(find_extractor_by_feature("VMAF_feature_adm2_score"), &kFloatAdmExtractor);
  EXPECT_EQ(find_extractor_by_feature("VMAF_feature_motion2_score"), &kFloatMotionExtractor);
  EXPECT_EQ(find_extractor_by_feature("float_psnr"), &kFloatPsnrExtractor);
  EXPECT_TRUE(kFloatMotionExtractor.flags & kTemporal);
  EXPECT_FALSE(kFloatVifExtractor.flags & kTemporal);
}

// ---- Errors -----------------------------------------------------------------------

std::string create_error(const ExtractorDescriptor& d, const PictureFormat& f,
                         const std::map<std::string, std::string>& opts = {}) {
  try {
    const OptionSet o(d.options, opts, d.name);
    d.create(o, f);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(FloatFeatureErrors, BitDepths) {
  for (const ExtractorDescriptor* d : {&kFloatVifExtractor, &kFloatAdmExtractor, &kFloatMotionExtractor,
                                       &kFloatPsnrExtractor, &kFloatAnsnrExtractor, &kFloatMomentExtractor})
    for (int bpc : {9, 11, 14}) {
      const PictureFormat f{.width = 64, .height = 64, .bpc = bpc, .chroma = ChromaFormat::k420};
      EXPECT_EQ(create_error(*d, f),
                std::string(d->name) + ": bit depth " + std::to_string(bpc) + " is not supported (8, 10, 12 or 16)");
    }
}

TEST(FloatFeatureErrors, PictureSizes) {
  auto fmt = [](int w, int h) {
    return PictureFormat{.width = w, .height = h, .bpc = 8, .chroma = ChromaFormat::k444};
  };
  EXPECT_EQ(create_error(kFloatVifExtractor, fmt(15, 40)),
            "float_vif: picture 15x40 is too small (every VIF scale must be larger than its filter radius: at least "
            "16x16)");
  EXPECT_EQ(create_error(kFloatVifExtractor, fmt(40, 40), {{"vif_prescale", "0.25"}}),
            "float_vif: picture 40x40 is too small (every VIF scale must be larger than its filter radius: at least "
            "16x16 after prescaling to 10x10)");
  EXPECT_EQ(create_error(kFloatVifExtractor, fmt(5, 5), {{"vif_prescale", "4"}, {"vif_prescale_method", "lanczos4"}}),
            "float_vif: picture 5x5 is too small (the prescale method needs at least 6x6)");
  EXPECT_EQ(create_error(kFloatAdmExtractor, fmt(16, 17)),
            "float_adm: picture 16x17 is too small (four halvings must leave bands of at least 2x2: at least 17x17)");
  EXPECT_EQ(create_error(kFloatMotionExtractor, fmt(2, 9)),
            "float_motion: picture 2x9 is too small (the 5-tap filter needs at least 3x3)");
  EXPECT_EQ(create_error(kFloatMotionExtractor, fmt(2, 2), {{"motion_filter_size", "3"}}), "");
  EXPECT_EQ(create_error(kFloatMotionExtractor, fmt(1, 2), {{"motion_filter_size", "3"}}),
            "float_motion: picture 1x2 is too small (the 3-tap filter needs at least 2x2)");
  EXPECT_EQ(create_error(kFloatAnsnrExtractor, fmt(3, 2)),
            "float_ansnr: picture 3x2 is too small (the 5x5 filter needs at least 3x3)");
  EXPECT_EQ(create_error(kFloatPsnrExtractor, fmt(1, 1)), "");
  EXPECT_EQ(create_error(kFloatMomentExtractor, fmt(1, 1)), "");
}

TEST(FloatFeatureErrors, Options) {
  const PictureFormat f{.width = 64, .height = 64, .bpc = 8, .chroma = ChromaFormat::k420};
  EXPECT_EQ(create_error(kFloatVifExtractor, f, {{"vif_kernelscale", "1.7"}}),
            "float_vif: vif_kernelscale 1.7 is not supported (1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, "
            "4.25/3, 5/3, 3, 1/2.25, 1.4746, 1.54, 1.6, 1.06667, 0.711111, 0.74074 or 1.111111)");
  EXPECT_EQ(create_error(kFloatVifExtractor, f, {{"vif_prescale_method", "area"}}),
            "float_vif: vif_prescale_method 'area' is not supported (nearest, bilinear, bicubic or lanczos4)");
  const PictureFormat wide{.width = 3900, .height = 16, .bpc = 8, .chroma = ChromaFormat::k420};
  EXPECT_EQ(create_error(kFloatVifExtractor, wide, {{"vif_prescale", "2"}, {"vif_prescale_method", "bilinear"}}),
            "float_vif: bilinear prescaling to width 7800 is not supported (at most 7680)");
  const PictureFormat gray{.width = 64, .height = 64, .bpc = 8, .chroma = ChromaFormat::k400};
  EXPECT_EQ(create_error(kFloatMotionExtractor, gray, {{"motion_add_uv", "true"}}),
            "float_motion: motion_add_uv needs chroma planes (the input is 4:0:0)");
  const PictureFormat thin{.width = 4, .height = 64, .bpc = 8, .chroma = ChromaFormat::k420};
  EXPECT_EQ(create_error(kFloatMotionExtractor, thin, {{"motion_add_uv", "true"}}),
            "float_motion: chroma planes 2x32 are too small for motion_add_uv (the 5-tap filter needs at least 3x3)");
  const PictureFormat huge{.width = 15362, .height = 8, .bpc = 8, .chroma = ChromaFormat::k420};
  EXPECT_EQ(create_error(kFloatMotionExtractor, huge, {{"motion_add_scale1", "true"}}),
            "float_motion: motion_add_scale1 supports widths up to 15360 (got 15362)");
  // Range checks come from the option tables (libvmaf's min / max).
  EXPECT_NE(create_error(kFloatAdmExtractor, f, {{"adm_skip_aim_scale", "4"}}).find("out of range"), std::string::npos);
  EXPECT_NE(create_error(kFloatVifExtractor, f, {{"vif_enhn_gain_limit", "0.5"}}).find("out of range"),
            std::string::npos);
  EXPECT_NE(create_error(kFloatPsnrExtractor, f, {{"x", "1"}}).find("takes no options"), std::string::npos);
}

}  // namespace
}  // namespace vmafx
