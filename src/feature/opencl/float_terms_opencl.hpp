// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The device half of the float_psnr and float_moment OpenCL twins: exact row
// sums of the reference's float terms (float_psnr.cl), and the reference's
// double sums formed from them on the host (feature/exact_sum.hpp).
#include <cstdint>
#include <vector>

#include "exact/float_terms.h"
#include "feature/exact_sum.hpp"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {

// One double sum of the reference over the luma: the terms of `kind`
// (VMAFX_FTERM_*) of the reference picture (ref_a) or of the distorted one,
// and, for VMAFX_FTERM_ERROR, of both.
struct TermSum {
  int kind;
  bool of_dis;  // the picture whose samples are `a` (for SAMPLE and SQUARE)
};

class TermSums {
 public:
  TermSums(const char* cl_file, std::vector<TermSum> sums, const PictureFormat& f)
      : file_(cl_file), sums_(std::move(sums)), w_(f.width), h_(f.height), bpc_(f.bpc) {}

  struct Pending : FrameState {
    std::vector<std::uint64_t> rows;
  };

  // Enqueues the row sums of every sum, ending with a non-blocking read
  // (once an earlier read into st has finished: FrameTwin sees to it).
  void enqueue(Slot& s, int owner, const Picture& ref, const Picture& dis, unsigned index, Pending& st) const {
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    const std::size_t h = std::size_t(h_);
    cl_mem rows = s.scratch(owner, 0, sums_.size() * h * 8);
    cl_kernel k = s.kernel(file_, "fterm_rows");
    const cl_int wide = bpc_ > 8 ? 1 : 0;
    for (std::size_t i = 0; i < sums_.size(); ++i) {
      const cl_mem a = sums_[i].of_dis ? pl.dis : pl.ref;
      const cl_mem b = sums_[i].kind == VMAFX_FTERM_ERROR ? pl.dis : a;
      set_args(k, a, b, cl_int(w_), wide, cl_int(sums_[i].kind), rows, cl_int(i * h));
      const std::size_t lx = pow2_group(k, 256);  // FT_WG
      run(s.queue(), k, h * lx, lx);
    }
    st.rows.resize(sums_.size() * h);
    st.read.start(s.queue(), rows, st.rows.data(), st.rows.size() * 8);
  }

  // The reference's double sum number i, once enqueue()'s read has finished.
  double finish(Slot& s, int owner, const Picture& ref, const Picture& dis, unsigned index, const Pending& st,
                std::size_t i) const {
    const std::size_t h = std::size_t(h_);
    const std::span<const std::uint64_t> rows(st.rows.data() + i * h, h);
    const int k = bpc_ - 8, q = sums_[i].kind == VMAFX_FTERM_SAMPLE ? k : 2 * k;
    const exact_sum::Prefix p = exact_sum::exact_prefix(rows);
    if (std::size_t(p.rows) == h) return std::ldexp(double(p.units), -q);
    // A partial sum reaches 2^53 units: the remaining terms one by one.
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    const cl_mem a = sums_[i].of_dis ? pl.dis : pl.ref;
    const cl_mem b = sums_[i].kind == VMAFX_FTERM_ERROR ? pl.dis : a;
    const std::size_t n = std::size_t(w_) * (h - std::size_t(p.rows));
    cl_mem terms = s.scratch(owner, 1, n * 4);
    cl_kernel kp = s.kernel(file_, "fterm_plane");
    set_args(kp, a, b, cl_int(w_), cl_int(h_), cl_int(bpc_ > 8 ? 1 : 0), cl_int(sums_[i].kind), cl_int(p.rows), terms);
    run2d(s.queue(), kp, std::size_t(w_), h - std::size_t(p.rows), 16, 8);
    std::vector<std::uint32_t> rest(n);
    read(s.queue(), terms, rest.data(), n * 4);
    return exact_sum::finish(p, q, rest);
  }

  std::size_t count() const { return sums_.size(); }

 private:
  const char* file_;
  std::vector<TermSum> sums_;
  int w_, h_, bpc_;
};

// A twin whose device work is one TermSums: it emits from sum(i).
class TermSumsTwin : public FrameTwin<TermSums::Pending> {
 protected:
  TermSumsTwin(std::shared_ptr<FrameGroup> g, TermSums sums) : FrameTwin(std::move(g)), sums_(std::move(sums)) {}

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) final {
    sums_.enqueue(s, id_, ref, dis, index, st);
  }
  double sum(Slot& s, const Pending& st, const Picture& ref, const Picture& dis, unsigned index, std::size_t i) const {
    return sums_.finish(s, id_, ref, dis, index, st, i);
  }

 private:
  TermSums sums_;
};

}  // namespace vmafx::ocl
