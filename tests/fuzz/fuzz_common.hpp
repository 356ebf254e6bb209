#pragma once
// Shared by the libFuzzer targets: inputs as files (a memfd, opened by path as
// the CLI opens its clips and models), and the oracle every target applies to
// the errors it provokes: an Error's message is one non-empty line that starts
// with what it is about (the file, the option, the extractor).
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace vmafx::fuzz {

// An in-memory file holding `size` bytes; path() opens it from the start.
class MemFile {
 public:
  MemFile(const void* data, std::size_t size) {
    fd_ = ::memfd_create("vmafx_fuzz", MFD_CLOEXEC);
    if (fd_ < 0) std::abort();
    const char* p = static_cast<const char*>(data);
    for (std::size_t done = 0; done < size;) {
      const ssize_t w = ::write(fd_, p + done, size - done);
      if (w <= 0) std::abort();
      done += std::size_t(w);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemFile() { ::close(fd_); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// The oracle for error messages: one line, not empty, starting with `prefix`.
inline void check_message(std::string_view what, std::string_view prefix) {
  const bool ok = !what.empty() && what.find('\n') == std::string_view::npos &&
                  what.substr(0, prefix.size()) == prefix && what.size() > prefix.size();
  if (!ok) {
    std::fprintf(stderr, "bad error message (expected one line starting with '%.*s'): '%.*s'\n", int(prefix.size()),
                 prefix.data(), int(what.size()), what.data());
    std::abort();
  }
}

}  // namespace vmafx::fuzz
