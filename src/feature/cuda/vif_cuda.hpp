// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the integer VIF twin (vif.cu).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace vmafx::cuda::vif {

// The four scales of one luma pair. Writes, per scale s, libvmaf's four int64
// accumulators (num_log, den_log, num_non_log, den_non_log) to acc[4 s ..],
// which must be zero on entry. `filters` are the host's vmafx_vif_filter rows.
// `levels` holds the decimated pictures: 2 * (w/2) * (h/2) * 2 uint16 values.
// int_gain: the log branch's gain terms from the integer path of src/exact
// (vif_gain.h: integers, soft fp64 only where undecided) instead of native
// fp64; both give the CPU's integers. Asynchronous on `s`.
// v2: scale 0 of 8-bit pictures through the tiled kernel of exact/vif_tile.h
// (faster on the H200: docs/journal/2026-11-30-gpu-backends-speed.md; the
// same integers); false, the generic kernel that every other scale and bit
// depth uses (benchmarks compare them).
void launch(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, double gain_limit,
            bool skip_scale0, const std::uint16_t (*filters)[17], std::uint16_t* levels, long long* acc, bool int_gain,
            cudaStream_t s, bool v2 = true);

}  // namespace vmafx::cuda::vif
