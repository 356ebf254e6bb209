// SPDX-License-Identifier: BSD-3-Clause
// Integer ADM on the device: the DWT, decoupling, CSF, contrast masking and
// denominator stages of the CPU reference (feature/adm.cpp), with the same
// integer widths, wrap-arounds, roundings and the same float/double steps of
// the decoupling (IEEE division, no contraction). Per-row sums are integers
// (order-free); each row's rounding shift is applied to the row's total, as
// the CPU does, and the rows are added in 64 bits.
#include <climits>

#include "feature/cuda/adm_cuda.hpp"

#define VMAFX_ADM_CONST static __constant__ const
#include "feature/adm_tables.h"

namespace vmafx::cuda::adm {
namespace {

constexpr int TX = 32, TY = 8, kThreads = TX * TY;
constexpr int kRowThreads = 256;

__device__ __forceinline__ void dwt_idx(int i, int n, int ind[4]) {
  const int half = (n + 1) / 2;
  ind[0] = 2 * i - 1;
  ind[1] = 2 * i;
  ind[2] = 2 * i + 1;
  ind[3] = 2 * i + 2;
  if (i == 0) {
    ind[0] = 1;
  } else if (i >= half - 2) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (ind[k] >= n) ind[k] = 2 * n - ind[k] - 1;
  }
}

template <class Pel, class Acc>
__global__ void __launch_bounds__(kThreads)
    dwt0_kernel(const Pel* __restrict__ src, std::ptrdiff_t stride, int w, int h, int bpc, bool lo_only,
                Bands<std::int16_t> out, int ostride) {
  const int j = blockIdx.x * TX + threadIdx.x % TX;
  const int i = blockIdx.y * TY + threadIdx.x / TX;
  const int hw = (w + 1) / 2, hh = (h + 1) / 2;
  if (j >= hw || i >= hh) return;
  int iy[4], ix[4];
  dwt_idx(i, h, iy);
  dwt_idx(j, w, ix);
  const Acc add_v = Acc(1) << (bpc - 1);
  const Acc offset = Acc(VMAFX_ADM_DWT_LO_SUM) * add_v;
  std::int16_t tl[4], th[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    Acc al = 0, ah = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const Acc u = src[std::ptrdiff_t(iy[k]) * stride + ix[c]];
      al += Acc(vmafx_adm_dwt_lo[k]) * u;
      ah += Acc(vmafx_adm_dwt_hi[k]) * u;
    }
    tl[c] = std::int16_t((al - offset + add_v) >> bpc);
    th[c] = std::int16_t((ah + add_v) >> bpc);
  }
  const std::ptrdiff_t o = std::ptrdiff_t(i) * ostride + j;
  std::int32_t acc = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) acc += vmafx_adm_dwt_lo[k] * std::int32_t(tl[k]);
  out.b[0][o] = std::int16_t((acc + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);
  if (lo_only) return;
  acc = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) acc += vmafx_adm_dwt_hi[k] * std::int32_t(tl[k]);
  out.b[2][o] = std::int16_t((acc + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);  // v
  acc = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) acc += vmafx_adm_dwt_lo[k] * std::int32_t(th[k]);
  out.b[1][o] = std::int16_t((acc + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);  // h
  acc = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) acc += vmafx_adm_dwt_hi[k] * std::int32_t(th[k]);
  out.b[3][o] = std::int16_t((acc + VMAFX_ADM_S0_H_ROUND) >> VMAFX_ADM_S0_H_SHIFT);  // d
}

