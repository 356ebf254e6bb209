// Unit tests of the psnr_hvs, ciede and cambi extractors: building blocks,
// edge sizes and depths, errors. Values marked "libvmaf" were computed by
// libvmaf 3.2.0's own functions (cambi.c / luminance_tools.c, C path).
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
#include "feature/cambi.hpp"
#include "feature/ciede.hpp"
#include "feature/psnr_hvs.hpp"

namespace vmafx {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void set(Picture& p, int plane, int x, int y, long v) {
  if (p.bpc() == 8)
    p.row<std::uint8_t>(plane, y)[x] = std::uint8_t(v);
  else
    p.row<std::uint16_t>(plane, y)[x] = std::uint16_t(v);
}

void fill_plane(Picture& p, int plane, const std::function<long(int, int)>& f) {
  const PlaneView v = p.plane(plane);
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x) set(p, plane, x, y, f(x, y));
}

void fill(Picture& p, long v) {
  for (int pl = 0; pl < p.format().plane_count(); ++pl) fill_plane(p, pl, [v](int, int) { return v; });
}

using Filler = std::function<void(Picture& ref, Picture& dis, unsigned frame)>;

FeatureCollector run(const PictureFormat& fmt, const std::string& extractor, unsigned frames, const Filler& f,
                     const std::map<std::string, std::string>& opts = {}, unsigned threads = 0) {
  Engine e(fmt, EngineOptions{.threads = threads});
  e.use(FeatureRequest{extractor, opts});
  for (unsigned i = 0; i < frames; ++i) {
    auto r = e.acquire();
    auto d = e.acquire();
    f(*r, *d, i);
    e.push(std::move(r), std::move(d));
  }
  e.finish();
  return std::move(e.collector());
}

double at(const FeatureCollector& c, const std::string& name, unsigned i) {
  const auto* s = c.find(name);
  if (!s || !s->has(i)) {
    ADD_FAILURE() << name << " missing at " << i;
    return -1;
  }
  return s->value[i];
}

std::vector<std::string> names(const FeatureCollector& c) {
  std::vector<std::string> out;
  for (const auto& s : c.all()) out.push_back(s.name);
  return out;
}

std::string create_error(const std::string& extractor, const PictureFormat& fmt,
                         const std::map<std::string, std::string>& opts = {}) {
  try {
    Engine e(fmt, EngineOptions{});
    e.use(FeatureRequest{extractor, opts});
  } catch (const Error& err) {
    return err.what();
  }
  return "";
}

bool same_collectors(const FeatureCollector& a, const FeatureCollector& b) {
  if (names(a) != names(b)) return false;
  for (const auto& s : a.all()) {
    const auto* t = b.find(s.name);
    if (s.value.size() != t->value.size()) return false;
    for (std::size_t i = 0; i < s.value.size(); ++i)
      if (!(s.value[i] == t->value[i] || (std::isnan(s.value[i]) && std::isnan(t->value[i])))) return false;
  }
  return true;
}

// ===========================================================================
// psnr_hvs

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

// ===========================================================================
// ciede

TEST(Ciede, FrameScore) {
  EXPECT_EQ(ciede::frame_score(6.0 * 4.0, 6, 4), 45.0);  // mean dE00 of 1
  EXPECT_EQ(ciede::frame_score(0.0, 6, 4), kInf);
  EXPECT_EQ(ciede::frame_score(60.0 * 40.0 * 10.0, 60, 40), 25.0);
}

