// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend.hpp"
#include "core/scale_exact.hpp"
#include "vmaf_exact/session.hpp"  // available_backends, list_devices

namespace vmafx {

// Creates a device backend by name on device `gpu` (index as listed by
// list_devices). Throws Error with a clear message when the backend is not
// built, no device is present, or the device fails.
std::unique_ptr<Backend> create_backend(std::string_view name, int gpu);

// The exact scaler of `plan` on backend `name` (cpu, cuda or opencl), device
// `gpu`. Throws Error (kUsage) for another name or a backend this build lacks,
// and the backend's Error when its device fails.
std::unique_ptr<sws::DeviceScaler> create_scaler(std::string_view name, int gpu, const sws::Plan& plan);

// Per-backend factories (defined by each backend when it is built).
#ifdef VMAFX_HAVE_CUDA
std::unique_ptr<Backend> make_cuda_backend(int gpu);
std::vector<std::string> list_cuda_devices();
#endif
#ifdef VMAFX_HAVE_OPENCL
std::unique_ptr<Backend> make_opencl_backend(int gpu);
std::vector<std::string> list_opencl_devices();
#endif

}  // namespace vmafx
