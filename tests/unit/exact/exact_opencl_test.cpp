// SPDX-License-Identifier: BSD-3-Clause
// src/exact on an OpenCL device (PoCL here): the program is built from the
// embedded shared headers (the very files the host compiles) and the test
// kernels, with no fp64 anywhere and FP_CONTRACT OFF, and runs the vectors of
// the host tests. Results are compared bit for bit with the host's IEEE fp64
// and with the reference expressions.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "exact_reference.h"
#include "exact_vectors.h"

#if defined(VMAFX_HAVE_OPENCL) && defined(VMAFX_EXACT_EMBEDDED)
#include <CL/cl.h>

#include "core/embedded.hpp"
#include "exact/ssim_term.h"
#include "exact/vif_gain.h"

namespace vmafx {
extern const EmbeddedFile kExactClSources[];
extern const std::size_t kExactClSources_count;
}  // namespace vmafx
#endif

namespace {

using namespace vmafx::exact_test;

#if defined(VMAFX_HAVE_OPENCL) && defined(VMAFX_EXACT_EMBEDDED)

const vmafx::EmbeddedFile* find_source(const std::string& name) {
  for (std::size_t i = 0; i < vmafx::kExactClSources_count; ++i)
    if (name == vmafx::kExactClSources[i].name) return &vmafx::kExactClSources[i];
  return nullptr;
}

// Inlines every #include "file" from the embedded table, each file once; the
// includes inside inactive #if branches (the host and CUDA shims) are inlined
// as well and stay inactive. <...> includes are left as they are.
bool expand(const std::string& name, std::set<std::string>& seen, std::string& out, std::string& err) {
  if (!seen.insert(name).second) return true;
  const vmafx::EmbeddedFile* f = find_source(name);
  if (!f) {
    err = "missing embedded source " + name;
    return false;
  }
  const std::string text(f->view());
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    const std::size_t inc = line.find("#include \"");
    if (inc != std::string::npos && line.find_first_not_of(" \t") == inc) {
      const std::size_t q = line.find('"', inc + 10);
      if (!expand(line.substr(inc + 10, q - inc - 10), seen, out, err)) return false;
    } else {
      out += line;
      out += '\n';
    }
    pos = end + 1;
  }
  return true;
}

std::string program_source(std::string& err) {
  std::set<std::string> seen;
  std::string out;
  if (!expand("exact_test_kernels.cl", seen, out, err)) return {};
  return out;
}

// One device, context, queue and program for the whole suite.
struct Cl {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context ctx = nullptr;
  cl_command_queue queue = nullptr;
  cl_program prog = nullptr;
  std::string skip, error, device_name;

  Cl() {
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) {
      skip = "no OpenCL platform";
      return;
    }
    std::vector<cl_platform_id> ps(np);
    clGetPlatformIDs(np, ps.data(), nullptr);
    for (cl_platform_id p : ps) {
      cl_uint nd = 0;
      if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, &nd) == CL_SUCCESS && nd > 0) {
        platform = p;
        break;
      }
      device = nullptr;
    }
    if (!device) {
      skip = "no OpenCL device";
      return;
    }
    char name[256] = {0};
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    device_name = name;
    cl_int e = CL_SUCCESS;
    ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
    if (e != CL_SUCCESS) {
      error = "clCreateContext failed: " + std::to_string(e);
      return;
    }
    queue = clCreateCommandQueue(ctx, device, 0, &e);
    if (e != CL_SUCCESS) {
      error = "clCreateCommandQueue failed: " + std::to_string(e);
      return;
    }
    std::string src = program_source(error);
    if (src.empty()) return;
    const char* text = src.c_str();
    const size_t len = src.size();
    prog = clCreateProgramWithSource(ctx, 1, &text, &len, &e);
    if (e != CL_SUCCESS) {
      error = "clCreateProgramWithSource failed: " + std::to_string(e);
      return;
    }
    if (clBuildProgram(prog, 1, &device, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) {
      size_t n = 0;
      clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
      std::string log(n, '\0');
      clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
      error = "build failed:\n" + log;
    }
  }
  ~Cl() {
    if (prog) clReleaseProgram(prog);
    if (queue) clReleaseCommandQueue(queue);
    if (ctx) clReleaseContext(ctx);
  }

  cl_mem in(const void* p, size_t bytes) {
    cl_int e;
    cl_mem m =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes ? bytes : 1, const_cast<void*>(p), &e);
    EXPECT_EQ(e, CL_SUCCESS);
    return m;
  }
  cl_mem out(size_t bytes) {
    cl_int e;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes ? bytes : 1, nullptr, &e);
    EXPECT_EQ(e, CL_SUCCESS);
    return m;
  }
  void read(cl_mem m, void* p, size_t bytes) {
    ASSERT_EQ(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, p, 0, nullptr, nullptr), CL_SUCCESS);
  }
  // Runs `name` over n items with the arguments set by `set_args`.
  template <class F>
  void run(const char* name, size_t n, F&& set_args) {
    cl_int e;
    cl_kernel k = clCreateKernel(prog, name, &e);
    ASSERT_EQ(e, CL_SUCCESS) << name;
    set_args(k);
    const size_t local = 64, global = (n + local - 1) / local * local;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    clReleaseKernel(k);
  }
};

