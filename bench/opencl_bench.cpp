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
#include "core/engine.hpp"
#include "model/model.hpp"

namespace vmafx {
namespace {

// A textured frame that moves with `frame`, and a noisy distorted copy.
void fill(Picture& ref, Picture& dis, int frame, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const PictureFormat& f = ref.format();
  const int maxv = (1 << f.bpc) - 1;
  std::uniform_int_distribution<int> noise(-3 << (f.bpc - 8), 3 << (f.bpc - 8));
  for (int p = 0; p < f.plane_count(); ++p)
    for (int y = 0; y < f.plane_height(p); ++y)
      for (int x = 0; x < f.plane_width(p); ++x) {
        const int v = ((((x + frame) * 13) ^ (y * 7)) & 255) << (f.bpc - 8);
        const int d = std::clamp(v + noise(rng), 0, maxv);
        if (f.bpc == 8) {
          ref.row<std::uint8_t>(p, y)[x] = std::uint8_t(v);
          dis.row<std::uint8_t>(p, y)[x] = std::uint8_t(d);
        } else {
          ref.row<std::uint16_t>(p, y)[x] = std::uint16_t(v);
          dis.row<std::uint16_t>(p, y)[x] = std::uint16_t(d);
        }
      }
}

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

// Four generated frame pairs per format; pool pictures are filled from them
// with memcpy, once, the first time the engine hands them out, so the timed
// loop measures scoring (as cuda_bench does).
struct Sources {
  std::vector<Picture> ref, dis;
};
const Sources& sources(const PictureFormat& fmt) {
  static std::map<std::tuple<int, int, int>, Sources> cache;
  Sources& s = cache[{fmt.width, fmt.height, fmt.bpc}];
  if (s.ref.empty())
    for (int i = 0; i < 4; ++i) {
      s.ref.emplace_back(fmt);
      s.dis.emplace_back(fmt);
      fill(s.ref.back(), s.dis.back(), i, std::uint32_t(i));
    }
  return s;
}
void copy_picture(Picture& dst, const Picture& src) {
  const PictureFormat& f = src.format();
  for (int p = 0; p < f.plane_count(); ++p)
    std::memcpy(dst.plane_data(p), src.plane(p).data, std::size_t(src.stride(p)) * std::size_t(f.plane_height(p)));
}

// `frames` frames through an engine with `requests` (and the vmaf_v0.6.1
// features when `model`).
void run_engine(const PictureFormat& fmt, Backend* backend, unsigned threads, int frames,
                const std::vector<FeatureRequest>& requests, bool model) {
  const Sources& src = sources(fmt);
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
  std::int64_t total = 0;
  for (auto _ : state) {
    run_engine(fmt, backend, threads, frames, {}, true);
    total += frames;
  }
  state.counters["fps"] = benchmark::Counter(double(total), benchmark::Counter::kIsRate);
  state.SetLabel(std::string(ocl ? "opencl " : "cpu ") + size_label(fmt) + " threads=" + std::to_string(threads));
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
}

void TwinArgs(benchmark::internal::Benchmark* b) {
  for (int k = 0; k < int(twin_configs().size()); ++k)
    for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) b->Args({k, w, h, w > 1920 ? 40 : 100});
}
BENCHMARK(BM_Twin)->Apply(TwinArgs)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vmafx

BENCHMARK_MAIN();
