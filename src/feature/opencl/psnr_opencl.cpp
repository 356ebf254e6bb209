// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "psnr" (feature/psnr.cpp): the per-row squared errors on the
// device (psnr.cl), the sums and the reference's own PSNR functions on the host.
#include <vector>

#include "feature/opencl/opencl_twin.hpp"
#include "feature/psnr.hpp"

namespace vmafx::ocl {
namespace {

constexpr std::size_t kMaxRowGroup = 256;  // PSNR_WG in psnr.cl

class PsnrTwin final : public Twin {
 public:
  PsnrTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : Twin(std::move(g)), scorer_(o, f), fmt_(f) {}

  void submit(const Picture& ref, const Picture& dis, unsigned index) override { enqueue(ref, dis, index); }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    if (!frame_.matches(ref, dis, index, read_)) enqueue(ref, dis, index);
    read_.finish();
    std::size_t offset = 0;
    for (int p = 0; p < scorer_.planes(); ++p) {
      const int h = fmt_.plane_height(p);
      std::uint64_t sse = 0;
      for (int y = 0; y < h; ++y) sse += sse_rows_[offset + std::size_t(y)];
      offset += std::size_t(h);
      const std::uint32_t n = std::uint32_t(fmt_.plane_width(p)) * std::uint32_t(h);
      scorer_.put_plane(p, sse, n, index, out);
    }
  }

  void flush(FeatureSink& out) override { scorer_.flush(out); }

 private:
  // A temporal twin: one thread (the reading one) calls it, in frame order.
  void enqueue(const Picture& ref, const Picture& dis, unsigned index) {
    read_.finish();  // an earlier read into sse_rows_, never waited for
    Slot& s = slot();
    const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
    cl_kernel k = s.kernel("psnr.cl", "psnr_rows");
    int total_rows = 0;
    for (int p = 0; p < scorer_.planes(); ++p) total_rows += fmt_.plane_height(p);
    cl_mem rows = s.scratch(id_, 0, std::size_t(total_rows) * 8);
    // one launch per plane into consecutive row ranges, one read for all
    std::size_t offset = 0;
    for (int p = 0; p < scorer_.planes(); ++p) {
      const Slot::Planes pl = s.planes(ref, dis, index, p);
      const std::size_t h = std::size_t(fmt_.plane_height(p));
      set_args(k, pl.ref, pl.dis, cl_int(fmt_.plane_width(p)), wide, rows, cl_int(offset));
      const std::size_t lx = pow2_group(k, kMaxRowGroup);
      run(s.queue(), k, h * lx, lx);
      offset += h;
    }
    sse_rows_.resize(std::size_t(total_rows));
    read_.start(s.queue(), rows, sse_rows_.data(), sse_rows_.size() * 8);
    frame_ = {&ref, &dis, index};
  }

  psnr::Scorer scorer_;
  PictureFormat fmt_;
  std::vector<std::uint64_t> sse_rows_;
  FrameKey frame_;
  PendingRead read_;
};

}  // namespace

std::unique_ptr<Extractor> make_psnr_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f) {
  return std::make_unique<PsnrTwin>(std::move(g), o, f);
}

}  // namespace vmafx::ocl
