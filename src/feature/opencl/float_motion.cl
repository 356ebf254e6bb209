// SPDX-License-Identifier: BSD-3-Clause
// float_motion on an OpenCL device, without fp64: the reference's separable
// float blur (tap-ordered float sums from 0, mirrored borders, vertical pass
// first) and each row's float sum of |a - b| in column order (float_ops.cl);
// the host adds the rows (float_motion_opencl.cpp). `opq` is always 0.
#pragma OPENCL FP_CONTRACT OFF

#include "float_ops.cl"

inline int fm_mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

__kernel void fm_vertical(__global const float* f, int fw, __global const float* src, int w, int h, uint opq,
                          __global float* dst)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    const int r = fw / 2;
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) acc = fl_add(acc, fl_mul(f[k], src[(size_t)fm_mirror(i - r + k, h) * w + j], opq));
    dst[(size_t)i * w + j] = acc;
}

__kernel void fm_horizontal(__global const float* f, int fw, __global const float* src, int w, int h, uint opq,
                            __global float* dst)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= w || i >= h) return;
    const int r = fw / 2;
    __global const float* row = src + (size_t)i * w;
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) acc = fl_add(acc, fl_mul(f[k], row[fm_mirror(j - r + k, w)], opq));
    dst[(size_t)i * w + j] = acc;
}

__kernel void fm_rows(__global const float* a, __global const float* b, int w, int h, __global float* rows)
{
    const int i = get_global_id(0);
    if (i >= h) return;
    __global const float* ra = a + (size_t)i * w;
    __global const float* rb = b + (size_t)i * w;
    float line = 0.0f;
    for (int j = 0; j < w; ++j) line = fl_add(line, as_float(as_uint(fl_sub(ra[j], rb[j])) & 0x7FFFFFFFu));
    rows[i] = line;
}
