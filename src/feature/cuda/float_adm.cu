// SPDX-License-Identifier: BSD-3-Clause
// The float_adm twin's kernels (see float_adm_cuda.hpp): loops around
// exact/float_adm.h. Plain IEEE float and double arithmetic with
// --fmad=false, in the reference's order.
#include <cstdint>

#include "feature/cuda/float_adm_cuda.hpp"

namespace vmafx::cuda::fadm {
namespace {

constexpr int kRow = 128;

__device__ __forceinline__ float fir4(const float* f, float s0, float s1, float s2, float s3) {
  return vmafx_fadm_fir4(f[0], f[1], f[2], f[3], s0, s1, s2, s3, 0);
}

__global__ void dwt_kernel(const float* __restrict__ src, int sstride, int w, int h, bool lo_only,
                           const float* __restrict__ c_lo, const float* __restrict__ c_hi, float* __restrict__ a,
                           float* __restrict__ v, float* __restrict__ hb, float* __restrict__ d) {
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= ow || i >= oh) return;
  const float* r[4];
  for (int k = 0; k < 4; ++k) r[k] = src + std::ptrdiff_t(vmafx_fadm_dwt_index(i, k, h)) * sstride;
  float lo[4], hi[4];
  for (int k = 0; k < 4; ++k) {
    const int x = vmafx_fadm_dwt_index(j, k, w);
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

__global__ void decouple_kernel(ScaleArgs s, Triple o_, Triple t_, Triple rst_, Triple add_) {
  const int j = s.filter.left + int(blockIdx.x * blockDim.x + threadIdx.x), i = s.filter.top + int(blockIdx.y);
  if (j >= s.filter.right || i >= s.filter.bottom) return;
  const std::size_t q = std::size_t(i) * s.w + j;
  const float o[3] = {o_.p[0][q], o_.p[1][q], o_.p[2][q]};
  const float t[3] = {t_.p[0][q], t_.p[1][q], t_.p[2][q]};
  float rst[3], add[3];
  vmafx_fadm_decouple(o, t, &s.k, rst, add);
  for (int b = 0; b < 3; ++b) {
    rst_.p[b][q] = rst[b];
    add_.p[b][q] = add[b];
  }
}

__device__ __forceinline__ float term(float x, bool cube) { return cube ? vmafx_fadm_cube(x, 0) : x; }

// Denominator terms of the score region: terms[t][(i - top) * rw + (j - left)].
__global__ void den_kernel(ScaleArgs s, Triple ref, float* __restrict__ terms) {
  const int rw = s.score.right - s.score.left, rh = s.score.bottom - s.score.top;
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= rw || y >= rh) return;
  const std::size_t q = std::size_t(y + s.score.top) * s.w + (x + s.score.left);
  const std::size_t n = std::size_t(rw) * rh, o = std::size_t(y) * rw + x;
  for (int t = 0; t < 3; ++t) terms[t * n + o] = term(vmafx_fabs(s.rf[t] * ref.p[t][q]), s.cube);
}

__global__ void csf_kernel(ScaleArgs s, Triple src, Triple dst, Triple flt) {
  const int j = s.filter.left + int(blockIdx.x * blockDim.x + threadIdx.x), i = s.filter.top + int(blockIdx.y);
  if (j >= s.filter.right || i >= s.filter.bottom) return;
  const std::size_t q = std::size_t(i) * s.w + j;
  for (int t = 0; t < 3; ++t) dst.p[t][q] = vmafx_fadm_csf(s.rf[t], src.p[t][q], &s.k, flt.p[t] + q);
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
      thr += vmafx_fadm_thr(fu[lf], fu[j], fu[rt], fm[lf], fm[rt], fd[lf], fd[j], fd[rt],
                            ang.p[t][std::size_t(i) * w + j], &s.k);
    }
  }
  const std::size_t n = std::size_t(rw) * rh, o = std::size_t(y) * rw + x;
  for (int t = 0; t < 3; ++t)
    terms[t * n + o] = term(vmafx_fadm_masked(src.p[t][std::size_t(i) * w + j], s.rf[t], thr, 0), s.cube);
}

// rows[y * 9 + k] = float sum in column order of plane k's row y.
__global__ void rows_kernel(const float* __restrict__ terms, int rw, int rh, float* __restrict__ rows) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.y;
  if (y >= rh) return;
  rows[std::size_t(y) * 9 + k] = vmafx_fsum(terms + std::size_t(k) * rw * rh + std::size_t(y) * rw, rw);
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
