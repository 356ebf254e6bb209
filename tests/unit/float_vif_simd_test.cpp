// SPDX-License-Identifier: BSD-3-Clause
// The SIMD rows of the float VIF (feature/float_vif_simd.cpp, in fvif::rows()
// while SIMD is on) against the scalar rows (fvif::scalar_rows()), for
// identical bits on every SIMD target this CPU runs:
// - moments / moments2 against the tap-ordered scalar sums of the five
//   moments, every width 1..300, filter widths 1..65, values over the whole
//   float range;
// - stat against the scalar statistic on rows built to reach every branch,
//   for sigma_nsq powers of two (the float shortcut of the denominator) and
//   other values, and gain limits;
// - the vectorised log2 polynomial against fvif::log2_approx;
// - fvif::compute (whole frames, every scale) with the SIMD path on and off.
// Two NaNs compare equal whatever their payloads; every other value must
// have the same bits. Without Highway (or a SIMD target) the tests skip.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "feature/float_vif.hpp"
#include "feature/float_vif_simd.hpp"
#include "core/simd.hpp"
#include "simd_targets.hpp"

namespace vmafx {
namespace {

bool same(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  std::uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return x == y;
}

bool same(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  std::uint64_t x, y;
  std::memcpy(&x, &a, 8);
  std::memcpy(&y, &b, 8);
  return x == y;
}

long first_diff(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return long(i);
  return -1;
}

float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Mostly ordinary values, some of every special kind.
float any_float(std::mt19937& rng) {
  const unsigned k = rng() % 64;
  const float inf = std::numeric_limits<float>::infinity();
  switch (k) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return inf;
    case 3: return -inf;
    case 4: return std::numeric_limits<float>::denorm_min() * float(rng() % 1000);
    case 5: return -std::numeric_limits<float>::max() / float(1 + rng() % 4);
    case 6: return std::numeric_limits<float>::max() / float(1 + rng() % 4);
    case 7: return std::numeric_limits<float>::quiet_NaN();
    default: break;
  }
  if (k < 20) return bits_float(std::uint32_t(rng()) & 0xff7fffffu);  // any finite value
  return (float(rng() % 2000001) - 1000000.0f) / 997.0f;
}

// Samples as the feature sees them (8-bit scale, -128 offset), or filtered.
float plain_float(std::mt19937& rng) { return float(int(rng() % 256) - 128) * (1.0f + float(rng() % 7) / 8.0f); }

std::vector<float> filter(std::mt19937& rng, int fw) {
  std::vector<float> f(static_cast<std::size_t>(fw));
  float sum = 0;
  for (float& v : f) sum += v = float(1 + rng() % 1000);
  for (float& v : f) v /= sum;
  return f;
}

class FloatVifSimd : public test::SimdTargets {
 protected:
  // The row table with the SIMD rows (for the target each_target pins).
  static const fvif::Rows& simd_rows() {
    vmafx::simd::set_enabled(true);
    EXPECT_TRUE(vmafx::simd::enabled());
    const fvif::Rows& r = fvif::rows();
    EXPECT_NE(&r, &fvif::scalar_rows());
    return r;
  }
  void TearDown() override {
    vmafx::simd::reset_enabled();
    test::SimdTargets::TearDown();
  }
};

TEST_F(FloatVifSimd, MomentsEqualTheTapOrderedSums) {
  std::mt19937 rng(31);
  struct Case {
    int w, fw;
    std::vector<float> f, a, b;  // fw + 1 rows of w values each
  };
  std::vector<Case> cases;
  for (int w = 1; w <= 300; ++w) {
    const int fw = 1 + 2 * int(rng() % 33);  // 1 .. 65
    Case c{w, fw, filter(rng, fw), std::vector<float>(std::size_t(fw + 1) * w), {}};
    c.b.resize(c.a.size());
    const bool wild = w % 3 == 0;
    for (std::size_t i = 0; i < c.a.size(); ++i) {
      c.a[i] = wild ? any_float(rng) : plain_float(rng);
      c.b[i] = wild ? any_float(rng) : c.a[i] + float(int(rng() % 9) - 4);
    }
    if (w % 7 == 0) c.f[rng() % c.f.size()] = -c.f[0];  // a negative tap
    cases.push_back(std::move(c));
  }
  const auto rows = [](const Case& c, const std::vector<float>& v, int first, int count) {
    std::vector<const float*> r;
    for (int k = 0; k < count; ++k) r.push_back(v.data() + std::size_t(first + k) * c.w);
    return r;
  };
  // The scalar rows' sums of rows 0 .. fw - 1 and 1 .. fw.
  const auto scalar = [&](const Case& c, int first, std::vector<float>* want) {
    float* t[5];
    for (int q = 0; q < 5; ++q) {
      want[q].assign(std::size_t(c.w), 12345.0f);
      t[q] = want[q].data();
    }
    fvif::scalar_rows().moments(c.f.data(), c.fw, rows(c, c.a, first, c.fw).data(), rows(c, c.b, first, c.fw).data(),
                                c.w, t);
  };
  std::vector<std::vector<float>> want0(cases.size() * 5), want1(cases.size() * 5);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    scalar(cases[i], 0, &want0[5 * i]);
    scalar(cases[i], 1, &want1[5 * i]);
  }
  each_target([&] {
    const fvif::Rows& simd = simd_rows();
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      std::vector<float> out(std::size_t(10) * c.w, 12345.0f);
      float* t[5];
      float* u[5];
      for (int q = 0; q < 5; ++q) {
        t[q] = out.data() + std::size_t(q) * c.w;
        u[q] = out.data() + std::size_t(5 + q) * c.w;
      }
      const auto ra = rows(c, c.a, 0, c.fw + 1), rb = rows(c, c.b, 0, c.fw + 1);
      simd.moments(c.f.data(), c.fw, ra.data(), rb.data(), c.w, t);
      for (int q = 0; q < 5; ++q)
        ASSERT_EQ(first_diff(std::vector<float>(t[q], t[q] + c.w), want0[5 * i + q]), -1)
            << "one row, moment " << q << " w " << c.w << " fw " << c.fw;
      std::fill(out.begin(), out.end(), 12345.0f);
      simd.moments2(c.f.data(), c.fw, ra.data(), rb.data(), c.w, t, u);
      for (int q = 0; q < 5; ++q) {
        ASSERT_EQ(first_diff(std::vector<float>(t[q], t[q] + c.w), want0[5 * i + q]), -1)
            << "two rows, first, moment " << q << " w " << c.w << " fw " << c.fw;
        ASSERT_EQ(first_diff(std::vector<float>(u[q], u[q] + c.w), want1[5 * i + q]), -1)
            << "two rows, second, moment " << q << " w " << c.w << " fw " << c.fw;
      }
    }
  });
}

