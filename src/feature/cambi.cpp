// SPDX-License-Identifier: BSD-3-Clause
#include "feature/cambi.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "feature/cambi_simd.hpp"
#include "exact/cambi_tables.h"
#include "core/simd.hpp"

namespace vmafx {
namespace cambi {
namespace {

constexpr int kFoot = 64, kHead = 940;  // 10-bit limited range
constexpr int kMinSide = 216;
constexpr int kMaskFilter = 7;
constexpr double kDefaultTopk = 0.6;
constexpr std::string_view kDefaultEotf = "bt1886";

std::string dims(unsigned w, unsigned h) { return std::to_string(w) + "x" + std::to_string(h); }

inline int clip_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

using EotfFn = double (*)(double);
EotfFn eotf_fn(Eotf e) { return e == Eotf::kPq ? &pq_eotf : &bt1886_eotf; }

// Visibility of a step of `diff` codes at `sample`: dL > threshold * L.
bool visible(int sample, int diff, double tvi_threshold, Eotf eotf) {
  const double mean = luminance(sample, eotf);
  const double stepped = luminance(sample + diff, eotf);
  return stepped - mean > tvi_threshold * mean;
}

enum class Bisect { kTooSmall, kCorrect, kTooBig };

Bisect bisect_flag(int sample, int diff, double tvi_threshold, Eotf eotf) {
  if (!visible(sample, diff, tvi_threshold, eotf)) return Bisect::kTooBig;
  if (visible(sample + 1, diff, tvi_threshold, eotf)) return Bisect::kTooSmall;
  return Bisect::kCorrect;
}

std::uint32_t ceil_log2(std::uint32_t n) {
  if (n == 0) return 0;
  std::uint32_t t = n - 1, s = 0;
  while (t > 0) {
    t >>= 1;
    ++s;
  }
  return s;
}

inline std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  if (a == b || a == c) return a;
  if (b == c) return b;
  return std::min({a, b, c});
}

void quick_select(float* arr, int n, int k) {
  if (n == k) return;
  int left = 0, right = n - 1;
  while (left < right) {
    const float pivot = arr[k];
    int i = left, j = right;
    do {
      while (arr[i] > pivot) ++i;
      while (arr[j] < pivot) --j;
      if (i <= j) {
        std::swap(arr[i], arr[j]);
        ++i;
        --j;
      }
    } while (i <= j);
    if (j < k) left = i;
    if (k < i) right = j;
  }
}

// Per-thread buffers, grown as needed (extract runs concurrently on frames).
struct Scratch {
  std::vector<std::uint16_t> image, mask, hist, filter;
  std::vector<float> c_values;
  std::vector<std::uint8_t> deriv;
  std::vector<std::uint32_t> colsum;
  std::vector<std::uint16_t> heat_row;
  // SIMD path: histograms that are all 0 between calls (simd::c_values
  // leaves them so), the spatial mask's column sums.
  std::vector<std::uint16_t> hist_zero, colsum16;
  // topk_mean's selection.
  std::vector<std::uint32_t> bins;
  std::vector<float> mid;
};
Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

template <class V>
void grow(V& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
}

bool simd_on() { return vmafx::simd::enabled(); }

// One luma sample of `pic` at (x, y) as libvmaf reads it from its own picture
// layout: rows padded to 32 samples (padding is 0), planes back to back, so a
// read past a row or the plane continues in the padding, the next row or the
// next plane. Only reached when libvmaf's float stepping of the resize lands
// past the last row or column.
template <class T>
unsigned layout_sample(const Picture& pic, long long x, long long y) {
  const PictureFormat& f = pic.format();
  const int ss_hor = f.chroma != ChromaFormat::k444, ss_ver = f.chroma == ChromaFormat::k420;
  const int planes = f.chroma == ChromaFormat::k400 ? 1 : 3;
  long long k = -1;
  for (int p = 0; p < planes; ++p) {
    const int pw = p ? f.width >> ss_hor : f.width, ph = p ? f.height >> ss_ver : f.height;
    const long long stride = (pw + 31) & ~31;
    if (k < 0) k = y * stride + x;  // offset within the luma plane
    if (k < stride * ph) {
      const long long row = k / stride, col = k % stride;
      return col < pw ? unsigned(pic.row<T>(p, int(row))[col]) : 0u;
    }
    k -= stride * ph;
  }
  return 0;  // past libvmaf's allocation
}

// One luma sample at 10 bit.
inline std::uint16_t to10(unsigned v, int bpc) {
  if (bpc <= 8) return std::uint16_t(v << (10 - bpc));
  if (bpc == 9) return std::uint16_t(v << 1);
  const int shift = bpc - 10;
  const unsigned round = shift == 0 ? 0u : 1u << (shift - 1);
  return std::uint16_t((v + round) >> shift);
}

// Luma of `pic` at 10 bit, resized (nearest neighbour, libvmaf's float
// stepping) to out_w x out_h; `out` has stride out_w. Then anti-dithered
// when `dither`.
template <class T>
void to_10bit(const Picture& pic, std::uint16_t* out, int out_w, int out_h, bool dither) {
  const int bpc = pic.bpc();
  const PlaneView in = pic.plane(0);
  const unsigned in_w = unsigned(in.width), in_h = unsigned(in.height);
  if (in_w == unsigned(out_w) && in_h == unsigned(out_h)) {
    if (simd_on()) {
      // Row by row, each row anti-dithered right after the next one is converted (same values, one pass).
      simd::convert_row(in.row<T>(0), out, out_w, bpc);
      for (int i = 0; i < out_h; ++i) {
        std::uint16_t* o = out + std::ptrdiff_t(i) * out_w;
        if (i + 1 < out_h) simd::convert_row(in.row<T>(i + 1), o + out_w, out_w, bpc);
        if (dither) simd::anti_dither_row(o, i + 1 < out_h ? o + out_w : nullptr, out_w);
      }
      return;
    }
    for (int i = 0; i < out_h; ++i) scalar::convert_row(in.row<T>(i), out + std::ptrdiff_t(i) * out_w, out_w, bpc);
    if (dither) scalar::anti_dither(out, out_w, out_h);
    return;
  }
  const std::vector<unsigned> xs = resize_positions(in_w, unsigned(out_w));
  const std::vector<unsigned> ys = resize_positions(in_h, unsigned(out_h));
  for (int i = 0; i < out_h; ++i) {
    const unsigned oy = ys[std::size_t(i)];
    std::uint16_t* o = out + std::ptrdiff_t(i) * out_w;
    for (int j = 0; j < out_w; ++j) {
      const unsigned ox = xs[std::size_t(j)];
      const unsigned v = (ox < in_w && oy < in_h) ? unsigned(in.row<T>(int(oy))[ox]) : layout_sample<T>(pic, ox, oy);
      o[j] = to10(v, bpc);
    }
  }
  if (dither) cambi::anti_dither(out, out_w, out_h);
}

}  // namespace

std::uint16_t mask_threshold(unsigned w, unsigned h) {
  const std::uint32_t blocks = (w >> 6) * (h >> 6);
  return std::uint16_t((kMaskFilter * kMaskFilter + 3 * (int(ceil_log2(blocks)) - 11) - 1) >> 1);
}

ScaleDims scale_dims(int w, int h, bool speedup) {
  ScaleDims d{};
  for (int s = 0; s < kScales; ++s) {
    if (s > 0 || speedup) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
    }
    d.w[s] = w;
    d.h[s] = h;
  }
  return d;
}

