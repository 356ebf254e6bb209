// SPDX-License-Identifier: BSD-3-Clause
// The SIMD integer motion SAD (feature/motion_simd.cpp, motion::rows()) against
// motion::scalar_rows() of feature/motion.cpp, for == on the 64-bit
// total, on every SIMD target this CPU runs: random planes of every width 3..300
// (every row-end case of every vector width) at bit depths 8..16, extreme
// values (the largest vertical and horizontal sums, where the int32 splitting
// of motion_simd.cpp matters), samples above 2^bpc - 1 (malformed 9..15-bit
// input, the scalar int64 fallback), all-zero rows, padded strides, and rows
// wide enough for the uint32 row sum to wrap.
// Without Highway (or on a CPU without a SIMD target) the tests skip.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "feature/motion.hpp"
#include "core/simd.hpp"
#include "simd_targets.hpp"

namespace vmafx {
namespace {

// A plane with a stride of `pad` samples beyond its width.
struct Plane {
  int w, h, bpc, pad;
  std::vector<std::uint8_t> bytes;
  Plane(int w_, int h_, int bpc_, int pad_ = 0)
      : w(w_), h(h_), bpc(bpc_), pad(pad_), bytes(std::size_t(w_ + pad_) * h_ * (bpc_ == 8 ? 1 : 2)) {}
  std::ptrdiff_t stride() const { return std::ptrdiff_t(w + pad) * (bpc == 8 ? 1 : 2); }
  void set(int x, int y, std::uint32_t v) {
    std::uint8_t* row = bytes.data() + y * stride();
    if (bpc == 8)
      row[x] = std::uint8_t(v);
    else
      reinterpret_cast<std::uint16_t*>(row)[x] = std::uint16_t(v);
  }
  PlaneView view() const { return {bytes.data(), stride(), w, h}; }
};

std::uint64_t scalar_sad(const Plane& a, const Plane& b) {
  return motion::scalar_rows().sad(a.view(), b.view(), a.bpc);
}

struct Pair {
  Plane a, b;
  std::uint64_t want = 0;
};

class MotionSimd : public test::SimdTargets {
 protected:
  // The SIMD sad of every pair equals the scalar one, on every target.
  void check(std::vector<Pair>& pairs) {
    for (Pair& p : pairs) p.want = scalar_sad(p.a, p.b);
    vmafx::simd::set_enabled(true);
    each_target([&] {
      for (const Pair& p : pairs) {
        ASSERT_EQ(motion::rows().sad(p.a.view(), p.b.view(), p.a.bpc), p.want)
            << p.a.w << "x" << p.a.h << " bpc " << p.a.bpc << " stride pad " << p.a.pad;
        // motion::sad takes the rows of the switch.
        ASSERT_EQ(motion::sad(p.a.view(), p.b.view(), p.a.bpc), p.want);
      }
    });
    vmafx::simd::reset_enabled();
  }
};

constexpr int kDepths[] = {8, 9, 10, 12, 15, 16};

TEST_F(MotionSimd, RandomPlanesEveryWidth) {
  std::mt19937 rng(11);
  std::vector<Pair> pairs;
  for (int w = 3; w <= 300; ++w) {
    const int bpc = kDepths[w % 6];
    const int h = 3 + int(rng() % 6);
    const int pad = int(rng() % 3);
    Pair p{Plane(w, h, bpc, pad), Plane(w, h, bpc, pad)};
    const std::uint32_t maxv = (1u << bpc) - 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::uint32_t v = std::uint32_t(rng()) % (maxv + 1);
        p.a.set(x, y, v);
        // Mostly small differences, some large ones, some rows equal.
        std::uint32_t u = v;
        if (y % 4 != 1) {
          const int r = int(rng() % 16);
          u = r == 0 ? std::uint32_t(rng()) % (maxv + 1)
                     : std::uint32_t(std::min<std::int64_t>(maxv, std::max<std::int64_t>(0, std::int64_t(v) + r - 8)));
        }
        p.b.set(x, y, u);
      }
    pairs.push_back(std::move(p));
  }
  check(pairs);
}

TEST_F(MotionSimd, ExtremeValues) {
  std::mt19937 rng(12);
  std::vector<Pair> pairs;
  for (int bpc : kDepths)
    for (int w : {3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100}) {
      const std::uint32_t maxv = (1u << bpc) - 1;
      for (int pattern = 0; pattern < 6; ++pattern) {
        const int h = 3 + pattern;
        Pair p{Plane(w, h, bpc), Plane(w, h, bpc)};
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x) {
            std::uint32_t a = 0, b = 0;
            switch (pattern) {
              case 0: a = maxv; break;  // largest positive sums
              case 1: b = maxv; break;  // largest negative sums
              case 2:
                a = (x + y) % 2 ? maxv : 0;
                b = maxv - a;
                break;                              // checkerboard
              case 3: a = x % 2 ? maxv : 0; break;  // column stripes
              case 4:
                a = (rng() % 2) * maxv;
                b = (rng() % 2) * maxv;
                break;  // random extremes
              case 5:
                a = y % 2 ? maxv : 0;
                b = x % 3 ? 0 : maxv;
                break;
            }
            p.a.set(x, y, a);
            p.b.set(x, y, b);
          }
        pairs.push_back(std::move(p));
      }
    }
  check(pairs);
}