template <class In>
__global__ void __launch_bounds__(kThreads) dwt123_kernel(const In* __restrict__ src, int sstride, int w, int h,
                                                          int scale, Bands<std::int32_t> out, int ostride) {
  const int j = blockIdx.x * TX + threadIdx.x % TX;
  const int i = blockIdx.y * TY + threadIdx.x / TX;
  const int hw = (w + 1) / 2, hh = (h + 1) / 2;
  if (j >= hw || i >= hh) return;
  int iy[4], ix[4];
  dwt_idx(i, h, iy);
  dwt_idx(j, w, ix);
  const long long vr = vmafx_adm_s123_v_round[scale - 1];
  const int vs = vmafx_adm_s123_v_shift[scale - 1];
  const long long hr = vmafx_adm_s123_h_round[scale - 1];
  const int hs = vmafx_adm_s123_h_shift[scale - 1];
  long long tl[4], th[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    long long al = 0, ah = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long u = src[std::ptrdiff_t(iy[k]) * sstride + ix[c]];
      al += (long long)vmafx_adm_dwt_lo[k] * u;
      ah += (long long)vmafx_adm_dwt_hi[k] * u;
    }
    tl[c] = std::int32_t((al + vr) >> vs);
    th[c] = std::int32_t((ah + vr) >> vs);
  }
  const std::ptrdiff_t o = std::ptrdiff_t(i) * ostride + j;
  long long a = 0, v = 0, hh2 = 0, d = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    a += (long long)vmafx_adm_dwt_lo[k] * tl[k];
    v += (long long)vmafx_adm_dwt_hi[k] * tl[k];
    hh2 += (long long)vmafx_adm_dwt_lo[k] * th[k];
    d += (long long)vmafx_adm_dwt_hi[k] * th[k];
  }
  out.b[0][o] = std::int32_t((a + hr) >> hs);
  out.b[2][o] = std::int32_t((v + hr) >> hs);
  out.b[1][o] = std::int32_t((hh2 + hr) >> hs);
  out.b[3][o] = std::int32_t((d + hr) >> hs);
}

// ---- decoupling and CSF ---------------------------------------------------

__device__ __forceinline__ std::int32_t abs32(std::int32_t x) {
  const std::uint32_t u = std::uint32_t(x);
  return std::int32_t(x < 0 ? 0u - u : u);
}
__device__ __forceinline__ std::int32_t sub_wrap(std::int32_t a, std::int32_t b) {
  return std::int32_t(std::uint32_t(a) - std::uint32_t(b));
}
__device__ __forceinline__ std::int32_t div_lookup(int i) {
  if (i == 0) return 0;
  const std::int32_t q = std::int32_t(VMAFX_ADM_DIV_Q / (i > 0 ? i : -i));
  return i > 0 ? q : -q;
}

__device__ __forceinline__ bool angle_within_1deg(long long ot_dp, long long o_mag_sq, long long t_mag_sq,
                                                  float cos1_sq) {
  const double dp = double(float(ot_dp)) / 4096.0;
  if (!(dp >= 0.0f)) return false;
  const double om = double(float(o_mag_sq)) / 4096.0;
  const double tm = double(float(t_mag_sq)) / 4096.0;
  return dp * dp >= double(cos1_sq) * om * tm;
}

template <class T>
__device__ __forceinline__ T limit_gain(T rst, float rst_f, T t, bool angle_flag, double egl) {
  if (angle_flag && rst_f > 0.) {
    const double x = double(rst) * egl, y = double(t);
    rst = T(x < y ? x : y);
  }
  if (angle_flag && rst_f < 0.) {
    const double x = double(rst) * egl, y = double(t);
    rst = T(x > y ? x : y);
  }
  return rst;
}

struct S0 {
  using T = std::int16_t;
  __device__ static void one(T o, T t, bool angle, double egl, T& ro, T& ao) {
    const std::int32_t tmp_k = o == 0 ? 32768 : std::int32_t(((long long)div_lookup(o) * t + 16384) >> 15);
    const std::int32_t k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
    T rst = T((k * o + 16384) >> 15);
    const float rst_f = (float(k) / 32768) * (float(o) / 64);
    rst = limit_gain<T>(rst, rst_f, t, angle, egl);
    ro = rst;
    ao = T(t - rst);
  }
  __device__ static long long dot(T a, T b, T c, T d) { return (long long)a * b + (long long)c * d; }
  __device__ static T csf(T s, int t, std::uint32_t rf) {
    const std::int32_t v = std::int32_t(rf) * std::int32_t(s);
    return T((v + vmafx_adm_s0_csf_round[t]) >> vmafx_adm_s0_csf_shift[t]);
  }
  __device__ static T flt(T d) {
    const std::int32_t ad = d < 0 ? -std::int32_t(d) : std::int32_t(d);
    return T((VMAFX_ADM_S0_ONE_BY_30 * ad + VMAFX_ADM_S0_FLT_ROUND) >> VMAFX_ADM_S0_FLT_SHIFT);
  }
  __device__ static std::int32_t centre(T ang) {
    const std::int32_t aa = ang < 0 ? -std::int32_t(ang) : std::int32_t(ang);
    return std::int32_t(T((VMAFX_ADM_S0_ONE_BY_15 * aa + VMAFX_ADM_S0_FLT_ROUND) >> VMAFX_ADM_S0_FLT_SHIFT));
  }
  __device__ static long long term(T src, int t, std::uint32_t rf, std::uint32_t thr, const StageParams& p) {
    const std::int32_t x0 = std::int32_t(src) * std::int32_t(rf);
    std::int32_t x = sub_wrap(abs32(x0), std::int32_t(thr << vmafx_adm_s0_thr_shift[t]));
    x = x < 0 ? 0 : x;
    const std::int32_t x_sq = std::int32_t(((long long)x * x + vmafx_adm_s0_sq_round[t]) >> vmafx_adm_s0_sq_shift[t]);
    return ((long long)x_sq * x + p.cm_add[t]) >> p.cm_shift[t];
  }
  __device__ static unsigned long long den(T b, const StageParams&) {
    const int ab = b < 0 ? -int(b) : int(b);
    const unsigned long long x = std::uint16_t(ab);
    return (x * x) * x;
  }
};

