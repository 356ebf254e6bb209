// SPDX-License-Identifier: BSD-3-Clause
// Frames a hardware decoder (NVDEC) left in device memory, unpacked into the
// CUDA backend's own planar copy of a picture (vmafx::DeviceImporter).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace vmafx::cuda::import {

// One plane: a copy of `w` samples x `h` rows from `src` (pitch bytes) to
// `dst` (stride bytes), each sample shifted down by `shift`. With two
// destinations, `src` interleaves them (U V U V ...): sample 2x goes to dst0,
// 2x + 1 to dst1. Bits below `shift` ORed into *stray.
void launch_unpack(const void* src, int pitch, void* dst0, void* dst1, std::ptrdiff_t stride, int w, int h,
                   int bytes_per_sample, int shift, unsigned* stray, cudaStream_t s);

}  // namespace vmafx::cuda::import
