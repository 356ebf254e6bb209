// SPDX-License-Identifier: BSD-3-Clause
#include "feature/speed.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "feature/float_vif.hpp"
#include "feature/speed_simd.hpp"
#include "feature/row_table.hpp"

namespace vmafx {
namespace speed {
namespace {

constexpr int kScales = 4;
constexpr double kEps = 1e-6;
constexpr int kMaxIters = 500;

// ---- Gaussian filters (vif_tools.c) ----

int filter_size(int scale, float ks) {
  const int n = (1 << (4 - scale)) + 1;
  int c = static_cast<int>(std::ceil(static_cast<double>(n * ks)));
  if (c % 2 == 0) ++c;
  return std::max(c, 3);
}

void gaussian(float* out, int size, float stdev) {
  const int half = (size - 1) / 2;
  float sum = 0;
  for (int i = 0; i < size; ++i) {
    const float x = static_cast<float>(i - half);
    const float num = static_cast<float>(std::exp(-0.5 * x / stdev * x / stdev));
    const float den = static_cast<float>(1 / (stdev * std::sqrt(2 * M_PI)));
    out[i] = num / den;
    sum += out[i];
  }
  for (int i = 0; i < size; ++i) out[i] /= sum;
}

inline float fsqrt(float x) { return static_cast<float>(std::sqrt(static_cast<double>(x))); }
inline int sign_of(float x) { return x >= 0 ? 1 : -1; }
inline float hypot_f(float x, float y) { return fsqrt(x * x + y * y); }

// ---- small dense float matrices, row-major ----

void mat_mul(float* dst, const float* x, const float* y, int xr, int xc, int yc) {
  std::fill(dst, dst + std::size_t(xr) * yc, 0.0f);
  for (int i = 0; i < xr; ++i)
    for (int k = 0; k < xc; ++k) {
      const float a = x[i * xc + k];
      const float* yr = y + std::size_t(k) * yc;
      float* dr = dst + std::size_t(i) * yc;
      for (int j = 0; j < yc; ++j) dr[j] += a * yr[j];
    }
}

void mat_transpose(float* m, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) std::swap(m[i * n + j], m[j * n + i]);
}

void mat_identity(float* m, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m[i * n + j] = i == j ? 1.0f : 0.0f;
}

float vec_norm(const float* x, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return fsqrt(s);
}

// Householder QR of A (n x n): Q and R; tq, tz and R are n x n scratch.
void qr_decompose(const float* a, float* q, float* r, float* tq, float* tz, int n) {
  const std::size_t nn = std::size_t(n) * n;
  std::memcpy(tz, a, nn * sizeof(float));
  mat_identity(q, n);
  float* v = r;  // R doubles as the reflector vector until the products
  for (int k = 0; k < n - 1; ++k) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (i < k || j < k) tz[i * n + j] = i == j ? 1.0f : 0.0f;
    for (int i = 0; i < n; ++i) v[i] = tz[i * n + k];
    const float norm = vec_norm(v, n);
    const int sgn = sign_of(a[k * n + k]);
    v[k] += static_cast<float>(sgn) * norm;
    const float len = vec_norm(v, n);
    for (int i = 0; i < n; ++i) v[i] = v[i] / len;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) tq[i * n + j] = -2.0f * v[i] * v[j];
    for (int i = 0; i < n; ++i) tq[i * n + i] += 1;
    mat_mul(r, tq, tz, n, n, n);
    std::memcpy(tz, r, nn * sizeof(float));
    mat_mul(r, tq, q, n, n, n);
    std::memcpy(q, r, nn * sizeof(float));
  }
  mat_mul(r, q, a, n, n, n);
  mat_transpose(q, n);
}

// ---- symmetric eigenvalues (tridiagonalisation + implicit QR) ----

float householder(float* a, int col, int start, int n) {
  if (n - start == 1) return 0.0f;
  float xs = 0;
  for (int i = start + 1; i < n; ++i) xs += a[i * n + col] * a[i * n + col];
  const float xnorm = fsqrt(xs);
  if (xnorm == 0.0f) return 0.0f;
  const float alpha = a[start * n + col];
  const float beta = static_cast<float>(-sign_of(alpha)) * hypot_f(alpha, xnorm);
  const float tau = (beta - alpha) / beta;
  const float s = alpha - beta;
  if (s != 0.0f) {
    for (int i = start; i < n; ++i) a[i * n + col] /= s;
    a[start * n + col] = beta;
  }
  return tau;
}

