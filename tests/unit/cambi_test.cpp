// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of the cambi extractor: building blocks, option resolution, edge sizes, heatmaps, errors. Values marked
// "libvmaf" were computed by libvmaf 3.2.0's own functions (cambi.c / luminance_tools.c, C path).
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
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using namespace vmafx::test;

constexpr double kInf = std::numeric_limits<double>::infinity();

FeatureCollector run(const PictureFormat& fmt, const std::string& extractor, unsigned frames, const Filler& f,
                     const std::map<std::string, std::string>& opts = {}, unsigned threads = 0) {
  return run_engine(fmt, frames, f, {FeatureRequest{extractor, opts}}, EngineOptions{.threads = threads});
}

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
  EXPECT_EQ(
      err({240, 176, 10, ChromaFormat::k420}, {{"full_ref", "true"}, {"src_width", "320"}, {"src_height", "200"}}),
      "cambi: full_ref with 10-bit input and src_width 320 above the input width 240 is not supported "
      "(libvmaf copies the picture with the wrong row pitch)");
  EXPECT_EQ(
      err({240, 176, 12, ChromaFormat::k420}, {{"full_ref", "true"}, {"src_width", "320"}, {"src_height", "200"}}), "");
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
  const auto clipped = run(f, "cambi", 1,
                           [](Picture& r, Picture& d, unsigned i) {
                             fill(r, 500);
                             banded(d, i);
                           },
                           {{"cambi_max_val", "0.5"}});
  EXPECT_EQ(names(clipped), std::vector<std::string>{"cambi_cmxv_0.5"});
  EXPECT_EQ(at(clipped, "cambi_cmxv_0.5", 0), 0.5);
}

TEST(Cambi, FullReferenceNamesArePlain) {
  const PictureFormat f{240, 216, 10, ChromaFormat::k420};
  const auto c = run(f, "cambi", 1,
                     [](Picture& r, Picture& d, unsigned i) {
                       fill(r, 500);
                       banded(r, i + 7);
                       fill(d, 500);
                       banded(d, i);
                     },
                     {{"full_ref", "true"}, {"topk", "0.3"}});
  EXPECT_EQ(names(c), (std::vector<std::string>{"cambi_topk_0.3", "cambi_source", "cambi_full_reference"}));
  const double dist = at(c, "cambi_topk_0.3", 0), src = at(c, "cambi_source", 0);
  EXPECT_EQ(at(c, "cambi_full_reference", 0), dist > src ? dist - src : 0.0);
}

TEST(Cambi, OutputNameForTheV1016ModelOptions) {
  Engine e({1920, 1080, 8, ChromaFormat::k420}, EngineOptions{});
  EXPECT_EQ(e.use_feature(
                "Cambi_feature_cambi_score",
                {{"cambi_high_res_speedup", "1080"}, {"cambi_vis_lum_threshold", "0.06"}, {"cambi_max_val", "17.0"}}),
            "cambi_hrs_1080_cmxv_17_vlt_0.06");
}

TEST(Cambi, BandAboveTheThresholdsScoresZero) {
  // vlt above every visibility threshold: no code can count. libvmaf indexes
  // its histograms out of bounds here (it crashes); the score is 0.
  const PictureFormat f{240, 216, 8, ChromaFormat::k420};
  const auto c = run(f, "cambi", 1,
                     [](Picture& r, Picture& d, unsigned i) {
                       fill(r, 128);
                       fill_plane(d, 0, [i](int x, int) { return long(100 + x / 8 + i); });
                     },
                     {{"cambi_vis_lum_threshold", "200"}, {"max_log_contrast", "0"}});
  EXPECT_EQ(at(c, "cambi_vlt_200_mlc_0", 0), 0.0);
}

TEST(Cambi, OutOfRangeSampleFailsTheFrame) {
  const PictureFormat f{240, 216, 10, ChromaFormat::k420};
  try {
    run(f, "cambi", 2, [](Picture& r, Picture& d, unsigned i) {
      fill(r, 500);
      fill(d, 500);
      if (i == 1) set_sample(d, 0, 3, 4, 1024);
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
  for (const PictureFormat& f :
       {PictureFormat{216, 1, 8, ChromaFormat::k444}, PictureFormat{1, 216, 12, ChromaFormat::k400},
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
