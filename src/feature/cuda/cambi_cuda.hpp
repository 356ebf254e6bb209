// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the CAMBI twin (cambi.cu): the per-pixel integer stages and
// the c-values, the same steps as feature/opencl/cambi.cl (see there). All
// launches are asynchronous on `s`; buffers are packed (row pitch = width).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace vmafx::cuda::cambi {

// What the c-value kernel needs of cambi::Settings.
struct CvalueParams {
  int tvi[32];     // Settings::tvi
  int weight[32];  // Settings::diff_weights
  int nd, base, band, vlt;
};

// The luma at 10 bits, resized to ow x oh through the position maps (a
// negative entry selects a sample of `patch`, the host's values where the
// resize lands outside the picture: bad_rows rows of ow, then columns of oh),
// anti-dithered when `dither`. `in`: bpc == 8 bytes, else uint16, `stride`
// samples per row.
void launch_to10(const void* in, int bpc, std::ptrdiff_t stride, const int* xmap, const int* ymap,
                 const std::uint16_t* patch, int ow, int oh, int bad_rows, bool dither, std::uint16_t* out,
                 cudaStream_t s);
// The zero-derivative mask of the w x h picture at every `step`-th row and
// column ((w + step - 1) / step wide); `hs` holds w * h bytes of scratch.
void launch_mask(const std::uint16_t* img, int w, int h, unsigned threshold, int step, std::uint8_t* hs,
                 std::uint8_t* mask, cudaStream_t s);
// One scale: every `step`-th sample of src (row pitch sstride), then the 3x3
// mode filter, into dst (w x h).
void launch_mode(const std::uint16_t* src, int sstride, int step, int w, int h, std::uint16_t* dst, cudaStream_t s);
// The c-values of one scale (w x h); its mask is every mstep-th sample of
// `mask` (row pitch mstride).
void launch_cvalues(const std::uint16_t* img, int w, int h, const std::uint8_t* mask, int mstride, int mstep, int pad,
                    const CvalueParams& p, float* out, cudaStream_t s);

}  // namespace vmafx::cuda::cambi