TEST(Ciede, SameColourHasNoDifference) {
  for (auto [y, u, v] : {std::tuple{16.0, 128.0, 128.0}, std::tuple{235.0, 128.0, 128.0},
                         std::tuple{81.0, 90.0, 240.0}, std::tuple{145.0, 54.0, 34.0}}) {
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
      set(d, 0, 4, 2, 140);
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

// ===========================================================================
// cambi

using cambi::Eotf;

TEST(Cambi, LuminanceLikeLibvmaf) {
  EXPECT_EQ(cambi::luminance(940, Eotf::kBt1886), 300.0);
  EXPECT_EQ(cambi::luminance(64, Eotf::kBt1886), 0.0099999999999999985);
  EXPECT_EQ(cambi::luminance(2000, Eotf::kBt1886), 300.0);  // clipped to the range
  EXPECT_EQ(cambi::luminance(940, Eotf::kPq), 10000.0);
  EXPECT_EQ(cambi::luminance(0, Eotf::kPq), 0.0);
}

TEST(Cambi, VisibilityThresholdsLikeLibvmaf) {
  auto tvi = [](double t, Eotf e, int n) {
    std::vector<int> v;
    for (int d = 1; d <= n; ++d) v.push_back(cambi::tvi_for_diff(d, t, e));
    return v;
  };
  // libvmaf's get_tvi_for_diff(d, t, 10, limited range, eotf), d = 1, 2, ...
  EXPECT_EQ(tvi(0.019, Eotf::kBt1886, 8), (std::vector<int>{178, 305, 432, 559, 686, 813, 1023, 1023}));
  EXPECT_EQ(tvi(0.1, Eotf::kBt1886, 8), (std::vector<int>{76, 101, 125, 150, 175, 199, 224, 249}));
  EXPECT_EQ(tvi(0.5, Eotf::kBt1886, 8), (std::vector<int>{0, 0, 68, 73, 79, 84, 89, 95}));
  EXPECT_EQ(tvi(1.0, Eotf::kBt1886, 6), (std::vector<int>{0, 0, 0, 0, 66, 69}));
  EXPECT_EQ(tvi(0.001, Eotf::kBt1886, 2), (std::vector<int>{1023, 1023}));
  EXPECT_EQ(tvi(0.019, Eotf::kPq, 3), (std::vector<int>{233, 1023, 1023}));
  EXPECT_EQ(tvi(0.1, Eotf::kPq, 10), (std::vector<int>{84, 111, 143, 182, 228, 284, 355, 453, 1023, 1023}));
  EXPECT_EQ(tvi(1.0, Eotf::kPq, 8), (std::vector<int>{66, 68, 70, 72, 75, 78, 81, 83}));

  // libvmaf's get_vlt_luma for 0, 0.01, 0.06, 1, 10, 100, 299, 300 cd/m2.
  const double lums[] = {0, 0.01, 0.06, 1, 10, 100, 299, 300};
  const int bt[] = {0, 65, 78, 135, 268, 614, 939, 940};
  const int pq[] = {0, 83, 108, 196, 327, 510, 609, 609};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(cambi::vis_lum_threshold_luma(lums[i], Eotf::kBt1886), bt[i]) << lums[i];
    EXPECT_EQ(cambi::vis_lum_threshold_luma(lums[i], Eotf::kPq), pq[i]) << lums[i];
  }
  // Above the peak, libvmaf's search never ends; ours refuses.
  try {
    cambi::vis_lum_threshold_luma(300.5, Eotf::kBt1886);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cambi: cambi_vis_lum_threshold=300.5", 0), 0u) << e.what();
  }
}

TEST(Cambi, AdjustWindow) {
  EXPECT_EQ(cambi::adjust_window(65, 3840, 2160, false), 65);
  EXPECT_EQ(cambi::adjust_window(65, 1920, 1080, false), 33);
  EXPECT_EQ(cambi::adjust_window(65, 1920, 1080, true), 17);
  EXPECT_EQ(cambi::adjust_window(65, 240, 176, false), 5);
  EXPECT_EQ(cambi::adjust_window(15, 216, 100, false), 1);
  EXPECT_EQ(cambi::adjust_window(127, 7680, 4320, false), 255);
}

cambi::Settings resolve(const PictureFormat& f, const std::map<std::string, std::string>& opts = {}) {
  const ExtractorDescriptor* d = find_extractor("cambi");
  return cambi::resolve(OptionSet(d->options, opts, "cambi"), f);
}

TEST(Cambi, ResolvesOptionsAsLibvmaf) {
  const PictureFormat hd{1920, 1080, 8, ChromaFormat::k420};
  cambi::Settings s = resolve(hd);
  EXPECT_EQ(s.enc_width, 1920u);
  EXPECT_EQ(s.enc_bitdepth, 8u);
  EXPECT_EQ(s.window, 33);
  EXPECT_EQ(s.num_diffs, 4);
  EXPECT_EQ(s.tvi[0], 178 + 4);
  EXPECT_EQ(s.tvi[3], 559 + 4);
  EXPECT_EQ(s.band_base, 0);
  EXPECT_EQ(s.band_size, 564);
  EXPECT_FALSE(s.speedup);
  EXPECT_EQ(s.topk, 0.6);

  // The speed-up applies from its resolution up only.
  EXPECT_TRUE(resolve(hd, {{"cambi_high_res_speedup", "1080"}}).speedup);
  EXPECT_EQ(resolve(hd, {{"cambi_high_res_speedup", "1080"}}).window, 17);
  EXPECT_FALSE(resolve(hd, {{"cambi_high_res_speedup", "1440"}}).speedup);
  EXPECT_FALSE(resolve(hd, {{"cambi_high_res_speedup", "720"}}).speedup);
  EXPECT_FALSE(resolve({1920, 1079, 8, ChromaFormat::k420}, {{"cambi_high_res_speedup", "1080"}}).speedup);

  // An encode larger than the input is scored at the input size; both enc sides are needed.
  EXPECT_EQ(resolve(hd, {{"enc_width", "3840"}, {"enc_height", "2160"}}).enc_width, 1920u);
  EXPECT_EQ(resolve(hd, {{"enc_width", "1280"}}).enc_width, 1920u);
  const cambi::Settings e = resolve(hd, {{"enc_width", "1280"}, {"enc_height", "720"}, {"enc_bitdepth", "10"}});
  EXPECT_EQ(e.enc_width, 1280u);
  EXPECT_EQ(e.enc_height, 720u);
  EXPECT_EQ(e.enc_bitdepth, 10u);

  // topk wins over cambi_topk when not at its default; cambi_eotf over eotf likewise.
  EXPECT_EQ(resolve(hd, {{"cambi_topk", "0.2"}}).topk, 0.2);
  EXPECT_EQ(resolve(hd, {{"cambi_topk", "0.2"}, {"topk", "0.3"}}).topk, 0.3);
  EXPECT_EQ(resolve(hd, {{"eotf", "pq"}}).tvi[0], 233 + 4);
  EXPECT_EQ(resolve(hd, {{"eotf", "pq"}, {"cambi_eotf", "bt1886"}}).tvi[0], 233 + 4);
  EXPECT_EQ(resolve(hd, {{"eotf", "bt1886"}, {"cambi_eotf", "pq"}}).tvi[0], 233 + 4);

  // The histogram band follows the visibility threshold.
  const cambi::Settings v = resolve(hd, {{"cambi_vis_lum_threshold", "10"}, {"max_log_contrast", "3"}});
  EXPECT_EQ(v.vlt_luma, 268);
  EXPECT_EQ(v.num_diffs, 8);
  EXPECT_EQ(v.band_base, 268 - 24 + 1);
}

TEST(Cambi, Errors) {
  auto err = [](const PictureFormat& f, const std::map<std::string, std::string>& o = {}) {
    return create_error("cambi", f, o);
  };
  const PictureFormat hd{1920, 1080, 8, ChromaFormat::k420};
  EXPECT_EQ(err({176, 144, 8, ChromaFormat::k420}),
            "cambi: picture 176x144 is too small (one side must be at least 216)");
  EXPECT_EQ(err({215, 215, 10, ChromaFormat::k444}),
            "cambi: picture 215x215 is too small (one side must be at least 216)");
  EXPECT_EQ(err({216, 100, 8, ChromaFormat::k400}), "");
  EXPECT_EQ(err({100, 216, 8, ChromaFormat::k420}), "");
  EXPECT_EQ(err(hd, {{"enc_width", "200"}, {"enc_height", "150"}}),
            "cambi: picture 200x150 is too small (one side must be at least 216)");
  EXPECT_EQ(err(hd, {{"src_width", "2000"}, {"src_height", "1000"}}),
            "cambi: source size 2000x1000 and encode size 1920x1080 scale in opposite directions");
  EXPECT_EQ(err({3840, 2160, 8, ChromaFormat::k420}, {{"window_size", "127"}}),
            "cambi: window_size 127 (adjusted to the picture size) is too large");
  // The source window counts even without full_ref (as libvmaf).
  EXPECT_EQ(err(hd, {{"src_width", "7680"}, {"src_height", "4320"}}),
            "cambi: window_size 131 (adjusted to the picture size) is too large");
  EXPECT_EQ(err(hd, {{"eotf", "hlg"}}), "cambi: unknown eotf 'hlg' (bt1886 or pq)");
  EXPECT_EQ(err(hd, {{"cambi_eotf", "srgb"}}), "cambi: unknown eotf 'srgb' (bt1886 or pq)");
  EXPECT_EQ(err({3000, 216, 8, ChromaFormat::k420}),
            "cambi: encode size 3000x216 is too narrow for the 35-pixel window at the coarsest scale (188x14); "
            "libvmaf reads outside the picture there");
  EXPECT_EQ(err({216, 3000, 8, ChromaFormat::k420}),
            "cambi: encode size 216x3000 is too narrow for the 35-pixel window at the coarsest scale (14x188); "
            "libvmaf reads outside the picture there");
  EXPECT_EQ(err({2200, 216, 8, ChromaFormat::k420}), "");
  EXPECT_EQ(err({240, 176, 10, ChromaFormat::k420}, {{"full_ref", "true"}, {"src_width", "320"}, {"src_height", "200"}}),
            "cambi: full_ref with 10-bit input and src_width 320 above the input width 240 is not supported "
            "(libvmaf copies the picture with the wrong row pitch)");
  EXPECT_EQ(err({240, 176, 12, ChromaFormat::k420}, {{"full_ref", "true"}, {"src_width", "320"}, {"src_height", "200"}}),
            "");
  EXPECT_EQ(err(hd, {{"cambi_max_val", "1001"}}), "cambi: option cambi_max_val=1001: out of range [0, 1000]");
  EXPECT_EQ(err(hd, {{"window_size", "14"}}), "cambi: option window_size=14: out of range [15, 127]");

  // heatmaps_path that cannot be a directory.
  const std::string file = ::testing::TempDir() + "/cambi_heatmaps_not_a_dir";
  std::ofstream(file) << "x";
  const std::string m = err({240, 176, 8, ChromaFormat::k420}, {{"heatmaps_path", file + "/sub"}});
  EXPECT_EQ(m.rfind("cambi: cannot create heatmaps_path directory '" + file + "/sub'", 0), 0u) << m;
}

// A reference spatial mask straight from the definition.
std::vector<std::uint16_t> brute_mask(const std::vector<std::uint16_t>& img, int w, int h) {
  auto zd = [&](int r, int c) {
    const std::uint16_t v = img[r * w + c];
    return (c == w - 1 || v == img[r * w + c + 1]) && (r == h - 1 || v == img[(r + 1) * w + c]);
  };
  std::uint32_t blocks = std::uint32_t(w >> 6) * std::uint32_t(h >> 6), lg = 0;
  while ((1u << lg) < blocks) ++lg;
  const int threshold = (49 + 3 * (int(blocks ? lg : 0) - 11) - 1) >> 1;
  std::vector<std::uint16_t> m(img.size());
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) {
      int n = 0;
      for (int rr = std::max(0, r - 3); rr <= std::min(h - 1, r + 3); ++rr)
        for (int cc = std::max(0, c - 3); cc <= std::min(w - 1, c + 3); ++cc) n += zd(rr, cc);
      m[r * w + c] = n > threshold;
    }
  return m;
}

