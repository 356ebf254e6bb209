// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SIMD rows of the float ADM (feature/float_adm.cpp), through Google Highway
// with runtime dispatch, like feature/float_simd.hpp: init_simd_rows() puts
// them in the row table (fadm::Rows) that fadm::rows() returns while
// vmafx::simd::enabled().
//
// Vectorised across columns: every lane does, for its column, the float /
// double operations of float_adm.cpp's scalar loops in their order (separate
// IEEE operations, -ffp-contract=off). Row sums (the p-norm terms of the
// denominator and of the masking stage) are not split: each of the three
// orientations' terms is added to one running float in column order, as the
// scalar loop does. Where a stage has no vector path (p_norm != 3, fewer
// columns than a vector, a mirrored column) the SIMD slot runs the scalar
// row. The scalar rows (scalar_rows()) stay the reference and the unit tests
// compare the two for == on every target.
//
// Without Highway (VMAFX_HAVE_HWY undefined) vmafx::simd::enabled() is false,
// rows() is scalar_rows(), and the functions below must not be called.
#include <cstddef>

#include "core/libvmaf_cpu.hpp"

namespace vmafx::fadm::simd {

// Columns per vector of the running target: the SIMD rows' vector paths need
// at least this many columns.
std::size_t lanes();

// The RCPSS estimate (flt::rcp_estimate, intel or amd) on n values, for the tests.
void rcp_estimate_n(const float* x, int n, LibvmafCpu cpu, float* out);

}  // namespace vmafx::fadm::simd
