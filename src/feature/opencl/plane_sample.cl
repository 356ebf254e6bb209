// SPDX-License-Identifier: BSD-3-Clause
// Sample i of a packed plane of 8-bit (wide == 0) or 16-bit samples, as an
// int: the one reader of the integer twins' kernels (motion, psnr, ssim,
// speed, float_ssim). Included by kernel files; it has no kernels of its own.
#pragma OPENCL FP_CONTRACT OFF

#ifndef VMAFX_PLANE_SAMPLE_CL
#define VMAFX_PLANE_SAMPLE_CL

inline int plane_sample(__global const uchar* p, size_t i, int wide)
{
    if (wide) return (int)((__global const ushort*)p)[i];
    return (int)p[i];
}

#endif
