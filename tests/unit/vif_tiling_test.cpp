// SPDX-License-Identifier: BSD-3-Clause
// The tiling of the VIF scale-0 "v2" kernels (src/exact/vif_tile.h, run by
// CUDA's stat17_v2_kernel and OpenCL's vif_statistic0_v2), on the host: the
// same vertical and horizontal item functions and the same tile and item
// index arithmetic as the CUDA kernel, one block and one thread after
// another, must give the CPU's scale-0 accumulators bit for bit. Checked two
// ways: the int64 sums equal those of a plain per-pixel copy of vif.cpp's
// statistic loop, and finish() of them equals scale 0 of
// vif::compute_scales (the reference itself).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "feature/vif.hpp"
#include "exact/vif_tables.h"
#include "exact/vif_tile.h"

namespace {

using vmafx::vif::Accum;

// stat17_v2_kernel on the host (blocks and threads in turn; the kernel's
// __syncthreads separate exactly these phases).
Accum tiled(const std::uint8_t* ref, const std::uint8_t* dis, std::ptrdiff_t stride, int w, int h, bool vector_loads,
            double limit) {
  constexpr int kIW = VMAFX_VIF_V2_IW, kIH = VMAFX_VIF_V2_IH, kTX = VMAFX_VIF_V2_TX, kTY = VMAFX_VIF_TILE_TY;
  constexpr int kVS = VMAFX_VIF_V2_VS, kH = VMAFX_VIF_V2_H, kXS = VMAFX_VIF_V2_XS, kXG = VMAFX_VIF_TILE_XG;
  std::vector<std::uint8_t> sr(kIH * kIW), sd(kIH * kIW);
  std::vector<std::uint16_t> vm1(kTY * kVS), vm2(kTY * kVS);
  std::vector<std::uint32_t> vxx(kTY * kVS), vyy(kTY * kVS), vxy(kTY * kVS);
  Accum acc;
  const int gx = (w + kTX - 1) / kTX, gy = (h + kTY - 1) / kTY;
  for (int by = 0; by < gy; ++by)
    for (int bx = 0; bx < gx; ++bx) {
      const int x0 = bx * kTX, y0 = by * kTY, xs = x0 - kH, ys = y0 - kH;
      if (vector_loads && xs >= 0 && xs + kIW <= w && ys >= 0 && ys + kIH <= h) {
        constexpr int kWords = kIW / 8;
        for (int q = 0; q < kIH * kWords; ++q) {
          const int r = q / kWords, c8 = q % kWords;
          const long long off = (long long)(ys + r) * stride + xs + 8 * c8;
          std::memcpy(&sr[r * kIW + 8 * c8], ref + off, 8);
          std::memcpy(&sd[r * kIW + 8 * c8], dis + off, 8);
        }
      } else {
        for (int q = 0; q < kIH * kIW; ++q) {
          const int r = q / kIW, c = q % kIW;
          const long long off = (long long)vmafx_vif_mirror(ys + r, h) * stride + vmafx_vif_mirror(xs + c, w);
          sr[q] = ref[off];
          sd[q] = dis[off];
        }
      }
      for (int tid = 0; tid < VMAFX_VIF_TILE_ITEMS; ++tid)
        vmafx_vif_v2_vertical(tid, sr.data(), sd.data(), vm1.data(), vm2.data(), vxx.data(), vyy.data(), vxy.data());
      for (int tid = 0; tid < VMAFX_VIF_TILE_ITEMS; ++tid) {
        const int ty = tid / kXG, xb = (tid % kXG) * kXS, o = ty * kVS + xb;
        std::int32_t s1[kXS], s2[kXS], s12[kXS];
        vmafx_vif_tile_horizontal(&vm1[o], &vm2[o], &vxx[o], &vyy[o], &vxy[o], 0, kH, kXS, s1, s2, s12);
        for (int j = 0; j < kXS; ++j)
          if (x0 + xb + j < w && y0 + ty < h) vmafx::vif::accumulate(acc, s1[j], s2[j], s12[j], limit);
      }
    }
  return acc;
}

// vif.cpp's statistic<uint8_t, 17> per pixel (mirror without repeating the
// edge; single reflections suffice for w, h >= 9).
Accum direct(const std::uint8_t* ref, const std::uint8_t* dis, std::ptrdiff_t stride, int w, int h, double limit) {
  const std::uint16_t* c = vmafx_vif_filter[0];
  auto m = [](int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); };
  std::vector<std::uint32_t> t1(w), t2(w), txx(w), tyy(w), txy(w);
  Accum acc;
  for (int i = 0; i < h; ++i) {
    for (int j = 0; j < w; ++j) {
      std::uint32_t mu1 = 0, mu2 = 0;
      std::uint64_t xx = 0, yy = 0, xy = 0;
      for (int k = 0; k < 17; ++k) {
        const long long off = (long long)m(i - 8 + k, h) * stride + j;
        const std::uint32_t a = ref[off], b = dis[off];
        const std::uint32_t ca = c[k] * a, cb = c[k] * b;
        mu1 += ca;
        mu2 += cb;
        xx += std::uint64_t{ca} * a;
        yy += std::uint64_t{cb} * b;
        xy += std::uint64_t{ca} * b;
      }
      t1[j] = std::uint16_t((mu1 + 128) >> 8);
      t2[j] = std::uint16_t((mu2 + 128) >> 8);
      txx[j] = std::uint32_t(xx);
      tyy[j] = std::uint32_t(yy);
      txy[j] = std::uint32_t(xy);
    }
    for (int j = 0; j < w; ++j) {
      std::uint32_t mu1 = 0, mu2 = 0;
      std::uint64_t xx = 0, yy = 0, xy = 0;
      for (int k = 0; k < 17; ++k) {
        const int x = m(j - 8 + k, w);
        mu1 += c[k] * t1[x];
        mu2 += c[k] * t2[x];
        xx += std::uint64_t{c[k]} * txx[x];
        yy += std::uint64_t{c[k]} * tyy[x];
        xy += std::uint64_t{c[k]} * txy[x];
      }
      const auto sq = [](std::uint32_t a, std::uint32_t b) {
        return std::uint32_t((std::uint64_t{a} * b + 0x80000000u) >> 32);
      };
      vmafx::vif::accumulate(acc, std::int32_t(std::uint32_t((xx + 32768) >> 16) - sq(mu1, mu1)),
                             std::int32_t(std::uint32_t((yy + 32768) >> 16) - sq(mu2, mu2)),
                             std::int32_t(std::uint32_t((xy + 32768) >> 16) - sq(mu1, mu2)), limit);
    }
  }
  return acc;
}