struct S123 {
  using T = std::int32_t;
  __device__ static void one(T o, T t, bool angle, double egl, T& ro, T& ao) {
    long long tmp_k = 32768;
    if (o != 0) {
      const std::uint32_t abs_o = std::uint32_t(abs32(o));
      const long long sign = o < 0 ? -1 : 1;
      int shift = 0;
      std::uint16_t msb;
      if (abs_o < 32768) {
        msb = std::uint16_t(abs_o);
      } else {
        shift = 17 - __clz(abs_o);
        msb = std::uint16_t((abs_o + (1u << (shift - 1))) >> shift);
      }
      tmp_k = (((long long)div_lookup(msb) * t) * sign + (1ll << (14 + shift))) >> (15 + shift);
    }
    const long long k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
    T rst = T((k * o + 16384) >> 15);
    const float rst_f = (float(k) / 32768) * (float(o) / 64);
    rst = limit_gain<T>(rst, rst_f, t, angle, egl);
    ro = rst;
    ao = sub_wrap(t, rst);
  }
  __device__ static long long dot(T a, T b, T c, T d) {
    return (long long)((unsigned long long)((long long)a * b) + (unsigned long long)((long long)c * d));
  }
  __device__ static T csf(T s, int, std::uint32_t rf) {
    return T(((long long)rf * s + VMAFX_ADM_S123_CSF_ROUND) >> VMAFX_ADM_S123_CSF_SHIFT);
  }
  __device__ static T flt(T d) {
    return T(((long long)VMAFX_ADM_S123_ONE_BY_30 * abs32(d) + (long long)VMAFX_ADM_S123_FLT_ROUND) >>
             VMAFX_ADM_S123_FLT_SHIFT);
  }
  __device__ static std::int32_t centre(T ang) {
    return std::int32_t(((long long)VMAFX_ADM_S123_ONE_BY_15 * abs32(ang) + (long long)VMAFX_ADM_S123_FLT_ROUND) >>
                        VMAFX_ADM_S123_FLT_SHIFT);
  }
  __device__ static long long term(T src, int t, std::uint32_t rf, std::uint32_t thr, const StageParams& p) {
    const std::int32_t x0 =
        std::int32_t(((long long)src * (long long)rf + VMAFX_ADM_S123_CSF_ROUND) >> VMAFX_ADM_S123_CSF_SHIFT);
    std::int32_t x = sub_wrap(abs32(x0), std::int32_t(thr));
    x = x < 0 ? 0 : x;
    const std::int32_t x_sq = std::int32_t(((long long)x * x + VMAFX_ADM_S123_SQ_ROUND) >> VMAFX_ADM_S123_SQ_SHIFT);
    return ((long long)x_sq * x + p.cm_add[t]) >> p.cm_shift[t];
  }
  __device__ static unsigned long long den(T b, const StageParams& p) {
    const unsigned long long x = std::uint32_t(abs32(b));
    return ((((x * x) + p.den_sq_add) >> p.den_sq_shift) * x + (unsigned long long)p.den_cub_add) >> p.den_cub_shift;
  }
};

