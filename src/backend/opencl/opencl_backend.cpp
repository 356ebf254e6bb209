// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL backend: device selection, twin lookup, engine groups.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "backend/opencl/opencl_runtime.hpp"
#include "core/env.hpp"
#include "core/error.hpp"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx {
namespace ocl {

namespace {

class OpenclBackend final : public Backend {
 public:
  explicit OpenclBackend(int gpu) : dev_(Device::get(gpu)) {}
  // No build thread outlives the run (one still compiling at exit would race
  // the driver's teardown).
  ~OpenclBackend() override {
    for (std::string_view f : started_) dev_.wait_built(f);
    // The programs made for this run: from the program-binary cache or
    // built (and the cache's problems, which are never errors).
    if (env::stats()) std::fputs(dev_.take_program_report().c_str(), stderr);
  }

  std::string_view name() const override { return "opencl"; }
  std::string device_name() const override { return dev_.name() + " (" + dev_.platform_name() + ")"; }

  // NVIDIA's OpenCL serialises queues across threads: two are best (docs/perf.md).
  unsigned preferred_lanes(const PictureFormat&) const override { return 2; }
  bool is_gpu() const override {
    cl_device_type t = 0;
    if (clGetDeviceInfo(dev_.id(), CL_DEVICE_TYPE, sizeof t, &t, nullptr) != CL_SUCCESS) return false;
    return (t & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
  }

  const HostAllocator* host_allocator() const override {
    return env::opencl_pageable() ? nullptr : dev_.pinned_allocator();
  }

  std::unique_ptr<Extractor> create_twin(const ExtractorDescriptor& d, const OptionSet& opts,
                                         const PictureFormat& fmt) override {
    const FeatureEntry& twin = feature_entry(d);
    if (!twin.opencl) return nullptr;
    // A format the reference refuses has no twin either: the engine then
    // reports the reference's own error (or falls back to it).
    try {
      d.create(opts, fmt);
    } catch (const Error&) {
      return nullptr;
    }
    // Start building the program (once per run and device) beside the
    // other twins' programs; the first frame waits for it, and a compile
    // error fails that frame with the build log.
    dev_.build_async(twin.opencl_source);
    std::lock_guard lk(mu_);
    started_.push_back(twin.opencl_source);
    if (!group_ || group_->sealed()) group_ = std::make_shared<FrameGroup>(dev_);
    return twin.opencl(group_, opts, fmt);
  }

 private:
  Device& dev_;
  std::mutex mu_;
  std::shared_ptr<FrameGroup> group_;
  std::vector<std::string_view> started_;  // programs whose build this backend started
};

}  // namespace
}  // namespace ocl

std::unique_ptr<Backend> make_opencl_backend(int gpu) { return std::make_unique<ocl::OpenclBackend>(gpu); }

std::vector<std::string> list_opencl_devices() {
  std::vector<std::string> out;
  std::vector<ocl::DeviceEntry> all;
  try {
    all = ocl::enumerate_devices();
  } catch (const Error&) {
    return out;  // no platform: no devices
  }
  for (std::size_t i = 0; i < all.size(); ++i)
    out.push_back("opencl " + std::to_string(i) + ": " + all[i].platform_name + " / " + all[i].device_name);
  return out;
}

}  // namespace vmafx
