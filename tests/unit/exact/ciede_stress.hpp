// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Random (y, u, v) pairs for the ciede certificate tests: every bit depth,
// plain random pairs, near pairs (the distorted sample within a few codes of
// the reference, as in real video), neutral greys (u = v = mid) and the
// extremes of the code range.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace vmafx::test {

// n pairs as 6 samples each (reference y, u, v, distorted y, u, v).
inline std::vector<std::int32_t> ciede_pairs(int bpc, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int mx = (1 << bpc) - 1, mid = 128 << (bpc - 8);
  std::vector<std::int32_t> s(std::size_t(n) * 6);
  for (int k = 0; k < n; ++k) {
    std::int32_t* p = &s[std::size_t(k) * 6];
    for (int c = 0; c < 6; ++c) p[c] = std::int32_t(rng() % (unsigned(mx) + 1));
    const int kind = k % 5;
    if (kind == 1 || kind == 2) {  // near: within +-4 (kind 1) or +-1 (kind 2) codes at 8-bit scale
      const int r = kind == 1 ? 4 << (bpc - 8) : 1;
      for (int c = 3; c < 6; ++c) p[c] = std::clamp(p[c - 3] + int(rng() % (2 * r + 1)) - r, 0, mx);
    } else if (kind == 3) {  // grey: u = v = mid, or one chroma off by a code
      p[1] = p[2] = p[4] = p[5] = mid;
      if (rng() & 1) p[4 + int(rng() & 1)] += 1;
    } else if (kind == 4) {  // extremes of the range
      for (int c = 0; c < 6; ++c)
        if (rng() & 1) p[c] = (rng() & 1) ? mx : 0;
    }
  }
  return s;
}

}  // namespace vmafx::test
