// SPDX-License-Identifier: BSD-3-Clause
#include "backend/backends.hpp"

#include "core/error.hpp"

namespace vmafx {

std::vector<std::string> available_backends() {
  std::vector<std::string> out;
#ifdef VMAFX_HAVE_CUDA
  out.push_back("cuda");
#endif
#ifdef VMAFX_HAVE_OPENCL
  out.push_back("opencl");
#endif
  return out;
}

std::unique_ptr<Backend> create_backend(std::string_view name, int gpu) {
#ifdef VMAFX_HAVE_CUDA
  if (name == "cuda") return make_cuda_backend(gpu);
#endif
#ifdef VMAFX_HAVE_OPENCL
  if (name == "opencl") return make_opencl_backend(gpu);
#endif
  (void)gpu;
  if (name == "cuda" || name == "opencl")
    throw Error("backend " + std::string(name) + ": this build has no " + std::string(name) +
                " backend (rebuild with VMAFX_" + (name == "cuda" ? std::string("CUDA") : std::string("OPENCL")) +
                "=ON)");
  throw Error("backend '" + std::string(name) + "': unknown (expected auto, cpu, cuda or opencl)");
}

std::vector<std::string> list_devices() {
  std::vector<std::string> out;
#ifdef VMAFX_HAVE_CUDA
  for (auto& s : list_cuda_devices()) out.push_back(s);
#endif
#ifdef VMAFX_HAVE_OPENCL
  for (auto& s : list_opencl_devices()) out.push_back(s);
#endif
  return out;
}

}  // namespace vmafx