// Work planes: [0..2] r (h, v, d), [3..5] a, [6..8] flt of csf(a), [9..11] flt of csf(r).
template <class S>
__global__ void __launch_bounds__(kThreads) decouple_kernel(Bands<typename S::T> ref, Bands<typename S::T> dis,
                                                            typename S::T* __restrict__ work, StageParams p) {
  using T = typename S::T;
  const int j = p.filter.left + blockIdx.x * TX + threadIdx.x % TX;
  const int i = p.filter.top + blockIdx.y * TY + threadIdx.x / TX;
  if (j >= p.filter.right || i >= p.filter.bottom) return;
  const std::ptrdiff_t plane = std::ptrdiff_t(p.stride) * p.h;
  const std::ptrdiff_t q = std::ptrdiff_t(i) * p.stride + j;
  const T o[3] = {ref.b[1][q], ref.b[2][q], ref.b[3][q]};
  const T t[3] = {dis.b[1][q], dis.b[2][q], dis.b[3][q]};
  const bool angle = angle_within_1deg(S::dot(o[0], t[0], o[1], t[1]), S::dot(o[0], o[0], o[1], o[1]),
                                       S::dot(t[0], t[0], t[1], t[1]), p.cos1_sq);
#pragma unroll
  for (int b = 0; b < 3; ++b) {
    T r, a;
    S::one(o[b], t[b], angle, p.egl, r, a);
    work[b * plane + q] = r;
    work[(3 + b) * plane + q] = a;
    work[(6 + b) * plane + q] = S::flt(S::csf(a, b, p.rf[b]));
    work[(9 + b) * plane + q] = S::flt(S::csf(r, b, p.rf[b]));
  }
}

template <class V>
__device__ __forceinline__ V row_sum(V v, V* sh) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  __syncthreads();
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
  __syncthreads();
  V t = 0;
  if (threadIdx.x == 0)
    for (int k = 0; k < kRowThreads / 32; ++k) t += sh[k];
  return t;
}

// One block per row of the score region.
template <class S>
__global__ void __launch_bounds__(kRowThreads)
    mask_kernel(Bands<typename S::T> ref, const typename S::T* __restrict__ work, StageParams p,
                long long* __restrict__ out) {
  using T = typename S::T;
  __shared__ unsigned long long sh[kRowThreads / 32];
  const int i = p.score.top + blockIdx.x;
  const std::ptrdiff_t plane = std::ptrdiff_t(p.stride) * p.h;
  const int im = i == 0 ? 1 : i - 1;
  const int ip = i == p.h - 1 ? p.h - 1 : i + 1;
  const std::ptrdiff_t rm = std::ptrdiff_t(im) * p.stride, r0 = std::ptrdiff_t(i) * p.stride,
                       rp = std::ptrdiff_t(ip) * p.stride;
  unsigned long long den[3] = {0, 0, 0};
  long long num[3] = {0, 0, 0}, aim[3] = {0, 0, 0};
  for (int j = p.score.left + threadIdx.x; j < p.score.right; j += kRowThreads) {
    const int jm = j == 0 ? 1 : j - 1;
    const int jp = j == p.w - 1 ? p.w - 1 : j + 1;
#pragma unroll
    for (int b = 0; b < 3; ++b) den[b] += S::den(ref.b[1 + b][r0 + j], p);
      // Two pipelines: num (src r, masker a) and aim (src a, masker r).
#pragma unroll
    for (int pipe = 0; pipe < 2; ++pipe) {
      if (pipe == 1 && !p.aim) break;
      const T* src = work + (pipe == 0 ? 0 : 3) * plane;
      const T* msk = work + (pipe == 0 ? 3 : 0) * plane;
      const T* flt = work + (pipe == 0 ? 6 : 9) * plane;
      std::uint32_t thr = 0;
#pragma unroll
      for (int b = 0; b < 3; ++b) {
        const T* f = flt + b * plane;
        const std::uint32_t nb = std::uint32_t(f[rm + jm]) + std::uint32_t(f[rm + j]) + std::uint32_t(f[rm + jp]) +
                                 std::uint32_t(f[r0 + jm]) + std::uint32_t(f[r0 + jp]) + std::uint32_t(f[rp + jm]) +
                                 std::uint32_t(f[rp + j]) + std::uint32_t(f[rp + jp]);
        const std::int32_t c = S::centre(S::csf(msk[b * plane + r0 + j], b, p.rf[b]));
        thr += nb + std::uint32_t(c);
      }
#pragma unroll
      for (int b = 0; b < 3; ++b) {
        const long long v = S::term(src[b * plane + r0 + j], b, p.rf[b], thr, p);
        if (pipe == 0)
          num[b] += v;
        else
          aim[b] += v;
      }
    }
  }
  unsigned long long tot[9];
#pragma unroll
  for (int b = 0; b < 3; ++b) {
    tot[b] = row_sum<unsigned long long>(den[b], sh);
    tot[3 + b] = row_sum<unsigned long long>((unsigned long long)num[b], sh);
    tot[6 + b] = row_sum<unsigned long long>((unsigned long long)aim[b], sh);
  }
  if (threadIdx.x == 0) {
    for (int b = 0; b < 3; ++b) {
      atomicAdd(reinterpret_cast<unsigned long long*>(out + b), (tot[b] + p.den_add) >> p.den_shift);
      atomicAdd(reinterpret_cast<unsigned long long*>(out + 3 + b),
                (unsigned long long)(((long long)tot[3 + b] + p.row_add) >> p.row_shift));
      atomicAdd(reinterpret_cast<unsigned long long*>(out + 6 + b),
                (unsigned long long)(((long long)tot[6 + b] + p.row_add) >> p.row_shift));
    }
  }
}