Cl& cl() {
  static Cl instance;
  return instance;
}

#define VMAFX_NEED_CL()                                \
  do {                                                 \
    if (!cl().skip.empty()) GTEST_SKIP() << cl().skip; \
    ASSERT_TRUE(cl().error.empty()) << cl().error;     \
  } while (0)

template <class T>
void arg(cl_kernel k, cl_uint i, const T& v) {
  ASSERT_EQ(clSetKernelArg(k, i, sizeof(T), &v), CL_SUCCESS) << "argument " << i;
}

TEST(OpenClExact, ProgramSourceIsFp64Free) {
  std::string err;
  const std::string src = program_source(err);
  ASSERT_FALSE(src.empty()) << err;
  EXPECT_EQ(src.find("double"), std::string::npos);
  EXPECT_EQ(src.find("cl_khr_fp64"), std::string::npos);
  EXPECT_EQ(src.find("mul_hi"), std::string::npos);  // 64-bit products come from 32-bit limbs
  EXPECT_NE(src.find("#pragma OPENCL FP_CONTRACT OFF"), std::string::npos);
  // the shared headers themselves were inlined
  for (const char* h : {"softfp64.h", "int128.h", "ssim_term.h", "ssim_tables.h", "vif_gain.h", "vif_tables.h",
                        "fixed_decimate.h", "compat_opencl.h"})
    EXPECT_NE(find_source(h), nullptr) << h;
}

// Binary operations on n pairs; returns mismatches, with repro lines.
size_t device_binop(int op, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, std::string& repro) {
  const size_t n = a.size();
  std::vector<uint64_t> r(n);
  cl_mem ba = cl().in(a.data(), n * 8), bb = cl().in(b.data(), n * 8), br = cl().out(n * 8);
  const cl_uint nn = (cl_uint)n;
  const cl_int o = op;
  cl().run("sd_binop", n, [&](cl_kernel k) {
    arg(k, 0, o);
    arg(k, 1, ba);
    arg(k, 2, bb);
    arg(k, 3, br);
    arg(k, 4, nn);
  });
  cl().read(br, r.data(), n * 8);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(br);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t want = host_binop(op, a[i], b[i]);
    if (!same_result(r[i], want, is_nan_bits(a[i]) || is_nan_bits(b[i]))) {
      if (bad++ < 8) {
        char line[200];
        std::snprintf(line, sizeof line,
                      "  %s(0x%016" PRIx64 ", 0x%016" PRIx64 ") = 0x%016" PRIx64 ", host 0x%016" PRIx64 "\n",
                      binop_name(op), a[i], b[i], r[i], want);
        repro += line;
      }
    }
  }
  return bad;
}

// The same count as the host test by default; VMAFX_EXACT_DEVICE_PAIRS
// overrides it for slow devices.
size_t device_pairs() { return env_count("VMAFX_EXACT_DEVICE_PAIRS", binop_random_count()); }

TEST(OpenClExact, BinaryOperationsMatchHost) {
  VMAFX_NEED_CL();
  const size_t total = device_pairs();
  for (int op = kAdd; op <= kDiv; ++op) {
    std::string repro;
    size_t bad = 0;
    std::vector<uint64_t> a(kChunk), b(kChunk);
    for (size_t chunk = 0, done = 0; done < total; ++chunk) {
      const size_t n = std::min(kChunk, total - done);
      a.resize(n);
      b.resize(n);
      fill_binop_random(op, chunk, n, a.data(), b.data());
      bad += device_binop(op, a, b, repro);
      done += n;
    }
    std::vector<uint64_t> sa, sb;
    binop_structured(op, sa, sb);
    bad += device_binop(op, sa, sb, repro);
    EXPECT_EQ(bad, 0u) << binop_name(op) << " on " << cl().device_name << ", " << total << " random + " << sa.size()
                       << " structured pairs:\n"
                       << repro;
    std::printf("[ %s ] %s: %zu random + %zu structured pairs, %zu mismatches\n", cl().device_name.c_str(),
                binop_name(op), total, sa.size(), bad);
  }
}