std::vector<unsigned> resize_positions(unsigned in_n, unsigned out_n) {
  std::vector<unsigned> pos(out_n);
  const float ratio = float(in_n) / float(out_n);
  float x = float(double(ratio / 2) - 0.5);
  for (unsigned j = 0; j < out_n; ++j) {
    pos[j] = unsigned(int(double(x) + 0.5));
    x += ratio;
  }
  return pos;
}

unsigned layout_sample(const Picture& pic, long long x, long long y) {
  return pic.bpc() == 8 ? layout_sample<std::uint8_t>(pic, x, y) : layout_sample<std::uint16_t>(pic, x, y);
}

TwinSide twin_side(const Settings& st, int in_w, int in_h, bool is_src) {
  TwinSide s;
  s.is_src = is_src;
  s.w = int(is_src ? st.src_width : st.enc_width);
  s.h = int(is_src ? st.src_height : st.enc_height);
  s.window = is_src ? st.src_window : st.window;
  s.d = scale_dims(s.w, s.h, st.speedup);
  for (int k = 0; k < kScales; ++k) {
    s.off[k] = s.total;
    s.total += std::size_t(s.d.w[k]) * std::size_t(s.d.h[k]);
  }
  const bool same = s.w == in_w && s.h == in_h;  // the reference converts without resizing
  auto axis = [same](int in_n, int out_n, std::vector<int>& map, std::vector<unsigned>& bad) {
    map.resize(std::size_t(out_n));
    if (same) {
      for (int j = 0; j < out_n; ++j) map[std::size_t(j)] = j;
      return;
    }
    const std::vector<unsigned> pos = resize_positions(unsigned(in_n), unsigned(out_n));
    for (int j = 0; j < out_n; ++j) {
      const unsigned p = pos[std::size_t(j)];
      if (p < unsigned(in_n)) {
        map[std::size_t(j)] = int(p);
      } else {
        map[std::size_t(j)] = -1 - int(bad.size());
        bad.push_back(p);
      }
    }
  };
  axis(in_w, s.w, s.xmap, s.bad_x);
  axis(in_h, s.h, s.ymap, s.bad_y);
  return s;
}

std::vector<TwinSide> twin_sides(const Settings& st, const PictureFormat& f) {
  std::vector<TwinSide> sides;
  sides.push_back(twin_side(st, f.width, f.height, false));
  if (st.full_ref) sides.push_back(twin_side(st, f.width, f.height, true));
  return sides;
}

void finish_twin(const Settings& st, const std::vector<TwinSide>& sides, float* cvals, const Heatmaps* heatmaps,
                 std::vector<std::uint16_t>& row, const std::function<void(const TwinSide&)>& check, unsigned index,
                 FeatureSink& out) {
  double score[2] = {0.0, 0.0};
  std::size_t base = 0;
  for (const TwinSide& side : sides) {
    check(side);
    double scales[kScales];
    for (int k = 0; k < kScales; ++k) {
      float* v = cvals + base + side.off[k];
      if (heatmaps && !side.is_src) heatmaps->write(v, side.d.w[k], side.d.h[k], k, side.window, st, index, row);
      scales[k] = topk_mean(v, side.d.w[k] * side.d.h[k], st.topk);
    }
    score[side.is_src ? 1 : 0] = combine_scales(scales, side.window);
    base += side.total;
  }
  put_scores(st, index, score[0], score[1], out);
}

void TwinSide::fill_patch(const Picture& samples, std::uint16_t* patch) const {
  std::size_t at = 0;
  for (unsigned y : bad_y)
    for (int j = 0; j < w; ++j) {
      const int x = xmap[std::size_t(j)];
      const unsigned px = x >= 0 ? unsigned(x) : bad_x[std::size_t(-1 - x)];
      patch[at++] = std::uint16_t(layout_sample(samples, px, y));
    }
  for (unsigned x : bad_x)
    for (int i = 0; i < h; ++i) {
      const int y = ymap[std::size_t(i)];
      patch[at++] = y >= 0 ? std::uint16_t(layout_sample(samples, x, y)) : 0;
    }
}

