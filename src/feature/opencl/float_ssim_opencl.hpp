// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The float SSIM stages shared by the float_ssim and float_ms_ssim twins.
#include <vector>

#include "feature/opencl/opencl_twin.hpp"
#include "feature/ssim_common.hpp"

namespace vmafx::ocl {

inline constexpr const char* kFloatSsimFile = "float_ssim.cl";

// gaussian_ssim() of two w x h float planes in two halves. The device half
// (scratch buffers `first` .. first + 1 of twin `owner`) ends with a
// non-blocking read of the per-pixel doubles into `terms`; the host half adds
// them in the reference's order once `read` has finished. `lcs`: also the
// l, c, s means.
struct GaussianTerms {
  std::vector<double> terms;
  PendingRead read;
  int dw = 0, dh = 0;
  bool lcs = false;
};
void gaussian_ssim_enqueue(Slot& s, int owner, int first, cl_mem ref, cl_mem cmp, int w, int h, bool lcs,
                           GaussianTerms& out);
ssim::SsimMeans gaussian_ssim_finish(GaussianTerms& t);

}  // namespace vmafx::ocl
