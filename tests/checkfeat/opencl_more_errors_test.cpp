// SPDX-License-Identifier: BSD-3-Clause
// OpenCL host-side refusals that need no device (scripts/error-audit.py).
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#ifdef VMAFX_HAVE_OPENCL
#include "backend/opencl/opencl_runtime.hpp"
#endif

namespace vmafx {
namespace {

#ifdef VMAFX_HAVE_OPENCL
TEST(OpenclSourceErrors, UnknownKernelFile) {
  try {
    (void)ocl::assemble_source("no_such_kernel.cl");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "opencl: kernel source no_such_kernel.cl is not embedded in this build");
  }
}
#endif

}  // namespace
}  // namespace vmafx