void check_luma(const Picture& pic, bool is_src, unsigned index) {
  const int bpc = pic.bpc();
  if (bpc == 8 || bpc == 16) return;
  const unsigned max = (1u << bpc) - 1;
  const PlaneView y = pic.plane(0);
  const bool fast = vmafx::simd::enabled();
  for (int i = 0; i < y.height; ++i) {
    const std::uint16_t* r = y.row<std::uint16_t>(i);
    if (fast && simd::row_max(r, y.width) <= max) continue;
    for (int j = 0; j < y.width; ++j)
      if (r[j] > max)
        throw input_error("cambi: frame " + std::to_string(index) + ": the " + (is_src ? "reference" : "distorted") +
                          " luma holds a value above " + std::to_string(max) + ", the maximum for " +
                          std::to_string(bpc) + "-bit input");
  }
}

double combine_scales(const double scores[kScales], int window) {
  const std::uint16_t odd = std::uint16_t(2 * (window >> 1) + 1);
  const std::uint16_t pixels = std::uint16_t(odd * odd);
  double total = 0.0;
  for (int scale = 0; scale < kScales; ++scale) total += scores[scale] * vmafx_cambi_scale_weights[scale];
  return total / pixels;
}

void put_scores(const Settings& st, unsigned index, double dist, double src, FeatureSink& out) {
  out.put("Cambi_feature_cambi_score", index, dist < st.max_val ? dist : st.max_val);
  if (!st.full_ref) return;
  out.put_plain("cambi_source", index, src < st.max_val ? src : st.max_val);
  const double diff = dist - src;
  const double combined = 0 > diff ? 0 : diff;
  out.put_plain("cambi_full_reference", index, combined < st.max_val ? combined : st.max_val);
}

namespace scalar {

void convert_row(const std::uint8_t* in, std::uint16_t* out, int w, int bpc) {
  for (int j = 0; j < w; ++j) out[j] = to10(in[j], bpc);
}
void convert_row(const std::uint16_t* in, std::uint16_t* out, int w, int bpc) {
  for (int j = 0; j < w; ++j) out[j] = to10(in[j], bpc);
}

// 2x2 box average (>> 2) in place; the last column and row average 2 samples.
void anti_dither(std::uint16_t* d, int w, int h) {
  const std::ptrdiff_t s = w;
  for (int i = 0; i < h - 1; ++i) {
    std::uint16_t* r = d + i * s;
    const std::uint16_t* n = r + s;
    for (int j = 0; j < w - 1; ++j) r[j] = std::uint16_t((r[j] + r[j + 1] + n[j] + n[j + 1]) >> 2);
    r[w - 1] = std::uint16_t((r[w - 1] + n[w - 1]) >> 1);
  }
  std::uint16_t* r = d + std::ptrdiff_t(h - 1) * s;
  for (int j = 0; j < w - 1; ++j) r[j] = std::uint16_t((r[j] + r[j + 1]) >> 1);
}

// Keeps every other sample of every other row: w x h from the 2w x 2h region, in place.
void decimate(std::uint16_t* d, std::ptrdiff_t stride, int w, int h) {
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) d[i * stride + j] = d[2 * i * stride + 2 * j];
}

// Banding confidence of every masked pixel (0 elsewhere), from histograms of
// the masked pixel values in the window x window neighbourhood. `hist` has
// band_size rows of w counters.
void c_values(const std::uint16_t* img, const std::uint16_t* mask, std::ptrdiff_t stride, int w, int h, int window,
              const Settings& st, float* out, std::uint16_t* hist) {
  std::fill(out, out + std::size_t(w) * h, 0.0f);
  if (st.band_size <= 0) return;  // no code can be both visible and in band: all 0
  const int pad = window >> 1;
  const int base = st.band_base;
  const unsigned band = unsigned(st.band_size);
  std::fill(hist, hist + std::size_t(band) * w, std::uint16_t(0));

  // Histogram row of a pixel, or -1 when it is unmasked or outside the band.
  auto hrow = [&](int row, int col) -> int {
    const std::ptrdiff_t at = row * stride + col;
    if (!mask[at]) return -1;
    const int v = int(img[at]) - base;
    return unsigned(v) < band ? v : -1;
  };
  auto update = [&](int hr, int col, int delta) {
    std::uint16_t* h = hist + std::size_t(hr) * w;
    const int lo = std::max(col - pad, 0), hi = std::min(col + pad + 1, w);
    for (int c = lo; c < hi; ++c) h[c] = std::uint16_t(h[c] + delta);
  };
  auto add_row = [&](int row) {
    for (int col = 0; col < w; ++col)
      if (const int hr = hrow(row, col); hr >= 0) update(hr, col, 1);
  };

  const int nd = st.num_diffs;
  const int offset = base + nd;
  const int vlt = st.vlt_luma;
  auto compute_row = [&](int row) {
    const std::uint16_t* ir = img + row * stride;
    const std::uint16_t* mr = mask + row * stride;
    float* o = out + std::size_t(row) * w;
    for (int col = 0; col < w; ++col) {
      if (!mr[col]) continue;
      const std::uint16_t value = std::uint16_t(ir[col] + nd);
      const int cv = int(value) - offset;
      if (unsigned(cv) >= band) {
        o[col] = 0.0f;
        continue;
      }
      const std::uint16_t p0 = hist[std::size_t(cv) * w + col];
      float c = 0.0f;
      for (int d = 0; d < nd; ++d) {
        if (value <= st.tvi[d] && int(value) + (d + 1) > vlt) {
          const int i1 = cv + d + 1, i2 = cv - d - 1;
          const std::uint16_t p1 = hist[std::size_t(i1) * w + col];
          const std::uint16_t p2 = i2 >= 0 ? hist[std::size_t(i2) * w + col] : std::uint16_t(0);
          const float val = p1 > p2 ? float(st.diff_weights[d] * p0 * p1) * vmafx_cambi_reciprocal[p1 + p0]
                                    : float(st.diff_weights[d] * p0 * p2) * vmafx_cambi_reciprocal[p2 + p0];
          if (val > c) c = val;
        }
      }
      o[col] = c;
    }
  };

  // Rows [i - pad, i + pad] (clipped) are in the histograms when row i is scored.
  for (int r = 0; r < pad && r < h; ++r) add_row(r);
  for (int i = 0; i < h; ++i) {
    const int in_row = i + pad, out_row = i - pad - 1;
    if (in_row < h && out_row >= 0) {
      for (int col = 0; col < w; ++col) {
        const int a = hrow(in_row, col), s = hrow(out_row, col);
        if (a == s) continue;  // same counter (or neither): nothing changes
        if (s >= 0) update(s, col, -1);
        if (a >= 0) update(a, col, 1);
      }
    } else if (in_row < h) {
      add_row(in_row);
    } else if (out_row >= 0) {
      for (int col = 0; col < w; ++col)
        if (const int s = hrow(out_row, col); s >= 0) update(s, col, -1);
    }
    compute_row(i);
  }
}

}  // namespace scalar

