// SPDX-License-Identifier: BSD-3-Clause
// CUDA twins of "speed_chroma" and "speed_temporal" (feature/speed.cpp): the
// decimation on the device (speed.cu), the reference's own
// speed::score_decimated() and output functions on the host (local mean, the
// model fit with its libm logs, on the small decimated images).
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "backend/cuda/cuda_runtime.hpp"
#include "feature/cuda/speed_cuda.hpp"
#include "feature/speed.hpp"

namespace vmafx::cuda {
namespace {

// The device part of one decimation, with its tables (uploaded on first use,
// shared by every thread; freed with the twin).
class Decimator {
 public:
  Decimator(CudaBackend& b, const vmafx::speed::Params& p, const vmafx::speed::Dims& d)
      : b_(b), shape_{d.ow, d.oh, d.sw, d.sh, d.dw, d.dh}, t_(vmafx::speed::decimation_tables(p, d)) {
    if (t_.prescale) method_ = int(p.method);
  }
  Decimator(const Decimator&) = delete;
  Decimator& operator=(const Decimator&) = delete;
  ~Decimator() {
    if (mem_) {
      cudaSetDevice(b_.device());
      cudaFree(mem_);
    }
  }

  std::size_t image() const { return std::size_t(shape_.dw) * shape_.dh; }

  // dst = decimate(a) or decimate(a - b) (diff); scratch slots first .. first + 2 of `owner`.
  void enqueue(ThreadContext& ctx, const void* owner, int first, const void* a, const void* b, std::ptrdiff_t stride,
               int bpc, bool diff, float* dst) {
    std::call_once(once_, [this] { upload(); });
    const cuda::speed::Shape& d = shape_;
    auto* img = static_cast<float*>(ctx.device(owner, first, std::size_t(d.ow) * d.oh * sizeof(float)));
    float* scaled = nullptr;
    if (d.sw != d.ow || d.sh != d.oh)
      scaled = static_cast<float*>(ctx.device(owner, first + 1, std::size_t(d.sw) * d.sh * sizeof(float)));
    auto* tmp = static_cast<float*>(ctx.device(owner, first + 2, std::size_t(d.sw) * d.dh * sizeof(float)));
    cuda::speed::launch_decimate(a, b, stride, bpc, diff, d, tables_, img, scaled, tmp, dst, ctx.stream());
    check(cudaGetLastError(), "speed: kernel launch");
  }

 private:
  void upload() {
    const std::size_t nt = t_.taps.size(), nx = t_.ix.size(), ny = t_.iy.size();
    const std::size_t bytes = 4 * (nt + 2 * nx + 2 * ny);
    check(cudaSetDevice(b_.device()), "cudaSetDevice");
    check(cudaMalloc(&mem_, bytes), "speed: tables");
    std::vector<unsigned char> host(bytes);
    unsigned char* p = host.data();
    auto put = [&p](const void* src, std::size_t n) {
      if (n) std::memcpy(p, src, 4 * n);
      p += 4 * n;
    };
    put(t_.taps.data(), nt);
    put(t_.ix.data(), nx);
    put(t_.wx.data(), nx);
    put(t_.iy.data(), ny);
    put(t_.wy.data(), ny);
    check(cudaMemcpy(mem_, host.data(), bytes, cudaMemcpyHostToDevice), "speed: tables upload");
    auto* base = static_cast<unsigned char*>(mem_);
    tables_.taps = reinterpret_cast<const float*>(base);
    tables_.fw = int(nt);
    tables_.method = method_;
    tables_.scale_taps = t_.scale_taps;
    tables_.ix = reinterpret_cast<const int*>(base + 4 * nt);
    tables_.wx = reinterpret_cast<const float*>(base + 4 * (nt + nx));
    tables_.iy = reinterpret_cast<const int*>(base + 4 * (nt + 2 * nx));
    tables_.wy = reinterpret_cast<const float*>(base + 4 * (nt + 2 * nx + ny));
  }

