// SPDX-License-Identifier: BSD-3-Clause
// CUDA backend throughput: the vmaf_v0.6.1 features (adm, motion, vif) through
// the engine with --backend cuda and with the CPU, in the same run, at
// 1920x1080 and 3840x2160, 8 and 10 bit, with frames already in (page-locked)
// host memory. Also: the upload / compute+readback split of one frame, and a
// 10,000-frame run that checks that host memory stays flat.
// Without a CUDA build or device, the CUDA benchmarks skip with a message.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <tuple>
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
#ifdef VMAFX_HAVE_CUDA
#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/motion_cuda.hpp"
#include "feature/cuda/vif_cuda.hpp"
#include "exact/vif_tables.h"
#endif

namespace vmafx {
namespace {

using bench::copy_picture;
using bench::fill;
using bench::Sources;
using bench::sources;

std::unique_ptr<Backend>& cuda_backend() {
  static std::unique_ptr<Backend> b;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      b = create_backend("cuda", 0);
      std::fprintf(stderr, "cuda_bench: %s\n", b->device_name().c_str());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cuda_bench: %s\n", e.what());
    }
  }
  return b;
}

long rss_kb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

// Runs `frames` frames of vmaf_v0.6.1 features through an engine. Pictures
// come from the engine's pool (page-locked with the CUDA backend); each pool
// picture is filled once, the first time it is handed out (a memcpy from
// sources()), so the timed loop measures scoring. `sample` is called every
// 1000 frames.
template <class Sample>
void run_engine(const PictureFormat& fmt, Backend* backend, unsigned threads, int frames, Sample&& sample) {
  const Sources& src = sources(fmt, 1);
  Engine engine(fmt, {.threads = threads, .subsample = 1, .backend = backend, .cpu_fallback = false});
  Model model = Model::builtin("vmaf_v0.6.1", {});
  for (const ModelFeature& f : model.features()) engine.use_feature(f.name, f.opts);
  std::set<const Picture*> filled;
  for (int i = 0; i < frames; ++i) {
    auto a = engine.acquire();
    auto b = engine.acquire();
    if (filled.insert(a.get()).second) copy_picture(*a, src.ref[i % 4]);
    if (filled.insert(b.get()).second) copy_picture(*b, src.dis[i % 4]);
    engine.push(std::move(a), std::move(b));
    if (i % 1000 == 999) sample(i + 1);
  }
  engine.finish();
}

void BM_Engine(benchmark::State& state) {
  const bool cuda = state.range(0) != 0;
  const PictureFormat fmt{int(state.range(1)), int(state.range(2)), int(state.range(3)), ChromaFormat::k420};
  const unsigned threads = unsigned(state.range(4));
  const int frames = int(state.range(5));
  Backend* backend = nullptr;
  if (cuda) {
    backend = cuda_backend().get();
    if (!backend) {
      state.SkipWithError("no CUDA backend/device");
      return;
    }
  }
  // One warm-up run: pinned pool, device buffers, module load.
  run_engine(fmt, backend, threads, std::min(frames, 16), [](int) {});
  std::int64_t total = 0;
  for (auto _ : state) {
    run_engine(fmt, backend, threads, frames, [](int) {});
    total += frames;
  }
  state.counters["fps"] = benchmark::Counter(double(total), benchmark::Counter::kIsRate);
  state.SetLabel(std::string(cuda ? "cuda" : "cpu") + " " + std::to_string(fmt.width) + "x" +
                 std::to_string(fmt.height) + " " + std::to_string(fmt.bpc) +
                 "-bit threads=" + std::to_string(threads));
}

void EngineArgs(benchmark::internal::Benchmark* b) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  for (int bpc : {8, 10}) {
    for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) {
      b->Args({0, w, h, bpc, hw, w > 1920 ? 32 : 96});
      for (int t : {2, 4, 8, 16}) b->Args({1, w, h, bpc, t, w > 1920 ? 600 : 1500});
    }
  }
}
BENCHMARK(BM_Engine)->Apply(EngineArgs)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

