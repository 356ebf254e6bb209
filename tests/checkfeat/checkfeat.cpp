// SPDX-License-Identifier: BSD-3-Clause
// checkfeat: every twin of every feature against the CPU reference, in the
// spirit of dav1d's checkasm. For each device backend of this build (CUDA,
// OpenCL) and each extractor configuration that the backend has a twin for,
// random and edge inputs (flat, max contrast, noise, odd sizes, every bit
// depth and chroma format, first/last frames for temporal features) are scored
// by both and every output is compared with ==. A mismatch prints a
// reproducer. `--bench` also prints the time per frame of the CPU and each twin.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/options.hpp"
#include "core/simd.hpp"
#include "io/video_reader.hpp"

namespace vmafx {
namespace {

bool g_bench = false;

struct Config {
  std::string extractor;
  std::map<std::string, std::string> opts;
  std::string label() const {
    std::string s = extractor;
    for (const auto& [k, v] : opts) s += ":" + k + "=" + v;
    return s;
  }
};

// The configurations checked for each twin (and each CPU SIMD target) come
// from the feature table (feature/registry.cpp, FeatureEntry::checks).
std::vector<Config> configs_of(const FeatureEntry& e) {
  std::vector<Config> out;
  for (std::string_view c : e.checks) out.push_back({std::string(e.desc->name), parse_option_string(c, e.desc->name)});
  if (out.empty()) out.push_back({std::string(e.desc->name), {}});
  return out;
}

enum class Content { kNoise, kFlat, kMaxContrast, kGradient, kIdentical, kBands };
const char* content_name(Content c) {
  switch (c) {
    case Content::kNoise: return "noise";
    case Content::kFlat: return "flat";
    case Content::kMaxContrast: return "maxcontrast";
    case Content::kGradient: return "gradient";
    case Content::kIdentical: return "identical";
    case Content::kBands: return "bands";
  }
  return "?";
}

struct Input {
  PictureFormat fmt;
  Content content;
  unsigned seed;
  int frames;
  std::string label() const {
    return std::to_string(fmt.width) + "x" + std::to_string(fmt.height) + " " + chroma_name(fmt.chroma) + " " +
           std::to_string(fmt.bpc) + "-bit " + content_name(content) + " seed=" + std::to_string(seed) +
           " frames=" + std::to_string(frames);
  }
};

std::vector<Input> inputs() {
  std::vector<Input> in;
  unsigned seed = 1;
  const std::pair<int, int> sizes[] = {{64, 48}, {65, 37}, {176, 144}, {241, 177}, {352, 288}};
  for (auto [w, h] : sizes)
    for (int bpc : {8, 10, 12, 16}) in.push_back({{w, h, bpc, ChromaFormat::k420}, Content::kNoise, seed++, 3});
  for (ChromaFormat c : {ChromaFormat::k422, ChromaFormat::k444})
    for (int bpc : {8, 10}) in.push_back({{97, 61, bpc, c}, Content::kNoise, seed++, 3});
  for (Content c : {Content::kFlat, Content::kMaxContrast, Content::kGradient, Content::kIdentical})
    for (int bpc : {8, 16}) in.push_back({{64, 64, bpc, ChromaFormat::k420}, c, seed++, 3});
  // Dark gradients in steps of one 10-bit code, a few pixels broken by
  // noise: banding (cambi's c-values are 0 on the other contents).
  for (int bpc : {8, 10, 16}) in.push_back({{256, 144, bpc, ChromaFormat::k420}, Content::kBands, seed++, 2});
  // Tiny and very thin frames: every pixel is a border pixel.
  in.push_back({{8, 8, 8, ChromaFormat::k444}, Content::kNoise, seed++, 2});
  in.push_back({{33, 9, 10, ChromaFormat::k420}, Content::kNoise, seed++, 2});
  // One longer run for temporal features.
  in.push_back({{96, 64, 8, ChromaFormat::k420}, Content::kNoise, seed++, 7});
  return in;
}

void fill(Picture& ref, Picture& dis, const Input& in, int frame, std::mt19937& rng) {
  const PictureFormat& f = in.fmt;
  const int maxv = (1 << f.bpc) - 1;
  std::uniform_int_distribution<int> any(0, maxv);
  std::uniform_int_distribution<int> delta(-maxv / 16, maxv / 16);
  for (int p = 0; p < f.plane_count(); ++p) {
    for (int y = 0; y < f.plane_height(p); ++y) {
      for (int x = 0; x < f.plane_width(p); ++x) {
        int r = 0, d = 0;
        switch (in.content) {
          case Content::kNoise:
            r = any(rng);
            d = std::clamp(r + delta(rng), 0, maxv);
            break;
          case Content::kFlat:
            r = maxv / 3;
            d = maxv / 3 + (frame & 1);
            break;
          case Content::kMaxContrast:
            r = ((x + y + frame) & 1) ? maxv : 0;
            d = ((x + y) & 1) ? 0 : maxv;
            break;
          case Content::kGradient:
            r = (x * maxv) / std::max(1, f.plane_width(p) - 1);
            d = (y * maxv) / std::max(1, f.plane_height(p) - 1);
            break;
          case Content::kIdentical:
            r = any(rng);
            d = r;
            break;
          case Content::kBands: {
            const int step = f.bpc > 10 ? 1 << (f.bpc - 10) : 1;
            r = maxv / 10 + ((x + frame) / 9 + y / 40) * step;
            d = maxv / 10 + (x / 13 + y / 25) * step;
            if (any(rng) % 61 == 0) r += step * (any(rng) % 5 - 2);
            if (any(rng) % 47 == 0) d += step * (any(rng) % 3 - 1);
            r = std::clamp(r, 0, maxv);
            d = std::clamp(d, 0, maxv);
            break;
          }
        }
        if (f.bpc == 8) {
          ref.row<std::uint8_t>(p, y)[x] = std::uint8_t(r);
          dis.row<std::uint8_t>(p, y)[x] = std::uint8_t(d);
        } else {
          ref.row<std::uint16_t>(p, y)[x] = std::uint16_t(r);
          dis.row<std::uint16_t>(p, y)[x] = std::uint16_t(d);
        }
      }
    }
  }
}

struct Outcome {
  bool ran = false;
  std::string error;
  FeatureCollector fc;
  double seconds = 0;
};

Outcome score(const Config& c, const Input& in, Backend* backend) {
  Outcome o;
  try {
    Engine e(in.fmt, {.threads = 0, .subsample = 1, .backend = backend, .cpu_fallback = false});
    e.use({c.extractor, c.opts});
    std::mt19937 rng(in.seed);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < in.frames; ++i) {
      auto a = e.acquire();
      auto b = e.acquire();
      fill(*a, *b, in, i, rng);
      e.push(std::move(a), std::move(b));
    }
    e.finish();
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    o.fc = std::move(e.collector());
    o.ran = true;
  } catch (const Error& err) {
    o.error = err.what();
  }
  return o;
}

std::string g17(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

struct Param {
  std::string backend;
  Config config;
};

void PrintTo(const Param& p, std::ostream* os) { *os << p.backend << " " << p.config.label(); }

class Twin : public ::testing::TestWithParam<Param> {};

// A "backend" of the matrix: cuda, opencl, or a CPU SIMD target ("simd:AVX2")
// whose whole-frame outputs are compared with the scalar loops'.
bool is_simd(const std::string& b) { return b.rfind("simd:", 0) == 0; }

TEST_P(Twin, EqualsCpuOnEveryInput) {
  const Param& p = GetParam();
  const ExtractorDescriptor* d = find_extractor(p.config.extractor);
  ASSERT_NE(d, nullptr) << p.config.extractor << " has no CPU reference: fix the feature table";
  std::unique_ptr<Backend> backend;
  std::int64_t target = 0;
  if (is_simd(p.backend)) {
    for (std::int64_t t : simd::targets())
      if (p.backend == std::string("simd:") + simd::target_name(t)) target = t;
    ASSERT_NE(target, 0) << p.backend << " is not a target of this CPU";
  } else {
    try {
      backend = create_backend(p.backend, 0);
    } catch (const Error& e) {
      // Skipped only where the backend lists no device at all; a backend that
      // lists a device and then fails to start is a failure.
      bool has_device = false;
      try {
        for (const std::string& dev : list_devices()) has_device |= dev.rfind(p.backend + " ", 0) == 0;
      } catch (const Error&) {}
      if (!has_device) GTEST_SKIP() << "no " << p.backend << " device: " << e.what();
      FAIL() << p.backend << " lists a device but does not start: " << e.what();
    }
    // Probe at a size every reference accepts (float_ms_ssim needs 176x176).
    OptionSet set(d->options, p.config.opts, d->name);
    // The feature table says this twin exists: a missing one is a regression, not a skip.
    ASSERT_NE(backend->create_twin(*d, set, {352, 288, 8, ChromaFormat::k420}), nullptr)
        << p.backend << " has no twin of " << p.config.label();
  }
  struct SimdScope {
    bool on;
    ~SimdScope() {
      if (on) {
        simd::force_target(0);
        simd::reset_enabled();
      }
    }
  } scope{target != 0};
  int compared_inputs = 0;
  std::size_t values = 0;
  for (const Input& in : inputs()) {
    if (target) simd::set_enabled(false);
    Outcome cpu = score(p.config, in, nullptr);
    if (target) {
      simd::set_enabled(true);
      simd::force_target(target);
    }
    Outcome gpu = score(p.config, in, backend.get());
    if (target) simd::force_target(0);
    if (!cpu.ran) {
      // The reference rejects this input (e.g. too small): the twin must too.
      EXPECT_FALSE(gpu.ran) << p.config.label() << " on " << in.label() << ": CPU refused (" << cpu.error
                            << ") but the twin scored it";
      continue;
    }
    ASSERT_TRUE(gpu.ran) << p.config.label() << " on " << in.label() << ": twin failed: " << gpu.error;
    ++compared_inputs;
    const auto& a = cpu.fc.all();
    const auto& b = gpu.fc.all();
    ASSERT_EQ(a.size(), b.size()) << p.config.label() << " on " << in.label() << ": different outputs";
    for (std::size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k].name, b[k].name) << in.label();
      ASSERT_EQ(a[k].written, b[k].written) << a[k].name << " on " << in.label();
      for (std::size_t i = 0; i < a[k].value.size(); ++i) {
        if (!a[k].written[i]) continue;
        ++values;
        const double x = a[k].value[i], y = b[k].value[i];
        EXPECT_TRUE(x == y || (x != x && y != y))
            << "MISMATCH " << p.backend << " " << a[k].name << " frame " << i << ": cpu " << g17(x) << " twin "
            << g17(y) << "\n  reproduce: vmafx_checkfeat --gtest_filter='*" << p.backend << "*' ; config "
            << p.config.label() << " ; input " << in.label();
      }
    }
    ASSERT_EQ(cpu.fc.aggregate(), gpu.fc.aggregate()) << in.label();
    if (g_bench) {
      const double px = double(in.fmt.width) * in.fmt.height * in.frames;
      std::printf("  bench %-40s %-36s cpu %8.3f ms/frame  %s %8.3f ms/frame  (%.1f Mpx)\n", p.config.label().c_str(),
                  in.label().c_str(), 1e3 * cpu.seconds / in.frames, p.backend.c_str(), 1e3 * gpu.seconds / in.frames,
                  px / 1e6);
    }
  }
  EXPECT_GT(compared_inputs, 0) << "no input was accepted by the reference";
  RecordProperty("values_compared", int(values));
}

