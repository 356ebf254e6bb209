// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The host half of the float_psnr / float_moment twins: the reference adds
// float terms, each an integer multiple of 2^-q, into a double from 0 in
// raster order. The device returns each row's exact sum in units of 2^-q
// (src/exact/float_terms.h). While every partial sum stays below 2^53 units
// it is a double as it stands, so the running double equals the exact prefix;
// past that point the remaining terms are added one by one, as the reference
// adds them. Host-only.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

namespace vmafx::exact_sum {

inline constexpr std::uint64_t kExactLimit = std::uint64_t(1) << 53;

struct Prefix {
  int rows = 0;             // the first `rows` rows are exact
  std::uint64_t units = 0;  // their sum
};

// The longest run of leading rows whose sum stays below 2^53 units.
inline Prefix exact_prefix(std::span<const std::uint64_t> row_sums) {
  Prefix p;
  for (std::uint64_t r : row_sums) {
    if (r >= kExactLimit || p.units + r >= kExactLimit) break;
    p.units += r;
    ++p.rows;
  }
  return p;
}

// The reference's double: the exact prefix, then `rest` (the terms of the
// remaining rows, in raster order, in units of 2^-q) added one by one.
inline double finish(const Prefix& p, int q, std::span<const std::uint32_t> rest) {
  double acc = std::ldexp(double(p.units), -q);
  for (std::uint32_t t : rest) acc += std::ldexp(double(t), -q);
  return acc;
}

}  // namespace vmafx::exact_sum
