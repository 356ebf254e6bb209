// OpenCL twin of "psnr" (feature/psnr.cpp): the per-row squared errors on the
// device (motion.cl), the sums and the reference's own PSNR functions on the host.
#include <vector>

#include "feature/opencl/opencl_twin.hpp"
#include "feature/psnr.hpp"

namespace vmafx::ocl {
namespace {

constexpr std::size_t kMaxRowGroup = 256;  // ROW_WG in motion.cl
constexpr std::string_view kPsnrNames[3] = {"psnr_y", "psnr_cb", "psnr_cr"};
constexpr std::string_view kMseNames[3] = {"mse_y", "mse_cb", "mse_cr"};
constexpr std::string_view kApsnrNames[3] = {"apsnr_y", "apsnr_cb", "apsnr_cr"};

class PsnrTwin final : public Twin {
 public:
  PsnrTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : Twin(std::move(g)),
        mse_(o.get_bool("enable_mse")),
        apsnr_(o.get_bool("enable_apsnr")),
        fmt_(f),
        peak_(psnr::peak(f.bpc, o.get_bool("reduced_hbd_peak"))) {
    planes_ = (o.get_bool("enable_chroma") && f.plane_count() == 3) ? 3 : 1;
    const double min_sse = o.get_double("min_sse");
    for (int p = 0; p < 3; ++p) {
      const int cp = f.plane_count() == 3 ? p : 0;
      const std::uint32_t n = std::uint32_t(f.plane_width(cp)) * std::uint32_t(f.plane_height(cp));
      max_[p] = psnr::max_psnr(f.bpc, peak_, min_sse, n);
    }
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    Slot& s = slot();
    const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
    cl_kernel k = s.kernel("motion.cl", "psnr_rows");
    int total_rows = 0;
    for (int p = 0; p < planes_; ++p) total_rows += fmt_.plane_height(p);
    cl_mem rows = s.scratch(id_, 0, std::size_t(total_rows) * 8);
    // one launch per plane into consecutive row ranges, one read for all
    std::size_t offset = 0;
    for (int p = 0; p < planes_; ++p) {
      const Slot::Planes pl = s.planes(ref, dis, index, p);
      const std::size_t h = std::size_t(fmt_.plane_height(p));
      set_args(k, pl.ref, pl.dis, cl_int(fmt_.plane_width(p)), wide, rows, cl_int(offset));
      const std::size_t lx = pow2_group(k, kMaxRowGroup);
      run(s.queue(), k, h * lx, lx);
      offset += h;
    }
    sse_rows_.resize(std::size_t(total_rows));
    read(s.queue(), rows, sse_rows_.data(), sse_rows_.size() * 8);
    offset = 0;
    for (int p = 0; p < planes_; ++p) {
      const int h = fmt_.plane_height(p);
      std::uint64_t sse = 0;
      for (int y = 0; y < h; ++y) sse += sse_rows_[offset + std::size_t(y)];
      offset += std::size_t(h);
      const std::uint32_t n = std::uint32_t(fmt_.plane_width(p)) * std::uint32_t(h);
      if (apsnr_) {
        sum_sse_[p] += sse;
        sum_pixels_[p] += n;
      }
      const double m = psnr::mse(sse, n);
      out.put_plain(kPsnrNames[p], index, psnr::frame_psnr(m, peak_, max_[p]));
      if (mse_) out.put_plain(kMseNames[p], index, m);
    }
  }

  void flush(FeatureSink& out) override {
    if (!apsnr_) return;
    for (int p = 0; p < 3; ++p)
      out.put_aggregate(kApsnrNames[p], psnr::aggregate_psnr(peak_, sum_pixels_[p], sum_sse_[p]));
  }

 private:
  bool mse_, apsnr_;
  PictureFormat fmt_;
  std::uint32_t peak_;
  int planes_ = 1;
  double max_[3] = {0, 0, 0};
  std::uint64_t sum_sse_[3] = {0, 0, 0};
  std::uint64_t sum_pixels_[3] = {0, 0, 0};
  std::vector<std::uint64_t> sse_rows_;
};

}  // namespace

std::unique_ptr<Extractor> make_psnr_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f) {
  return std::make_unique<PsnrTwin>(std::move(g), o, f);
}

}  // namespace vmafx::ocl
