// SPDX-License-Identifier: BSD-3-Clause
// src/exact in CUDA kernels: the same vectors as the host and OpenCL tests,
// through the very headers the host compiles (built with --fmad=false).
// Results are compared bit for bit with the host's IEEE fp64 and with the
// reference expressions. Skips when no CUDA device is present.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "exact/fixed_decimate.h"
#include "exact/softfp64.h"
#include "exact/ssim_term.h"
#include "exact/vif_gain.h"
#include "exact_reference.h"
#include "exact_vectors.h"

namespace {

using namespace vmafx::exact_test;

__global__ void k_binop(int op, const uint64_t* a, const uint64_t* b, uint64_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const vmafx_sd x = vmafx_sd_from_bits(a[i]), y = vmafx_sd_from_bits(b[i]);
  vmafx_sd r;
  if (op == 0)
    r = vmafx_sd_add(x, y);
  else if (op == 1)
    r = vmafx_sd_sub(x, y);
  else if (op == 2)
    r = vmafx_sd_mul(x, y);
  else
    r = vmafx_sd_div(x, y);
  out[i] = vmafx_sd_to_bits(r);
}

__global__ void k_compare(const uint64_t* a, const uint64_t* b, int* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const vmafx_sd x = vmafx_sd_from_bits(a[i]), y = vmafx_sd_from_bits(b[i]);
  out[i] = vmafx_sd_eq(x, y) | vmafx_sd_lt(x, y) << 1 | vmafx_sd_le(x, y) << 2 | vmafx_sd_lt(y, x) << 3;
}

__global__ void k_from_int(const uint64_t* v, uint64_t* out_u, uint64_t* out_i, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out_u[i] = vmafx_sd_to_bits(vmafx_sd_from_u64(v[i]));
  out_i[i] = vmafx_sd_to_bits(vmafx_sd_from_i64((int64_t)v[i]));
}

__global__ void k_to_int(const uint64_t* v, int64_t* out64, int32_t* out32, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const vmafx_sd x = vmafx_sd_from_bits(v[i]);
  out64[i] = vmafx_sd_to_i64(x);
  out32[i] = vmafx_sd_to_i32(x);
}

__global__ void k_ssim_term(const SsimMoments* m, uint64_t k1f, uint64_t k2f, uint64_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const SsimMoments p = m[i];
  out[i] = vmafx_ssim_term_bits(p.mux, p.muy, p.x2, p.xy, p.y2, p.w, k1f, k2f);
}

__global__ void k_vif_gain(const VifSample* s, uint64_t limit_bits, int32_t* sv, int64_t* gg, int32_t* replayed,
                           unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const vmafx_vif_limit lim = vmafx_vif_limit_make(limit_bits);
  const vmafx_vif_gain g = vmafx_vif_gain_terms(s[i].s1, s[i].s12, s[i].s2, lim);
  sv[i] = g.sv_sq;
  gg[i] = g.gg;
  replayed[i] = g.replayed;
}

__global__ void k_decimate(const uint16_t* samples, const uint32_t* start, const int32_t* scale, int bpc, uint32_t* out,
                           unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int s = scale[i];
  const uint32_t tap = vmafx_decimate_tap_bits(s);
  const uint16_t* p = samples + start[i];
  uint64_t sum = 0;
  for (int k = 0; k < s * s; ++k) sum += vmafx_decimate_product_fx(vmafx_decimate_sample_fx(p[k], bpc), tap);
  out[i] = vmafx_decimate_round_fx(sum);
}

// The device count as the backend's listing reads it (list_cuda_devices):
// no device and no usable driver are "none"; any other failure of
// cudaGetDeviceCount is a failure of the test, not a skip.
int device_count(std::string* error) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
    (void)cudaGetLastError();
    return 0;
  }
  if (e != cudaSuccess) *error = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
  return n;
}

#define VMAFX_NEED_CUDA()                                      \
  do {                                                         \
    std::string error;                                         \
    const int devices = device_count(&error);                  \
    ASSERT_TRUE(error.empty()) << error;                       \
    if (devices == 0) GTEST_SKIP() << "no CUDA device listed"; \
  } while (0)

#define CK(x) ASSERT_EQ((x), cudaSuccess) << cudaGetErrorString(cudaGetLastError())