enum class Fill { kRandom, kExtremes, kFlat255, kEdges };

void check(int w, int h, int pad, Fill fill, unsigned seed) {
  SCOPED_TRACE(testing::Message() << w << "x" << h << " pad " << pad << " fill " << int(fill) << " seed " << seed);
  const std::ptrdiff_t stride = w + pad;
  std::vector<std::uint8_t> r(std::size_t(stride) * h), d(r.size());
  std::mt19937 rng(seed);
  for (std::size_t i = 0; i < r.size(); ++i) {
    switch (fill) {
      case Fill::kRandom:
        r[i] = std::uint8_t(rng());
        // A distorted copy: mostly close to the reference, sometimes not.
        d[i] = (rng() % 4) ? std::uint8_t(std::min(255, std::max(0, int(r[i]) + int(rng() % 41) - 20)))
                           : std::uint8_t(rng());
        break;
      case Fill::kExtremes:
        r[i] = (rng() & 1) ? 255 : 0;
        d[i] = (rng() & 1) ? 255 : 0;
        break;
      case Fill::kFlat255:
        r[i] = 255;
        d[i] = std::uint8_t(rng() % 3 ? 255 : 0);
        break;
      case Fill::kEdges: {
        const int x = int(i % stride), y = int(i / stride);
        r[i] = ((x / 5 + y / 7) & 1) ? 255 : 0;
        d[i] = ((x / 6 + y / 5) & 1) ? 250 : 3;
        break;
      }
    }
  }
  const double limit = 100.0;
  const Accum a = direct(r.data(), d.data(), stride, w, h, limit);
  for (bool vec : {false, true}) {
    const Accum t = tiled(r.data(), d.data(), stride, w, h, vec, limit);
    EXPECT_EQ(t.num_log, a.num_log) << "vector loads " << vec;
    EXPECT_EQ(t.den_log, a.den_log) << "vector loads " << vec;
    EXPECT_EQ(t.num_non_log, a.num_non_log) << "vector loads " << vec;
    EXPECT_EQ(t.den_non_log, a.den_non_log) << "vector loads " << vec;
  }
  // Tie the plain copy to the reference.
  const vmafx::PlaneView rv{r.data(), stride, w, h}, dv{d.data(), stride, w, h};
  const auto s = vmafx::vif::compute_scales(rv, dv, 8, limit, false);
  const auto f = vmafx::vif::finish(a);
  EXPECT_EQ(f.num, s[0].num);
  EXPECT_EQ(f.den, s[0].den);
}

TEST(VifTiling, TapsAreFilterZero) {
  for (int k = 0; k < 17; ++k) EXPECT_EQ(vmafx_vif_tap(0, k), vmafx_vif_filter[0][k]) << k;
}

TEST(VifTiling, EqualsCpuScale0) {
  const int sizes[][2] = {{16, 16},  {17, 19},  {111, 15}, {112, 16}, {113, 17},
                          {129, 33}, {240, 48}, {250, 70}, {347, 61}, {480, 270}};
  unsigned seed = 1;
  for (const auto& s : sizes)
    for (int pad : {0, 8, 13})
      for (Fill f : {Fill::kRandom, Fill::kExtremes, Fill::kFlat255, Fill::kEdges}) check(s[0], s[1], pad, f, seed++);
}

}  // namespace
