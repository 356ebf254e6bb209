// SPDX-License-Identifier: BSD-3-Clause
// Integer VIF on the device. Every step is integer arithmetic except the
// log-branch gain terms, which are the CPU's double operations in the same
// order (IEEE division, no contraction: --fmad=false) or, for GPUs with slow
// fp64, the integer path of design record 003; the per-pixel shares are
// integers and their sums are order-independent, so the accumulators equal
// the CPU's. The per-pixel and tile arithmetic is src/exact's (vif.h,
// vif_tile.h), shared with the CPU and the OpenCL twin.
#include <climits>
#include <cstring>
#include <type_traits>

#include "feature/cuda/vif_cuda.hpp"

#define VMAFX_VIF_CONST static __device__ const
#include "exact/vif_tables.h"
#include "exact/vif_tile.h"

namespace vmafx::cuda::vif {
namespace {

constexpr int TX = 32;  // outputs per tile, x
constexpr int TY = 8;   // outputs per tile, y
constexpr int kThreads = TX * TY;

struct Params {
  int w, h;
  long long stride;  // samples
  unsigned mu_round;
  int mu_shift;
  unsigned long long sq_round;
  int sq_shift;
  double gain_limit;
  vmafx_vif_limit limit;  // the same limit, for the integer path
  unsigned short c[VMAFX_VIF_MAX_TAPS];
};

// One pixel's share (vif.cpp accumulate). kInt: the gain's two integers from
// the integer path of src/exact (no fp64).
template <bool kInt>
__device__ __forceinline__ void accumulate(vmafx_vif_sums& a, std::int32_t s1, std::int32_t s2, std::int32_t s12,
                                           const Params& p) {
  vmafx_vif_accumulate(&a, s1, s2, s12, vmafx_vif_log2_table, p.limit, !kInt, p.gain_limit);
}

__device__ __forceinline__ long long block_sum(long long v, long long* sh) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  __syncthreads();
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  long long t = 0;
  if (threadIdx.x == 0)
    for (int k = 0; k < kThreads / 32; ++k) t += sh[k];
  return t;
}

// The block's four sums into acc (thread 0; integers, so in any order).
__device__ __forceinline__ void block_add(const vmafx_vif_sums& a, long long* red, long long* __restrict__ acc) {
  const long long s0 = block_sum(a.num_log, red);
  const long long s1 = block_sum(a.den_log, red);
  const long long s2 = block_sum(a.num_non_log, red);
  const long long s3 = block_sum(a.den_non_log, red);
  if (threadIdx.x == 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(acc + 0), (unsigned long long)s0);
    atomicAdd(reinterpret_cast<unsigned long long*>(acc + 1), (unsigned long long)s1);
    atomicAdd(reinterpret_cast<unsigned long long*>(acc + 2), (unsigned long long)s2);
    atomicAdd(reinterpret_cast<unsigned long long*>(acc + 3), (unsigned long long)s3);
  }
}