void tridiagonalize(float* a, int n, float* d, float* sd, float* v, float* x) {
  for (int i = 0; i < n - 2; ++i) {
    const float tau = householder(a, i, i + 1, n);
    for (int j = i + 1; j < n; ++j) v[j] = a[j * n + i];
    if (tau != 0.0f) {
      a[(i + 1) * n + i] = v[i + 1];
      v[i + 1] = 1.0f;
      const int s = i + 1;
      for (int r = s; r < n; ++r) {
        x[r] = 0.0f;
        for (int c = s; c < n; ++c) x[r] += tau * a[r * n + c] * v[c];
      }
      float xv = 0;
      for (int r = s; r < n; ++r) xv += x[r] * v[r];
      const float alpha = static_cast<float>(-0.5 * tau * xv);
      for (int r = s; r < n; ++r) x[r] += alpha * v[r];
      for (int r = s; r < n; ++r)
        for (int c = s; c < n; ++c) a[r * n + c] -= x[r] * v[c] + v[r] * x[c];
    }
  }
  for (int i = 0; i < n; ++i) d[i] = a[i * n + i];
  for (int i = 0; i < n - 1; ++i) sd[i] = a[(i + 1) * n + i];
}

void chop(float* d, float* sd, int n) {
  for (int i = 0; i < n - 1; ++i)
    if (std::fabs(sd[i]) < kEps * (std::fabs(d[i]) + std::fabs(d[i + 1]))) sd[i] = 0.0f;
}

float trailing_eig(const float* d, const float* sd, int n) {
  const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
  const float dt = static_cast<float>((ta - tb) / 2.0);
  if (dt > 0) return tb - tab * (tab / (dt + hypot_f(dt, tab)));
  if (dt == 0) return tb - std::fabs(tab);
  return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

void givens(float a, float b, float* c, float* s) {
  if (b == 0) {
    *c = 1;
    *s = 0;
  } else if (std::fabs(b) > std::fabs(a)) {
    const float t = -a / b;
    const float s1 = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1 + t * t)));
    *s = s1;
    *c = s1 * t;
  } else {
    const float t = -b / a;
    const float c1 = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1 + t * t)));
    *c = c1;
    *s = c1 * t;
  }
}

void qr_step(float* d, float* sd, int n) {
  float mu = trailing_eig(d, sd, n);
  if (kEps * std::fabs(mu) > std::fabs(d[0]) + std::fabs(sd[0])) mu = 0;
  float x = d[0] - mu;
  float z = sd[0];
  float ak = 0, bk = 0, zk = 0;
  float ap = d[0], bp = sd[0], aq = d[1];
  if (n == 2) {
    float c, s;
    givens(x, z, &c, &s);
    const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    d[0] = ap1;
    sd[0] = bp1;
    d[1] = aq1;
    return;
  }
  float bq = sd[1];
  for (int k = 0; k < n - 1; ++k) {
    float c, s;
    givens(x, z, &c, &s);
    const float bk1 = c * bk - s * zk;
    const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    const float zp1 = -s * bq;
    const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    const float bq1 = c * bq;
    ak = ap1;
    bk = bp1;
    zk = zp1;
    ap = aq1;
    bp = bq1;
    if (k < n - 2) aq = d[k + 2];
    if (k < n - 3) bq = sd[k + 2];
    d[k] = ak;
    if (k > 0) sd[k - 1] = bk1;
    if (k < n - 2) sd[k + 1] = bp;
    x = bk;
    z = zk;
  }
  d[n - 1] = ap;
  sd[n - 2] = bk;
}

// ---- per-thread work memory ----

struct Work {
  std::vector<float> frame_tmp, cur;
  std::vector<float> cov, eig, means, ind, sol, mats, rect;
  std::vector<float> ent[2], var[2];
};

Work& work(const Dims& d) {
  thread_local Work w;
  const std::size_t frame = std::size_t(std::max(d.ow, d.sw)) * std::max(d.oh, d.sh);
  const std::size_t rect = std::size_t(kBlockElems) * d.nb;
  auto grow = [](std::vector<float>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
  };
  grow(w.frame_tmp, frame);
  grow(w.cur, frame);
  grow(w.cov, kBlockElems * kBlockElems);
  grow(w.eig, kBlockElems);
  grow(w.means, kBlockElems);
  grow(w.ind, rect);
  grow(w.sol, rect);
  grow(w.mats, 5 * kBlockElems * kBlockElems);
  grow(w.rect, rect);
  for (int i = 0; i < 2; ++i) {
    grow(w.ent[i], std::size_t(d.nb));
    grow(w.var[i], std::size_t(d.nb));
  }
  return w;
}

