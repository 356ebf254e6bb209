// SPDX-License-Identifier: BSD-3-Clause
#include "backend/opencl/program_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>

namespace vmafx::ocl::cache {

// ---- SHA-256 ------------------------------------------------------------------

namespace {

constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

}  // namespace

Sha256::Sha256() : h_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void Sha256::compress(const std::uint8_t* block) {
  std::uint32_t w[64];
  for (int t = 0; t < 16; ++t)
    w[t] = std::uint32_t(block[4 * t]) << 24 | std::uint32_t(block[4 * t + 1]) << 16 |
           std::uint32_t(block[4 * t + 2]) << 8 | std::uint32_t(block[4 * t + 3]);
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6], h = h_[7];
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[t] + w[t];
    const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h_[0] += a;
  h_[1] += b;
  h_[2] += c;
  h_[3] += d;
  h_[4] += e;
  h_[5] += f;
  h_[6] += g;
  h_[7] += h;
}

void Sha256::update(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  total_ += bytes;
  while (bytes > 0) {
    if (fill_ == 0 && bytes >= 64) {  // whole blocks straight from the input
      compress(p);
      p += 64;
      bytes -= 64;
      continue;
    }
    const std::size_t n = std::min(bytes, 64 - fill_);
    std::memcpy(block_.data() + fill_, p, n);
    fill_ += n;
    p += n;
    bytes -= n;
    if (fill_ == 64) {
      compress(block_.data());
      fill_ = 0;
    }
  }
}

Digest Sha256::finish() {
  const std::uint64_t bits = total_ * 8;
  const std::uint8_t one = 0x80, zero = 0;
  update(&one, 1);
  while (fill_ != 56) update(&zero, 1);
  std::uint8_t len[8];
  for (int i = 0; i < 8; ++i) len[i] = std::uint8_t(bits >> (56 - 8 * i));
  update(len, 8);
  Digest d{};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) d[std::size_t(4 * i + j)] = std::uint8_t(h_[std::size_t(i)] >> (24 - 8 * j));
  return d;
}

std::string hex(const Digest& d, std::size_t bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < bytes && i < d.size(); ++i) {
    s += kDigits[d[i] >> 4];
    s += kDigits[d[i] & 15];
  }
  return s;
}

// ---- Keys and files -------------------------------------------------------------

namespace {

// Each part with its length in front, so that no two lists of parts hash
// the same bytes.
void part(Sha256& s, std::string_view v) {
  std::uint8_t n[8];
  for (int i = 0; i < 8; ++i) n[i] = std::uint8_t(std::uint64_t(v.size()) >> (8 * i));
  s.update(n, 8);
  s.update(v);
}

constexpr char kMagic[8] = {'V', 'M', 'A', 'F', 'X', 'C', 'L', 'B'};
constexpr std::uint32_t kFormatVersion = 1;
// Far above any program binary; a header claiming more is not believed.
constexpr std::uint64_t kMaxPayload = std::uint64_t(1) << 30;

void put64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = std::uint8_t(v >> (8 * i));
}
std::uint64_t get64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

Digest payload_digest(std::string_view binary, std::string_view log) {
  Sha256 s;
  s.update(binary);
  s.update(log);
  return s.finish();
}

// Header layout (little-endian): magic[8], format version u32, zero u32,
// key[32], binary bytes u64, log bytes u64, SHA-256 of binary then log [32].
std::array<std::uint8_t, kHeaderBytes> header(const Digest& key, std::string_view binary, std::string_view log) {
  std::array<std::uint8_t, kHeaderBytes> h{};
  std::memcpy(h.data(), kMagic, 8);
  for (int i = 0; i < 4; ++i) h[std::size_t(8 + i)] = std::uint8_t(kFormatVersion >> (8 * i));
  std::memcpy(h.data() + 16, key.data(), 32);
  put64(h.data() + 48, binary.size());
  put64(h.data() + 56, log.size());
  const Digest d = payload_digest(binary, log);
  std::memcpy(h.data() + 64, d.data(), 32);
  return h;
}

std::string errno_text(int e) { return std::error_code(e, std::generic_category()).message(); }

}  // namespace

Digest program_key(const KeyParts& k) {
  Sha256 s;
  part(s, "vmaf-exact OpenCL program binary 1");
  part(s, k.platform_name);
  part(s, k.platform_version);
  part(s, k.device_name);
  part(s, k.device_version);
  part(s, k.driver_version);
  part(s, k.build_options);
  part(s, k.source);
  return s.finish();
}

