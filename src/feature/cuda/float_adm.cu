// SPDX-License-Identifier: BSD-3-Clause
// The float_adm twin's kernels (see float_adm_cuda.hpp). Plain IEEE float
// and double arithmetic with --fmad=false, in the reference's order.
#include <cstdint>

#include "feature/cuda/float_adm_cuda.hpp"
#include "exact/fadm_rcp.h"
#include "feature/float_adm_tables.h"

namespace vmafx::cuda::fadm {
namespace {

constexpr int kRow = 128;

__device__ __forceinline__ int dwt_index(int n, int k, int m) {
  int i = 2 * n - 1 + k;
  if (i < 0) return -i;
  if (i >= m) return 2 * m - i - 1;
  return i;
}

__device__ __forceinline__ float fir4(const float* f, float s0, float s1, float s2, float s3) {
  float acc = 0;
  acc += f[0] * s0;
  acc += f[1] * s1;
  acc += f[2] * s2;
  acc += f[3] * s3;
  return acc;
}

__global__ void dwt_kernel(const float* __restrict__ src, int sstride, int w, int h, bool lo_only,
                           const float* __restrict__ c_lo, const float* __restrict__ c_hi, float* __restrict__ a,
                           float* __restrict__ v, float* __restrict__ hb, float* __restrict__ d) {
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= ow || i >= oh) return;
  const float* r[4];
  for (int k = 0; k < 4; ++k) r[k] = src + std::ptrdiff_t(dwt_index(i, k, h)) * sstride;
  float lo[4], hi[4];
  for (int k = 0; k < 4; ++k) {
    const int x = dwt_index(j, k, w);
    lo[k] = fir4(c_lo, r[0][x], r[1][x], r[2][x], r[3][x]);
    if (!lo_only) hi[k] = fir4(c_hi, r[0][x], r[1][x], r[2][x], r[3][x]);
  }
  const std::size_t o = std::size_t(i) * ow + j;
  a[o] = fir4(c_lo, lo[0], lo[1], lo[2], lo[3]);
  if (lo_only) return;
  v[o] = fir4(c_hi, lo[0], lo[1], lo[2], lo[3]);
  hb[o] = fir4(c_lo, hi[0], hi[1], hi[2], hi[3]);
  d[o] = fir4(c_hi, hi[0], hi[1], hi[2], hi[3]);
}

// libvmaf's DIVS(n, d) of the chosen variant (flt::adm_divide): n times the
// RCPSS estimate refined by one Newton step, or the correctly rounded quotient.
__device__ __forceinline__ float adm_divide(float n, float d, int cpu) {
  if (cpu == VMAFX_LIBVMAF_CPU_GENERIC) return __fdiv_rn(n, d);
  const float xi = __uint_as_float(vmafx_fadm_rcp_estimate_bits(__float_as_uint(d), cpu));
  return n * (xi + xi * (1.0f - d * xi));
}

__device__ __forceinline__ float limit(float rst, float t, bool angle, double gain_limit) {
  if (angle && rst > 0.0) {
    const double x = rst * gain_limit;
    rst = static_cast<float>(x < t ? x : static_cast<double>(t));
  }
  if (angle && rst < 0.0) {
    const double x = rst * gain_limit;
    rst = static_cast<float>(x > t ? x : static_cast<double>(t));
  }
  return rst;
}

__global__ void decouple_kernel(ScaleArgs s, Triple o_, Triple t_, Triple rst_, Triple add_) {
  const int j = s.filter.left + int(blockIdx.x * blockDim.x + threadIdx.x), i = s.filter.top + int(blockIdx.y);
  if (j >= s.filter.right || i >= s.filter.bottom) return;
  const std::size_t q = std::size_t(i) * s.w + j;
  const float oh = o_.p[0][q], ov = o_.p[1][q], od = o_.p[2][q];
  const float th = t_.p[0][q], tv = t_.p[1][q], td = t_.p[2][q];
  const float eps = s.eps;
  float kh = adm_divide(th, oh + eps, s.cpu);
  float kv = adm_divide(tv, ov + eps, s.cpu);
  float kd = adm_divide(td, od + eps, s.cpu);
  kh = kh < 0.0f ? 0.0f : (kh > 1.0f ? 1.0f : kh);
  kv = kv < 0.0f ? 0.0f : (kv > 1.0f ? 1.0f : kv);
  kd = kd < 0.0f ? 0.0f : (kd > 1.0f ? 1.0f : kd);
  float rst_h = kh * oh, rst_v = kv * ov, rst_d = kd * od;
  const float ot_dp = oh * th + ov * tv;
  const float o_mag_sq = oh * oh + ov * ov;
  const float t_mag_sq = th * th + tv * tv;
  const bool angle = (ot_dp >= 0.0f) && (ot_dp * ot_dp >= s.cos1 * o_mag_sq * t_mag_sq);
  rst_h = limit(rst_h, th, angle, s.gain_limit);
  rst_v = limit(rst_v, tv, angle, s.gain_limit);
  rst_d = limit(rst_d, td, angle, s.gain_limit);
  rst_.p[0][q] = rst_h;
  rst_.p[1][q] = rst_v;
  rst_.p[2][q] = rst_d;
  add_.p[0][q] = th - rst_h;
  add_.p[1][q] = tv - rst_v;
  add_.p[2][q] = td - rst_d;
}

__device__ __forceinline__ float term(float x, bool cube) { return cube ? x * x * x : x; }

// Denominator terms of the score region: terms[t][(i - top) * rw + (j - left)].
__global__ void den_kernel(ScaleArgs s, Triple ref, float* __restrict__ terms) {
  const int rw = s.score.right - s.score.left, rh = s.score.bottom - s.score.top;
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= rw || y >= rh) return;
  const std::size_t q = std::size_t(y + s.score.top) * s.w + (x + s.score.left);
  const std::size_t n = std::size_t(rw) * rh, o = std::size_t(y) * rw + x;
  for (int t = 0; t < 3; ++t) terms[t * n + o] = term(fabsf(s.rf[t] * ref.p[t][q]), s.cube);
}

