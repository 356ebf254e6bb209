// SPDX-License-Identifier: BSD-3-Clause
#include "feature/ssim_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "exact/ssim_fp64.h"

namespace vmafx::ssim {

namespace {

constexpr int kTaps = VMAFX_SSIM_GAUSS_TAPS;
constexpr int kMoments = 5;  // mean ref, mean cmp, ref^2, cmp^2, ref*cmp

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
  // In place and in raster order, as libvmaf: an output never lands on a
  // sample that a later output still reads, but keeping the order keeps that
  // question out of the proof.
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x)
      img[std::ptrdiff_t(y) * sw + x] = vmafx_fssim_filter_at(img, w, h, x * factor, y * factor, nullptr, tap, factor);
  *out_w = sw;
  *out_h = sh;
}

void decimate_lpf(const float* src, int w, int h, float* dst) {
  static constexpr float kLpf[] = VMAFX_MS_SSIM_LPF_INIT;
  const int sw = decimated_size(w, 2);
  const int sh = decimated_size(h, 2);
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x)
      dst[std::ptrdiff_t(y) * sw + x] =
          vmafx_fssim_filter_at(src, w, h, 2 * x, 2 * y, kLpf, 0.0f, VMAFX_MS_SSIM_LPF_TAPS);
}

SsimMeans gaussian_ssim(const float* ref, const float* cmp, int w, int h) {
  const vmafx_fssim_consts k = vmafx_fssim_constants();
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
    for (int x = 0; x < dw; ++x) vmafx_fssim_horizontal(a + x, b + x, vmafx_ssim_gauss, o + x, plane);
  };

  double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;
  for (int y = 0; y < kTaps - 1; ++y) horizontal(y);
  for (int y = 0; y < dh; ++y) {
    horizontal(y + kTaps - 1);
    std::fill(acc, acc + kMoments * plane, 0.0);
    for (int v = 0; v < kTaps; ++v) {
      const float* r = ring + std::size_t((y + v) % kTaps) * kMoments * plane;
      const float g = vmafx_ssim_gauss[v];
      for (std::size_t i = 0; i < kMoments * plane; ++i) acc[i] += r[i] * g;
    }
    for (int x = 0; x < dw; ++x) {
      const vmafx_fssim_terms t = vmafx_fssim_pixel(acc + x, plane, k);
      ssim_sum += t.lcs;
      l_sum += t.l;
      c_sum += t.c;
      s_sum += t.s;
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
