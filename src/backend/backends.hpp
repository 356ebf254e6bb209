#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend.hpp"

namespace vmafx {

// Backends compiled into this build ("cuda", "opencl"), in order of preference.
std::vector<std::string> available_backends();

// Creates a device backend by name on device `gpu` (index as listed by
// list_devices). Throws Error with a clear message when the backend is not
// built, no device is present, or the device fails.
std::unique_ptr<Backend> create_backend(std::string_view name, int gpu);

// One line per device of every built backend: "<backend> <index>: <name>".
std::vector<std::string> list_devices();

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
