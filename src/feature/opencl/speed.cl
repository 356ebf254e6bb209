// SPDX-License-Identifier: BSD-3-Clause
// SpEED ("speed_chroma", "speed_temporal") on an OpenCL device: the plane on
// the 8-bit float scale (or the difference of two frames' planes), the
// optional prescale, and the antialias Gaussian decimated by 16, i.e.
// feature/speed.cpp's decimate(). The host finishes with
// speed::score_decimated() (local mean, the model fit, the libm logs).
//
// Every float add, subtract and divide is formed in soft fp64 and rounded to
// fp32 (ocl_f32.cl: the correctly rounded result, whatever the device's
// contraction or denormal handling); products use f32_mul (the device's
// correctly rounded multiplier, soft fp64 for subnormals). Each output is the
// CPU's loop in its order: accumulators start at +0.0f, taps in order.
#pragma OPENCL FP_CONTRACT OFF

#include "ocl_f32.cl"

inline int sp_sample(__global const uchar* p, int pitch, int x, int y, int wide)
{
    if (wide) return (int)((__global const ushort*)p)[(size_t)y * pitch + x];
    return (int)p[(size_t)y * pitch + x];
}

// libvmaf's picture_copy: sample / 2^(bpc - 8) + -128.0f, and the temporal
// difference of two such values. Both are exact in fp32 (multiples of 2^-8
// below 2^8, resp. 2^9, in magnitude), so they are formed from the integer
// difference, scaled by an exact power of two; a zero is +0.0f, as x - x and
// 128.0f + -128.0f are.
//   diff == 0: dst = value(a)
//   diff != 0: dst = value(a) - value(b)
// The top-left w x h of planes with rows of `pitch` samples (libvmaf rounds
// odd chroma sizes down).
__kernel void speed_to_float(__global const uchar* a, __global const uchar* b, int pitch, int w, int h, int wide,
                             int bpc, int diff, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    const int sa = sp_sample(a, pitch, x, y, wide);
    const int t = diff ? sa - sp_sample(b, pitch, x, y, wide) : sa - (128 << (bpc - 8));
    // 2^-(bpc - 8): bpc is 8, 10, 12 or 16
    const float unit = as_float((uint)(127 - (bpc - 8)) << 23);
    dst[(size_t)y * w + x] = (float)t * unit;
}

// vif_scale_frame_s, nearest: dst(x, y) = src(ix[x], iy[y]).
__kernel void speed_scale_nearest(__global const float* src, int w, __global const int* ix,
                                  __global const int* iy, int dw, int dh, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= dw || y >= dh) return;
    dst[(size_t)y * dw + x] = src[(size_t)iy[y] * w + ix[x]];
}

// Bilinear: two taps per axis, weights (1 - d, d) from the host (as the CPU
// forms them); a + b + c + d left to right, each (wy * wx) * sample.
__kernel void speed_scale_bilinear(__global const float* src, int w, __global const int* ix,
                                   __global const float* wx, __global const int* iy, __global const float* wy,
                                   int dw, int dh, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= dw || y >= dh) return;
    __global const float* r1 = src + (size_t)iy[2 * y] * w;
    __global const float* r2 = src + (size_t)iy[2 * y + 1] * w;
    const int x1 = ix[2 * x], x2 = ix[2 * x + 1];
    const float ox = wx[2 * x], dx = wx[2 * x + 1];
    const float oy = wy[2 * y], dy = wy[2 * y + 1];
    const float a = f32_mul(f32_mul(oy, ox), r1[x1]);
    const float b = f32_mul(f32_mul(oy, dx), r1[x2]);
    const float c = f32_mul(f32_mul(dy, ox), r2[x1]);
    const float d = f32_mul(f32_mul(dy, dx), r2[x2]);
    dst[(size_t)y * dw + x] = f32_add(f32_add(f32_add(a, b), c), d);
}

// Bicubic (taps 4) and Lanczos (taps 9, normalised): rows outer, columns
// inner; weight wx[i] * wy[j], value += sample * weight.
__kernel void speed_scale_interp(__global const float* src, int w, __global const int* ix,
                                 __global const float* wx, __global const int* iy, __global const float* wy,
                                 int taps, int normalise, int dw, int dh, __global float* dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= dw || y >= dh) return;
    float value = 0.0f, weight_sum = 0.0f;
    for (int j = 0; j < taps; ++j) {
        __global const float* row = src + (size_t)iy[y * taps + j] * w;
        const float wyj = wy[y * taps + j];
        for (int i = 0; i < taps; ++i) {
            const float wgt = f32_mul(wx[x * taps + i], wyj);
            if (normalise) weight_sum = f32_add(weight_sum, wgt);
            value = f32_add(value, f32_mul(row[ix[x * taps + i]], wgt));
        }
    }
    dst[(size_t)y * dw + x] = normalise ? f32_div(value, weight_sum) : value;
}

inline int sp_mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

// The vertical pass of the antialias filter at rows step * i of a w x h
// image: tmp[i * w + x] = sum over k of filt[k] * src(x, mirror(step i - r + k)).
__kernel void speed_vertical(__global const float* src, int w, int h, __global const float* filt, int fw,
                             int step, int dh, __global float* tmp)
{
    const int x = get_global_id(0), i = get_global_id(1);
    if (x >= w || i >= dh) return;
    const int r = fw / 2;
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k)
        acc = f32_add(acc, f32_mul(filt[k], src[(size_t)sp_mirror(step * i - r + k, h) * w + x]));
    tmp[(size_t)i * w + x] = acc;
}

// The horizontal pass at columns step * j: dst[off + i * dw + j].
__kernel void speed_horizontal(__global const float* tmp, int w, __global const float* filt, int fw, int step,
                               int dw, int dh, __global float* dst, int off)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (j >= dw || i >= dh) return;
    const int r = fw / 2;
    __global const float* row = tmp + (size_t)i * w;
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) acc = f32_add(acc, f32_mul(filt[k], row[sp_mirror(step * j - r + k, w)]));
    dst[(size_t)off + (size_t)i * dw + j] = acc;
}
