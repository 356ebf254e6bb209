// SPDX-License-Identifier: BSD-3-Clause
// float_ansnr on an OpenCL device. The reference's float operations in its
// order: the 2-D filters (each kernel row summed in float, then the rows),
// and per row the sequential float sums of the signal and the noise; the host
// adds the rows in float and takes the logarithms.
//
// No float here is subnormal, so the device's add and multiply (correctly
// rounded by the OpenCL spec, no contraction) are the host's: samples are
// multiples of 2^-8, the taps have 24-bit significands above 2^-9, so every
// product and partial sum is zero or a multiple of 2^-40 (far above 2^-126).
#pragma OPENCL FP_CONTRACT OFF

// Symmetric extension with the edge sample repeated on the right: -i below 0,
// 2n - i - 1 from n on (the reference's reflect).
inline int an_reflect(int i, int n)
{
    if (i < 0) return -i;
    if (i >= n) return 2 * n - i - 1;
    return i;
}

// The float luma: s / 2^(bpc - 8) - 128 (both steps exact).
inline float an_sample(__global const uchar* p, int w, int x, int y, int wide, float inv_scale)
{
    if (wide) return (float)((__global const ushort*)p)[(size_t)y * w + x] * inv_scale + -128.0f;
    return (float)p[(size_t)y * w + x] + -128.0f;
}

inline float an_filter(__global const uchar* p, int w, int h, int x, int y, int wide, float inv_scale,
                       __global const float* k, int fw)
{
    const int r = fw / 2;
    float acc = 0.0f;
    for (int a = 0; a < fw; ++a) {
        const int yy = an_reflect(y - r + a, h);
        float inner = 0.0f;
        for (int b = 0; b < fw; ++b)
            inner += k[a * fw + b] * an_sample(p, w, an_reflect(x - r + b, w), yy, wide, inv_scale);
        acc += inner;
    }
    return acc;
}

// rf = the reference through the 3x3 taps, df = the distorted through the
// 5x5 taps (taps: 9 then 25 floats).
__kernel void ansnr_filter(__global const uchar* ref, __global const uchar* dis, int w, int h, int wide,
                           float inv_scale, __global const float* taps, __global float* rf, __global float* df)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    rf[(size_t)y * w + x] = an_filter(ref, w, h, x, y, wide, inv_scale, taps, 3);
    df[(size_t)y * w + x] = an_filter(dis, w, h, x, y, wide, inv_scale, taps + 9, 5);
}

// Per row, in the reference's order: sig += a * a, noise += (a - b) * (a - b).
__kernel void ansnr_rows(__global const float* rf, __global const float* df, int w, int h, __global float* out)
{
    const int y = get_global_id(0);
    if (y >= h) return;
    __global const float* a = rf + (size_t)y * w;
    __global const float* b = df + (size_t)y * w;
    float sig = 0.0f, noise = 0.0f;
    for (int j = 0; j < w; ++j) {
        sig += a[j] * a[j];
        const float d = a[j] - b[j];
        noise += d * d;
    }
    out[2 * y] = sig;
    out[2 * y + 1] = noise;
}
