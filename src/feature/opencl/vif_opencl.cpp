// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "vif" (feature/vif.cpp): the four scales' integer sums on the
// device (vif.cl), the reference's finish() and outputs on the host.
#include <array>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "feature/opencl/opencl_twin.hpp"
#include "feature/vif.hpp"
#include "exact/vif_tables.h"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "vif.cl";
constexpr std::size_t kMaxGroup = 256;                // VIF_WG in vif.cl
constexpr std::size_t kSubTileW = 32, kSubTileH = 8;  // VIF_SUB_TW, VIF_SUB_TH
constexpr std::size_t kV2TileW = 112, kV2TileH = 16;  // V2_TX, V2_TY (vif_statistic0_v2)

// The statistic of every scale runs in a tiled kernel that also makes the
// next scale (vif.cl says why the integers are the reference's):
//  - scale 0 of 8-bit input: vif_statistic0_v2;
//  - scales 1..3, and scale 0 above 8 bits: vif_stat_t9 / t5 / t3 / t17.
// The groups' sums are added on the device (vif_reduce_v2); only the scale
// 0 -> 1 subsampling with vif_skip_scale0 has a kernel of its own.
// The tiled kernels pair c[k] with c[T-1-k] of their copies of the tables
// (exact/vif_tables.h, which the OpenCL gate checks against the reference's
// outputs): every filter is symmetric (a unit test checks it).
bool symmetric(int filter) {
  const int t = vmafx_vif_filter_width[filter];
  for (int k = 0; k < t; ++k)
    if (vmafx_vif_filter[filter][k] != vmafx_vif_filter[filter][t - 1 - k]) return false;
  return true;
}

// The vt kernel of a scale (scale 0 above 8 bits, scales 1..3) and its
// output tile width (VT_TX = 16 XS by VT_TY = 16). Only the statistic pairs
// taps; the fused subsampling sums the taps of filter scale + 1 one by one.
struct VtKernel {
  const char* name;
  std::size_t tile_w;
};
VtKernel vt_kernel(int scale) {
  static const VtKernel k[4] = {{"vif_stat_t17", 96}, {"vif_stat_t9", 112}, {"vif_stat_t5", 112}, {"vif_stat_t3", 112}};
  return k[scale];
}
constexpr std::size_t kVtTileH = 16;  // VT_TY

// One thread's frame in flight: what it is, where its sums are read back
// to (per scale: the first group and the number of groups in `sums`).
struct Pending : FrameState {
  std::vector<std::int64_t> sums;
  std::size_t first[4] = {}, groups[4] = {};
};

class VifTwin final : public FrameTwin<Pending> {
 public:
  VifTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : FrameTwin(std::move(g)),
        fmt_(f),
        gain_limit_(o.get_double("vif_enhn_gain_limit")),
        debug_(o.get_bool("debug")),
        skip_scale0_(o.get_bool("vif_skip_scale0")) {
    std::memcpy(&limit_bits_, &gain_limit_, 8);
    for (int f = 0; f < 4; ++f)
      if (!symmetric(f)) throw std::logic_error("vif (opencl): the tiled kernels need symmetric filters");
  }

