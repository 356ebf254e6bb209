// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Content generation shared by the benchmarks (engine_bench, cuda_bench,
// opencl_bench): a textured frame that moves with the frame number and a noisy
// distorted copy, a per-format cache of a few generated pairs, and the copy of
// a cached pair into a pool picture.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "vmaf_exact/picture.hpp"

namespace vmafx::bench {

// A textured frame that moves with `frame`, and a noisy distorted copy; the
// noise comes from `rng`.
inline void fill(Picture& ref, Picture& dis, int frame, std::mt19937& rng) {
  const PictureFormat& f = ref.format();
  const int maxv = (1 << f.bpc) - 1;
  std::uniform_int_distribution<int> noise(-3 << (f.bpc - 8), 3 << (f.bpc - 8));
  for (int p = 0; p < f.plane_count(); ++p) {
    for (int y = 0; y < f.plane_height(p); ++y) {
      for (int x = 0; x < f.plane_width(p); ++x) {
        const int v = ((((x + frame) * 13) ^ (y * 7)) & 255) << (f.bpc - 8);
        const int d = std::clamp(v + noise(rng), 0, maxv);
        if (f.bpc == 8) {
          ref.row<std::uint8_t>(p, y)[x] = std::uint8_t(v);
          dis.row<std::uint8_t>(p, y)[x] = std::uint8_t(d);
        } else {
          ref.row<std::uint16_t>(p, y)[x] = std::uint16_t(v);
          dis.row<std::uint16_t>(p, y)[x] = std::uint16_t(d);
        }
      }
    }
  }
}

// The same with a generator of its own, seeded with `seed`.
inline void fill(Picture& ref, Picture& dis, int frame, std::uint32_t seed) {
  std::mt19937 rng(seed);
  fill(ref, dis, frame, rng);
}

// Four generated frame pairs per format, made once (generation is slow):
// pair i is fill(..., i, first_seed + i).
struct Sources {
  std::vector<Picture> ref, dis;
};
inline const Sources& sources(const PictureFormat& fmt, std::uint32_t first_seed) {
  static std::map<std::tuple<int, int, int>, Sources> cache;
  Sources& s = cache[{fmt.width, fmt.height, fmt.bpc}];
  if (s.ref.empty()) {
    for (int i = 0; i < 4; ++i) {
      s.ref.emplace_back(fmt);
      s.dis.emplace_back(fmt);
      fill(s.ref.back(), s.dis.back(), i, first_seed + std::uint32_t(i));
    }
  }
  return s;
}

// Copies every plane of `src` into `dst` (same format and strides).
inline void copy_picture(Picture& dst, const Picture& src) {
  const PictureFormat& f = src.format();
  for (int p = 0; p < f.plane_count(); ++p)
    std::memcpy(dst.plane_data(p), src.plane(p).data, std::size_t(src.stride(p)) * std::size_t(f.plane_height(p)));
}

}  // namespace vmafx::bench
