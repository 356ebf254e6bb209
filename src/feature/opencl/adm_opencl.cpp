// OpenCL twin of "adm" (feature/adm.cpp): DWT, decoupling, CSF and the
// per-row sums of the denominator and the contrast masking on the device
// (adm.cl); the row shifts, the per-scale float finish, the pooling and the
// outputs on the host, written as the reference writes them.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "feature/adm.hpp"
#include "feature/adm_tables.h"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "adm.cl";
constexpr std::size_t kMaxGroup = 256;  // ADM_WG in adm.cl
constexpr double kPi = 3.14159265358979323846;

// The reference's conversions and helpers (feature/adm.cpp).
std::uint32_t to_u32(double x) {
  const std::int64_t v = (x > -9223372036854775808.0 && x < 9223372036854775808.0)
                             ? static_cast<std::int64_t>(x)
                             : std::numeric_limits<std::int64_t>::min();
  return static_cast<std::uint32_t>(v);
}
std::int32_t ceil_log2(std::int64_t n) {
  return static_cast<std::int32_t>(std::bit_width(static_cast<std::uint64_t>(n - 1)));
}
struct Region {
  int top, bottom, left, right;
};
Region score_region(int w, int h) {
  const int left = static_cast<int>(w * VMAFX_ADM_BORDER_FACTOR - 0.5);
  const int top = static_cast<int>(h * VMAFX_ADM_BORDER_FACTOR - 0.5);
  return {top, h - top, left, w - left};
}
Region filter_region(int w, int h) {
  int left = static_cast<int>(w * VMAFX_ADM_BORDER_FACTOR - 0.5 - 1);
  int top = static_cast<int>(h * VMAFX_ADM_BORDER_FACTOR - 0.5 - 1);
  int right = w - left + 2;
  int bottom = h - top + 2;
  if (left < 0) left = 0;
  if (right > w) right = w;
  if (top < 0) top = 0;
  if (bottom > h) bottom = h;
  return {top, bottom, left, right};
}

std::uint32_t f32_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

class AdmTwin final : public Twin {
 public:
  AdmTwin(std::shared_ptr<FrameGroup> g, const adm::Params& p, bool debug, const PictureFormat& f)
      : Twin(std::move(g)), p_(p), f_(adm::csf_factors(p)), debug_(debug), fmt_(f) {
    std::memcpy(&egl_bits_, &p_.enhn_gain_limit, 8);
    const float cos_sq = static_cast<float>(std::cos(1.0 * kPi / 180.0) * std::cos(1.0 * kPi / 180.0));
    cos_bits_ = f32_bits(cos_sq);
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const adm::Scores s = compute(ref, dis, index);
    out.put("VMAF_integer_feature_adm2_score", index, s.adm2);
    out.put("VMAF_integer_feature_aim_score", index, s.aim);
    out.put("VMAF_integer_feature_adm3_score", index, s.adm3);
    out.put("integer_adm_scale0", index, s.num_scale[0] / s.den_scale[0]);
    out.put("integer_adm_scale1", index, s.num_scale[1] / s.den_scale[1]);
    out.put("integer_adm_scale2", index, s.num_scale[2] / s.den_scale[2]);
    out.put("integer_adm_scale3", index, s.num_scale[3] / s.den_scale[3]);
    if (!debug_) return;
    out.put("integer_adm", index, s.adm2);
    out.put("integer_adm_num", index, s.num);
    out.put("integer_adm_den", index, s.den);
    static constexpr std::string_view kNum[4] = {"integer_adm_num_scale0", "integer_adm_num_scale1",
                                                 "integer_adm_num_scale2", "integer_adm_num_scale3"};
    static constexpr std::string_view kDen[4] = {"integer_adm_den_scale0", "integer_adm_den_scale1",
                                                 "integer_adm_den_scale2", "integer_adm_den_scale3"};
    for (int k = 0; k < 4; ++k) {
      out.put(kNum[k], index, s.num_scale[k]);
      out.put(kDen[k], index, s.den_scale[k]);
    }
  }

