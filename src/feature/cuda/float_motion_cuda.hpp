// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device side of the float_motion twin (float_motion.cu): the reference's
// separable float blur (tap-ordered float sums from 0, mirrored borders,
// vertical pass first) and each row's float sum of |a - b| in column order,
// with --fmad=false.
#include <cuda_runtime.h>

namespace vmafx::cuda::fmotion {

// dst = the blur of the packed w x h image src with the fw taps at f (device
// memory); tmp holds w * h floats.
void blur(const float* f, int fw, const float* src, int w, int h, float* tmp, float* dst, cudaStream_t s);
// rows[i] = float sum over j in order of |a[i][j] - b[i][j]|.
void abs_diff_rows(const float* a, const float* b, int w, int h, float* rows, cudaStream_t s);

}  // namespace vmafx::cuda::fmotion