// One column of filtered moments of a chosen kind.
struct Moments {
  float mu1, mu2, xx, yy, xy;
};

Moments column(std::mt19937& rng, int kind) {
  const float mu1 = plain_float(rng) / 1.3f, mu2 = plain_float(rng) / 1.7f;
  const float v1 = float(rng() % 2000) / 7.0f, v2 = float(rng() % 2000) / 11.0f;
  const float cov = (float(rng() % 2001) - 1000.0f) / 13.0f;
  switch (kind) {
    case 0:  // typical
      return {mu1, mu2, mu1 * mu1 + v1, mu2 * mu2 + v2, mu1 * mu2 + cov};
    case 1:  // no variance in the reference (sigma1_sq < eps, or exactly 0)
      return {mu1, mu2, mu1 * mu1, mu2 * mu2 + v2, mu1 * mu2 + cov};
    case 2:  // no variance in the distorted picture
      return {mu1, mu2, mu1 * mu1 + v1, mu2 * mu2, mu1 * mu2 + cov};
    case 3:  // negative covariance (g < 0, sigma12 < 0)
      return {mu1, mu2, mu1 * mu1 + v1, mu2 * mu2 + v2, mu1 * mu2 - std::fabs(cov) - 1.0f};
    case 4:  // small variances around sigma_nsq (both sides of the comparison)
      return {0.0f, 0.0f, float(rng() % 64) / 16.0f, float(rng() % 64) / 16.0f, float(rng() % 64) / 32.0f};
    case 5:  // a large gain (clipped at the gain limit)
      return {mu1, mu2, mu1 * mu1 + 0.01f, mu2 * mu2 + v2 + 100.0f, mu1 * mu2 + 5.0f};
    case 6:  // tiny differences near eps
      return {0.0f, 0.0f, float(rng() % 4) * 1e-10f, float(rng() % 4) * 1e-10f, float(int(rng() % 5) - 2) * 1e-10f};
    case 7:  // negative variances (clamped to 0)
      return {mu1, mu2, mu1 * mu1 - v1, mu2 * mu2 - v2, cov};
    default:  // anything
      return {any_float(rng), any_float(rng), any_float(rng), any_float(rng), any_float(rng)};
  }
}