 private:
  // Row sums of one stage: rows [first, first + rows) of the shared buffer, [row][band].
  struct Rows {
    int first = 0;
    int rows = 0;
    const std::int64_t* v = nullptr;
  };

  void launch_rows(Slot& s, cl_kernel k, int rows, Rows& r) {
    r.rows = rows;
    const std::size_t lx = pow2_group(k, kMaxGroup);
    run(s.queue(), k, std::size_t(rows) * lx, lx);
  }

  adm::Scores compute(const Picture& refp, const Picture& disp, unsigned index) {
    Slot& s = slot();
    cl_command_queue q = s.queue();
    const Slot::Planes pl = s.planes(refp, disp, index, 0);
    int w = fmt_.width, h = fmt_.height;
    const double numden_limit = 1e-10 * (w * h) / (1920.0 * 1080.0);
    const int w0 = (w + 1) / 2, h0 = (h + 1) / 2;
    const int w1 = (w0 + 1) / 2, h1 = (h0 + 1) / 2;
    const std::size_t p0 = std::size_t(w0) * h0, p1 = std::size_t(w1) * h1;
    int sid = 0;
    auto buf = [&](std::size_t bytes) { return s.scratch(id_, sid++, bytes); };
    // scale 0
    cl_mem t16[4] = {buf(std::size_t(h0) * w * 2), buf(std::size_t(h0) * w * 2), buf(std::size_t(h0) * w * 2),
                     buf(std::size_t(h0) * w * 2)};  // lo, hi of ref; lo, hi of dis
    cl_mem ref16 = buf(4 * p0 * 2), dis16 = buf(4 * p0 * 2);
    cl_mem r16 = buf(3 * p0 * 2), a16 = buf(3 * p0 * 2);
    // scales 1..3
    cl_mem t32[4] = {buf(std::size_t(h1) * w0 * 4), buf(std::size_t(h1) * w0 * 4), buf(std::size_t(h1) * w0 * 4),
                     buf(std::size_t(h1) * w0 * 4)};
    cl_mem ref32[2] = {buf(4 * p1 * 4), buf(4 * p1 * 4)}, dis32[2] = {buf(4 * p1 * 4), buf(4 * p1 * 4)};
    cl_mem r32 = buf(3 * p1 * 4), a32 = buf(3 * p1 * 4);
    // every stage's row sums in one buffer, read back once
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

    // ---- enqueue every stage of every scale (five launches per scale) ----
    int bw[4], bh[4];
    {
      cl_kernel kv = s.kernel(kFile, "adm_dwt0_v");
      set_args(kv, pl.ref, pl.dis, cl_int(w), cl_int(h), wide, cl_int(fmt_.bpc), t16[0], t16[1], t16[2], t16[3]);
      run2d(q, kv, std::size_t(w), 2 * std::size_t(h0), 32, 8);
      cl_kernel kh = s.kernel(kFile, "adm_dwt0_h");
      set_args(kh, t16[0], t16[1], t16[2], t16[3], cl_int(w), cl_int(h0), ref16, dis16);
      run2d(q, kh, std::size_t(w0), 2 * std::size_t(h0), 32, 8);
      w = w0;
      h = h0;
      bw[0] = w;
      bh[0] = h;
      if (!p_.skip_scale0) {
        const Region fr = filter_region(w, h), sr = score_region(w, h);
        const cl_int n = cl_int(p0);
        cl_kernel kd = s.kernel(kFile, "adm_decouple0");
        set_args(kd, ref16, dis16, cl_int(w), n, cl_int(fr.left), cl_int(fr.right), cl_int(fr.top), cl_int(fr.bottom),
                 egl_bits_, cos_bits_, r16, a16);
        run2d(q, kd, std::size_t(fr.right - fr.left), std::size_t(fr.bottom - fr.top), 32, 8);
        cl_kernel kden = s.kernel(kFile, "adm_den0");
        set_args(kden, ref16, cl_int(w), n, cl_int(sr.left), cl_int(sr.right), cl_int(sr.top), cl_int(0), rows_mem,
                 cl_int(den[0].first));
        launch_rows(s, kden, sr.bottom - sr.top, den[0]);
        const std::uint16_t* rf = f_.s0_rfactor;
        std::uint32_t sc[3], ac[3];
        for (int t = 0; t < 3; ++t) {
          sc[t] = static_cast<std::uint32_t>(ceil_log2(w) - vmafx_adm_s0_cub_bias[t]);
          ac[t] = to_u32(std::pow(2.0, static_cast<double>(sc[t] - 1u)));
        }
        cl_kernel km = s.kernel(kFile, "adm_cm0");
        set_args(km, r16, a16, cl_int(w), cl_int(h), n, cl_int(sr.left), cl_int(sr.right), cl_int(sr.top),
                 cl_uint(rf[0]), cl_uint(rf[1]), cl_uint(rf[2]), cl_uint(sc[0]), cl_uint(sc[1]), cl_uint(sc[2]),
                 cl_long(ac[0]), cl_long(ac[1]), cl_long(ac[2]), with_aim, rows_mem, cl_int(num[0].first),
                 cl_int(aim[0].first));
        launch_rows(s, km, sr.bottom - sr.top, num[0]);
        aim[0].rows = num[0].rows;
      }
    }
    for (int scale = 1; scale < 4; ++scale) {
      const int cur = scale & 1, prev = cur ^ 1;
      const std::int64_t vr = vmafx_adm_s123_v_round[scale - 1];
      const int vs = vmafx_adm_s123_v_shift[scale - 1];
      const std::int64_t hr = vmafx_adm_s123_h_round[scale - 1];
      const int hs = vmafx_adm_s123_h_shift[scale - 1];
      const int hw = (w + 1) / 2, hh = (h + 1) / 2;
      cl_kernel kv = s.kernel(kFile, "adm_dwt123_v");
      const cl_int is16 = scale == 1 ? 1 : 0;
      set_args(kv, ref16, dis16, ref32[prev], dis32[prev], is16, cl_int(w), cl_int(h), cl_long(vr), cl_int(vs),
               t32[0], t32[1], t32[2], t32[3]);
      run2d(q, kv, std::size_t(w), 2 * std::size_t(hh), 32, 8);
      cl_kernel kh = s.kernel(kFile, "adm_dwt123_h");
      set_args(kh, t32[0], t32[1], t32[2], t32[3], cl_int(w), cl_int(hh), cl_long(hr), cl_int(hs), ref32[cur],
               dis32[cur]);
      run2d(q, kh, std::size_t(hw), 2 * std::size_t(hh), 32, 8);
      w = hw;
      h = hh;
      bw[scale] = w;
      bh[scale] = h;
      const Region fr = filter_region(w, h), sr = score_region(w, h);
      const cl_int n = cl_int(std::size_t(w) * h);
      cl_kernel kd = s.kernel(kFile, "adm_decouple123");
      set_args(kd, ref32[cur], dis32[cur], cl_int(w), n, cl_int(fr.left), cl_int(fr.right), cl_int(fr.top),
               cl_int(fr.bottom), egl_bits_, cos_bits_, r32, a32);
      run2d(q, kd, std::size_t(fr.right - fr.left), std::size_t(fr.bottom - fr.top), 32, 8);
      // denominator
      const std::uint32_t sq_shift = static_cast<std::uint32_t>(vmafx_adm_s123_den_sq_shift[scale - 1]);
      const std::uint32_t dshift_cub = static_cast<std::uint32_t>(ceil_log2(sr.right - sr.left));
      const std::uint64_t dadd_cub = to_u32(std::pow(2.0, static_cast<double>(dshift_cub - 1u)));
      cl_kernel kden = s.kernel(kFile, "adm_den123");
      set_args(kden, ref32[cur], cl_int(w), n, cl_int(sr.left), cl_int(sr.right), cl_int(sr.top), cl_int(sq_shift),
               cl_int(dshift_cub), cl_ulong(dadd_cub), rows_mem, cl_int(den[scale].first));
      launch_rows(s, kden, sr.bottom - sr.top, den[scale]);
      // masking: num and aim in one launch
      const std::uint32_t* rf = f_.s123_rfactor[scale - 1];
      const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(w));
      const std::int64_t add_cub = to_u32(std::pow(2.0, static_cast<double>(shift_cub - 1u)));
      cl_kernel km = s.kernel(kFile, "adm_cm123");
      set_args(km, r32, a32, cl_int(w), cl_int(h), n, cl_int(sr.left), cl_int(sr.right), cl_int(sr.top),
               cl_uint(rf[0]), cl_uint(rf[1]), cl_uint(rf[2]), cl_uint(shift_cub), cl_long(add_cub), with_aim,
               rows_mem, cl_int(num[scale].first), cl_int(aim[scale].first));
      launch_rows(s, km, sr.bottom - sr.top, num[scale]);
      aim[scale].rows = num[scale].rows;
    }

