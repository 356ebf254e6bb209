// SPDX-License-Identifier: BSD-3-Clause
// float_moment on an OpenCL device: the kernels of float_psnr.cl (integer
// row sums of exact float terms) with the sample and square kinds.
#pragma OPENCL FP_CONTRACT OFF
#include "float_psnr.cl"