TEST(Cambi, SpatialMaskMatchesDefinition) {
  std::mt19937 rng(5);
  for (auto [w, h] : {std::pair{1, 1}, std::pair{5, 3}, std::pair{37, 29}, std::pair{130, 70}, std::pair{200, 260}}) {
    std::vector<std::uint16_t> img(std::size_t(w) * h);
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c)
        img[r * w + c] = ((r / 9 + c / 11) % 3 == 0) ? std::uint16_t(rng() % 3) : std::uint16_t(100 + (r / 5));
    std::vector<std::uint16_t> m(img.size(), 7);
    cambi::spatial_mask(img.data(), w, w, h, m.data());
    EXPECT_EQ(m, brute_mask(img, w, h)) << w << "x" << h;
  }
}

TEST(Cambi, ModeFilterMatchesDefinition) {
  auto mode = [](std::uint16_t a, std::uint16_t b, std::uint16_t c) -> std::uint16_t {
    if (a == b || a == c) return a;
    if (b == c) return b;
    return std::min({a, b, c});
  };
  std::mt19937 rng(9);
  for (auto [w, h] : {std::pair{1, 1}, std::pair{2, 5}, std::pair{3, 3}, std::pair{17, 12}}) {
    std::vector<std::uint16_t> img(std::size_t(w) * h);
    for (auto& v : img) v = std::uint16_t(rng() % 4);
    // Horizontal mode (edges kept), then vertical mode of those rows for rows 1..h-2.
    std::vector<std::uint16_t> hz(img), want(img);
    for (int r = 0; r < h; ++r)
      for (int c = 1; c < w - 1; ++c) hz[r * w + c] = mode(img[r * w + c - 1], img[r * w + c], img[r * w + c + 1]);
    for (int r = 1; r < h - 1; ++r)
      for (int c = 0; c < w; ++c) want[r * w + c] = mode(hz[(r - 1) * w + c], hz[r * w + c], hz[(r + 1) * w + c]);
    std::vector<std::uint16_t> scratch(3 * std::size_t(w));
    cambi::mode_filter(img.data(), w, w, h, scratch.data());
    EXPECT_EQ(img, want) << w << "x" << h;
  }
}

