// SPDX-License-Identifier: BSD-3-Clause
// SIMD rows of SpEED; see speed_simd.hpp and speed::Rows (feature/speed.hpp)
// for the contract and feature/speed.cpp (scalar_rows) for the scalar
// reference. Compiled once per Highway target (foreach_target) and chosen at
// run time.
//
// Means: lane c of the vector for row offset r sums data[(r + i) st + c + j]
// over the positions (i, j) in raster order, as the scalar loop of offset
// (r, c) does; lanes c >= 5 are discarded.
//
// Covariances: for each window row i and a chunk of positions j, the 25
// centred values D[y] = double(v_y) - double(mean_y) of every position are
// laid out side by side (offset y at lane y of a 32-double record), then for
// each offset x the products D[x] * D[y] are added to accumulator (x, y), one
// lane per y, lanes y <= x kept (y > x lanes are discarded). Every
// accumulator sees the positions in raster order, and D[x] * D[y] equals the
// scalar (vx - mx) * (vy - my) (same two doubles; multiplication commutes).
#include "feature/speed_simd.hpp"

#if VMAFX_HAVE_HWY

#include <algorithm>
#include <cstring>

#include "feature/float_simd.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "feature/speed_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace vmafx::speed::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr int kB = 5;
constexpr int kE = kB * kB;
constexpr int kRec = 32;    // doubles per position record (>= 25 + a vector's overhang)
constexpr int kChunk = 32;  // positions per chunk of records

using DD = hn::ScalableTag<double>;
using VD = hn::Vec<DD>;
constexpr int kL = int(HWY_LANES(double));
static_assert(kRec >= (kE - 1) / kL * kL + kL, "records too short for the last vector");
static_assert(kRec >= 4 * kB + ((kB + kL - 1) / kL) * kL, "records too short for the centring stores");

// A vector of floats at data + off, read through a zero-filled copy where it
// would pass len (only near the very end of the data).
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF(DF df, const float* data, std::size_t len, std::size_t off) {
  const std::size_t n = hn::Lanes(df);
  if (off + n <= len) return hn::LoadU(df, data + off);
  HWY_ALIGN float tmp[HWY_MAX_BYTES / sizeof(float)] = {};
  if (off < len) std::memcpy(tmp, data + off, (len - off) * sizeof(float));
  return hn::LoadU(df, tmp);
}

void Means(const float* data, std::size_t len, int st, int subw, int subh, float* means) {
  const hn::CappedTag<float, 8> df;
  constexpr int kMaxV = 5;  // vectors per row offset on a 1-lane target
  const int n = int(hn::Lanes(df));
  const int nv = (kB + n - 1) / n;
  hn::Vec<decltype(df)> acc[kB][kMaxV];
  for (int r = 0; r < kB; ++r)
    for (int v = 0; v < kMaxV; ++v) acc[r][v] = hn::Zero(df);
  for (int i = 0; i < subh; ++i)
    for (int j = 0; j < subw; ++j)
      for (int r = 0; r < kB; ++r) {
        const std::size_t off = std::size_t(r + i) * std::size_t(st) + std::size_t(j);
        for (int v = 0; v < nv; ++v) acc[r][v] = hn::Add(acc[r][v], LoadF(df, data, len, off + std::size_t(v * n)));
      }
  const float count = static_cast<float>(std::size_t(subw) * std::size_t(subh));
  HWY_ALIGN float lanes[kMaxV * 8];
  for (int r = 0; r < kB; ++r) {
    for (int v = 0; v < nv; ++v) hn::Store(acc[r][v], df, lanes + v * n);
    for (int c = 0; c < kB; ++c) means[r * kB + c] = lanes[c] / count;
  }
}