#ifdef VMAFX_HAVE_CUDA
class NullSink final : public FeatureSink {
 public:
  void put(std::string_view, unsigned, double v) override { benchmark::DoNotOptimize(v); }
  void put_plain(std::string_view, unsigned, double v) override { benchmark::DoNotOptimize(v); }
};

// One thread, one frame at a time: upload of the two luma planes (CUDA events),
// then each twin's extract with the planes already on the device (kernels,
// readback and the host-side float tail), wall clock.
void BM_Split(benchmark::State& state) {
  auto* backend = dynamic_cast<cuda::CudaBackend*>(cuda_backend().get());
  if (!backend) {
    state.SkipWithError("no CUDA backend/device");
    return;
  }
  const PictureFormat fmt{int(state.range(0)), int(state.range(1)), int(state.range(2)), ChromaFormat::k420};
  Picture ref(fmt, backend->host_allocator()), dis(fmt, backend->host_allocator());
  fill(ref, dis, 0, 1);
  std::vector<std::unique_ptr<Extractor>> twins;
  const char* names[] = {"vif", "adm", "motion"};
  for (const char* n : names) {
    const ExtractorDescriptor* d = find_extractor(n);
    OptionSet opts(d->options, {}, d->name);
    twins.push_back(backend->create_twin(*d, opts, fmt));
  }
  cuda::ThreadContext& ctx = backend->context();
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  void* dst = ctx.device(&state, 0, std::size_t(ref.stride(0)) * fmt.height);
  NullSink sink;
  double up_ms = 0, twin_ms[3] = {0, 0, 0};
  unsigned index = 0;
  for (auto _ : state) {
    cudaEventRecord(e0, ctx.stream());
    cudaMemcpyAsync(dst, ref.plane(0).data, std::size_t(ref.stride(0)) * fmt.height, cudaMemcpyHostToDevice,
                    ctx.stream());
    cudaMemcpyAsync(dst, dis.plane(0).data, std::size_t(dis.stride(0)) * fmt.height, cudaMemcpyHostToDevice,
                    ctx.stream());
    cudaEventRecord(e1, ctx.stream());
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    up_ms += ms;
    // Planes of this frame into the thread's cache, then the timed extracts.
    ctx.plane(ref, index, 0);
    ctx.plane(dis, index, 0);
    ctx.sync("bench");
    for (int k = 0; k < 3; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      twins[k]->extract(ref, dis, index, sink);
      twin_ms[k] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    ++index;
  }
  const double n = double(state.iterations());
  state.counters["upload_2luma_ms"] = up_ms / n;
  state.counters["vif_ms"] = twin_ms[0] / n;
  state.counters["adm_ms"] = twin_ms[1] / n;
  state.counters["motion_ms"] = twin_ms[2] / n;  // includes its own upload of the reference
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
}
// GPU time of the VIF and motion kernels alone (CUDA events around the
// launches, planes already on the device), per frame.
void BM_Kernels(benchmark::State& state) {
  auto* backend = dynamic_cast<cuda::CudaBackend*>(cuda_backend().get());
  if (!backend) {
    state.SkipWithError("no CUDA backend/device");
    return;
  }
  const PictureFormat fmt{int(state.range(0)), int(state.range(1)), int(state.range(2)), ChromaFormat::k420};
  const Sources& src = sources(fmt, 1);
  cuda::ThreadContext& ctx = backend->context();
  const std::size_t bytes = std::size_t(src.ref[0].stride(0)) * fmt.height;
  void* r = ctx.device(&state, 0, bytes);
  void* d = ctx.device(&state, 1, bytes);
  cudaMemcpy(r, src.ref[0].plane(0).data, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d, src.dis[0].plane(0).data, bytes, cudaMemcpyHostToDevice);
  const std::size_t n1 = std::size_t(fmt.width / 2) * (fmt.height / 2);
  auto* levels = static_cast<std::uint16_t*>(ctx.device(&state, 2, 4 * n1 * sizeof(std::uint16_t)));
  auto* acc = static_cast<long long*>(ctx.device(&state, 3, 16 * sizeof(long long)));
  auto* rows = static_cast<std::uint32_t*>(ctx.device(&state, 4, std::size_t(fmt.height) * 4));
  auto* total = static_cast<unsigned long long*>(ctx.device(&state, 5, 8));
  const int bps = fmt.bpc > 8 ? 2 : 1;
  cudaEvent_t e0, e1, e2;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventCreate(&e2);
  double vif_ms = 0, motion_ms = 0;
  for (auto _ : state) {
    cudaEventRecord(e0, ctx.stream());
    cudaMemsetAsync(acc, 0, 16 * sizeof(long long), ctx.stream());
    cuda::vif::launch(r, d, src.ref[0].stride(0) / bps, fmt.width, fmt.height, fmt.bpc, 100.0, false, vmafx_vif_filter,
                      levels, acc, false, ctx.stream());
    cudaEventRecord(e1, ctx.stream());
    cuda::motion::launch_sad(r, d, src.ref[0].stride(0) / bps, fmt.width, fmt.height, fmt.bpc, rows, total,
                             ctx.stream());
    cudaEventRecord(e2, ctx.stream());
    cudaEventSynchronize(e2);
    float a = 0, b = 0;
    cudaEventElapsedTime(&a, e0, e1);
    cudaEventElapsedTime(&b, e1, e2);
    vif_ms += a;
    motion_ms += b;
  }
  state.counters["vif_gpu_ms"] = vif_ms / double(state.iterations());
  state.counters["motion_gpu_ms"] = motion_ms / double(state.iterations());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaEventDestroy(e2);
}
BENCHMARK(BM_Kernels)
    ->Args({1920, 1080, 8})
    ->Args({3840, 2160, 8})
    ->Args({3840, 2160, 10})
    ->Iterations(200)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_Split)
    ->Args({1920, 1080, 8})
    ->Args({3840, 2160, 8})
    ->Args({3840, 2160, 10})
    ->Iterations(200)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
