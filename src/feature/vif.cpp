// SPDX-License-Identifier: BSD-3-Clause
// Integer VIF, bit-exact with libvmaf 3.2.0's plain C path (feature/integer_vif.c).
//
// Outline of one frame (luma only):
//   scale 0: the input plane; scale s+1: scale s low-passed with filter s+1
//   and decimated by 2 in both directions (w >> s by h >> s).
//   Per scale s, filter s gives local means mu1, mu2 and second moments; from
//   them sigma1_sq, sigma2_sq, sigma12 per pixel, and accumulate() adds the
//   pixel's share of the scale's numerator and denominator.
// Each filter runs vertically first (into a row of 32-bit intermediates) and
// then horizontally, with libvmaf's rounding shifts between the two passes.
// Integer sums are order-independent, so loop order is free; the floating
// point (gain_terms, finish, the score) follows libvmaf operation by operation.
//
// The row passes and accumulate() run through the row table (vif_rows.hpp):
// the scalar rows below are the reference; while vmafx::simd::enabled() the
// SIMD rows of feature/vif_simd.cpp replace them, computing the same integers.
#include "feature/vif.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "feature/row_table.hpp"
#include "feature/vif_rows.hpp"
#include "exact/vif.h"
#include "exact/vif_tables.h"

namespace vmafx {
namespace vif {

namespace {

constexpr int kPad = VMAFX_VIF_MAX_TAPS / 2;  // widest filter half-width

// A plane of samples with a byte stride.
template <class T>
struct Plane {
  const std::uint8_t* data;
  std::ptrdiff_t stride;  // bytes
  int w, h;
  const T* row(int y) const { return reinterpret_cast<const T*>(data + y * stride); }
};

// Scale 0 brings any bit depth to the 8-bit scale of the 8-bit code (means in
// Q8, squares in Q0 of an 8-bit sample); later scales work on 16-bit means and
// shift by 16 everywhere.
Shift vertical_shift(int scale, int bpc) {
  if (scale == 0) {
    const int sq = 2 * (bpc - 8);
    return {1u << (bpc - 1), bpc, sq ? std::uint64_t{1} << (sq - 1) : 0, sq};
  }
  return {32768u, 16, 32768u, 16};
}

// libvmaf pads by mirroring without repeating the edge (index -f takes f,
// n-1+f takes n-1-f) and does it in place, f = 1, 2, ... in turn, top (left)
// before bottom (right). When the filter is wider than the picture the mirror
// reads entries padded earlier in that same loop, so the result is a repeated
// reflection; doing it the same sequential way reproduces it. Well defined
// (reads only what this frame wrote) for n >= 2.
template <class V>
inline void mirror_pad(V* v, int n, int half) {
  for (int f = 1; f <= half; ++f) {
    v[-f] = v[f];
    v[n - 1 + f] = v[n - 1 - f];
  }
}

struct Scratch {
  std::vector<int> rows;                   // row map, kPad entries each side
  std::vector<std::uint32_t> t[5];         // vertical-pass rows, kPad entries each side
  std::vector<std::uint16_t> level[2][2];  // [buffer][ref, dis] of scales >= 1
  std::vector<std::int32_t> sig[3];        // one row of sigma1_sq, sigma2_sq, sigma12