TEST(Cambi, TopkMean) {
  std::vector<float> v = {3, 9, 1, 7, 5, 8, 2, 6, 4, 0};
  EXPECT_EQ(cambi::topk_mean(v.data(), 10, 0.3), (9 + 8 + 7) / 3.0);
  v = {3, 9, 1, 7, 5, 8, 2, 6, 4, 0};
  EXPECT_EQ(cambi::topk_mean(v.data(), 10, 1.0), 4.5);
  v = {3, 9, 1, 7, 5, 8, 2, 6, 4, 0};
  EXPECT_EQ(cambi::topk_mean(v.data(), 10, 0.0001), 9.0);  // at least one element
  std::mt19937 rng(3);
  std::vector<float> big(1000);
  for (auto& x : big) x = float(rng() % 50);
  std::vector<float> sorted(big);
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  double want = 0;
  for (int i = 0; i < 600; ++i) want += sorted[i];
  EXPECT_EQ(cambi::topk_mean(big.data(), 1000, 0.6), want / 600);
}

// A 10-bit ramp in steps of 2 codes: visible bands on a smooth background.
void banded(Picture& p, unsigned frame) {
  const int bpc = p.bpc();
  fill_plane(p, 0, [&](int x, int y) {
    const long r = 300 + (x * 200) / p.width() + (y * 100) / p.height() + frame;
    return long(((r / 2) * 2) << (bpc - 10));
  });
}