// 9..15-bit planes whose samples use all 16 bits: the vertical values leave
// the range where the SIMD horizontal pass works, and those rows take the
// int64 fallback; mixed with in-range rows.
TEST_F(MotionSimd, SamplesAboveTheBitDepth) {
  std::mt19937 rng(13);
  std::vector<Pair> pairs;
  for (int bpc : {9, 10, 12, 15})
    for (int w : {3, 6, 16, 29, 64, 77}) {
      const int h = 9;
      Pair p{Plane(w, h, bpc), Plane(w, h, bpc)};
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const bool wide = y < 3 || (y == 7 && x == w / 2);
          const std::uint32_t lim = wide ? 65535u : (1u << bpc) - 1;
          p.a.set(x, y, std::uint32_t(rng()) % (lim + 1));
          p.b.set(x, y, wide && x % 2 ? 0 : std::uint32_t(rng()) % (lim + 1));
        }
      pairs.push_back(std::move(p));
    }
  check(pairs);
}

// Uniform differences that put the vertical values exactly at the int16
// limits of the SIMD horizontal pass: D * 2^(16 - bpc) = -32768 (taken in
// int16, the 5-tap sum is then exactly -2^31), 32767, and 32768 (int32 path).
TEST_F(MotionSimd, VerticalValuesAtTheInt16Limits) {
  std::vector<Pair> pairs;
  for (int bpc : {8, 10, 16}) {
    const int unit = 1 << (bpc - 8);  // a difference of D * unit gives y = 256 * D
    for (int diff : {-128 * unit, 128 * unit, 128 * unit - 1, -128 * unit + 1, 127 * unit})
      for (int w : {3, 16, 45}) {
        Pair p{Plane(w, 6, bpc), Plane(w, 6, bpc)};
        const std::uint32_t base = diff < 0 ? std::uint32_t(-diff) : 0;  // a - b = diff
        for (int y = 0; y < 6; ++y)
          for (int x = 0; x < w; ++x) {
            // Rows 4 and 5 differ a little, for rows mixing the limit and less.
            const int e = y >= 4 ? (x % 3) : 0;
            if (diff < 0) {
              p.a.set(x, y, 0);
              p.b.set(x, y, base - std::uint32_t(e));
            } else {
              p.a.set(x, y, std::uint32_t(diff - e));
              p.b.set(x, y, 0);
            }
          }
        pairs.push_back(std::move(p));
      }
  }
  check(pairs);
}

// Identical planes (every row skipped) and a single differing sample.
TEST_F(MotionSimd, ZeroRows) {
  std::vector<Pair> pairs;
  for (int bpc : {8, 10, 16})
    for (int w : {3, 13, 40}) {
      Pair p{Plane(w, 11, bpc), Plane(w, 11, bpc)};
      for (int y = 0; y < 11; ++y)
        for (int x = 0; x < w; ++x) {
          p.a.set(x, y, std::uint32_t(x * 3 + y) % 200);
          p.b.set(x, y, std::uint32_t(x * 3 + y) % 200);
        }
      pairs.push_back(p);
      p.b.set(w - 1, 5, 255);
      pairs.push_back(std::move(p));
    }
  check(pairs);
}

// Rows of 70000 columns of the largest |value|: the uint32 row sum wraps
// (65280 * 70000 > 2^32 at 8 bits, 65535 * 70000 at 16), in both paths alike.
TEST_F(MotionSimd, RowSumWraps) {
  std::vector<Pair> pairs;
  for (int bpc : {8, 16}) {
    const int w = 70000, h = 3;
    Pair p{Plane(w, h, bpc), Plane(w, h, bpc)};
    const std::uint32_t maxv = (1u << bpc) - 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) p.a.set(x, y, x == 12345 ? 0 : maxv);
    pairs.push_back(std::move(p));
  }
  check(pairs);
  // The wrap did happen: each unwrapped row sum is above 2^32.
  for (const Pair& p : pairs) EXPECT_LT(p.want, 3ull << 32) << p.a.bpc;
}

}  // namespace
}  // namespace vmafx