bool almost_one(double x) { return std::fabs(x - 1.0) < 1.0e-3; }

// Prescale, antialias Gaussian, decimate by 16 (the part the device twins
// compute). `frame` holds ow x oh packed on entry, dw x dh packed on return
// (the prescaled image goes to w.frame_tmp).
void decimate(const Params& p, const Dims& d, float* frame, Work& w) {
  const float* src = frame;  // the sw x sh image to filter
  if (!almost_one(p.prescale)) {
    flt::scale_frame(p.method, frame, d.ow, d.oh, w.frame_tmp.data(), d.sw, d.sh);
    src = w.frame_tmp.data();
  }
  float filt[128];
  const int fw1 = antialias_filter(p, filt);
  float* cur = w.cur.data();
  // Only every 16th sample of every 16th row of the filtered image is kept:
  // those alone are computed (each with the full convolution's arithmetic).
  flt::convolve_decimated(filt, fw1, src, d.sw, d.sh, 1 << kScales, d.dw, d.dh, cur);
  std::memcpy(frame, cur, sizeof(float) * std::size_t(d.dw) * d.dh);
}

// Removes the local mean of a dw x dh decimated image, in place.
void remove_local_mean(const Params& p, const Dims& d, float* frame, Work& w) {
  float filt[128];
  float* cur = w.cur.data();
  const int fw4 = filter_size(kScales, p.kernelscale);
  gaussian(filt, fw4, fw4 / 5.0f);
  flt::convolve(filt, fw4, frame, d.dw, d.dh, cur);
  const std::size_t n = std::size_t(d.dw) * d.dh;
  for (std::size_t i = 0; i < n; ++i) frame[i] -= cur[i];
}

// Rows::block_moments, the scalar reference.
void block_moments_scalar(const float* data, std::size_t /*len*/, int st, int subw, int subh, float* means,
                          float* cov) {
  const int B = kBlock, E = kBlockElems;
  const float count_f = static_cast<float>(std::size_t(subw) * std::size_t(subh));
  const double count_d = static_cast<double>(std::size_t(subw) * std::size_t(subh));
  for (int r = 0; r < B; ++r)
    for (int c = 0; c < B; ++c) {
      float s = 0;
      for (int i = 0; i < subh; ++i) {
        const float* row = data + std::size_t(r + i) * st + c;
        for (int j = 0; j < subw; ++j) s += row[j];
      }
      means[r * B + c] = s / count_f;
    }
  for (int xi = 0; xi < E; ++xi)
    for (int yi = 0; yi <= xi; ++yi) {
      const int rx = xi / B, cx = xi % B, ry = yi / B, cy = yi % B;
      const double mx = means[rx * B + cx], my = means[ry * B + cy];
      const float* px = data + std::size_t(rx) * st + cx;
      const float* py = data + std::size_t(ry) * st + cy;
      double acc = 0;
      for (int i = 0; i < subh; ++i) {
        const float* ax = px + std::size_t(i) * st;
        const float* ay = py + std::size_t(i) * st;
        for (int j = 0; j < subw; ++j) {
          const double vx = ax[j], vy = ay[j];
          acc += (vx - mx) * (vy - my);
        }
      }
      const float v = static_cast<float>(acc / count_d);
      cov[xi * E + yi] = v;
      cov[yi * E + xi] = v;
    }
}

// Rows::to_float8 / to_float16, the scalar reference (picture_copy).
void to_float8_scalar(const std::uint8_t* src, int w, float* dst) {
  for (int x = 0; x < w; ++x) dst[x] = static_cast<float>(src[x]) + -128.0f;
}
void to_float16_scalar(const std::uint16_t* src, int w, float scaler, float* dst) {
  for (int x = 0; x < w; ++x) dst[x] = static_cast<float>(src[x]) / scaler + -128.0f;
}

