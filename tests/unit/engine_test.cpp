// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <sys/resource.h>

#include "core/engine.hpp"
#include "core/error.hpp"

namespace vmafx {
namespace {

// A frame-parallel extractor writing two values per frame (luma of pixel 0),
// with a random delay so that workers finish out of order.
class Spatial final : public Extractor {
 public:
  Spatial(double gain, bool debug) : gain_(gain), debug_(debug) {}
  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    std::this_thread::sleep_for(std::chrono::microseconds((index * 7919) % 5 * 300));
    out.put("VMAF_feature_adm2_score", index, ref.row<std::uint8_t>(0, 0)[0] * gain_);
    // A plain name ignores options: only one instance may write it.
    if (gain_ != 2.5) out.put_plain("spatial_dis", index, dis.row<std::uint8_t>(0, 0)[0]);
    if (debug_) out.put("spatial_debug", index, 1);
  }

 private:
  double gain_;
  bool debug_;
};

// A temporal extractor: writes, at frame i, the difference to frame i-1 for
// index i-1 (like motion2), and the last one on flush.
class Temporal final : public Extractor {
 public:
  void extract(const Picture& ref, const Picture&, unsigned index, FeatureSink& out) override {
    const int v = ref.row<std::uint8_t>(0, 0)[0];
    if (index > 0) out.put("delayed", index - 1, v - prev_);
    prev_ = v;
    last_ = index;
  }
  void flush(FeatureSink& out) override {
    out.put("delayed", last_, 0);
    out.put_aggregate("total", 42);
  }

 private:
  int prev_ = 0;
  unsigned last_ = 0;
};

constexpr OptionSpec kOpts[] = {
    {.name = "gain",
     .alias = "g",
     .type = OptionType::kDouble,
     .default_num = 1,
     .min = 0,
     .max = 10,
     .feature_param = true},
    {.name = "debug", .type = OptionType::kBool, .default_num = 0, .min = 0, .max = 1},  // names no feature
};
constexpr std::string_view kSpatialProvided[] = {"VMAF_feature_adm2_score"};
const ExtractorDescriptor kSpatialDesc{"spatial", kOpts, kSpatialProvided, 0,
                                       [](const OptionSet& o, const PictureFormat&) -> std::unique_ptr<Extractor> {
                                         return std::make_unique<Spatial>(o.get_double("gain"), o.get_bool("debug"));
                                       }};
const ExtractorDescriptor kTemporalDesc{
    "temporal", {}, {}, kTemporal, [](const OptionSet&, const PictureFormat&) -> std::unique_ptr<Extractor> {
      return std::make_unique<Temporal>();
    }};

FeatureCollector run(unsigned threads, unsigned subsample, int frames) {
  const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
  Engine e(fmt, {.threads = threads, .subsample = subsample});
  e.use(kSpatialDesc, {});
  e.use(kTemporalDesc, {});
  e.use(kSpatialDesc, {{"gain", "2.5"}});
  e.use(kSpatialDesc, {{"gain", "1"}});  // the default: same instance as the first
  for (int i = 0; i < frames; ++i) {
    auto a = e.acquire();
    auto b = e.acquire();
    a->row<std::uint8_t>(0, 0)[0] = std::uint8_t(i * i);
    b->row<std::uint8_t>(0, 0)[0] = std::uint8_t(200 - i);
    e.push(std::move(a), std::move(b));
  }
  e.finish();
  return std::move(e.collector());
}

TEST(Engine, OrderNamesAndValues) {
  FeatureCollector fc = run(0, 1, 5);
  std::vector<std::string> names;
  for (const auto& s : fc.all()) names.push_back(s.name);
  // Frame 0: spatial (explicit default), temporal (nothing yet), spatial with the
  // suffixed option; "delayed" first appears at frame 1.
  EXPECT_EQ(names, (std::vector<std::string>{"adm2", "spatial_dis", "adm2_g_2.5", "delayed"}));
  ASSERT_EQ(fc.capacity(), 5u);
  EXPECT_EQ(fc.find("adm2")->value[3], 9.0);
  EXPECT_EQ(fc.find("adm2_g_2.5")->value[4], 16.0 * 2.5);
  EXPECT_EQ(fc.find("spatial_dis")->value[4], 196.0);
  EXPECT_EQ(fc.find("delayed")->value[2], 9.0 - 4.0);
  EXPECT_EQ(fc.find("delayed")->value[4], 0.0);
  ASSERT_EQ(fc.aggregate().size(), 1u);
  EXPECT_EQ(fc.aggregate()[0].first, "total");
}

TEST(Engine, SpatialDisWrittenTwiceIsAnError) {
  // Two instances writing the same plain name collide, as in libvmaf.
  const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
  Engine e(fmt, {});
  e.use(kSpatialDesc, {});
  e.use(kSpatialDesc, {{"gain", "3"}});  // writes spatial_dis too
  auto a = e.acquire();
  auto b = e.acquire();
  try {
    e.push(std::move(a), std::move(b));
    ADD_FAILURE() << "no error";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find(" written twice at frame 0"), std::string::npos) << err.what();
  }
}

