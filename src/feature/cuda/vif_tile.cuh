// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Tile arithmetic of the "v2" VIF scale-0 statistic (8-bit samples, 17 taps),
// shared by the CUDA kernel (vif.cu, VMAFX_CUDA_VIF=v2) and a host test
// (tests/unit/vif_tiling_test.cpp) that runs the same tiling on the CPU
// against vif::compute_scales. Plain C++ when not compiled by nvcc.
//
// A block scores a kTX x kTY tile (112 x 16) with kThreads (256) threads:
//   load:       the kIH x kIW (32 x 128) input tile, mirrored at the picture
//               edges as the original kernel does, into shared memory;
//   vertical:   thread (column c in 0..127, row group g in 0..1) makes the
//               five vertical sums of rows 8g .. 8g+7 (vertical());
//   horizontal: thread (row ty in 0..15, group xg in 0..15) scores outputs
//               7xg .. 7xg+6 of row ty (horizontal()).
//
// Exactness (8-bit, filter 0: symmetric taps c[k] = c[16-k], sum 65536):
// every value below is the CPU's integer (vif.cpp, statistic<uint8_t, 17>).
//  - vertical mu: sum c a <= 65536 * 255 < 2^32; the CPU sums in uint32
//    without wrapping, so regrouping c[k] a[k] + c[16-k] a[16-k] as
//    c[k] (a[k] + a[16-k]) gives the same integer.
//  - vertical moments: sum c a b <= 65536 * 255^2 = 4261478400 < 2^32, so the
//    CPU's uint64 sum fits uint32 and (bpc 8: round 0, shift 0) is stored
//    unchanged; every partial sum is nonnegative and bounded by the total,
//    so the uint32 sums of the regrouped terms never wrap either.
//  - horizontal mu: sum c m with m = (mu + 128) >> 8 <= 65280: < 2^32, the
//    CPU's uint32 sum does not wrap; the same regrouping.
//  - horizontal moments: uint64 sums c v, v < 2^32, as the CPU (no regrouping
//    that could carry past 64 bits: 65536 * 2^32 = 2^48).
#include <cstdint>

#if defined(__CUDACC__)
#define VMAFX_VIF_HD __host__ __device__ __forceinline__
#else
#define VMAFX_VIF_HD inline
#endif

