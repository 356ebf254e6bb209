// SPDX-License-Identifier: BSD-3-Clause
// create_scaler (backend/backends.hpp): the exact scaler on the host or on a
// device backend, behind one interface.
#include <memory>
#include <string>

#include "backend/backends.hpp"
#include "core/error.hpp"
#ifdef VMAFX_HAVE_OPENCL
#include "backend/opencl/scale_opencl.hpp"
#endif
#ifdef VMAFX_HAVE_CUDA
#include "backend/cuda/scale_cuda.hpp"
#endif

namespace vmafx {
namespace {

class HostScaler final : public sws::DeviceScaler {
 public:
  explicit HostScaler(const sws::Plan& plan) : plan_(plan) {}
  const sws::Plan& plan() const override { return plan_; }
  void scale(const Picture& in, Picture& out) override { sws::scale(plan_, in, out); }

 private:
  sws::Plan plan_;
};

#ifdef VMAFX_HAVE_OPENCL
class OpenclScaler final : public sws::DeviceScaler {
 public:
  OpenclScaler(int gpu, const sws::Plan& plan) : s_(gpu, plan) {}
  const sws::Plan& plan() const override { return s_.plan(); }
  void scale(const Picture& in, Picture& out) override { s_.scale(in, out); }

 private:
  ocl::Scaler s_;
};
#endif

#ifdef VMAFX_HAVE_CUDA
class CudaScaler final : public sws::DeviceScaler {
 public:
  CudaScaler(int gpu, const sws::Plan& plan) : s_(gpu, plan) {}
  const sws::Plan& plan() const override { return s_.plan(); }
  void scale(const Picture& in, Picture& out) override {
    const Picture::DeviceCopy* dc = in.device_copy();
    if (dc && dc->cuda_device == s_.device())
      s_.scale_device_copy(in, out);
    else
      s_.scale(in, out);
  }

 private:
  cuda::Scaler s_;
};
#endif

}  // namespace

std::unique_ptr<sws::DeviceScaler> create_scaler(std::string_view name, int gpu, const sws::Plan& plan) {
  if (name == "cpu") return std::make_unique<HostScaler>(plan);
#ifdef VMAFX_HAVE_OPENCL
  if (name == "opencl") return std::make_unique<OpenclScaler>(gpu, plan);
#endif
#ifdef VMAFX_HAVE_CUDA
  if (name == "cuda") return std::make_unique<CudaScaler>(gpu, plan);
#endif
  (void)gpu;
  if (name == "cuda" || name == "opencl")
    throw Error("exact scaling: this build has no " + std::string(name) + " backend", Error::Kind::kUsage);
  throw Error("exact scaling: unknown backend '" + std::string(name) + "' (expected cpu, cuda or opencl)",
              Error::Kind::kUsage);
}

}  // namespace vmafx
