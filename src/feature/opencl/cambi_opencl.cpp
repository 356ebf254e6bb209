// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "cambi" (feature/cambi.cpp): every per-pixel stage on the
// device (cambi.cl), the c-values of all five scales (and, with full_ref,
// of the reference's too) read back once per frame, and the host's end of
// the CPU extractor (top-k means in the reference's order, the weighting,
// the clipping, the heat maps) run on them.
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "exact/cambi.h"
#include "exact/cambi_tables.h"
#include "feature/cambi.hpp"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "cambi.cl";
constexpr std::size_t kTx = VMAFX_CAMBI_TX, kTy = VMAFX_CAMBI_TY;  // cambi_cvalues' work-group

using Side = cambi::TwinSide;

struct Pending : FrameState {
  std::vector<float> cvals;
  std::vector<std::uint16_t> patch, row;
  bool constants = false;  // maps and parameters written to this slot's buffers
};

class CambiTwin final : public FrameTwin<Pending> {
 public:
  CambiTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : FrameTwin(std::move(g)), fmt_(f), st_(cambi::resolve(o, f)), sides_(cambi::twin_sides(st_, f)) {
    for (int d = 0; d < 32; ++d) {
      params_[d] = st_.tvi[d];
      params_[32 + d] = st_.diff_weights[d];
    }
    if (!st_.heatmaps_path.empty())
      heatmaps_ = std::make_unique<cambi::Heatmaps>(st_.heatmaps_path, st_.enc_width, st_.enc_height);
    // The program builds once per device; a failure is the twin's creation error.
    (void)group_->device().program(kFile);
  }

 private:
  void emit(Slot&, Pending& st, const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    auto check_luma = [&](const Side& side) { cambi::check_luma(side.is_src ? ref : dis, side.is_src, index); };
    cambi::finish_twin(st_, sides_, st.cvals.data(), heatmaps_.get(), st.row, check_luma, index, out);
  }