TEST(Engine, OptionsThatNameNoFeatureShareTheFirstInstance) {
  // As libvmaf: a model's vif and a later vif=debug=true name the same
  // features, so the first instance serves both and nothing is written twice.
  const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
  Engine e(fmt, {});
  e.use(kSpatialDesc, {});
  e.use(kSpatialDesc, {{"debug", "true"}});
  auto a = e.acquire();
  auto b = e.acquire();
  a->row<std::uint8_t>(0, 0)[0] = 7;
  b->row<std::uint8_t>(0, 0)[0] = 9;
  e.push(std::move(a), std::move(b));
  e.finish();
  std::vector<std::string> names;
  for (const auto& s : e.collector().all()) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"adm2", "spatial_dis"}));
  EXPECT_EQ(e.collector().find("spatial_dis")->value[0], 9.0);

  // In the other order the debug instance is the one kept.
  Engine d(fmt, {});
  d.use(kSpatialDesc, {{"debug", "true"}});
  d.use(kSpatialDesc, {});
  auto c = d.acquire();
  auto f = d.acquire();
  d.push(std::move(c), std::move(f));
  d.finish();
  EXPECT_NE(d.collector().find("spatial_debug"), nullptr);
}

TEST(Engine, IdenticalForEveryThreadCount) {
  for (unsigned sub : {1u, 3u}) {
    FeatureCollector base = run(0, sub, 23);
    for (unsigned t : {1u, 2u, 7u}) {
      FeatureCollector fc = run(t, sub, 23);
      ASSERT_EQ(fc.all().size(), base.all().size());
      for (std::size_t i = 0; i < fc.all().size(); ++i) {
        EXPECT_EQ(fc.all()[i].name, base.all()[i].name);
        EXPECT_EQ(fc.all()[i].value, base.all()[i].value);
        EXPECT_EQ(fc.all()[i].written, base.all()[i].written);
      }
    }
  }
}

TEST(Engine, SubsampleSkipsSpatialNotTemporal) {
  FeatureCollector fc = run(0, 2, 5);
  EXPECT_TRUE(fc.find("adm2")->has(2));
  EXPECT_FALSE(fc.find("adm2")->has(1));
  EXPECT_TRUE(fc.find("delayed")->has(1));
}