namespace {

// double -> uint16_t as x86-64 code compiled by GCC converts it (through a
// 32-bit truncation; out-of-range and NaN give 0x80000000).
std::uint16_t to_u16(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return 0;
  return std::uint16_t(std::uint32_t(std::int32_t(v)));
}

}  // namespace

Heatmaps::Heatmaps(const std::string& dir, unsigned w, unsigned h) {
  // Each missing directory of the path is made with mode 0770 (before the
  // umask), as libvmaf does; an existing one is fine.
  for (std::size_t at = dir.find('/', 1);; at = dir.find('/', at + 1)) {
    const std::string part = dir.substr(0, at);
    if (::mkdir(part.c_str(), 0770) != 0 && errno != EEXIST)
      throw output_error("cambi: cannot create heatmaps_path directory '" + part + "': " + std::strerror(errno));
    if (at == std::string::npos) break;
  }
  for (int s = 0; s < kScales; ++s) {
    const std::string path = dir + "/cambi_heatmap_scale_" + std::to_string(s) + "_" + dims(w, h) + "_16b.gray";
    files_[s] = std::fopen(path.c_str(), "w");
    if (!files_[s]) throw output_error("cambi: could not open heatmap file '" + path + "'");
    w = (w + 1) >> 1;
    h = (h + 1) >> 1;
  }
}

Heatmaps::~Heatmaps() {
  for (std::FILE* f : files_)
    if (f) std::fclose(f);
}

// Writes one scale of one frame at its place in the file (frames may come in any order).
void Heatmaps::write(const float* c, int w, int h, int scale, int window, const Settings& st, unsigned frame,
                     std::vector<std::uint16_t>& row) const {
  int max_weight = st.diff_weights[0];
  for (int i = 0; i < st.num_diffs; ++i) max_weight = std::max(max_weight, st.diff_weights[i]);
  const int max_c = max_weight * window * window / 4;
  const double scaling = double((1 << 16) - 1) / max_c;
  grow(row, std::size_t(w));
  std::lock_guard<std::mutex> lock(mu_);
  std::FILE* f = files_[scale];
  for (int i = 0; i < h; ++i) {
    for (int j = 0; j < w; ++j) row[j] = to_u16(scaling * c[std::size_t(i) * w + j]);
    const long offset = long(((long long)frame * h + i) * w * 2);
    if (std::fseek(f, offset, SEEK_SET) != 0 || std::fwrite(row.data(), 2, std::size_t(w), f) != std::size_t(w))
      throw output_error("cambi: cannot write heatmap for frame " + std::to_string(frame));
  }
}

double bt1886_eotf(double v) {
  const double a = std::pow(std::pow(300.0, 1.0 / 2.4) - std::pow(0.01, 1.0 / 2.4), 2.4);
  const double b = std::pow(0.01, 1.0 / 2.4) / (std::pow(300.0, 1.0 / 2.4) - std::pow(0.01, 1.0 / 2.4));
  const double vb = v + b;
  return a * std::pow(vb > 0 ? vb : 0, 2.4);
}

double pq_eotf(double v) {
  const double m1 = 0.1593017578125, m2 = 78.84375;
  const double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
  const double num = std::pow(v, 1.0 / m2) - c1;
  const double num_clipped = num > 0 ? num : 0;
  const double den = c2 - c3 * std::pow(v, 1.0 / m2);
  return 10000 * std::pow(num_clipped / den, 1.0 / m1);
}

double luminance(int sample, Eotf eotf) {
  const int clipped = clip_int(sample, kFoot, kHead);
  const double normalized = double(clipped - kFoot) / (kHead - kFoot);
  return eotf_fn(eotf)(normalized);
}

int tvi_for_diff(int diff, double tvi_threshold, Eotf eotf) {
  const int max_val = (1 << 10) - 1;
  int foot = kFoot, head = kHead - diff - 1;
  Bisect b = bisect_flag(foot, diff, tvi_threshold, eotf);
  if (b == Bisect::kTooBig) return 0;
  if (b == Bisect::kCorrect) return foot;
  b = bisect_flag(head, diff, tvi_threshold, eotf);
  if (b == Bisect::kTooSmall) return max_val;
  if (b == Bisect::kCorrect) return head;
  for (int guard = 0; guard < 4096; ++guard) {
    const int mid = foot + (head - foot) / 2;
    b = bisect_flag(mid, diff, tvi_threshold, eotf);
    if (b == Bisect::kTooBig)
      head = mid;
    else if (b == Bisect::kTooSmall)
      foot = mid;
    else
      return mid;
  }
  throw Error("cambi: the visibility threshold search for tvi_threshold=" + std::to_string(tvi_threshold) +
              " does not converge");
}

int vis_lum_threshold_luma(double threshold, Eotf eotf) {
  for (int sample = kFoot;; ++sample) {
    if (!(luminance(sample, eotf) < threshold)) return sample == kFoot ? 0 : sample;
    if (sample >= kHead)
      throw Error("cambi: cambi_vis_lum_threshold=" + std::to_string(threshold) +
                  " is above the peak luminance of the EOTF (libvmaf would never finish)");
  }
}

