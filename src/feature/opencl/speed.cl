// SPDX-License-Identifier: BSD-3-Clause
// SpEED ("speed_chroma", "speed_temporal") on an OpenCL device: the plane on
// the 8-bit float scale (or the difference of two frames' planes), the
// optional prescale, and the antialias Gaussian decimated by 16, i.e.
// feature/speed.cpp's decimate(). The host finishes with
// speed::score_decimated() (local mean, the model fit, the libm logs).
//
// One work-item an output around exact/speed.h, whose fp32 operations are
// ocl_f32.cl's here: every add, subtract and divide formed in soft fp64 and
// rounded to fp32 (the correctly rounded result, whatever the device's
// contraction or denormal handling), products f32_mul (the device's correctly
// rounded multiplier, soft fp64 for subnormals).
#pragma OPENCL FP_CONTRACT OFF

#include "ocl_f32.cl"
#include "exact/speed.h"
#include "plane_sample.cl"

// speed.h's sample of a (diff == 0) or difference of a and b (diff != 0):
// the top-left w x h of planes with rows of `pitch` samples (libvmaf rounds
// odd chroma sizes down).
__kernel void speed_to_float(__global const uchar* a, __global const uchar* b, int pitch, int w, int h, int wide,
                             int bpc, int diff, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    const float unit = as_float((uint)(127 - (bpc - 8)) << 23);  // 2^-(bpc - 8): bpc is 8, 10, 12 or 16
    const size_t i = (size_t)y * pitch + x;
    const int sb = diff ? plane_sample(b, i, wide) : 0;
    dst[(size_t)y * w + x] = vmafx_speed_sample(plane_sample(a, i, wide), sb, diff, bpc, unit);
}

// vif_scale_frame_s, nearest: dst(x, y) = src(ix[x], iy[y]).
__kernel void speed_scale_nearest(__global const float* src, int w, __global const int* ix,
                                  __global const int* iy, int dw, int dh, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= dw || y >= dh) return;
    dst[(size_t)y * dw + x] = src[(size_t)iy[y] * w + ix[x]];
}

__kernel void speed_scale_bilinear(__global const float* src, int w, __global const int* ix,
                                   __global const float* wx, __global const int* iy, __global const float* wy,
                                   int dw, int dh, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= dw || y >= dh) return;
    dst[(size_t)y * dw + x] = vmafx_speed_bilinear(src, w, ix, wx, iy, wy, x, y);
}

__kernel void speed_scale_interp(__global const float* src, int w, __global const int* ix,
                                 __global const float* wx, __global const int* iy, __global const float* wy,
                                 int taps, int normalise, int dw, int dh, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= dw || y >= dh) return;
    dst[(size_t)y * dw + x] = vmafx_speed_interp(src, w, ix, wx, iy, wy, taps, normalise, x, y);
}

// The vertical pass of the antialias filter at rows step * i of a w x h
// image: tmp[i * w + x].
__kernel void speed_vertical(__global const float* src, int w, int h, __global const float* filt, int fw,
                             int step, int dh, __global float* tmp)
{
    const int x = get_global_id(0), i = get_global_id(1);
    if (x >= w || i >= dh) return;
    tmp[(size_t)i * w + x] = vmafx_speed_taps(src + x, (size_t)w, h, step * i, filt, fw);
}

// The horizontal pass at columns step * j: dst[off + i * dw + j].
__kernel void speed_horizontal(__global const float* tmp, int w, __global const float* filt, int fw, int step,
                               int dw, int dh, __global float* dst, int off)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= dw || i >= dh) return;
    dst[(size_t)off + (size_t)i * dw + j] = vmafx_speed_taps(tmp + (size_t)i * w, 1, w, step * j, filt, fw);
}
