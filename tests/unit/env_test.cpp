// SPDX-License-Identifier: BSD-3-Clause
// Environment variables: one table, each documented in README.md, bad values
// rejected with a one-line message.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "core/env.hpp"
#include "core/error.hpp"

namespace vmafx {
namespace {

TEST(Env, EveryVariableIsInTheReadme) {
  std::ifstream f(std::string(VMAFX_TEST_DATA_DIR) + "/../../README.md");
  ASSERT_TRUE(f) << "README.md not found";
  std::stringstream s;
  s << f.rdbuf();
  const std::string readme = s.str();
  ASSERT_GE(env::all().size(), 7u);
  for (const env::Variable& v : env::all())
    EXPECT_NE(readme.find("`" + std::string(v.name)), std::string::npos) << v.name << " is not in README.md";
}

TEST(Env, BadValuesAreErrorsNamingTheVariable) {
  auto error_with = [](const char* name, const char* value) {
    ::setenv(name, value, 1);
    std::string msg;
    try {
      env::check();
    } catch (const Error& e) {
      msg = e.what();
    }
    ::unsetenv(name);
    return msg;
  };
  EXPECT_EQ(error_with("VMAFX_SIMD", "of"), "VMAFX_SIMD=of: expected on, off");
  EXPECT_EQ(error_with("VMAFX_CUDA_EXACT", "double"), "VMAFX_CUDA_EXACT=double: expected int, fp64");
  EXPECT_EQ(error_with("VMAFX_STATS", "yes"), "VMAFX_STATS=yes: expected 0, 1");
  EXPECT_EQ(error_with("VMAFX_OPENCL_GROUP_CAP", "8x"), "VMAFX_OPENCL_GROUP_CAP=8x: expected a number of work items");
  EXPECT_EQ(error_with("VMAFX_OPENCL_PROFILE", "on"), "VMAFX_OPENCL_PROFILE=on: expected 0, 1");
  EXPECT_EQ(error_with("VMAFX_OPENCL_PAGEABLE", "2"), "VMAFX_OPENCL_PAGEABLE=2: expected 0, 1");
  EXPECT_EQ(error_with("VMAFX_OPENCL_CACHE", "off"), "VMAFX_OPENCL_CACHE=off: expected 0, 1");
  EXPECT_EQ(error_with("VMAFX_OPENCL_WAIT", "spin"), "VMAFX_OPENCL_WAIT=spin: expected driver, callback");
  EXPECT_EQ(error_with("VMAFX_OPENCL_WAIT", "callback"), "");
  EXPECT_EQ(error_with("VMAFX_DECODE_STREAMS", "each"), "VMAFX_DECODE_STREAMS=each: expected shared, own");
  EXPECT_EQ(error_with("VMAFX_DECODE_STREAMS", "own"), "");
  EXPECT_EQ(error_with("VMAFX_OPENCL_CACHE_DIR", "any/path"), "");
  EXPECT_EQ(error_with("VMAFX_HWDEC_HOST", "yes"), "VMAFX_HWDEC_HOST=yes: expected 0, 1");
  EXPECT_EQ(error_with("VMAFX_LIBVMAF_PRECISION", "18"), "VMAFX_LIBVMAF_PRECISION=18: expected max or 1 to 17");
  EXPECT_EQ(error_with("VMAFX_LIBVMAF_PRECISION", "max"), "");
  EXPECT_EQ(error_with("VMAFX_LIBVMAF_CPU", "arm"), "VMAFX_LIBVMAF_CPU=arm: expected auto, intel, amd, generic");
  EXPECT_EQ(error_with("VMAFX_LIBVMAF_CPU", "generic"), "");
  EXPECT_EQ(error_with("VMAFX_READERS", "0"), "VMAFX_READERS=0: expected 1 to 64 threads per file");
  EXPECT_EQ(error_with("VMAFX_READERS", "65"), "VMAFX_READERS=65: expected 1 to 64 threads per file");
  EXPECT_EQ(error_with("VMAFX_READERS", "4x"), "VMAFX_READERS=4x: expected 1 to 64 threads per file");
  EXPECT_EQ(error_with("VMAFX_READERS", "64"), "");
  EXPECT_EQ(error_with("VMAFX_DECODE_LOOKAHEAD", "1025"), "VMAFX_DECODE_LOOKAHEAD=1025: expected 0 to 1024 packets");
  EXPECT_EQ(error_with("VMAFX_DECODE_LOOKAHEAD", "-1"), "VMAFX_DECODE_LOOKAHEAD=-1: expected 0 to 1024 packets");
  EXPECT_EQ(error_with("VMAFX_DECODE_LOOKAHEAD", "0"), "");
  EXPECT_EQ(error_with("VMAFX_SIMD", "off"), "");
  EXPECT_NO_THROW(env::check());
}

// The OpenCL program cache's directory: VMAFX_OPENCL_CACHE=0, VMAFX_OPENCL_CACHE_DIR,
// XDG_CACHE_HOME (absolute only), HOME, in that order.
TEST(Env, OpenclCacheDirFollowsTheVariablesInOrder) {
  EXPECT_EQ(env::opencl_cache_dir("", "/c/d", "/x", "/h"), "/c/d");
  EXPECT_EQ(env::opencl_cache_dir("1", "/c/d", "/x", "/h"), "/c/d");
  EXPECT_EQ(env::opencl_cache_dir("", "", "/x", "/h"), "/x/vmaf-exact/opencl");
  EXPECT_EQ(env::opencl_cache_dir("", "", "rel", "/h"), "/h/.cache/vmaf-exact/opencl");  // XDG: absolute only
  EXPECT_EQ(env::opencl_cache_dir("", "", "", "/h"), "/h/.cache/vmaf-exact/opencl");
  EXPECT_EQ(env::opencl_cache_dir("", "", "", ""), "");
  EXPECT_EQ(env::opencl_cache_dir("0", "/c/d", "/x", "/h"), "");
}

}  // namespace
}  // namespace vmafx
