// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL kernels use no double precision: every embedded kernel file and
// every header it includes is free of the `double` type, cl_khr_fp64 and
// 64-bit mul_hi/mad_hi in the code OpenCL C compiles (comments are skipped,
// and so are the host and CUDA branches of the shared headers: their #if,
// #ifdef and #elif conditions are evaluated as the OpenCL compiler sees them,
// and a condition this test cannot decide keeps every branch), every kernel file
// turns FP contraction off, the includes resolve to the intended headers, and
// every program builds on the device (where there is one) without a compiler
// remark about double-precision constants.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
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

// What the OpenCL compiler may see of an assembled program: the lines of
// the active branches of every conditional, collected per source file (the
// assembler's #line markers name them). Macros defined by the OpenCL C
// compiler count as defined, those of the host and CUDA compilers as not;
// #define and #undef in active code update the set. A condition with
// anything but defined(), !, && and || is undecided and keeps its branches.
enum class Tri { kFalse, kTrue, kUnknown };

struct Cond {
  std::string_view s;
  const std::set<std::string>& defs;
  std::size_t i = 0;
  bool bad = false;

  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  }
  std::string ident() {
    ws();
    const std::size_t b = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
    return std::string(s.substr(b, i - b));
  }
  Tri primary() {
    ws();
    if (i < s.size() && s[i] == '!') {
      ++i;
      const Tri t = primary();
      return t == Tri::kUnknown ? t : (t == Tri::kTrue ? Tri::kFalse : Tri::kTrue);
    }
    if (i < s.size() && s[i] == '(') {
      ++i;
      const Tri t = any();
      ws();
      if (i < s.size() && s[i] == ')')
        ++i;
      else
        bad = true;
      return t;
    }
    if (ident() != "defined") {
      bad = true;
      return Tri::kUnknown;
    }
    ws();
    const bool paren = i < s.size() && s[i] == '(';
    if (paren) ++i;
    const std::string name = ident();
    ws();
    if (paren && i < s.size() && s[i] == ')')
      ++i;
    else if (paren)
      bad = true;
    return defs.count(name) ? Tri::kTrue : Tri::kFalse;
  }
  Tri all() {
    Tri t = primary();
    for (ws(); s.substr(i).starts_with("&&"); ws()) {
      i += 2;
      const Tri u = primary();
      t = (t == Tri::kFalse || u == Tri::kFalse) ? Tri::kFalse
          : (t == Tri::kTrue && u == Tri::kTrue) ? Tri::kTrue
                                                 : Tri::kUnknown;
    }
    return t;
  }
  Tri any() {
    Tri t = all();
    for (ws(); s.substr(i).starts_with("||"); ws()) {
      i += 2;
      const Tri u = all();
      t = (t == Tri::kTrue || u == Tri::kTrue)     ? Tri::kTrue
          : (t == Tri::kFalse && u == Tri::kFalse) ? Tri::kFalse
                                                   : Tri::kUnknown;
    }
    return t;
  }
  Tri eval() {
    const Tri t = any();
    ws();
    return bad || i != s.size() ? Tri::kUnknown : t;
  }
};