// Statistic of one scale: a TX x TY tile of outputs per block.
template <class T, int TAPS, bool kInt>
__global__ void __launch_bounds__(kThreads)
    stat_kernel(const T* __restrict__ ref, const T* __restrict__ dis, Params p, long long* __restrict__ acc) {
  constexpr int H = TAPS / 2;
  constexpr int IW = TX + 2 * H, IH = TY + 2 * H;
  __shared__ std::uint32_t sr[IH][IW], sd[IH][IW];
  __shared__ std::uint32_t vm1[TY][IW], vm2[TY][IW], vxx[TY][IW], vyy[TY][IW], vxy[TY][IW];
  __shared__ long long red[kThreads / 32];
  const int tid = threadIdx.x;
  const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;

  for (int q = tid; q < IH * IW; q += kThreads) {
    const int r = q / IW, c = q % IW;
    const long long off = (long long)vmafx_vif_mirror(y0 - H + r, p.h) * p.stride + vmafx_vif_mirror(x0 - H + c, p.w);
    sr[r][c] = ref[off];
    sd[r][c] = dis[off];
  }
  __syncthreads();

  for (int q = tid; q < TY * IW; q += kThreads) {
    const int r = q / IW, c = q % IW;
    std::uint32_t mu1 = 0, mu2 = 0;
    // 8-bit samples: sum c[k] a^2 <= 65536 * 255^2 < 2^32, so the second
    // moments are exact in 32 bits (the CPU's 64-bit sums hold the same value).
    using Wide = typename std::conditional<sizeof(T) == 1, std::uint32_t, unsigned long long>::type;
    Wide xx = 0, yy = 0, xy = 0;
#pragma unroll
    for (int k = 0; k < TAPS; ++k) {
      const std::uint32_t a = sr[r + k][c], b = sd[r + k][c];
      const std::uint32_t ca = p.c[k] * a, cb = p.c[k] * b;
      mu1 += ca;
      mu2 += cb;
      xx += Wide(ca) * a;
      yy += Wide(cb) * b;
      xy += Wide(ca) * b;
    }
    vm1[r][c] = std::uint16_t((mu1 + p.mu_round) >> p.mu_shift);
    vm2[r][c] = std::uint16_t((mu2 + p.mu_round) >> p.mu_shift);
    vxx[r][c] = std::uint32_t((xx + p.sq_round) >> p.sq_shift);
    vyy[r][c] = std::uint32_t((yy + p.sq_round) >> p.sq_shift);
    vxy[r][c] = std::uint32_t((xy + p.sq_round) >> p.sq_shift);
  }
  __syncthreads();

  vmafx_vif_sums a = {0, 0, 0, 0};
  const int tx = tid % TX, ty = tid / TX;
  if (x0 + tx < p.w && y0 + ty < p.h) {
    std::uint32_t mu1 = 0, mu2 = 0;
    unsigned long long xx = 0, yy = 0, xy = 0;
#pragma unroll
    for (int k = 0; k < TAPS; ++k) {
      const std::uint32_t ck = p.c[k];
      mu1 += ck * vm1[ty][tx + k];
      mu2 += ck * vm2[ty][tx + k];
      xx += (unsigned long long)ck * vxx[ty][tx + k];
      yy += (unsigned long long)ck * vyy[ty][tx + k];
      xy += (unsigned long long)ck * vxy[ty][tx + k];
    }
    accumulate<kInt>(a, vmafx_vif_sigma(xx, mu1, mu1), vmafx_vif_sigma(yy, mu2, mu2), vmafx_vif_sigma(xy, mu1, mu2), p);
  }
  block_add(a, red, acc);
}

// Scale 0 (17 taps), the bulk of the work: the same arithmetic as
// stat_kernel with register blocking. A block scores a 32 x 32 tile; in the
// vertical pass a thread slides down one column for 8 output rows (24 input
// loads instead of 8 x 17), in the horizontal pass it scores 4 adjacent
// outputs from 20 loads per moment. Sums are integers, so the result is the
// same whatever the blocking.
constexpr int S0_TX = 32, S0_TY = 32, S0_H = 8;
constexpr int S0_IW = S0_TX + 2 * S0_H, S0_IH = S0_TY + 2 * S0_H;  // 48 x 48 input tile
constexpr int S0_VS = S0_IW + 1;  // row stride of the vertical results (no bank conflicts)
constexpr int S0_ROWS = 8;        // output rows per thread in the vertical pass
constexpr int S0_XS = 4;          // outputs per thread in the horizontal pass

