// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of "adm" (feature/adm.cpp): DWT, decoupling, CSF and the
// per-row sums of the denominator and the contrast masking on the device
// (adm.cl); the row shifts, the per-scale float finish, the pooling and the
// outputs on the host, written as the reference writes them.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "feature/adm.hpp"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "adm.cl";
constexpr std::size_t kMaxGroup = 256;  // ADM_WG in adm.cl

// The reference's conversions and helpers (feature/adm.cpp).
using adm::filter_region;
using adm::Region;
using adm::score_region;

// One thread's frame in flight: what it is, and the device's totals once read.
struct Pending : FrameState {
  std::int64_t sum[12][3] = {};
};

class AdmTwin final : public FrameTwin<Pending> {
 public:
  AdmTwin(std::shared_ptr<FrameGroup> g, const adm::Params& p, bool debug, const PictureFormat& f)
      : FrameTwin(std::move(g)), p_(p), f_(adm::csf_factors(p)), debug_(debug), fmt_(f) {
    std::memcpy(&egl_bits_, &p_.enhn_gain_limit, 8);
    // an integer limit (the option lies in [1, 100]) takes adm.cl's int64 path
    const double lim = p_.enhn_gain_limit;
    if (lim >= 1.0 && lim <= 100.0 && lim == std::floor(lim)) egl_int_ = static_cast<std::int64_t>(lim);
    cos_bits_ = f32_bits(adm::kCos1DegSq);
  }

