// SPDX-License-Identifier: BSD-3-Clause
// float_ops.cl (the fp32 operations of the float twins) on the OpenCL device:
// its add, subtract, multiply and comparisons equal the host's IEEE float
// operations bit for bit on normal, subnormal, zero, infinite and random
// operands (every combination of a set of special values, then random bit
// patterns), whatever the device does with subnormals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#ifdef VMAFX_HAVE_OPENCL
#include "backend/opencl/opencl_runtime.hpp"
#endif

namespace vmafx {
namespace {
#ifdef VMAFX_HAVE_OPENCL

constexpr const char* kTestKernel = R"CL(
__kernel void fl_ops_test(__global const uint* a, __global const uint* b, uint opq, __global uint* out)
{
    const size_t i = get_global_id(0);
    const float x = as_float(a[i]), y = as_float(b[i]);
    out[8 * i + 0] = as_uint(fl_add(x, y));
    out[8 * i + 1] = as_uint(fl_sub(x, y));
    out[8 * i + 2] = as_uint(fl_mul(x, y, opq));
    out[8 * i + 3] = (uint)fl_lt(x, y);
    out[8 * i + 4] = (uint)fl_gt0(x);
    out[8 * i + 5] = (uint)fl_lt0(x);
    out[8 * i + 6] = as_uint(fl_add(fl_mul(x, y, opq), y));
    out[8 * i + 7] = 0;
}
)CL";

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float from(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
bool same(std::uint32_t got, float want) {
  const float g = from(got);
  return got == bits(want) || (std::isnan(g) && std::isnan(want));  // NaN payloads are not part of the contract
}

TEST(OpenclFloatOps, MatchTheHostBitForBit) {
  if (list_opencl_devices().empty()) GTEST_SKIP() << "no OpenCL device";
  ocl::Device& dev = ocl::Device::get(0);
  const std::string src = ocl::assemble_source("float_ops.cl") + kTestKernel;
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
  cl_kernel k = clCreateKernel(prog, "fl_ops_test", &err);
  ASSERT_EQ(err, CL_SUCCESS);

  const float specials[] = {0.0f,        -0.0f,  1.0f,    -1.0f,           1.5f,      0.1f,       -3.25f,
                            1e-30f,      1e-38f, -1e-38f, 1.17549435e-38f, 5.9e-39f,  -5.9e-39f,  1.4e-45f,
                            -1.4e-45f,   3e38f,  -3e38f,  INFINITY,        -INFINITY, 1.0000001f, 0.99999994f,
                            16777216.0f, 2e-20f, 1e19f};
  std::vector<std::uint32_t> a, b;
  for (float x : specials)
    for (float y : specials) {
      a.push_back(bits(x));
      b.push_back(bits(y));
    }
  // x and a neighbour of -x (sums that cancel into the subnormal range)
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> any;
  for (int i = 0; i < 20000; ++i) {
    std::uint32_t x = any(rng), y = any(rng);
    if (i % 4 == 1) x &= 0x807FFFFFu;                                                    // subnormal
    if (i % 4 == 2) y = (x ^ 0x80000000u) + (any(rng) % 5) - 2;                          // near -x
    if (i % 4 == 3) x = (x & 0x81FFFFFFu) | 0x00800000u;                                 // tiny normal
    if ((x & 0x7F800000u) == 0x7F800000u || (y & 0x7F800000u) == 0x7F800000u) continue;  // NaN payloads aside
    a.push_back(x);
    b.push_back(y);
  }
  const std::size_t n = a.size();
  cl_mem ba = clCreateBuffer(dev.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, a.data(), &err);
  cl_mem bb = clCreateBuffer(dev.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, b.data(), &err);
  cl_mem bo = clCreateBuffer(dev.context(), CL_MEM_WRITE_ONLY, n * 32, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(dev.context(), id, 0, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const cl_uint opq = 0;
  ocl::set_args(k, ba, bb, opq, bo);
  const std::size_t g = n;
  ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<std::uint32_t> out(8 * n);
  ASSERT_EQ(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, n * 32, out.data(), 0, nullptr, nullptr), CL_SUCCESS);
  int bad = 0;
  for (std::size_t i = 0; i < n && bad < 10; ++i) {
    const float x = from(a[i]), y = from(b[i]);
    const std::uint32_t* o = &out[8 * i];
    const float p = x * y;
    const bool ok = same(o[0], x + y) && same(o[1], x - y) && same(o[2], p) && o[3] == (x < y ? 1u : 0u) &&
                    o[4] == (x > 0.0f ? 1u : 0u) && o[5] == (x < 0.0f ? 1u : 0u) && same(o[6], p + y);
    if (!ok) {
      ++bad;
      ADD_FAILURE() << std::hex << "x=" << a[i] << " y=" << b[i] << ": add " << o[0] << " (host " << bits(x + y)
                    << ") sub " << o[1] << " (" << bits(x - y) << ") mul " << o[2] << " (" << bits(p) << ") lt " << o[3]
                    << " gt0 " << o[4] << " lt0 " << o[5] << " mul+add " << o[6] << " (" << bits(p + y) << ")";
    }
  }
  RecordProperty("operand_pairs", int(n));
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bo);
  clReleaseCommandQueue(q);
  clReleaseKernel(k);
  clReleaseProgram(prog);
}

#endif  // a build without the backend has no such tests
}  // namespace
}  // namespace vmafx
