// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "feature/motion.hpp"
#include "exact/motion_tables.h"

namespace vmafx {
namespace {

// A luma plane of T samples, packed.
template <class T>
struct Plane {
  int w, h;
  std::vector<T> px;
  Plane(int w_, int h_) : w(w_), h(h_), px(std::size_t(w_) * h_) {}
  T& at(int x, int y) { return px[std::size_t(y) * w + x]; }
  PlaneView view() const {
    return {reinterpret_cast<const std::uint8_t*>(px.data()), std::ptrdiff_t(w * sizeof(T)), w, h};
  }
};

int mirror_ref(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

// Straightforward per-pixel definition, every tap mirrored, 64-bit everywhere
// except the 32-bit row sum.
template <class T>
std::uint64_t sad_reference(const Plane<T>& a, const Plane<T>& b, int bpc) {
  const int w = a.w, h = a.h;
  std::vector<std::int64_t> y(std::size_t(w) * h);
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      std::int64_t acc = 0;
      for (int k = 0; k < 5; ++k) {
        const int r = mirror_ref(i - 2 + k, h);
        acc += std::int64_t(vmafx_motion_taps[k]) *
               (std::int64_t(a.px[std::size_t(r) * w + j]) - std::int64_t(b.px[std::size_t(r) * w + j]));
      }
      y[std::size_t(i) * w + j] = (acc + (std::int64_t(1) << (bpc - 1))) >> bpc;
    }
  std::uint64_t total = 0;
  for (int i = 0; i < h; ++i) {
    std::uint32_t row = 0;
    for (int j = 0; j < w; ++j) {
      std::int64_t acc = 0;
      for (int k = 0; k < 5; ++k)
        acc += std::int64_t(vmafx_motion_taps[k]) * y[std::size_t(i) * w + mirror_ref(j - 2 + k, w)];
      row += std::uint32_t(std::llabs((acc + 32768) >> 16));
    }
    total += row;
  }
  return total;
}

template <class T>
void fill_random(Plane<T>& p, int bpc, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(0, (1 << bpc) - 1);
  for (T& v : p.px) v = T(d(rng));
}

TEST(MotionSad, MatchesReferenceOnRandomPlanes) {
  std::mt19937 rng(1234);
  const int sizes[][2] = {{3, 3}, {3, 7}, {4, 3}, {5, 5}, {6, 4}, {17, 9}, {33, 31}, {64, 3}};
  for (auto [w, h] : sizes) {
    for (int bpc : {8, 9, 10, 12, 14, 16}) {
      SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " bpc " + std::to_string(bpc));
      if (bpc == 8) {
        Plane<std::uint8_t> a(w, h), b(w, h);
        fill_random(a, 8, rng);
        fill_random(b, 8, rng);
        EXPECT_EQ(motion::sad(a.view(), b.view(), 8), sad_reference(a, b, 8));
      } else {
        Plane<std::uint16_t> a(w, h), b(w, h);
        fill_random(a, bpc, rng);
        fill_random(b, bpc, rng);
        EXPECT_EQ(motion::sad(a.view(), b.view(), bpc), sad_reference(a, b, bpc));
      }
    }
  }
}

TEST(MotionSad, IdenticalPlanesGiveZero) {
  std::mt19937 rng(7);
  Plane<std::uint16_t> a(20, 11);
  fill_random(a, 12, rng);
  EXPECT_EQ(motion::sad(a.view(), a.view(), 12), 0u);
}

// A flat difference d passes both filters unchanged (taps sum to 65536):
// the score is |d| * 2^(8 - bpc).
TEST(MotionSad, FlatShiftScoresTheShift) {
  const motion::Params p;
  {
    Plane<std::uint8_t> a(7, 5), b(7, 5);
    for (auto& v : a.px) v = 100;
    for (auto& v : b.px) v = 113;
    const auto s = motion::sad(a.view(), b.view(), 8);
    EXPECT_EQ(s, 256u * 13 * 35);
    EXPECT_EQ(motion::sad_score(s, 7, 5, p), 13.0);
  }
  {
    Plane<std::uint16_t> a(9, 4), b(9, 4);
    for (auto& v : a.px) v = 700;
    for (auto& v : b.px) v = 300;
    const auto s = motion::sad(a.view(), b.view(), 10);
    EXPECT_EQ(motion::sad_score(s, 9, 4, p), 100.0);
  }
}

// 16-bit full-scale checkerboard: no overflow anywhere (64-bit reference).
TEST(MotionSad, SixteenBitExtremes) {
  Plane<std::uint16_t> a(31, 17), b(31, 17);
  for (int y = 0; y < 17; ++y)
    for (int x = 0; x < 31; ++x) {
      a.at(x, y) = ((x + y) & 1) ? 65535 : 0;
      b.at(x, y) = ((x + y) & 1) ? 0 : 65535;
    }
  const std::uint64_t s = motion::sad(a.view(), b.view(), 16);
  EXPECT_EQ(s, sad_reference(a, b, 16));
  EXPECT_GT(s, 0u);
}

TEST(MotionScore, DivisionOrderFpsWeightAndClip) {
  motion::Params p;
  EXPECT_EQ(motion::sad_score(1000, 10, 3, p), 1000.0 / 256. / 30.0);
  p.fps_weight = 2.5;
  EXPECT_EQ(motion::sad_score(1000, 10, 3, p), 1000.0 / 256. / 30.0 * 2.5);
  p.max_val = 0.1;
  EXPECT_EQ(motion::sad_score(1000, 10, 3, p), 0.1);
}

TEST(MotionBlend, Formula) {
  EXPECT_EQ(motion::blend(50.0, 1.0, 40.0), 50.0);
  EXPECT_EQ(motion::blend(50.0, 0.5, 40.0), 50.0 * 0.5 + 0.5 * 40.0);
  EXPECT_EQ(motion::blend(30.0, 0.5, 40.0), 30.0);
}

TEST(MotionFinish, ThreeFrameWindow) {
  const motion::Params p;
  const std::vector<double> sad = {0, 5, 3, 8};
  const auto s = motion::finish(sad, p);
  EXPECT_EQ(s.motion2, (std::vector<double>{0, 3, 3, 8}));
  EXPECT_EQ(s.motion3, (std::vector<double>{5, 3, 3, 8}));  // frame 0 takes blend(sad[1])
}

TEST(MotionFinish, ShortClips) {
  const motion::Params p;
  EXPECT_TRUE(motion::finish(std::vector<double>{}, p).motion2.empty());
  auto one = motion::finish(std::vector<double>{0}, p);
  EXPECT_EQ(one.motion2, (std::vector<double>{0}));
  EXPECT_EQ(one.motion3, (std::vector<double>{0}));
  auto two = motion::finish(std::vector<double>{0, 7}, p);
  EXPECT_EQ(two.motion2, (std::vector<double>{0, 7}));
  EXPECT_EQ(two.motion3, (std::vector<double>{7, 7}));
}

TEST(MotionFinish, BlendClipAndMovingAverage) {
  motion::Params p;
  p.blend_factor = 0.5;
  p.blend_offset = 4.0;
  p.max_val = 5.0;
  p.moving_average = true;
  const std::vector<double> sad = {0, 10, 2, 6, 1};
  const auto s = motion::finish(sad, p);
  EXPECT_EQ(s.motion2, (std::vector<double>{0, 2, 2, 1, 1}));
  // processed(x) = min(0.5 x + 0.5 min(4, x), 5); stamp = processed(10) = 5.
  const double b2 = 2.0, b1 = 1.0;
  EXPECT_EQ(s.motion3, (std::vector<double>{5, (b2 + 5) / 2.0, (b2 + b2) / 2.0, (b1 + b2) / 2.0, (b1 + b1) / 2.0}));
}

TEST(MotionFinish, FiveFrameWindow) {
  motion::Params p;
  p.five_frame_window = true;
  const std::vector<double> sad = {0, 0, 9, 4, 6, 2, 3};
  const auto s = motion::finish(sad, p);
  // i=2: lo=1 < 2 -> sad[3]; i=3: min(sad[2], sad[4]); i=4: min(sad[3], sad[5]);
  // i=5: min(sad[4], sad[6]); i=6: last -> sad[6].
  EXPECT_EQ(s.motion2, (std::vector<double>{0, 0, 4, 6, 2, 3, 3}));
  EXPECT_EQ(s.motion3, (std::vector<double>{9, 9, 4, 6, 2, 3, 3}));
}

// ---- Through the engine -------------------------------------------------

using Filler = std::function<void(Picture&, unsigned frame)>;

FeatureCollector run(const PictureFormat& fmt, unsigned frames, const Filler& fill,
                     const std::map<std::string, std::string>& opts = {}, EngineOptions eo = {}) {
  Engine e(fmt, eo);
  e.use(FeatureRequest{"motion", opts});
  for (unsigned i = 0; i < frames; ++i) {
    auto r = e.acquire();
    auto d = e.acquire();
    fill(*r, i);
    fill(*d, i + 1000);
    e.push(std::move(r), std::move(d));
  }
  e.finish();
  return std::move(e.collector());
}

// Frame i: luma flat at base[i] (chroma 0).
Filler flat(std::vector<int> base) {
  return [base](Picture& p, unsigned i) {
    const int v = i >= 1000 ? 0 : base[i];
    for (int pl = 0; pl < p.format().plane_count(); ++pl)
      for (int y = 0; y < p.plane(pl).height; ++y)
        for (int x = 0; x < p.plane(pl).width; ++x) {
          if (p.bpc() == 8)
            p.row<std::uint8_t>(pl, y)[x] = std::uint8_t(pl ? 0 : v);
          else
            p.row<std::uint16_t>(pl, y)[x] = std::uint16_t(pl ? 0 : v);
        }
  };
}

std::vector<double> series(const FeatureCollector& c, const std::string& name) {
  const auto* s = c.find(name);
  EXPECT_NE(s, nullptr) << name;
  if (!s) return {};
  for (char w : s->written) EXPECT_TRUE(w) << name;
  return s->value;
}

TEST(MotionExtractor, FlatFramesOddSizeAllNames) {
  const PictureFormat fmt{5, 3, 8, ChromaFormat::k420};
  const auto c = run(fmt, 4, flat({10, 13, 13, 20}));
  ASSERT_EQ(c.all().size(), 3u);
  EXPECT_EQ(series(c, "VMAF_integer_feature_motion_sad_score"), (std::vector<double>{0, 3, 0, 7}));
  EXPECT_EQ(series(c, "integer_motion2"), (std::vector<double>{0, 0, 0, 7}));
  EXPECT_EQ(series(c, "integer_motion3"), (std::vector<double>{3, 0, 0, 7}));
}

TEST(MotionExtractor, DebugAddsIntegerMotion) {
  const PictureFormat fmt{6, 4, 10, ChromaFormat::k444};
  const auto c = run(fmt, 3, flat({100, 104, 96}), {{"debug", "true"}});
  ASSERT_EQ(c.all().size(), 4u);
  EXPECT_EQ(c.all()[1].name, "integer_motion");
  EXPECT_EQ(series(c, "integer_motion"), (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(series(c, "VMAF_integer_feature_motion_sad_score"), (std::vector<double>{0, 1, 2}));
}

TEST(MotionExtractor, ForceZeroAndSuffix) {
  const PictureFormat fmt{8, 8, 8, ChromaFormat::k420};
  const auto c = run(fmt, 3, flat({0, 50, 200}), {{"motion_force_zero", "true"}});
  EXPECT_EQ(series(c, "VMAF_integer_feature_motion_sad_score_force_0"), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(series(c, "integer_motion2_force_0"), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(series(c, "integer_motion3_force_0"), (std::vector<double>{0, 0, 0}));
}

TEST(MotionExtractor, FiveFrameWindowComparesTwoBack) {
  const PictureFormat fmt{4, 4, 16, ChromaFormat::k420};
  // 16-bit: score = d / 256.
  const auto c = run(fmt, 5, flat({0, 9999, 512, 256, 1536}), {{"motion_five_frame_window", "true"}});
  EXPECT_EQ(series(c, "VMAF_integer_feature_motion_sad_score_mffw"), (std::vector<double>{0, 0, 2, 38.05859375, 4}));
  EXPECT_EQ(series(c, "integer_motion2_mffw"), (std::vector<double>{0, 0, 38.05859375, 2, 4}));
}

TEST(MotionExtractor, OptionsInSuffixes) {
  const PictureFormat fmt{4, 4, 8, ChromaFormat::k420};
  const auto c = run(fmt, 3, flat({0, 100, 0}),
                     {{"motion_blend_factor", "0.5"},
                      {"motion_blend_offset", "20"},
                      {"motion_fps_weight", "0.5"},
                      {"motion_max_val", "30"},
                      {"motion_moving_average", "true"}});
  const std::string sfx = "_mbf_0.5_mbo_20_mfw_0.5_mmxv_30_mma";
  // sad score = min(100 * 0.5, 30) = 30; processed = min(0.5*30 + 0.5*min(20, 30), 30) = 25.
  EXPECT_EQ(series(c, "VMAF_integer_feature_motion_sad_score" + sfx), (std::vector<double>{0, 30, 30}));
  EXPECT_EQ(series(c, "integer_motion2" + sfx), (std::vector<double>{0, 30, 30}));
  EXPECT_EQ(series(c, "integer_motion3" + sfx), (std::vector<double>{25, 25, 25}));
}

TEST(MotionExtractor, OptionTableMirrorsLibvmaf) {
  struct Want {
    const char* name;
    const char* alias;
    OptionType type;
    double def, min, max;
    bool fp;
  };
  const Want want[] = {
      {"motion_force_zero", "force_0", OptionType::kBool, 0, 0, 0, true},
      {"motion_blend_factor", "mbf", OptionType::kDouble, 1.0, 0.0, 1.0, true},
      {"motion_blend_offset", "mbo", OptionType::kDouble, 40.0, 0.0, 1000.0, true},
      {"motion_fps_weight", "mfw", OptionType::kDouble, 1.0, 0.0, 5.0, true},
      {"motion_max_val", "mmxv", OptionType::kDouble, 10000.0, 0.0, 10000.0, true},
      {"motion_five_frame_window", "mffw", OptionType::kBool, 0, 0, 0, true},
      {"motion_moving_average", "mma", OptionType::kBool, 0, 0, 0, true},
      {"debug", "", OptionType::kBool, 0, 0, 0, false},
  };
  ASSERT_EQ(kMotionExtractor.options.size(), std::size(want));
  for (std::size_t i = 0; i < std::size(want); ++i) {
    const OptionSpec& o = kMotionExtractor.options[i];
    EXPECT_EQ(o.name, want[i].name);
    EXPECT_EQ(o.alias, want[i].alias);
    EXPECT_EQ(o.type, want[i].type);
    EXPECT_EQ(o.default_num, want[i].def);
    if (o.type != OptionType::kBool) {
      EXPECT_EQ(o.min, want[i].min);
      EXPECT_EQ(o.max, want[i].max);
    }
    EXPECT_EQ(o.feature_param, want[i].fp);
  }
  EXPECT_EQ(kMotionExtractor.name, "motion");
  EXPECT_EQ(kMotionExtractor.flags, unsigned(kTemporal));
  ASSERT_EQ(kMotionExtractor.provided.size(), 4u);
  EXPECT_EQ(find_extractor_by_feature("VMAF_integer_feature_motion2_score"), &kMotionExtractor);
  EXPECT_EQ(find_extractor("motion"), &kMotionExtractor);
}

std::string create_error(const PictureFormat& fmt, const std::map<std::string, std::string>& opts = {}) {
  try {
    OptionSet o(kMotionExtractor.options, opts, kMotionExtractor.name);
    kMotionExtractor.create(o, fmt);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(MotionExtractor, Errors) {
  EXPECT_EQ(create_error({2, 5, 8, ChromaFormat::k420}),
            "motion: picture 2x5 is too small (the 5-tap filter needs at least 3x3)");
  EXPECT_EQ(create_error({5, 1, 8, ChromaFormat::k420}),
            "motion: picture 5x1 is too small (the 5-tap filter needs at least 3x3)");
  EXPECT_EQ(create_error({8, 8, 17, ChromaFormat::k420}), "motion: unsupported bit depth 17 (8 to 16)");
  EXPECT_EQ(create_error({8, 8, 8, ChromaFormat::k420}, {{"motion_blend_factor", "2"}}),
            "motion: option motion_blend_factor=2: out of range [0, 1]");
  EXPECT_EQ(create_error({3, 3, 8, ChromaFormat::k420}), "no error");
}

TEST(MotionExtractor, ThreadsIdentical) {
  const PictureFormat fmt{33, 17, 12, ChromaFormat::k422};
  std::mt19937 rng(99);
  std::vector<std::vector<std::uint16_t>> frames(6, std::vector<std::uint16_t>(33 * 17));
  for (auto& f : frames)
    for (auto& v : f) v = std::uint16_t(rng() & 4095);
  Filler fill = [&](Picture& p, unsigned i) {
    const auto& f = frames[i % 1000 % 6];
    for (int y = 0; y < 17; ++y)
      for (int x = 0; x < 33; ++x) p.row<std::uint16_t>(0, y)[x] = f[std::size_t(y) * 33 + x];
  };
  const auto a = run(fmt, 6, fill);
  const auto b = run(fmt, 6, fill, {}, EngineOptions{.threads = 2, .subsample = 3});
  ASSERT_EQ(a.all().size(), b.all().size());
  for (std::size_t i = 0; i < a.all().size(); ++i) {
    EXPECT_EQ(a.all()[i].name, b.all()[i].name);
    EXPECT_EQ(a.all()[i].value, b.all()[i].value);
    EXPECT_EQ(a.all()[i].written, b.all()[i].written);
  }
}

}  // namespace
}  // namespace vmafx