// Gaussian-scale-mixture fit on the 5x5 blocks of a dw x dh image.
// Returns true when the covariance matrix could not be inverted.
bool est_params(const Dims& d, const float* data, float sigma_nn, Work& w, float* ent, float* var) {
  const int st = d.dw;
  const int B = kBlock, E = kBlockElems;
  float* cov = w.cov.data();
  block_moments(d, data, w.means.data(), cov);
  float* eig = w.eig.data();
  eigenvalues(cov, E, eig);

  const int nb = d.nb;
  float* ind = w.ind.data();
  for (int si = 0; si < B; ++si)
    for (int sj = 0; sj < B; ++sj)
      for (int bi = 0; bi < d.nbv; ++bi)
        for (int bj = 0; bj < d.nbh; ++bj)
          ind[std::size_t(si * B + sj) * nb + bi * d.nbh + bj] = data[std::size_t(bi * B + si) * st + bj * B + sj];

  bool regular = true;
  for (int i = 0; i < E; ++i)
    if (eig[i] < kEps) {
      regular = false;
      break;
    }
  float* sol = w.sol.data();
  bool failed = !regular;
  if (regular) failed = !solve(cov, E, ind, nb, sol);
  const std::size_t rect = std::size_t(E) * nb;
  if (failed) std::fill(sol, sol + rect, 0.0f);
  const float denom = static_cast<float>(E);
  for (std::size_t i = 0; i < rect; ++i) sol[i] = (sol[i] * ind[i]) / denom;
  for (int i = 1; i < E; ++i)
    for (int j = 0; j < nb; ++j) sol[j] += sol[std::size_t(i) * nb + j];
  std::fill(ent, ent + nb, 0.0f);
  const double log2_2pie = std::log2(2 * M_PI * M_E);
  for (int k = 0; k < E; ++k) {
    const float L = eig[k] < 0 ? 0 : eig[k];
    for (int b = 0; b < nb; ++b)
      ent[b] = static_cast<float>(ent[b] + (std::log2(static_cast<double>(L * sol[b] + sigma_nn)) + log2_2pie));
  }
  std::memcpy(var, sol, sizeof(float) * nb);
  return failed;
}

float speed_score(const Dims& d, const float* er, const float* vr, const float* ed, const float* vd, float sigma_nn,
                  float nn_floor, int mode) {
  float score = 0;
  const float base =
      static_cast<float>(static_cast<double>(std::size_t(kBlockElems)) *
                         (std::log2(static_cast<double>((1 + nn_floor) * sigma_nn)) + std::log2(2 * M_PI * M_E)));
  auto lg = [](double x) { return std::log2(x); };
  for (int i = 0; i < d.nb; ++i) {
    if (er[i] < base && ed[i] < base) {
      score += 0;
      continue;
    }
    float sr = 0.0f, sdv = 0.0f;
    const double Er = er[i], Ed = ed[i];
    switch (mode) {
      case 0:
        sr = static_cast<float>(Er * lg(1 + vr[i]));
        sdv = static_cast<float>(Ed * lg(1 + vd[i]));
        break;
      case 1:
        sr = static_cast<float>(Er * lg(1 + vr[i]));
        sdv = static_cast<float>(Ed * lg(1 + vr[i]));
        break;
      case 2:
        sr = static_cast<float>(Er * lg(1 + vd[i]));
        sdv = static_cast<float>(Ed * lg(1 + vd[i]));
        break;
      case 3:
        sr = static_cast<float>(Er * lg(1 + (vr[i] + vd[i]) / 2.0));
        sdv = static_cast<float>(Ed * lg(1 + (vr[i] + vd[i]) / 2.0));
        break;
      case 4:
        sr = static_cast<float>(Er * lg(1 + vr[i]));
        sdv = static_cast<float>(Ed * lg(1 + (vr[i] + vd[i]) / 2.0));
        break;
      case 5:
        sr = static_cast<float>(Er * lg(1 + vr[i]));
        sdv = static_cast<float>(Ed * lg(1 + (0.75 * vr[i] + 0.25 * vd[i])));
        break;
      case 6:
        sr = static_cast<float>(Er * lg(1 + vr[i]));
        sdv = static_cast<float>(Ed * lg(1 + (0.25 * vr[i] + 0.75 * vd[i])));
        break;
      default: return -22.0f;  // unreachable: the option range is 0..6
    }
    score += std::fabs(sr - sdv);
  }
  return score / static_cast<float>(std::size_t(d.nb));
}

}  // namespace

void block_moments(const Dims& d, const float* data, float* means, float* cov) {
  rows().block_moments(data, std::size_t(d.dw) * std::size_t(d.dh), d.dw, d.subw, d.subh, means, cov);
}

const Rows& scalar_rows() {
  static const Rows r{block_moments_scalar, to_float8_scalar, to_float16_scalar};
  return r;
}

const Rows& rows() { return vmafx::simd::pick_rows(scalar_rows(), init_simd_rows); }

