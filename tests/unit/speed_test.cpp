// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of speed_chroma / speed_temporal: option tables (libvmaf's),
// sizes, the small linear algebra, what is written when, identical / flat /
// singular inputs, bit-depth equivalence and 16-bit extremes, libvmaf's
// rounded-down chroma sizes, and every error path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "feature/speed.hpp"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using test::Recorder;

// ---- option tables ----------------------------------------------------------------

struct Opt {
  std::string name, alias;
  OptionType type;
  double def;
  std::string def_str;
  double min, max;
};

void expect_table(const ExtractorDescriptor& d, const std::vector<Opt>& want) {
  ASSERT_EQ(d.options.size(), want.size()) << d.name;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const OptionSpec& o = d.options[i];
    SCOPED_TRACE(want[i].name);
    EXPECT_EQ(o.name, want[i].name);
    EXPECT_EQ(o.alias, want[i].alias);
    EXPECT_EQ(o.type, want[i].type);
    EXPECT_TRUE(o.feature_param);
    if (o.type == OptionType::kString) {
      EXPECT_EQ(o.default_str, want[i].def_str);
    } else {
      EXPECT_EQ(o.default_num, want[i].def);
      if (o.type != OptionType::kBool) {
        EXPECT_EQ(o.min, want[i].min);
        EXPECT_EQ(o.max, want[i].max);
      }
    }
  }
}

std::vector<Opt> common_options() {
  return {{"speed_kernelscale", "ks", OptionType::kDouble, 1.0, "", 0.1, 4.0},
          {"speed_prescale", "ps", OptionType::kDouble, 1.0, "", 0.1, 4.0},
          {"speed_prescale_method", "psm", OptionType::kString, 0, "nearest", 0, 0},
          {"speed_sigma_nn", "snn", OptionType::kDouble, 0.29, "", 0.1, 2.0},
          {"speed_nn_floor", "nnf", OptionType::kDouble, 0.0, "", 0.0, 1.0},
          {"speed_max_val", "mxv", OptionType::kDouble, 1000.0, "", 0.0, 1000.0}};
}

TEST(SpeedOptions, ChromaTableIsLibvmafs) {
  auto t = common_options();
  t.push_back({"speed_weight_var_mode", "wvm", OptionType::kInt, 0, "", 0, 6});
  expect_table(kSpeedChromaExtractor, t);
  EXPECT_EQ(kSpeedChromaExtractor.name, "speed_chroma");
  EXPECT_EQ(kSpeedChromaExtractor.flags & kTemporal, 0u);
  ASSERT_EQ(kSpeedChromaExtractor.provided.size(), 3u);
  EXPECT_EQ(kSpeedChromaExtractor.provided[2], "Speed_chroma_feature_speed_chroma_uv_score");
  EXPECT_EQ(feature_alias("Speed_chroma_feature_speed_chroma_uv_score"), "speed_chroma_uv");
}

TEST(SpeedOptions, TemporalTableIsLibvmafs) {
  auto t = common_options();
  t.push_back({"speed_use_ref_diff", "urd", OptionType::kBool, 0, "", 0, 0});
  expect_table(kSpeedTemporalExtractor, t);
  EXPECT_EQ(kSpeedTemporalExtractor.name, "speed_temporal");
  EXPECT_NE(kSpeedTemporalExtractor.flags & kTemporal, 0u);
  ASSERT_EQ(kSpeedTemporalExtractor.provided.size(), 1u);
  EXPECT_EQ(feature_alias(kSpeedTemporalExtractor.provided[0]), "speed_temporal");
  EXPECT_EQ(find_extractor_by_feature("Speed_chroma_feature_speed_chroma_u_score"), &kSpeedChromaExtractor);
}

// ---- sizes and linear algebra -------------------------------------------------------