std::uint16_t adjust_window(std::uint16_t window, unsigned w, unsigned h, bool speedup) {
  std::uint16_t ws = std::uint16_t(((window * (w + h)) / 375) >> 4);
  if (speedup) ws = std::uint16_t((ws + 1) >> 1);
  return std::uint16_t(ws | 1);
}

namespace scalar {

void spatial_mask(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* mask) {
  constexpr int pad = kMaskFilter >> 1;
  constexpr int ring = 2 * pad + 2;
  const std::uint32_t threshold = mask_threshold(unsigned(w), unsigned(h));
  Scratch& s = scratch();
  grow(s.deriv, std::size_t(ring) * w);
  grow(s.colsum, std::size_t(w));
  std::uint32_t* colsum = s.colsum.data();
  std::fill(colsum, colsum + w, 0u);

  // 1 where a pixel equals its right and lower neighbours (the last column and row count as equal).
  auto deriv_row = [&](int r) -> const std::uint8_t* {
    std::uint8_t* d = s.deriv.data() + std::size_t(r % ring) * w;
    const std::uint16_t* a = img + r * stride;
    const std::uint16_t* below = r == h - 1 ? nullptr : a + stride;
    for (int c = 0; c < w; ++c) {
      const bool hz = c == w - 1 || a[c] == a[c + 1];
      const bool vt = !below || a[c] == below[c];
      d[c] = std::uint8_t(hz && vt);
    }
    return d;
  };
  auto add = [&](const std::uint8_t* d, int sign) {
    for (int c = 0; c < w; ++c) colsum[c] += std::uint32_t(sign * d[c]);
  };

  for (int r = 0; r < pad && r < h; ++r) add(deriv_row(r), 1);
  for (int r = 0; r < h; ++r) {
    if (r + pad < h) add(deriv_row(r + pad), 1);
    if (r - pad - 1 >= 0) add(s.deriv.data() + std::size_t((r - pad - 1) % ring) * w, -1);
    std::uint32_t sum = 0;
    for (int c = 0; c < pad && c < w; ++c) sum += colsum[c];
    std::uint16_t* m = mask + r * stride;
    for (int c = 0; c < w; ++c) {
      if (c + pad < w) sum += colsum[c + pad];
      if (c - pad - 1 >= 0) sum -= colsum[c - pad - 1];
      m[c] = std::uint16_t(sum > threshold);
    }
  }
}

void mode_filter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* scratch_rows) {
  int cur = 0;
  for (int i = 0; i < h; ++i) {
    std::uint16_t* b = scratch_rows + std::size_t(cur) * w;
    const std::uint16_t* r = img + i * stride;
    b[0] = r[0];
    for (int j = 1; j < w - 1; ++j) b[j] = mode3(r[j - 1], r[j], r[j + 1]);
    b[w - 1] = r[w - 1];
    if (i > 1) {
      std::uint16_t* o = img + (i - 1) * stride;
      for (int j = 0; j < w; ++j) o[j] = mode3(scratch_rows[j], scratch_rows[w + j], scratch_rows[2 * w + j]);
    }
    cur = cur + 1 == 3 ? 0 : cur + 1;
  }
}

double topk_mean(float* values, int n, double topk) {
  const int k = clip_int(int(topk * n), 1, n);
  quick_select(values, n, k);
  double sum = 0;
  for (int i = 0; i < k; ++i) sum += values[i];
  return sum / k;
}

}  // namespace scalar

void anti_dither(std::uint16_t* d, int w, int h) {
  if (simd_on())
    simd::anti_dither(d, w, h);
  else
    scalar::anti_dither(d, w, h);
}

void decimate(std::uint16_t* d, std::ptrdiff_t stride, int w, int h) {
  if (simd_on())
    simd::decimate(d, stride, w, h);
  else
    scalar::decimate(d, stride, w, h);
}

void spatial_mask(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* mask) {
  if (!simd_on()) return scalar::spatial_mask(img, stride, w, h, mask);
  Scratch& s = scratch();
  grow(s.colsum16, std::size_t(w) + 64);
  simd::spatial_mask(img, stride, w, h, mask_threshold(unsigned(w), unsigned(h)), mask, s.colsum16.data());
}

void spatial_mask_half(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* mask) {
  if (!simd_on()) {
    scalar::spatial_mask(img, stride, w, h, mask);
    scalar::decimate(mask, stride, (w + 1) >> 1, (h + 1) >> 1);
    return;
  }
  Scratch& s = scratch();
  grow(s.colsum16, std::size_t(w) + 64);
  simd::spatial_mask(img, stride, w, h, mask_threshold(unsigned(w), unsigned(h)), mask, s.colsum16.data(), true);
}

void mode_filter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* scratch_rows) {
  if (simd_on())
    simd::mode_filter(img, stride, w, h, scratch_rows);
  else
    scalar::mode_filter(img, stride, w, h, scratch_rows);
}

void c_values(const std::uint16_t* img, const std::uint16_t* mask, std::ptrdiff_t stride, int w, int h, int window,
              const Settings& st, float* out) {
  Scratch& s = scratch();
  const std::size_t counters = st.band_size > 0 ? std::size_t(st.band_size) * w : 0;
  if (simd_on() && w <= simd::kMaxWidth) {
    grow(s.hist_zero, counters + simd::kHistSlack);  // new counters are 0, old ones were left 0
    simd::c_values(img, mask, stride, w, h, window, st, out, s.hist_zero.data());
  } else {
    grow(s.hist, counters);
    scalar::c_values(img, mask, stride, w, h, window, st, out, s.hist.data());
  }
}

