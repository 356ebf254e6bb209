// SPDX-License-Identifier: BSD-3-Clause
// CPU engine throughput: the vmaf_v0.6.1 features (adm, motion, vif) and the
// model, on generated content, at 576x324, 1920x1080 and 3840x2160, 8 and
// 10 bit, single-threaded and with every core. Reports frames/s.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "bench_common.hpp"
#include "core/engine.hpp"
#include "model/model.hpp"

namespace vmafx {
namespace {

using bench::fill;

void BM_VmafV061(benchmark::State& state) {
  const PictureFormat fmt{int(state.range(0)), int(state.range(1)), int(state.range(2)), ChromaFormat::k420};
  const unsigned threads = unsigned(state.range(3));
  // A few distinct frames, reused: the benchmark measures scoring, not generation.
  constexpr int kDistinct = 4;
  std::vector<Picture> refs, diss;
  std::mt19937 rng(1);
  for (int i = 0; i < kDistinct; ++i) {
    refs.emplace_back(fmt);
    diss.emplace_back(fmt);
    fill(refs.back(), diss.back(), i, rng);
  }
  Model model = Model::builtin("vmaf_v0.6.1", {});
  std::int64_t frames = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Engine engine(fmt, {.threads = threads, .subsample = 1});
    std::vector<std::string> inputs;
    for (const ModelFeature& f : model.features()) inputs.push_back(engine.use_feature(f.name, f.opts));
    state.ResumeTiming();
    constexpr int kFrames = 16;
    for (int i = 0; i < kFrames; ++i) {
      auto a = engine.acquire();
      auto b = engine.acquire();
      const Picture& r = refs[i % kDistinct];
      const Picture& d = diss[i % kDistinct];
      for (int p = 0; p < fmt.plane_count(); ++p)
        for (int y = 0; y < fmt.plane_height(p); ++y) {
          std::memcpy(a->row<std::uint8_t>(p, y), r.row<std::uint8_t>(p, y),
                      fmt.plane_width(p) * fmt.bytes_per_sample());
          std::memcpy(b->row<std::uint8_t>(p, y), d.row<std::uint8_t>(p, y),
                      fmt.plane_width(p) * fmt.bytes_per_sample());
        }
      engine.push(std::move(a), std::move(b));
    }
    engine.finish();
    std::vector<double> values(inputs.size());
    for (int i = 0; i < kFrames; ++i) {
      for (std::size_t k = 0; k < inputs.size(); ++k) values[k] = engine.collector().find(inputs[k])->value[i];
      benchmark::DoNotOptimize(model.predict(values));
    }
    frames += kFrames;
  }
  state.counters["fps"] = benchmark::Counter(double(frames), benchmark::Counter::kIsRate);
  state.counters["threads"] = threads;
}

void Args(benchmark::internal::Benchmark* b) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  for (auto [w, h] : {std::pair{576, 324}, {1920, 1080}, {3840, 2160}})
    for (int bpc : {8, 10})
      for (unsigned t : {0u, hw}) b->Args({w, h, bpc, t});
  b->ArgNames({"w", "h", "bpc", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_VmafV061)->Apply(Args);

}  // namespace
}  // namespace vmafx

BENCHMARK_MAIN();