TEST(SpeedDims, LibvmafsBlockGeometry) {
  const speed::Dims d = speed::make_dims(1920, 1080, 1.0);
  EXPECT_EQ(d.sw, 1920);
  EXPECT_EQ(d.dw, 120);
  EXPECT_EQ(d.dh, 67);
  EXPECT_EQ(d.tw, 120);
  EXPECT_EQ(d.th, 65);
  EXPECT_EQ(d.nb, 24 * 13);
  EXPECT_EQ(d.subw, 116);
  EXPECT_EQ(d.subh, 61);
  const speed::Dims h = speed::make_dims(351, 287, 0.5);  // (int)(x * 0.5 + 0.5)
  EXPECT_EQ(h.sw, 176);
  EXPECT_EQ(h.sh, 144);
  EXPECT_EQ(h.dw, 11);
  EXPECT_EQ(h.th, 5);
  EXPECT_EQ(h.nb, 2);
}

TEST(SpeedLinalg, EigenvaluesOfSmallSymmetricMatrices) {
  float one[1] = {3.5f}, e1[1];
  speed::eigenvalues(one, 1, e1);
  EXPECT_EQ(e1[0], 3.5f);
  const float diag[9] = {4, 0, 0, 0, 1, 0, 0, 0, 2};
  float e3[3];
  speed::eigenvalues(diag, 3, e3);
  EXPECT_EQ(e3[0], 4.0f);
  EXPECT_EQ(e3[1], 1.0f);
  EXPECT_EQ(e3[2], 2.0f);
  const float m[4] = {2, 1, 1, 2};
  float e2[2];
  speed::eigenvalues(m, 2, e2);
  const float lo = std::min(e2[0], e2[1]), hi = std::max(e2[0], e2[1]);
  EXPECT_NEAR(lo, 1.0f, 1e-6);
  EXPECT_NEAR(hi, 3.0f, 1e-6);
  // A 25x25 covariance-like matrix: the trace is kept.
  std::vector<float> a(625);
  double trace = 0;
  for (int i = 0; i < 25; ++i)
    for (int j = 0; j < 25; ++j) a[i * 25 + j] = float(std::exp(-0.3 * std::abs(i - j))) * (i == j ? 2.0f : 1.0f);
  for (int i = 0; i < 25; ++i) trace += a[i * 26];
  std::vector<float> e(25);
  speed::eigenvalues(a.data(), 25, e.data());
  double sum = 0;
  for (float v : e) {
    EXPECT_GT(v, 0.0f);
    sum += v;
  }
  EXPECT_NEAR(sum, trace, 1e-3);
}

TEST(SpeedLinalg, SolveAndSingular) {
  const float a[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2};
  const float b[6] = {5, 1, 5, 2, 3, 3};  // two right-hand sides: x = (1,1,1) and (0.25-ish...)
  float x[6];
  ASSERT_TRUE(speed::solve(a, 3, b, 2, x));
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(x[i * 2], 1.0f, 1e-5);
  const float s[4] = {1, 2, 2, 4};
  const float sb[2] = {1, 1};
  float sx[2];
  EXPECT_FALSE(speed::solve(s, 2, sb, 1, sx));
}

// ---- through the extractors ----------------------------------------------------------

using Fill = std::function<int(int plane, int x, int y, unsigned frame, bool dis)>;

// Pattern on the 8-bit scale: texture + motion + noise; never flat.
int content(int p, int x, int y, unsigned f, bool dis) {
  std::uint32_t s = std::uint32_t(x) * 73856093u ^ std::uint32_t(y) * 19349663u ^ (f * 83492791u) ^
                    std::uint32_t(p * 911 + (dis ? 7 : 0));
  s ^= s >> 13;
  s *= 0x5bd1e995u;
  s ^= s >> 15;
  return std::min(255, (x * 5 + y * 3 + int(f) * 7 + p * 50) % 200 + int(s % (dis ? 50 : 40)));
}

void fill(Picture& pic, unsigned f, bool dis, const Fill& fn) {
  test::fill_planes(pic, [&](int p, int x, int y) { return long(fn(p, x, y, f, dis)); });
}