std::string entry_path(std::string_view dir, std::string_view cl_file, const Digest& key) {
  std::string_view stem = cl_file;
  if (const auto dot = stem.rfind('.'); dot != std::string_view::npos) stem = stem.substr(0, dot);
  std::string p(dir);
  if (!p.empty() && p.back() != '/') p += '/';
  p.append(stem);
  p += '-';
  p += hex(key, 16);
  p += ".clbin";
  return p;
}

std::optional<Entry> load(const std::string& path, const Digest& key, std::string& why) {
  why.clear();
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    if (errno != ENOENT) why = "cannot open " + path + ": " + errno_text(errno);
    return std::nullopt;
  }
  std::string bytes;
  char buf[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    bytes.append(buf, n);
    if (bytes.size() > kHeaderBytes + kMaxPayload) break;
  }
  const bool read_error = std::ferror(f) != 0;
  std::fclose(f);
  if (read_error) {
    why = "cannot read " + path;
    return std::nullopt;
  }
  const auto* h = reinterpret_cast<const std::uint8_t*>(bytes.data());
  if (bytes.size() < kHeaderBytes) {
    why = path + " is truncated (" + std::to_string(bytes.size()) + " bytes)";
    return std::nullopt;
  }
  if (std::memcmp(h, kMagic, 8) != 0) {
    why = path + " is not a program-cache file";
    return std::nullopt;
  }
  const std::uint64_t version = get64(h + 8);  // with the zero word after it
  if (version != kFormatVersion) {
    why = path + " has format version " + std::to_string(version);
    return std::nullopt;
  }
  if (std::memcmp(h + 16, key.data(), 32) != 0) {
    why = path + " holds another key";
    return std::nullopt;
  }
  const std::uint64_t nbin = get64(h + 48), nlog = get64(h + 56);
  if (nbin > kMaxPayload || nlog > kMaxPayload || bytes.size() != kHeaderBytes + nbin + nlog) {
    why = path + " has " + std::to_string(bytes.size() - kHeaderBytes) + " payload bytes, its header says " +
          std::to_string(nbin + nlog);
    return std::nullopt;
  }
  Entry e;
  e.binary = bytes.substr(kHeaderBytes, nbin);
  e.log = bytes.substr(kHeaderBytes + nbin, nlog);
  if (e.binary.empty()) {
    why = path + " holds an empty binary";
    return std::nullopt;
  }
  if (std::memcmp(h + 64, payload_digest(e.binary, e.log).data(), 32) != 0) {
    why = path + " does not match its digest";
    return std::nullopt;
  }
  return e;
}

bool store(const std::string& path, const Digest& key, std::string_view binary, std::string_view log,
           std::string& why) {
  namespace fs = std::filesystem;
  why.clear();
  const fs::path target(path);
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  // Another process may create it at the same moment: what counts is that it is there.
  if (!fs::is_directory(target.parent_path(), ec)) {
    why = "cannot create the directory " + target.parent_path().string();
    return false;
  }
  // A name no other process or thread uses: the pid, a counter and random bits.
  static std::atomic<unsigned> counter{0};
  thread_local std::mt19937_64 rng{std::random_device{}()};
  char suffix[96];
  std::snprintf(suffix, sizeof suffix, ".tmp.%ld.%u.%016llx", long(::getpid()), counter.fetch_add(1),
                static_cast<unsigned long long>(rng()));
  const std::string tmp = path + suffix;
  std::FILE* f = std::fopen(tmp.c_str(), "wbx");
  if (!f) {
    why = "cannot create " + tmp + ": " + errno_text(errno);
    return false;
  }
  const auto h = header(key, binary, log);
  bool ok = std::fwrite(h.data(), 1, h.size(), f) == h.size();
  ok = ok && std::fwrite(binary.data(), 1, binary.size(), f) == binary.size();
  ok = ok && std::fwrite(log.data(), 1, log.size(), f) == log.size();
  const int write_errno = errno;
  // No fsync: a file cut short by a crash fails validation and is rebuilt.
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    why = "cannot write " + tmp + ": " + errno_text(write_errno);
    std::remove(tmp.c_str());
    return false;
  }
  // rename() replaces an entry another process wrote meanwhile in one step:
  // readers see the old file or the new one, never a mix.
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    why = "cannot rename " + tmp + " to " + path + ": " + errno_text(errno);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace vmafx::ocl::cache