void eigenvalues(const float* a_in, int n, float* out) {
  if (n == 1) {
    out[0] = a_in[0];
    return;
  }
  // Per-thread work memory: the matrix, then d, sd, v, x.
  thread_local std::vector<float> buf;
  const std::size_t nn = std::size_t(n) * n;
  if (buf.size() < nn + 4 * std::size_t(n)) buf.resize(nn + 4 * std::size_t(n));
  float* a = buf.data();
  std::copy(a_in, a_in + nn, a);
  float* d = a + nn;
  float* sd = d + n;
  float* v = sd + n;
  float* x = v + n;
  std::fill(d, d + 4 * std::size_t(n), 0.0f);
  tridiagonalize(a, n, d, sd, v, x);
  chop(d, sd, n);
  int b = n - 1;
  int iter = 0;
  while (b > 0 && iter < kMaxIters) {
    if (sd[b - 1] == 0.0f) {
      --b;
      continue;
    }
    int a0 = b - 1;
    while (a0 > 0) {
      if (sd[a0 - 1] == 0.0f) break;
      --a0;
    }
    const int nblk = b - a0 + 1;
    qr_step(d + a0, sd + a0, nblk);
    chop(d + a0, sd + a0, nblk);
    ++iter;
  }
  for (int i = 0; i < n; ++i) out[i] = d[i];
}

bool solve(const float* a, int n, const float* b, int m, float* x) {
  const std::size_t nn = std::size_t(n) * n;
  thread_local std::vector<float> buf;
  if (buf.size() < 5 * nn + std::size_t(n) * m) buf.resize(5 * nn + std::size_t(n) * m);
  float* q = buf.data();
  float* r = q + nn;
  float* t1 = r + nn;
  float* t2 = t1 + nn;
  float* rect = t2 + nn;
  qr_decompose(a, q, r, t1, t2, n);
  mat_transpose(q, n);
  mat_mul(rect, q, b, n, n, m);
  for (int i = n - 1; i >= 0; --i) {
    const float den = r[i * n + i];
    if (std::fabs(den) < kEps) return false;
    for (int j = 0; j < m; ++j) {
      float t = rect[std::size_t(i) * m + j];
      for (int k = i + 1; k < n; ++k) t -= x[std::size_t(k) * m + j] * r[i * n + k];
      x[std::size_t(i) * m + j] = t / den;
    }
  }
  return true;
}

Dims make_dims(int w, int h, double prescale) {
  Dims d;
  d.ow = w;
  d.oh = h;
  d.sh = static_cast<int>(static_cast<double>(std::size_t(h)) * prescale + 0.5);
  d.sw = static_cast<int>(static_cast<double>(std::size_t(w)) * prescale + 0.5);
  d.dh = d.sh >> kScales;
  d.dw = d.sw >> kScales;
  d.tw = d.dw / kBlock * kBlock;
  d.th = d.dh / kBlock * kBlock;
  d.nbh = d.tw / kBlock;
  d.nbv = d.th / kBlock;
  d.nb = d.nbh * d.nbv;
  d.subw = d.tw - kBlock + 1;
  d.subh = d.th - kBlock + 1;
  return d;
}

void check(std::string_view owner, const Dims& d, const Params& p) {
  const std::string o(owner);
  if (d.tw == 0 || d.th == 0)
    throw unsupported_error(o + ": plane " + std::to_string(d.ow) + "x" + std::to_string(d.oh) + " (" +
                            std::to_string(d.sw) + "x" + std::to_string(d.sh) +
                            " after speed_prescale) is too small: 80x80 or more are needed (libvmaf crashes)");
  if (almost_one(p.prescale) && (d.sw != d.ow || d.sh != d.oh))
    throw unsupported_error(o + ": speed_prescale within 1e-3 of 1 that still changes the plane size is not supported");
}

int antialias_filter(const Params& p, float* filt) {
  const int fw1 = filter_size(1, p.kernelscale);
  gaussian(filt, fw1, static_cast<float>(std::sqrt(static_cast<double>(kScales)) * fw1 / 5.0f));
  return fw1;
}

DecimationTables decimation_tables(const Params& p, const Dims& d) {
  DecimationTables t;
  float f[128];
  t.taps.assign(f, f + antialias_filter(p, f));
  t.prescale = d.sw != d.ow || d.sh != d.oh;
  if (t.prescale) {
    t.scale_taps = flt::scale_axis(p.method, d.ow, d.sw, t.ix, t.wx);
    flt::scale_axis(p.method, d.oh, d.sh, t.iy, t.wy);
  }
  return t;
}