TEST(OpenClExact, ConversionsAndComparisonsMatchHost) {
  VMAFX_NEED_CL();
  const std::vector<uint64_t> v = int_vectors(device_pairs());
  const size_t n = v.size();
  std::vector<uint64_t> ru(n), ri(n);
  {
    cl_mem bv = cl().in(v.data(), n * 8), bu = cl().out(n * 8), bi = cl().out(n * 8);
    const cl_uint nn = (cl_uint)n;
    cl().run("sd_from_int", n, [&](cl_kernel k) {
      arg(k, 0, bv);
      arg(k, 1, bu);
      arg(k, 2, bi);
      arg(k, 3, nn);
    });
    cl().read(bu, ru.data(), n * 8);
    cl().read(bi, ri.data(), n * 8);
    clReleaseMemObject(bv);
    clReleaseMemObject(bu);
    clReleaseMemObject(bi);
  }
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += ru[i] != dbits((double)v[i]) || ri[i] != dbits((double)(int64_t)v[i]);
  EXPECT_EQ(bad, 0u) << "int64/uint64 conversions";

  const std::vector<uint64_t> t = trunc_vectors(2000000);
  std::vector<int64_t> r64(t.size());
  std::vector<int32_t> r32(t.size());
  {
    cl_mem bt = cl().in(t.data(), t.size() * 8), b64 = cl().out(t.size() * 8), b32 = cl().out(t.size() * 4);
    const cl_uint nn = (cl_uint)t.size();
    cl().run("sd_to_int", t.size(), [&](cl_kernel k) {
      arg(k, 0, bt);
      arg(k, 1, b64);
      arg(k, 2, b32);
      arg(k, 3, nn);
    });
    cl().read(b64, r64.data(), t.size() * 8);
    cl().read(b32, r32.data(), t.size() * 4);
    clReleaseMemObject(bt);
    clReleaseMemObject(b64);
    clReleaseMemObject(b32);
  }
  bad = 0;
  for (size_t i = 0; i < t.size(); ++i)
    bad += r64[i] != x86_trunc_i64(dval(t[i])) || r32[i] != x86_trunc_i32(dval(t[i]));
  EXPECT_EQ(bad, 0u) << "truncating conversions";

  std::vector<uint64_t> a(kChunk), b(kChunk);
  fill_binop_random(kSub, 0, kChunk, a.data(), b.data());
  std::vector<int> rc(kChunk);
  {
    cl_mem ba = cl().in(a.data(), kChunk * 8), bb = cl().in(b.data(), kChunk * 8), bc = cl().out(kChunk * 4);
    const cl_uint nn = (cl_uint)kChunk;
    cl().run("sd_compare", kChunk, [&](cl_kernel k) {
      arg(k, 0, ba);
      arg(k, 1, bb);
      arg(k, 2, bc);
      arg(k, 3, nn);
    });
    cl().read(bc, rc.data(), kChunk * 4);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
  }
  bad = 0;
  for (size_t i = 0; i < kChunk; ++i) {
    const double x = dval(a[i]), y = dval(b[i]);
    bad += rc[i] != ((x == y) | (x < y) << 1 | (x <= y) << 2 | (y < x) << 3);
  }
  EXPECT_EQ(bad, 0u) << "comparisons";
}

class OpenClExactDepth : public ::testing::TestWithParam<int> {};

TEST_P(OpenClExactDepth, SsimTermMatchesReference) {
  VMAFX_NEED_CL();
  const int depth = GetParam();
  const std::vector<SsimMoments> v = ssim_vectors(depth, env_count("VMAFX_EXACT_WINDOWS", 1000000));
  const size_t n = v.size();
  static_assert(sizeof(SsimMoments) == 48, "six int64 moments");
  std::vector<uint64_t> r(n);
  cl_mem bm = cl().in(v.data(), n * sizeof(SsimMoments)), br = cl().out(n * 8);
  const cl_ulong k1f = vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K1_BITS);
  const cl_ulong k2f = vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K2_BITS);
  const cl_uint nn = (cl_uint)n;
  cl().run("ssim_term", n, [&](cl_kernel k) {
    arg(k, 0, bm);
    arg(k, 1, k1f);
    arg(k, 2, k2f);
    arg(k, 3, br);
    arg(k, 4, nn);
  });
  cl().read(br, r.data(), n * 8);
  clReleaseMemObject(bm);
  clReleaseMemObject(br);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += !same_result(r[i], dbits(ref_ssim_term(v[i], depth)), true);
  EXPECT_EQ(bad, 0u) << "of " << n << " windows";
  std::printf("[ %s ] ssim term, %d bits: %zu windows, %zu mismatches\n", cl().device_name.c_str(), depth, n, bad);
}