#endif

// 10,000 frames at 1920x1080 through the CUDA backend; VmRSS sampled every
// 1000 frames. Fails when it grows by more than 16 MiB after frame 1000 (the
// collector's per-frame values take well under 1 MiB).
// A failed check (not a missing device, which skips): the binary exits 1.
bool g_check_failed = false;
long g_rss_limit_kib = 16 * 1024;  // --rss-limit-kib=N (0 shows that a failure exits 1)

void BM_RssFlat(benchmark::State& state) {
  Backend* backend = cuda_backend().get();
  if (!backend) {
    state.SkipWithError("no CUDA backend/device");
    return;
  }
  const PictureFormat fmt{1920, 1080, 8, ChromaFormat::k420};
  long first = -1, last = -1, peak = -1;
  for (auto _ : state) {
    run_engine(fmt, backend, 8, 10000, [&](int frame) {
      const long r = rss_kb();
      std::fprintf(stderr, "rss: frame %d VmRSS %ld kB\n", frame, r);
      if (frame == 1000) first = r;
      last = r;
      peak = std::max(peak, r);
    });
  }
  state.counters["rss_kb_at_1000"] = double(first);
  state.counters["rss_kb_at_10000"] = double(last);
  state.counters["rss_kb_peak"] = double(peak);
  if (last - first > g_rss_limit_kib) {
    g_check_failed = true;
    state.SkipWithError("host memory grew by more than the limit over 9000 frames");
  }
}
BENCHMARK(BM_RssFlat)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vmafx

// BENCHMARK_MAIN, but a failed check is a non-zero exit (SkipWithError alone
// leaves it 0, and device-check.sh would not see the failure).
int main(int argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--rss-limit-kib=", 16) == 0)
      vmafx::g_rss_limit_kib = std::strtol(argv[i] + 16, nullptr, 10);
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (vmafx::g_check_failed) {
    std::fprintf(stderr, "cuda_bench: a check failed (see the benchmark's error above)\n");
    return 1;
  }
  return 0;
}
