// SPDX-License-Identifier: BSD-3-Clause
// CUDA backend error paths that can be checked without a GPU (and, where a GPU
// is present, the ones that need one): each failure is one line naming CUDA
// and the class of problem.
#include <gtest/gtest.h>

#include <string>

#include "backend/backends.hpp"
#include "core/error.hpp"
#ifdef VMAFX_HAVE_CUDA
#include "backend/cuda/cuda_runtime.hpp"
#endif

namespace vmafx {
namespace {

#ifdef VMAFX_HAVE_CUDA
bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == std::string::npos; }

TEST(CudaErrors, MessagesNameTheClassOfFailure) {
  struct Case {
    cudaError_t e;
    const char* kind;
  } cases[] = {
      {cudaErrorNoDevice, "no CUDA device"},
      {cudaErrorInsufficientDriver, "no usable CUDA driver"},
      {cudaErrorMemoryAllocation, "out of device memory"},
      {cudaErrorInvalidDevice, "no such CUDA device"},
      {cudaErrorIllegalAddress, "device failure"},
      {cudaErrorNoKernelImageForDevice, "no kernels for the device"},
      {cudaErrorUnknown, "CUDA driver/runtime failure"},
  };
  for (const Case& c : cases) {
    const std::string m = cuda::error_message(c.e, "upload of a plane");
    EXPECT_TRUE(one_line(m)) << m;
    EXPECT_EQ(m.rfind("cuda: upload of a plane: ", 0), 0u) << m;
    EXPECT_NE(m.find(c.kind), std::string::npos) << m;
    EXPECT_NE(m.find(cudaGetErrorName(c.e)), std::string::npos) << m;
  }
}

TEST(CudaErrors, FailThrowsError) {
  try {
    cuda::fail(cudaErrorMemoryAllocation, "cudaMalloc of 16 bytes");
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cuda: cudaMalloc of 16 bytes: out of device memory (cudaErrorMemoryAllocation)");
  }
}

TEST(CudaErrors, BackendWithoutDeviceOrBadIndex) {
  const bool have_device = !list_cuda_devices().empty();
  if (!have_device) {
    // No GPU (or no driver): one line, no crash.
    try {
      create_backend("cuda", 0);
      FAIL() << "created a CUDA backend without a device";
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_TRUE(one_line(m)) << m;
      EXPECT_EQ(m.rfind("cuda: device start: ", 0), 0u) << m;
    }
  } else {
    try {
      create_backend("cuda", 99);
      FAIL() << "created a CUDA backend on device 99";
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_TRUE(one_line(m)) << m;
      EXPECT_NE(m.find("device 99: no such CUDA device"), std::string::npos) << m;
    }
  }
}

TEST(CudaErrors, ListDevicesNeverThrows) {
  for (const std::string& s : list_cuda_devices()) EXPECT_EQ(s.rfind("cuda ", 0), 0u) << s;
}
#endif  // a build without the backend has no such tests

}  // namespace
}  // namespace vmafx