  // Scratch buffers of side k.
  enum Buf { kImg, kRows, kMask, kMode, kXmap, kYmap, kPatch, kCount };
  cl_mem buf(Slot& s, std::size_t k, Buf b, std::size_t bytes) { return s.scratch(id_, int(k * kCount + b), bytes); }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    cl_command_queue q = s.queue();
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    std::size_t all = 0;
    for (const Side& side : sides_) all += side.total;
    cl_mem cvals = s.scratch(id_, 100, all * sizeof(float));
    cl_mem params = s.scratch(id_, 101, sizeof params_);
    cl_mem recip = s.device().table("cambi_reciprocal", vmafx_cambi_reciprocal, sizeof vmafx_cambi_reciprocal);
    if (!st.constants) {
      write(q, params, params_, sizeof params_);
      for (std::size_t k = 0; k < sides_.size(); ++k) {
        const Side& side = sides_[k];
        write(q, buf(s, k, kXmap, side.xmap.size() * 4), side.xmap.data(), side.xmap.size() * 4);
        write(q, buf(s, k, kYmap, side.ymap.size() * 4), side.ymap.data(), side.ymap.size() * 4);
      }
      st.constants = true;
    }
    const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
    std::size_t base = 0;
    for (std::size_t k = 0; k < sides_.size(); ++k) {
      const Side& side = sides_[k];
      const Picture& pic = side.is_src ? ref : dis;
      const int w = side.w, h = side.h;
      const std::size_t n = std::size_t(w) * std::size_t(h);
      // Samples where libvmaf's resize steps outside the picture: from the host.
      const std::size_t patched = side.patch_size();
      cl_mem patch = buf(s, k, kPatch, (patched ? patched : 1) * 2);
      if (patched) {
        st.patch.resize(patched);
        side.fill_patch(pic, st.patch.data());
        write(q, patch, st.patch.data(), patched * 2);  // blocking: st.patch is reused
      }
      cl_mem img = buf(s, k, kImg, n * 2);
      cl_kernel kt = s.kernel(kFile, "cambi_to10");
      set_args(kt, side.is_src ? pl.ref : pl.dis, wide, cl_int(fmt_.width), buf(s, k, kXmap, side.xmap.size() * 4),
               buf(s, k, kYmap, side.ymap.size() * 4), patch, cl_int(w), cl_int(h), cl_int(side.bad_y.size()),
               cl_int(fmt_.bpc), cl_int(st_.enc_bitdepth < 10 ? 1 : 0), img);
      run2d(q, kt, std::size_t(w), std::size_t(h), 32, 8);

      const int step = st_.speedup ? 2 : 1;
      cl_mem rows = buf(s, k, kRows, n);
      cl_mem mask = buf(s, k, kMask, std::size_t(side.d.w[0]) * std::size_t(side.d.h[0]));
      cl_kernel kr = s.kernel(kFile, "cambi_mask_rows");
      set_args(kr, img, cl_int(w), cl_int(h), rows);
      run2d(q, kr, std::size_t(w), std::size_t(h), 32, 8);
      cl_kernel km = s.kernel(kFile, "cambi_mask");
      set_args(km, rows, cl_int(w), cl_int(h), cl_uint(cambi::mask_threshold(unsigned(w), unsigned(h))), cl_int(step),
               cl_int(side.d.w[0]), cl_int(side.d.h[0]), mask);
      run2d(q, km, std::size_t(side.d.w[0]), std::size_t(side.d.h[0]), 32, 8);

      cl_mem mode = buf(s, k, kMode, side.total * 2);
      for (int sc = 0; sc < cambi::kScales; ++sc) {
        const int sw = side.d.w[sc], sh = side.d.h[sc];
        // Scale 0 reads the 10-bit picture (every other sample with the
        // speed-up), each later scale every other sample of the one before.
        const cl_int src_off = sc == 0 ? -1 : cl_int(side.off[sc - 1]);
        const cl_int sstride = sc == 0 ? w : side.d.w[sc - 1];
        const cl_int sstep = sc == 0 ? step : 2;
        cl_kernel kmo = s.kernel(kFile, "cambi_mode");
        set_args(kmo, mode, src_off, sstride, sstep, cl_int(sw), cl_int(sh), cl_int(side.off[sc]), img);
        run2d(q, kmo, std::size_t(sw), std::size_t(sh), 32, 8);

        const int pad = side.window >> 1;
        cl_kernel kc = s.kernel(kFile, "cambi_cvalues");
        set_args(kc, mode, cl_int(side.off[sc]), cl_int(sw), cl_int(sh), mask, cl_int(side.d.w[0]), cl_int(1 << sc),
                 cl_int(pad), cl_int(st_.num_diffs), cl_int(st_.band_base), cl_int(st_.band_size), cl_int(st_.vlt_luma),
                 params, recip);
        const std::size_t tile = (kTx + 2 * std::size_t(pad)) * (kTy + 2 * std::size_t(pad)) * 2;
        // The counters of nd <= 4 live in registers (the argument cannot be empty).
        const std::size_t bins =
            st_.num_diffs <= VMAFX_CAMBI_SMALL_ND ? 2 : std::size_t(2 * st_.num_diffs + 1) * kTx * kTy * 2;
        check(clSetKernelArg(kc, 14, tile, nullptr), "clSetKernelArg");
        check(clSetKernelArg(kc, 15, bins, nullptr), "clSetKernelArg");
        check(clSetKernelArg(kc, 16, sizeof(cl_mem), &cvals), "clSetKernelArg");
        const cl_int out_off = cl_int(base + side.off[sc]);
        check(clSetKernelArg(kc, 17, sizeof out_off, &out_off), "clSetKernelArg");
        const std::size_t global[2] = {(std::size_t(sw) + kTx - 1) / kTx * kTx,
                                       (std::size_t(sh) + kTy - 1) / kTy * kTy};
        const std::size_t local[2] = {kTx, kTy};
        ProfEvent ev(kc);
        check(clEnqueueNDRangeKernel(q, kc, 2, nullptr, global, local, 0, nullptr, ev.out()), "cambi: c-values");
      }
      base += side.total;
    }
    st.cvals.resize(all);
    st.read.start(q, cvals, st.cvals.data(), all * sizeof(float));
  }

  PictureFormat fmt_;
  cambi::Settings st_;
  std::vector<Side> sides_;
  cl_int params_[64] = {};
  std::unique_ptr<cambi::Heatmaps> heatmaps_;
};

}  // namespace

std::unique_ptr<Extractor> make_cambi_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f) {
  if (f.bpc < 8 || f.bpc > 16)  // the CPU's create() refusal
    throw unsupported_error("cambi: unsupported bit depth " + std::to_string(f.bpc) + " (8 to 16)");
  // The c-value kernel's work-group (256 items) and local memory (the
  // window's values and 2^max_log_contrast * 2 + 1 counters per item; 47 KiB
  // at most): a device without them gets no twin (the CPU scores cambi with
  // --backend auto).
  const cambi::Settings st = cambi::resolve(o, f);
  const std::size_t pad = std::max(st.window, st.src_window) >> 1;
  const std::size_t local = (kTx + 2 * pad) * (kTy + 2 * pad) * 2 + std::size_t(2 * st.num_diffs + 1) * kTx * kTy * 2;
  cl_ulong have = 0;
  check(clGetDeviceInfo(g->device().id(), CL_DEVICE_LOCAL_MEM_SIZE, sizeof have, &have, nullptr),
        "clGetDeviceInfo(CL_DEVICE_LOCAL_MEM_SIZE)");
  if (g->device().max_work_group() < kTx * kTy || have < local) return nullptr;
  return std::make_unique<CambiTwin>(std::move(g), o, f);
}

}  // namespace vmafx::ocl
