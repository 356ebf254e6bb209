// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "psnr_hvs" (feature/psnr_hvs.cpp): every block's 64 terms on
// the device (psnr_hvs.cl), their float sum in the reference's order, the
// plane errors and the dB values on the host with the reference's functions.
#include <string>
#include <vector>

#include "feature/opencl/opencl_twin.hpp"
#include "feature/psnr_hvs.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "psnr_hvs.cl";
constexpr std::string_view kNames[4] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

struct Pending : FrameState {
  std::vector<float> terms;
};

class PsnrHvsTwin final : public FrameTwin<Pending> {
 public:
  PsnrHvsTwin(std::shared_ptr<FrameGroup> g, const PictureFormat& f) : FrameTwin(std::move(g)), fmt_(f) {
    for (int p = 0; p < 3; ++p) {
      nbx_[p] = psnr_hvs::blocks_along(f.plane_width(p));
      nby_[p] = psnr_hvs::blocks_along(f.plane_height(p));
      offset_[p + 1] = offset_[p] + std::size_t(nbx_[p]) * std::size_t(nby_[p]) * 64;
    }
  }

 private:
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    double e[3];
    for (int p = 0; p < 3; ++p) {
      e[p] = psnr_hvs::error_from_terms(st.terms.data() + offset_[p], std::size_t(nbx_[p]) * nby_[p], fmt_.bpc);
      out.put_plain(kNames[p], index, psnr_hvs::to_db(e[p]));
    }
    const double combined = e[0] * .8 + .1 * (e[1] + e[2]);  // as PsnrHvsExtractor::extract
    out.put_plain(kNames[3], index, psnr_hvs::to_db(combined));
  }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    st.terms.resize(offset_[3]);
    if (offset_[3] == 0) return;  // no plane has a block: nothing to read
    cl_mem terms = s.scratch(id_, 0, offset_[3] * 4);
    cl_kernel k = s.kernel(kFile, "hvs_blocks");
    const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
    for (int p = 0; p < 3; ++p) {
      if (offset_[p + 1] == offset_[p]) continue;
      float tables[128];
      psnr_hvs::plane_tables(p, tables, tables + 64);
      cl_mem t = s.device().table("psnr_hvs tables " + std::to_string(p), tables, sizeof tables);
      const Slot::Planes pl = s.planes(ref, dis, index, p);
      // plane p's blocks follow those of the planes before it
      set_args(k, pl.ref, pl.dis, cl_int(fmt_.plane_width(p)), wide, cl_int(nbx_[p]), cl_int(nby_[p]), t,
               cl_float(psnr_hvs::kVar63), cl_float(psnr_hvs::kVar15), cl_int(offset_[p] / 64), terms);
      run2d(s.queue(), k, std::size_t(nbx_[p]), std::size_t(nby_[p]), 16, 8);
    }
    st.read.start(s.queue(), terms, st.terms.data(), st.terms.size() * 4);
  }

  PictureFormat fmt_;
  int nbx_[3] = {}, nby_[3] = {};
  std::size_t offset_[4] = {0, 0, 0, 0};
};

}  // namespace

std::unique_ptr<Extractor> make_psnr_hvs_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                              const PictureFormat& f) {
  (void)kPsnrHvsExtractor.create(o, f);  // the CPU's format checks and errors
  return std::make_unique<PsnrHvsTwin>(std::move(g), f);
}

}  // namespace vmafx::ocl
