// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test support: a float's bit pattern and back.
#include <cstdint>
#include <cstring>

namespace vmafx::test {

inline std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace vmafx::test