TEST(Cambi, FlatIsZeroBandsArePositive) {
  const PictureFormat f{240, 216, 10, ChromaFormat::k420};
  const auto flat = run(f, "cambi", 2, [](Picture& r, Picture& d, unsigned) {
    fill(r, 500);
    fill(d, 500);
  });
  EXPECT_EQ(names(flat), std::vector<std::string>{"cambi"});
  EXPECT_EQ(at(flat, "cambi", 0), 0.0);
  const auto bands = run(f, "cambi", 2, [](Picture& r, Picture& d, unsigned i) {
    fill(r, 500);
    fill(d, 500);
    banded(d, i);
  });
  EXPECT_GT(at(bands, "cambi", 0), 1.0);
  EXPECT_GT(at(bands, "cambi", 1), 1.0);
  // Clipped at cambi_max_val, with the option suffix.
  const auto clipped = run(f, "cambi", 1, [](Picture& r, Picture& d, unsigned i) {
    fill(r, 500);
    banded(d, i);
  }, {{"cambi_max_val", "0.5"}});
  EXPECT_EQ(names(clipped), std::vector<std::string>{"cambi_cmxv_0.5"});
  EXPECT_EQ(at(clipped, "cambi_cmxv_0.5", 0), 0.5);
}

TEST(Cambi, FullReferenceNamesArePlain) {
  const PictureFormat f{240, 216, 10, ChromaFormat::k420};
  const auto c = run(f, "cambi", 1, [](Picture& r, Picture& d, unsigned i) {
    fill(r, 500);
    banded(r, i + 7);
    fill(d, 500);
    banded(d, i);
  }, {{"full_ref", "true"}, {"topk", "0.3"}});
  EXPECT_EQ(names(c), (std::vector<std::string>{"cambi_topk_0.3", "cambi_source", "cambi_full_reference"}));
  const double dist = at(c, "cambi_topk_0.3", 0), src = at(c, "cambi_source", 0);
  EXPECT_EQ(at(c, "cambi_full_reference", 0), dist > src ? dist - src : 0.0);
}

