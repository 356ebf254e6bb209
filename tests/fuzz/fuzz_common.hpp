// SPDX-License-Identifier: BSD-3-Clause
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
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "io/video_reader.hpp"

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

// The clip readers' target body (fuzz_y4m, fuzz_libav): the input opened by
// path as the CLI opens a clip; a clip that opens must have a sane format
// (1..32768 a side, at most 2^26 luma samples, 8..16 bit); then up to
// `max_frames` frames, every `skip_period`-th skipped instead of read, with
// frames_read() counting each and a timestamp never of a zero time base;
// frames over 4 MiB are not read (a header may claim 8192x8192 4:4:4 16-bit).
// Every failure must be an Error of one line starting with the path.
inline void read_clip(const std::uint8_t* data, std::size_t size, unsigned max_frames, unsigned skip_period) {
  constexpr std::size_t kMaxFrameBytes = std::size_t(1) << 22;
  MemFile file(data, size);
  try {
    auto reader = open_video(file.path(), std::nullopt);
    const PictureFormat& f = reader->format();
    if (f.width < 1 || f.height < 1 || f.width > 32768 || f.height > 32768 ||
        static_cast<long long>(f.width) * f.height > (1LL << 26) || f.bpc < 8 || f.bpc > 16)
      std::abort();
    if (f.frame_bytes() > kMaxFrameBytes) return;
    Picture pic(f);
    for (unsigned i = 0; i < max_frames; ++i) {
      const bool got = (i % skip_period == skip_period - 1) ? reader->skip(pic) : reader->read(pic);
      if (!got) break;
      if (reader->frames_read() != i + 1) std::abort();
      if (auto ts = reader->timestamp(); ts && ts->den == 0 && ts->num == 0) std::abort();
    }
  } catch (const Error& e) {
    check_message(e.what(), file.path() + ": ");
  }
}

}  // namespace vmafx::fuzz
