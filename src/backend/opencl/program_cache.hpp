// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The OpenCL program-binary cache: a program built from source is stored as
// the driver's binary, and the next process loads it instead of compiling
// (NVIDIA's compiler takes seconds per program). One file per program and
// key, in the directory env::opencl_cache_dir() names:
//
//   <stem>-<32 hex digits of the key>.clbin
//
// The key is the SHA-256 of everything that can change the binary: the
// platform's and device's names and versions, the driver version, the build
// options and the assembled source text. A file is a 96-byte header (magic,
// format version, the key, the sizes of the binary and of the build log, the
// SHA-256 of both) and then the binary and the source build's log. A file
// that does not validate is ignored (and rewritten by the caller's source
// build); files are written to a temporary name in the same directory and
// renamed, so that processes starting together never read a partial file.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vmafx::ocl::cache {

using Digest = std::array<std::uint8_t, 32>;

// SHA-256 (FIPS 180-4), incremental.
class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t bytes);
  void update(std::string_view s) { update(s.data(), s.size()); }
  Digest finish();  // the object is spent afterwards

 private:
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> block_{};
  std::size_t fill_ = 0;
  std::uint64_t total_ = 0;  // bytes
  void compress(const std::uint8_t* block);
};

std::string hex(const Digest& d, std::size_t bytes = 32);

// What a program binary depends on.
struct KeyParts {
  std::string_view platform_name, platform_version;
  std::string_view device_name, device_version, driver_version;
  std::string_view build_options;
  std::string_view source;  // assembled, includes inlined
};
Digest program_key(const KeyParts& k);

// `dir`/<stem of cl_file>-<key>.clbin
std::string entry_path(std::string_view dir, std::string_view cl_file, const Digest& key);

struct Entry {
  std::string binary;
  std::string log;  // the source build's log (compiler remarks)
};

// The entry at `path` for `key`. nullopt with `why` empty when there is no
// file; with `why` saying what is wrong when a file is there but does not
// validate (truncated, other key, bad digest, ...).
std::optional<Entry> load(const std::string& path, const Digest& key, std::string& why);

// Writes the entry through a temporary file and a rename, creating the
// directory. False, with `why`, when it could not (the cache then simply
// has no entry: callers go on).
bool store(const std::string& path, const Digest& key, std::string_view binary, std::string_view log, std::string& why);

inline constexpr std::size_t kHeaderBytes = 96;

}  // namespace vmafx::ocl::cache