std::map<std::string, std::string> opencl_visible(const std::string& assembled) {
  std::set<std::string> defs = {"__OPENCL_VERSION__", "__OPENCL_C_VERSION__"};
  struct Level {
    bool outer;  // the enclosing code is active
    bool taken;  // a branch of this conditional was surely taken
    bool active;
  };
  std::vector<Level> stack;
  std::map<std::string, std::string> out;
  // The assembler's #line markers split the text into pieces of one file
  // each; comments and strings are dropped per piece (none spans a marker).
  std::vector<std::pair<std::string, std::string>> pieces{{"?", ""}};
  for (std::size_t pos = 0; pos < assembled.size();) {
    std::size_t nl = assembled.find('\n', pos);
    if (nl == std::string::npos) nl = assembled.size();
    const std::string_view line(assembled.data() + pos, nl - pos);
    pos = nl + 1;
    if (line.starts_with("#line ")) {
      const auto q = line.find('"');
      const auto r = q == std::string_view::npos ? q : line.find('"', q + 1);
      if (r != std::string_view::npos) {
        pieces.emplace_back(std::string(line.substr(q + 1, r - q - 1)), "");
        continue;
      }
    }
    (pieces.back().second += line) += '\n';
  }
  std::vector<std::pair<std::string, std::string>> lines;
  for (const auto& [name, piece] : pieces) {
    const std::string code = code_only(piece);
    for (std::size_t pos = 0; pos < code.size();) {
      std::size_t nl = code.find('\n', pos);
      if (nl == std::string::npos) nl = code.size();
      lines.emplace_back(name, code.substr(pos, nl - pos));
      pos = nl + 1;
    }
  }
  for (const auto& [file, line] : lines) {
    const bool active = stack.empty() || stack.back().active;
    std::string_view t = line;
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    if (!t.starts_with("#")) {
      if (active) (out[file] += line) += '\n';
      continue;
    }
    t.remove_prefix(1);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    std::size_t e = 0;
    while (e < t.size() && std::isalpha(static_cast<unsigned char>(t[e]))) ++e;
    const std::string_view word = t.substr(0, e);
    std::string_view rest = t.substr(e);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t' || rest.back() == '\r')) rest.remove_suffix(1);
    auto open = [&](Tri c) { stack.push_back({active, c == Tri::kTrue, active && c != Tri::kFalse}); };
    if (word == "if") {
      open(Cond{rest, defs}.eval());
    } else if (word == "ifdef" || word == "ifndef") {
      Cond c{rest, defs};
      const bool d = defs.count(c.ident()) > 0;
      open((word == "ifdef") == d ? Tri::kTrue : Tri::kFalse);
    } else if (word == "elif" && !stack.empty()) {
      Level& l = stack.back();
      const Tri c = l.taken ? Tri::kFalse : Cond{rest, defs}.eval();
      l.active = l.outer && c != Tri::kFalse;
      l.taken = l.taken || c == Tri::kTrue;
    } else if (word == "else" && !stack.empty()) {
      Level& l = stack.back();
      l.active = l.outer && !l.taken;
      l.taken = true;
    } else if (word == "endif" && !stack.empty()) {
      stack.pop_back();
    } else if (active && (word == "define" || word == "undef")) {
      Cond c{rest, defs};
      const std::string name = c.ident();
      if (word == "define")
        defs.insert(name);
      else
        defs.erase(name);
      (out[file] += line) += '\n';
    } else if (active) {
      (out[file] += line) += '\n';
    }
  }
  return out;
}

TEST(OpenclSources, VisibleCodeFollowsTheOpenclBranches) {
  const std::string src =
      "#line 1 \"a.h\"\n#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)\n#define OCL_\n#endif\n"
      "#ifdef OCL_\nfloat x;\n#elif defined(__CUDA_ARCH__)\ndouble c;\n#else\ndouble h;\n#endif\n"
      "#if !defined(OCL_) || defined(WANTED)\ndouble g;\n#endif\n#if FOO > 1\ndouble u;\n#else\nint v;\n#endif\n";
  const auto v = opencl_visible(src);
  ASSERT_EQ(v.size(), 1u);
  const std::string& a = v.at("a.h");
  EXPECT_NE(a.find("float x;"), std::string::npos);
  EXPECT_EQ(a.find("double c;"), std::string::npos);
  EXPECT_EQ(a.find("double h;"), std::string::npos);
  EXPECT_EQ(a.find("double g;"), std::string::npos);
  EXPECT_NE(a.find("double u;"), std::string::npos);  // undecided: both branches kept
  EXPECT_NE(a.find("int v;"), std::string::npos);
}

TEST(OpenclSources, NoDoublePrecisionAnywhere) {
  int checked = 0;
  for (const std::string& cl : ocl::kernel_files()) {
    const std::string text(embedded(cl));
    EXPECT_NE(text.find("#pragma OPENCL FP_CONTRACT OFF"), std::string::npos) << cl << " leaves contraction on";
    const auto visible = opencl_visible(ocl::assemble_source(cl));
    for (const std::string& f : ocl::source_closure(cl)) {
      const auto it = visible.find(f);
      if (it == visible.end()) continue;  // wholly outside what OpenCL C compiles
      const std::string& code = it->second;
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
