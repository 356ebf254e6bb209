// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD twin of the block statistics of SpEED's est_params (feature/speed.cpp,
// block_moments_scalar), through Google Highway with runtime dispatch, like
// feature/vif_simd.hpp.
//
// The 25 means are float sums and the 325 covariances double sums, each
// accumulated over the window positions in raster order; here each sum is a
// lane of its own that takes exactly the scalar sequence of additions (the
// lanes of a vector are 5 neighbouring window offsets, or 2..8 of the 25
// offsets), so every mean and covariance has the scalar bits. speed.cpp uses
// this when vmafx::simd::enabled() says so; the unit tests compare the two for
// == on every target.
//
// Without Highway (VMAFX_HAVE_HWY undefined) vmafx::simd::enabled() is false and
// this must not be called.
#include <cstddef>

namespace vmafx::speed::simd {

// data: `len` readable floats, rows of `st` floats. For the 25 offsets
// o = (r, c), r, c < 5 (o = 5 r + c), of a subw x subh window:
//   means[o] = (sum over i < subh, j < subw of data[(r + i) st + c + j]) / float(subw subh)
// (float sum in i, j order), and for offsets x >= y
//   cov[25 x + y] = cov[25 y + x] = float(sum (double(vx) - mx) (double(vy) - my) / double(subw subh))
// with mx = double(means[x]) (double sum in i, j order).
// Needs (4 + subh - 1) st + 4 + subw <= len.
void block_moments(const float* data, std::size_t len, int st, int subw, int subh, float* means, float* cov);

}  // namespace vmafx::speed::simd
