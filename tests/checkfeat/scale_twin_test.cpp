// SPDX-License-Identifier: BSD-3-Clause
// The exact scaler's device twins against its host reference
// (core/scale_exact.hpp): every output sample equal, over the matrix of
// tests/support/scale_cases.hpp (sizes up and down, other aspect ratios, odd
// and tiny pictures, 1080p <-> 2160p, 8 to 16 bits, 4:2:0 / 4:2:2 / 4:4:4 /
// gray, depth and chroma format conversions). OpenCL on every listed device
// (PoCL in CI); CUDA on device 0, host pictures and device copies
// (Picture::DeviceCopy, as NVDEC leaves frames). Skips where the device
// listing is empty.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "core/scale_exact.hpp"
#include "support/pictures.hpp"
#include "support/scale_cases.hpp"
#ifdef VMAFX_HAVE_OPENCL
#include "backend/opencl/scale_opencl.hpp"
#endif
#ifdef VMAFX_HAVE_CUDA
#include <cuda_runtime.h>

#include "backend/cuda/scale_cuda.hpp"
#endif

namespace vmafx {
namespace {

// Each case's source, and the host reference's output.
struct Reference {
  test::ScaleCase c;
  Picture in, out;
};

std::vector<Reference> references() {
  std::vector<Reference> out;
  unsigned n = 0;
  for (const test::ScaleCase& c : test::scale_cases(true)) {
    Reference r{c, Picture(c.src), Picture(c.dst)};
    test::fill_scale_source(r.in, 3000u + n++);
    sws::scale(sws::Plan(c.src, c.dst), r.in, r.out);
    out.push_back(std::move(r));
  }
  return out;
}

#ifdef VMAFX_HAVE_OPENCL
TEST(ScaleTwins, OpenclEqualsHost) {
  const std::vector<std::string> devices = list_opencl_devices();
  if (devices.empty()) GTEST_SKIP() << "no OpenCL device";
  const std::vector<Reference> refs = references();
  for (std::size_t d = 0; d < devices.size(); ++d) {
    int checked = 0;
    for (const Reference& r : refs) {
      ocl::Scaler scaler(int(d), sws::Plan(r.c.src, r.c.dst));
      Picture got(r.c.dst);
      test::fill(got, 1);
      scaler.scale(r.in, got);
      EXPECT_EQ(test::first_difference(r.out, got), "") << devices[d] << ": " << test::describe(r.c);
      ++checked;
    }
    EXPECT_EQ(checked, int(refs.size()));
  }
}
#endif

#ifdef VMAFX_HAVE_CUDA
TEST(ScaleTwins, CudaEqualsHost) {
  if (list_cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  for (const Reference& r : references()) {
    cuda::Scaler scaler(0, sws::Plan(r.c.src, r.c.dst));
    Picture got(r.c.dst);
    test::fill(got, 1);
    scaler.scale(r.in, got);
    EXPECT_EQ(test::first_difference(r.out, got), "") << "host pictures: " << test::describe(r.c);
  }
}

// Device to device: the source only in device memory (its host planes hold
// something else), the output in the picture's device copy, read back here.
TEST(ScaleTwins, CudaDeviceCopies) {
  if (list_cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  for (const Reference& r : references()) {
    cuda::Scaler scaler(0, sws::Plan(r.c.src, r.c.dst));
    Picture in(r.c.src), got(r.c.dst), back(r.c.dst);
    // The device copy: r.in's samples laid out as `in`'s planes.
    std::size_t bytes = 0;
    for (int p = 0; p < in.format().plane_count(); ++p)
      bytes = std::max(bytes, std::size_t(in.plane(p).data - in.plane(0).data) +
                                  std::size_t(in.stride(p)) * std::size_t(in.plane(p).height));
    void* mem = nullptr;
    ASSERT_EQ(cudaMalloc(&mem, bytes), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(mem, r.in.plane(0).data, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    Picture::DeviceCopy dc;
    dc.cuda_device = 0;
    for (int p = 0; p < in.format().plane_count(); ++p)
      dc.plane[p] = static_cast<const std::uint8_t*>(mem) + (in.plane(p).data - in.plane(0).data);
    test::fill(in, 0);
    in.set_device_copy(dc);
    scaler.scale_device_copy(in, got);
    ASSERT_NE(got.device_copy(), nullptr);
    for (int p = 0; p < got.format().plane_count(); ++p)
      ASSERT_EQ(
          cudaMemcpy2D(back.plane_data(p), std::size_t(back.stride(p)), got.device_copy()->plane[p],
                       std::size_t(got.stride(p)), std::size_t(got.plane(p).width) * got.format().bytes_per_sample(),
                       std::size_t(got.plane(p).height), cudaMemcpyDeviceToHost),
          cudaSuccess);
    cudaFree(mem);
    EXPECT_EQ(test::first_difference(r.out, back), "") << "device copies: " << test::describe(r.c);
  }
}

TEST(ScaleTwins, CudaDeviceCopyNeeded) {
  if (list_cuda_devices().empty()) GTEST_SKIP() << "no CUDA device";
  const PictureFormat a{64, 36, 8, ChromaFormat::k420}, b{128, 72, 8, ChromaFormat::k420};
  cuda::Scaler scaler(0, sws::Plan(a, b));
  Picture in(a), out(b);
  try {
    scaler.scale_device_copy(in, out);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "exact scaling (cuda): the source picture has no device copy on device 0");
  }
}
#endif

// Pictures and a plan that do not match are refused, naming the backend.
TEST(ScaleTwins, MismatchedPictures) {
  const PictureFormat a{64, 36, 8, ChromaFormat::k420}, b{128, 72, 8, ChromaFormat::k420};
  const sws::Plan plan(a, b);
  Picture in(a), wrong(a);
  try {
    sws::scale(plan, in, wrong);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "exact scaling: pictures do not match the plan");
  }
#ifdef VMAFX_HAVE_OPENCL
  if (!list_opencl_devices().empty()) {
    ocl::Scaler s(0, plan);
    try {
      s.scale(in, wrong);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_STREQ(e.what(), "exact scaling (opencl): pictures do not match the plan");
    }
  }
#endif
#ifdef VMAFX_HAVE_CUDA
  if (!list_cuda_devices().empty()) {
    cuda::Scaler s(0, plan);
    try {
      s.scale(in, wrong);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_STREQ(e.what(), "exact scaling (cuda): pictures do not match the plan");
    }
  }
#endif
}

// create_scaler: the same samples through the common interface on every
// backend this build has, and a clear error for the others.
TEST(ScaleTwins, CreateScaler) {
  const PictureFormat a{321, 177, 10, ChromaFormat::k420}, b{640, 360, 8, ChromaFormat::k444};
  const sws::Plan plan(a, b);
  Picture in(a), want(b);
  test::fill_scale_source(in, 7);
  sws::scale(plan, in, want);
  std::vector<std::string> backends = {"cpu"};
#ifdef VMAFX_HAVE_OPENCL
  if (!list_opencl_devices().empty()) backends.push_back("opencl");
#endif
#ifdef VMAFX_HAVE_CUDA
  if (!list_cuda_devices().empty()) backends.push_back("cuda");
#endif
  for (const std::string& name : backends) {
    auto s = create_scaler(name, 0, plan);
    EXPECT_TRUE(s->plan().dst() == b);
    Picture got(b);
    test::fill(got, 1);
    s->scale(in, got);
    EXPECT_EQ(test::first_difference(want, got), "") << name;
  }
  auto message = [&](const char* name) {
    try {
      create_scaler(name, 0, plan);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), Error::Kind::kUsage);
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message("vulkan"), "exact scaling: unknown backend 'vulkan' (expected cpu, cuda or opencl)");
#ifndef VMAFX_HAVE_CUDA
  EXPECT_EQ(message("cuda"), "exact scaling: this build has no cuda backend");
#endif
#ifndef VMAFX_HAVE_OPENCL
  EXPECT_EQ(message("opencl"), "exact scaling: this build has no opencl backend");
#endif
}

}  // namespace
}  // namespace vmafx