void put_chroma_decimated(const ChromaSetup& c, float* img, std::size_t n, unsigned index, FeatureSink& out) {
  float sc[2];
  bool err[2];
  for (int k = 0; k < 2; ++k) err[k] = score_decimated(c.p, c.d, img + 2 * k * n, img + (2 * k + 1) * n, &sc[k]);
  put_chroma(sc, err, c.max_val, index, out);
}

void put_temporal_decimated(const TemporalSetup& t, float* img, std::size_t n, unsigned index, FeatureSink& out) {
  float sc;
  score_decimated(t.p, t.d, img, img + n, &sc);
  put_temporal(sc, index, out);
}

bool score(const Params& p, const Dims& d, float* ref, float* dis, float* out) {
  Work& w = work(d);
  decimate(p, d, ref, w);
  decimate(p, d, dis, w);
  return score_decimated(p, d, ref, dis, out);
}

bool score_decimated(const Params& p, const Dims& d, float* ref, float* dis, float* out) {
  Work& w = work(d);
  remove_local_mean(p, d, ref, w);
  const bool er = est_params(d, ref, p.sigma_nn, w, w.ent[0].data(), w.var[0].data());
  remove_local_mean(p, d, dis, w);
  const bool ed = est_params(d, dis, p.sigma_nn, w, w.ent[1].data(), w.var[1].data());
  if (er != ed)
    *out = 0.0f;
  else
    *out = speed_score(d, w.ent[0].data(), w.var[0].data(), w.ent[1].data(), w.var[1].data(), p.sigma_nn, p.nn_floor,
                       p.weight_var_mode);
  return er || ed;
}

}  // namespace speed

