// SPDX-License-Identifier: BSD-3-Clause
#include "core/scale_exact.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "exact/swscale.h"

namespace vmafx::sws {
namespace {

// Taps below this share of the filter's weight are trimmed from its ends
// (libswscale's SWS_MAX_REDUCE_CUTOFF, compared in double as it does).
constexpr double kReduceCutoff = 0.002;
// The bicubic's C parameter, 0.6 in 8.24 fixed point (B is 0).
constexpr std::int64_t kBicubicC = 10066329;
// libswscale scales through an intermediate picture from this filter size on
// (x86-64, with accurate_rnd).
constexpr int kMaxFilterSize = 256;

int log2_floor(int v) {
  int n = 0;
  while (v > 1) {
    v >>= 1;
    ++n;
  }
  return n;
}

std::int64_t rounded_div(std::int64_t a, std::int64_t b) { return (a >= 0 ? a + (b >> 1) : a - (b >> 1)) / b; }

// The weight of the bicubic at distance d (30 fractional bits), times 2^54.
std::int64_t bicubic(std::int64_t d) {
  if (d >= (std::int64_t(1) << 31)) return 0;
  const std::int64_t one24 = std::int64_t(1) << 24, one30 = std::int64_t(1) << 30;
  const std::int64_t dd = (d * d) >> 30, ddd = (dd * d) >> 30;
  const std::int64_t c = kBicubicC;
  if (d < one30) return (12 * one24 - 6 * c) * ddd + (-18 * one24 + 6 * c) * dd + 6 * one24 * one30;
  return -6 * c * ddd + 30 * c * dd - 48 * c * d + 24 * c * one30;
}

// libswscale's sample position for a chroma siting value.
int local_pos(int subsample, int pos) {
  if (pos == -1 || pos <= -513) pos = (128 << subsample) - 128;
  return (pos + 128) >> subsample;
}

int sub_x(ChromaFormat c) { return c == ChromaFormat::k420 || c == ChromaFormat::k422 ? 1 : 0; }
int sub_y(ChromaFormat c) { return c == ChromaFormat::k420 ? 1 : 0; }
int ceil_shift(int v, int s) { return -((-v) >> s); }

std::int64_t increment(int src, int dst) { return ((std::int64_t(src) << 16) + (dst >> 1)) / dst; }

bool has_format(int bpc) { return bpc == 8 || bpc == 9 || bpc == 10 || bpc == 12 || bpc == 14 || bpc == 16; }

}  // namespace

Filter make_filter(int src_size, int dst_size, std::int64_t inc, int src_pos, int dst_pos, int one) {
  const std::int64_t fone = std::int64_t(1) << (54 - std::min(log2_floor(src_size / dst_size), 8));
  int size = 0;
  std::vector<std::int64_t> f;
  std::vector<std::int32_t> pos(dst_size);
  if (std::llabs(inc - 0x10000) < 10 && src_pos == dst_pos) {
    size = 1;
    f.assign(dst_size, fone);
    for (int i = 0; i < dst_size; ++i) pos[i] = i;
  } else {
    size = inc <= (1 << 16) ? 1 + 4 : 1 + (4 * src_size + dst_size - 1) / dst_size;
    size = std::max(std::min(size, src_size - 2), 1);
    f.assign(std::size_t(dst_size) * size, 0);
    std::int64_t at = ((dst_pos * inc) >> 7) - ((src_pos * std::int64_t(0x10000)) >> 7);
    for (int i = 0; i < dst_size; ++i) {
      int xx = int((at - (size - 2) * (std::int64_t(1) << 16)) / (1 << 17));
      pos[i] = xx;
      for (int j = 0; j < size; ++j, ++xx) {
        std::int64_t d = std::llabs(std::int64_t(xx) * (1 << 17) - at) << 13;
        if (inc > (1 << 16)) d = d * dst_size / src_size;
        f[std::size_t(i) * size + j] = bicubic(d) / ((std::int64_t(1) << 54) / fone);
      }
      at += 2 * inc;
    }
  }

  // Trim near-zero taps: shift each filter left past its small leading taps
  // (keeping positions increasing), and find the widest filter once small
  // trailing taps are dropped.
  const double cutoff = kReduceCutoff * double(fone);
  int min_size = 0;
  for (int i = dst_size - 1; i >= 0; --i) {
    std::int64_t* row = &f[std::size_t(i) * size];
    std::int64_t sum = 0;
    for (int j = 0; j < size; ++j) {
      sum += std::llabs(row[0]);
      if (double(sum) > cutoff) break;
      if (i < dst_size - 1 && pos[i] >= pos[i + 1]) break;
      for (int k = 1; k < size; ++k) row[k - 1] = row[k];
      row[size - 1] = 0;
      ++pos[i];
    }
    sum = 0;
    int keep = size;
    for (int j = size - 1; j > 0; --j) {
      sum += std::llabs(row[j]);
      if (double(sum) > cutoff) break;
      --keep;
    }
    min_size = std::max(min_size, keep);
  }
  const int n = min_size;
  if (n >= kMaxFilterSize)
    throw Error("scaling " + std::to_string(src_size) + " samples to " + std::to_string(dst_size) +
                    " needs libswscale's two-step reduction, which vmaf-exact does not reproduce",
                Error::Kind::kUsage);
  std::vector<std::int64_t> g(std::size_t(dst_size) * n);
  for (int i = 0; i < dst_size; ++i)
    for (int j = 0; j < n; ++j) g[std::size_t(i) * n + j] = f[std::size_t(i) * size + j];

  // Borders: taps before the first sample move onto it, taps past the last
  // onto the last, and the filter is moved so that it starts inside.
  for (int i = 0; i < dst_size; ++i) {
    std::int64_t* row = &g[std::size_t(i) * n];
    if (pos[i] < 0) {
      for (int j = 1; j < n; ++j) {
        const int left = std::max(j + pos[i], 0);
        row[left] += row[j];
        row[j] = 0;
      }
      pos[i] = 0;
    }
    if (pos[i] + n > src_size) {
      const int shift = pos[i] + std::min(n - src_size, 0);
      std::int64_t acc = 0;
      for (int j = n - 1; j >= 0; --j)
        if (pos[i] + j >= src_size) {
          acc += row[j];
          row[j] = 0;
        }
      for (int j = n - 1; j >= 0; --j) row[j] = j < shift ? 0 : row[j - shift];
      pos[i] -= shift;
      row[src_size - 1 - pos[i]] += acc;
    }
  }

  // Normalise to `one`, carrying each tap's rounding error into the next.
  Filter out;
  out.size = n;
  out.pos = pos;
  out.taps.assign(std::size_t(dst_size) * n, 0);
  for (int i = 0; i < dst_size; ++i) {
    const std::int64_t* row = &g[std::size_t(i) * n];
    std::int64_t sum = 0;
    for (int j = 0; j < n; ++j) sum += row[j];
    sum = (sum + one / 2) / one;
    if (!sum) sum = 1;
    std::int64_t error = 0;
    for (int j = 0; j < n; ++j) {
      const std::int64_t v = row[j] + error;
      const std::int64_t t = rounded_div(v, sum);
      out.taps[std::size_t(i) * n + j] = std::int32_t(std::int16_t(t));
      error = v - t * sum;
    }
  }
  return out;
}

Siting scale_filter_siting(const PictureFormat& src, const PictureFormat& dst) {
  Siting s;
  if (src.bpc == 8 && src.chroma == ChromaFormat::k420) s.src_v = 128;
  if (dst.bpc == 8 && dst.chroma == ChromaFormat::k420) s.dst_v = 128;
  return s;
}

Plan::Plan(const PictureFormat& src, const PictureFormat& dst, const Siting& siting, bool full_range)
    : src_(src), dst_(dst), full_range_(full_range) {
  auto describe = [](const PictureFormat& f) {
    return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::to_string(f.bpc) + "-bit";
  };
  if (!has_format(src.bpc) || !has_format(dst.bpc))
    throw Error("exact scaling: no libswscale format for " + describe(has_format(src.bpc) ? dst : src) +
                    " (8, 9, 10, 12, 14 or 16 bits)",
                Error::Kind::kUsage);
  if ((src.chroma == ChromaFormat::k400) != (dst.chroma == ChromaFormat::k400))
    throw Error("exact scaling: gray pictures convert only to gray", Error::Kind::kUsage);
  if (src.width < 1 || src.height < 1 || dst.width < 1 || dst.height < 1)
    throw Error("exact scaling: empty picture", Error::Kind::kUsage);

  const bool same_size = src.width == dst.width && src.height == dst.height;
  if (src == dst)
    kind_ = Kind::kCopy;
  else if (same_size && src.chroma == dst.chroma)
    kind_ = Kind::kDepth;
  else
    kind_ = Kind::kScale;

  plane_[0] = {src.width, src.height, dst.width, dst.height, {}, {}};
  const int sx = sub_x(src.chroma), sy = sub_y(src.chroma), dx = sub_x(dst.chroma), dy = sub_y(dst.chroma);
  plane_[1] = {ceil_shift(src.width, sx),
               ceil_shift(src.height, sy),
               ceil_shift(dst.width, dx),
               ceil_shift(dst.height, dy),
               {},
               {}};
  if (kind_ != Kind::kScale) return;

  for (const int v : {0, 1}) {
    const std::int64_t lim = 0x7fffffff;
    const std::int64_t xi = increment(plane_[v].src_w, plane_[v].dst_w);
    const std::int64_t yi = increment(plane_[v].src_h, plane_[v].dst_h);
    if (xi < 10 || xi > lim || yi < 10 || yi > lim)
      throw Error("exact scaling: " + describe(src) + " to " + describe(dst) + " is out of libswscale's range",
                  Error::Kind::kUsage);
  }
  const int p0 = local_pos(0, 0);
  plane_[0].h = make_filter(src.width, dst.width, increment(src.width, dst.width), p0, p0, 1 << 14);
  plane_[0].v = make_filter(src.height, dst.height, increment(src.height, dst.height), p0, p0, 1 << 12);
  if (src.chroma == ChromaFormat::k400) return;
  Plane& c = plane_[1];
  c.h = make_filter(c.src_w, c.dst_w, increment(c.src_w, c.dst_w), local_pos(sx, siting.src_h),
                    local_pos(dx, siting.dst_h), 1 << 14);
  c.v = make_filter(c.src_h, c.dst_h, increment(c.src_h, c.dst_h), local_pos(sy, siting.src_v),
                    local_pos(dy, siting.dst_v), 1 << 12);
}

int Plan::h_shift() const { return vmafx_sws_h_shift(src_.bpc, wide() ? 1 : 0); }

namespace {

int sample(const Picture& pic, int p, int x, int y) {
  return pic.bpc() > 8 ? pic.row<std::uint16_t>(p, y)[x] : pic.row<std::uint8_t>(p, y)[x];
}
void put(Picture& pic, int p, int x, int y, int v) {
  if (pic.bpc() > 8)
    pic.row<std::uint16_t>(p, y)[x] = std::uint16_t(v);
  else
    pic.row<std::uint8_t>(p, y)[x] = std::uint8_t(v);
}

}  // namespace

void scale(const Plan& plan, const Picture& in, Picture& out) {
  if (!(in.format() == plan.src()) || !(out.format() == plan.dst()))
    throw Error("exact scaling: pictures do not match the plan", Error::Kind::kUsage);
  const int planes = plan.dst().plane_count();
  std::vector<std::int32_t> inter;
  for (int p = 0; p < planes; ++p) {
    const Plan::Plane& g = plan.plane(p);
    if (plan.kind() == Plan::Kind::kCopy || plan.kind() == Plan::Kind::kDepth) {
      for (int y = 0; y < g.dst_h; ++y)
        for (int x = 0; x < g.dst_w; ++x)
          put(out, p, x, y,
              vmafx_sws_depth(sample(in, p, x, y), plan.src().bpc, plan.dst().bpc, x, y, plan.shift_only(p) ? 1 : 0));
      continue;
    }
    const int wide = plan.wide() ? 1 : 0, sh = plan.h_shift();
    const int hn = g.h.size;
    inter.assign(std::size_t(g.src_h) * g.dst_w, 0);
    for (int y = 0; y < g.src_h; ++y)
      for (int x = 0; x < g.dst_w; ++x) {
        vmafx_i32 acc = 0;
        for (int j = 0; j < hn; ++j) {
          const int sx = std::min(g.h.pos[x] + j, g.src_w - 1);
          acc += sample(in, p, sx, y) * g.h.taps[std::size_t(x) * hn + j];
        }
        inter[std::size_t(y) * g.dst_w + x] = vmafx_sws_h_finish(acc, sh, wide);
      }
    const int vn = g.v.size, bpc = plan.dst().bpc, dith = plan.dithered() ? 1 : 0;
    for (int y = 0; y < g.dst_h; ++y)
      for (int x = 0; x < g.dst_w; ++x) {
        const int d = vmafx_sws_v_dither(dith, x, y, p == 2);
        if (vn == 1) {
          put(out, p, x, y, vmafx_sws_v_single(inter[std::size_t(g.v.pos[y]) * g.dst_w + x], bpc, d));
          continue;
        }
        vmafx_u32 acc = vmafx_sws_v_start(bpc, d);
        for (int j = 0; j < vn; ++j) {
          const int sy = std::min(g.v.pos[y] + j, g.src_h - 1);
          acc = vmafx_sws_v_tap(acc, inter[std::size_t(sy) * g.dst_w + x], g.v.taps[std::size_t(y) * vn + j]);
        }
        put(out, p, x, y, vmafx_sws_v_finish(acc, bpc));
      }
  }
}

}  // namespace vmafx::sws
