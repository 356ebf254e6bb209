// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// rows() of a feature's row table (struct Rows in feature/<f>.hpp): its
// scalar_rows(), or a copy with init_simd_rows() (feature/<f>_simd.cpp) put
// over it, chosen at each call by vmafx::simd::enabled(). Without Highway
// init_simd_rows() changes nothing and enabled() is false.
#include "core/simd.hpp"

namespace vmafx::simd {

template <class Rows>
const Rows& pick_rows(const Rows& scalar, void (*init_simd_rows)(Rows&)) {
  static const Rows with_simd = [&] {
    Rows r = scalar;
    init_simd_rows(r);
    return r;
  }();
  return enabled() ? with_simd : scalar;
}

}  // namespace vmafx::simd
