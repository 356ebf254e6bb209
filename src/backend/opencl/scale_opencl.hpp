// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The exact scaler (core/scale_exact.hpp) on an OpenCL device
// (backend/opencl/scale.cl): one plan's filters uploaded once, then pictures
// converted sample for sample as the host reference does. One Scaler per
// thread (it owns its queue and kernel objects).
#include <CL/cl.h>

#include <memory>

#include "backend/opencl/opencl_runtime.hpp"
#include "core/scale_exact.hpp"

namespace vmafx::ocl {

class Scaler {
 public:
  // On the OpenCL device with flattened index `gpu` (Device::get). Throws
  // Error when the device or the program fails.
  Scaler(int gpu, const sws::Plan& plan);
  ~Scaler();
  Scaler(const Scaler&) = delete;
  Scaler& operator=(const Scaler&) = delete;

  const sws::Plan& plan() const { return plan_; }
  // `out` (plan().dst()) from `in` (plan().src()): uploads, converts and
  // reads back before returning.
  void scale(const Picture& in, Picture& out);

 private:
  Device& dev_;
  sws::Plan plan_;
  cl_command_queue queue_ = nullptr;
  cl_kernel hscale_ = nullptr, vscale_ = nullptr, depth_ = nullptr;
  Buffer filter_[2][4];  // per luma / chroma: h pos, h taps, v pos, v taps
  Buffer src_[3], dst_[3], inter_;
};

}  // namespace vmafx::ocl