std::vector<Recorder::Rec> run(const ExtractorDescriptor& d, const PictureFormat& fmt, unsigned frames, const Fill& fn,
                               const std::map<std::string, std::string>& opts = {}) {
  const OptionSet o(d.options, opts, d.name);
  auto ex = d.create(o, fmt);
  Recorder rec;
  Picture r(fmt), s(fmt);
  for (unsigned i = 0; i < frames; ++i) {
    fill(r, i, false, fn);
    fill(s, i, true, fn);
    ex->extract(r, s, i, rec);
  }
  ex->flush(rec);
  return rec.recs;
}

PictureFormat fmt(int w, int h, int bpc, ChromaFormat c) {
  PictureFormat f;
  f.width = w;
  f.height = h;
  f.bpc = bpc;
  f.chroma = c;
  return f;
}

TEST(SpeedOrder, ChromaWritesUVUVAtTheFrameIndex) {
  const auto recs = run(kSpeedChromaExtractor, fmt(192, 176, 8, ChromaFormat::k444), 2, content);
  ASSERT_EQ(recs.size(), 6u);
  const char* names[3] = {"Speed_chroma_feature_speed_chroma_u_score", "Speed_chroma_feature_speed_chroma_v_score",
                          "Speed_chroma_feature_speed_chroma_uv_score"};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_FALSE(recs[i].plain);
    EXPECT_EQ(recs[i].name, names[i % 3]);
    EXPECT_EQ(recs[i].index, i / 3);
    EXPECT_TRUE(std::isfinite(recs[i].value));
  }
  EXPECT_GT(recs[0].value, 0.0);
  // uv is the mean of u and v, computed in float then halved in double.
  EXPECT_EQ(recs[2].value, double(float((float(recs[0].value) + float(recs[1].value)) / 2.0)));
}

TEST(SpeedOrder, TemporalWritesZeroFirstThenOnePerFrameAndNothingOnFlush) {
  const auto recs = run(kSpeedTemporalExtractor, fmt(192, 176, 8, ChromaFormat::k420), 3, content);
  ASSERT_EQ(recs.size(), 3u);
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_FALSE(recs[i].plain);
    EXPECT_EQ(recs[i].name, "Speed_temporal_feature_speed_temporal_score");
    EXPECT_EQ(recs[i].index, i);
  }
  EXPECT_EQ(recs[0].value, 0.0);
  EXPECT_GT(recs[1].value, 0.0);
  EXPECT_GT(recs[2].value, 0.0);
}

TEST(SpeedOrder, TemporalMaxValIsNotApplied) {
  const auto a = run(kSpeedTemporalExtractor, fmt(192, 176, 8, ChromaFormat::k420), 2, content);
  const auto b =
      run(kSpeedTemporalExtractor, fmt(192, 176, 8, ChromaFormat::k420), 2, content, {{"speed_max_val", "0.001"}});
  ASSERT_GT(a[1].value, 0.001);
  EXPECT_EQ(a[1].value, b[1].value);
}

TEST(SpeedOrder, ChromaMaxValCaps) {
  const auto b =
      run(kSpeedChromaExtractor, fmt(192, 176, 8, ChromaFormat::k444), 1, content, {{"speed_max_val", "0.001"}});
  for (const auto& r : b) EXPECT_EQ(r.value, 0.001);
}

TEST(SpeedValues, IdenticalInputsScoreZero) {
  const Fill same = [](int p, int x, int y, unsigned f, bool) { return content(p, x, y, f, false); };
  for (const auto& r : run(kSpeedChromaExtractor, fmt(192, 176, 8, ChromaFormat::k444), 2, same))
    EXPECT_EQ(r.value, 0.0);
  for (const auto& r : run(kSpeedTemporalExtractor, fmt(192, 176, 8, ChromaFormat::k444), 3, same))
    EXPECT_EQ(r.value, 0.0);
}

TEST(SpeedValues, FlatPlanesAreSingularButFinite) {
  const Fill flat = [](int p, int, int, unsigned, bool dis) { return p == 0 ? 100 : (dis ? 90 : 128); };
  for (const auto& r : run(kSpeedChromaExtractor, fmt(192, 176, 8, ChromaFormat::k444), 1, flat)) {
    EXPECT_TRUE(std::isfinite(r.value));
    EXPECT_EQ(r.value, 0.0);
  }
  for (const auto& r : run(kSpeedTemporalExtractor, fmt(192, 176, 8, ChromaFormat::k444), 2, flat))
    EXPECT_EQ(r.value, 0.0);
}