namespace {

using speed::Dims;
using speed::Params;

constexpr std::string_view kU = "Speed_chroma_feature_speed_chroma_u_score";
constexpr std::string_view kV = "Speed_chroma_feature_speed_chroma_v_score";
constexpr std::string_view kUV = "Speed_chroma_feature_speed_chroma_uv_score";
constexpr std::string_view kT = "Speed_temporal_feature_speed_temporal_score";

#define VMAFX_SPEED_COMMON_OPTIONS                                                                             \
  {.name = "speed_kernelscale",                                                                                \
   .alias = "ks",                                                                                              \
   .help = "scaling factor for the Gaussian kernels (2.0 doubles their standard deviation and size)",          \
   .type = OptionType::kDouble,                                                                                \
   .default_num = 1.0,                                                                                         \
   .min = 0.1,                                                                                                 \
   .max = 4.0,                                                                                                 \
   .feature_param = true},                                                                                     \
      {.name = "speed_prescale",                                                                               \
       .alias = "ps",                                                                                          \
       .help = "scaling factor for the plane before filtering (2.0 doubles each dimension)",                   \
       .type = OptionType::kDouble,                                                                            \
       .default_num = 1.0,                                                                                     \
       .min = 0.1,                                                                                             \
       .max = 4.0,                                                                                             \
       .feature_param = true},                                                                                 \
      {.name = "speed_prescale_method",                                                                        \
       .alias = "psm",                                                                                         \
       .help = "rescaling method: nearest, bilinear, bicubic or lanczos4",                                     \
       .type = OptionType::kString,                                                                            \
       .default_str = "nearest",                                                                               \
       .feature_param = true},                                                                                 \
      {.name = "speed_sigma_nn",                                                                               \
       .alias = "snn",                                                                                         \
       .help = "standard deviation of the neural noise",                                                       \
       .type = OptionType::kDouble,                                                                            \
       .default_num = 0.29,                                                                                    \
       .min = 0.1,                                                                                             \
       .max = 2.0,                                                                                             \
       .feature_param = true},                                                                                 \
      {.name = "speed_nn_floor",                                                                               \
       .alias = "nnf",                                                                                         \
       .help = "neural noise floor, as a fraction of sigma_nn",                                                \
       .type = OptionType::kDouble,                                                                            \
       .default_num = 0.0,                                                                                     \
       .min = 0.0,                                                                                             \
       .max = 1.0,                                                                                             \
       .feature_param = true},                                                                                 \
  {                                                                                                            \
    .name = "speed_max_val", .alias = "mxv", .help = "upper clip for the scores", .type = OptionType::kDouble, \
    .default_num = 1000.0, .min = 0.0, .max = 1000.0, .feature_param = true                                    \
  }

constexpr OptionSpec kChromaOptions[] = {
    VMAFX_SPEED_COMMON_OPTIONS,
    {.name = "speed_weight_var_mode",
     .alias = "wvm",
     .help = "variance weighting of the entropies (0..6)",
     .type = OptionType::kInt,
     .default_num = 0,
     .min = 0,
     .max = 6,
     .feature_param = true},
};

constexpr OptionSpec kTemporalOptions[] = {
    VMAFX_SPEED_COMMON_OPTIONS,
    {.name = "speed_use_ref_diff",
     .alias = "urd",
     .help = "difference the distorted frame against the previous reference frame",
     .type = OptionType::kBool,
     .default_num = 0,
     .feature_param = true},
};
#undef VMAFX_SPEED_COMMON_OPTIONS

constexpr std::string_view kChromaProvided[] = {kU, kV, kUV};
constexpr std::string_view kTemporalProvided[] = {kT};

std::string fmt_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

Params read_params(std::string_view owner, const OptionSet& o, bool with_wvm) {
  Params p;
  const double ks = o.get_double("speed_kernelscale");
  if (!fvif::kernelscale_valid(ks)) {
    throw Error(std::string(owner) + ": speed_kernelscale " + fmt_g(ks) +
                " is not one of libvmaf's kernel scales (libvmaf crashes)");
  }
  p.kernelscale = static_cast<float>(ks);
  p.prescale = o.get_double("speed_prescale");
  const std::string& m = o.get_string("speed_prescale_method");
  if (!flt::parse_scale_method(m, &p.method))
    throw Error(std::string(owner) + ": speed_prescale_method '" + m +
                "' is not one of nearest, bilinear, bicubic, lanczos4");
  p.sigma_nn = static_cast<float>(o.get_double("speed_sigma_nn"));
  p.nn_floor = static_cast<float>(o.get_double("speed_nn_floor"));
  p.weight_var_mode = with_wvm ? o.get_int("speed_weight_var_mode") : 0;
  return p;
}

// picture_copy of the top-left w x h of a plane: (sample / 2^(bpc-8)) - 128.
template <class T>
void copy_region(const PlaneView& pv, int bpc, int w, int h, float* dst) {
  const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
  const speed::Rows& r = speed::rows();
  for (int y = 0; y < h; ++y, dst += w) {
    if constexpr (sizeof(T) == 1)
      r.to_float8(pv.row<T>(y), w, dst);
    else
      r.to_float16(pv.row<T>(y), w, scaler, dst);
  }
}

void copy_plane(const Picture& pic, int plane, int w, int h, float* dst) {
  const int bpc = pic.format().bpc;
  if (bpc == 8)
    copy_region<std::uint8_t>(pic.plane(plane), bpc, w, h, dst);
  else
    copy_region<std::uint16_t>(pic.plane(plane), bpc, w, h, dst);
}

class SpeedChroma final : public Extractor {
 public:
  SpeedChroma(const Params& p, const Dims& d, double max_val) : p_(p), d_(d), max_val_(max_val) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    const std::size_t n = std::size_t(std::max(d_.ow, d_.sw)) * std::max(d_.oh, d_.sh);
    thread_local std::vector<float> bufs[2];
    for (auto& b : bufs)
      if (b.size() < n) b.resize(n);
    float s[2];
    bool err[2];
    for (int c = 0; c < 2; ++c) {
      copy_plane(ref, c + 1, d_.ow, d_.oh, bufs[0].data());
      copy_plane(dis, c + 1, d_.ow, d_.oh, bufs[1].data());
      err[c] = speed::score(p_, d_, bufs[0].data(), bufs[1].data(), &s[c]);
    }
    speed::put_chroma(s, err, max_val_, index, out);
  }

 private:
  Params p_;
  Dims d_;
  double max_val_;
};

// Frame i differences the luma of frame i - 1 (which the engine keeps alive)
// and frame i: frames are scored in parallel.
class SpeedTemporal final : public LookBackExtractor {
 public:
  SpeedTemporal(const Params& p, const Dims& d, bool use_ref_diff) : p_(p), d_(d), urd_(use_ref_diff) {}

  unsigned history() const override { return 1; }