template <class T, bool kInt>
__global__ void __launch_bounds__(kThreads)
    stat17_kernel(const T* __restrict__ ref, const T* __restrict__ dis, Params p, long long* __restrict__ acc) {
  __shared__ std::uint16_t sr[S0_IH][S0_IW], sd[S0_IH][S0_IW];
  __shared__ std::uint32_t vm1[S0_TY][S0_VS], vm2[S0_TY][S0_VS], vxx[S0_TY][S0_VS], vyy[S0_TY][S0_VS],
      vxy[S0_TY][S0_VS];
  __shared__ long long red[kThreads / 32];
  const int tid = threadIdx.x;
  const int x0 = blockIdx.x * S0_TX, y0 = blockIdx.y * S0_TY;

  for (int q = tid; q < S0_IH * S0_IW; q += kThreads) {
    const int r = q / S0_IW, c = q % S0_IW;
    const long long off =
        (long long)vmafx_vif_mirror(y0 - S0_H + r, p.h) * p.stride + vmafx_vif_mirror(x0 - S0_H + c, p.w);
    sr[r][c] = ref[off];
    sd[r][c] = dis[off];
  }
  __syncthreads();

  // Vertical: thread (column c, row group g) makes rows g*8 .. g*8+7.
  if (tid < S0_IW * (S0_TY / S0_ROWS)) {
    const int c = tid % S0_IW, g = tid / S0_IW;
    std::uint32_t a[S0_ROWS + 2 * S0_H], b[S0_ROWS + 2 * S0_H];
#pragma unroll
    for (int k = 0; k < S0_ROWS + 2 * S0_H; ++k) {
      a[k] = sr[g * S0_ROWS + k][c];
      b[k] = sd[g * S0_ROWS + k][c];
    }
    using Wide = typename std::conditional<sizeof(T) == 1, std::uint32_t, unsigned long long>::type;
#pragma unroll
    for (int r = 0; r < S0_ROWS; ++r) {
      std::uint32_t mu1 = 0, mu2 = 0;
      Wide xx = 0, yy = 0, xy = 0;
#pragma unroll
      for (int k = 0; k < 2 * S0_H + 1; ++k) {
        const std::uint32_t ca = p.c[k] * a[r + k], cb = p.c[k] * b[r + k];
        mu1 += ca;
        mu2 += cb;
        xx += Wide(ca) * a[r + k];
        yy += Wide(cb) * b[r + k];
        xy += Wide(ca) * b[r + k];
      }
      const int row = g * S0_ROWS + r;
      vm1[row][c] = std::uint16_t((mu1 + p.mu_round) >> p.mu_shift);
      vm2[row][c] = std::uint16_t((mu2 + p.mu_round) >> p.mu_shift);
      vxx[row][c] = std::uint32_t((xx + p.sq_round) >> p.sq_shift);
      vyy[row][c] = std::uint32_t((yy + p.sq_round) >> p.sq_shift);
      vxy[row][c] = std::uint32_t((xy + p.sq_round) >> p.sq_shift);
    }
  }
  __syncthreads();

  // Horizontal: thread (row ty, group xg) scores x = xg*4 .. xg*4+3.
  const int ty = tid / (S0_TX / S0_XS), xg = tid % (S0_TX / S0_XS);
  const int xb = xg * S0_XS;
  std::uint32_t mu1[S0_XS], mu2[S0_XS];
  unsigned long long xx[S0_XS], yy[S0_XS], xy[S0_XS];
#pragma unroll
  for (int j = 0; j < S0_XS; ++j) {
    mu1[j] = mu2[j] = 0;
    xx[j] = yy[j] = xy[j] = 0;
  }
  {
    std::uint32_t v[S0_XS + 2 * S0_H];
#pragma unroll
    for (int k = 0; k < S0_XS + 2 * S0_H; ++k) v[k] = vm1[ty][xb + k];
#pragma unroll
    for (int j = 0; j < S0_XS; ++j)
#pragma unroll
      for (int k = 0; k < 2 * S0_H + 1; ++k) mu1[j] += std::uint32_t(p.c[k]) * v[j + k];
#pragma unroll
    for (int k = 0; k < S0_XS + 2 * S0_H; ++k) v[k] = vm2[ty][xb + k];
#pragma unroll
    for (int j = 0; j < S0_XS; ++j)
#pragma unroll
      for (int k = 0; k < 2 * S0_H + 1; ++k) mu2[j] += std::uint32_t(p.c[k]) * v[j + k];
#pragma unroll
    for (int k = 0; k < S0_XS + 2 * S0_H; ++k) v[k] = vxx[ty][xb + k];
#pragma unroll
    for (int j = 0; j < S0_XS; ++j)
#pragma unroll
      for (int k = 0; k < 2 * S0_H + 1; ++k) xx[j] += (unsigned long long)p.c[k] * v[j + k];
#pragma unroll
    for (int k = 0; k < S0_XS + 2 * S0_H; ++k) v[k] = vyy[ty][xb + k];
#pragma unroll
    for (int j = 0; j < S0_XS; ++j)
#pragma unroll
      for (int k = 0; k < 2 * S0_H + 1; ++k) yy[j] += (unsigned long long)p.c[k] * v[j + k];
#pragma unroll
    for (int k = 0; k < S0_XS + 2 * S0_H; ++k) v[k] = vxy[ty][xb + k];
#pragma unroll
    for (int j = 0; j < S0_XS; ++j)
#pragma unroll
      for (int k = 0; k < 2 * S0_H + 1; ++k) xy[j] += (unsigned long long)p.c[k] * v[j + k];
  }
  vmafx_vif_sums a = {0, 0, 0, 0};
#pragma unroll
  for (int j = 0; j < S0_XS; ++j)
    if (x0 + xb + j < p.w && y0 + ty < p.h)
      accumulate<kInt>(a, vmafx_vif_sigma(xx[j], mu1[j], mu1[j]), vmafx_vif_sigma(yy[j], mu2[j], mu2[j]),
                       vmafx_vif_sigma(xy[j], mu1[j], mu2[j]), p);
  block_add(a, red, acc);
}