TEST(Cambi, OutputNameForTheV1016ModelOptions) {
  Engine e({1920, 1080, 8, ChromaFormat::k420}, EngineOptions{});
  EXPECT_EQ(e.use_feature("Cambi_feature_cambi_score", {{"cambi_high_res_speedup", "1080"},
                                                         {"cambi_vis_lum_threshold", "0.06"},
                                                         {"cambi_max_val", "17.0"}}),
            "cambi_hrs_1080_cmxv_17_vlt_0.06");
}

TEST(Cambi, BandAboveTheThresholdsScoresZero) {
  // vlt above every visibility threshold: no code can count. libvmaf indexes
  // its histograms out of bounds here (it crashes); the score is 0.
  const PictureFormat f{240, 216, 8, ChromaFormat::k420};
  const auto c = run(f, "cambi", 1, [](Picture& r, Picture& d, unsigned i) {
    fill(r, 128);
    fill_plane(d, 0, [i](int x, int) { return long(100 + x / 8 + i); });
  }, {{"cambi_vis_lum_threshold", "200"}, {"max_log_contrast", "0"}});
  EXPECT_EQ(at(c, "cambi_vlt_200_mlc_0", 0), 0.0);
}

TEST(Cambi, OutOfRangeSampleFailsTheFrame) {
  const PictureFormat f{240, 216, 10, ChromaFormat::k420};
  try {
    run(f, "cambi", 2, [](Picture& r, Picture& d, unsigned i) {
      fill(r, 500);
      fill(d, 500);
      if (i == 1) set(d, 0, 3, 4, 1024);
    });
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cambi: frame 1: the distorted luma holds a value above 1023, the maximum for 10-bit input");
  }
  // 16-bit input has no out-of-range values; 65535 maps to 10-bit code 1024 (as libvmaf).
  const auto c = run({240, 216, 16, ChromaFormat::k420}, "cambi", 1, [](Picture& r, Picture& d, unsigned) {
    fill(r, 65535);
    fill(d, 65535);
  });
  EXPECT_EQ(at(c, "cambi", 0), 0.0);
}