TEST_P(OpenClExactDepth, VifGainMatchesReference) {
  VMAFX_NEED_CL();
  const int depth = GetParam();
  const std::vector<VifSample> v = vif_vectors(depth, env_count("VMAFX_EXACT_WINDOWS", 1000000));
  static_assert(sizeof(VifSample) == 12, "three int32");
  const std::vector<uint64_t> limits = vif_limits();
  for (size_t li = 0; li < limits.size(); ++li) {
    const size_t n = li < 2 ? v.size() : std::min<size_t>(v.size(), 100000);
    std::vector<int32_t> sv(n), rep(n);
    std::vector<int64_t> gg(n);
    cl_mem bs = cl().in(v.data(), n * 12), bsv = cl().out(n * 4), bgg = cl().out(n * 8), brp = cl().out(n * 4);
    const cl_ulong lb = limits[li];
    const cl_uint nn = (cl_uint)n;
    cl().run("vif_gain", n, [&](cl_kernel k) {
      arg(k, 0, bs);
      arg(k, 1, lb);
      arg(k, 2, bsv);
      arg(k, 3, bgg);
      arg(k, 4, brp);
      arg(k, 5, nn);
    });
    cl().read(bsv, sv.data(), n * 4);
    cl().read(bgg, gg.data(), n * 8);
    cl().read(brp, rep.data(), n * 4);
    clReleaseMemObject(bs);
    clReleaseMemObject(bsv);
    clReleaseMemObject(bgg);
    clReleaseMemObject(brp);
    size_t bad = 0, replayed = 0;
    for (size_t i = 0; i < n; ++i) {
      const VifGainRef want = ref_vif_gain(v[i].s1, v[i].s12, v[i].s2, dval(limits[li]));
      bad += sv[i] != want.sv_sq || gg[i] != want.gg;
      replayed += rep[i];
    }
    EXPECT_EQ(bad, 0u) << "limit " << dval(limits[li]) << ", " << n << " samples";
    if (li < 2)
      std::printf("[ %s ] vif gain, %d bits, limit %g: %zu samples (%zu replayed), %zu mismatches\n",
                  cl().device_name.c_str(), depth, dval(limits[li]), n, replayed, bad);
  }
}

TEST_P(OpenClExactDepth, DecimationMatchesReference) {
  VMAFX_NEED_CL();
  const int bpc = GetParam();
  const DecimateSet d = decimate_vectors(bpc, env_count("VMAFX_EXACT_WINDOWS", 1000000));
  const size_t n = d.start.size();
  std::vector<uint32_t> r(n);
  cl_mem bs = cl().in(d.samples.data(), d.samples.size() * 2), bst = cl().in(d.start.data(), n * 4),
         bsc = cl().in(d.scale.data(), n * 4), br = cl().out(n * 4);
  const cl_int b = bpc;
  const cl_uint nn = (cl_uint)n;
  cl().run("decimate", n, [&](cl_kernel k) {
    arg(k, 0, bs);
    arg(k, 1, bst);
    arg(k, 2, bsc);
    arg(k, 3, b);
    arg(k, 4, br);
    arg(k, 5, nn);
  });
  cl().read(br, r.data(), n * 4);
  clReleaseMemObject(bs);
  clReleaseMemObject(bst);
  clReleaseMemObject(bsc);
  clReleaseMemObject(br);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad += r[i] != fbits(ref_decimate_window(d.samples.data() + d.start[i], d.scale[i], bpc));
  EXPECT_EQ(bad, 0u) << "of " << n << " windows";
  std::printf("[ %s ] decimation, %d bits: %zu windows, %zu mismatches\n", cl().device_name.c_str(), bpc, n, bad);
}

INSTANTIATE_TEST_SUITE_P(Depths, OpenClExactDepth, ::testing::Values(8, 10, 12, 16),
                         [](const ::testing::TestParamInfo<int>& i) { return "bpc" + std::to_string(i.param); });

#elif defined(VMAFX_HAVE_OPENCL)
#error "the embedded exact sources are missing: tests/CMakeLists.txt must include tests/exact.cmake"

#endif

}  // namespace
