// SPDX-License-Identifier: BSD-3-Clause
// Integer ADM on the device: the DWT, decoupling, CSF, contrast masking and
// denominator stages of the CPU reference (feature/adm.cpp), every per-sample
// step from exact/adm.h (the decoupling's float/double steps in IEEE
// arithmetic, --fmad=false). Per-row sums are integers (order-free); each
// row's rounding shift is applied to the row's total, as the CPU does, and
// the rows are added in 64 bits.

#include "exact/adm.h"
#include "feature/cuda/adm_cuda.hpp"

namespace vmafx::cuda::adm {
namespace {

constexpr int TX = 32, TY = 8, kThreads = TX * TY;
constexpr int kRowThreads = 256;

// One output (i, j) of a DWT step from the 4 x 4 input samples its taps
// reach (exact/adm.h's mirroring), both passes: scale 0 makes int16 bands
// from samples of bpc bits (with lo_only, only the approximation band),
// scales 1..3 int32 bands with their roundings.
template <class In, class Out>
__global__ void __launch_bounds__(kThreads) dwt_kernel(const In* __restrict__ src, std::ptrdiff_t stride, int w, int h,
                                                       int scale, int bpc, bool lo_only, Bands<Out> out, int ostride) {
  const int j = blockIdx.x * TX + threadIdx.x % TX;
  const int i = blockIdx.y * TY + threadIdx.x / TX;
  if (j >= (w + 1) / 2 || i >= (h + 1) / 2) return;
  const int s = scale > 0 ? scale - 1 : 0;
  const long long vr = vmafx_adm_s123_v_round[s], hr = vmafx_adm_s123_h_round[s];
  const int vs = vmafx_adm_s123_v_shift[s], hs = vmafx_adm_s123_h_shift[s];
  std::int32_t l[4], g[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const In* col = src + vmafx_adm_dwt_src(j, c, w);
    long long u[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) u[k] = col[std::ptrdiff_t(vmafx_adm_dwt_src(i, k, h)) * stride];
    l[c] = scale == 0 ? vmafx_adm_dwt0_vlo(u[0], u[1], u[2], u[3], bpc)
                      : vmafx_adm_dwt123_lo(u[0], u[1], u[2], u[3], vr, vs);
    g[c] = scale == 0 ? vmafx_adm_dwt0_vhi(u[0], u[1], u[2], u[3], bpc)
                      : vmafx_adm_dwt123_hi(u[0], u[1], u[2], u[3], vr, vs);
  }
  const std::ptrdiff_t o = std::ptrdiff_t(i) * ostride + j;
  if (scale == 0) {
    out.b[0][o] = Out(vmafx_adm_dwt0_hlo(l[0], l[1], l[2], l[3]));
    if (lo_only) return;
    out.b[1][o] = Out(vmafx_adm_dwt0_hlo(g[0], g[1], g[2], g[3]));
    out.b[2][o] = Out(vmafx_adm_dwt0_hhi(l[0], l[1], l[2], l[3]));
    out.b[3][o] = Out(vmafx_adm_dwt0_hhi(g[0], g[1], g[2], g[3]));
  } else {
    out.b[0][o] = Out(vmafx_adm_dwt123_lo(l[0], l[1], l[2], l[3], hr, hs));
    out.b[1][o] = Out(vmafx_adm_dwt123_lo(g[0], g[1], g[2], g[3], hr, hs));
    out.b[2][o] = Out(vmafx_adm_dwt123_hi(l[0], l[1], l[2], l[3], hr, hs));
    out.b[3][o] = Out(vmafx_adm_dwt123_hi(g[0], g[1], g[2], g[3], hr, hs));
  }
}

// ---- decoupling, CSF, masking and denominator terms (exact/adm.h) ----------

struct S0 {
  using T = std::int16_t;
  __device__ static T restore(T o, T t, int angle, double egl) {
    return T(vmafx_adm_s0_restore(o, t, vmafx_adm_div(o), angle, egl));
  }
  __device__ static T additive(T t, T r) { return T(t - r); }
  __device__ static std::int32_t csf(T s, int b, std::uint32_t rf) { return vmafx_adm_s0_csf(s, b, std::int32_t(rf)); }
  __device__ static std::int32_t flt(std::int32_t d) { return vmafx_adm_s0_flt(d); }
  __device__ static std::int32_t centre(std::int32_t d) { return vmafx_adm_s0_centre(d); }
  __device__ static long long term(T src, int b, std::uint32_t rf, std::uint32_t thr, const StageParams& p) {
    return vmafx_adm_s0_cm_term(src, b, std::int32_t(rf), thr, p.cm_add[b], p.cm_shift[b]);
  }
  __device__ static unsigned long long den(T b, const StageParams&) { return vmafx_adm_s0_den(b); }
};

struct S123 {
  using T = std::int32_t;
  __device__ static T restore(T o, T t, int angle, double egl) {
    int shift;
    const std::int32_t idx = vmafx_adm_s123_div_index(o, &shift);
    return vmafx_adm_s123_restore(o, t, vmafx_adm_div(idx), shift, angle, egl);
  }
  __device__ static T additive(T t, T r) { return vmafx_adm_sub32(t, r); }
  __device__ static std::int32_t csf(T s, int, std::uint32_t rf) { return vmafx_adm_s123_csf(s, rf); }
  __device__ static std::int32_t flt(std::int32_t d) { return vmafx_adm_s123_flt(d); }
  __device__ static std::int32_t centre(std::int32_t d) { return vmafx_adm_s123_centre(d); }
  __device__ static long long term(T src, int b, std::uint32_t rf, std::uint32_t thr, const StageParams& p) {
    return vmafx_adm_s123_cm_term(src, rf, thr, p.cm_add[b], p.cm_shift[b]);
  }
  __device__ static unsigned long long den(T b, const StageParams& p) {
    return vmafx_adm_s123_den(b, p.den_sq_shift, (unsigned long long)p.den_cub_add, p.den_cub_shift);
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
  const int angle = vmafx_adm_angle_ok(vmafx_adm_dot2(o[0], t[0], o[1], t[1]), vmafx_adm_dot2(o[0], o[0], o[1], o[1]),
                                       vmafx_adm_dot2(t[0], t[0], t[1], t[1]), p.cos1_sq);
#pragma unroll
  for (int b = 0; b < 3; ++b) {
    const T r = S::restore(o[b], t[b], angle, p.egl), a = S::additive(t[b], r);
    work[b * plane + q] = r;
    work[(3 + b) * plane + q] = a;
    work[(6 + b) * plane + q] = T(S::flt(S::csf(a, b, p.rf[b])));
    work[(9 + b) * plane + q] = T(S::flt(S::csf(r, b, p.rf[b])));
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
        const std::uint32_t nb = vmafx_adm_ring8(f[rm + jm], f[rm + j], f[rm + jp], f[r0 + jm], f[r0 + jp], f[rp + jm],
                                                 f[rp + j], f[rp + jp]);
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
    dwt_kernel<<<grid, kThreads, 0, s>>>(static_cast<const std::uint8_t*>(src), stride, w, h, 0, bpc, lo_only, out,
                                         ostride);
  else
    dwt_kernel<<<grid, kThreads, 0, s>>>(static_cast<const std::uint16_t*>(src), stride, w, h, 0, bpc, lo_only, out,
                                         ostride);
}

void dwt123(const void* src, int sstride, int w, int h, int scale, Bands<std::int32_t> out, int ostride,
            cudaStream_t s) {
  const dim3 grid(((w + 1) / 2 + TX - 1) / TX, ((h + 1) / 2 + TY - 1) / TY);
  if (scale == 1)
    dwt_kernel<<<grid, kThreads, 0, s>>>(static_cast<const std::int16_t*>(src), sstride, w, h, scale, 0, false, out,
                                         ostride);
  else
    dwt_kernel<<<grid, kThreads, 0, s>>>(static_cast<const std::int32_t*>(src), sstride, w, h, scale, 0, false, out,
                                         ostride);
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