// Scale 0, 8-bit, the tiled "v2" kernel: a 112 x 16 tile per block
// (vertical sums over 128 columns for 112 outputs instead of 48 for 32), the
// symmetric taps paired, 8-byte loads of interior tiles. The tile arithmetic
// is src/exact/vif_tile.h's (shared with OpenCL and a host test of this
// tiling), which says why every integer equals the CPU's.
template <bool kInt>
__global__ void __launch_bounds__(VMAFX_VIF_TILE_ITEMS)
    stat17_v2_kernel(const std::uint8_t* __restrict__ ref, const std::uint8_t* __restrict__ dis, Params p,
                     int vector_loads, long long* __restrict__ acc) {
  constexpr int IW = VMAFX_VIF_V2_IW, IH = VMAFX_VIF_V2_IH, TY = VMAFX_VIF_TILE_TY, VS = VMAFX_VIF_V2_VS;
  constexpr int XS = VMAFX_VIF_V2_XS;
  static_assert(VMAFX_VIF_TILE_ITEMS == kThreads, "one item per thread");
  __shared__ __align__(16) std::uint8_t sr[IH][IW];
  __shared__ __align__(16) std::uint8_t sd[IH][IW];
  __shared__ std::uint16_t vm1[TY][VS], vm2[TY][VS];
  __shared__ std::uint32_t vxx[TY][VS], vyy[TY][VS], vxy[TY][VS];
  __shared__ long long red[kThreads / 32];
  const int tid = threadIdx.x;
  const int x0 = blockIdx.x * VMAFX_VIF_V2_TX, y0 = blockIdx.y * TY;
  const int xs = x0 - VMAFX_VIF_V2_H, ys = y0 - VMAFX_VIF_V2_H;  // input tile origin (xs: a multiple of 8)

  if (vector_loads && xs >= 0 && xs + IW <= p.w && ys >= 0 && ys + IH <= p.h) {
    // Interior: no mirroring; 16 eight-byte words per row and plane.
    constexpr int kWords = IW / 8;
    for (int q = tid; q < IH * kWords; q += kThreads) {
      const int r = q / kWords, c8 = q % kWords;
      const long long off = (long long)(ys + r) * p.stride + xs + 8 * c8;
      reinterpret_cast<uint2*>(&sr[r][0])[c8] = *reinterpret_cast<const uint2*>(ref + off);
      reinterpret_cast<uint2*>(&sd[r][0])[c8] = *reinterpret_cast<const uint2*>(dis + off);
    }
  } else {
    for (int q = tid; q < IH * IW; q += kThreads) {
      const int r = q / IW, c = q % IW;
      const long long off = (long long)vmafx_vif_mirror(ys + r, p.h) * p.stride + vmafx_vif_mirror(xs + c, p.w);
      sr[r][c] = ref[off];
      sd[r][c] = dis[off];
    }
  }
  __syncthreads();
  vmafx_vif_v2_vertical(tid, sr[0], sd[0], vm1[0], vm2[0], vxx[0], vyy[0], vxy[0]);
  __syncthreads();

  const int ty = tid / VMAFX_VIF_TILE_XG, xb = (tid % VMAFX_VIF_TILE_XG) * XS;
  std::int32_t s1[XS], s2[XS], s12[XS];
  vmafx_vif_tile_horizontal(&vm1[ty][xb], &vm2[ty][xb], &vxx[ty][xb], &vyy[ty][xb], &vxy[ty][xb], 0, VMAFX_VIF_V2_H, XS,
                            s1, s2, s12);
  vmafx_vif_sums a = {0, 0, 0, 0};
#pragma unroll
  for (int o = 0; o < XS; ++o)
    if (x0 + xb + o < p.w && y0 + ty < p.h) accumulate<kInt>(a, s1[o], s2[o], s12[o], p);
  block_add(a, red, acc);
}

