// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL kernels use no double precision: every embedded kernel file and
// every header it includes is free of the `double` type, cl_khr_fp64 and
// 64-bit mul_hi/mad_hi (in code; comments are skipped), every kernel file
// turns FP contraction off, the includes resolve to the intended headers, and
// every program builds on the device (where there is one) without a compiler
// remark about double-precision constants.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "core/error.hpp"
#ifdef VMAFX_HAVE_OPENCL
#include "backend/opencl/opencl_runtime.hpp"
#include "core/embedded.hpp"
#endif

namespace vmafx {
#ifdef VMAFX_HAVE_OPENCL
extern const EmbeddedFile kOpenclSources[];
extern const std::size_t kOpenclSources_count;

namespace {

std::string_view embedded(const std::string& name) {
  for (std::size_t i = 0; i < kOpenclSources_count; ++i)
    if (name == kOpenclSources[i].name) return kOpenclSources[i].view();
  return {};
}

// The text without // and /* */ comments and without string literals.
std::string code_only(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      out += '\n';
    } else if (s[i] == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) ++i;
      ++i;
      out += ' ';
    } else if (s[i] == '"') {
      ++i;
      while (i < s.size() && s[i] != '"') ++i;
      out += "\"\"";
    } else {
      out += s[i];
    }
  }
  return out;
}

bool has_word(const std::string& code, const std::string& word) {
  for (std::size_t p = code.find(word); p != std::string::npos; p = code.find(word, p + 1)) {
    const bool left = p == 0 || !(std::isalnum(static_cast<unsigned char>(code[p - 1])) || code[p - 1] == '_');
    const std::size_t e = p + word.size();
    const bool right = e >= code.size() || !(std::isalnum(static_cast<unsigned char>(code[e])) || code[e] == '_');
    if (left && right) return true;
  }
  return false;
}

TEST(OpenclSources, KernelFilesAreEmbedded) {
  const auto files = ocl::kernel_files();
  for (const char* f : {"ssim.cl", "vif.cl", "float_ssim.cl", "adm.cl", "motion.cl", "ocl_f32.cl"})
    EXPECT_NE(std::find(files.begin(), files.end(), f), files.end()) << f;
}

TEST(OpenclSources, NoDoublePrecisionAnywhere) {
  int checked = 0;
  for (const std::string& cl : ocl::kernel_files()) {
    const std::string text(embedded(cl));
    EXPECT_NE(text.find("#pragma OPENCL FP_CONTRACT OFF"), std::string::npos) << cl << " leaves contraction on";
    for (const std::string& f : ocl::source_closure(cl)) {
      const std::string code = code_only(embedded(f));
      EXPECT_FALSE(has_word(code, "double")) << f << " (included by " << cl << ") uses double";
      EXPECT_EQ(code.find("cl_khr_fp64"), std::string::npos) << f << " mentions cl_khr_fp64";
      EXPECT_FALSE(has_word(code, "mul_hi")) << f << " uses mul_hi";
      EXPECT_FALSE(has_word(code, "mad_hi")) << f << " uses mad_hi";
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
}

// An unsuffixed floating literal is a double; in the kernel files themselves
// every floating constant must be a float (shared headers define theirs as
// bit patterns or suffixed literals for the kernels).
TEST(OpenclSources, KernelFilesHaveNoDoubleLiterals) {
  for (const std::string& cl : ocl::kernel_files()) {
    const std::string code = code_only(embedded(cl));
    for (std::size_t i = 0; i < code.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(code[i]))) continue;
      if (i > 0 && (std::isalnum(static_cast<unsigned char>(code[i - 1])) || code[i - 1] == '_')) {
        while (i < code.size() && (std::isalnum(static_cast<unsigned char>(code[i])) || code[i] == '_')) ++i;
        continue;
      }
      std::size_t e = i;
      bool fp = false;
      while (e < code.size() && (std::isalnum(static_cast<unsigned char>(code[e])) || code[e] == '.' ||
                                 ((code[e] == '-' || code[e] == '+') && (code[e - 1] == 'e' || code[e - 1] == 'E')))) {
        if (code[e] == '.') fp = true;
        ++e;
      }
      const std::string tok = code.substr(i, e - i);
      const bool hex = tok.size() > 1 && (tok[1] == 'x' || tok[1] == 'X');
      if (!hex && tok.find_first_of("eE") != std::string::npos) fp = true;
      if (fp) {
        EXPECT_TRUE(tok.back() == 'f' || tok.back() == 'F') << cl << ": double literal " << tok;
      }
      i = e;
    }
  }
}

TEST(OpenclSources, ConstantsComeFromTheSharedHeaders) {
  // The kernels take the constants host C++ and CUDA use, from src/exact, once
  // (ssim.cl directly and again through ssim_term.h: the guard keeps one copy).
  for (const char* cl : {"ssim.cl", "float_ssim.cl"}) {
    const std::string s = ocl::assemble_source(cl);
    EXPECT_NE(s.find("#ifndef VMAFX_EXACT_SSIM_TABLES_H"), std::string::npos) << cl;
    EXPECT_EQ(s.find("#include \""), std::string::npos) << cl << ": an include was left unresolved";
  }
  const std::string v = ocl::assemble_source("vif.cl");
  EXPECT_NE(v.find("#ifndef VMAFX_EXACT_VIF_TABLES_H"), std::string::npos);
  // the host's log2 table is in the header, but outside what OpenCL C compiles
  EXPECT_NE(v.find("vmafx_vif_log2_table"), std::string::npos);
  EXPECT_NE(v.find("#if !defined(__OPENCL_VERSION__)"), std::string::npos);
}

TEST(OpenclSources, ProgramsBuildWithoutDoubleRemarks) {
  if (list_opencl_devices().empty()) GTEST_SKIP() << "no OpenCL device";
  ocl::Device& dev = ocl::Device::get(0);
  for (const std::string& cl : ocl::kernel_files()) {
    std::string log;
    ASSERT_NO_THROW(log = dev.build_log(cl)) << cl;
    EXPECT_EQ(log.find("double"), std::string::npos) << cl << ": " << log;
    EXPECT_EQ(log.find("fp64"), std::string::npos) << cl << ": " << log;
  }
}

}  // namespace
#endif  // a build without the backend has no such tests
}  // namespace vmafx
