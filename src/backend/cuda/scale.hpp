// SPDX-License-Identifier: BSD-3-Clause
// Kernels of the exact scaler (core/scale_exact.hpp) on a CUDA device; the
// arithmetic is exact/swscale.h. Strides in bytes; samples are 8-bit or
// 16-bit (bytes per sample = bpc > 8 ? 2 : 1).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace vmafx::cuda::scale {

// Every source row into dst_w intermediate samples (int32, dst_w per row).
void launch_hscale(const void* src, std::ptrdiff_t src_stride, int src_bpc, int src_w, int src_h, const int* pos,
                   const int* taps, int n, int dst_w, int sh, int wide, int* inter, cudaStream_t s);
// Every output sample of a plane from the intermediate rows.
void launch_vscale(const int* inter, int dst_w, int src_h, const int* pos, const int* taps, int n, int dst_h,
                   int dst_bpc, int dithered, int v_plane, void* dst, std::ptrdiff_t dst_stride, cudaStream_t s);
// Same size, other depth (a copy when the depths are equal).
void launch_depth(const void* src, std::ptrdiff_t src_stride, int src_bpc, void* dst, std::ptrdiff_t dst_stride,
                  int dst_bpc, int w, int h, int shift_only, cudaStream_t s);

}  // namespace vmafx::cuda::scale
