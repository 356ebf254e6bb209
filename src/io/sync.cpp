// SPDX-License-Identifier: BSD-3-Clause
// find_sync_offset: a constant frame offset between two clips from the mean
// luma of a 16x16 grid over their first frames.
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/error.hpp"
#include "vmaf_exact/input.hpp"

namespace vmafx {

namespace {

constexpr int kGrid = 16;
constexpr int kPairs = 24;    // frames compared per offset, at most
constexpr int kMinPairs = 4;  // an offset with fewer frames to compare is not tried
// The best offset must beat every other by this factor (plus a floor, on the
// 8-bit scale, for clips that match exactly) to count as clearly best.
constexpr double kMargin = 1.25;
constexpr double kFloor = 0.05;

using Grid = std::array<double, kGrid * kGrid>;

// Mean luma of each grid cell, on the 8-bit scale.
Grid reduce(const Picture& p) {
  Grid g{};
  const PlaneView y = p.plane(0);
  const double scale = 1.0 / double(1 << (p.bpc() - 8));
  for (int gy = 0; gy < kGrid; ++gy) {
    const int y0 = gy * y.height / kGrid, y1 = std::max(y0 + 1, (gy + 1) * y.height / kGrid);
    for (int gx = 0; gx < kGrid; ++gx) {
      const int x0 = gx * y.width / kGrid, x1 = std::max(x0 + 1, (gx + 1) * y.width / kGrid);
      double sum = 0;
      for (int r = y0; r < y1 && r < y.height; ++r)
        for (int c = x0; c < x1 && c < y.width; ++c)
          sum += p.bpc() > 8 ? double(y.row<std::uint16_t>(r)[c]) : double(y.row<std::uint8_t>(r)[c]);
      const int n = (std::min(y1, y.height) - y0) * (std::min(x1, y.width) - x0);
      g[gy * kGrid + gx] = n > 0 ? sum / n * scale : 0.0;
    }
  }
  return g;
}

std::vector<Grid> read_grids(VideoReader& r, int frames) {
  std::vector<Grid> out;
  Picture pic(r.format());
  while (int(out.size()) < frames && r.read(pic)) out.push_back(reduce(pic));
  return out;
}

}  // namespace

SyncResult find_sync_offset(VideoReader& ref, VideoReader& dis, int window) {
  if (window < 0) throw Error("--sync-window " + std::to_string(window) + ": expected 0 or more");
  const std::vector<Grid> a = read_grids(ref, window + kPairs), b = read_grids(dis, window + kPairs);
  struct Tried {
    int offset;
    double cost;
  };
  std::vector<Tried> tried;
  for (int o = -window; o <= window; ++o) {
    const int ra = o < 0 ? -o : 0, db = o > 0 ? o : 0;
    const int pairs = std::min<int>(kPairs, std::min<int>(int(a.size()) - ra, int(b.size()) - db));
    if (pairs < kMinPairs) continue;
    double sum = 0;
    for (int i = 0; i < pairs; ++i)
      for (int c = 0; c < kGrid * kGrid; ++c) sum += std::fabs(a[ra + i][c] - b[db + i][c]);
    tried.push_back({o, sum / (double(pairs) * kGrid * kGrid)});
  }
  if (tried.size() < 2)
    throw input_error(dis.path() + ": too few frames to find a sync offset (--sync auto compares " +
                      std::to_string(kMinPairs) + " or more frames at each offset within +-" + std::to_string(window) +
                      ")");
  SyncResult r;
  r.best_cost = INFINITY;
  for (const Tried& t : tried)
    if (t.cost < r.best_cost) {
      r.best_cost = t.cost;
      r.offset = t.offset;
    }
  r.second_cost = INFINITY;
  for (const Tried& t : tried)
    if (t.offset != r.offset && t.cost < r.second_cost) {
      r.second_cost = t.cost;
      r.second_offset = t.offset;
    }
  if (!(r.second_cost > r.best_cost * kMargin + kFloor)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "offsets %+d and %+d match about as well (mean luma difference %.3f and %.3f)",
                  r.offset, r.second_offset, r.best_cost, r.second_cost);
    throw input_error(dis.path() + ": --sync auto found no clearly best offset within +-" + std::to_string(window) +
                      " frames: " + buf + "; give the offset with --dis-skip or --ref-skip");
  }
  return r;
}

}  // namespace vmafx