TEST(Cambi, EdgeSizes) {
  // One row, one column, odd sizes, 4:0:0: defined, finite, no crash.
  for (const PictureFormat& f : {PictureFormat{216, 1, 8, ChromaFormat::k444}, PictureFormat{1, 216, 12, ChromaFormat::k400},
                                 PictureFormat{217, 9, 9, ChromaFormat::k444}, PictureFormat{233, 301, 10, ChromaFormat::k420}}) {
    SCOPED_TRACE(std::to_string(f.width) + "x" + std::to_string(f.height));
    const auto c = run(f, "cambi", 2, [](Picture& r, Picture& d, unsigned i) {
      fill(r, 100);
      fill_plane(d, 0, [&](int x, int y) { return long(100 + ((x + y + int(i)) / 3) % 2); });
    });
    EXPECT_TRUE(std::isfinite(at(c, "cambi", 0)));
    EXPECT_GE(at(c, "cambi", 0), 0.0);
  }
}

TEST(Cambi, ThreadsGiveIdenticalOutput) {
  const PictureFormat f{320, 240, 12, ChromaFormat::k444};
  auto filler = [](Picture& r, Picture& d, unsigned i) {
    fill(r, 2000);
    banded(r, i * 3);
    fill(d, 2000);
    banded(d, i);
  };
  const std::map<std::string, std::string> o = {{"full_ref", "true"}, {"enc_width", "300"}, {"enc_height", "220"}};
  EXPECT_TRUE(same_collectors(run(f, "cambi", 6, filler, o), run(f, "cambi", 6, filler, o, 2)));
}

TEST(Cambi, Heatmaps) {
  const std::string dir = ::testing::TempDir() + "/cambi_heatmaps_" + std::to_string(::getpid()) + "/a/b";
  const PictureFormat f{240, 216, 10, ChromaFormat::k420};
  auto filler = [](Picture& r, Picture& d, unsigned i) {
    fill(r, 500);
    fill(d, 500);
    banded(d, i);
  };
  const auto c = run(f, "cambi", 3, filler, {{"heatmaps_path", dir}});
  EXPECT_EQ(names(c), std::vector<std::string>{"cambi"});  // not a feature parameter
  // One file per scale (named after the halved sizes), 3 frames of 16-bit samples.
  const char* files[] = {"cambi_heatmap_scale_0_240x216_16b.gray", "cambi_heatmap_scale_1_120x108_16b.gray",
                         "cambi_heatmap_scale_2_60x54_16b.gray", "cambi_heatmap_scale_3_30x27_16b.gray",
                         "cambi_heatmap_scale_4_15x14_16b.gray"};
  const int sizes[][2] = {{240, 216}, {120, 108}, {60, 54}, {30, 27}, {15, 14}};
  std::vector<std::vector<char>> first;
  for (int s = 0; s < 5; ++s) {
    const std::string p = dir + "/" + files[s];
    ASSERT_TRUE(std::filesystem::exists(p)) << p;
    EXPECT_EQ(std::filesystem::file_size(p), std::uintmax_t(3) * sizes[s][0] * sizes[s][1] * 2) << p;
    std::ifstream in(p, std::ios::binary);
    first.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // Some heat at scale 0 (banding), and the same bytes when frames run on 2 threads.
  EXPECT_NE(std::count(first[0].begin(), first[0].end(), 0), std::ptrdiff_t(first[0].size()));
  run(f, "cambi", 3, filler, {{"heatmaps_path", dir}}, 2);
  for (int s = 0; s < 5; ++s) {
    std::ifstream in(dir + "/" + files[s], std::ios::binary);
    const std::vector<char> again((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(again, first[s]) << files[s];
  }
  std::filesystem::remove_all(::testing::TempDir() + "/cambi_heatmaps_" + std::to_string(::getpid()));
}

}  // namespace
}  // namespace vmafx
