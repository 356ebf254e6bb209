// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "motion" (feature/motion.cpp): the SAD of two references on
// the device (motion.cl), kept in device buffers frame to frame; the scores,
// motion2 and motion3 on the host with the reference's own functions.
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "feature/motion.hpp"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "motion.cl";
constexpr std::size_t kMaxRowGroup = 256;  // ROW_WG in motion.cl

class MotionTwin final : public Twin {
 public:
  MotionTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : Twin(std::move(g)), scores_(o), fmt_(f) {}

  // The SAD of frame i is read back while frame i + 1 runs: extract(i)
  // enqueues i's kernels and a non-blocking read, then completes i - 1 and
  // writes its score (a temporal extractor may write for an earlier frame).
  // Only the upload of the reference is waited for, so the sequencing thread
  // never waits for a kernel and the picture can be recycled on return.
  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    if (scores_.force_zero()) {
      record(out, index, 0.0);
      return;
    }
    Slot& s = slot();
    const int w = fmt_.width, h = fmt_.height;
    const std::size_t bytes = std::size_t(w) * h * fmt_.bytes_per_sample();
    cl_context ctx = s.device().context();
    const cl_mem cur = s.publish_ref(ref, dis, index);
    const unsigned first = scores_.params().five_frame_window ? 2 : 1;
    if (index >= first) {
      if (stored_ < first) throw std::logic_error("motion: frames must arrive in order");
      const int back = scores_.params().five_frame_window ? 1 - last_ : last_;
      const int b = int(index & 1);
      const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
      // one 32-bit sum per row read back
      const std::size_t parts = std::size_t(h);
      cl_mem v = s.scratch(id_, 0, std::size_t(w) * h * 4);
      cl_mem rows = s.scratch(id_, 1 + b, std::size_t(h) * 4);
      cl_kernel kv = s.kernel(kFile, "motion_vertical");
      set_args(kv, hist_[back].get(ctx, bytes), cur, cl_int(w), cl_int(h), wide, cl_int(fmt_.bpc), v);
      run2d(s.queue(), kv, std::size_t(w), std::size_t(h), 32, 8);
      cl_kernel kr = s.kernel(kFile, "motion_rows");
      set_args(kr, v, cl_int(w), rows);
      const std::size_t lx = pow2_group(kr, kMaxRowGroup);
      run(s.queue(), kr, std::size_t(h) * lx, lx);
      row_host_[b].resize(parts);
      cl_event ev = nullptr;
      check(clEnqueueReadBuffer(s.queue(), rows, CL_FALSE, 0, parts * 4, row_host_[b].data(), 0, nullptr, &ev),
            "read back");
      complete_pending(out);
      pending_ = ev;
      pending_index_ = index;
    } else {
      complete_pending(out);
      record(out, index, 0.0);
    }
    // remember this reference
    const int slot_i = 1 - last_;
    ProfEvent pe("copy (motion history)");
    check(clEnqueueCopyBuffer(s.queue(), cur, hist_[slot_i].get(ctx, bytes), 0, 0, bytes, 0, nullptr, pe.out()),
          "clEnqueueCopyBuffer");
    last_ = slot_i;
    ++stored_;
  }

  ~MotionTwin() override {
    if (pending_) {
      wait_event(pending_);
      clReleaseEvent(pending_);
    }
  }

  void flush(FeatureSink& out) override {
    complete_pending(out);
    scores_.flush(out);
  }

 private:
  void complete_pending(FeatureSink& out) {
    if (!pending_) return;
    cl_event ev = pending_;
    pending_ = nullptr;
    const cl_int status = wait_event(ev);
    clReleaseEvent(ev);
    if (status < 0) check(status, "read back");
    std::uint64_t total = 0;
    for (std::uint32_t r : row_host_[pending_index_ & 1]) total += r;
    record(out, pending_index_,
           motion::sad_score(total, unsigned(fmt_.width), unsigned(fmt_.height), scores_.params()));
  }

  void record(FeatureSink& out, unsigned index, double score) { scores_.record(index, score, out); }

  motion::Scores scores_;
  PictureFormat fmt_;
  Buffer hist_[2];  // luma of the last two references
  int last_ = 1;
  unsigned stored_ = 0;
  std::vector<std::uint32_t> row_host_[2];
  cl_event pending_ = nullptr;  // read of frame pending_index_'s row sums
  unsigned pending_index_ = 0;
};

}  // namespace

std::unique_ptr<Extractor> make_motion_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f) {
  return std::make_unique<MotionTwin>(std::move(g), o, f);
}

}  // namespace vmafx::ocl