  // The buffers only grow (the scales alternate between sizes; shrinking
  // and growing again would zero-fill the regrown part every frame).
  template <class V>
  static auto* at_least(V& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
    return v.data();
  }
  // row_map(h)[y] for y in [-kPad, h + kPad): the plane row that padded row y reads.
  const int* row_map(int h) {
    int* m = at_least(rows, std::size_t(h) + 2 * kPad) + kPad;
    for (int y = 0; y < h; ++y) m[y] = y;
    mirror_pad(m, h, kPad);
    return m;
  }
  std::uint32_t* tmp(int k, int w) { return at_least(t[k], std::size_t(w) + 2 * kPad) + kPad; }
  std::int32_t* sigma(int k, int w) { return at_least(sig[k], std::size_t(w)); }
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

// Calls f(std::integral_constant<int, taps>{}) for taps 17, 9, 5 or 3, so
// that the scalar rows' tap loops have a constant trip count.
template <class F>
void with_taps(int taps, F&& f) {
  switch (taps) {
    case 17: return f(std::integral_constant<int, 17>{});
    case 9: return f(std::integral_constant<int, 9>{});
    case 5: return f(std::integral_constant<int, 5>{});
    default: return f(std::integral_constant<int, 3>{});
  }
}

// ---------------------------------------------------------------------------
// The scalar rows (scalar_rows(): the reference; vif_simd.cpp's rows compute
// the same integers). The slots' contracts are in vif_rows.hpp.

template <class T>
void stat_vertical_row(const T* const* rr, const T* const* dr, const std::uint16_t* c, int taps, int w, const Shift& vs,
                       std::uint32_t* const* t) {
  std::uint32_t *t_mu1 = t[0], *t_mu2 = t[1], *t_xx = t[2], *t_yy = t[3], *t_xy = t[4];
  with_taps(taps, [&](auto n) {
    constexpr int kTaps = decltype(n)::value;
    for (int j = 0; j < w; ++j) {
      std::uint32_t mu1 = 0, mu2 = 0;
      std::uint64_t xx = 0, yy = 0, xy = 0;
      for (int k = 0; k < kTaps; ++k) {
        const std::uint32_t a = rr[k][j], b = dr[k][j];
        const std::uint32_t ca = c[k] * a, cb = c[k] * b;
        mu1 += ca;
        mu2 += cb;
        xx += std::uint64_t{ca} * a;
        yy += std::uint64_t{cb} * b;
        xy += std::uint64_t{ca} * b;
      }
      t_mu1[j] = std::uint16_t((mu1 + vs.mu_round) >> vs.mu_shift);
      t_mu2[j] = std::uint16_t((mu2 + vs.mu_round) >> vs.mu_shift);
      t_xx[j] = std::uint32_t((xx + vs.sq_round) >> vs.sq_shift);
      t_yy[j] = std::uint32_t((yy + vs.sq_round) >> vs.sq_shift);
      t_xy[j] = std::uint32_t((xy + vs.sq_round) >> vs.sq_shift);
    }
  });
}

void stat_horizontal_row(const std::uint32_t* const* t, const std::uint16_t* c, int taps, int w, std::int32_t* s1,
                         std::int32_t* s2, std::int32_t* s12) {
  const std::uint32_t *t_mu1 = t[0], *t_mu2 = t[1], *t_xx = t[2], *t_yy = t[3], *t_xy = t[4];
  with_taps(taps, [&](auto n) {
    constexpr int kTaps = decltype(n)::value, half = kTaps / 2;
    for (int j = 0; j < w; ++j) {
      std::uint32_t mu1 = 0, mu2 = 0;
      std::uint64_t xx = 0, yy = 0, xy = 0;
      for (int k = 0; k < kTaps; ++k) {
        const int x = j - half + k;
        mu1 += c[k] * t_mu1[x];
        mu2 += c[k] * t_mu2[x];
        xx += std::uint64_t{c[k]} * t_xx[x];
        yy += std::uint64_t{c[k]} * t_yy[x];
        xy += std::uint64_t{c[k]} * t_xy[x];
      }
      // mu in Q16, products rounded back to Q0; moments rounded from Q16; the
      // differences wrap in 32 bits and are read as signed (vmafx_vif_sigma).
      s1[j] = vmafx_vif_sigma(xx, mu1, mu1);
      s2[j] = vmafx_vif_sigma(yy, mu2, mu2);
      s12[j] = vmafx_vif_sigma(xy, mu1, mu2);
    }
  });
}

bool accumulate_supports_any(double) { return true; }

void accumulate_row(const std::int32_t* s1, const std::int32_t* s2, const std::int32_t* s12, int w, double gain_limit,
                    std::int64_t* acc) {
  Accum a{acc[0], acc[1], acc[2], acc[3]};
  for (int j = 0; j < w; ++j) accumulate(a, s1[j], s2[j], s12[j], gain_limit);
  acc[0] = a.num_log;
  acc[1] = a.den_log;
  acc[2] = a.num_non_log;
  acc[3] = a.den_non_log;
}

template <class T>
void sub_vertical_row(const T* const* rr, const T* const* dr, const std::uint16_t* c, int taps, int w,
                      std::uint32_t mu_round, int mu_shift, std::uint32_t* t_ref, std::uint32_t* t_dis) {
  with_taps(taps, [&](auto n) {
    constexpr int kTaps = decltype(n)::value;
    for (int j = 0; j < w; ++j) {
      std::uint32_t a = 0, b = 0;
      for (int k = 0; k < kTaps; ++k) {
        a += c[k] * std::uint32_t{rr[k][j]};
        b += c[k] * std::uint32_t{dr[k][j]};
      }
      t_ref[j] = std::uint16_t((a + mu_round) >> mu_shift);
      t_dis[j] = std::uint16_t((b + mu_round) >> mu_shift);
    }
  });
}

void sub_horizontal_row(const std::uint32_t* t_ref, const std::uint32_t* t_dis, const std::uint16_t* c, int taps,
                        int ow, std::uint16_t* o_ref, std::uint16_t* o_dis) {
  with_taps(taps, [&](auto n) {
    constexpr int kTaps = decltype(n)::value, half = kTaps / 2;
    for (int jo = 0; jo < ow; ++jo) {
      const int j = 2 * jo;
      std::uint32_t a = 0, b = 0;
      for (int k = 0; k < kTaps; ++k) {
        a += c[k] * t_ref[j - half + k];
        b += c[k] * t_dis[j - half + k];
      }
      o_ref[jo] = std::uint16_t((a + 32768) >> 16);
      o_dis[jo] = std::uint16_t((b + 32768) >> 16);
    }
  });
}

Rows make_scalar_rows() {
  Rows r{};
  r.stat_vertical_8 = &stat_vertical_row<std::uint8_t>;
  r.stat_vertical_16 = &stat_vertical_row<std::uint16_t>;
  r.stat_horizontal = &stat_horizontal_row;
  r.accumulate_supports = &accumulate_supports_any;
  r.accumulate_row = &accumulate_row;
  r.sub_vertical_8 = &sub_vertical_row<std::uint8_t>;
  r.sub_vertical_16 = &sub_vertical_row<std::uint16_t>;
  r.sub_horizontal = &sub_horizontal_row;
  return r;
}

}  // namespace

const Rows& scalar_rows() {
  static const Rows r = make_scalar_rows();
  return r;
}

const Rows& rows() { return vmafx::simd::pick_rows(scalar_rows(), init_simd_rows); }

namespace {

// The `taps` source rows of one output row: rows map[0 .. taps-1] of each
// picture (map: the mirrored row indices).
template <class T>
void window_rows(const Plane<T>& ref, const Plane<T>& dis, const int* map, int taps, const T** rr, const T** dr) {
  for (int k = 0; k < taps; ++k) {
    rr[k] = ref.row(map[k]);
    dr[k] = dis.row(map[k]);
  }
}

// Statistic of one scale with filter `scale`.
template <class T>
Accum statistic(const Rows& R, const Plane<T>& ref, const Plane<T>& dis, int scale, int bpc, double gain_limit,
                Scratch& s) {
  const int taps = vmafx_vif_filter_width[scale], half = taps / 2;
  const std::uint16_t* c = vmafx_vif_filter[scale];
  const Shift vs = vertical_shift(scale, bpc);
  const int w = ref.w, h = ref.h;
  const int* map = s.row_map(h);
  std::uint32_t* const t[5] = {s.tmp(0, w), s.tmp(1, w), s.tmp(2, w), s.tmp(3, w), s.tmp(4, w)};
  std::int32_t* const s1 = s.sigma(0, w);
  std::int32_t* const s2 = s.sigma(1, w);
  std::int32_t* const s12 = s.sigma(2, w);
  // A gain limit the row table's accumulate does not take goes to the scalar row.
  const auto acc_row = R.accumulate_supports(gain_limit) ? R.accumulate_row : scalar_rows().accumulate_row;
  std::int64_t sums[4] = {0, 0, 0, 0};  // Accum's order

  for (int i = 0; i < h; ++i) {
    const T* rr[VMAFX_VIF_MAX_TAPS];
    const T* dr[VMAFX_VIF_MAX_TAPS];
    window_rows(ref, dis, map + i - half, taps, rr, dr);
    if constexpr (std::is_same_v<T, std::uint8_t>)
      R.stat_vertical_8(rr, dr, c, taps, w, vs, t);
    else
      R.stat_vertical_16(rr, dr, c, taps, w, vs, t);
    for (std::uint32_t* q : t) mirror_pad(q, w, half);
    R.stat_horizontal(t, c, taps, w, s1, s2, s12);
    acc_row(s1, s2, s12, w, gain_limit, sums);
  }
  return {sums[0], sums[1], sums[2], sums[3]};
}

// Low-passes scale `from` with filter from+1 and keeps the even rows and
// columns: the picture of scale from+1, (w/2) x (h/2), row stride w/2. Only
// the kept samples are computed.
template <class T>
void subsample(const Rows& R, const Plane<T>& ref, const Plane<T>& dis, int from, int bpc, std::uint16_t* out_ref,
               std::uint16_t* out_dis, Scratch& s) {
  const int taps = vmafx_vif_filter_width[from + 1], half = taps / 2;
  const std::uint16_t* c = vmafx_vif_filter[from + 1];
  const Shift vs = vertical_shift(from, bpc);
  const int w = ref.w, h = ref.h, ow = w / 2, oh = h / 2;
  const int* map = s.row_map(h);
  std::uint32_t* t_ref = s.tmp(0, w);
  std::uint32_t* t_dis = s.tmp(1, w);

  for (int io = 0; io < oh; ++io) {
    const int i = 2 * io;
    const T* rr[VMAFX_VIF_MAX_TAPS];
    const T* dr[VMAFX_VIF_MAX_TAPS];
    window_rows(ref, dis, map + i - half, taps, rr, dr);
    if constexpr (std::is_same_v<T, std::uint8_t>)
      R.sub_vertical_8(rr, dr, c, taps, w, vs.mu_round, vs.mu_shift, t_ref, t_dis);
    else
      R.sub_vertical_16(rr, dr, c, taps, w, vs.mu_round, vs.mu_shift, t_ref, t_dis);
    mirror_pad(t_ref, w, half);
    mirror_pad(t_dis, w, half);
    R.sub_horizontal(t_ref, t_dis, c, taps, ow, out_ref + std::size_t(io) * ow, out_dis + std::size_t(io) * ow);
  }
}

template <class T>
std::array<ScaleResult, 4> compute(const PlaneView& r, const PlaneView& d, int bpc, double limit, bool skip_scale0) {
  Scratch& s = scratch();
  const Rows& R = rows();
  std::array<ScaleResult, 4> out{};
  const Plane<T> ref0{r.data, r.stride, r.width, r.height};
  const Plane<T> dis0{d.data, d.stride, d.width, d.height};
  if (!skip_scale0) out[0] = finish(statistic<T>(R, ref0, dis0, 0, bpc, limit, s));

  // Scales 1..3 alternate between two buffers.
  const std::size_t n1 = std::size_t(r.width / 2) * (r.height / 2);
  for (auto& b : s.level)
    for (auto& p : b)
      if (p.size() < n1) p.resize(n1);
  subsample<T>(R, ref0, dis0, 0, bpc, s.level[0][0].data(), s.level[0][1].data(), s);
  for (int scale = 1; scale < 4; ++scale) {
    const int w = r.width >> scale, h = r.height >> scale;
    auto& cur = s.level[(scale - 1) & 1];
    const std::ptrdiff_t stride = std::ptrdiff_t(w) * 2;
    const Plane<std::uint16_t> ref{reinterpret_cast<const std::uint8_t*>(cur[0].data()), stride, w, h};
    const Plane<std::uint16_t> dis{reinterpret_cast<const std::uint8_t*>(cur[1].data()), stride, w, h};
    out[scale] = finish(statistic<std::uint16_t>(R, ref, dis, scale, bpc, limit, s));
    if (scale < 3) {
      auto& next = s.level[scale & 1];
      subsample<std::uint16_t>(R, ref, dis, scale, bpc, next[0].data(), next[1].data(), s);
    }
  }
  return out;
}

}  // namespace

// vmafx_vif_log2_q11 (src/exact/vif.h, the twins' too).
std::int32_t log2_q11(std::uint64_t v) { return vmafx_vif_log2_q11(v, vmafx_vif_log2_table); }

// The only floating point of the per-pixel path, and the part a GPU twin must
// replay exactly (the two integers feed a table lookup, so an off-by-one here
// changes the sum). Kept as libvmaf writes it:
//  - eps is added in double to sigma1_sq before dividing. It does not protect
//    anything (sigma1_sq >= 2^17 here) but it moves g: sigma1_sq + eps rounds
//    to sigma1_sq plus eps rounded to the last place of sigma1_sq's binade,
//    so the divisor is not sigma1_sq and g is not sigma12 / sigma1_sq.
//  - sv_sq (the residual noise variance, sigma2_sq - g*sigma12 in double) is
//    truncated toward zero to an int32 before the clamp at 0, not floored.
//  - The gain limit is applied after sv_sq is formed: it caps only the signal
//    term g*g*sigma1_sq (enhancement gain), the noise estimate keeps the true g.
//  - g*g*sigma1_sq is evaluated left to right in double and truncated to int64.
GainTerms gain_terms(std::int32_t sigma1_sq, std::int32_t sigma2_sq, std::int32_t sigma12, double gain_limit) {
  const vmafx_vif_terms_fp64 t = vmafx_vif_gain_fp64(sigma1_sq, sigma2_sq, sigma12, gain_limit);
  return {t.noise, t.total};
}

// vmafx_vif_accumulate (src/exact/vif.h, the twins' too) with the gain from
// vif_fp64.h (gain_terms). Flat areas sum sigma2_sq and the pixel count: the
// float VIF's 1 - sigma2_sq * 4 / 255^2 is the count minus the sigma sum
// scaled once in finish(), 255 at every bit depth because the sigmas are in
// 8-bit units (see vertical_shift).
void accumulate(Accum& acc, std::int32_t sigma1_sq, std::int32_t sigma2_sq, std::int32_t sigma12, double gain_limit) {
  vmafx_vif_sums s{acc.num_log, acc.den_log, acc.num_non_log, acc.den_non_log};
  vmafx_vif_accumulate(&s, sigma1_sq, sigma2_sq, sigma12, vmafx_vif_log2_table, vmafx_vif_limit{}, 1, gain_limit);
  acc = {s.num_log, s.den_log, s.num_non_log, s.den_non_log};
}

// The int64 sums go through double and are stored as float: libvmaf keeps a
// scale's num and den in float, so every score is a float quotient.
ScaleResult finish(const Accum& a) {
  const double num = double(a.num_log) / 2048.0 + (double(a.den_non_log) - (double(a.num_non_log) / 16384.0) / 65025.0);
  const double den = double(a.den_log) / 2048.0 + double(a.den_non_log);
  return {float(num), float(den)};
}

std::array<ScaleResult, 4> compute_scales(const PlaneView& ref, const PlaneView& dis, int bpc, double gain_limit,
                                          bool skip_scale0) {
  if (bpc == 8) return compute<std::uint8_t>(ref, dis, bpc, gain_limit, skip_scale0);
  return compute<std::uint16_t>(ref, dis, bpc, gain_limit, skip_scale0);
}

void write_scores(const std::array<ScaleResult, 4>& s, bool debug, bool skip_scale0, unsigned index, FeatureSink& out) {
  // Scores are float quotients (libvmaf divides the float num by the float den).
  out.put("VMAF_integer_feature_vif_scale0_score", index, skip_scale0 ? 0.0 : double(s[0].num / s[0].den));
  out.put("VMAF_integer_feature_vif_scale1_score", index, double(s[1].num / s[1].den));
  out.put("VMAF_integer_feature_vif_scale2_score", index, double(s[2].num / s[2].den));
  out.put("VMAF_integer_feature_vif_scale3_score", index, double(s[3].num / s[3].den));
  if (!debug) return;

  // Sums in double, left to right; a skipped scale 0 is left out of them.
  double num, den;
  if (skip_scale0) {
    num = double(s[1].num) + double(s[2].num) + double(s[3].num);
    den = double(s[1].den) + double(s[2].den) + double(s[3].den);
  } else {
    num = double(s[0].num) + double(s[1].num) + double(s[2].num) + double(s[3].num);
    den = double(s[0].den) + double(s[1].den) + double(s[2].den) + double(s[3].den);
  }
  out.put("integer_vif", index, den == 0.0 ? 1.0 : num / den);
  out.put("integer_vif_num", index, num);
  out.put("integer_vif_den", index, den);
  // libvmaf marks a skipped scale 0 with num 0 and den -1.
  out.put("integer_vif_num_scale0", index, skip_scale0 ? 0.0 : double(s[0].num));
  out.put("integer_vif_den_scale0", index, skip_scale0 ? -1.0 : double(s[0].den));
  out.put("integer_vif_num_scale1", index, double(s[1].num));
  out.put("integer_vif_den_scale1", index, double(s[1].den));
  out.put("integer_vif_num_scale2", index, double(s[2].num));
  out.put("integer_vif_den_scale2", index, double(s[2].den));
  out.put("integer_vif_num_scale3", index, double(s[3].num));
  out.put("integer_vif_den_scale3", index, double(s[3].den));
}

}  // namespace vif

namespace {

constexpr OptionSpec kVifOptions[] = {
    {.name = "debug",
     .help = "also write the combined score and each scale's numerator and denominator",
     .type = OptionType::kBool,
     .default_num = 0},
    {.name = "vif_enhn_gain_limit",
     .alias = "egl",
     .help = "cap on the enhancement gain g (>= 1.0; 1.0 allows no enhancement)",
     .type = OptionType::kDouble,
     .default_num = 100.0,
     .min = 1.0,
     .max = 100.0,
     .feature_param = true},
    {.name = "vif_skip_scale0",
     .alias = "ssclz",
     .help = "do not compute scale 0 (its score is written as 0)",
     .type = OptionType::kBool,
     .default_num = 0,
     .feature_param = true},
};

constexpr std::string_view kVifFeatures[] = {
    "VMAF_integer_feature_vif_scale0_score",
    "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score",
    "VMAF_integer_feature_vif_scale3_score",
    "integer_vif",
    "integer_vif_num",
    "integer_vif_den",
    "integer_vif_num_scale0",
    "integer_vif_den_scale0",
    "integer_vif_num_scale1",
    "integer_vif_den_scale1",
    "integer_vif_num_scale2",
    "integer_vif_den_scale2",
    "integer_vif_num_scale3",
    "integer_vif_den_scale3",
};

class VifExtractor final : public Extractor {
 public:
  VifExtractor(double gain_limit, bool debug, bool skip_scale0)
      : gain_limit_(gain_limit), debug_(debug), skip_scale0_(skip_scale0) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const auto s = vif::compute_scales(ref.plane(0), dis.plane(0), ref.bpc(), gain_limit_, skip_scale0_);
    vif::write_scores(s, debug_, skip_scale0_, index, out);
  }

