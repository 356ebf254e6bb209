#pragma once
// The float SSIM stages shared by the float_ssim and float_ms_ssim twins.
#include "feature/opencl/opencl_twin.hpp"
#include "feature/ssim_common.hpp"

namespace vmafx::ocl {

inline constexpr const char* kFloatSsimFile = "float_ssim.cl";

// gaussian_ssim() of two w x h float planes on the device (scratch buffers
// `first` .. first + 1 of twin `owner`); the per-pixel doubles are added on
// the host in the reference's order. `lcs`: also the l, c, s means.
ssim::SsimMeans gaussian_ssim(Slot& s, int owner, int first, cl_mem ref, cl_mem cmp, int w, int h, bool lcs);

}  // namespace vmafx::ocl
