// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the float_adm twin (float_adm.cu): loops around
// exact/float_adm.h, the reference's float operations in its order, with
// --fmad=false, its double constants in native fp64. Each scale ends in
// per-row float sums of the p-norm terms (or, for p != 3, the terms' bases,
// which the host raises with the reference's powf); the host adds the rows.
#include <cuda_runtime.h>

#include <cstdint>

#include "exact/float_adm.h"

namespace vmafx::cuda::fadm {

struct Rect {
  int top, bottom, left, right;
};

// The device table: the db2 low-pass and high-pass taps (4 + 4 floats, as
// bits). (The division's estimate tables are exact/fadm_rcp.h's.)
inline constexpr int kTableSize = 8;

// One db2 level of a w x h image (rows of sstride floats) into packed
// (w + 1) / 2 x (h + 1) / 2 bands a, v, h, d (lo_only: a alone).
void dwt(const float* src, int sstride, int w, int h, bool lo_only, const std::uint32_t* table, float* a, float* v,
         float* hb, float* d, cudaStream_t s);

// The stages of one scale on bands of width w (packed) and height h. Band
// triples are (h, v, d) at p[0], p[1], p[2].
struct Triple {
  float* p[3];
};
struct ScaleArgs {
  int w, h;
  Rect filter, score;
  float rf[3];
  vmafx_fadm_consts k;  // the decoupling's, CSF's and masking's constants
  bool cube;            // p = 3: the terms are x * x * x; else x itself
  bool bypass;          // adm_bypass_cm
};
// decouple (rb, db -> r, a), the denominator terms of rb, csf and masking
// terms of the numerator (r) and the AIM numerator (a): terms holds 9 planes
// of score-region size (den h, v, d, num h, v, d, aim h, v, d), rows the
// per-row float sums of each (9 per row), row_count rows.
void scale(const ScaleArgs& a, Triple rb, Triple db, Triple r, Triple ad, Triple csf_a, Triple csf_f, float* terms,
           float* rows, cudaStream_t s);

}  // namespace vmafx::cuda::fadm