__global__ void csf_kernel(ScaleArgs s, Triple src, Triple dst, Triple flt) {
  const int j = s.filter.left + int(blockIdx.x * blockDim.x + threadIdx.x), i = s.filter.top + int(blockIdx.y);
  if (j >= s.filter.right || i >= s.filter.bottom) return;
  const std::size_t q = std::size_t(i) * s.w + j;
  for (int t = 0; t < 3; ++t) {
    const float v = s.rf[t] * src.p[t][q];
    dst.p[t][q] = v;
    flt.p[t][q] = static_cast<float>(VMAFX_FADM_ONE_BY_30 * fabsf(v));
  }
}

__global__ void masked_kernel(ScaleArgs s, Triple src, Triple flt, Triple ang, float* __restrict__ terms) {
  const int rw = s.score.right - s.score.left, rh = s.score.bottom - s.score.top;
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= rw || y >= rh) return;
  const int i = y + s.score.top, j = x + s.score.left, w = s.w, h = s.h;
  const int up = i == 0 ? 1 : i - 1;
  const int dn = i == h - 1 ? h - 1 : i + 1;
  const int lf = j == 0 ? 1 : j - 1;
  const int rt = j == w - 1 ? w - 1 : j + 1;
  float thr = 0.0f;
  if (!s.bypass) {
    for (int t = 0; t < 3; ++t) {
      const float* fu = flt.p[t] + std::size_t(up) * w;
      const float* fm = flt.p[t] + std::size_t(i) * w;
      const float* fd = flt.p[t] + std::size_t(dn) * w;
      float v = 0;
      v += fu[lf];
      v += fu[j];
      v += fu[rt];
      v += fm[lf];
      v = static_cast<float>(v + VMAFX_FADM_ONE_BY_15 * fabsf(ang.p[t][std::size_t(i) * w + j]));
      v += fm[rt];
      v += fd[lf];
      v += fd[j];
      v += fd[rt];
      thr += v;
    }
  }
  const std::size_t n = std::size_t(rw) * rh, o = std::size_t(y) * rw + x;
  for (int t = 0; t < 3; ++t) {
    float v = fabsf(src.p[t][std::size_t(i) * w + j] * s.rf[t]) - thr;
    v = v < 0.0f ? 0.0f : v;
    terms[t * n + o] = term(v, s.cube);
  }
}

// rows[y * 9 + k] = float sum in column order of plane k's row y.
__global__ void rows_kernel(const float* __restrict__ terms, int rw, int rh, float* __restrict__ rows) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.y;
  if (y >= rh) return;
  const float* p = terms + std::size_t(k) * rw * rh + std::size_t(y) * rw;
  float acc = 0.0f;
  for (int x = 0; x < rw; ++x) acc += p[x];
  rows[std::size_t(y) * 9 + k] = acc;
}

}  // namespace

void dwt(const float* src, int sstride, int w, int h, bool lo_only, const std::uint32_t* table, float* a, float* v,
         float* hb, float* d, cudaStream_t s) {
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  const float* lo = reinterpret_cast<const float*>(table);
  dwt_kernel<<<dim3((ow + kRow - 1) / kRow, oh), kRow, 0, s>>>(src, sstride, w, h, lo_only, lo, lo + 4, a, v, hb, d);
}

void scale(const ScaleArgs& a, Triple rb, Triple db, Triple r, Triple ad, Triple csf_a, Triple csf_f, float* terms,
           float* rows, cudaStream_t s) {
  const int fw = a.filter.right - a.filter.left, fh = a.filter.bottom - a.filter.top;
  const int rw = a.score.right - a.score.left, rh = a.score.bottom - a.score.top;
  const std::size_t n = std::size_t(rw) * rh;
  if (fw > 0 && fh > 0) {
    const dim3 fg((fw + kRow - 1) / kRow, fh);
    decouple_kernel<<<fg, kRow, 0, s>>>(a, rb, db, r, ad);
  }
  if (rw <= 0 || rh <= 0) return;
  const dim3 sg((rw + kRow - 1) / kRow, rh);
  den_kernel<<<sg, kRow, 0, s>>>(a, rb, terms);
  if (fw > 0 && fh > 0) csf_kernel<<<dim3((fw + kRow - 1) / kRow, fh), kRow, 0, s>>>(a, ad, csf_a, csf_f);
  masked_kernel<<<sg, kRow, 0, s>>>(a, r, csf_f, csf_a, terms + 3 * n);
  if (fw > 0 && fh > 0) csf_kernel<<<dim3((fw + kRow - 1) / kRow, fh), kRow, 0, s>>>(a, r, csf_f, csf_a);
  masked_kernel<<<sg, kRow, 0, s>>>(a, ad, csf_a, csf_f, terms + 6 * n);
  rows_kernel<<<dim3((rh + kRow - 1) / kRow, 9), kRow, 0, s>>>(terms, rw, rh, rows);
}

}  // namespace vmafx::cuda::fadm
