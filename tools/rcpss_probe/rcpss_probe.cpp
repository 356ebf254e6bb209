// SPDX-License-Identifier: BSD-3-Clause
// rcpss_probe: measures the x86 RCPSS instruction of the processor it runs on.
//   rcpss_probe DUMP.bin   writes RCPSS(1.m) as little-endian uint32 bits for
//                           every mantissa m (2^23 entries, exponent 127), then
//                           checks every one of the 2^32 inputs against the
//                           rule "result(x) = dump[m(x)] rescaled by x's
//                           exponent, with the edge cases of rcp_estimate"
//                           and prints the vendor, the smallest number of
//                           leading mantissa bits the result depends on, and
//                           every input the rule misses (at most 64 shown).
// Build: g++ -O2 -std=c++20 -static -pthread rcpss_probe.cpp -o rcpss_probe
#include <immintrin.h>
#include <cpuid.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

static std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
static float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static std::uint32_t rcpss(std::uint32_t u) { return bits(_mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(from_bits(u))))); }

// The rule used by vmafx::flt::rcp_estimate, with a full-mantissa table.
static std::uint32_t predict(const std::vector<std::uint32_t>& t, std::uint32_t u) {
  const std::uint32_t sign = u & 0x80000000u, e = (u >> 23) & 0xffu, m = u & 0x7fffffu;
  if (e == 0xffu) return m ? (u | 0x400000u) : sign;
  if (e == 0) return sign | 0x7f800000u;
  const std::uint32_t r = t[m];
  const int re = int((r >> 23) & 0xffu) - (int(e) - 127);
  if (re <= 0) return sign;
  if (re >= 255) return sign | 0x7f800000u;
  return sign | (std::uint32_t(re) << 23) | (r & 0x7fffffu);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: rcpss_probe DUMP.bin\n");
    return 2;
  }
  unsigned a, b, c, d;
  char vendor[13] = {};
  __get_cpuid(0, &a, &b, &c, &d);
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  char brand[49] = {};
  for (unsigned i = 0; i < 3; ++i) {
    __get_cpuid(0x80000002u + i, &a, &b, &c, &d);
    std::memcpy(brand + 16 * i, &a, 4);
    std::memcpy(brand + 16 * i + 4, &b, 4);
    std::memcpy(brand + 16 * i + 8, &c, 4);
    std::memcpy(brand + 16 * i + 12, &d, 4);
  }
  __get_cpuid(1, &a, &b, &c, &d);
  std::printf("vendor %s\nbrand %s\ncpuid1.eax 0x%08x\n", vendor, brand, a);
  std::vector<std::uint32_t> t(1u << 23);
  for (std::uint32_t m = 0; m < (1u << 23); ++m) t[m] = rcpss((127u << 23) | m);
  if (FILE* f = std::fopen(argv[1], "wb")) {
    std::fwrite(t.data(), 4, t.size(), f);
    std::fclose(f);
  } else {
    std::fprintf(stderr, "rcpss_probe: %s: cannot write\n", argv[1]);
    return 1;
  }
  for (int k = 0; k <= 23; ++k) {
    bool ok = true;
    const std::uint32_t mask = k == 23 ? 0x7fffffu : (0x7fffffu ^ ((1u << (23 - k)) - 1));
    for (std::uint32_t m = 0; m < (1u << 23) && ok; ++m) ok = t[m] == t[m & mask];
    if (ok) {
      std::printf("depends on the leading %d mantissa bits\n", k);
      break;
    }
  }
  unsigned nt = std::thread::hardware_concurrency();
  if (!nt) nt = 4;
  std::atomic<std::uint64_t> misses{0};
  std::vector<std::vector<std::uint32_t>> shown(nt);
  std::vector<std::thread> th;
  for (unsigned i = 0; i < nt; ++i)
    th.emplace_back([&, i] {
      const std::uint64_t lo = (std::uint64_t(1) << 32) * i / nt, hi = (std::uint64_t(1) << 32) * (i + 1) / nt;
      for (std::uint64_t x = lo; x < hi; ++x) {
        const std::uint32_t u = std::uint32_t(x), hw = rcpss(u), p = predict(t, u);
        if (hw != p) {
          ++misses;
          if (shown[i].size() < 64) {
            shown[i].push_back(u);
            shown[i].push_back(hw);
            shown[i].push_back(p);
          }
        }
      }
    });
  for (auto& x : th) x.join();
  std::printf("inputs checked 4294967296, rule misses %llu\n", (unsigned long long)misses.load());
  int n = 0;
  for (auto& s : shown)
    for (std::size_t j = 0; j + 2 < s.size() && n < 64; j += 3, ++n)
      std::printf("miss x=0x%08x hw=0x%08x rule=0x%08x\n", s[j], s[j + 1], s[j + 2]);
  return 0;
}