std::vector<Param> params() {
  std::vector<Param> out;
  for (const FeatureEntry& e : feature_table()) {
    for (const Config& c : configs_of(e)) {
      if (e.has_cuda_twin) out.push_back({"cuda", c});
      if (e.has_opencl_twin) out.push_back({"opencl", c});
    }
  }
  // Every CPU feature on every SIMD target this CPU runs (the first of the
  // table's option sets: the defaults or what a model sets).
  for (std::int64_t t : simd::targets())
    for (const FeatureEntry& e : feature_table())
      out.push_back({std::string("simd:") + simd::target_name(t), configs_of(e)[0]});
  return out;
}

// The table and the harness agree: a twin without configurations, or a twin
// factory the table does not announce, is an error.
TEST(FeatureTable, EveryTwinHasHarnessConfigurations) {
  for (const FeatureEntry& e : feature_table()) {
    if (e.has_cuda_twin || e.has_opencl_twin)
      EXPECT_FALSE(e.checks.empty()) << e.desc->name << " has a twin but no checks";
    if (e.cuda) EXPECT_TRUE(e.has_cuda_twin) << e.desc->name;
    if (e.opencl) EXPECT_TRUE(e.has_opencl_twin) << e.desc->name;
    if (e.has_opencl_twin) EXPECT_FALSE(e.opencl_source.empty()) << e.desc->name;
#ifdef VMAFX_HAVE_CUDA
    EXPECT_EQ(e.cuda != nullptr, e.has_cuda_twin) << e.desc->name;
#endif
#ifdef VMAFX_HAVE_OPENCL
    EXPECT_EQ(e.opencl != nullptr, e.has_opencl_twin) << e.desc->name;
#endif
    for (const Config& c : configs_of(e)) {
      OptionSet set(e.desc->options, c.opts, e.desc->name);  // every check parses
      (void)set;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, Twin, ::testing::ValuesIn(params()), [](const ::testing::TestParamInfo<Param>& i) {
  std::string n = i.param.backend + "_" + i.param.config.label();
  // labels must be unique: simd rows get the target, twins the backend
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
});

}  // namespace
}  // namespace vmafx

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--bench") == 0) vmafx::g_bench = true;
  return RUN_ALL_TESTS();
}