    // ---- read back and finish as the reference does ----
    thread_local std::vector<std::int64_t> all;
    all.resize(all_rows * 3);
    read(q, rows_mem, all.data(), all.size() * 8);
    for (Rows* r : {den, num, aim})
      for (int k = 0; k < 4; ++k) r[k].v = all.data() + std::size_t(r[k].first) * 3;
    adm::Scores out;
    double numt = 0, dent = 0, aim_num = 0;
    for (int scale = 0; scale < 4; ++scale) {
      float num_scale = 0.0f, den_scale = 0.0f, aim_scale = 0.0f;
      if (scale == 0 && p_.skip_scale0) {
        den_scale = 1e-10f;
      } else {
        den_scale = finish_den(scale, bw[scale], bh[scale], den[scale]);
        num_scale = finish_cm(scale, bw[scale], bh[scale], num[scale], p_.noise_weight);
        if (!p_.skip_aim) aim_scale = finish_cm(scale, bw[scale], bh[scale], aim[scale], 0.0);
      }
      numt += num_scale;
      dent += den_scale;
      aim_num += aim_scale;
      out.num_scale[scale] = num_scale;
      out.den_scale[scale] = den_scale;
    }
    numt = numt < numden_limit ? 0 : numt;
    dent = dent < numden_limit ? 0 : dent;
    if (dent == 0.0) {
      out.adm2 = 1.0f;
      out.aim = 0.0;
    } else {
      out.aim = aim_num / dent;
      out.adm2 = numt / dent;
    }
    out.num = numt;
    out.den = dent;
    const double adm3 = out.adm2 * p_.dlm_weight + (1 - out.aim) * (1 - p_.dlm_weight);
    out.adm3 = adm3 > p_.min_val ? adm3 : p_.min_val;
    return out;
  }

  // den_s0 / den_s123 after their row loops.
  float finish_den(int scale, int w, int h, const Rows& rows) const {
    const Region g = score_region(w, h);
    const float* rf = f_.rfactor[scale];
    std::uint64_t acc[3] = {0, 0, 0};
    double shift_csf;
    if (scale == 0) {
      std::int32_t shift_accum =
          ceil_log2(static_cast<std::int64_t>(g.bottom - g.top) * (g.right - g.left)) - VMAFX_ADM_S0_DEN_AREA_BIAS;
      shift_accum = shift_accum > 0 ? shift_accum : 0;
      const std::uint64_t add = shift_accum > 0 ? (std::uint64_t{1} << (shift_accum - 1)) : 0;
      for (int r = 0; r < rows.rows; ++r)
        for (int t = 0; t < 3; ++t)
          acc[t] += (static_cast<std::uint64_t>(rows.v[std::size_t(3 * r + t)]) + add) >> shift_accum;
      shift_csf = std::pow(2.0, static_cast<double>(VMAFX_ADM_S0_DEN_EXP - shift_accum));
    } else {
      const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(g.right - g.left));
      const std::uint32_t shift_accum = static_cast<std::uint32_t>(ceil_log2(g.bottom - g.top));
      const std::uint64_t add_accum = to_u32(std::pow(2.0, static_cast<double>(shift_accum - 1u)));
      for (int r = 0; r < rows.rows; ++r)
        for (int t = 0; t < 3; ++t)
          acc[t] += (static_cast<std::uint64_t>(rows.v[std::size_t(3 * r + t)]) + add_accum) >> shift_accum;
      const std::uint32_t e =
          static_cast<std::uint32_t>(vmafx_adm_s123_den_exp[scale - 1]) - shift_accum - shift_cub;
      shift_csf = std::pow(2.0, static_cast<double>(e));
    }
    const float third = 1.0f / 3.0f;
    const float powf_add = ::powf(
        static_cast<float>(static_cast<double>((g.bottom - g.top) * (g.right - g.left)) * p_.noise_weight), third);
    float d[3];
    for (int t = 0; t < 3; ++t) {
      const double csf = (static_cast<double>(acc[t]) / shift_csf) * std::pow(static_cast<double>(rf[t]), 3.0);
      d[t] = ::powf(static_cast<float>(csf), third) + powf_add;
    }
    return d[0] + d[1] + d[2];
  }

  // cm_s0 / cm_s123 after their row loops.
  float finish_cm(int scale, int w, int h, const Rows& rows, double noise_weight) const {
    const Region g = score_region(w, h);
    const std::uint32_t shift_rows = static_cast<std::uint32_t>(ceil_log2(h));
    const std::int64_t add_rows = to_u32(std::pow(2.0, static_cast<double>(shift_rows - 1u)));
    std::int64_t acc[3] = {0, 0, 0};
    for (int r = 0; r < rows.rows; ++r)
      for (int t = 0; t < 3; ++t) acc[t] += (rows.v[std::size_t(3 * r + t)] + add_rows) >> static_cast<int>(shift_rows);
    const float third = 1.0f / 3.0f;
    const float noise = ::powf(
        static_cast<float>(static_cast<double>((g.bottom - g.top) * (g.right - g.left)) * noise_weight), third);
    float v[3];
    if (scale == 0) {
      for (int t = 0; t < 3; ++t) {
        const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(w) - vmafx_adm_s0_cub_bias[t]);
        const std::uint32_t e = static_cast<std::uint32_t>(vmafx_adm_s0_num_exp[t]) - shift_cub - shift_rows;
        const float f = static_cast<float>(static_cast<double>(acc[t]) / std::pow(2.0, static_cast<double>(e)));
        v[t] = ::powf(f, third) + noise;
      }
    } else {
      const std::uint32_t shift_cub = static_cast<std::uint32_t>(ceil_log2(w));
      const float final_shift = static_cast<float>(std::pow(
          2.0, static_cast<double>(static_cast<std::uint32_t>(vmafx_adm_s123_num_exp[scale - 1]) - shift_cub -
                                   shift_rows)));
      for (int t = 0; t < 3; ++t) {
        const float f = static_cast<float>(acc[t]) / final_shift;
        v[t] = ::powf(f, third) + noise;
      }
    }
    return v[0] + v[1] + v[2];
  }

  adm::Params p_;
  adm::Factors f_;
  bool debug_;
  PictureFormat fmt_;
  std::uint64_t egl_bits_ = 0;
  std::uint32_t cos_bits_ = 0;
};

}  // namespace

std::unique_ptr<Extractor> make_adm_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o, const PictureFormat& f) {
  adm::Params p;
  p.enhn_gain_limit = o.get_double("adm_enhn_gain_limit");
  p.norm_view_dist = o.get_double("adm_norm_view_dist");
  p.ref_display_height = o.get_int("adm_ref_display_height");
  p.csf_mode = o.get_int("adm_csf_mode");
  p.csf_scale = o.get_double("adm_csf_scale");
  p.csf_diag_scale = o.get_double("adm_csf_diag_scale");
  p.noise_weight = o.get_double("adm_noise_weight");
  p.dlm_weight = o.get_double("adm_dlm_weight");
  p.min_val = o.get_double("adm_min_val");
  p.skip_aim = o.get_bool("adm_skip_aim");
  p.skip_scale0 = o.get_bool("adm_skip_scale0");
  return std::make_unique<AdmTwin>(std::move(g), p, o.get_bool("debug"), f);
}

}  // namespace vmafx::ocl
