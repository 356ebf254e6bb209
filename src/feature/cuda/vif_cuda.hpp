#pragma once
// Device side of the integer VIF twin (vif.cu).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace vmafx::cuda::vif {

// Whether the v2 (tiled) scale-0 kernel runs: yes unless VMAFX_CUDA_VIF=v1,
// which selects the original kernel. launch's default argument reads it at each
// call (bench/cuda_bench.cpp's BM_Kernels relies on that); the twin once.
bool v2_selected();

// The four scales of one luma pair. Writes, per scale s, libvmaf's four int64
// accumulators (num_log, den_log, num_non_log, den_non_log) to acc[4 s ..],
// which must be zero on entry. `filters` are the host's vmafx_vif_filter rows.
// `levels` holds the decimated pictures: 2 * (w/2) * (h/2) * 2 uint16 values.
// int_gain: the log branch's gain terms from the integer path of src/exact
// (vif_gain.h: integers, soft fp64 only where undecided) instead of native
// fp64; both give the CPU's integers. Asynchronous on `s`.
// v2: scale 0 of 8-bit pictures through the tiled kernel of vif_tile.cuh
// (VMAFX_CUDA_VIF=v2; the same integers); otherwise the original kernel.
void launch(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, double gain_limit,
            bool skip_scale0, const std::uint16_t (*filters)[17], std::uint16_t* levels, long long* acc,
            bool int_gain, cudaStream_t s, bool v2 = v2_selected());

}  // namespace vmafx::cuda::vif