// Accumulators x in [X0, X0 + NX) against the y-vectors [0, NY) over nj
// position records.
template <int X0, int NX, int NY>
HWY_INLINE void Block(const double* rec, int nj, double* acc) {
  const DD d;
  VD a[NX][NY];
  for (int x = 0; x < NX; ++x)
    for (int v = 0; v < NY; ++v) a[x][v] = hn::Load(d, acc + (X0 + x) * kRec + v * kL);
  for (int j = 0; j < nj; ++j, rec += kRec) {
    for (int x = 0; x < NX; ++x) {
      const VD dx = hn::Set(d, rec[X0 + x]);
      for (int v = 0; v < NY; ++v) a[x][v] = hn::Add(a[x][v], hn::Mul(dx, hn::Load(d, rec + v * kL)));
    }
  }
  for (int x = 0; x < NX; ++x)
    for (int v = 0; v < NY; ++v) hn::Store(a[x][v], d, acc + (X0 + x) * kRec + v * kL);
}

// Every x, in blocks that fit the registers: y-vectors up to the block's
// last x.
template <int X0>
HWY_INLINE void Blocks(const double* rec, int nj, double* acc) {
  constexpr int kNX = kL >= 8 ? 8 : 2;
  constexpr int NX = std::min(kNX, kE - X0);
  constexpr int NY = (X0 + NX - 1) / kL + 1;
  Block<X0, NX, NY>(rec, nj, acc);
  if constexpr (X0 + NX < kE) Blocks<X0 + NX>(rec, nj, acc);
}

void BlockMoments(const float* data, std::size_t len, int st, int subw, int subh, float* means, float* cov) {
  Means(data, len, st, subw, subh, means);

  const DD d;
  const hn::Rebind<float, DD> df;
  HWY_ALIGN double mean_d[kRec] = {};
  for (int o = 0; o < kE; ++o) mean_d[o] = static_cast<double>(means[o]);
  HWY_ALIGN double acc[kE * kRec] = {};
  HWY_ALIGN double rec[kChunk * kRec] = {};

  for (int i = 0; i < subh; ++i)
    for (int j0 = 0; j0 < subw; j0 += kChunk) {
      const int nj = std::min(kChunk, subw - j0);
      for (int j = 0; j < nj; ++j) {
        double* out = rec + j * kRec;
        // Offsets r * 5 + c for c = c0 .. c0 + kL - 1; a store's lanes past
        // c = 4 are overwritten by the next row offset's (or are past 24).
        for (int r = 0; r < kB; ++r)
          for (int c0 = 0; c0 < kB; c0 += kL) {
            const std::size_t off = std::size_t(r + i) * std::size_t(st) + std::size_t(j0 + j + c0);
            const VD v = hn::Sub(hn::PromoteTo(d, LoadF(df, data, len, off)), hn::LoadU(d, mean_d + r * kB + c0));
            hn::StoreU(v, d, out + r * kB + c0);
          }
      }
      Blocks<0>(rec, nj, acc);
    }

  const double count = static_cast<double>(std::size_t(subw) * std::size_t(subh));
  for (int x = 0; x < kE; ++x)
    for (int y = 0; y <= x; ++y) {
      const float v = static_cast<float>(acc[x * kRec + y] / count);
      cov[x * kE + y] = v;
      cov[y * kE + x] = v;
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace vmafx::speed::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmafx::speed {
namespace simd {

HWY_EXPORT(BlockMoments);

}  // namespace simd

namespace {

void block_moments(const float* data, std::size_t len, int st, int subw, int subh, float* means, float* cov) {
  HWY_DYNAMIC_DISPATCH(simd::BlockMoments)(data, len, st, subw, subh, means, cov);
}

void to_float8(const std::uint8_t* src, int w, float* dst) { flt::simd::to_float(src, w, -128.0f, dst); }
void to_float16(const std::uint16_t* src, int w, float scaler, float* dst) {
  flt::simd::to_float(src, w, scaler, -128.0f, dst);
}

}  // namespace

void init_simd_rows(Rows& r) {
  r.block_moments = block_moments;
  r.to_float8 = to_float8;
  r.to_float16 = to_float16;
}

}  // namespace vmafx::speed
#endif  // HWY_ONCE

#else  // !VMAFX_HAVE_HWY

namespace vmafx::speed {
void init_simd_rows(Rows&) {}
}  // namespace vmafx::speed

#endif  // VMAFX_HAVE_HWY
