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
#include "feature/cuda/twins.hpp"
#include "feature/motion.hpp"

namespace vmafx::cuda {
namespace {

constexpr std::string_view kSadName = "VMAF_integer_feature_motion_sad_score";
constexpr std::string_view kDebugName = "VMAF_integer_feature_motion_score";
constexpr std::string_view kMotion2Name = "VMAF_integer_feature_motion2_score";
constexpr std::string_view kMotion3Name = "VMAF_integer_feature_motion3_score";

class MotionTwin final : public Extractor {
 public:
  MotionTwin(CudaBackend& b, const OptionSet& o, const PictureFormat& f)
      : b_(b), force_zero_(o.get_bool("motion_force_zero")), debug_(o.get_bool("debug")), w_(f.width),
        h_(f.height), bpc_(f.bpc) {
    p_.max_val = o.get_double("motion_max_val");
    p_.blend_factor = o.get_double("motion_blend_factor");
    p_.blend_offset = o.get_double("motion_blend_offset");
    p_.fps_weight = o.get_double("motion_fps_weight");
    p_.five_frame_window = o.get_bool("motion_five_frame_window");
    p_.moving_average = o.get_bool("motion_moving_average");
  }

  ~MotionTwin() override {
    for (cudaEvent_t& e : done_)
      if (e) cudaEventDestroy(e);
    if (uploaded_) cudaEventDestroy(uploaded_);
    if (published_) b_.drop_published();
  }

  // The SAD of frame i is enqueued here and read back on the next call (or
  // on flush): the reading thread never waits for the device, and the score
  // reaches the sink one frame later (a temporal extractor may write for an
  // earlier frame; the collector's contents do not depend on when). Frames
  // without a SAD (the first one or two) are written at once, so the series
  // are created in the CPU extractor's order.
  void extract(const Picture& ref, const Picture& /*dis*/, unsigned index, FeatureSink& out) override {
    if (force_zero_) {
      record(index, 0.0, out);
      return;
    }
    ThreadContext& ctx = b_.context(true);
    const unsigned first = p_.five_frame_window ? 2 : 1;
    const PlaneView y = ref.plane(0);
    const std::size_t bytes = std::size_t(y.stride) * std::size_t(h_);
    if (stored_ == 0) {
      stride_ = y.stride;
      for (cudaEvent_t& e : done_) check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
      check(cudaEventCreateWithFlags(&uploaded_, cudaEventDisableTiming), "cudaEventCreate");
    }
    if (y.stride != stride_) throw std::logic_error("motion (cuda): picture stride changed");
    if (index >= first && stored_ < first) throw std::logic_error("motion: frames must arrive in order");
    // The reference is uploaded once, into the backend's mirror of this
    // picture (the worker scoring this frame uses it too), and copied on the
    // device into a ring of three, which outlives the picture's frame.
    const void* shared = b_.publish_luma(ref, index, ctx.stream());
    published_ = true;
    check(cudaEventRecord(uploaded_, ctx.stream()), "cudaEventRecord");
    const int slot = int(stored_ % 3);
    void* cur = ctx.device(this, slot, bytes);
    check(cudaMemcpyAsync(cur, shared, bytes, cudaMemcpyDeviceToDevice, ctx.stream()), "motion: copy");
    if (index >= first) {
      const int back = int((stored_ - (p_.five_frame_window ? 2 : 1)) % 3);
      const void* prev = ctx.device(this, back, bytes);
      auto* rows = static_cast<std::uint32_t*>(ctx.device(this, 3, sizeof(std::uint32_t) * std::size_t(h_)));
      auto* total = static_cast<unsigned long long*>(ctx.device(this, 4 + (index & 1), sizeof(unsigned long long)));
      auto* host = static_cast<unsigned long long*>(ctx.pinned(this, int(index & 1), sizeof(unsigned long long)));
      const int bps = bpc_ > 8 ? 2 : 1;
      motion::launch_sad(prev, cur, y.stride / bps, w_, h_, bpc_, rows, total, ctx.stream());
      check(cudaGetLastError(), "motion: kernel launch");
      check(cudaMemcpyAsync(host, total, sizeof *host, cudaMemcpyDeviceToHost, ctx.stream()), "motion: readback");
      check(cudaEventRecord(done_[index & 1], ctx.stream()), "cudaEventRecord");
    }
    ++stored_;
    // The picture's host memory may be refilled once this frame is
    // committed, which can be as soon as we return: wait for the upload (not
    // for the kernels).
    check(cudaEventSynchronize(uploaded_), "motion: upload");
    resolve(ctx, out);  // the previous frame's SAD
    if (index >= first) {
      pending_ = true;
      pending_index_ = index;
    } else {
      record(index, 0.0, out);
    }
  }

  void flush(FeatureSink& out) override {
    if (pending_) resolve(b_.context(true), out);
    std::size_t n = 0;
    while (n < have_.size() && have_[n]) ++n;
    const vmafx::motion::Series s = vmafx::motion::finish(std::span<const double>(sad_.data(), n), p_);
    for (unsigned i = 0; i < n; ++i) {
      out.put(kMotion2Name, i, s.motion2[i]);
      out.put(kMotion3Name, i, s.motion3[i]);
    }
  }

 private:
  void resolve(ThreadContext& ctx, FeatureSink& out) {
    if (!pending_) return;
    pending_ = false;
    const unsigned i = pending_index_;
    check(cudaEventSynchronize(done_[i & 1]), "motion");
    const auto* host = static_cast<const unsigned long long*>(ctx.pinned(this, int(i & 1), sizeof(unsigned long long)));
    record(i, vmafx::motion::sad_score(*host, unsigned(w_), unsigned(h_), p_), out);
  }

  void record(unsigned index, double score, FeatureSink& out) {
    if (index >= sad_.size()) {
      sad_.resize(index + 1, 0.0);
      have_.resize(index + 1, 0);
    }
    sad_[index] = score;
    have_[index] = 1;
    out.put(kSadName, index, score);
    if (debug_) out.put(kDebugName, index, score);
  }

  CudaBackend& b_;
  vmafx::motion::Params p_;
  bool force_zero_, debug_;
  int w_, h_, bpc_;
  std::ptrdiff_t stride_ = 0;
  unsigned stored_ = 0;
  bool published_ = false;
  cudaEvent_t done_[2] = {nullptr, nullptr};
  cudaEvent_t uploaded_ = nullptr;
  bool pending_ = false;
  unsigned pending_index_ = 0;
  std::vector<double> sad_;
  std::vector<char> have_;
};

}  // namespace

std::unique_ptr<Extractor> make_motion_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  (void)kMotionExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<MotionTwin>(b, o, f);
}

}  // namespace vmafx::cuda
