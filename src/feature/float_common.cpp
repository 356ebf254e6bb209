// SPDX-License-Identifier: BSD-3-Clause
#include "feature/float_common.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "exact/fadm_rcp.h"
#include "feature/float_simd.hpp"
#include "exact/float_vif_tables.h"
#include "core/simd.hpp"

namespace vmafx::flt {

bool depth_supported(int bpc) { return bpc == 8 || bpc == 10 || bpc == 12 || bpc == 16; }

void check_depth(std::string_view owner, int bpc) {
  if (!depth_supported(bpc))
    throw unsupported_error(std::string(owner) + ": bit depth " + std::to_string(bpc) +
                            " is not supported (8, 10, 12 or 16)");
}

void check_size(std::string_view owner, int w, int h, int min_w, int min_h, std::string_view why) {
  if (w < min_w || h < min_h)
    throw unsupported_error(std::string(owner) + ": picture " + std::to_string(w) + "x" + std::to_string(h) +
                            " is too small (" + std::string(why) + ")");
}

namespace {

template <class T>
void copy_plane(const PlaneView& p, float scaler, float offset, float* dst) {
  if (vmafx::simd::enabled()) {
    for (int y = 0; y < p.height; ++y, dst += p.width) {
      if constexpr (sizeof(T) == 1)
        simd::to_float(p.row<T>(y), p.width, offset, dst);
      else
        simd::to_float(p.row<T>(y), p.width, scaler, offset, dst);
    }
    return;
  }
  for (int y = 0; y < p.height; ++y, dst += p.width) {
    const T* s = p.row<T>(y);
    if constexpr (sizeof(T) == 1) {
      (void)scaler;
      for (int x = 0; x < p.width; ++x) dst[x] = static_cast<float>(s[x]) + offset;
    } else {
      for (int x = 0; x < p.width; ++x) dst[x] = static_cast<float>(s[x]) / scaler + offset;
    }
  }
}

}  // namespace

void row_to_float(const PlaneView& plane, int bpc, int offset, int y, float* dst) {
  const float off = static_cast<float>(offset);
  const PlaneView row{static_cast<const std::uint8_t*>(plane.data) + std::ptrdiff_t(y) * plane.stride, plane.stride,
                      plane.width, 1};
  if (bpc == 8)
    copy_plane<std::uint8_t>(row, 1.0f, off, dst);
  else
    copy_plane<std::uint16_t>(row, bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f, off, dst);
}

void plane_to_float(const PlaneView& plane, int bpc, int offset, float* dst) {
  const float off = static_cast<float>(offset);
  if (bpc == 8)
    copy_plane<std::uint8_t>(plane, 1.0f, off, dst);
  else
    copy_plane<std::uint16_t>(plane, bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f, off, dst);
}

float* scratch(int slot, std::size_t n) {
  // 16 floats of slack put the start on a 64-byte boundary (a cache line:
  // whole-vector loads of rows whose length is a multiple of 16 do not split).
  thread_local std::vector<float> bufs[kScratchSlots];
  std::vector<float>& b = bufs[slot];
  if (b.size() < n + 16) b.resize(n + 16);
  const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(b.data());
  return b.data() + ((64 - p % 64) % 64) / sizeof(float);
}

namespace {
constexpr int kMaxSimdTaps = 256;
}  // namespace

void convolve_vertical(const float* filt, int fw, const float* const* rows, int w, float* out) {
  if (fw <= kMaxSimdTaps && vmafx::simd::enabled()) {
    simd::vertical(filt, fw, rows, w, out);
    return;
  }
  for (int j = 0; j < w; ++j) out[j] = 0.0f;
  for (int k = 0; k < fw; ++k) {
    const float c = filt[k];
    const float* s = rows[k];
    for (int j = 0; j < w; ++j) out[j] += c * s[j];
  }
}

namespace {

// Row `y`'s vertical pass (tap-ordered sum from 0, mirrored rows) into tmp.
void vertical_row(const float* filt, int fw, const float* src, int w, int h, int y, float* tmp) {
  const int r = fw / 2;
  if (fw <= kMaxSimdTaps) {
    const float* rows[kMaxSimdTaps];
    for (int k = 0; k < fw; ++k) rows[k] = src + std::size_t(mirror(y - r + k, h)) * w;
    convolve_vertical(filt, fw, rows, w, tmp);
    return;
  }
  for (int j = 0; j < w; ++j) tmp[j] = 0.0f;
  for (int k = 0; k < fw; ++k) {
    const float c = filt[k];
    const float* s = src + std::size_t(mirror(y - r + k, h)) * w;
    for (int j = 0; j < w; ++j) tmp[j] += c * s[j];
  }
}

}  // namespace

void convolve_row(const float* filt, int fw, const float* row, int w, float* out) {
  const int r = fw / 2;
  // Row with r mirrored samples on each side, so that every output is the
  // same tap-ordered sum without index tests.
  float* pad = scratch(11, std::size_t(w) + 2 * r);
  if (vmafx::simd::enabled()) {
    for (int j = -r; j < 0; ++j) pad[j + r] = row[mirror(j, w)];
    std::memcpy(pad + r, row, sizeof(float) * std::size_t(w));
    for (int j = w; j < w + r; ++j) pad[j + r] = row[mirror(j, w)];
    simd::horizontal(filt, fw, pad, w, out);
    return;
  }
  for (int j = -r; j < w + r; ++j) pad[j + r] = row[mirror(j, w)];
  for (int j = 0; j < w; ++j) out[j] = 0.0f;
  for (int k = 0; k < fw; ++k) {
    const float c = filt[k];
    const float* p = pad + k;
    for (int j = 0; j < w; ++j) out[j] += c * p[j];
  }
}

void convolve(const float* filt, int fw, const float* src, int w, int h, float* dst) {
  float* tmp = scratch(10, std::size_t(w));
  for (int i = 0; i < h; ++i) {
    vertical_row(filt, fw, src, w, h, i, tmp);
    convolve_row(filt, fw, tmp, w, dst + std::size_t(i) * w);
  }
}

void convolve_decimated(const float* filt, int fw, const float* src, int w, int h, int step, int dw, int dh,
                        float* dst) {
  const int r = fw / 2;
  float* tmp = scratch(10, std::size_t(w));
  if (step == 2 && vmafx::simd::enabled()) {
    // The horizontal pass at the even columns only, from the mirrored row.
    float* pad = scratch(11, std::size_t(w) + 2 * r);
    for (int i = 0; i < dh; ++i) {
      vertical_row(filt, fw, src, w, h, step * i, tmp);
      for (int j = -r; j < 0; ++j) pad[j + r] = tmp[mirror(j, w)];
      std::memcpy(pad + r, tmp, sizeof(float) * std::size_t(w));
      for (int j = w; j < w + r; ++j) pad[j + r] = tmp[mirror(j, w)];
      simd::horizontal_dec2(filt, fw, pad, dw, dst + std::size_t(i) * dw);
    }
    return;
  }
  for (int i = 0; i < dh; ++i) {
    vertical_row(filt, fw, src, w, h, step * i, tmp);
    float* out = dst + std::size_t(i) * dw;
    for (int j = 0; j < dw; ++j) {
      const int x = step * j;
      float acc = 0.0f;
      for (int k = 0; k < fw; ++k) acc += filt[k] * tmp[mirror(x - r + k, w)];
      out[j] = acc;
    }
  }
}

bool parse_scale_method(std::string_view s, ScaleMethod* out) {
  if (s == "nearest")
    *out = ScaleMethod::kNearest;
  else if (s == "bilinear")
    *out = ScaleMethod::kBilinear;
  else if (s == "bicubic")
    *out = ScaleMethod::kBicubic;
  else if (s == "lanczos4")
    *out = ScaleMethod::kLanczos4;
  else
    return false;
  return true;
}

namespace {

// vif_tools.c's float mirror: -i below `left` (0), 2 * right - i above `right`.
inline float mirror_f(float i, float left, float right) { return i < left ? -i : (i > right ? 2 * right - i : i); }

// (pos + 0.5) * ratio - 0.5 in double, rounded to float.
inline float source_pos(int pos, float ratio) { return static_cast<float>((pos + 0.5) * ratio - 0.5); }

void scale_nearest(const float* src, int w, int h, float* dst, int dw, int dh) {
  const float rx = static_cast<float>(w) / dw;
  const float ry = static_cast<float>(h) / dh;
  for (int y = 0; y < dh; ++y) {
    const int sy = static_cast<int>(y * ry);
    for (int x = 0; x < dw; ++x) {
      const int sx = static_cast<int>(x * rx);
      dst[std::size_t(y) * dw + x] = src[std::size_t(sy) * w + sx];
    }
  }
}

void scale_bilinear(const float* src, int w, int h, float* dst, int dw, int dh) {
  std::vector<int> x1(dw), x2(dw);
  std::vector<float> dxs(dw);
  const float rx = static_cast<float>(w) / dw;
  for (int x = 0; x < dw; ++x) {
    const float xx = source_pos(x, rx);
    x1[x] = static_cast<int>(mirror_f(static_cast<float>(std::floor(xx)), 0, static_cast<float>(w - 1)));
    x2[x] = static_cast<int>(mirror_f(static_cast<float>(std::ceil(xx)), 0, static_cast<float>(w - 1)));
    dxs[x] = xx - x1[x];
  }
  const float ry = static_cast<float>(h) / dh;
  for (int y = 0; y < dh; ++y) {
    const float yy = source_pos(y, ry);
    const int y1 = static_cast<int>(mirror_f(static_cast<float>(std::floor(yy)), 0, static_cast<float>(h - 1)));
    const int y2 = static_cast<int>(mirror_f(static_cast<float>(std::ceil(yy)), 0, static_cast<float>(h - 1)));
    const float dy = yy - y1;
    const float* r1 = src + std::size_t(y1) * w;
    const float* r2 = src + std::size_t(y2) * w;
    float* out = dst + std::size_t(y) * dw;
    for (int x = 0; x < dw; ++x) {
      const float dx = dxs[x];
      const float a = (1 - dy) * (1 - dx) * r1[x1[x]];
      const float b = (1 - dy) * dx * r1[x2[x]];
      const float c = dy * (1 - dx) * r2[x1[x]];
      const float d = dy * dx * r2[x2[x]];
      out[x] = a + b + c + d;
    }
  }
}

float bicubic_weight(float t) {
  const float a = VMAFX_FVIF_BICUBIC_A;
  if (t < 0) t = -t;
  if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
  return 0;
}

float lanczos_weight(float x, float a) {
  if (x == 0.0) return 1.0f;
  if (x > -a && x < a)
    return static_cast<float>(a * std::sin(M_PI * x) * std::sin(M_PI * x / a) / (M_PI * M_PI * x * x));
  return 0.0f;
}

// Bicubic (4x4) or Lanczos (9x9) interpolation at (x, y), libvmaf's order:
// rows outer, columns inner; Lanczos normalises by the sum of its weights.
template <bool kLanczos>
float interpolate(const float* src, int w, int h, float x, float y) {
  constexpr int lo = kLanczos ? -VMAFX_FVIF_LANCZOS_A : -1;
  constexpr int hi = kLanczos ? VMAFX_FVIF_LANCZOS_A : 2;
  const int x0 = static_cast<int>(std::floor(x));
  const int y0 = static_cast<int>(std::floor(y));
  const float dx = x - x0;
  const float dy = y - y0;
  float wx[hi - lo + 1], wy[hi - lo + 1];
  for (int i = lo; i <= hi; ++i) {
    if constexpr (kLanczos) {
      wx[i - lo] = lanczos_weight(i - dx, static_cast<float>(VMAFX_FVIF_LANCZOS_A));
      wy[i - lo] = lanczos_weight(i - dy, static_cast<float>(VMAFX_FVIF_LANCZOS_A));
    } else {
      wx[i - lo] = bicubic_weight(i - dx);
      wy[i - lo] = bicubic_weight(i - dy);
    }
  }
  float value = 0.0f;
  float weight_sum = 0.0f;
  for (int j = lo; j <= hi; ++j) {
    const int yi = static_cast<int>(mirror_f(static_cast<float>(y0 + j), 0, static_cast<float>(h - 1)));
    for (int i = lo; i <= hi; ++i) {
      const float wgt = wx[i - lo] * wy[j - lo];
      if constexpr (kLanczos) weight_sum += wgt;
      const int xi = static_cast<int>(mirror_f(static_cast<float>(x0 + i), 0, static_cast<float>(w - 1)));
      value += src[std::size_t(yi) * w + xi] * wgt;
    }
  }
  if constexpr (kLanczos) return value / weight_sum;
  return value;
}

template <bool kLanczos>
void scale_interp(const float* src, int w, int h, float* dst, int dw, int dh) {
  const float rx = static_cast<float>(w) / dw;
  const float ry = static_cast<float>(h) / dh;
  for (int y = 0; y < dh; ++y) {
    const float yy = source_pos(y, ry);
    for (int x = 0; x < dw; ++x) dst[std::size_t(y) * dw + x] = interpolate<kLanczos>(src, w, h, source_pos(x, rx), yy);
  }
}

}  // namespace

void scale_frame(ScaleMethod m, const float* src, int w, int h, float* dst, int dw, int dh) {
  if (w == dw && h == dh) {
    std::memcpy(dst, src, sizeof(float) * std::size_t(w) * h);
    return;
  }
  switch (m) {
    case ScaleMethod::kNearest: scale_nearest(src, w, h, dst, dw, dh); break;
    case ScaleMethod::kBilinear: scale_bilinear(src, w, h, dst, dw, dh); break;
    case ScaleMethod::kBicubic: scale_interp<false>(src, w, h, dst, dw, dh); break;
    case ScaleMethod::kLanczos4: scale_interp<true>(src, w, h, dst, dw, dh); break;
  }
}

int scale_axis(ScaleMethod m, int n, int dn, std::vector<int>& idx, std::vector<float>& wt) {
  const float ratio = static_cast<float>(n) / dn;
  const int taps = m == ScaleMethod::kNearest    ? 1
                   : m == ScaleMethod::kBilinear ? 2
                   : m == ScaleMethod::kBicubic  ? 4
                                                 : 2 * VMAFX_FVIF_LANCZOS_A + 1;
  idx.assign(std::size_t(dn) * taps, 0);
  wt.assign(std::size_t(dn) * taps, 1.0f);
  for (int k = 0; k < dn; ++k) {
    int* ik = idx.data() + std::size_t(k) * taps;
    float* wk = wt.data() + std::size_t(k) * taps;
    switch (m) {
      case ScaleMethod::kNearest: ik[0] = static_cast<int>(k * ratio); break;
      case ScaleMethod::kBilinear: {  // as scale_bilinear
        const float xx = source_pos(k, ratio);
        ik[0] = static_cast<int>(mirror_f(static_cast<float>(std::floor(xx)), 0, static_cast<float>(n - 1)));
        ik[1] = static_cast<int>(mirror_f(static_cast<float>(std::ceil(xx)), 0, static_cast<float>(n - 1)));
        const float d = xx - ik[0];
        wk[0] = 1 - d;
        wk[1] = d;
        break;
      }
      case ScaleMethod::kBicubic:
      case ScaleMethod::kLanczos4: {  // as scale_interp / interpolate
        const bool lanczos = m == ScaleMethod::kLanczos4;
        const int lo = lanczos ? -VMAFX_FVIF_LANCZOS_A : -1;
        const float x = source_pos(k, ratio);
        const int x0 = static_cast<int>(std::floor(x));
        const float dx = x - x0;
        for (int i = lo; i < lo + taps; ++i) {
          wk[i - lo] =
              lanczos ? lanczos_weight(i - dx, static_cast<float>(VMAFX_FVIF_LANCZOS_A)) : bicubic_weight(i - dx);
          ik[i - lo] = static_cast<int>(mirror_f(static_cast<float>(x0 + i), 0, static_cast<float>(n - 1)));
        }
        break;
      }
    }
  }
  return taps;
}

float rcp_estimate(float x, LibvmafCpu cpu) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  const std::uint32_t r = vmafx_fadm_rcp_estimate_bits(u, static_cast<int>(cpu));
  float out;
  std::memcpy(&out, &r, sizeof out);
  return out;
}

}  // namespace vmafx::flt