 private:
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    vif::write_scores(finish(st), debug_, skip_scale0_, index, out);
  }

  // Every kernel of the frame and the (non-blocking) read of the sums.
  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    cl_command_queue q = s.queue();
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    cl_mem log2 = s.device().table("vif_log2", vmafx_vif_log2_table, sizeof vmafx_vif_log2_table);
    const int bpc = fmt_.bpc;
    // scale planes 1..3 alternate between two pairs of buffers
    const std::size_t n1 = std::size_t(fmt_.width / 2) * (fmt_.height / 2);
    cl_mem lvl[2][2] = {{s.scratch(id_, 7, n1 * 2), s.scratch(id_, 8, n1 * 2)},
                        {s.scratch(id_, 9, n1 * 2), s.scratch(id_, 10, n1 * 2)}};
    // the subsampling's tiles (vif_skip_scale0 only): 32 x 8 outputs, or what the kernel accepts
    cl_kernel kd = skip_scale0_ ? s.kernel(kFile, "vif_subsample") : nullptr;
    std::size_t dw = kSubTileW, dh = kSubTileH;
    while (kd && dw * dh > pow2_group(kd, kMaxGroup)) {
      if (dh > 1)
        dh /= 2;
      else
        dw /= 2;
    }
    // scale 0 of 8-bit input by the v2 kernel (112 x 16 outputs per group of up to 256 items),
    // the other statistics by the vt kernels (VT_TX x 16 outputs)
    const bool v2 = bpc == 8 && !skip_scale0_;
    cl_kernel k0 = v2 ? s.kernel(kFile, "vif_statistic0_v2") : nullptr;
    cl_kernel kt[4] = {};
    std::size_t ttw[4] = {};
    for (int scale = 0; scale < 4; ++scale) {
      if (scale == 0 && (v2 || skip_scale0_)) continue;
      const VtKernel v = vt_kernel(scale);
      kt[scale] = s.kernel(kFile, v.name);
      ttw[scale] = v.tile_w;
    }
    std::size_t ngx[4], ngy[4], first_group[4];
    std::size_t total_groups = 0;
    for (int scale = 0; scale < 4; ++scale) {
      std::size_t gw = 1, gh = 1;  // scale 0 with vif_skip_scale0: no groups
      if (scale == 0 && v2)
        gw = kV2TileW, gh = kV2TileH;
      else if (kt[scale])
        gw = ttw[scale], gh = kVtTileH;
      ngx[scale] = (std::size_t(fmt_.width >> scale) + gw - 1) / gw;
      ngy[scale] = (std::size_t(fmt_.height >> scale) + gh - 1) / gh;
      if (scale == 0 && skip_scale0_) ngx[0] = ngy[0] = 0;
      first_group[scale] = total_groups;
      total_groups += ngx[scale] * ngy[scale];
    }

    cl_mem partial = s.scratch(id_, 11, std::max<std::size_t>(total_groups, 1) * 4 * 8);
    cl_mem in_ref = pl.ref, in_dis = pl.dis;
    cl_int kind = bpc > 8 ? 1 : 0;
    for (int scale = 0; scale < 4; ++scale) {
      const int w = fmt_.width >> scale, h = fmt_.height >> scale;
      cl_uint mu_round = 32768;
      cl_int mu_shift = 16;
      cl_ulong sq_round = 32768;
      cl_int sq_shift = 16;
      if (scale == 0) {
        const int sq = 2 * (bpc - 8);
        mu_round = 1u << (bpc - 1);
        mu_shift = bpc;
        sq_round = sq ? (cl_ulong(1) << (sq - 1)) : 0;
        sq_shift = sq;
      }
      // the output of the subsampling to scale + 1
      cl_mem o_ref = lvl[scale & 1][0], o_dis = lvl[scale & 1][1];
      bool fused = false;  // whether the statistic's kernel also made scale + 1
      if (scale == 0 && v2) {
        // 8-byte loads of interior tiles: rows 8-byte aligned (buffers are at least that)
        const cl_int vec = (w % 8) == 0 ? 1 : 0;
        const std::size_t lw = pow2_group(k0, kMaxGroup);
        // the kernel also makes scale 1 (the subsampling below), into lvl[0]
        set_args(k0, in_ref, in_dis, cl_int(w), cl_int(h), vec, limit_bits_, log2, partial, cl_int(first_group[0]),
                 lvl[0][0], lvl[0][1]);
        run2d(q, k0, ngx[0] * lw, ngy[0], lw, 1);
        fused = true;
      } else if (kt[scale]) {
        // scale 3 makes no next scale: its output arguments are unused
        const std::size_t lw = pow2_group(kt[scale], kMaxGroup);
        set_args(kt[scale], in_ref, in_dis, cl_int(w), cl_int(h), mu_round, mu_shift, sq_round, sq_shift, limit_bits_,
                 log2, partial, cl_int(first_group[scale]), o_ref, o_dis);
        run2d(q, kt[scale], ngx[scale] * lw, ngy[scale], lw, 1);
        fused = scale < 3;
      }
      if (scale < 3) {
        const std::size_t oh = std::size_t(h / 2), ow = std::size_t(w / 2);
        if (!fused) {
          set_args(kd, in_ref, in_dis, cl_int(w), cl_int(h), kind, cl_int(scale + 1), mu_round, mu_shift, o_ref, o_dis);
          run2d(q, kd, (ow + dw - 1) / dw * dw, (oh + dh - 1) / dh * dh, dw, dh);
        }
        in_ref = o_ref;
        in_dis = o_dis;
        kind = 1;
      }
    }
    // the groups' sums added on the device, one work-group per scale: 128 bytes read back
    cl_kernel kr = s.kernel(kFile, "vif_reduce_v2");
    cl_mem out = s.scratch(id_, 12, 16 * 8);
    cl_int fc[8];
    for (int scale = 0; scale < 4; ++scale) {
      fc[2 * scale] = cl_int(first_group[scale]);
      fc[2 * scale + 1] = cl_int(ngx[scale] * ngy[scale]);
      st.first[scale] = std::size_t(scale);
      st.groups[scale] = 1;
    }
    const std::size_t lr = pow2_group(kr, kMaxGroup);
    set_args(kr, partial, fc[0], fc[1], fc[2], fc[3], fc[4], fc[5], fc[6], fc[7], out);
    run(q, kr, 4 * lr, lr);
    st.sums.resize(16);
    st.read.start(q, out, st.sums.data(), 16 * 8);
  }

  // The host's part: every scale's groups added (integers: any order), then
  // the reference's finish.
  std::array<vif::ScaleResult, 4> finish(const Pending& st) const {
    std::array<vif::ScaleResult, 4> res{};
    for (int scale = 0; scale < 4; ++scale) {
      if (scale == 0 && skip_scale0_) continue;
      const std::int64_t* buf = st.sums.data() + st.first[scale] * 4;
      vif::Accum a;
      for (std::size_t g = 0; g < st.groups[scale]; ++g) {
        a.num_log += buf[4 * g];
        a.den_log += buf[4 * g + 1];
        a.num_non_log += buf[4 * g + 2];
        a.den_non_log += buf[4 * g + 3];
      }
      res[std::size_t(scale)] = vif::finish(a);
    }
    return res;
  }

  PictureFormat fmt_;
  double gain_limit_;
  bool debug_, skip_scale0_;
  std::uint64_t limit_bits_ = 0;
};

}  // namespace

std::unique_ptr<Extractor> make_vif_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f) {
  return std::make_unique<VifTwin>(std::move(g), o, f);
}

}  // namespace vmafx::ocl