namespace vmafx::cuda::vif::tile {

constexpr int kTX = 112, kTY = 16;    // outputs per tile
constexpr int kH = 8;                 // half width of filter 0
constexpr int kIW = kTX + 2 * kH;     // 128 input columns
constexpr int kIH = kTY + 2 * kH;     // 32 input rows
constexpr int kRows = 8;              // vertical rows per thread
constexpr int kGroups = kTY / kRows;  // 2 row groups
constexpr int kXS = 7;                // horizontal outputs per thread
constexpr int kXG = kTX / kXS;        // 16 threads per output row
constexpr int kThreads = 256;
static_assert(kIW * kGroups == kThreads, "one vertical item per thread");
static_assert(kXG * kTY == kThreads, "one horizontal item per thread");
// Row stride of the vertical results. With 16 threads per row, 7 apart, two
// rows per warp: a stride of 16 mod 32 puts the two rows' uint32 reads in
// disjoint banks ({7x mod 32} and {7x + 16 mod 32}, x < 16, do not meet).
constexpr int kVS = 144;
static_assert(kVS >= kIW && kVS % 32 == 16, "stride");

// Filter 0 (vmafx_vif_filter[0]); the host checks the table against it.
VMAFX_VIF_HD constexpr std::uint32_t tap(int k) {
  return (k == 0 || k == 16)   ? 489u
         : (k == 1 || k == 15) ? 935u
         : (k == 2 || k == 14) ? 1640u
         : (k == 3 || k == 13) ? 2640u
         : (k == 4 || k == 12) ? 3896u
         : (k == 5 || k == 11) ? 5274u
         : (k == 6 || k == 10) ? 6547u
         : (k == 7 || k == 9)  ? 7455u
                               : 7784u;
}

// Mirror without repeating the edge, as the original kernel (one reflection,
// then clamped: positions past it only feed outputs outside the picture).
VMAFX_VIF_HD int mirror(int i, int n) {
  if (i < 0) i = -i;
  if (i >= n) i = 2 * (n - 1) - i;
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

// Vertical pass of one column: r, d point at input row 8g of the column (row
// stride ld samples); writes rows 0..7 of the column's results (stride vs).
VMAFX_VIF_HD void vertical(const std::uint8_t* r, const std::uint8_t* d, int ld, std::uint16_t* m1, std::uint16_t* m2,
                           std::uint32_t* vxx, std::uint32_t* vyy, std::uint32_t* vxy, int vs) {
  std::uint32_t a[kRows + 2 * kH], b[kRows + 2 * kH];
#pragma unroll
  for (int k = 0; k < kRows + 2 * kH; ++k) {
    a[k] = r[k * ld];
    b[k] = d[k * ld];
  }
#pragma unroll
  for (int row = 0; row < kRows; ++row) {
    const std::uint32_t* x = a + row;
    const std::uint32_t* y = b + row;
    std::uint32_t mu1 = tap(kH) * x[kH], mu2 = tap(kH) * y[kH];
    std::uint32_t xx = tap(kH) * (x[kH] * x[kH]);
    std::uint32_t yy = tap(kH) * (y[kH] * y[kH]);
    std::uint32_t xy = tap(kH) * (x[kH] * y[kH]);
#pragma unroll
    for (int k = 0; k < kH; ++k) {
      const int j = 2 * kH - k;
      mu1 += tap(k) * (x[k] + x[j]);
      mu2 += tap(k) * (y[k] + y[j]);
      xx += tap(k) * (x[k] * x[k] + x[j] * x[j]);
      yy += tap(k) * (y[k] * y[k] + y[j] * y[j]);
      xy += tap(k) * (x[k] * y[k] + x[j] * y[j]);
    }
    // bpc 8: mu round 128, shift 8; moments round 0, shift 0.
    m1[row * vs] = std::uint16_t((mu1 + 128u) >> 8);
    m2[row * vs] = std::uint16_t((mu2 + 128u) >> 8);
    vxx[row * vs] = xx;
    vyy[row * vs] = yy;
    vxy[row * vs] = xy;
  }
}

// Horizontal pass: the pointers are at column 7xg of one row of the vertical
// results; writes the kXS outputs' (sigma1_sq, sigma2_sq, sigma12), each the
// 32-bit wrapped difference read as signed, as the CPU.
VMAFX_VIF_HD void horizontal(const std::uint16_t* m1, const std::uint16_t* m2, const std::uint32_t* vxx,
                             const std::uint32_t* vyy, const std::uint32_t* vxy, std::int32_t* s1, std::int32_t* s2,
                             std::int32_t* s12) {
  constexpr int N = kXS + 2 * kH;
  std::uint32_t mu1[kXS], mu2[kXS];
  {
    std::uint32_t v[N];
#pragma unroll
    for (int k = 0; k < N; ++k) v[k] = m1[k];
#pragma unroll
    for (int o = 0; o < kXS; ++o) {
      std::uint32_t s = tap(kH) * v[o + kH];
#pragma unroll
      for (int k = 0; k < kH; ++k) s += tap(k) * (v[o + k] + v[o + 2 * kH - k]);
      mu1[o] = s;
    }
#pragma unroll
    for (int k = 0; k < N; ++k) v[k] = m2[k];
#pragma unroll
    for (int o = 0; o < kXS; ++o) {
      std::uint32_t s = tap(kH) * v[o + kH];
#pragma unroll
      for (int k = 0; k < kH; ++k) s += tap(k) * (v[o + k] + v[o + 2 * kH - k]);
      mu2[o] = s;
    }
  }
  const auto sq = [](std::uint32_t u, std::uint32_t w) {
    return std::uint32_t((static_cast<unsigned long long>(u) * w + 0x80000000ull) >> 32);
  };
  // One moment: sum c v in 64 bits, rounded from Q16 and truncated to 32 bits.
  const auto moment = [](const std::uint32_t* src, std::uint32_t* out) {
    std::uint32_t v[N];
#pragma unroll
    for (int k = 0; k < N; ++k) v[k] = src[k];
#pragma unroll
    for (int o = 0; o < kXS; ++o) {
      unsigned long long s = 0;
#pragma unroll
      for (int k = 0; k < 2 * kH + 1; ++k) s += static_cast<unsigned long long>(tap(k)) * v[o + k];
      out[o] = std::uint32_t((s + 32768) >> 16);
    }
  };
  std::uint32_t f[kXS];
  moment(vxy, f);
#pragma unroll
  for (int o = 0; o < kXS; ++o) s12[o] = std::int32_t(f[o] - sq(mu1[o], mu2[o]));
  moment(vxx, f);
#pragma unroll
  for (int o = 0; o < kXS; ++o) s1[o] = std::int32_t(f[o] - sq(mu1[o], mu1[o]));
  moment(vyy, f);
#pragma unroll
  for (int o = 0; o < kXS; ++o) s2[o] = std::int32_t(f[o] - sq(mu2[o], mu2[o]));
}

}  // namespace vmafx::cuda::vif::tile