// Low-pass with the next scale's filter and keep even rows and columns: a
// TX x TY tile of the (w/2) x (h/2) output per block.
template <class T, int TAPS>
__global__ void __launch_bounds__(kThreads)
    subsample_kernel(const T* __restrict__ ref, const T* __restrict__ dis, Params p,
                     std::uint16_t* __restrict__ out_ref, std::uint16_t* __restrict__ out_dis) {
  constexpr int H = TAPS / 2;
  constexpr int IW = 2 * TX + 2 * H, IH = 2 * TY + 2 * H;
  __shared__ std::uint32_t sr[IH][IW], sd[IH][IW];
  __shared__ std::uint32_t vr[TY][IW], vd[TY][IW];
  const int tid = threadIdx.x;
  const int ox0 = blockIdx.x * TX, oy0 = blockIdx.y * TY;
  const int ow = p.w / 2, oh = p.h / 2;

  for (int q = tid; q < IH * IW; q += kThreads) {
    const int r = q / IW, c = q % IW;
    const long long off =
        (long long)vmafx_vif_mirror(2 * oy0 - H + r, p.h) * p.stride + vmafx_vif_mirror(2 * ox0 - H + c, p.w);
    sr[r][c] = ref[off];
    sd[r][c] = dis[off];
  }
  __syncthreads();
  for (int q = tid; q < TY * IW; q += kThreads) {
    const int r = q / IW, c = q % IW;
    std::uint32_t a = 0, b = 0;
#pragma unroll
    for (int k = 0; k < TAPS; ++k) {
      a += p.c[k] * sr[2 * r + k][c];
      b += p.c[k] * sd[2 * r + k][c];
    }
    vr[r][c] = std::uint16_t((a + p.mu_round) >> p.mu_shift);
    vd[r][c] = std::uint16_t((b + p.mu_round) >> p.mu_shift);
  }
  __syncthreads();
  const int tx = tid % TX, ty = tid / TX;
  const int ox = ox0 + tx, oy = oy0 + ty;
  if (ox < ow && oy < oh) {
    std::uint32_t a = 0, b = 0;
#pragma unroll
    for (int k = 0; k < TAPS; ++k) {
      a += p.c[k] * vr[ty][2 * tx + k];
      b += p.c[k] * vd[ty][2 * tx + k];
    }
    out_ref[(long long)oy * ow + ox] = std::uint16_t((a + 32768) >> 16);
    out_dis[(long long)oy * ow + ox] = std::uint16_t((b + 32768) >> 16);
  }
}