  void extract_with(const Picture& ref, const Picture& dis, const Earlier& earlier, unsigned index,
                    FeatureSink& out) override {
    if (index == 0) {
      out.put(kT, index, 0.0);
      return;
    }
    if (earlier.count < 1) throw std::logic_error("speed_temporal: the earlier frame is missing");
    const std::size_t n = std::size_t(d_.ow) * d_.oh;
    const std::size_t big = std::size_t(std::max(d_.ow, d_.sw)) * std::max(d_.oh, d_.sh);
    thread_local std::vector<float> prev[2], cur[2], diff[2];  // [ref, dis]
    for (auto* v : {&prev[0], &prev[1], &cur[0], &cur[1]})
      if (v->size() < n) v->resize(n);
    for (auto& v : diff)
      if (v.size() < big) v.resize(big);
    copy_plane(*earlier.ref[0], 0, d_.ow, d_.oh, prev[0].data());
    copy_plane(*earlier.dis[0], 0, d_.ow, d_.oh, prev[1].data());
    copy_plane(ref, 0, d_.ow, d_.oh, cur[0].data());
    if (!urd_) copy_plane(dis, 0, d_.ow, d_.oh, cur[1].data());
    const float* sub_dis = urd_ ? cur[0].data() : cur[1].data();
    for (std::size_t i = 0; i < n; ++i) {
      diff[0][i] = prev[0][i] - cur[0][i];
      diff[1][i] = prev[1][i] - sub_dis[i];
    }
    float s;
    speed::score(p_, d_, diff[0].data(), diff[1].data(), &s);
    speed::put_temporal(s, index, out);
  }

 private:
  Params p_;
  Dims d_;
  bool urd_;
};

}  // namespace

namespace speed {

void put_chroma(const float s[2], const bool err[2], double max_val, unsigned index, FeatureSink& out) {
  float uv;
  if (err[0] && !err[1])
    uv = s[1];
  else if (err[1] && !err[0])
    uv = s[0];
  else
    uv = static_cast<float>((s[0] + s[1]) / 2.0);
  auto cap = [max_val](float v) { return v < max_val ? static_cast<double>(v) : max_val; };
  out.put(kU, index, cap(s[0]));
  out.put(kV, index, cap(s[1]));
  out.put(kUV, index, cap(uv));
}

void put_temporal(float s, unsigned index, FeatureSink& out) { out.put(kT, index, static_cast<double>(s)); }

ChromaSetup chroma_setup(const OptionSet& o, const PictureFormat& fmt) {
  flt::check_depth("speed_chroma", fmt.bpc);
  int w = fmt.width, h = fmt.height;
  switch (fmt.chroma) {
    case ChromaFormat::k400: throw unsupported_error("speed_chroma: the input has no chroma planes (4:0:0)");
    case ChromaFormat::k420:
      w /= 2;
      h /= 2;
      break;
    case ChromaFormat::k422: w /= 2; break;
    case ChromaFormat::k444: break;
  }
  const Params p = read_params("speed_chroma", o, true);
  const Dims d = speed::make_dims(w, h, p.prescale);
  speed::check("speed_chroma", d, p);
  return {p, d, o.get_double("speed_max_val")};
}

TemporalSetup temporal_setup(const OptionSet& o, const PictureFormat& fmt) {
  flt::check_depth("speed_temporal", fmt.bpc);
  const Params p = read_params("speed_temporal", o, false);
  const Dims d = speed::make_dims(fmt.width, fmt.height, p.prescale);
  speed::check("speed_temporal", d, p);
  if (d.sh > d.oh)
    throw Error("speed_temporal: speed_prescale " + fmt_g(p.prescale) + " enlarges the frame height (" +
                std::to_string(d.oh) + " -> " + std::to_string(d.sh) +
                "), which overflows libvmaf's frame buffers (libvmaf crashes or corrupts memory)");
  return {p, d, o.get_bool("speed_use_ref_diff")};
}

}  // namespace speed

namespace {

std::unique_ptr<Extractor> create_chroma(const OptionSet& o, const PictureFormat& fmt) {
  const speed::ChromaSetup c = speed::chroma_setup(o, fmt);
  return std::make_unique<SpeedChroma>(c.p, c.d, c.max_val);
}

std::unique_ptr<Extractor> create_temporal(const OptionSet& o, const PictureFormat& fmt) {
  const speed::TemporalSetup t = speed::temporal_setup(o, fmt);
  return std::make_unique<SpeedTemporal>(t.p, t.d, t.use_ref_diff);
}

// Frame i differences frame i - 1 and frame i (frame 0 of a run has no score).
RangeReach temporal_range_reach(const OptionSet&) { return {1, 0, {}}; }

}  // namespace

const ExtractorDescriptor kSpeedChromaExtractor{
    .name = "speed_chroma",
    .options = kChromaOptions,
    .provided = kChromaProvided,
    .flags = 0,
    .create = &create_chroma,
};

const ExtractorDescriptor kSpeedTemporalExtractor{
    .name = "speed_temporal",
    .options = kTemporalOptions,
    .provided = kTemporalProvided,
    .flags = kTemporal,
    .create = &create_temporal,
    .range_reach = &temporal_range_reach,
};

}  // namespace vmafx
