// SPDX-License-Identifier: BSD-3-Clause
// The public C++ API (include/vmaf_exact/session.hpp), used the way a program
// embedding vmaf-exact would: pictures filled by the caller, scores read back.
#include <gtest/gtest.h>

#include "io/video_reader.hpp"
#include "support/golden.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {
namespace {

FeatureCollector score(const std::string& pair, const SessionConfig& cfg) {
  const test::GoldenPair& p = test::golden_pair(pair);
  auto ref = open_video(p.ref, p.raw);
  auto dis = open_video(p.dis, p.raw);
  Session s(ref->format(), cfg);
  for (;;) {
    auto a = s.acquire();
    auto b = s.acquire();
    if (!ref->read(*a) || !dis->read(*b)) break;
    s.push(std::move(a), std::move(b));
  }
  s.finish();
  return s.scores();
}

TEST(Session, ScoresEqualLibvmaf) {
  const test::GoldenRun want = test::load_golden(test::golden_oracle_path("mandel240p10__x265_crf30", "vmaf_b_v0.6.3"));
  SessionConfig cfg;
  cfg.models = {"version=vmaf_b_v0.6.3"};
  cfg.threads = 2;
  const FeatureCollector got = score("mandel240p10__x265_crf30", cfg);
  EXPECT_TRUE(test::frames_equal(got, want, want.names));
  std::vector<std::string> order;
  for (const auto& s : got.all()) order.push_back(s.name);
  EXPECT_EQ(order, want.names);
}

TEST(Session, FeaturesOnlyAndSubsample) {
  const test::GoldenRun want = test::load_golden(test::golden_oracle_path("astro176__noise", "subsample2"));
  SessionConfig cfg;
  cfg.subsample = 2;
  const FeatureCollector got = score("astro176__noise", cfg);
  EXPECT_TRUE(test::frames_equal(got, want, want.names));
  SessionConfig feats;
  feats.no_prediction = true;
  feats.features = {"psnr"};
  const FeatureCollector p = score("astro176__noise", feats);
  EXPECT_EQ(p.find("vmaf"), nullptr);
  ASSERT_NE(p.find("psnr_y"), nullptr);
}

TEST(Session, SummariesAreTheMeans) {
  SessionConfig cfg;
  cfg.models = {"version=vmaf_v0.6.1", "version=vmaf_b_v0.6.3:name=boot"};
  const test::GoldenPair& p = test::golden_pair("chelsea352__gblur1.5");
  auto ref = open_video(p.ref, p.raw);
  auto dis = open_video(p.dis, p.raw);
  Session s(ref->format(), cfg);
  for (;;) {
    auto a = s.acquire();
    auto b = s.acquire();
    if (!ref->read(*a) || !dis->read(*b)) break;
    s.push(std::move(a), std::move(b));
  }
  s.finish();
  const auto sums = s.summaries();
  ASSERT_EQ(sums.size(), 2u);
  const test::GoldenRun want = test::load_golden(test::golden_oracle_path("chelsea352__gblur1.5", "vmaf_v0.6.1"));
  EXPECT_EQ(sums[0].name, "vmaf");
  EXPECT_EQ(sums[0].mean, *want.pooled.at("vmaf").at("mean"));
  EXPECT_TRUE(sums[1].bootstrap);
  EXPECT_EQ(sums[1].name, "boot");
  EXPECT_LT(sums[1].ci_lo, sums[1].mean);
  EXPECT_GT(sums[1].ci_hi, sums[1].mean);
  EXPECT_EQ(s.backend_description(), "");
}

TEST(Session, Errors) {
  const PictureFormat fmt{64, 64, 8, ChromaFormat::k420};
  auto message = [&](SessionConfig cfg) {
    try {
      Session s(fmt, cfg);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SessionConfig a;
  a.models = {"version=nope"};
  EXPECT_NE(message(a).find("nope"), std::string::npos);
  SessionConfig b;
  b.no_prediction = true;
  b.features = {"psnr=enable_mse=perhaps"};
  EXPECT_EQ(message(b), "psnr: option enable_mse=perhaps: expected true or false");
  SessionConfig c;
  c.subsample = 0;
  EXPECT_EQ(message(c), "subsample 0: expected 1 or more");
  SessionConfig t;
  t.threads = 100000;
  EXPECT_EQ(message(t), "threads 100000: at most 256");
  SessionConfig d;
  d.backend = "metal";
  EXPECT_NE(message(d).find("unknown (expected auto, cpu, cuda or opencl)"), std::string::npos);
}

}  // namespace
}  // namespace vmafx
