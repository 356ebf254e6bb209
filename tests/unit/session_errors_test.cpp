// SPDX-License-Identifier: BSD-3-Clause
// Every refusal of a Session's configuration (the CLI's --model / --feature
// strings, backends) and of extractors that only a library caller can reach
// (a picture format no reader produces, samples out of range): the exact
// one-line message. scripts/error-audit.py checks that each message of src/
// has a test.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "feature/ms_ssim.hpp"
#include "feature/ssim_common.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {
namespace {

const PictureFormat k64{64, 64, 8, ChromaFormat::k420};

std::string refusal(const SessionConfig& cfg, const PictureFormat& fmt = k64) {
  try {
    Session s(fmt, cfg);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}
std::string model_refusal(const std::string& arg) {
  SessionConfig c;
  c.models = {arg};
  return refusal(c);
}
std::string feature_refusal(const std::string& arg) {
  SessionConfig c;
  c.no_prediction = true;
  c.features = {arg};
  return refusal(c);
}

TEST(SessionErrors, ModelStrings) {
  EXPECT_EQ(model_refusal("version=vmaf_v0.6.1::name=x"), "model 'version=vmaf_v0.6.1::name=x': empty item");
  EXPECT_EQ(model_refusal("version=vmaf_v0.6.1:clip"),
            "model 'version=vmaf_v0.6.1:clip': bad option string 'clip' (expected key=value)");
  EXPECT_EQ(model_refusal("version=vmaf_v0.6.1:name="), "model 'version=vmaf_v0.6.1:name=': empty name");
  // Found by fuzz_options: any bytes were taken as the name, and broke the
  // reports (a quote or invalid UTF-8 in JSON, a space in XML, a comma in CSV).
  EXPECT_EQ(model_refusal("version=vmaf_v0.6.1:name=my model"),
            "model 'version=vmaf_v0.6.1:name=my model': name 'my model' must start with a letter or '_' and hold "
            "only letters, digits, '_', '-' and '.'");
  EXPECT_NE(model_refusal("version=vmaf_v0.6.1:name=a\"b"), "no error");
  EXPECT_NE(model_refusal("version=vmaf_v0.6.1:name=4k"), "no error");
  EXPECT_EQ(model_refusal("version=vmaf_v0.6.1:name=vmaf_4k-v0.6.1"), "no error");
  EXPECT_EQ(model_refusal("version=vmaf_v0.6.1:disable_clip=yes"),
            "model 'version=vmaf_v0.6.1:disable_clip=yes': disable_clip must be true or false");
  EXPECT_EQ(model_refusal("version=vmaf_v0.6.1:path=m.json"),
            "model 'version=vmaf_v0.6.1:path=m.json': give either version= or path=, not both");
  EXPECT_EQ(model_refusal("name=x:disable_clip"), "model 'name=x:disable_clip': needs version= or path=");
  // Accepted forms, for contrast: a trailing ':' and the bare flags.
  EXPECT_EQ(model_refusal("version=vmaf_v0.6.1:disable_clip:enable_transform=false:"), "no error");
}

TEST(SessionErrors, NulCharacters) {
  // Found by fuzz_options: "path=\0..." gave an Error whose message was empty.
  EXPECT_EQ(model_refusal(std::string("path=\0x.json", 13)), "model string: holds a NUL character");
  EXPECT_EQ(feature_refusal(std::string("psnr=enable_mse=\0", 17)), "feature string: holds a NUL character");
}

TEST(SessionErrors, FeatureStrings) {
  EXPECT_EQ(feature_refusal("=enable_chroma=false"), "feature '=enable_chroma=false': empty feature name");
  EXPECT_EQ(feature_refusal("psnr=enable_chroma=false:"), "psnr: malformed option '' (expected key=value)");
  EXPECT_EQ(feature_refusal("psnr=min_sse=-1"), "psnr: option min_sse=-1: out of range [0, 1.79769e+308]");
}

// Only in a build without one of the device backends (the sanitizer builds
// of CI have neither): a build with both has no such test.
#if !defined(VMAFX_HAVE_CUDA) || !defined(VMAFX_HAVE_OPENCL)
TEST(SessionErrors, NoSuchBackendInThisBuild) {
  SessionConfig c;
#ifndef VMAFX_HAVE_CUDA
  c.backend = "cuda";
  EXPECT_EQ(refusal(c), "backend cuda: this build has no cuda backend (rebuild with VMAFX_CUDA=ON)");
#endif
#ifndef VMAFX_HAVE_OPENCL
  c.backend = "opencl";
  EXPECT_EQ(refusal(c), "backend opencl: this build has no opencl backend (rebuild with VMAFX_OPENCL=ON)");
#endif
}
#endif

TEST(SessionErrors, EngineFeatureLookup) {
  Engine e(k64, {});
  try {
    e.use_feature("VMAF_feature_nonexistent_score", {});
    ADD_FAILURE() << "no error";
  } catch (const Error& err) {
    EXPECT_STREQ(err.what(), "no feature extractor provides 'VMAF_feature_nonexistent_score'");
  }
}

// Formats the readers never produce (they read 8 to 16 bits), which a
// library caller can still ask for.
TEST(SessionErrors, ExtractorRefusalsOfLibraryFormats) {
  const PictureFormat seven{64, 64, 7, ChromaFormat::k420};
  EXPECT_EQ(feature_refusal("psnr_hvs"), "no error");
  SessionConfig c;
  c.no_prediction = true;
  c.features = {"psnr_hvs"};
  EXPECT_EQ(refusal(c, seven), "psnr_hvs: unsupported bit depth 7");
  c.features = {"cambi"};
  EXPECT_EQ(refusal(c, seven), "cambi: unsupported bit depth 7 (8 to 16)");
}

TEST(SessionErrors, CambiSampleAboveTheDepth) {
  // The readers refuse such samples; a library caller's picture is checked by cambi.
  SessionConfig c;
  c.no_prediction = true;
  c.features = {"cambi"};
  c.threads = 1;
  Session s({256, 64, 10, ChromaFormat::k420}, c);
  auto ref = s.acquire(), dis = s.acquire();
  for (auto* p : {ref.get(), dis.get()})
    for (int plane = 0; plane < 3; ++plane)
      for (int y = 0; y < p->format().plane_height(plane); ++y)
        for (int x = 0; x < p->format().plane_width(plane); ++x) p->row<std::uint16_t>(plane, y)[x] = 512;
  dis->row<std::uint16_t>(0, 5)[7] = 1024;
  try {
    s.push(std::move(ref), std::move(dis));
    s.finish();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cambi: frame 0: the distorted luma holds a value above 1023, the maximum for 10-bit input");
  }
  // With full_ref, the reference is checked too (first).
  c.features = {"cambi=full_ref=true"};
  Session f({256, 64, 12, ChromaFormat::k420}, c);
  auto r2 = f.acquire(), d2 = f.acquire();
  for (auto* p : {r2.get(), d2.get()})
    for (int plane = 0; plane < 3; ++plane)
      for (int y = 0; y < p->format().plane_height(plane); ++y)
        for (int x = 0; x < p->format().plane_width(plane); ++x) p->row<std::uint16_t>(plane, y)[x] = 2048;
  r2->row<std::uint16_t>(0, 63)[255] = 4096;
  try {
    f.push(std::move(r2), std::move(d2));
    f.finish();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cambi: frame 0: the reference luma holds a value above 4095, the maximum for 12-bit input");
  }
}

TEST(SessionErrors, GuardsOfTheSsimFamily) {
  // MS-SSIM's product overflows only for means no picture produces; the
  // guard is there for the GPU twins' host side.
  ssim::SsimMeans m;
  m.l = m.c = m.s = 1e30f;
  double msssim = 1e308;  // 1e30 to the power of each scale's exponents: the product overflows
  ssim::MsSsimScores out;
  try {
    ssim::ms_ssim_add_scale(0, m, msssim, out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "float_ms_ssim: the score is infinite");
  }
  float img[4] = {1, 2, 3, 4};
  int w = 0, h = 0;
  try {
    ssim::decimate_box_in_place(img, 2, 2, 11, &w, &h);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "float_ssim: decimation factor must be 1 to 10");
  }
}

}  // namespace
}  // namespace vmafx