  CudaBackend& b_;
  cuda::speed::Shape shape_;
  vmafx::speed::DecimationTables t_;
  int method_ = 0;
  std::once_flag once_;
  void* mem_ = nullptr;
  cuda::speed::Tables tables_;
};

class SpeedChromaTwin final : public Extractor {
 public:
  SpeedChromaTwin(CudaBackend& b, const vmafx::speed::ChromaSetup& c, const PictureFormat& f)
      : b_(b), c_(c), bpc_(f.bpc), dec_(b, c.p, c.d) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    ThreadContext& ctx = b_.context();
    const std::size_t n = dec_.image();
    auto* dev = static_cast<float*>(ctx.device(this, 0, 4 * n * sizeof(float)));
    auto* host = static_cast<float*>(ctx.pinned(this, 0, 4 * n * sizeof(float)));
    const int bps = bpc_ > 8 ? 2 : 1;
    for (int c = 0; c < 2; ++c) {
      const void* r = ctx.plane(ref, index, c + 1);
      const void* d = ctx.plane(dis, index, c + 1);
      dec_.enqueue(ctx, this, 1, r, r, ref.stride(c + 1) / bps, bpc_, false, dev + 2 * c * n);
      dec_.enqueue(ctx, this, 1, d, d, dis.stride(c + 1) / bps, bpc_, false, dev + (2 * c + 1) * n);
    }
    ctx.read_back(host, dev, 4 * n * sizeof(float), "speed_chroma");
    // The host copy is this thread's: the scoring may overwrite it.
    vmafx::speed::put_chroma_decimated(c_, host, n, index, out);
  }

 private:
  CudaBackend& b_;
  vmafx::speed::ChromaSetup c_;
  int bpc_;
  Decimator dec_;
};

// Frame i differences the luma of frames i - 1 and i; the earlier frame's
// pictures come from the engine (history()), so frames run on any worker.
class SpeedTemporalTwin final : public Extractor {
 public:
  SpeedTemporalTwin(CudaBackend& b, const vmafx::speed::TemporalSetup& t, const PictureFormat& f)
      : b_(b), t_(t), bpc_(f.bpc), dec_(b, t.p, t.d) {}

  unsigned history() const override { return 1; }

  void extract(const Picture&, const Picture&, unsigned, FeatureSink&) override {
    throw std::logic_error("speed_temporal: the CUDA twin runs through extract_with()");
  }

  void extract_with(const Picture& ref, const Picture& dis, const Earlier& earlier, unsigned index,
                    FeatureSink& out) override {
    if (index == 0) {
      vmafx::speed::put_temporal(0.0f, index, out);
      return;
    }
    if (earlier.count < 1) throw std::logic_error("speed_temporal: the earlier frame is missing");
    ThreadContext& ctx = b_.context();
    const Picture& pr = *earlier.ref[0];
    const Picture& pd = *earlier.dis[0];
    const int bps = bpc_ > 8 ? 2 : 1;
    // The four planes share one stride (one pool, one format).
    if (pr.stride(0) != ref.stride(0) || pd.stride(0) != ref.stride(0) || dis.stride(0) != ref.stride(0))
      throw std::logic_error("speed_temporal: pictures of one clip with different strides");
    const void* cr = ctx.plane(ref, index, 0);
    const void* cd = t_.use_ref_diff ? cr : ctx.plane(dis, index, 0);
    const void* er = ctx.plane(pr, index - 1, 0, false);
    const void* ed = ctx.plane(pd, index - 1, 0, false);
    const std::size_t n = dec_.image();
    auto* dev = static_cast<float*>(ctx.device(this, 0, 2 * n * sizeof(float)));
    auto* host = static_cast<float*>(ctx.pinned(this, 0, 2 * n * sizeof(float)));
    const std::ptrdiff_t stride = ref.stride(0) / bps;
    dec_.enqueue(ctx, this, 1, er, cr, stride, bpc_, true, dev);
    dec_.enqueue(ctx, this, 1, ed, cd, stride, bpc_, true, dev + n);
    ctx.read_back(host, dev, 2 * n * sizeof(float), "speed_temporal");
    vmafx::speed::put_temporal_decimated(t_, host, n, index, out);
  }

 private:
  CudaBackend& b_;
  vmafx::speed::TemporalSetup t_;
  int bpc_;
  Decimator dec_;
};

}  // namespace

std::unique_ptr<Extractor> make_speed_chroma_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  return std::make_unique<SpeedChromaTwin>(b, vmafx::speed::chroma_setup(o, f), f);
}

std::unique_ptr<Extractor> make_speed_temporal_twin(CudaBackend& b, const OptionSet& o, const PictureFormat& f) {
  return std::make_unique<SpeedTemporalTwin>(b, vmafx::speed::temporal_setup(o, f), f);
}

}  // namespace vmafx::cuda