TEST_F(FloatVifSimd, StatRowEqualsScalar) {
  std::mt19937 rng(32);
  struct Params {
    double sigma_nsq;
    float gain_limit;
  };
  // Powers of two take the float shortcut for the denominator (|k| <= 8);
  // the others, and 2^9, the double path.
  const Params params[] = {{2.0, 100.0f},        {1.0, 1.0f},     {0.5, 100.0f},       {4.0, 1.5f},
                           {0.00390625, 100.0f}, {256.0, 100.0f}, {512.0, 100.0f},     {1.7, 100.0f},
                           {0.0, 100.0f},        {5.0, 1.0f},     {2.0000001, 100.0f}, {0.1, 3.0f}};
  struct Case {
    int w;
    Params p;
    float inv;
    std::vector<float> m[5];
  };
  std::vector<Case> cases;
  for (const Params& p : params)
    for (int w = 1; w <= 300; w += (w < 40 ? 1 : 13)) {
      Case c{w, p, static_cast<float>(std::pow(static_cast<float>(p.sigma_nsq), 2.0f) / (255.0 * 255.0)), {}};
      for (auto& v : c.m) v.resize(std::size_t(w));
      const int mode = int(rng() % 4);  // 0: mixed kinds, 1: typical only, 2: kind per row, 3: anything
      const int row_kind = int(rng() % 9);
      for (int j = 0; j < w; ++j) {
        const int kind = mode == 0 ? int(rng() % 9) : mode == 1 ? 0 : mode == 2 ? row_kind : 8;
        const Moments q = column(rng, kind);
        c.m[0][j] = q.mu1;
        c.m[1][j] = q.mu2;
        c.m[2][j] = q.xx;
        c.m[3][j] = q.yy;
        c.m[4][j] = q.xy;
      }
      cases.push_back(std::move(c));
    }
  std::vector<float> want_num, want_den;
  for (const Case& c : cases) {
    float n, d;
    fvif::scalar_rows().stat(c.m[0].data(), c.m[1].data(), c.m[2].data(), c.m[3].data(), c.m[4].data(), c.w,
                             fvif::stat_consts(c.inv, c.p.gain_limit, c.p.sigma_nsq), &n, &d);
    want_num.push_back(n);
    want_den.push_back(d);
  }
  each_target([&] {
    const fvif::Rows& simd = simd_rows();
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      float n, d;
      simd.stat(c.m[0].data(), c.m[1].data(), c.m[2].data(), c.m[3].data(), c.m[4].data(), c.w,
                fvif::stat_consts(c.inv, c.p.gain_limit, c.p.sigma_nsq), &n, &d);
      ASSERT_TRUE(same(n, want_num[i])) << "num w " << c.w << " nsq " << c.p.sigma_nsq << ": " << n << " vs "
                                        << want_num[i];
      ASSERT_TRUE(same(d, want_den[i])) << "den w " << c.w << " nsq " << c.p.sigma_nsq << ": " << d << " vs "
                                        << want_den[i];
    }
  });
}

// Single columns: a wrong lane cannot hide in a row total.
TEST_F(FloatVifSimd, StatColumnsEqualScalar) {
  std::mt19937 rng(33);
  const double nsqs[] = {2.0, 1.7, 0.25};
  std::vector<Moments> cols;
  for (int i = 0; i < 4000; ++i) cols.push_back(column(rng, i % 9));
  each_target([&] {
    const fvif::Rows& simd = simd_rows();
    for (const double nsq : nsqs) {
      const float inv = static_cast<float>(std::pow(static_cast<float>(nsq), 2.0f) / (255.0 * 255.0));
      const vmafx_fvif_consts k = fvif::stat_consts(inv, 100.0f, nsq);
      for (const Moments& q : cols) {
        float wn, wd, n, d;
        fvif::scalar_rows().stat(&q.mu1, &q.mu2, &q.xx, &q.yy, &q.xy, 1, k, &wn, &wd);
        simd.stat(&q.mu1, &q.mu2, &q.xx, &q.yy, &q.xy, 1, k, &n, &d);
        ASSERT_TRUE(same(n, wn) && same(d, wd))
            << q.mu1 << " " << q.mu2 << " " << q.xx << " " << q.yy << " " << q.xy << " nsq " << nsq;
      }
    }
  });
}

