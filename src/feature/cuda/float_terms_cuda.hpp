// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The float_psnr / float_moment CUDA twins: device row sums of the
// reference's float terms (float_psnr.cu) and the reference's double sums
// formed from them on the host (feature/exact_sum.hpp).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vmafx::cuda::fterms {

// rows[y] = the exact sum over luma row y of vmafx_fterm(kind, a, b). stride
// in samples. Asynchronous on `s`.
void launch_rows(const void* a, const void* b, std::ptrdiff_t stride, int w, int h, int bpc, int kind,
                 unsigned long long* rows, cudaStream_t s);
// out[(y - row0) * w + x] = vmafx_fterm(kind, a, b) for rows row0 .. h - 1.
void launch_terms(const void* a, const void* b, std::ptrdiff_t stride, int w, int h, int bpc, int kind, int row0,
                  std::uint32_t* out, cudaStream_t s);

}  // namespace vmafx::cuda::fterms

#ifndef __CUDACC__
#include <functional>
#include <span>

#include "backend/cuda/cuda_runtime.hpp"
#include "exact/float_terms.h"
#include "feature/exact_sum.hpp"

namespace vmafx::cuda::fterms {

// One double sum of the reference over the luma: the terms of `kind`
// (VMAFX_FTERM_*) of the distorted picture (of_dis) or the reference one;
// for VMAFX_FTERM_ERROR, of both.
struct TermSum {
  int kind;
  bool of_dis;
};

// The twin: every sum's row sums on the device, one read-back, then `emit`
// with the reference's doubles.
class TermsTwin final : public Extractor {
 public:
  using Emit = std::function<void(const double* sums, unsigned index, FeatureSink& out)>;
  TermsTwin(CudaBackend& b, const PictureFormat& f, std::vector<TermSum> sums, Emit emit)
      : b_(b), w_(f.width), h_(f.height), bpc_(f.bpc), sums_(std::move(sums)), emit_(std::move(emit)) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    cudaStream_t s = ctx.stream();
    const void* r = ctx.plane(ref, index, 0);
    const void* d = ctx.plane(dis, index, 0);
    const int bps = bpc_ > 8 ? 2 : 1;
    const std::ptrdiff_t rs = ref.stride(0) / bps, ds = dis.stride(0) / bps;
    // a picture's device copy keeps its stride: ref and dis share one pool,
    // but the error kernel takes one stride for both
    if (rs != ds) fail(cudaErrorInvalidValue, "float terms: reference and distorted strides differ");
    const std::size_t h = std::size_t(h_), n = sums_.size();
    auto* dev = static_cast<unsigned long long*>(ctx.device(this, 0, n * h * 8));
    auto* host = static_cast<unsigned long long*>(ctx.pinned(this, 0, n * h * 8));
    for (std::size_t i = 0; i < n; ++i) {
      const void* a = sums_[i].of_dis ? d : r;
      const void* bb = sums_[i].kind == VMAFX_FTERM_ERROR ? d : a;
      launch_rows(a, bb, rs, w_, h_, bpc_, sums_[i].kind, dev + i * h, s);
    }
    check(cudaGetLastError(), "float terms: kernel launch");
    check(cudaMemcpyAsync(host, dev, n * h * 8, cudaMemcpyDeviceToHost, s), "float terms: readback");
    ctx.sync("float terms");
    double v[8];
    for (std::size_t i = 0; i < n; ++i) {
      const std::span<const std::uint64_t> rows(reinterpret_cast<const std::uint64_t*>(host) + i * h, h);
      const int k = bpc_ - 8, q = sums_[i].kind == VMAFX_FTERM_SAMPLE ? k : 2 * k;
      const exact_sum::Prefix p = exact_sum::exact_prefix(rows);
      if (std::size_t(p.rows) == h) {
        v[i] = std::ldexp(double(p.units), -q);
        continue;
      }
      // A partial sum reaches 2^53 units: the remaining terms one by one.
      const void* a = sums_[i].of_dis ? d : r;
      const void* bb = sums_[i].kind == VMAFX_FTERM_ERROR ? d : a;
      const std::size_t m = std::size_t(w_) * (h - std::size_t(p.rows));
      auto* td = static_cast<std::uint32_t*>(ctx.device(this, 1, m * 4));
      auto* th = static_cast<std::uint32_t*>(ctx.pinned(this, 1, m * 4));
      launch_terms(a, bb, rs, w_, h_, bpc_, sums_[i].kind, p.rows, td, s);
      check(cudaGetLastError(), "float terms: kernel launch");
      check(cudaMemcpyAsync(th, td, m * 4, cudaMemcpyDeviceToHost, s), "float terms: readback");
      ctx.sync("float terms");
      v[i] = exact_sum::finish(p, q, std::span<const std::uint32_t>(th, m));
    }
    emit_(v, index, out);
  }

 private:
  CudaBackend& b_;
  int w_, h_, bpc_;
  std::vector<TermSum> sums_;
  Emit emit_;
};

}  // namespace vmafx::cuda::fterms
#endif