TEST(SpeedValues, OneSingularChannelGivesTheOtherAsUV) {
  // U flat in both pictures (singular covariance on both sides), V textured.
  const Fill f = [](int p, int x, int y, unsigned fr, bool dis) { return p == 1 ? 128 : content(p, x, y, fr, dis); };
  const auto r = run(kSpeedChromaExtractor, fmt(192, 176, 8, ChromaFormat::k444), 1, f);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_GT(r[1].value, 0.0);
  EXPECT_EQ(r[2].value, r[1].value);
}

TEST(SpeedValues, SameScoresAtEveryBitDepth) {
  for (const ExtractorDescriptor* d : {&kSpeedChromaExtractor, &kSpeedTemporalExtractor}) {
    const auto base = run(*d, fmt(176, 176, 8, ChromaFormat::k444), 2, content);
    for (int bpc : {10, 12, 16}) {
      const Fill scaled = [bpc](int p, int x, int y, unsigned f, bool dis) {
        return content(p, x, y, f, dis) << (bpc - 8);
      };
      const auto got = run(*d, fmt(176, 176, bpc, ChromaFormat::k444), 2, scaled);
      ASSERT_EQ(got.size(), base.size());
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].value, base[i].value) << d->name << " bpc " << bpc;
    }
  }
}

TEST(SpeedValues, SixteenBitExtremesStayFinite) {
  const Fill ext = [](int p, int x, int y, unsigned f, bool dis) {
    return ((x * 7 + y * 3 + int(f) + p + (dis ? 1 : 0)) % 3 == 0) ? 65535 : 0;
  };
  for (const ExtractorDescriptor* d : {&kSpeedChromaExtractor, &kSpeedTemporalExtractor})
    for (const auto& r : run(*d, fmt(176, 176, 16, ChromaFormat::k444), 2, ext))
      EXPECT_TRUE(std::isfinite(r.value)) << d->name;
}

TEST(SpeedValues, OddChromaSizesAreRoundedDownAsLibvmaf) {
  // libvmaf sizes the chroma planes as w / 2 (and h / 2 for 4:2:0): the last
  // column / row of an odd-sized picture's chroma is not used.
  for (ChromaFormat c : {ChromaFormat::k420, ChromaFormat::k422}) {
    const auto even = run(kSpeedChromaExtractor, fmt(320, 320, 8, c), 1, content);
    const auto odd = run(kSpeedChromaExtractor, fmt(321, 321, 8, c), 1, content);
    ASSERT_EQ(even.size(), odd.size());
    for (std::size_t i = 0; i < even.size(); ++i) EXPECT_EQ(even[i].value, odd[i].value);
  }
}

TEST(SpeedValues, SmallestPlane) {
  // 80x80 after the prescale is the smallest size: one 5x5 block.
  const auto r = run(kSpeedChromaExtractor, fmt(80, 80, 8, ChromaFormat::k444), 1, content);
  ASSERT_EQ(r.size(), 3u);
  for (const auto& x : r) EXPECT_TRUE(std::isfinite(x.value));
  const auto t = run(kSpeedTemporalExtractor, fmt(80, 80, 8, ChromaFormat::k400), 2, content);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_TRUE(std::isfinite(t[1].value));
}