 private:
  double gain_limit_;
  bool debug_;
  bool skip_scale0_;
};

std::unique_ptr<Extractor> create_vif(const OptionSet& opts, const PictureFormat& fmt) {
  if (fmt.bpc < 8 || fmt.bpc > 16)
    throw unsupported_error("vif: bit depth " + std::to_string(fmt.bpc) + " is not supported (8 to 16)");
  // libvmaf pads each scale by mirroring; on a scale one sample wide or high
  // the mirror reads buffer contents left from earlier work, so its result is
  // not a function of the frame. Every scale must therefore be at least 2x2.
  if (fmt.width < vif::kMinSize || fmt.height < vif::kMinSize)
    throw unsupported_error("vif: picture " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                            " is too small (at least " + std::to_string(vif::kMinSize) + "x" +
                            std::to_string(vif::kMinSize) + ", so that the fourth scale is 2x2)");
  return std::make_unique<VifExtractor>(opts.get_double("vif_enhn_gain_limit"), opts.get_bool("debug"),
                                        opts.get_bool("vif_skip_scale0"));
}

}  // namespace

const ExtractorDescriptor kVifExtractor{
    .name = "vif",
    .options = kVifOptions,
    .provided = kVifFeatures,
    .flags = 0,
    .create = create_vif,
};

}  // namespace vmafx