namespace {

// 2^e as a double (e within the double range).
double pow2(int e) { return std::ldexp(1.0, e); }

// The spacing of the float grid at the float whose bits are b (> 0): every
// float >= it is a multiple of this.
double ulp_of_bits(std::uint32_t b) {
  const int biased = int(b >> 23);
  return pow2((biased > 0 ? biased : 1) - 150);
}

// The mean of the top k of n nonnegative floats without libvmaf's
// quick-select, when that provably gives the same double; false otherwise.
//
// libvmaf sums the k values that its quick-select leaves first: the top k as
// a multiset (all values above the k-th largest, T, and as many copies of T
// as make k), in an order that depends on the select. Let q be the float
// spacing at the smallest nonzero value of that multiset: every value of it is
// a multiple of q, hence every partial sum, in any order. A nonnegative
// multiple of q below 2^53 q is a double, so while the total stays below
// 2^53 q no addition rounds, in libvmaf's order or any other, and all orders
// give the exact sum. Here the sum is formed in some order (SIMD lanes, a tree
// at the end); if some addition had rounded, its exact result would have been
// >= 2^53 q and, rounding being monotone and sums of nonnegative values never
// decreasing, so would the computed total. So a computed total below 2^53 q
// is the exact sum, and equal to libvmaf's.
bool topk_mean_by_sum(const float* values, int n, int k, double* mean) {
  const simd::FloatStats fs = simd::float_stats(values, n);
  if (fs.max_bits >= 0x7F800000u) return false;  // negative, -0, inf or NaN: leave it to the reference
  if (fs.nonzero <= std::uint32_t(k)) {
    // Every nonzero value is in the top k (with zeros to make k).
    if (fs.nonzero == 0) {
      *mean = 0.0 / k;
      return true;
    }
    if (!(fs.sum < pow2(53) * ulp_of_bits(fs.min_nonzero_bits))) return false;
    *mean = fs.sum / k;
    return true;
  }
  // T > 0: select by the top 16 bits of the float patterns (monotone for
  // nonnegative floats), then among the values of T's bin.
  Scratch& s = scratch();
  s.bins.assign(std::size_t(1) << 15, 0u);
  for (int i = 0; i < n; ++i) {
    std::uint32_t b;
    std::memcpy(&b, values + i, sizeof b);
    if (b) ++s.bins[b >> 16];
  }
  int bin = int(s.bins.size()) - 1;
  std::int64_t above = 0;  // values in bins above `bin`
  for (; bin > 0; --bin) {
    if (above + s.bins[std::size_t(bin)] >= k) break;
    above += s.bins[std::size_t(bin)];
  }
  if (bin == 0) return false;  // T would be subnormal
  double sum = 0.0;
  s.mid.clear();
  for (int i = 0; i < n; ++i) {
    std::uint32_t b;
    std::memcpy(&b, values + i, sizeof b);
    const int top = int(b >> 16);
    if (top > bin)
      sum += double(values[i]);
    else if (top == bin)
      s.mid.push_back(values[i]);
  }
  const std::size_t r = std::size_t(k - above);  // 1 <= r <= values in the bin
  std::nth_element(s.mid.begin(), s.mid.begin() + std::ptrdiff_t(r - 1), s.mid.end(), std::greater<float>());
  for (std::size_t i = 0; i < r; ++i) sum += double(s.mid[i]);
  std::uint32_t tb;
  std::memcpy(&tb, &s.mid[r - 1], sizeof tb);
  if (!(sum < pow2(53) * ulp_of_bits(tb))) return false;
  *mean = sum / k;
  return true;
}

}  // namespace

double topk_mean(float* values, int n, double topk) {
  if (simd_on()) {
    double mean;
    if (topk_mean_by_sum(values, n, clip_int(int(topk * n), 1, n), &mean)) return mean;
  }
  return scalar::topk_mean(values, n, topk);
}

bool topk_mean_without_select(const float* values, int n, double topk, double* mean) {
  return topk_mean_by_sum(values, n, clip_int(int(topk * n), 1, n), mean);
}

