// SPDX-License-Identifier: BSD-3-Clause
// The ciede device path under stress: many random (y, u, v) pairs at every
// bit depth (plain, near, grey, extreme; tests/unit/exact/ciede_stress.hpp)
// through the OpenCL kernel (ciede.cl) and the CUDA kernel (ciede.cu); every
// pixel the device certifies must equal the CPU reference's float (==), and
// the rest are counted as replayed. VMAFX_CIEDE_STRESS sets the pairs per bit
// depth (default 20000; the H200 check runs 2,000,000). Skips without a device;
// a build without the backend has no such test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../unit/exact/ciede_stress.hpp"
#include "backend/backends.hpp"
#include "feature/ciede.hpp"
#ifdef VMAFX_HAVE_OPENCL
#include "backend/opencl/opencl_runtime.hpp"
#endif
#ifdef VMAFX_HAVE_CUDA
#include "feature/cuda/ciede_cuda.hpp"
#endif

namespace vmafx {
namespace {

int pairs_per_depth() {
  const char* e = std::getenv("VMAFX_CIEDE_STRESS");
  return e && std::atoi(e) > 0 ? std::atoi(e) : 20000;
}

// Compares the device's out (bits then certified flags, n pairs each) with
// the reference; returns the number of replayed pairs.
long check(const std::vector<std::int32_t>& s, const std::vector<std::uint32_t>& out, int n, int bpc,
           const char* where) {
  long replayed = 0, wrong = 0;
  for (int k = 0; k < n; ++k) {
    if (!out[std::size_t(n) + k]) {
      ++replayed;
      continue;
    }
    const std::int32_t* p = &s[std::size_t(k) * 6];
    const float want = ciede::delta_e00(ciede::lab_from_yuv(p[0], p[1], p[2], unsigned(bpc)),
                                        ciede::lab_from_yuv(p[3], p[4], p[5], unsigned(bpc)));
    std::uint32_t w;
    std::memcpy(&w, &want, 4);
    if (out[k] != w && ++wrong <= 5)
      ADD_FAILURE() << where << " " << bpc << "-bit (" << p[0] << "," << p[1] << "," << p[2] << ") vs (" << p[3] << ","
                    << p[4] << "," << p[5] << "): device " << std::hex << out[k] << ", reference " << w;
  }
  EXPECT_EQ(wrong, 0) << where << " " << bpc << "-bit";
  std::printf("ciede stress %s %d-bit: %d pairs, %ld replayed on the host, %ld certified but wrong\n", where, bpc, n,
              replayed, wrong);
  return replayed;
}

#ifdef VMAFX_HAVE_OPENCL
TEST(CiedeStress, OpenclCertifiedPixelsEqualTheCpu) {
  if (list_opencl_devices().empty()) GTEST_SKIP() << "no OpenCL device";
  ocl::Device& dev = ocl::Device::get(0);
  const std::string src = ocl::assemble_source("ciede.cl");
  const char* text = src.c_str();
  cl_int err = CL_SUCCESS;
  cl_program prog = clCreateProgramWithSource(dev.context(), 1, &text, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const cl_device_id id = dev.id();
  err = clBuildProgram(prog, 1, &id, ocl::kBuildOptions, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    char log[8192] = {0};
    clGetProgramBuildInfo(prog, id, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
    FAIL() << "build: " << log;
  }
  cl_kernel k = clCreateKernel(prog, "ciede_pairs", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(dev.context(), id, 0, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const int n = pairs_per_depth();
  long replayed = 0;
  for (int bpc : {8, 10, 12, 16}) {
    std::vector<std::int32_t> s = test::ciede_pairs(bpc, n, 4000 + bpc);
    cl_mem bs = clCreateBuffer(dev.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s.size() * 4, s.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_mem bo = clCreateBuffer(dev.context(), CL_MEM_WRITE_ONLY, std::size_t(n) * 8, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    ocl::set_args(k, bs, cl_int(n), cl_int(bpc), bo);
    ocl::run(q, k, std::size_t(n), 64);
    std::vector<std::uint32_t> out(std::size_t(n) * 2);
    ASSERT_EQ(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr), CL_SUCCESS);
    replayed += check(s, out, n, bpc, "opencl");
    clReleaseMemObject(bs);
    clReleaseMemObject(bo);
  }
  // The certificate fails on about one pixel in 10^5 (docs/exactness.md).
  EXPECT_LE(replayed, 4L * n / 1000);
  RecordProperty("pairs", 4 * n);
  RecordProperty("replayed", int(replayed));
  clReleaseCommandQueue(q);
  clReleaseKernel(k);
  clReleaseProgram(prog);
}
#endif

#ifdef VMAFX_HAVE_CUDA
TEST(CiedeStress, CudaCertifiedPixelsEqualTheCpu) {
  if (list_cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  const int n = pairs_per_depth();
  long replayed = 0;
  for (int bpc : {8, 10, 12, 16}) {
    std::vector<std::int32_t> s = test::ciede_pairs(bpc, n, 4000 + bpc);
    std::vector<std::uint32_t> out(std::size_t(n) * 2);
    ASSERT_TRUE(cuda::ciede::run_pairs(s.data(), n, bpc, out.data())) << "CUDA run failed";
    replayed += check(s, out, n, bpc, "cuda");
  }
  EXPECT_LE(replayed, 4L * n / 1000);
  RecordProperty("pairs", 4 * n);
  RecordProperty("replayed", int(replayed));
}
#endif

}  // namespace
}  // namespace vmafx
