// OpenCL twin of "vif" (feature/vif.cpp): the four scales' integer sums on the
// device (vif.cl), the reference's finish() and outputs on the host.
#include <array>
#include <cstring>
#include <vector>

#include "feature/opencl/opencl_twin.hpp"
#include "feature/vif.hpp"
#include "feature/vif_tables.h"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "vif.cl";
constexpr std::size_t kMaxGroup = 256;  // VIF_WG in vif.cl
constexpr std::size_t kTileW = 64, kTileH = 4;        // VIF_TILE_W, VIF_TILE_H
constexpr std::size_t kSubTileW = 32, kSubTileH = 8;  // VIF_SUB_TW, VIF_SUB_TH

class VifTwin final : public Twin {
 public:
  VifTwin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f)
      : Twin(std::move(g)),
        fmt_(f),
        gain_limit_(o.get_double("vif_enhn_gain_limit")),
        debug_(o.get_bool("debug")),
        skip_scale0_(o.get_bool("vif_skip_scale0")) {
    std::memcpy(&limit_bits_, &gain_limit_, 8);
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const std::array<vif::ScaleResult, 4> s = compute(ref, dis, index);
    vif::write_scores(s, debug_, skip_scale0_, index, out);
  }

 private:
  std::array<vif::ScaleResult, 4> compute(const Picture& ref, const Picture& dis, unsigned index) {
    Slot& s = slot();
    cl_command_queue q = s.queue();
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    cl_mem log2 = s.device().table("vif_log2", vmafx_vif_log2_table, sizeof vmafx_vif_log2_table);
    const int bpc = fmt_.bpc;
    // scale planes 1..3 alternate between two pairs of buffers
    const std::size_t n1 = std::size_t(fmt_.width / 2) * (fmt_.height / 2);
    cl_mem lvl[2][2] = {{s.scratch(id_, 7, n1 * 2), s.scratch(id_, 8, n1 * 2)},
                        {s.scratch(id_, 9, n1 * 2), s.scratch(id_, 10, n1 * 2)}};
    // the four scales' per-group sums in one buffer, read back once; a group
    // is a tile of tw x th pixels (64 x 4, or what the kernel accepts)
    cl_kernel ks = s.kernel(kFile, "vif_statistic");
    std::size_t tw = kTileW, th = kTileH;
    while (tw * th > pow2_group(ks, kMaxGroup)) {
      if (th > 1) th /= 2;
      else tw /= 2;
    }
    // the subsampling's tiles: 32 x 8 outputs, or what the kernel accepts
    cl_kernel kd = s.kernel(kFile, "vif_subsample");
    std::size_t dw = kSubTileW, dh = kSubTileH;
    while (dw * dh > pow2_group(kd, kMaxGroup)) {
      if (dh > 1) dh /= 2;
      else dw /= 2;
    }
    std::size_t ngx[4], ngy[4], first_group[4];
    std::size_t total_groups = 0;
    for (int scale = 0; scale < 4; ++scale) {
      ngx[scale] = (std::size_t(fmt_.width >> scale) + tw - 1) / tw;
      ngy[scale] = (std::size_t(fmt_.height >> scale) + th - 1) / th;
      first_group[scale] = total_groups;
      total_groups += ngx[scale] * ngy[scale];
    }
    cl_mem partial = s.scratch(id_, 11, total_groups * 4 * 8);

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
      if (!(scale == 0 && skip_scale0_)) {
        set_args(ks, in_ref, in_dis, cl_int(w), cl_int(h), kind, cl_int(scale), mu_round, mu_shift, sq_round,
                 sq_shift, limit_bits_, log2, partial, cl_int(first_group[scale]));
        run2d(q, ks, ngx[scale] * tw, ngy[scale] * th, tw, th);
      }
      if (scale < 3) {
        const std::size_t oh = std::size_t(h / 2), ow = std::size_t(w / 2);
        cl_mem o_ref = lvl[scale & 1][0], o_dis = lvl[scale & 1][1];
        set_args(kd, in_ref, in_dis, cl_int(w), cl_int(h), kind, cl_int(scale + 1), mu_round, mu_shift, o_ref, o_dis);
        run2d(q, kd, (ow + dw - 1) / dw * dw, (oh + dh - 1) / dh * dh, dw, dh);
        in_ref = o_ref;
        in_dis = o_dis;
        kind = 1;
      }
    }
    std::array<vif::ScaleResult, 4> res{};
    thread_local std::vector<std::int64_t> all;
    all.resize(total_groups * 4);
    read(q, partial, all.data(), all.size() * 8);
    for (int scale = 0; scale < 4; ++scale) {
      if (scale == 0 && skip_scale0_) continue;
      const std::int64_t* buf = all.data() + first_group[scale] * 4;
      vif::Accum a;
      for (std::size_t g = 0; g < ngx[scale] * ngy[scale]; ++g) {
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