Params params(int scale_filter, int shift_scale, int bpc, int w, int h, long long stride, double gain_limit,
              const std::uint16_t (*filters)[17]) {
  Params p{};
  p.w = w;
  p.h = h;
  p.stride = stride;
  if (shift_scale == 0) {
    const int sq = 2 * (bpc - 8);
    p.mu_round = 1u << (bpc - 1);
    p.mu_shift = bpc;
    p.sq_round = sq ? 1ull << (sq - 1) : 0;
    p.sq_shift = sq;
  } else {
    p.mu_round = 32768u;
    p.mu_shift = 16;
    p.sq_round = 32768u;
    p.sq_shift = 16;
  }
  p.gain_limit = gain_limit;
  std::uint64_t bits;
  static_assert(sizeof bits == sizeof gain_limit);
  std::memcpy(&bits, &gain_limit, sizeof bits);
  p.limit = vmafx_vif_limit_make(bits);
  for (int k = 0; k < VMAFX_VIF_MAX_TAPS; ++k) p.c[k] = filters[scale_filter][k];
  return p;
}

template <class T, bool kInt>
void stat_n(const T* r, const T* d, const Params& p, int scale, long long* acc, cudaStream_t s) {
  const dim3 grid((p.w + TX - 1) / TX, (p.h + TY - 1) / TY);
  switch (scale) {
    case 0:
      stat17_kernel<T, kInt>
          <<<dim3((p.w + S0_TX - 1) / S0_TX, (p.h + S0_TY - 1) / S0_TY), kThreads, 0, s>>>(r, d, p, acc);
      break;
    case 1: stat_kernel<T, 9, kInt><<<grid, kThreads, 0, s>>>(r, d, p, acc); break;
    case 2: stat_kernel<T, 5, kInt><<<grid, kThreads, 0, s>>>(r, d, p, acc); break;
    default: stat_kernel<T, 3, kInt><<<grid, kThreads, 0, s>>>(r, d, p, acc); break;
  }
}

template <class T>
void stat(const T* r, const T* d, const Params& p, int scale, long long* acc, bool int_gain, cudaStream_t s) {
  if (int_gain)
    stat_n<T, true>(r, d, p, scale, acc, s);
  else
    stat_n<T, false>(r, d, p, scale, acc, s);
}

template <class T>
void subsample(const T* r, const T* d, const Params& p, int from, std::uint16_t* o_r, std::uint16_t* o_d,
               cudaStream_t s) {
  const dim3 grid((p.w / 2 + TX - 1) / TX, (p.h / 2 + TY - 1) / TY);
  switch (from) {
    case 0: subsample_kernel<T, 9><<<grid, kThreads, 0, s>>>(r, d, p, o_r, o_d); break;
    case 1: subsample_kernel<T, 5><<<grid, kThreads, 0, s>>>(r, d, p, o_r, o_d); break;
    default: subsample_kernel<T, 3><<<grid, kThreads, 0, s>>>(r, d, p, o_r, o_d); break;
  }
}

// Whether the v2 scale-0 kernel applies: 8-bit samples and filter 0 equal to
// the taps compiled into vif_tile.h's (otherwise the original kernel runs).
bool v2_applies(int bpc, const std::uint16_t (*filters)[17]) {
  if (bpc != 8) return false;
  for (int k = 0; k < 17; ++k)
    if (filters[0][k] != vmafx_vif_tap(0, k)) return false;
  return true;
}