// A device copy of a host vector, or an output buffer, freed on scope exit.
template <class T>
struct Dev {
  T* p = nullptr;
  size_t n = 0;
  explicit Dev(size_t count) : n(count) { EXPECT_EQ(cudaMalloc(&p, (count ? count : 1) * sizeof(T)), cudaSuccess); }
  explicit Dev(const std::vector<T>& v) : Dev(v.size()) {
    EXPECT_EQ(cudaMemcpy(p, v.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~Dev() { cudaFree(p); }
  std::vector<T> get() const {
    std::vector<T> v(n);
    EXPECT_EQ(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
};

unsigned blocks(size_t n) { return (unsigned)((n + 255) / 256); }

size_t device_pairs() { return env_count("VMAFX_EXACT_DEVICE_PAIRS", binop_random_count()); }

size_t device_binop(int op, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, std::string& repro) {
  Dev<uint64_t> da(a), db(b), dr(a.size());
  k_binop<<<blocks(a.size()), 256>>>(op, da.p, db.p, dr.p, (unsigned)a.size());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<uint64_t> r = dr.get();
  size_t bad = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const uint64_t want = host_binop(op, a[i], b[i]);
    if (!same_result(r[i], want, is_nan_bits(a[i]) || is_nan_bits(b[i])) && bad++ < 8) {
      char line[200];
      std::snprintf(line, sizeof line,
                    "  %s(0x%016" PRIx64 ", 0x%016" PRIx64 ") = 0x%016" PRIx64 ", host 0x%016" PRIx64 "\n",
                    binop_name(op), a[i], b[i], r[i], want);
      repro += line;
    }
  }
  return bad;
}

TEST(CudaExact, BinaryOperationsMatchHost) {
  VMAFX_NEED_CUDA();
  const size_t total = device_pairs();
  for (int op = kAdd; op <= kDiv; ++op) {
    std::string repro;
    size_t bad = 0;
    std::vector<uint64_t> a, b;
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
    EXPECT_EQ(bad, 0u) << binop_name(op) << ": " << total << " random + " << sa.size() << " structured pairs\n"
                       << repro;
    std::printf("[ cuda ] %s: %zu random + %zu structured pairs, %zu mismatches\n", binop_name(op), total, sa.size(),
                bad);
  }
}

TEST(CudaExact, ConversionsAndComparisonsMatchHost) {
  VMAFX_NEED_CUDA();
  const std::vector<uint64_t> v = int_vectors(device_pairs());
  Dev<uint64_t> dv(v), du(v.size()), di(v.size());
  k_from_int<<<blocks(v.size()), 256>>>(dv.p, du.p, di.p, (unsigned)v.size());
  CK(cudaDeviceSynchronize());
  const std::vector<uint64_t> ru = du.get(), ri = di.get();
  size_t bad = 0;
  for (size_t i = 0; i < v.size(); ++i) bad += ru[i] != dbits((double)v[i]) || ri[i] != dbits((double)(int64_t)v[i]);
  EXPECT_EQ(bad, 0u) << "int64/uint64 conversions";

  const std::vector<uint64_t> t = trunc_vectors(2000000);
  Dev<uint64_t> dt(t);
  Dev<int64_t> d64(t.size());
  Dev<int32_t> d32(t.size());
  k_to_int<<<blocks(t.size()), 256>>>(dt.p, d64.p, d32.p, (unsigned)t.size());
  CK(cudaDeviceSynchronize());
  const std::vector<int64_t> r64 = d64.get();
  const std::vector<int32_t> r32 = d32.get();
  bad = 0;
  for (size_t i = 0; i < t.size(); ++i)
    bad += r64[i] != x86_trunc_i64(dval(t[i])) || r32[i] != x86_trunc_i32(dval(t[i]));
  EXPECT_EQ(bad, 0u) << "truncating conversions";

  std::vector<uint64_t> a(kChunk), b(kChunk);
  fill_binop_random(kSub, 0, kChunk, a.data(), b.data());
  Dev<uint64_t> da(a), db(b);
  Dev<int> dc(kChunk);
  k_compare<<<blocks(kChunk), 256>>>(da.p, db.p, dc.p, (unsigned)kChunk);
  CK(cudaDeviceSynchronize());
  const std::vector<int> rc = dc.get();
  bad = 0;
  for (size_t i = 0; i < kChunk; ++i) {
    const double x = dval(a[i]), y = dval(b[i]);
    bad += rc[i] != ((x == y) | (x < y) << 1 | (x <= y) << 2 | (y < x) << 3);
  }
  EXPECT_EQ(bad, 0u) << "comparisons";
}

class CudaExactDepth : public ::testing::TestWithParam<int> {};

TEST_P(CudaExactDepth, SsimTermMatchesReference) {
  VMAFX_NEED_CUDA();
  const int depth = GetParam();
  const std::vector<SsimMoments> v = ssim_vectors(depth, env_count("VMAFX_EXACT_WINDOWS", 1000000));
  Dev<SsimMoments> dm(v);
  Dev<uint64_t> dr(v.size());
  k_ssim_term<<<blocks(v.size()), 256>>>(dm.p, vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K1_BITS),
                                         vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K2_BITS), dr.p, (unsigned)v.size());
  CK(cudaDeviceSynchronize());
  const std::vector<uint64_t> r = dr.get();
  size_t bad = 0;
  for (size_t i = 0; i < v.size(); ++i) bad += !same_result(r[i], dbits(ref_ssim_term(v[i], depth)), true);
  EXPECT_EQ(bad, 0u) << "of " << v.size() << " windows";
  std::printf("[ cuda ] ssim term, %d bits: %zu windows, %zu mismatches\n", depth, v.size(), bad);
}

TEST_P(CudaExactDepth, VifGainMatchesReference) {
  VMAFX_NEED_CUDA();
  const int depth = GetParam();
  const std::vector<VifSample> v = vif_vectors(depth, env_count("VMAFX_EXACT_WINDOWS", 1000000));
  const std::vector<uint64_t> limits = vif_limits();
  Dev<VifSample> ds(v);
  for (size_t li = 0; li < limits.size(); ++li) {
    const size_t n = li < 2 ? v.size() : std::min<size_t>(v.size(), 100000);
    Dev<int32_t> dsv(n), drp(n);
    Dev<int64_t> dgg(n);
    k_vif_gain<<<blocks(n), 256>>>(ds.p, limits[li], dsv.p, dgg.p, drp.p, (unsigned)n);
    CK(cudaDeviceSynchronize());
    const std::vector<int32_t> sv = dsv.get(), rp = drp.get();
    const std::vector<int64_t> gg = dgg.get();
    size_t bad = 0, replayed = 0;
    for (size_t i = 0; i < n; ++i) {
      const VifGainRef want = ref_vif_gain(v[i].s1, v[i].s12, v[i].s2, dval(limits[li]));
      bad += sv[i] != want.sv_sq || gg[i] != want.gg;
      replayed += rp[i];
    }
    EXPECT_EQ(bad, 0u) << "limit " << dval(limits[li]) << ", " << n << " samples";
    if (li < 2)
      std::printf("[ cuda ] vif gain, %d bits, limit %g: %zu samples (%zu replayed), %zu mismatches\n", depth,
                  dval(limits[li]), n, replayed, bad);
  }
}

TEST_P(CudaExactDepth, DecimationMatchesReference) {
  VMAFX_NEED_CUDA();
  const int bpc = GetParam();
  const DecimateSet d = decimate_vectors(bpc, env_count("VMAFX_EXACT_WINDOWS", 1000000));
  const size_t n = d.start.size();
  Dev<uint16_t> ds(d.samples);
  Dev<uint32_t> dst(d.start), dr(n);
  Dev<int32_t> dsc(d.scale);
  k_decimate<<<blocks(n), 256>>>(ds.p, dst.p, dsc.p, bpc, dr.p, (unsigned)n);
  CK(cudaDeviceSynchronize());
  const std::vector<uint32_t> r = dr.get();
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad += r[i] != fbits(ref_decimate_window(d.samples.data() + d.start[i], d.scale[i], bpc));
  EXPECT_EQ(bad, 0u) << "of " << n << " windows";
  std::printf("[ cuda ] decimation, %d bits: %zu windows, %zu mismatches\n", bpc, n, bad);
}

INSTANTIATE_TEST_SUITE_P(Depths, CudaExactDepth, ::testing::Values(8, 10, 12, 16),
                         [](const ::testing::TestParamInfo<int>& i) { return "bpc" + std::to_string(i.param); });

}  // namespace
