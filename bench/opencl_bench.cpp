// SPDX-License-Identifier: BSD-3-Clause
// OpenCL backend throughput: the vmaf_v0.6.1 features (adm, motion, vif)
// through the engine with --backend opencl and with the CPU, in the same run,
// at 1920x1080 and 3840x2160 (8 and 10 bit), and the time per frame of each
// OpenCL twin on its own (one thread, one feature). Without an OpenCL build or
// device the OpenCL benchmarks skip with a message.
//   VMAFX_OPENCL_GPU=N picks the device (default 0).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "backend/backends.hpp"
#include "bench_common.hpp"
#include "core/engine.hpp"
#include "model/model.hpp"
#ifdef VMAFX_HAVE_OPENCL
#include "backend/opencl/opencl_runtime.hpp"
#endif

namespace vmafx {
namespace {

using bench::copy_picture;
using bench::Sources;
using bench::sources;

Backend* opencl_backend() {
  static std::unique_ptr<Backend> b;
  static bool tried = false;
  if (!tried) {
    tried = true;
    const char* gpu = std::getenv("VMAFX_OPENCL_GPU");
    try {
      b = create_backend("opencl", gpu ? std::atoi(gpu) : 0);
      std::fprintf(stderr, "opencl_bench: %s\n", b->device_name().c_str());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "opencl_bench: %s\n", e.what());
    }
  }
  return b.get();
}

// With VMAFX_OPENCL_PROFILE=1: the device time of every OpenCL command since
// the last call, printed under `label` (nothing otherwise).
void profile_print(const std::string& label, bool discard) {
#ifdef VMAFX_HAVE_OPENCL
  if (!ocl::profiling()) return;
  const std::string r = ocl::profile_report();
  if (!discard) std::fprintf(stderr, "profile: %s\n%s", label.c_str(), r.c_str());
#else
  (void)label;
  (void)discard;
#endif
}

// `frames` frames through an engine with `requests` (and the vmaf_v0.6.1
// features when `model`).
void run_engine(const PictureFormat& fmt, Backend* backend, unsigned threads, int frames,
                const std::vector<FeatureRequest>& requests, bool model) {
  const Sources& src = sources(fmt, 0);
  Engine engine(fmt, {.threads = threads, .subsample = 1, .backend = backend, .cpu_fallback = false});
  if (model) {
    Model m = Model::builtin("vmaf_v0.6.1", {});
    for (const ModelFeature& f : m.features()) engine.use_feature(f.name, f.opts);
  }
  for (const FeatureRequest& r : requests) engine.use(r);
  std::set<const Picture*> filled;
  for (int i = 0; i < frames; ++i) {
    auto a = engine.acquire();
    auto b = engine.acquire();
    if (filled.insert(a.get()).second) copy_picture(*a, src.ref[std::size_t(i % 4)]);
    if (filled.insert(b.get()).second) copy_picture(*b, src.dis[std::size_t(i % 4)]);
    engine.push(std::move(a), std::move(b));
  }
  engine.finish();
}

std::string size_label(const PictureFormat& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::to_string(f.bpc) + "-bit";
}

// vmaf_v0.6.1's features: range(0) = 1 for OpenCL, 0 for the CPU.
void BM_Engine(benchmark::State& state) {
  const bool ocl = state.range(0) != 0;
  const PictureFormat fmt{int(state.range(1)), int(state.range(2)), int(state.range(3)), ChromaFormat::k420};
  const unsigned threads = unsigned(state.range(4));
  const int frames = int(state.range(5));
  Backend* backend = nullptr;
  if (ocl && !(backend = opencl_backend())) {
    state.SkipWithError("no OpenCL backend/device");
    return;
  }
  run_engine(fmt, backend, threads, std::min(frames, 8), {}, true);  // warm-up: programs, buffers
  profile_print("", true);
  std::int64_t total = 0;
  for (auto _ : state) {
    run_engine(fmt, backend, threads, frames, {}, true);
    total += frames;
  }
  state.counters["fps"] = benchmark::Counter(double(total), benchmark::Counter::kIsRate);
  state.SetLabel(std::string(ocl ? "opencl " : "cpu ") + size_label(fmt) + " threads=" + std::to_string(threads));
  if (ocl)
    profile_print(
        "engine " + size_label(fmt) + " threads=" + std::to_string(threads) + ", " + std::to_string(total) + " frames",
        false);
}

void EngineArgs(benchmark::internal::Benchmark* b) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  for (int bpc : {8, 10})
    for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) {
      b->Args({0, w, h, bpc, hw, w > 1920 ? 24 : 64});
      for (int t : {2, 4, 8}) b->Args({1, w, h, bpc, t, w > 1920 ? 300 : 1000});
    }
}
BENCHMARK(BM_Engine)->Apply(EngineArgs)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

// One twin alone, one thread: ms per frame (upload, kernels, readback, host tail).
const std::vector<FeatureRequest>& twin_configs() {
  static const std::vector<FeatureRequest> c = {
      {"vif", {}}, {"adm", {}}, {"motion", {}}, {"ssim", {}}, {"float_ssim", {}}, {"float_ms_ssim", {}}, {"psnr", {}},
  };
  return c;
}

void BM_Twin(benchmark::State& state) {
  const FeatureRequest& req = twin_configs()[std::size_t(state.range(0))];
  const PictureFormat fmt{int(state.range(1)), int(state.range(2)), 8, ChromaFormat::k420};
  const int frames = int(state.range(3));
  Backend* backend = opencl_backend();
  if (!backend) {
    state.SkipWithError("no OpenCL backend/device");
    return;
  }
  run_engine(fmt, backend, 0, 3, {req}, false);
  profile_print("", true);
  double seconds = 0;
  std::int64_t total = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    run_engine(fmt, backend, 0, frames, {req}, false);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    total += frames;
  }
  state.counters["ms_per_frame"] = 1e3 * seconds / double(total);
  state.SetLabel("opencl " + req.extractor + " " + size_label(fmt));
  profile_print("twin " + req.extractor + " " + size_label(fmt) + ", " + std::to_string(total) + " frames", false);
}

void TwinArgs(benchmark::internal::Benchmark* b) {
  for (int k = 0; k < int(twin_configs().size()); ++k)
    for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) b->Args({k, w, h, w > 1920 ? 40 : 100});
}
BENCHMARK(BM_Twin)->Apply(TwinArgs)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vmafx

BENCHMARK_MAIN();