Settings resolve(const OptionSet& o, const PictureFormat& f) {
  Settings st;
  st.width = f.width;
  st.height = f.height;
  st.bpc = f.bpc;
  const unsigned w = unsigned(f.width), h = unsigned(f.height);
  st.enc_bitdepth = o.get_int("enc_bitdepth") == 0 ? unsigned(f.bpc) : unsigned(o.get_int("enc_bitdepth"));
  st.enc_width = unsigned(o.get_int("enc_width"));
  st.enc_height = unsigned(o.get_int("enc_height"));
  if (st.enc_width == 0 || st.enc_height == 0) {
    st.enc_width = w;
    st.enc_height = h;
  }
  st.src_width = unsigned(o.get_int("src_width"));
  st.src_height = unsigned(o.get_int("src_height"));
  if (st.src_width == 0 || st.src_height == 0) {
    st.src_width = w;
    st.src_height = h;
  }
  // A downscaled encode is scored at its own size; a larger one at the input size.
  if (st.enc_height > h || st.enc_width > w) {
    st.enc_width = w;
    st.enc_height = h;
  }
  if (st.enc_width < unsigned(kMinSide) && st.enc_height < unsigned(kMinSide))
    throw unsupported_error("cambi: picture " + dims(st.enc_width, st.enc_height) +
                            " is too small (one side must be at least " + std::to_string(kMinSide) + ")");
  if (st.src_width < unsigned(kMinSide) && st.src_height < unsigned(kMinSide))
    throw unsupported_error("cambi: source size " + dims(st.src_width, st.src_height) +
                            " is too small (one side must be at least " + std::to_string(kMinSide) + ")");
  if ((st.src_width > st.enc_width && st.src_height < st.enc_height) ||
      (st.src_width < st.enc_width && st.src_height > st.enc_height))
    throw Error("cambi: source size " + dims(st.src_width, st.src_height) + " and encode size " +
                dims(st.enc_width, st.enc_height) + " scale in opposite directions");

  const long long enc_pix = (long long)st.enc_width * st.enc_height;
  switch (o.get_int("cambi_high_res_speedup")) {
    case 1080: st.speedup = enc_pix >= 1920LL * 1080; break;
    case 1440: st.speedup = enc_pix >= 2560LL * 1440; break;
    case 2160: st.speedup = enc_pix >= 3840LL * 2160; break;
    default: st.speedup = false;
  }
  st.full_ref = o.get_bool("full_ref");

  st.num_diffs = 1 << o.get_int("max_log_contrast");
  for (int d = 0; d < st.num_diffs; ++d) st.diff_weights[d] = vmafx_cambi_contrast_weights[d];

  // cambi_eotf wins when it is not the default.
  const std::string& ceotf = o.get_string("cambi_eotf");
  const std::string& eotf_name = ceotf != kDefaultEotf ? ceotf : o.get_string("eotf");
  Eotf eotf;
  if (eotf_name == "bt1886")
    eotf = Eotf::kBt1886;
  else if (eotf_name == "pq")
    eotf = Eotf::kPq;
  else
    throw Error("cambi: unknown eotf '" + eotf_name + "' (bt1886 or pq)");

  const double tvi_threshold = o.get_double("tvi_threshold");
  for (int d = 0; d < st.num_diffs; ++d)
    st.tvi[d] = std::uint16_t(tvi_for_diff(d + 1, tvi_threshold, eotf) + st.num_diffs);
  for (int d = 0; d < st.num_diffs; ++d)
    if (st.tvi[d] > st.tvi[st.num_diffs - 1])
      throw Error("cambi: visibility thresholds are not monotonic for tvi_threshold=" + std::to_string(tvi_threshold));
  st.vlt_luma = std::uint16_t(vis_lum_threshold_luma(o.get_double("cambi_vis_lum_threshold"), eotf));

  const std::uint16_t window = std::uint16_t(o.get_int("window_size"));
  st.window = adjust_window(window, st.enc_width, st.enc_height, st.speedup);
  st.src_window = adjust_window(window, st.src_width, st.src_height, st.speedup);
  const int max_window = std::max(st.window, st.src_window);
  if (max_window * max_window >= VMAFX_CAMBI_RECIPROCAL_SIZE)
    throw unsupported_error("cambi: window_size " + std::to_string(max_window) +
                            " (adjusted to the picture size) is too large");

  const int lo = int(st.vlt_luma) - 3 * st.num_diffs + 1;
  st.band_base = lo > 0 ? lo : 0;
  st.band_size = int(st.tvi[st.num_diffs - 1]) + 1 - st.band_base;

  // libvmaf's result is defined only while the window fits the coarsest scale.
  auto check_fits = [&](unsigned sw, unsigned sh, int win, const char* what) {
    const ScaleDims d = scale_dims(int(sw), int(sh), st.speedup);
    const int pad = win >> 1;
    if (pad > d.w[kScales - 1] || pad > d.h[kScales - 1])
      throw unsupported_error("cambi: " + std::string(what) + " size " + dims(sw, sh) + " is too narrow for the " +
                              std::to_string(win) + "-pixel window at the coarsest scale (" +
                              dims(unsigned(d.w[kScales - 1]), unsigned(d.h[kScales - 1])) +
                              "); libvmaf reads outside the picture there");
  };
  check_fits(st.enc_width, st.enc_height, st.window, "encode");
  if (st.full_ref) check_fits(st.src_width, st.src_height, st.src_window, "source");

  if (st.full_ref && f.bpc == 10 && st.enc_width == w && st.enc_height == h) {
    const unsigned alloc_w = std::max(st.src_width, st.enc_width);
    if (((alloc_w + 31) & ~31u) != ((w + 31) & ~31u))
      throw unsupported_error("cambi: full_ref with 10-bit input and src_width " + std::to_string(st.src_width) +
                              " above the input width " + std::to_string(w) +
                              " is not supported (libvmaf copies the picture with the wrong row pitch)");
  }

  const double topk = o.get_double("topk");
  st.topk = topk != kDefaultTopk ? topk : o.get_double("cambi_topk");
  st.max_val = o.get_double("cambi_max_val");
  st.heatmaps_path = o.get_string("heatmaps_path");
  return st;
}

}  // namespace cambi