void stat0_v2(const std::uint8_t* r, const std::uint8_t* d, const Params& p, long long* acc, bool int_gain,
              cudaStream_t s) {
  const dim3 grid((p.w + VMAFX_VIF_V2_TX - 1) / VMAFX_VIF_V2_TX, (p.h + VMAFX_VIF_TILE_TY - 1) / VMAFX_VIF_TILE_TY);
  // Eight-byte loads need 8-byte aligned rows (the tile origin is a multiple of 8).
  const int vec = ((reinterpret_cast<std::uintptr_t>(r) | reinterpret_cast<std::uintptr_t>(d) |
                    static_cast<std::uintptr_t>(p.stride)) %
                   8) == 0;
  if (int_gain)
    stat17_v2_kernel<true><<<grid, kThreads, 0, s>>>(r, d, p, vec, acc);
  else
    stat17_v2_kernel<false><<<grid, kThreads, 0, s>>>(r, d, p, vec, acc);
}

template <class T>
void run(const T* ref, const T* dis, std::ptrdiff_t stride, int w, int h, int bpc, double limit, bool skip0,
         const std::uint16_t (*filters)[17], std::uint16_t* levels, long long* acc, bool int_gain, bool v2,
         cudaStream_t s) {
  if (!skip0) {
    if constexpr (sizeof(T) == 1) {
      if (v2 && v2_applies(bpc, filters)) {
        stat0_v2(ref, dis, params(0, 0, bpc, w, h, stride, limit, filters), acc, int_gain, s);
      } else {
        stat<T>(ref, dis, params(0, 0, bpc, w, h, stride, limit, filters), 0, acc, int_gain, s);
      }
    } else {
      stat<T>(ref, dis, params(0, 0, bpc, w, h, stride, limit, filters), 0, acc, int_gain, s);
    }
  }
  // Level buffers: two pairs of (ref, dis) planes of (w/2)(h/2) samples.
  const std::size_t n1 = std::size_t(w / 2) * std::size_t(h / 2);
  std::uint16_t* lv[2][2] = {{levels, levels + n1}, {levels + 2 * n1, levels + 3 * n1}};
  subsample<T>(ref, dis, params(1, 0, bpc, w, h, stride, limit, filters), 0, lv[0][0], lv[0][1], s);
  for (int scale = 1; scale < 4; ++scale) {
    const int sw = w >> scale, sh = h >> scale;
    std::uint16_t* const* cur = lv[(scale - 1) & 1];
    stat<std::uint16_t>(cur[0], cur[1], params(scale, scale, bpc, sw, sh, sw, limit, filters), scale, acc + 4 * scale,
                        int_gain, s);
    if (scale < 3) {
      std::uint16_t* const* next = lv[scale & 1];
      subsample<std::uint16_t>(cur[0], cur[1], params(scale + 1, scale, bpc, sw, sh, sw, limit, filters), scale,
                               next[0], next[1], s);
    }
  }
}

}  // namespace

void launch(const void* ref, const void* dis, std::ptrdiff_t stride, int w, int h, int bpc, double gain_limit,
            bool skip_scale0, const std::uint16_t (*filters)[17], std::uint16_t* levels, long long* acc, bool int_gain,
            cudaStream_t s, bool v2) {
  if (bpc == 8)
    run(static_cast<const std::uint8_t*>(ref), static_cast<const std::uint8_t*>(dis), stride, w, h, bpc, gain_limit,
        skip_scale0, filters, levels, acc, int_gain, v2, s);
  else
    run(static_cast<const std::uint16_t*>(ref), static_cast<const std::uint16_t*>(dis), stride, w, h, bpc, gain_limit,
        skip_scale0, filters, levels, acc, int_gain, v2, s);
}

}  // namespace vmafx::cuda::vif