TEST_F(FloatVifSimd, Log2EqualsScalar) {
  std::mt19937 rng(34);
  std::vector<float> x = {0.0f,
                          -0.0f,
                          1.0f,
                          -1.0f,
                          2.0f,
                          0.5f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::denorm_min(),
                          std::numeric_limits<float>::min(),
                          std::numeric_limits<float>::max(),
                          1.0f + 1e-7f,
                          0.99999994f};
  for (std::uint32_t e = 0; e < 256; ++e)  // every exponent, both signs
    for (int s = 0; s < 2; ++s) x.push_back(bits_float((std::uint32_t(s) << 31) | (e << 23) | (rng() & 0x7fffffu)));
  for (int i = 0; i < 100000; ++i) x.push_back(bits_float(std::uint32_t(rng())));
  for (int i = 0; i < 1000; ++i) x.push_back(1.0f + float(rng() % 100000) / 1000.0f);
  std::vector<float> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = fvif::log2_approx(x[i]);
  each_target([&] {
    std::vector<float> got(x.size());
    fvif::simd::log2_approx_n(x.data(), int(x.size()), got.data());
    const long d = first_diff(got, want);
    ASSERT_EQ(d, -1) << "x = " << x[std::size_t(d < 0 ? 0 : d)];
  });
}

// Whole frames through every scale, SIMD on and off.
TEST_F(FloatVifSimd, ComputeEqualsScalar) {
  std::mt19937 rng(35);
  struct Case {
    int w, h;
    fvif::Params p;
    bool wild;
  };
  std::vector<Case> cases;
  const int sizes[][2] = {{64, 64}, {65, 67}, {121, 80}, {177, 144}, {352, 288}, {33, 200}, {301, 41}};
  for (const auto& s : sizes) cases.push_back({s[0], s[1], {}, false});
  fvif::Params p;
  p.sigma_nsq = 1.7;
  cases.push_back({160, 90, p, false});
  p.sigma_nsq = 0.0;
  cases.push_back({160, 90, p, false});
  p = {};
  p.enhn_gain_limit = 1.0;
  cases.push_back({160, 90, p, false});
  p = {};
  p.skip_scale0 = true;
  cases.push_back({160, 90, p, false});
  p = {};
  p.kernelscale = 0.5;
  cases.push_back({99, 70, p, false});
  p.kernelscale = 3.0;
  cases.push_back({420, 300, p, false});
  p.kernelscale = 360.0 / 97.0;
  cases.push_back({520, 400, p, false});
  cases.push_back({128, 96, {}, true});
  // The smallest pictures the feature accepts.
  for (int m = 1; m < 200; ++m)
    if (fvif::size_ok(m, m, {})) {
      cases.push_back({m, m, {}, false});
      break;
    }
  const auto run = [&](const Case& c, std::uint32_t seed) {
    std::mt19937 g(seed);
    std::vector<float> ref(std::size_t(c.w) * c.h), dis(ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const int x = int(i % c.w), y = int(i / c.w);
      ref[i] = c.wild ? any_float(g) / 1e30f : float(((x * 7 + y * 3) % 200) - 100 + int(g() % 30));
      dis[i] = c.wild ? any_float(g) / 1e30f : ref[i] + float(int(g() % 21) - 10) * ((x / 16 + y / 16) % 3 == 0);
    }
    return fvif::compute(ref.data(), dis.data(), c.w, c.h, c.p);
  };
  vmafx::simd::set_enabled(false);
  std::vector<fvif::Scores> want;
  for (std::size_t i = 0; i < cases.size(); ++i) want.push_back(run(cases[i], std::uint32_t(100 + i)));
  vmafx::simd::set_enabled(true);
  each_target([&] {
    ASSERT_TRUE(vmafx::simd::enabled());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const fvif::Scores got = run(cases[i], std::uint32_t(100 + i));
      for (int s = 0; s < 4; ++s) {
        ASSERT_TRUE(same(got.num[s], want[i].num[s])) << cases[i].w << "x" << cases[i].h << " scale " << s;
        ASSERT_TRUE(same(got.den[s], want[i].den[s])) << cases[i].w << "x" << cases[i].h << " scale " << s;
      }
    }
  });
}

}  // namespace
}  // namespace vmafx