 private:
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    adm::write_scores(adm::scores_from_totals(p_, f_, fmt_.width, fmt_.height, &st.sum[0][0]), debug_, index, out);
  }

 private:
  // Row sums of one stage: rows [first, first + rows) of the shared buffer, [row][band].
  struct Rows {
    int first = 0;
    int rows = 0;
  };

  // A DWT step with hw x hh outputs per picture: tiles of ADM_TX x ADM_TY, both pictures.
  static void dwt_launch(Slot& s, cl_kernel k, int hw, int hh) {
    constexpr std::size_t tx = 32, ty = 8;  // ADM_TX, ADM_TY in adm.cl
    const std::size_t lx = pow2_group(k, kMaxGroup);
    const std::size_t gx = (std::size_t(hw) + tx - 1) / tx, gy = 2 * ((std::size_t(hh) + ty - 1) / ty);
    run2d(s.queue(), k, gx * lx, gy, lx, 1);
  }

  void launch_rows(Slot& s, cl_kernel k, int rows, Rows& r) {
    r.rows = rows;
    const std::size_t lx = pow2_group(k, kMaxGroup);
    run(s.queue(), k, std::size_t(rows) * lx, lx);
  }

  // Every kernel of the frame and the (non-blocking) read of the totals.
  void enqueue(Slot& s, const Picture& refp, const Picture& disp, unsigned index, Pending& st) override {
    cl_command_queue q = s.queue();
    const Slot::Planes pl = s.planes(refp, disp, index, 0);
    int w = fmt_.width, h = fmt_.height;
    const int w0 = (w + 1) / 2, h0 = (h + 1) / 2;
    const int w1 = (w0 + 1) / 2, h1 = (h0 + 1) / 2;
    const std::size_t p0 = std::size_t(w0) * h0, p1 = std::size_t(w1) * h1;
    int sid = 0;
    auto buf = [&](std::size_t bytes) { return s.scratch(id_, sid++, bytes); };
    // scale 0
    cl_mem ref16 = buf(4 * p0 * 2), dis16 = buf(4 * p0 * 2);
    cl_mem r16 = buf(3 * p0 * 2), a16 = buf(3 * p0 * 2);
    // scales 1..3
    cl_mem ref32[2] = {buf(4 * p1 * 4), buf(4 * p1 * 4)}, dis32[2] = {buf(4 * p1 * 4), buf(4 * p1 * 4)};
    cl_mem r32 = buf(3 * p1 * 4), a32 = buf(3 * p1 * 4);
    // the masking terms of r and a (adm.cl, "CSF"): two uint32 planes each
    cl_mem mr0 = buf(2 * p0 * 4), ma0 = buf(2 * p0 * 4), mr1 = buf(2 * p1 * 4), ma1 = buf(2 * p1 * 4);
    // every stage's row sums in one buffer, totalled on the device (adm_rows_total)
    Rows den[4], num[4], aim[4];
    for (int k = 0; k < 4; ++k) {
      den[k].first = (3 * k) * h0;
      num[k].first = (3 * k + 1) * h0;
      aim[k].first = (3 * k + 2) * h0;
    }
    const std::size_t all_rows = std::size_t(12) * h0;
    cl_mem rows_mem = buf(all_rows * 3 * 8);
    const cl_int wide = fmt_.bpc > 8 ? 1 : 0;
    const cl_int with_aim = p_.skip_aim ? 0 : 1;

    // ---- enqueue every stage of every scale (four launches per scale) ----
    int bw[4], bh[4];
    {
      cl_kernel kd = s.kernel(kFile, "adm_dwt");
      set_args(kd, pl.ref, pl.dis, cl_int(0), wide, cl_int(fmt_.bpc), cl_int(w), cl_int(h), ref16, dis16);
      dwt_launch(s, kd, w0, h0);
      w = w0;
      h = h0;
      bw[0] = w;
      bh[0] = h;
      if (!p_.skip_scale0) {
        const Region fr = filter_region(w, h), sr = score_region(w, h);
        const cl_int n = cl_int(p0);
        const std::uint16_t* rf = f_.s0_rfactor;
        cl_kernel kd = s.kernel(kFile, "adm_decouple");
        set_args(kd, ref16, dis16, cl_int(1), cl_int(w), n, cl_int(fr.left), cl_int(fr.right), cl_int(fr.top),
                 cl_int(fr.bottom), egl_bits_, cl_long(egl_int_), cos_bits_, cl_uint(rf[0]), cl_uint(rf[1]),
                 cl_uint(rf[2]), r16, a16, mr0, ma0);
        run2d(q, kd, std::size_t(fr.right - fr.left), std::size_t(fr.bottom - fr.top), 32, 8);
        cl_kernel kden = s.kernel(kFile, "adm_den");
        set_args(kden, ref16, cl_int(1), cl_int(w), n, cl_int(sr.left), cl_int(sr.right), cl_int(sr.top), cl_int(0),
                 cl_int(0), cl_ulong(0), rows_mem, cl_int(den[0].first));
        launch_rows(s, kden, sr.bottom - sr.top, den[0]);
        const adm::ScaleConsts c = adm::scale_consts(0, w, h);
        const std::uint32_t* sc = c.cm_shift;
        const std::int64_t* ac = c.cm_add;
        cl_kernel km = s.kernel(kFile, "adm_cm");
        set_args(km, r16, a16, mr0, ma0, cl_int(1), cl_int(w), cl_int(h), n, cl_int(sr.left), cl_int(sr.right),
                 cl_int(sr.top), cl_uint(rf[0]), cl_uint(rf[1]), cl_uint(rf[2]), cl_uint(sc[0]), cl_uint(sc[1]),
                 cl_uint(sc[2]), cl_long(ac[0]), cl_long(ac[1]), cl_long(ac[2]), with_aim, rows_mem,
                 cl_int(num[0].first), cl_int(aim[0].first));
        launch_rows(s, km, sr.bottom - sr.top, num[0]);
        aim[0].rows = num[0].rows;
      }
    }
    for (int scale = 1; scale < 4; ++scale) {
      const int cur = scale & 1, prev = cur ^ 1;
      const int hw = (w + 1) / 2, hh = (h + 1) / 2;
      cl_kernel kt = s.kernel(kFile, "adm_dwt");
      set_args(kt, scale == 1 ? ref16 : ref32[prev], scale == 1 ? dis16 : dis32[prev], cl_int(scale), cl_int(0),
               cl_int(fmt_.bpc), cl_int(w), cl_int(h), ref32[cur], dis32[cur]);
      dwt_launch(s, kt, hw, hh);
      w = hw;
      h = hh;
      bw[scale] = w;
      bh[scale] = h;
      const Region fr = filter_region(w, h), sr = score_region(w, h);
      const cl_int n = cl_int(std::size_t(w) * h);
      const std::uint32_t* rf = f_.s123_rfactor[scale - 1];
      cl_kernel kd = s.kernel(kFile, "adm_decouple");
      set_args(kd, ref32[cur], dis32[cur], cl_int(0), cl_int(w), n, cl_int(fr.left), cl_int(fr.right), cl_int(fr.top),
               cl_int(fr.bottom), egl_bits_, cl_long(egl_int_), cos_bits_, cl_uint(rf[0]), cl_uint(rf[1]),
               cl_uint(rf[2]), r32, a32, mr1, ma1);
      run2d(q, kd, std::size_t(fr.right - fr.left), std::size_t(fr.bottom - fr.top), 32, 8);
      // denominator
      const adm::ScaleConsts c = adm::scale_consts(scale, w, h);
      cl_kernel kden = s.kernel(kFile, "adm_den");
      set_args(kden, ref32[cur], cl_int(0), cl_int(w), n, cl_int(sr.left), cl_int(sr.right), cl_int(sr.top),
               cl_int(c.den_sq_shift), cl_int(c.den_cub_shift), cl_ulong(c.den_cub_add), rows_mem,
               cl_int(den[scale].first));
      launch_rows(s, kden, sr.bottom - sr.top, den[scale]);
      // masking: num and aim in one launch
      const std::uint32_t shift_cub = c.cm_shift[0];
      const std::int64_t add_cub = c.cm_add[0];
      cl_kernel km = s.kernel(kFile, "adm_cm");
      set_args(km, r32, a32, mr1, ma1, cl_int(0), cl_int(w), cl_int(h), n, cl_int(sr.left), cl_int(sr.right),
               cl_int(sr.top), cl_uint(rf[0]), cl_uint(rf[1]), cl_uint(rf[2]), cl_uint(shift_cub), cl_uint(shift_cub),
               cl_uint(shift_cub), cl_long(add_cub), cl_long(add_cub), cl_long(add_cub), with_aim, rows_mem,
               cl_int(num[scale].first), cl_int(aim[scale].first));
      launch_rows(s, km, sr.bottom - sr.top, num[scale]);
      aim[scale].rows = num[scale].rows;
    }

    // ---- the rows' last integer step on the device ----
    cl_int4 nrows{}, dsh{}, csh{};
    cl_ulong4 dadd{};
    cl_long4 cadd{};
    for (int k = 0; k < 4; ++k) {
      const adm::ScaleConsts c = adm::scale_consts(k, bw[k], bh[k]);
      nrows.s[k] = den[k].rows;
      dadd.s[k] = c.den_add;
      dsh.s[k] = c.den_shift;
      cadd.s[k] = c.row_add;
      csh.s[k] = static_cast<cl_int>(c.row_shift);
    }
    cl_kernel kt = s.kernel(kFile, "adm_rows_total");
    cl_mem totals = buf(12 * 3 * 8);
    set_args(kt, rows_mem, cl_int(h0), nrows, dadd, dsh, cadd, csh, totals);
    const std::size_t lt = pow2_group(kt, kMaxGroup);
    run(q, kt, 12 * lt, lt);
    st.read.start(q, totals, st.sum, sizeof st.sum);
  }

  adm::Params p_;
  adm::Factors f_;
  bool debug_;
  PictureFormat fmt_;
  std::uint64_t egl_bits_ = 0;
  std::int64_t egl_int_ = 0;
  std::uint32_t cos_bits_ = 0;
};

}  // namespace

std::unique_ptr<Extractor> make_adm_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f) {
  return std::make_unique<AdmTwin>(std::move(g), adm::params(o), o.get_bool("debug"), f);
}

}  // namespace vmafx::ocl
