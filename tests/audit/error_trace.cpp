// SPDX-License-Identifier: BSD-3-Clause
// Error-message audit (scripts/error-audit.py): an LD_PRELOAD library that
// records every error message a test makes the code produce.
//
//   LD_PRELOAD=liberror_trace.so VMAFX_ERROR_LOG=FILE ctest ...
//
// appends one line to FILE for every vmafx::Error ("error") and
// std::logic_error ("logic") thrown (in the test process or in a `vmaf` it
// runs), every line the CLI prints to stderr (fprintf, fwrite, fputs) that
// starts with "vmaf: " ("stderr": messages that are not exceptions, e.g. a
// missing -d) and every error line of the C API ("capi": "libvmaf ERROR
// <message>"): "<test>\t<kind>\t<program>\t<message>", newlines escaped.
// <test> is the gtest filter that ctest gave the test process (children
// inherit it through VMAFX_AUDIT_TEST), else the program name; a Python test
// sets it with vmafx_audit_set_test() (tests/python/conftest.py).
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <typeinfo>

namespace {

// A plain array: the constructor below may run before C++ globals are built.
char g_test[512];
char g_prog[128];

void set_test(const std::string& name) { std::snprintf(g_test, sizeof g_test, "%s", name.c_str()); }

void log_line(const char* kind, const char* msg) {
  const char* path = std::getenv("VMAFX_ERROR_LOG");
  if (!path || !*path) return;
  // A test may limit the file size (ulimit -S -f) to make writes fail: the
  // log is written with the hard limit, then the soft one is restored.
  rlimit fsize{};
  const bool limited = ::getrlimit(RLIMIT_FSIZE, &fsize) == 0 && fsize.rlim_cur != fsize.rlim_max;
  if (limited) {
    rlimit raised = fsize;
    raised.rlim_cur = fsize.rlim_max;
    ::setrlimit(RLIMIT_FSIZE, &raised);
  }
  struct Restore {
    bool on;
    rlimit lim;
    ~Restore() {
      if (on) ::setrlimit(RLIMIT_FSIZE, &lim);
    }
  } restore{limited, fsize};
  std::string line = std::string(g_test) + "\t" + kind + "\t" + g_prog + "\t";
  for (const char* p = msg; *p; ++p) {
    if (*p == '\n')
      line += "\\n";
    else if (*p == '\\')
      line += "\\\\";
    else
      line += *p;
  }
  line += '\n';
  // One write with O_APPEND: lines of parallel tests do not interleave.
  const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  (void)!::write(fd, line.data(), line.size());
  ::close(fd);
}

__attribute__((constructor)) void init() {
  char buf[8192];
  std::string cmdline;
  if (FILE* f = std::fopen("/proc/self/cmdline", "rb")) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    cmdline.assign(buf, n);
    std::fclose(f);
  }
  std::string prog;
  for (std::size_t at = 0; at < cmdline.size();) {
    const std::string arg = cmdline.c_str() + at;
    if (at == 0) prog = arg.substr(arg.rfind('/') + 1);
    if (arg.rfind("--gtest_filter=", 0) == 0) {
      set_test(arg.substr(15));
      ::setenv("VMAFX_AUDIT_TEST", g_test, 1);
    }
    at += arg.size() + 1;
  }
  std::snprintf(g_prog, sizeof g_prog, "%s", prog.c_str());
  if (!g_test[0]) {
    const char* t = std::getenv("VMAFX_AUDIT_TEST");
    set_test(t && *t ? std::string(t) : prog);
  }
}

void log_stderr(FILE* stream, const char* fmt, va_list ap) {
  if (stream != stderr) return;
  const bool cli = std::strncmp(fmt, "vmaf: ", 6) == 0;
  if (!cli && std::strncmp(fmt, "libvmaf ", 8) != 0) return;
  char buf[4096];
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  if (cli) {
    log_line("stderr", buf);
    return;
  }
  // The C API's log line: "libvmaf ERROR <message>\n".
  constexpr const char* kError = "libvmaf ERROR ";
  if (std::strncmp(buf, kError, std::strlen(kError)) != 0) return;
  std::string msg = buf + std::strlen(kError);
  if (!msg.empty() && msg.back() == '\n') msg.pop_back();
  log_line("capi", msg.c_str());
}

}  // namespace

extern "C" {

// Names the test that runs now (a Python test: its pytest node id).
__attribute__((visibility("default"))) void vmafx_audit_set_test(const char* name) {
  set_test(name ? name : "");
  ::setenv("VMAFX_AUDIT_TEST", g_test, 1);
}

// Logs a Python exception's message ("pyraise"), for tests/python/conftest.py.
__attribute__((visibility("default"))) void vmafx_audit_log_python(const char* msg) {
  if (msg) log_line("pyraise", msg);
}

[[noreturn]] void __cxa_throw(void* obj, std::type_info* type, void (*dtor)(void*)) {
  using Throw = void (*)(void*, std::type_info*, void (*)(void*));
  static const Throw real = reinterpret_cast<Throw>(::dlsym(RTLD_NEXT, "__cxa_throw"));
  // vmafx::Error derives from std::runtime_error alone: the object is one.
  if (type && std::strcmp(type->name(), "N5vmafx5ErrorE") == 0)
    log_line("error", static_cast<const std::runtime_error*>(obj)->what());
  else if (type && std::strcmp(type->name(), "St11logic_error") == 0)
    log_line("logic", static_cast<const std::logic_error*>(obj)->what());
  real(obj, type, dtor);
  __builtin_unreachable();
}

int fprintf(FILE* stream, const char* fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  log_stderr(stream, fmt, ap2);
  va_end(ap2);
  const int r = std::vfprintf(stream, fmt, ap);
  va_end(ap);
  return r;
}

// A format without arguments is compiled into fwrite or fputs.
std::size_t fwrite(const void* data, std::size_t size, std::size_t n, FILE* stream) {
  using Fwrite = std::size_t (*)(const void*, std::size_t, std::size_t, FILE*);
  static const Fwrite real = reinterpret_cast<Fwrite>(::dlsym(RTLD_NEXT, "fwrite"));
  if (stream == stderr && size * n > 6 && std::memcmp(data, "vmaf: ", 6) == 0)
    log_line("stderr", std::string(static_cast<const char*>(data), size * n).c_str());
  return real(data, size, n, stream);
}

int fputs(const char* text, FILE* stream) {
  using Fputs = int (*)(const char*, FILE*);
  static const Fputs real = reinterpret_cast<Fputs>(::dlsym(RTLD_NEXT, "fputs"));
  if (stream == stderr && std::strncmp(text, "vmaf: ", 6) == 0) log_line("stderr", text);
  return real(text, stream);
}

int __fprintf_chk(FILE* stream, int /*flag*/, const char* fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  log_stderr(stream, fmt, ap2);
  va_end(ap2);
  const int r = std::vfprintf(stream, fmt, ap);
  va_end(ap);
  return r;
}

}  // extern "C"
