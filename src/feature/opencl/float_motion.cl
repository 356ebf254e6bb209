// SPDX-License-Identifier: BSD-3-Clause
// float_motion on an OpenCL device, without fp64: one work-item an output
// around exact/float_motion.h (the blur's taps, a row's sum of |a - b|), its
// fp32 operations float_ops.cl's; the host adds the rows
// (float_motion_opencl.cpp). `opq` is always 0.
#pragma OPENCL FP_CONTRACT OFF

#include "float_ops.cl"
#include "exact/float_motion.h"

__kernel void fm_vertical(__global const float* f, int fw, __global const float* src, int w, int h, uint opq,
                          __global float* dst)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    dst[(size_t)i * w + j] = vmafx_fmotion_taps(src + j, (size_t)w, h, i, f, fw, opq);
}

__kernel void fm_horizontal(__global const float* f, int fw, __global const float* src, int w, int h, uint opq,
                            __global float* dst)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    dst[(size_t)i * w + j] = vmafx_fmotion_taps(src + (size_t)i * w, 1, w, j, f, fw, opq);
}

__kernel void fm_rows(__global const float* a, __global const float* b, int w, int h, __global float* rows)
{
    const int i = get_global_id(0);
    if (i >= h) return;
    rows[i] = vmafx_fmotion_row_sad(a + (size_t)i * w, b + (size_t)i * w, w);
}