TEST(SpeedValues, EngineThreadsGiveTheSameOutput) {
  auto go = [](unsigned threads) {
    Engine e(fmt(192, 176, 10, ChromaFormat::k422), EngineOptions{.threads = threads});
    e.use(FeatureRequest{"speed_chroma", {{"speed_weight_var_mode", "5"}}});
    e.use(FeatureRequest{"speed_temporal", {}});
    for (unsigned i = 0; i < 5; ++i) {
      auto a = e.acquire();
      auto b = e.acquire();
      fill(*a, i, false, [](int p, int x, int y, unsigned f, bool d) { return content(p, x, y, f, d) << 2; });
      fill(*b, i, true, [](int p, int x, int y, unsigned f, bool d) { return content(p, x, y, f, d) << 2; });
      e.push(std::move(a), std::move(b));
    }
    e.finish();
    return std::move(e.collector());
  };
  const FeatureCollector a = go(0), b = go(2);
  ASSERT_EQ(a.all().size(), 4u);
  ASSERT_EQ(b.all().size(), a.all().size());
  for (const auto& s : a.all()) {
    const auto* t = b.find(s.name);
    ASSERT_NE(t, nullptr) << s.name;
    EXPECT_EQ(t->value, s.value) << s.name;
    EXPECT_EQ(t->written, s.written) << s.name;
  }
}

// ---- errors -------------------------------------------------------------------------

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

TEST(SpeedErrors, Messages) {
  const auto& c = kSpeedChromaExtractor;
  const auto& t = kSpeedTemporalExtractor;
  EXPECT_EQ(create_error(c, fmt(320, 240, 8, ChromaFormat::k400)),
            "speed_chroma: the input has no chroma planes (4:0:0)");
  EXPECT_EQ(create_error(c, fmt(176, 144, 8, ChromaFormat::k420)),
            "speed_chroma: plane 88x72 (88x72 after speed_prescale) is too small: 80x80 or more are needed "
            "(libvmaf crashes)");
  EXPECT_EQ(create_error(c, fmt(320, 240, 8, ChromaFormat::k420), {{"speed_prescale", "0.5"}}),
            "speed_chroma: plane 160x120 (80x60 after speed_prescale) is too small: 80x80 or more are needed "
            "(libvmaf crashes)");
  EXPECT_EQ(create_error(t, fmt(79, 200, 8, ChromaFormat::k444)),
            "speed_temporal: plane 79x200 (79x200 after speed_prescale) is too small: 80x80 or more are needed "
            "(libvmaf crashes)");
  EXPECT_EQ(create_error(c, fmt(320, 320, 8, ChromaFormat::k444), {{"speed_kernelscale", "0.3"}}),
            "speed_chroma: speed_kernelscale 0.3 is not one of libvmaf's kernel scales (libvmaf crashes)");
  EXPECT_EQ(create_error(t, fmt(320, 320, 8, ChromaFormat::k444), {{"speed_prescale_method", "cubic"}}),
            "speed_temporal: speed_prescale_method 'cubic' is not one of nearest, bilinear, bicubic, lanczos4");
  EXPECT_EQ(create_error(t, fmt(320, 320, 8, ChromaFormat::k444), {{"speed_prescale", "1.5"}}),
            "speed_temporal: speed_prescale 1.5 enlarges the frame height (320 -> 480), which overflows libvmaf's "
            "frame buffers (libvmaf crashes or corrupts memory)");
  EXPECT_EQ(create_error(c, fmt(1000, 1000, 8, ChromaFormat::k444), {{"speed_prescale", "1.0009"}}),
            "speed_chroma: speed_prescale within 1e-3 of 1 that still changes the plane size is not supported");
  EXPECT_EQ(create_error(c, fmt(320, 320, 9, ChromaFormat::k444)),
            "speed_chroma: bit depth 9 is not supported (8, 10, 12 or 16)");
  // Ranges come from the option table.
  EXPECT_NE(
      create_error(c, fmt(320, 320, 8, ChromaFormat::k444), {{"speed_weight_var_mode", "7"}}).find("speed_chroma"),
      std::string::npos);
  EXPECT_NE(
      create_error(t, fmt(320, 320, 8, ChromaFormat::k444), {{"speed_weight_var_mode", "1"}}).find("speed_temporal"),
      std::string::npos);
  // A wider prescale that keeps the height is fine for speed_temporal (libvmaf's buffers hold it).
  EXPECT_EQ(create_error(t, fmt(320, 320, 8, ChromaFormat::k444), {{"speed_prescale", "0.5"}}), "");
  EXPECT_EQ(create_error(c, fmt(160, 160, 8, ChromaFormat::k420)), "");
}

}  // namespace
}  // namespace vmafx
