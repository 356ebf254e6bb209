// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL program-binary cache (backend/opencl/program_cache.hpp): SHA-256
// against FIPS 180-4's examples, the file format's checks, and on a device
// (PoCL in CI): a cold run stores one entry per program, a warm run loads
// every program from them and scores the very doubles of a source build, a
// damaged entry is rebuilt and rewritten, VMAFX_OPENCL_CACHE=0 writes
// nothing, an unusable directory still scores (quietly), and processes that
// start together on an empty cache all score and leave whole entries. The
// cache is always a temporary directory, never the user's. Device tests skip
// only where no OpenCL device is listed.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "core/env.hpp"
#include "support/golden.hpp"
#ifdef VMAFX_HAVE_OPENCL
#include "backend/opencl/opencl_runtime.hpp"
#include "backend/opencl/program_cache.hpp"
#endif

namespace vmafx {
namespace {

#ifdef VMAFX_HAVE_OPENCL
namespace fs = std::filesystem;
using ocl::cache::Digest;

std::string sha(std::string_view s) {
  ocl::cache::Sha256 h;
  h.update(s);
  return ocl::cache::hex(h.finish());
}

TEST(OpenclProgramCache, Sha256MatchesTheStandardsExamples) {
  EXPECT_EQ(sha(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // A million 'a' fed in uneven pieces: the block buffering and the direct path.
  ocl::cache::Sha256 h;
  const std::string a(1000, 'a');
  std::size_t left = 1000000, step = 1;
  while (left > 0) {
    const std::size_t n = std::min({left, step, a.size()});
    h.update(a.data(), n);
    left -= n;
    step = step * 7 % 997 + 1;
  }
  EXPECT_EQ(ocl::cache::hex(h.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(OpenclProgramCache, KeyCoversEveryPart) {
  const ocl::cache::KeyParts base{"plat", "OpenCL 3.0", "dev", "OpenCL 3.0 dev", "1.0", "-cl-std=CL1.2", "src"};
  const Digest k = ocl::cache::program_key(base);
  EXPECT_EQ(ocl::cache::program_key(base), k);
  std::set<Digest> seen{k};
  for (int i = 0; i < 7; ++i) {
    ocl::cache::KeyParts p = base;
    std::string_view* f[] = {&p.platform_name,  &p.platform_version, &p.device_name, &p.device_version,
                             &p.driver_version, &p.build_options,    &p.source};
    *f[i] = "changed";
    EXPECT_TRUE(seen.insert(ocl::cache::program_key(p)).second) << "part " << i;
  }
  // Lengths are hashed: moving a byte from one part to the next is another key.
  ocl::cache::KeyParts a = base, b = base;
  a.device_name = "ab";
  a.device_version = "c";
  b.device_name = "a";
  b.device_version = "bc";
  EXPECT_NE(ocl::cache::program_key(a), ocl::cache::program_key(b));
  EXPECT_EQ(ocl::cache::entry_path("/d", "vif.cl", k), "/d/vif-" + ocl::cache::hex(k, 16) + ".clbin");
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vmafx_clcache_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  static void spit(const fs::path& p, const std::string& bytes) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f << bytes;
  }
  // The cache's entries (*.clbin) and anything else left in `d`.
  static std::vector<fs::path> entries(const fs::path& d, std::vector<fs::path>* others = nullptr) {
    std::vector<fs::path> v;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d, ec)) {
      if (e.path().extension() == ".clbin")
        v.push_back(e.path());
      else if (others)
        others->push_back(e.path());
    }
    std::sort(v.begin(), v.end());
    return v;
  }

  fs::path dir_;
};

using OpenclProgramCacheFile = TempDir;

TEST_F(OpenclProgramCacheFile, StoresLoadsAndRejectsDamage) {
  const Digest key = ocl::cache::program_key({"p", "1", "d", "1", "1", "", "kernel void k() {}"});
  const std::string path = ocl::cache::entry_path((dir_ / "new" / "sub").string(), "k.cl", key);
  const std::string binary(1000, 'b');
  std::string why;
  ASSERT_TRUE(ocl::cache::store(path, key, binary, "a remark", why)) << why;
  EXPECT_EQ(fs::file_size(path), ocl::cache::kHeaderBytes + binary.size() + 8);
  std::optional<ocl::cache::Entry> e = ocl::cache::load(path, key, why);
  ASSERT_TRUE(e) << why;
  EXPECT_EQ(e->binary, binary);
  EXPECT_EQ(e->log, "a remark");
  std::vector<fs::path> others;
  EXPECT_EQ(entries(fs::path(path).parent_path(), &others).size(), 1u);
  EXPECT_TRUE(others.empty()) << others.front();  // no temporary file left

  // No file: a plain miss.
  EXPECT_FALSE(ocl::cache::load(path + ".none", key, why));
  EXPECT_EQ(why, "");

  const std::string good = slurp(path);
  auto rejected = [&](const std::string& bytes, const Digest& k) {
    spit(path, bytes);
    std::string w;
    EXPECT_FALSE(ocl::cache::load(path, k, w));
    return w;
  };
  EXPECT_NE(rejected(good.substr(0, good.size() - 1), key).find("payload bytes, its header says"), std::string::npos);
  EXPECT_NE(rejected(good.substr(0, 40), key).find("is truncated (40 bytes)"), std::string::npos);
  EXPECT_NE(rejected(good + "x", key).find("payload bytes, its header says"), std::string::npos);
  std::string flipped = good;
  flipped[ocl::cache::kHeaderBytes + 10] ^= 1;
  EXPECT_NE(rejected(flipped, key).find("does not match its digest"), std::string::npos);
  std::string magic = good;
  magic[0] = 'X';
  EXPECT_NE(rejected(magic, key).find("is not a program-cache file"), std::string::npos);
  std::string version = good;
  version[8] = 2;
  EXPECT_NE(rejected(version, key).find("has format version 2"), std::string::npos);
  Digest other = key;
  other[31] ^= 1;
  EXPECT_NE(rejected(good, other).find("holds another key"), std::string::npos);
  EXPECT_NE(rejected("", key).find("is truncated (0 bytes)"), std::string::npos);

  // A directory that cannot be made (under a regular file): false, with why.
  spit(dir_ / "plain", "x");
  EXPECT_FALSE(
      ocl::cache::store(ocl::cache::entry_path((dir_ / "plain" / "sub").string(), "k.cl", key), key, binary, "", why));
  EXPECT_NE(why.find("cannot create the directory"), std::string::npos) << why;
}

// ---- On a device -----------------------------------------------------------------

const std::vector<FeatureRequest> kFeatures = {{"vif", {}}, {"adm", {}}, {"motion", {}}, {"float_ssim", {}}};

// Every value of `a` and `b`, compared with ==.
void expect_same_scores(const FeatureCollector& a, const FeatureCollector& b, const char* what) {
  ASSERT_EQ(a.all().size(), b.all().size()) << what;
  ASSERT_GE(a.all().size(), 4u);
  for (std::size_t k = 0; k < a.all().size(); ++k) {
    const auto& x = a.all()[k];
    const auto& y = b.all()[k];
    ASSERT_EQ(x.name, y.name) << what;
    ASSERT_EQ(x.value.size(), y.value.size()) << what << " " << x.name;
    for (std::size_t i = 0; i < x.value.size(); ++i) EXPECT_EQ(x.value[i], y.value[i]) << what << " " << x.name;
  }
}

class OpenclProgramCacheDevice : public TempDir {
 protected:
  void SetUp() override {
    if (list_opencl_devices().empty()) GTEST_SKIP() << "no OpenCL device";
    TempDir::SetUp();
  }
  void TearDown() override {
    // Later tests in this process get programs as the environment says.
    if (!list_opencl_devices().empty()) ocl::Device::get(0).reset_programs(env::opencl_cache_dir());
    TempDir::TearDown();
  }
  // A fresh process's programs (cache in `cache`, "" for none), then a run.
  static FeatureCollector score(const std::string& cache) {
    ocl::Device::get(0).reset_programs(cache);
    const std::unique_ptr<Backend> b = create_backend("opencl", 0);
    return test::run_features(test::golden_pair("astro176__noise"), kFeatures,
                              {.threads = 2, .backend = b.get(), .cpu_fallback = false});
  }
  // The program of each entry in `d` (its file name's stem + ".cl").
  static std::vector<std::string> programs_of(const fs::path& d) {
    std::vector<std::string> v;
    for (const fs::path& p : entries(d)) {
      const std::string s = p.stem().string();
      v.push_back(s.substr(0, s.rfind('-')) + ".cl");
    }
    return v;
  }
};

TEST_F(OpenclProgramCacheDevice, ColdRunStoresWarmRunLoadsSameScores) {
  ocl::Device& dev = ocl::Device::get(0);
  const FeatureCollector source = score("");
  EXPECT_TRUE(entries(dir_).empty());

  const FeatureCollector cold = score(dir_.string());
  const std::vector<std::string> progs = programs_of(dir_);
  ASSERT_GE(progs.size(), 4u);  // vif, adm, motion, float_ssim (and what they share)
  for (const std::string& p : progs) {
    const ocl::ProgramRecord r = dev.program_record(p);
    EXPECT_FALSE(r.from_cache) << p;
    EXPECT_TRUE(r.stored) << p;
    EXPECT_EQ(r.cache_problem, "") << p;
  }
  std::vector<fs::path> others;
  const std::vector<fs::path> files = entries(dir_, &others);
  EXPECT_TRUE(others.empty()) << others.front();
  std::map<fs::path, std::string> bytes;
  for (const fs::path& f : files) bytes[f] = slurp(f);

  const FeatureCollector warm = score(dir_.string());
  for (const std::string& p : progs) {
    const ocl::ProgramRecord r = dev.program_record(p);
    EXPECT_TRUE(r.from_cache) << p;
    EXPECT_FALSE(r.stored) << p;
    EXPECT_EQ(r.cache_problem, "") << p;
  }
  EXPECT_EQ(entries(dir_), files);  // nothing new, nothing rewritten
  for (const fs::path& f : files) EXPECT_EQ(slurp(f), bytes[f]) << f;
  // The build log comes back with the binary.
  for (const std::string& p : progs) EXPECT_EQ(dev.build_log(p).find("double"), std::string::npos) << p;

  expect_same_scores(source, cold, "cold cache vs no cache");
  expect_same_scores(source, warm, "warm cache vs no cache");
  const std::string report = dev.take_program_report();
  EXPECT_NE(report.find("opencl programs: " + std::to_string(progs.size()) + " from the cache"), std::string::npos)
      << report;
  EXPECT_NE(report.find("0 built from source"), std::string::npos) << report;
}

TEST_F(OpenclProgramCacheDevice, DamagedEntriesAreRebuiltAndRewritten) {
  ocl::Device& dev = ocl::Device::get(0);
  const FeatureCollector cold = score(dir_.string());
  const std::vector<fs::path> files = entries(dir_);
  const std::vector<std::string> progs = programs_of(dir_);
  ASSERT_GE(files.size(), 4u);
  std::map<fs::path, std::string> good;
  for (const fs::path& f : files) good[f] = slurp(f);
  // 0: cut short; 1: a payload byte flipped; 2: a whole entry (valid header
  // and digest) whose binary the driver must refuse; 3: empty.
  spit(files[0], good[files[0]].substr(0, good[files[0]].size() / 2));
  std::string flipped = good[files[1]];
  flipped[ocl::cache::kHeaderBytes + 3] ^= 0x40;
  spit(files[1], flipped);
  {
    const std::string& g = good[files[2]];
    Digest key;
    std::copy(g.begin() + 16, g.begin() + 48, key.begin());
    std::string why;
    ASSERT_TRUE(ocl::cache::store(files[2].string(), key, "this is not a program binary", "", why)) << why;
  }
  spit(files[3], "");

  const FeatureCollector again = score(dir_.string());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const ocl::ProgramRecord r = dev.program_record(progs[i]);
    if (i < 4) {
      EXPECT_FALSE(r.from_cache) << progs[i];
      EXPECT_TRUE(r.stored) << progs[i];
      EXPECT_EQ(r.cache_problem.rfind("entry not used: ", 0), 0u) << progs[i] << ": " << r.cache_problem;
    } else {
      EXPECT_TRUE(r.from_cache) << progs[i];
    }
  }
  // PoCL refuses such a binary in clCreateProgramWithBinary; NVIDIA takes it
  // there and fails it in clBuildProgram (CL_INVALID_BINARY, on the H100).
  const std::string bad = dev.program_record(progs[2]).cache_problem;
  EXPECT_TRUE(bad.find("the driver refused the binary (CL_INVALID_BINARY)") != std::string::npos ||
              bad.find("building the cached binary failed (CL_INVALID_BINARY)") != std::string::npos)
      << bad;
  // Rewritten whole; a source build of the same program gives the same binary
  // on PoCL, but that is no promise of OpenCL, so only the entries' validity counts.
  EXPECT_EQ(entries(dir_), files);
  for (const fs::path& f : files) {
    const std::string g = slurp(f);
    Digest key;
    std::copy(g.begin() + 16, g.begin() + 48, key.begin());
    std::string why;
    EXPECT_TRUE(ocl::cache::load(f.string(), key, why)) << f << ": " << why;
  }
  expect_same_scores(cold, again, "rebuilt vs cold");

  const FeatureCollector warm = score(dir_.string());
  for (const std::string& p : progs) EXPECT_TRUE(dev.program_record(p).from_cache) << p;
  expect_same_scores(cold, warm, "warm vs cold");
}

TEST_F(OpenclProgramCacheDevice, UnusableDirectoryStillScores) {
  ocl::Device& dev = ocl::Device::get(0);
  spit(dir_ / "plain", "x");
  const FeatureCollector source = score("");
  const FeatureCollector got = score((dir_ / "plain" / "cache").string());
  for (const char* p : {"vif.cl", "adm.cl", "motion.cl"}) {
    const ocl::ProgramRecord r = dev.program_record(p);
    EXPECT_FALSE(r.from_cache) << p;
    EXPECT_FALSE(r.stored) << p;
    EXPECT_NE(r.cache_problem.find("not stored: cannot create the directory"), std::string::npos) << r.cache_problem;
  }
  expect_same_scores(source, got, "unusable cache vs no cache");
}

// ---- The CLI, in separate processes ---------------------------------------------

class OpenclProgramCacheCli : public OpenclProgramCacheDevice {
 protected:
  struct Run {
    int status = -1;
    std::string err;
  };
  // `env` prefixes the command; stdout and stderr go to files named after `tag`.
  std::string command(const std::string& env, const std::string& tag) const {
    const std::string clips = std::string(VMAFX_TEST_DATA_DIR) + "/golden/clips/";
    return "env " + env + " '" + VMAFX_CLI_PATH + "' -r '" + clips + "astro176.ref.y4m' -d '" + clips +
           "astro176__noise.dis.y4m' --backend opencl --csv --precision max -o '" + (out_ / (tag + ".csv")).string() +
           "' >'" + (out_ / (tag + ".out")).string() + "' 2>'" + (out_ / (tag + ".err")).string() + "'";
  }
  Run run(const std::string& env, const std::string& tag) const {
    const int rc = std::system(command(env, tag).c_str());
    return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(out_ / (tag + ".err"))};
  }
  std::string csv(const std::string& tag) const { return slurp(out_ / (tag + ".csv")); }
  void SetUp() override {
    OpenclProgramCacheDevice::SetUp();
    if (IsSkipped()) return;
    out_ = dir_ / "out";
    cache_ = dir_ / "cache";
    fs::create_directories(out_);
  }
  fs::path out_, cache_;
};

TEST_F(OpenclProgramCacheCli, ProcessesStartingTogetherShareOneCache) {
  const std::string env = "VMAFX_STATS=1 VMAFX_OPENCL_CACHE_DIR='" + cache_.string() + "'";
  const Run source = run("VMAFX_STATS=1 VMAFX_OPENCL_CACHE=0 VMAFX_OPENCL_CACHE_DIR='" + cache_.string() + "'", "off");
  ASSERT_EQ(source.status, 0) << source.err;
  EXPECT_FALSE(fs::exists(cache_)) << "VMAFX_OPENCL_CACHE=0 wrote to the cache";
  EXPECT_NE(source.err.find("0 from the cache"), std::string::npos) << source.err;
  EXPECT_NE(source.err.find("0 stored; "), std::string::npos) << source.err;
  EXPECT_NE(source.err.find("cache: off"), std::string::npos) << source.err;

  // Four processes on an empty cache at once.
  std::string all;
  for (int i = 0; i < 4; ++i) {
    const std::string tag = "p" + std::to_string(i);
    all += "(" + command(env, tag) + "; echo $? >'" + (out_ / (tag + ".rc")).string() + "') & ";
  }
  all += "wait";
  ASSERT_EQ(std::system(all.c_str()), 0);
  for (int i = 0; i < 4; ++i) {
    const std::string tag = "p" + std::to_string(i);
    EXPECT_EQ(slurp(out_ / (tag + ".rc")), "0\n") << tag << ": " << slurp(out_ / (tag + ".err"));
    EXPECT_NE(csv(tag), "") << tag;
    EXPECT_EQ(csv(tag), csv("off")) << tag;
  }
  std::vector<fs::path> others;
  const std::vector<fs::path> files = entries(cache_, &others);
  ASSERT_GE(files.size(), 3u);                    // the default model's vif, adm and motion at least
  EXPECT_TRUE(others.empty()) << others.front();  // no temporary file left behind
  for (const fs::path& f : files) {
    const std::string g = slurp(f);
    ASSERT_GE(g.size(), ocl::cache::kHeaderBytes) << f;
    Digest key;
    std::copy(g.begin() + 16, g.begin() + 48, key.begin());
    std::string why;
    EXPECT_TRUE(ocl::cache::load(f.string(), key, why)) << f << ": " << why;
  }

  // Then one more: everything from the cache.
  const Run warm = run(env, "warm");
  ASSERT_EQ(warm.status, 0) << warm.err;
  EXPECT_NE(warm.err.find("opencl programs: " + std::to_string(files.size()) + " from the cache"), std::string::npos)
      << warm.err;
  EXPECT_NE(warm.err.find(", 0 built from source"), std::string::npos) << warm.err;
  EXPECT_EQ(csv("warm"), csv("off"));
}

TEST_F(OpenclProgramCacheCli, UnusableDirectoryIsQuietWithoutStats) {
  spit(dir_ / "plain", "x");
  const Run r = run("VMAFX_OPENCL_CACHE_DIR='" + (dir_ / "plain" / "cache").string() + "'", "quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("cache"), std::string::npos) << r.err;
  EXPECT_NE(csv("quiet"), "");
  const Run s = run("VMAFX_STATS=1 VMAFX_OPENCL_CACHE_DIR='" + (dir_ / "plain" / "cache").string() + "'", "stats");
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_NE(s.err.find("not stored: cannot create the directory"), std::string::npos) << s.err;
  EXPECT_EQ(csv("stats"), csv("quiet"));
}

// Both ways of waiting for OpenCL commands (ocl::wait_event) score the same:
// the driver's clWaitForEvents (the default) and a completion callback.
TEST_F(OpenclProgramCacheCli, CallbackWaitsScoreAsDriverWaits) {
  const std::string cache = "VMAFX_OPENCL_CACHE_DIR='" + cache_.string() + "'";
  const Run driver = run(cache + " VMAFX_OPENCL_WAIT=driver", "driver");
  ASSERT_EQ(driver.status, 0) << driver.err;
  const Run callback = run(cache + " VMAFX_OPENCL_WAIT=callback", "callback");
  ASSERT_EQ(callback.status, 0) << callback.err;
  EXPECT_NE(csv("driver").find("\n3,"), std::string::npos) << csv("driver");  // frames 0 to 3
  EXPECT_EQ(csv("callback"), csv("driver"));
  const Run bad = run(cache + " VMAFX_OPENCL_WAIT=spin", "bad");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("VMAFX_OPENCL_WAIT=spin"), std::string::npos) << bad.err;
}
#endif  // a build without the backend has no such tests

}  // namespace
}  // namespace vmafx
