// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "feature/psnr.hpp"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using namespace vmafx::test;

FeatureCollector run(const PictureFormat& fmt, unsigned frames, const Filler& f,
                     const std::map<std::string, std::string>& opts = {}, EngineOptions eo = {}) {
  return run_engine(fmt, frames, f, {FeatureRequest{"psnr", opts}}, eo);
}

TEST(PsnrExtractor, IdenticalFramesHitTheCeilingAtEveryDepth) {
  for (int bpc = 8; bpc <= 16; ++bpc) {
    SCOPED_TRACE(bpc);
    const auto c = run({6, 4, bpc, ChromaFormat::k420}, 2,
                       [&](Picture& r, Picture& d, unsigned i) {
                         fill(r, int(i) + 3);
                         fill(d, int(i) + 3);
                       },
                       {{"enable_mse", "true"}});
    for (unsigned i = 0; i < 2; ++i) {
      EXPECT_EQ(at(c, "psnr_y", i), double(6 * bpc + 12));
      EXPECT_EQ(at(c, "psnr_cb", i), double(6 * bpc + 12));
      EXPECT_EQ(at(c, "psnr_cr", i), double(6 * bpc + 12));
      EXPECT_EQ(at(c, "mse_y", i), 0.0);
    }
  }
}

TEST(PsnrExtractor, KnownErrorEightBit444) {
  const auto c = run({4, 4, 8, ChromaFormat::k444}, 1,
                     [](Picture& r, Picture& d, unsigned) {
                       fill(r, 100);
                       fill(d, 100);
                       set_sample(d, 0, 3, 2, 110);  // one luma sample off by 10
                       set_sample(d, 2, 0, 0, 97);   // one Cr sample off by -3
                     },
                     {{"enable_mse", "true"}});
  EXPECT_EQ(names(c), (std::vector<std::string>{"psnr_y", "mse_y", "psnr_cb", "mse_cb", "psnr_cr", "mse_cr"}));
  EXPECT_EQ(at(c, "mse_y", 0), 100.0 / 16.0);
  EXPECT_EQ(at(c, "psnr_y", 0), 10. * std::log10(65025.0 / (100.0 / 16.0)));
  EXPECT_EQ(at(c, "psnr_cb", 0), 60.0);
  EXPECT_EQ(at(c, "mse_cr", 0), 9.0 / 16.0);
  EXPECT_EQ(at(c, "psnr_cr", 0), 10. * std::log10(65025.0 / (9.0 / 16.0)));
}

TEST(PsnrExtractor, SixteenBitFullScaleNoOverflow) {
  const auto c = run({4, 2, 16, ChromaFormat::k444}, 1,
                     [](Picture& r, Picture& d, unsigned) {
                       fill(r, 65535);
                       fill(d, 0);
                     },
                     {{"enable_mse", "true"}});
  EXPECT_EQ(at(c, "mse_y", 0), 4294836225.0);
  EXPECT_EQ(at(c, "psnr_y", 0), 0.0);
  EXPECT_EQ(at(c, "psnr_cr", 0), 0.0);
}

TEST(PsnrExtractor, OddSizeChromaRoundsUp) {
  // 5x3 4:2:0: chroma planes are 3x2.
  const auto c = run({5, 3, 10, ChromaFormat::k420}, 1,
                     [](Picture& r, Picture& d, unsigned) {
                       fill(r, 512);
                       fill(d, 512);
                       set_sample(d, 1, 2, 1, 515);  // bottom-right Cb sample, only present when rounding up
                     },
                     {{"enable_mse", "true"}});
  EXPECT_EQ(at(c, "mse_cb", 0), 9.0 / 6.0);
  EXPECT_EQ(at(c, "psnr_cb", 0), 10. * std::log10(double(1023u * 1023u) / (9.0 / 6.0)));
  EXPECT_EQ(at(c, "psnr_y", 0), 72.0);
}

