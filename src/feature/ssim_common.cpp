// SPDX-License-Identifier: BSD-3-Clause
#include "feature/ssim_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "exact/ssim_tables.h"

namespace vmafx::ssim {

namespace {

constexpr int kTaps = VMAFX_SSIM_GAUSS_TAPS;
constexpr int kMoments = 5;  // mean ref, mean cmp, ref^2, cmp^2, ref*cmp

// Mirrored border ("symmetric": -1 -> 0, n -> n - 1). The final clamp only
// keeps us in memory where a tiny image would reflect twice; libvmaf reads out
// of bounds there, and create() refuses such sizes.
inline int mirror(int i, int n) {
  if (i < 0)
    i = -1 - i;
  else if (i >= n)
    i = 2 * n - i - 1;
  return std::clamp(i, 0, n - 1);
}

// A kernel of `taps` x `taps` floats (row-major) applied at the sample
// (cx, cy): products float(sample * tap), summed in double row by row, tap by
// tap, the sum rounded to float. Centre at taps / 2; an even kernel reaches one
// tap less to the right and below.
inline float filter_at(const float* img, int w, int h, int cx, int cy, const float* kernel, int taps) {
  const int lo = taps / 2;
  const int hi = lo - ((taps & 1) ? 0 : 1);
  const bool edge = cx < lo || cy < lo || cx >= w - lo || cy >= h - lo;
  double sum = 0.0;
  const float* k = kernel;
  if (!edge) {
    for (int v = -lo; v <= hi; ++v) {
      const float* row = img + std::ptrdiff_t(cy + v) * w + cx;
      for (int u = -lo; u <= hi; ++u) sum += row[u] * *k++;
    }
  } else {
    for (int v = -lo; v <= hi; ++v) {
      const float* row = img + std::ptrdiff_t(mirror(cy + v, h)) * w;
      for (int u = -lo; u <= hi; ++u) sum += row[mirror(cx + u, w)] * *k++;
    }
  }
  return static_cast<float>(sum * 1.0f);
}

template <class T>
void copy_plane(const PlaneView& p, int bpc, float* dst) {
  if constexpr (sizeof(T) == 1) {
    (void)bpc;
    for (int y = 0; y < p.height; ++y, dst += p.width) {
      const T* s = p.row<T>(y);
      for (int x = 0; x < p.width; ++x) dst[x] = static_cast<float>(s[x]);
    }
  } else {
    // 10 -> /4, 12 -> /16, 16 -> /256: exact powers of two.
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    for (int y = 0; y < p.height; ++y, dst += p.width) {
      const T* s = p.row<T>(y);
      for (int x = 0; x < p.width; ++x) dst[x] = static_cast<float>(s[x]) / scaler;
    }
  }
}

std::vector<double>& dscratch(std::size_t n) {
  thread_local std::vector<double> buf;
  if (buf.size() < n) buf.resize(n);
  return buf;
}

}  // namespace

std::vector<float>& scratch(int slot, std::size_t n) {
  thread_local std::vector<float> bufs[8];
  std::vector<float>& b = bufs[slot];
  if (b.size() < n) b.resize(n);
  return b;
}

bool float_depth_supported(int bpc) { return bpc == 8 || bpc == 10 || bpc == 12 || bpc == 16; }

void check_float_depth(std::string_view owner, int bpc) {
  if (!float_depth_supported(bpc))
    throw unsupported_error(std::string(owner) + ": bit depth " + std::to_string(bpc) +
                            " is not supported (8, 10, 12 or 16)");
}

void luma_to_float(const PlaneView& luma, int bpc, float* dst) {
  if (bpc == 8)
    copy_plane<std::uint8_t>(luma, bpc, dst);
  else
    copy_plane<std::uint16_t>(luma, bpc, dst);
}

int auto_scale(int w, int h) {
  const float a = static_cast<float>(std::min(w, h)) / 256.0f;
  const int whole = static_cast<int>(a);
  const int sign = a > 0.0f ? 1 : -1;
  const int rounded = (a - static_cast<float>(whole)) >= 0.5 ? whole + sign : whole;
  return std::max(1, rounded);
}

void decimate_box_in_place(float* img, int w, int h, int factor, int* out_w, int* out_h) {
  if (factor < 1 || factor > 10) throw Error("float_ssim: decimation factor must be 1 to 10");
  const int sw = decimated_size(w, factor);
  const int sh = decimated_size(h, factor);
  // The tap: 1.0f / (factor * factor), an int converted to float.
  const float tap = 1.0f / static_cast<float>(factor * factor);
  float kernel[10 * 10];
  for (int i = 0; i < factor * factor; ++i) kernel[i] = tap;
  // In place and in raster order, as libvmaf: an output never lands on a
  // sample that a later output still reads, but keeping the order keeps that
  // question out of the proof.
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x)
      img[std::ptrdiff_t(y) * sw + x] = filter_at(img, w, h, x * factor, y * factor, kernel, factor);
  *out_w = sw;
  *out_h = sh;
}