namespace {

using cambi::Settings;

constexpr OptionSpec kOptions[] = {
    {.name = "cambi_max_val",
     .alias = "cmxv",
     .help = "maximum value allowed; larger values will be clipped to this value",
     .type = OptionType::kDouble,
     .default_num = 1000.0,
     .min = 0.0,
     .max = 1000.0,
     .feature_param = true},
    {.name = "enc_width",
     .alias = "encw",
     .help = "Encoding width",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 180,
     .max = 7680,
     .feature_param = true},
    {.name = "enc_height",
     .alias = "ench",
     .help = "Encoding height",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 150,
     .max = 7680,
     .feature_param = true},
    {.name = "enc_bitdepth",
     .alias = "encbd",
     .help = "Encoding bitdepth",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 6,
     .max = 16,
     .feature_param = true},
    {.name = "src_width",
     .alias = "srcw",
     .help = "Source width. Only used when full_ref=true.",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 320,
     .max = 7680,
     .feature_param = true},
    {.name = "src_height",
     .alias = "srch",
     .help = "Source height. Only used when full_ref=true.",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 200,
     .max = 4320,
     .feature_param = true},
    {.name = "window_size",
     .alias = "ws",
     .help = "Window size to compute CAMBI: 65 corresponds to ~1 degree at 4k",
     .type = OptionType::kInt,
     .default_num = 65,
     .min = 15,
     .max = 127,
     .feature_param = true},
    {.name = "topk",
     .help = "Ratio of pixels for the spatial pooling computation, must be 0 < topk <= 1.0",
     .type = OptionType::kDouble,
     .default_num = 0.6,
     .min = 0.0001,
     .max = 1.0,
     .feature_param = true},
    {.name = "cambi_topk",
     .alias = "ctpk",
     .help = "Ratio of pixels for the spatial pooling computation, must be 0 < cambi_topk <= 1.0",
     .type = OptionType::kDouble,
     .default_num = 0.6,
     .min = 0.0001,
     .max = 1.0,
     .feature_param = true},
    {.name = "tvi_threshold",
     .alias = "tvit",
     .help = "Visibilty threshold for luminance dL < tvi_threshold*L_mean",
     .type = OptionType::kDouble,
     .default_num = 0.019,
     .min = 0.0001,
     .max = 1.0,
     .feature_param = true},
    {.name = "cambi_vis_lum_threshold",
     .alias = "vlt",
     .help = "Luminance value below which we assume any banding is not visible",
     .type = OptionType::kDouble,
     .default_num = 0.0,
     .min = 0.0,
     .max = 300.0,
     .feature_param = true},
    {.name = "max_log_contrast",
     .alias = "mlc",
     .help = "Maximum contrast in log luma level (2^max_log_contrast) at 10-bits",
     .type = OptionType::kInt,
     .default_num = 2,
     .min = 0,
     .max = 5,
     .feature_param = true},
    {.name = "heatmaps_path",
     .help = "Path where heatmaps will be dumped.",
     .type = OptionType::kString,
     .default_str = ""},
    {.name = "full_ref",
     .help = "If true, CAMBI is also computed on the reference (cambi_source, cambi_full_reference)",
     .type = OptionType::kBool,
     .default_num = 0},
    {.name = "eotf",
     .help = "EOTF of the visibility thresholds: bt1886 or pq",
     .type = OptionType::kString,
     .default_str = "bt1886",
     .feature_param = true},
    {.name = "cambi_eotf",
     .alias = "ceot",
     .help = "EOTF of the visibility thresholds: bt1886 or pq; wins over eotf when not the default",
     .type = OptionType::kString,
     .default_str = "bt1886",
     .feature_param = true},
    {.name = "cambi_high_res_speedup",
     .alias = "hrs",
     .help = "Downsample after the spatial mask from this resolution up: 1080, 1440, 2160 or 0 (off)",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 0,
     .max = 2160,
     .feature_param = true},
};

constexpr std::string_view kProvided[] = {"Cambi_feature_cambi_score"};

class CambiExtractor final : public Extractor {
 public:
  explicit CambiExtractor(Settings st) : st_(std::move(st)) {
    if (!st_.heatmaps_path.empty())
      heatmaps_ = std::make_unique<cambi::Heatmaps>(st_.heatmaps_path, st_.enc_width, st_.enc_height);
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const double dist = score(dis, false, index);
    const double src = st_.full_ref ? score(ref, true, index) : 0.0;
    cambi::put_scores(st_, index, dist, src, out);
  }

 private:
  double score(const Picture& pic, bool is_src, unsigned index) const {
    return pic.bpc() == 8 ? score_t<std::uint8_t>(pic, is_src, index) : score_t<std::uint16_t>(pic, is_src, index);
  }

  template <class T>
  double score_t(const Picture& pic, bool is_src, unsigned index) const {
    cambi::check_luma(pic, is_src, index);
    const int w = int(is_src ? st_.src_width : st_.enc_width);
    const int h = int(is_src ? st_.src_height : st_.enc_height);
    const int window = is_src ? st_.src_window : st_.window;
    const std::size_t n = std::size_t(w) * h;

    cambi::Scratch& s = cambi::scratch();
    cambi::grow(s.image, n);
    cambi::grow(s.mask, n);
    // c-values of the first scale (halved with the speed-up) at most.
    const std::size_t first = st_.speedup ? std::size_t((w + 1) >> 1) * std::size_t((h + 1) >> 1) : n;
    cambi::grow(s.c_values, first);
    cambi::grow(s.filter, std::size_t(3) * w);
    std::uint16_t* img = s.image.data();
    std::uint16_t* mask = s.mask.data();
    const std::ptrdiff_t stride = w;

    cambi::to_10bit<T>(pic, img, w, h, st_.enc_bitdepth < 10);
    // With the speed-up only the mask's even rows and columns are used (scale 0 is decimated).
    if (st_.speedup)
      cambi::spatial_mask_half(img, stride, w, h, mask);
    else
      cambi::spatial_mask(img, stride, w, h, mask);

    double scores[cambi::kScales];
    int sw = w, sh = h;
    for (int scale = 0; scale < cambi::kScales; ++scale) {
      if (scale > 0 || st_.speedup) {
        sw = (sw + 1) >> 1;
        sh = (sh + 1) >> 1;
        cambi::decimate(img, stride, sw, sh);
        if (scale > 0) cambi::decimate(mask, stride, sw, sh);
      }
      cambi::mode_filter(img, stride, sw, sh, s.filter.data());
      cambi::c_values(img, mask, stride, sw, sh, window, st_, s.c_values.data());
      if (heatmaps_ && !is_src) heatmaps_->write(s.c_values.data(), sw, sh, scale, window, st_, index, s.heat_row);
      scores[scale] = cambi::topk_mean(s.c_values.data(), sw * sh, st_.topk);
    }

    return cambi::combine_scales(scores, window);
  }

  Settings st_;
  std::unique_ptr<cambi::Heatmaps> heatmaps_;
};

std::unique_ptr<Extractor> create(const OptionSet& opts, const PictureFormat& fmt) {
  if (fmt.bpc < 8 || fmt.bpc > 16)
    throw unsupported_error("cambi: unsupported bit depth " + std::to_string(fmt.bpc) + " (8 to 16)");
  return std::make_unique<CambiExtractor>(cambi::resolve(opts, fmt));
}

// Frame by frame, but heatmaps are appended to files frame after frame.
RangeReach range_reach(const OptionSet& o) {
  if (!o.get_string("heatmaps_path").empty())
    return {0, 0, "cambi: heatmaps_path (heatmaps written frame after frame) cannot be split into frame ranges"};
  return {};
}

}  // namespace

const ExtractorDescriptor kCambiExtractor{
    .name = "cambi",
    .options = kOptions,
    .provided = kProvided,
    .flags = 0,
    .create = &create,
    .range_reach = &range_reach,
};

}  // namespace vmafx
