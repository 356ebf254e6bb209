// SPDX-License-Identifier: BSD-3-Clause
// CUDA twin of the integer motion extractor. Called in frame order from one
// thread. The references of the last frames stay on the device (a ring of
// three luma planes), so each reference is uploaded once (and shared with the
// worker that scores the frame's other twins); the SAD comes back
// as one integer and the score, motion2 and motion3 are formed on the host by
// the CPU reference's own functions (motion::sad_score, motion::finish).
#include <cstring>
#include <stdexcept>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/motion_cuda.hpp"
#include "feature/cuda/read_back.hpp"
#include "feature/motion.hpp"

namespace vmafx::cuda {
namespace {

class MotionTwin final : public Extractor {
 public:
  MotionTwin(CudaBackend& b, const OptionSet& o, const PictureFormat& f)
      : b_(b), scores_(o), w_(f.width), h_(f.height), bpc_(f.bpc) {}

  ~MotionTwin() override {
    if (published_) b_.drop_published();
  }

  // The SAD of frame i is enqueued here and read back on the next call (or
  // on flush): the sequencing thread never waits for the device, and the score
  // reaches the sink one frame later (a temporal extractor may write for an
  // earlier frame; the collector's contents do not depend on when). Frames
  // without a SAD (the first one or two) are written at once, so the series
  // are created in the CPU extractor's order.
  void extract(const Picture& ref, const Picture& /*dis*/, unsigned index, FeatureSink& out) override {
    if (scores_.force_zero()) {
      record(index, 0.0, out);
      return;
    }
    ThreadContext& ctx = b_.context(true);
    const unsigned first = scores_.params().five_frame_window ? 2 : 1;
    const PlaneView y = ref.plane(0);
    const std::size_t bytes = std::size_t(y.stride) * std::size_t(h_);
    if (stored_ == 0) {
      stride_ = y.stride;
      rb_.create();
    }
    if (y.stride != stride_) throw std::logic_error("motion (cuda): picture stride changed");
    if (index >= first && stored_ < first) throw std::logic_error("motion: frames must arrive in order");
    // The reference is uploaded once, into the backend's mirror of this
    // picture (the worker scoring this frame uses it too), and copied on the
    // device into a ring of three, which outlives the picture's frame.
    const void* shared = b_.publish_luma(ref, index, ctx.stream());
    published_ = true;
    rb_.record_uploaded(ctx.stream());
    const int slot = int(stored_ % 3);
    void* cur = ctx.device(this, slot, bytes);
    check(cudaMemcpyAsync(cur, shared, bytes, cudaMemcpyDeviceToDevice, ctx.stream()), "motion: copy");
    if (index >= first) {
      const int back = int((stored_ - (scores_.params().five_frame_window ? 2 : 1)) % 3);
      const void* prev = ctx.device(this, back, bytes);
      auto* rows = static_cast<std::uint32_t*>(ctx.device(this, 3, sizeof(std::uint32_t) * std::size_t(h_)));
      auto* total = static_cast<unsigned long long*>(ctx.device(this, 4 + (index & 1), sizeof(unsigned long long)));
      auto* host = static_cast<unsigned long long*>(ctx.pinned(this, int(index & 1), sizeof(unsigned long long)));
      const int bps = bpc_ > 8 ? 2 : 1;
      motion::launch_sad(prev, cur, y.stride / bps, w_, h_, bpc_, rows, total, ctx.stream());
      check(cudaGetLastError(), "motion: kernel launch");
      check(cudaMemcpyAsync(host, total, sizeof *host, cudaMemcpyDeviceToHost, ctx.stream()), "motion: readback");
      rb_.record_done(index, ctx.stream());
    }
    ++stored_;
    // The picture's host memory may be refilled once this frame is
    // committed, which can be as soon as we return: wait for the upload (not
    // for the kernels).
    rb_.wait_uploaded("motion: upload");
    resolve(ctx, out);  // the previous frame's SAD
    if (index >= first) {
      rb_.set_pending(index);
    } else {
      record(index, 0.0, out);
    }
  }

  void flush(FeatureSink& out) override {
    if (rb_.pending()) resolve(b_.context(true), out);
    scores_.flush(out);
  }

 private:
  void resolve(ThreadContext& ctx, FeatureSink& out) {
    unsigned i;
    if (!rb_.take(&i, "motion")) return;
    const auto* host = static_cast<const unsigned long long*>(ctx.pinned(this, int(i & 1), sizeof(unsigned long long)));
    record(i, vmafx::motion::sad_score(*host, unsigned(w_), unsigned(h_), scores_.params()), out);
  }

  void record(unsigned index, double score, FeatureSink& out) { scores_.record(index, score, out); }

  CudaBackend& b_;
  vmafx::motion::Scores scores_;
  int w_, h_, bpc_;
  std::ptrdiff_t stride_ = 0;
  unsigned stored_ = 0;
  bool published_ = false;
  ReadBack rb_;
};

}  // namespace

std::unique_ptr<Extractor> make_motion_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kMotionExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<MotionTwin>(b, o, f);
}

}  // namespace vmafx::cuda