void decimate_lpf(const float* src, int w, int h, float* dst) {
  static constexpr float kLpf[] = VMAFX_MS_SSIM_LPF_INIT;
  const int sw = decimated_size(w, 2);
  const int sh = decimated_size(h, 2);
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x)
      dst[std::ptrdiff_t(y) * sw + x] = filter_at(src, w, h, 2 * x, 2 * y, kLpf, VMAFX_MS_SSIM_LPF_TAPS);
}

SsimMeans gaussian_ssim(const float* ref, const float* cmp, int w, int h) {
  static constexpr float g[kTaps] = VMAFX_SSIM_GAUSS_INIT;
  const float K1 = VMAFX_SSIM_K1, K2 = VMAFX_SSIM_K2;
  const int L = VMAFX_SSIM_L;
  const float C1 = (K1 * L) * (K1 * L);
  const float C2 = (K2 * L) * (K2 * L);
  const float C3 = C2 / 2.0f;

  const int dw = w - (kTaps - 1);
  const int dh = h - (kTaps - 1);
  const std::size_t plane = std::size_t(dw);

  // Horizontal pass results of the last kTaps rows (a ring), five moments each.
  std::vector<float>& ring_buf = scratch(7, std::size_t(kTaps) * kMoments * plane);
  float* ring = ring_buf.data();
  // Vertical sums of one output row, five moments.
  double* acc = dscratch(kMoments * plane).data();

  auto horizontal = [&](int y) {
    const float* a = ref + std::ptrdiff_t(y) * w;
    const float* b = cmp + std::ptrdiff_t(y) * w;
    float* o = ring + std::size_t(y % kTaps) * kMoments * plane;
    for (int x = 0; x < dw; ++x) {
      double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;
      for (int u = 0; u < kTaps; ++u) {
        const float ra = a[x + u], cb = b[x + u], k = g[u];
        const float rr = ra * ra, cc = cb * cb, rc = ra * cb;
        s0 += ra * k;
        s1 += cb * k;
        s2 += rr * k;
        s3 += cc * k;
        s4 += rc * k;
      }
      o[x] = static_cast<float>(s0 * 1.0f);
      o[plane + x] = static_cast<float>(s1 * 1.0f);
      o[2 * plane + x] = static_cast<float>(s2 * 1.0f);
      o[3 * plane + x] = static_cast<float>(s3 * 1.0f);
      o[4 * plane + x] = static_cast<float>(s4 * 1.0f);
    }
  };

  double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;
  for (int y = 0; y < kTaps - 1; ++y) horizontal(y);
  for (int y = 0; y < dh; ++y) {
    horizontal(y + kTaps - 1);
    std::fill(acc, acc + kMoments * plane, 0.0);
    for (int v = 0; v < kTaps; ++v) {
      const float* r = ring + std::size_t((y + v) % kTaps) * kMoments * plane;
      const float k = g[v];
      for (std::size_t i = 0; i < kMoments * plane; ++i) acc[i] += r[i] * k;
    }
    for (int x = 0; x < dw; ++x) {
      const float mu_r = static_cast<float>(acc[x] * 1.0f);
      const float mu_c = static_cast<float>(acc[plane + x] * 1.0f);
      float var_r = static_cast<float>(acc[2 * plane + x] * 1.0f);
      float var_c = static_cast<float>(acc[3 * plane + x] * 1.0f);
      float cov = static_cast<float>(acc[4 * plane + x] * 1.0f);
      var_r -= mu_r * mu_r;
      var_c -= mu_c * mu_c;
      if (0.0 > var_r) var_r = 0.0f;
      if (0.0 > var_c) var_c = 0.0f;
      cov -= mu_r * mu_c;

      const float sd_rc = static_cast<float>(std::sqrt(static_cast<double>(var_r * var_c)));
      const double l = (2.0 * mu_r * mu_c + C1) / (mu_r * mu_r + mu_c * mu_c + C1);
      const double c = (2.0 * sd_rc + C2) / (var_r + var_c + C2);
      // Identical flat windows: a tiny negative covariance would pull s below 1.
      const float cov_c = (cov < 0.0f && sd_rc <= 0.0f) ? 0.0f : cov;
      const double s = (cov_c + C3) / (sd_rc + C3);  // float division, as libvmaf
      ssim_sum += l * c * s;
      l_sum += l;
      c_sum += c;
      s_sum += s;
    }
  }
  const double n = static_cast<double>(dw * dh);
  SsimMeans m;
  m.ssim = static_cast<float>(ssim_sum / n);
  m.l = static_cast<float>(l_sum / n);
  m.c = static_cast<float>(c_sum / n);
  m.s = static_cast<float>(s_sum / n);
  return m;
}

double to_db(double score, double max_db) {
  const double db = -10. * std::log10(1 - score);
  return db < max_db ? db : max_db;
}

double max_db(bool clip, int bpc, int w, int h) {
  if (!clip) return INFINITY;
  const unsigned peak = (1u << bpc) - 1;
  const double mse = 0.5 / (unsigned(w) * unsigned(h));
  return std::ceil(10. * std::log10(peak * peak / mse));
}

}  // namespace vmafx::ssim
