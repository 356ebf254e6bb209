// SPDX-License-Identifier: BSD-3-Clause
// The device backends of this build, and whether this machine lists a device
// for one. A test of a device backend is instantiated only for the backends
// the build has, skipped only where the backend's device listing is empty,
// and fails when a listed device does not start: the skip is decided from
// the listing, never from an error's wording.
#pragma once

#include <string>
#include <vector>

#include "backend/backends.hpp"

namespace vmafx::test {

inline std::vector<std::string> built_device_backends() {
  std::vector<std::string> out;
#ifdef VMAFX_HAVE_OPENCL
  out.push_back("opencl");
#endif
#ifdef VMAFX_HAVE_CUDA
  out.push_back("cuda");
#endif
  return out;
}

// True when list_devices() has an entry "BACKEND N: ...".
inline bool device_listed(const std::string& backend) {
  for (const std::string& d : list_devices())
    if (d.rfind(backend + " ", 0) == 0) return true;
  return false;
}

}  // namespace vmafx::test