template <class S>
void stage(Bands<typename S::T> ref, Bands<typename S::T> dis, typename S::T* work, const StageParams& p,
           long long* out, cudaStream_t s) {
  const int fw = p.filter.right - p.filter.left, fh = p.filter.bottom - p.filter.top;
  if (fw > 0 && fh > 0) {
    const dim3 grid((fw + TX - 1) / TX, (fh + TY - 1) / TY);
    decouple_kernel<S><<<grid, kThreads, 0, s>>>(ref, dis, work, p);
  }
  const int rows = p.score.bottom - p.score.top;
  if (rows > 0) mask_kernel<S><<<rows, kRowThreads, 0, s>>>(ref, work, p, out);
}

}  // namespace

void dwt0(const void* src, std::ptrdiff_t stride, int w, int h, int bpc, bool lo_only, Bands<std::int16_t> out,
          int ostride, cudaStream_t s) {
  const dim3 grid(((w + 1) / 2 + TX - 1) / TX, ((h + 1) / 2 + TY - 1) / TY);
  if (bpc == 8)
    dwt0_kernel<std::uint8_t, std::int32_t>
        <<<grid, kThreads, 0, s>>>(static_cast<const std::uint8_t*>(src), stride, w, h, bpc, lo_only, out, ostride);
  else
    dwt0_kernel<std::uint16_t, long long>
        <<<grid, kThreads, 0, s>>>(static_cast<const std::uint16_t*>(src), stride, w, h, bpc, lo_only, out, ostride);
}

void dwt123(const void* src, int sstride, int w, int h, int scale, Bands<std::int32_t> out, int ostride,
            cudaStream_t s) {
  const dim3 grid(((w + 1) / 2 + TX - 1) / TX, ((h + 1) / 2 + TY - 1) / TY);
  if (scale == 1)
    dwt123_kernel<std::int16_t>
        <<<grid, kThreads, 0, s>>>(static_cast<const std::int16_t*>(src), sstride, w, h, scale, out, ostride);
  else
    dwt123_kernel<std::int32_t>
        <<<grid, kThreads, 0, s>>>(static_cast<const std::int32_t*>(src), sstride, w, h, scale, out, ostride);
}

void stage0(Bands<std::int16_t> ref, Bands<std::int16_t> dis, std::int16_t* work, const StageParams& p, long long* out,
            cudaStream_t s) {
  stage<S0>(ref, dis, work, p, out, s);
}

void stage123(Bands<std::int32_t> ref, Bands<std::int32_t> dis, std::int32_t* work, const StageParams& p,
              long long* out, cudaStream_t s) {
  stage<S123>(ref, dis, work, p, out, s);
}

}  // namespace vmafx::cuda::adm