TEST(PsnrExtractor, ChromaOffAndMonochrome) {
  auto f = [](Picture& r, Picture& d, unsigned) {
    fill(r, 1);
    fill(d, 2);
  };
  const auto a = run({4, 4, 8, ChromaFormat::k420}, 1, f, {{"enable_chroma", "false"}});
  EXPECT_EQ(names(a), (std::vector<std::string>{"psnr_y"}));
  const auto b = run({4, 4, 8, ChromaFormat::k400}, 1, f, {{"enable_apsnr", "true"}});
  EXPECT_EQ(names(b), (std::vector<std::string>{"psnr_y"}));
  EXPECT_EQ(at(b, "psnr_y", 0), 10. * std::log10(65025.0 / 1.0));
  // All three aggregates are written; without chroma samples cb/cr are -inf.
  ASSERT_EQ(b.aggregate().size(), 3u);
  EXPECT_EQ(b.aggregate()[0].first, "apsnr_y");
  EXPECT_EQ(b.aggregate()[0].second, psnr::aggregate_psnr(255, 16, 16));
  EXPECT_EQ(b.aggregate()[1].first, "apsnr_cb");
  EXPECT_EQ(b.aggregate()[1].second, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(b.aggregate()[2].second, -std::numeric_limits<double>::infinity());
}

TEST(PsnrExtractor, AggregateOverAllFramesEvenSubsampled) {
  // Frame i: luma differs by i at one sample of 8x2 (sse i^2), chroma identical.
  auto f = [](Picture& r, Picture& d, unsigned i) {
    fill(r, 50);
    fill(d, 50);
    set_sample(d, 0, 0, 0, 50 + int(i));
  };
  const PictureFormat fmt{8, 2, 8, ChromaFormat::k420};
  const std::map<std::string, std::string> opts{{"enable_apsnr", "true"}};
  for (EngineOptions eo : {EngineOptions{}, EngineOptions{.threads = 2, .subsample = 2}}) {
    const auto c = run(fmt, 4, f, opts, eo);
    ASSERT_EQ(c.aggregate().size(), 3u);
    EXPECT_EQ(c.aggregate()[0].second, psnr::aggregate_psnr(255, 4 * 16, 0 + 1 + 4 + 9));
    // sse 0: the clip is capped at ceil(10 log10(2 * 255^2 * n)).
    EXPECT_EQ(c.aggregate()[1].second, std::ceil(10 * std::log10(65025.0 * 16 * 2)));
    // Every frame has psnr_y (the extractor is temporal, as in libvmaf).
    for (unsigned i = 0; i < 4; ++i) at(c, "psnr_y", i);
  }
  EXPECT_EQ(psnr::aggregate_psnr(255, 64, 14), 10 * (std::log10(65025.0) + std::log10(64.0) - std::log10(14.0)));
}

TEST(PsnrExtractor, MinSseAndReducedPeak) {
  const auto c = run({4, 4, 8, ChromaFormat::k420}, 1,
                     [](Picture& r, Picture& d, unsigned) {
                       fill(r, 9);
                       fill(d, 9);
                     },
                     {{"min_sse", "1"}});
  EXPECT_EQ(at(c, "psnr_y", 0), std::ceil(10. * std::log10(65025.0 / (1.0 / 16.0))));
  EXPECT_EQ(at(c, "psnr_cb", 0), std::ceil(10. * std::log10(65025.0 / (1.0 / 4.0))));

  const auto h = run({4, 4, 10, ChromaFormat::k444}, 1,
                     [](Picture& r, Picture& d, unsigned) {
                       fill(r, 40);
                       fill(d, 44);
                     },
                     {{"reduced_hbd_peak", "true"}});
  EXPECT_EQ(psnr::peak(10, true), 1020u);
  EXPECT_EQ(psnr::peak(16, true), 65280u);
  EXPECT_EQ(psnr::peak(12, false), 4095u);
  EXPECT_EQ(at(h, "psnr_y", 0), 10. * std::log10(double(1020u * 1020u) / 16.0));
}

TEST(PsnrSse, EightBitRowSumWrapsAt32Bits) {
  const int w = 66052;  // 66052 * 255^2 > 2^32
  std::vector<std::uint8_t> a(w, 255), b(w, 0);
  const PlaneView ra{a.data(), w, w, 1}, rb{b.data(), w, w, 1};
  EXPECT_EQ(psnr::sse(ra, rb, 8), std::uint64_t(std::uint32_t(66052ull * 65025ull)));
  std::vector<std::uint16_t> c(w, 255), d(w, 0);
  const PlaneView rc{reinterpret_cast<const std::uint8_t*>(c.data()), 2 * w, w, 1},
      rd{reinterpret_cast<const std::uint8_t*>(d.data()), 2 * w, w, 1};
  EXPECT_EQ(psnr::sse(rc, rd, 10), 66052ull * 65025ull);  // 16-bit path sums in 64 bits
}

// Records which FeatureSink method was used.
class RecordingSink final : public FeatureSink {
 public:
  std::vector<std::string> log;
  void put(std::string_view n, unsigned, double) override { log.push_back("put " + std::string(n)); }
  void put_plain(std::string_view n, unsigned, double) override { log.push_back("plain " + std::string(n)); }
  void put_aggregate(std::string_view n, double) override { log.push_back("aggregate " + std::string(n)); }
};

TEST(PsnrExtractor, WritesPlainNamesAndAggregatesOnFlush) {
  const PictureFormat fmt{4, 4, 8, ChromaFormat::k420};
  OptionSet o(kPsnrExtractor.options, {{"enable_mse", "true"}, {"enable_apsnr", "true"}}, "psnr");
  auto ex = kPsnrExtractor.create(o, fmt);
  Picture r(fmt), d(fmt);
  fill(r, 1);
  fill(d, 3);
  RecordingSink s;
  ex->extract(r, d, 0, s);
  EXPECT_EQ(s.log, (std::vector<std::string>{"plain psnr_y", "plain mse_y", "plain psnr_cb", "plain mse_cb",
                                             "plain psnr_cr", "plain mse_cr"}));
  s.log.clear();
  ex->flush(s);
  EXPECT_EQ(s.log, (std::vector<std::string>{"aggregate apsnr_y", "aggregate apsnr_cb", "aggregate apsnr_cr"}));
}

TEST(PsnrExtractor, OptionTableMirrorsLibvmaf) {
  ASSERT_EQ(kPsnrExtractor.options.size(), 5u);
  const char* const want[] = {"enable_chroma", "enable_mse", "enable_apsnr", "reduced_hbd_peak", "min_sse"};
  const double defaults[] = {1, 0, 0, 0, 0};
  for (std::size_t i = 0; i < 5; ++i) {
    const OptionSpec& s = kPsnrExtractor.options[i];
    EXPECT_EQ(s.name, want[i]);
    EXPECT_TRUE(s.alias.empty());
    EXPECT_FALSE(s.feature_param);
    EXPECT_EQ(s.default_num, defaults[i]);
    EXPECT_EQ(s.type, i == 4 ? OptionType::kDouble : OptionType::kBool);
  }
  EXPECT_EQ(kPsnrExtractor.options[4].min, 0.0);
  EXPECT_EQ(kPsnrExtractor.options[4].max, DBL_MAX);
  EXPECT_EQ(kPsnrExtractor.flags, unsigned(kTemporal));
  EXPECT_EQ(find_extractor_by_feature("psnr_cb"), &kPsnrExtractor);
  EXPECT_EQ(find_extractor_by_feature("mse_y"), nullptr);  // not in libvmaf's provided list either
}

std::string create_error(const PictureFormat& fmt, const std::map<std::string, std::string>& opts = {}) {
  try {
    OptionSet o(kPsnrExtractor.options, opts, kPsnrExtractor.name);
    kPsnrExtractor.create(o, fmt);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(PsnrExtractor, Errors) {
  EXPECT_EQ(create_error({4, 4, 7, ChromaFormat::k420}), "psnr: unsupported bit depth 7 (8 to 16)");
  EXPECT_EQ(create_error({4, 4, 8, ChromaFormat::k420}, {{"min_sse", "-1"}}),
            "psnr: option min_sse=-1: out of range [0, 1.79769e+308]");
  EXPECT_EQ(create_error({1, 1, 16, ChromaFormat::k420}), "no error");
}

}  // namespace
}  // namespace vmafx