TEST(Engine, BoundedPictures) {
  const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
  Engine e(fmt, {.threads = 2});
  EXPECT_EQ(e.max_in_flight(), 4u);
  std::vector<std::shared_ptr<Picture>> held;
  for (unsigned i = 0; i < 2 * e.max_in_flight(); ++i) held.push_back(e.acquire());
  std::atomic<bool> got{false};
  std::thread t([&] {
    auto p = e.acquire();
    got = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(got.load());
  held.pop_back();
  t.join();
  EXPECT_TRUE(got.load());
}

// Records every submit() and extract() call: which frame, on which thread.
struct Calls {
  std::mutex mu;
  std::vector<std::tuple<char, unsigned, std::thread::id, int>> log;  // kind, frame, thread, extractor
};

class Submitting final : public Extractor {
 public:
  Submitting(Calls& c, int id) : calls_(c), id_(id) {}
  void submit(const Picture&, const Picture&, unsigned index) override { note('s', index); }
  void extract(const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    note('e', index);
    out.put(id_ == 0 ? "first" : "second", index, index);
  }

 private:
  void note(char kind, unsigned index) {
    std::lock_guard lk(calls_.mu);
    calls_.log.emplace_back(kind, index, std::this_thread::get_id(), id_);
  }
  Calls& calls_;
  int id_;
};

// A backend whose "twins" are made by the descriptors themselves: what the
// engine does with device instances, without a device.
class FakeBackend final : public Backend {
 public:
  explicit FakeBackend(unsigned lanes = 4) : lanes_(lanes) {}
  std::string_view name() const override { return "fake"; }
  std::string device_name() const override { return "fake device"; }
  std::unique_ptr<Extractor> create_twin(const ExtractorDescriptor& d, const OptionSet& opts,
                                         const PictureFormat& fmt) override {
    if (d.name == "cpu_only") return nullptr;
    return d.create(opts, fmt);
  }
  unsigned preferred_lanes(const PictureFormat&) const override { return lanes_; }

 private:
  unsigned lanes_;
};

// Without CPU fallback, an extractor the backend has no twin for is an Error
// naming the extractor and the backend (every real feature has both twins
// now, so only a backend without one shows it).
TEST(Engine, NoTwinWithoutFallbackIsAnError) {
  static Calls calls;
  static const ExtractorDescriptor cpu_only{
      "cpu_only", {}, {}, 0, [](const OptionSet&, const PictureFormat&) -> std::unique_ptr<Extractor> {
        return std::make_unique<Submitting>(calls, 0);
      }};
  const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
  FakeBackend backend;
  Engine e(fmt, {.threads = 2, .backend = &backend});
  try {
    e.use(cpu_only, {});
    FAIL() << "no error";
  } catch (const Error& err) {
    EXPECT_EQ(std::string(err.what()), "cpu_only: no fake twin for this extractor (use the cpu or auto backend)");
  }
  Engine fallback(fmt, {.threads = 2, .backend = &backend, .cpu_fallback = true});
  fallback.use(cpu_only, {});
  EXPECT_EQ(fallback.cpu_fallbacks(), std::vector<std::string>{"cpu_only"});
}

TEST(Engine, SubmitsEveryTwinOfAFrameBeforeExtracting) {
  // Device twins enqueue in submit() and finish in extract(): per frame, every
  // submit comes first, on the thread that then extracts, in registration order.
  static Calls calls;
  static const ExtractorDescriptor first{
      "first", {}, {}, 0, [](const OptionSet&, const PictureFormat&) -> std::unique_ptr<Extractor> {
        return std::make_unique<Submitting>(calls, 0);
      }};
  static const ExtractorDescriptor second{
      "second", {}, {}, 0, [](const OptionSet&, const PictureFormat&) -> std::unique_ptr<Extractor> {
        return std::make_unique<Submitting>(calls, 1);
      }};
  for (unsigned threads : {0u, 3u}) {
    calls.log.clear();
    const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
    FakeBackend backend;
    Engine e(fmt, {.threads = threads, .subsample = 2, .backend = &backend});
    e.use(first, {});
    e.use(second, {});
    for (int i = 0; i < 9; ++i) {
      auto a = e.acquire();
      auto b = e.acquire();
      e.push(std::move(a), std::move(b));
    }
    e.finish();
    std::map<unsigned, std::vector<std::tuple<char, unsigned, std::thread::id, int>>> per_frame;
    for (const auto& c : calls.log) per_frame[std::get<1>(c)].push_back(c);
    ASSERT_EQ(per_frame.size(), 5u) << threads;  // frames 0, 2, 4, 6, 8 (subsample 2)
    for (const auto& [frame, v] : per_frame) {
      EXPECT_EQ(frame % 2, 0u);
      ASSERT_EQ(v.size(), 4u);
      EXPECT_EQ(std::get<0>(v[0]), 's');
      EXPECT_EQ(std::get<3>(v[0]), 0);
      EXPECT_EQ(std::get<0>(v[1]), 's');
      EXPECT_EQ(std::get<3>(v[1]), 1);
      EXPECT_EQ(std::get<0>(v[2]), 'e');
      EXPECT_EQ(std::get<3>(v[2]), 0);
      EXPECT_EQ(std::get<0>(v[3]), 'e');
      EXPECT_EQ(std::get<3>(v[3]), 1);
      for (const auto& c : v) EXPECT_EQ(std::get<2>(c), std::get<2>(v[0]));
    }
    EXPECT_EQ(e.collector().find("second")->value[8], 8.0);
  }
}

// Reads the first sample of the two earlier references (history 2).
class LookBack final : public LookBackExtractor {
 public:
  unsigned history() const override { return 2; }
  void extract_with(const Picture& ref, const Picture& dis, const Earlier& earlier, unsigned index,
                    FeatureSink& out) override {
    std::this_thread::sleep_for(std::chrono::microseconds((index * 7919) % 7 * 200));
    double v = ref.row<std::uint8_t>(0, 0)[0] * 1000.0 + dis.row<std::uint8_t>(0, 0)[0];
    for (unsigned k = 0; k < earlier.count; ++k)
      v = v * 7 + earlier.ref[k]->row<std::uint8_t>(0, 0)[0] - earlier.dis[k]->row<std::uint8_t>(0, 0)[0];
    out.put("lookback", index, v + earlier.count * 0.5);
  }
};
const ExtractorDescriptor kLookBackDesc{
    "lookback", {}, {}, kTemporal, [](const OptionSet&, const PictureFormat&) -> std::unique_ptr<Extractor> {
      return std::make_unique<LookBack>();
    }};

TEST(Engine, HistoryExtractorsSeeEarlierFramesOnAnyThread) {
  const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
  auto run_lookback = [&](unsigned threads, unsigned subsample) {
    Engine e(fmt, {.threads = threads, .subsample = subsample});
    e.use(kLookBackDesc, {});
    e.use(kSpatialDesc, {});
    for (int i = 0; i < 19; ++i) {
      auto a = e.acquire();
      auto b = e.acquire();
      a->row<std::uint8_t>(0, 0)[0] = std::uint8_t(3 * i + 1);
      b->row<std::uint8_t>(0, 0)[0] = std::uint8_t(100 - 2 * i);
      e.push(std::move(a), std::move(b));
    }
    e.finish();
    return std::move(e.collector());
  };
  // What the values must be: frame i sees frames i-1 and i-2.
  auto expect = [](unsigned i) {
    auto r = [](int k) { return double(3 * k + 1); };
    auto d = [](int k) { return double(100 - 2 * k); };
    double v = r(int(i)) * 1000 + d(int(i));
    unsigned count = 0;
    for (int k = int(i) - 1; k >= 0 && k >= int(i) - 2; --k, ++count) v = v * 7 + r(k) - d(k);
    return v + count * 0.5;
  };
  for (unsigned threads : {0u, 1u, 3u, 8u}) {
    for (unsigned sub : {1u, 4u}) {
      FeatureCollector fc = run_lookback(threads, sub);
      const auto* s = fc.find("lookback");
      ASSERT_NE(s, nullptr);
      for (unsigned i = 0; i < 19; ++i) EXPECT_EQ(s->value[i], expect(i)) << threads << " " << i;  // every frame
      EXPECT_EQ(fc.find("adm2")->has(1), sub == 1);
    }
  }
  // Called without an engine (frames handed in order), it keeps its own copies.
  LookBack lb;
  Picture a(fmt), b(fmt);
  struct Keep final : FeatureSink {
    std::vector<double> v;
    void put(std::string_view, unsigned, double x) override { v.push_back(x); }
    void put_plain(std::string_view, unsigned, double) override {}
  } keep;
  for (int i = 0; i < 5; ++i) {
    a.row<std::uint8_t>(0, 0)[0] = std::uint8_t(3 * i + 1);
    b.row<std::uint8_t>(0, 0)[0] = std::uint8_t(100 - 2 * i);
    lb.extract(a, b, unsigned(i), keep);
  }
  ASSERT_EQ(keep.v.size(), 5u);
  for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(keep.v[i], expect(i));
}

TEST(Engine, HistoryAndReadAheadRaiseThePictureLimit) {
  const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
  Engine e(fmt, {.threads = 2});
  e.use(kLookBackDesc, {});
  e.reserve_read_ahead(6);
  auto first = e.acquire();
  EXPECT_EQ(e.picture_limit(), 2 * (e.max_in_flight() + 2) + 6);
  EXPECT_THROW(e.reserve_read_ahead(1), std::logic_error);
  EXPECT_THROW(e.use(kSpatialDesc, {}), std::logic_error);
}

// The engine's guards against misuse by a caller: their texts.
std::string logic_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Engine, MisuseGuards) {
  Engine e({8, 4, 8, ChromaFormat::k420}, {.threads = 1});
  e.use(kSpatialDesc, {});
  auto r = e.acquire();
  EXPECT_EQ(logic_error_of([&] { e.use(kTemporalDesc, {}); }), "Engine::use after the first acquire or push");
  EXPECT_EQ(logic_error_of([&] { e.set_threads(2); }), "Engine::set_threads after the first acquire or push");
  EXPECT_EQ(logic_error_of([&] { e.reserve_read_ahead(1); }),
            "Engine::reserve_read_ahead after the first acquire or push");
  auto d = e.acquire();
  e.push(std::move(r), std::move(d));
  e.finish();
  EXPECT_EQ(logic_error_of([&] { e.push(nullptr, nullptr); }), "Engine::push after finish");
}

// Counts how many device groups run at once.
struct Concurrency {
  std::mutex mu;
  int now = 0, most = 0;
  std::thread::id sequencer{};
  bool one_thread = true;
  bool flushed_there = false;
  std::vector<unsigned> order;
};
Concurrency g_conc;

class SlowTwin final : public Extractor {
 public:
  void extract(const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    {
      std::lock_guard lk(g_conc.mu);
      g_conc.most = std::max(g_conc.most, ++g_conc.now);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    {
      std::lock_guard lk(g_conc.mu);
      --g_conc.now;
    }
    out.put("slow", index, index);
  }
};
class OrderedTwin final : public Extractor {
 public:
  void extract(const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    std::lock_guard lk(g_conc.mu);
    if (g_conc.order.empty()) g_conc.sequencer = std::this_thread::get_id();
    g_conc.one_thread &= g_conc.sequencer == std::this_thread::get_id();
    g_conc.order.push_back(index);
    out.put("ordered", index, index);
  }
  // Twins keep per-thread device state: flush must run where extract ran.
  void flush(FeatureSink& out) override {
    std::lock_guard lk(g_conc.mu);
    g_conc.flushed_there = g_conc.sequencer == std::this_thread::get_id();
    out.put("ordered_total", 0, double(g_conc.order.size()));
  }
};

TEST(Engine, DeviceLanesBoundTwinsAndCpuWorkRunsBeside) {
  static const ExtractorDescriptor slow{
      "slow", {}, {}, 0, [](const OptionSet&, const PictureFormat&) -> std::unique_ptr<Extractor> {
        return std::make_unique<SlowTwin>();
      }};
  static const ExtractorDescriptor ordered{
      "ordered", {}, {}, kTemporal, [](const OptionSet&, const PictureFormat&) -> std::unique_ptr<Extractor> {
        return std::make_unique<OrderedTwin>();
      }};
  static const ExtractorDescriptor cpu_only{"cpu_only", kOpts, kSpatialProvided, 0,
                                            [](const OptionSet& o, const PictureFormat&) -> std::unique_ptr<Extractor> {
                                              return std::make_unique<Spatial>(o.get_double("gain"),
                                                                               o.get_bool("debug"));
                                            }};
  for (unsigned lanes : {1u, 2u}) {
    {
      std::lock_guard lk(g_conc.mu);
      g_conc.now = g_conc.most = 0;
      g_conc.one_thread = true;
      g_conc.flushed_there = false;
      g_conc.order.clear();
    }
    const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
    FakeBackend backend(lanes);
    Engine e(fmt, {.threads = 6, .backend = &backend, .cpu_fallback = true});
    e.use(slow, {});
    e.use(ordered, {});
    e.use(cpu_only, {});
    EXPECT_EQ(e.cpu_fallbacks(), std::vector<std::string>{"cpu_only"});
    for (int i = 0; i < 24; ++i) {
      auto a = e.acquire();
      auto b = e.acquire();
      a->row<std::uint8_t>(0, 0)[0] = std::uint8_t(i);
      e.push(std::move(a), std::move(b));
    }
    e.finish();
    EXPECT_LE(g_conc.most, int(lanes));
    EXPECT_GE(g_conc.most, 1);
    // The ordered twin saw every frame in order, all on one thread.
    ASSERT_EQ(g_conc.order.size(), 24u);
    for (unsigned i = 0; i < 24; ++i) EXPECT_EQ(g_conc.order[i], i);
    EXPECT_TRUE(g_conc.one_thread);
    EXPECT_TRUE(g_conc.flushed_there);
    EXPECT_EQ(e.collector().find("ordered_total")->value[0], 24.0);
    EXPECT_EQ(e.collector().find("adm2")->value[23], 23.0);
    EXPECT_EQ(e.collector().find("slow")->value[23], 23.0);
  }
}

TEST(Engine, AbortWakesAcquire) {
  const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
  Engine e(fmt, {.threads = 1});
  std::vector<std::shared_ptr<Picture>> held;
  for (unsigned i = 0; i < e.picture_limit(); ++i) held.push_back(e.acquire());
  std::thread t([&] {
    try {
      e.acquire();
      ADD_FAILURE() << "acquire returned";
    } catch (const Error& err) {
      EXPECT_STREQ(err.what(), "reader failed");
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  e.abort("reader failed");
  t.join();
  EXPECT_THROW(e.push(held[0], held[1]), Error);
}

// getrusage's peak resident set, in kB.
long peak_rss_kb() {
  rusage ru{};
  return ::getrusage(RUSAGE_SELF, &ru) == 0 ? long(ru.ru_maxrss) : -1;
}

TEST(Engine, TimingReportGivesThePeakResidentMemory) {
  // 96 MiB touched first: the peak cannot be under it.
  std::vector<char> big(std::size_t(96) << 20);
  for (std::size_t i = 0; i < big.size(); i += 4096) big[i] = char(i >> 12);
  const PictureFormat fmt{8, 4, 8, ChromaFormat::k420};
  Engine e(fmt, {.threads = 1});
  e.use(kSpatialDesc, {});
  for (int i = 0; i < 3; ++i) e.push(e.acquire(), e.acquire());
  e.finish();
  const long before = peak_rss_kb();
  const std::string report = e.timing_report();
  const long after = peak_rss_kb();
  const std::size_t at = report.find("peak resident memory");
  ASSERT_NE(at, std::string::npos) << report;
  const long kb = std::stol(report.substr(at + 20));
  EXPECT_EQ(report.substr(report.find(' ', report.find_first_not_of(' ', at + 20)), 4), " kB\n") << report;
  ASSERT_GT(before, 0);
  EXPECT_GE(kb, long(big.size() / 1024));
  // The kernel's peak itself, read just before and just after the report
  // (it only grows).
  EXPECT_GE(kb, before);
  EXPECT_LE(kb, after);
  EXPECT_EQ(big[4096 * 5], char(5));
}

}  // namespace
}  // namespace vmafx
