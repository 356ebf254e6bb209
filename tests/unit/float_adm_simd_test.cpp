// SPDX-License-Identifier: BSD-3-Clause
// The SIMD rows of the float ADM (feature/float_adm_simd.cpp, in fadm::rows()
// while SIMD is on) against the scalar rows (fadm::scalar_rows()), for
// identical bits on every SIMD target this CPU runs:
// - dwt_vertical / dwt_horizontal, every width 1..300;
// - the RCPSS estimate against flt::rcp_estimate on every exponent and
//   random bit patterns;
// - decouple, csf, den and masked on band-like values, values built to pass
//   the angle test, and the whole float range, for several gain limits
//   (float and not) and column ranges (narrower than a vector too, where the
//   vector path allows it);
// - fadm::compute (whole frames) with the SIMD path on and off.
// Two NaNs compare equal whatever their payloads; every other value must
// have the same bits. Without Highway (or a SIMD target) the tests skip.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "feature/float_adm.hpp"
#include "feature/float_adm_simd.hpp"
#include "exact/float_adm_tables.h"
#include "feature/float_common.hpp"
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
  if (k < 20) return bits_float(std::uint32_t(rng()) & 0xff7fffffu);
  return (float(rng() % 2000001) - 1000000.0f) / 997.0f;
}

// Wavelet-band-like values: mostly small, signed, some zeros.
float band_float(std::mt19937& rng) {
  const unsigned k = rng() % 16;
  if (k == 0) return 0.0f;
  if (k == 1) return -0.0f;
  return (float(int(rng() % 40001) - 20000) / 97.0f) * (k < 4 ? 0.01f : 1.0f);
}

class FloatAdmSimd : public test::SimdTargets {
 protected:
  // The row table with the SIMD rows (for the target each_target pins).
  static const fadm::Rows& simd_rows() {
    vmafx::simd::set_enabled(true);
    EXPECT_TRUE(vmafx::simd::enabled());
    const fadm::Rows& r = fadm::rows();
    EXPECT_NE(&r, &fadm::scalar_rows());
    return r;
  }
  void TearDown() override {
    vmafx::simd::reset_enabled();
    test::SimdTargets::TearDown();
  }
};

TEST_F(FloatAdmSimd, DwtRowsEqualTheFourTapSums) {
  std::mt19937 rng(41);
  std::vector<std::vector<float>> rows;  // per width: 4 rows (vertical) then 2 rows (horizontal)
  for (int w = 1; w <= 300; ++w) {
    std::vector<float> v(std::size_t(6) * w);
    for (float& x : v) x = (w % 4 == 0) ? any_float(rng) : band_float(rng);
    rows.push_back(std::move(v));
  }
  const fadm::Rows& scalar = fadm::scalar_rows();
  each_target([&] {
    const fadm::Rows& simd = simd_rows();
    const int n = int(fadm::simd::lanes());
    for (int w = 1; w <= 300; ++w) {
      const std::vector<float>& v = rows[std::size_t(w - 1)];
      const float* r[4] = {v.data(), v.data() + w, v.data() + 2 * w, v.data() + 3 * w};
      std::vector<float> want_lo(static_cast<std::size_t>(w), 5.0f), want_hi(static_cast<std::size_t>(w), 5.0f);
      scalar.dwt_vertical(r, w, want_lo.data(), want_hi.data());
      std::vector<float> got_lo(static_cast<std::size_t>(w), 7.0f), got_hi(static_cast<std::size_t>(w), 7.0f);
      simd.dwt_vertical(r, w, got_lo.data(), got_hi.data());
      ASSERT_EQ(first_diff(got_lo, want_lo), -1) << "vertical lo w " << w;
      ASSERT_EQ(first_diff(got_hi, want_hi), -1) << "vertical hi w " << w;
      std::vector<float> only_lo(static_cast<std::size_t>(w), 7.0f);
      simd.dwt_vertical(r, w, only_lo.data(), nullptr);
      ASSERT_EQ(first_diff(only_lo, want_lo), -1) << "vertical lo only w " << w;

      // Horizontal: the interior outputs 1 <= j <= (w - 3) / 2.
      const int j0 = 1, j1 = (w - 3) / 2 + 1;
      if (w < 3 || j1 - j0 < n) continue;
      const float* tl = v.data() + 4 * w;
      const float* th = v.data() + 5 * w;
      const int ow = (w + 1) / 2;
      std::vector<float> want[4], got[4];
      for (int b = 0; b < 4; ++b) {
        want[b].assign(static_cast<std::size_t>(ow), 7.0f);
        got[b].assign(static_cast<std::size_t>(ow), 7.0f);
      }
      // Exactly the w values of each row (a sanitizer sees any overread).
      const std::vector<float> tlo(tl, tl + w), thi(th, th + w);
      scalar.dwt_horizontal(tlo.data(), thi.data(), j0, j1, want[0].data(), want[1].data(), want[2].data(),
                            want[3].data());
      simd.dwt_horizontal(tlo.data(), thi.data(), j0, j1, got[0].data(), got[1].data(), got[2].data(), got[3].data());
      for (int b = 0; b < 4; ++b) ASSERT_EQ(first_diff(got[b], want[b]), -1) << "horizontal band " << b << " w " << w;
      std::vector<float> a(static_cast<std::size_t>(ow), 7.0f);
      simd.dwt_horizontal(tlo.data(), nullptr, j0, j1, a.data(), nullptr, nullptr, nullptr);
      ASSERT_EQ(first_diff(a, want[0]), -1) << "horizontal lo only w " << w;
    }
  });
}

TEST_F(FloatAdmSimd, RcpEstimateEqualsScalar) {
  std::mt19937 rng(42);
  std::vector<float> x = {0.0f,
                          -0.0f,
                          1.0f,
                          -1.0f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          -std::numeric_limits<float>::quiet_NaN(),
                          bits_float(0x7f800001u),
                          bits_float(0xff812345u),
                          std::numeric_limits<float>::denorm_min(),
                          std::numeric_limits<float>::min(),
                          std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max()};
  for (std::uint32_t e = 0; e < 256; ++e)
    for (std::uint32_t m : {0u, 1u, 0x400000u, 0x7fffffu, std::uint32_t(rng()) & 0x7fffffu})
      for (std::uint32_t s : {0u, 1u}) x.push_back(bits_float((s << 31) | (e << 23) | m));
  for (std::uint32_t i = 0; i < 4096; ++i) x.push_back(bits_float(0x3f800000u | (i << 11)));  // every entry
  for (int i = 0; i < 300000; ++i) x.push_back(bits_float(std::uint32_t(rng())));
  for (const LibvmafCpu cpu : {LibvmafCpu::kIntel, LibvmafCpu::kAmd}) {
    SCOPED_TRACE(std::string(libvmaf_cpu_name(cpu)));
    std::vector<float> want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) want[i] = flt::rcp_estimate(x[i], cpu);
    each_target([&] {
      std::vector<float> got(x.size());
      fadm::simd::rcp_estimate_n(x.data(), int(x.size()), cpu, got.data());
      for (std::size_t i = 0; i < x.size(); ++i) {
        std::uint32_t a, b;
        std::memcpy(&a, &got[i], 4);
        std::memcpy(&b, &want[i], 4);
        ASSERT_EQ(a, b) << "x bits " << std::hex << [&] {
          std::uint32_t u;
          std::memcpy(&u, &x[i], 4);
          return u;
        }();
      }
    });
  }
}

// One band row set: reference and distorted h, v, d rows of width w.
struct Rows {
  int w;
  std::vector<float> v[6];
};

// kind 0: band-like; 1: distorted = reference * k (passes the angle test,
// some ratios beyond the clip); 2: anything; 3: zeros and signed zeros mixed in.
Rows make_rows(std::mt19937& rng, int w, int kind) {
  Rows r{w, {}};
  for (auto& v : r.v) v.resize(static_cast<std::size_t>(w));
  for (int j = 0; j < w; ++j) {
    for (int q = 0; q < 3; ++q) {
      float o = band_float(rng), t = band_float(rng);
      if (kind == 1) t = o * (float(int(rng() % 400) - 100) / 97.0f) + float(int(rng() % 3) - 1) * 1e-3f;
      if (kind == 2) {
        o = any_float(rng);
        t = any_float(rng);
      }
      if (kind == 3 && rng() % 2) (rng() % 2 ? o : t) = (rng() % 2) ? 0.0f : -0.0f;
      r.v[q][j] = o;
      r.v[3 + q][j] = t;
    }
  }
  return r;
}

TEST_F(FloatAdmSimd, DecoupleRowEqualsScalar) {
  std::mt19937 rng(43);
  const double gains[] = {100.0, 1.0, 1.5, 1.1, 37.3, 4.0e10};
  std::vector<Rows> rows;
  for (int w = 1; w <= 200; w += (w < 40 ? 1 : 9)) rows.push_back(make_rows(rng, w, int(rng() % 4)));
  for (const LibvmafCpu cpu : {LibvmafCpu::kIntel, LibvmafCpu::kAmd, LibvmafCpu::kGeneric})
    each_target([&] {
      const fadm::Rows& simd = simd_rows();
      for (const double gl : gains)
        for (const Rows& r : rows)
          for (int l : {0, 1, 3}) {
            if (l >= r.w) continue;
            const int right = r.w - (l == 3 ? 2 : 0) > l ? r.w - (l == 3 ? 2 : 0) : r.w;
            const float* o[3] = {r.v[0].data(), r.v[1].data(), r.v[2].data()};
            const float* t[3] = {r.v[3].data(), r.v[4].data(), r.v[5].data()};
            std::vector<float> want(std::size_t(6) * r.w, 5.0f), got(want);
            float* wr[3] = {want.data(), want.data() + r.w, want.data() + 2 * r.w};
            float* wa[3] = {want.data() + 3 * r.w, want.data() + 4 * r.w, want.data() + 5 * r.w};
            float* gr[3] = {got.data(), got.data() + r.w, got.data() + 2 * r.w};
            float* ga[3] = {got.data() + 3 * r.w, got.data() + 4 * r.w, got.data() + 5 * r.w};
            fadm::scalar_rows().decouple(o, t, l, right, gl, cpu, wr, wa);
            simd.decouple(o, t, l, right, gl, cpu, gr, ga);
            const long d = first_diff(got, want);
            ASSERT_EQ(d, -1) << libvmaf_cpu_name(cpu) << " w " << r.w << " [" << l << ", " << right << ") gain " << gl
                             << " at " << d;
          }
    });
}

TEST_F(FloatAdmSimd, CsfRowEqualsScalar) {
  std::mt19937 rng(44);
  const float factors[] = {1.0f, 0.0f, -2.5f, 7.1234567f, 1e-20f, 3e30f};
  each_target([&] {
    const fadm::Rows& simd = simd_rows();
    for (int w = 1; w <= 200; ++w) {
      std::vector<float> src(static_cast<std::size_t>(w));
      for (float& x : src) x = (w % 3 == 0) ? any_float(rng) : band_float(rng);
      for (const float rf : factors)
        for (int l : {0, 2}) {
          if (l >= w) continue;
          std::vector<float> wd(src.size(), 5.0f), wf(wd), gd(wd), gf(wd);
          fadm::scalar_rows().csf(src.data(), rf, l, w, wd.data(), wf.data());
          simd.csf(src.data(), rf, l, w, gd.data(), gf.data());
          ASSERT_EQ(first_diff(gd, wd), -1) << "dst w " << w << " rf " << rf;
          ASSERT_EQ(first_diff(gf, wf), -1) << "flt w " << w << " rf " << rf;
        }
    }
  });
}

TEST_F(FloatAdmSimd, DenRowEqualsScalar) {
  std::mt19937 rng(45);
  const float rf[3] = {0.1234f, 0.1234f, 0.0567f};
  each_target([&] {
    const fadm::Rows& simd = simd_rows();
    const int n = int(fadm::simd::lanes());
    for (int w = 1; w <= 700; w += (w < 60 ? 1 : 37)) {
      std::vector<float> v(std::size_t(3) * w);
      for (float& x : v) x = (w % 5 == 0) ? any_float(rng) : band_float(rng);
      const float* rows[3] = {v.data(), v.data() + w, v.data() + 2 * w};
      for (int l : {0, 1, 5}) {
        if (w - l < n) continue;
        float want[3], got[3];
        fadm::scalar_rows().den(rows, rf, l, w, 3.0, want);
        simd.den(rows, rf, l, w, 3.0, got);
        for (int t = 0; t < 3; ++t) ASSERT_TRUE(same(got[t], want[t])) << "w " << w << " l " << l << " t " << t;
      }
    }
  });
}

TEST_F(FloatAdmSimd, MaskedRowEqualsScalar) {
  std::mt19937 rng(46);
  const float rf[3] = {0.5f, 0.5f, 0.25f};
  each_target([&] {
    const fadm::Rows& simd = simd_rows();
    const int n = int(fadm::simd::lanes());
    for (int w = 3; w <= 700; w += (w < 60 ? 1 : 37)) {
      // 3 orientations x (src, up, mid, down, ang) rows.
      std::vector<float> v(std::size_t(15) * w);
      const bool wild = w % 5 == 0;
      for (float& x : v) x = wild ? any_float(rng) : band_float(rng);
      // Masking filter inputs are |x| / 30 in the feature; keep most non-negative.
      for (int q = 0; q < 3; ++q)
        for (int k = 1; k <= 3; ++k)
          for (int j = 0; j < w; ++j) {
            float& x = v[std::size_t(q * 5 + k) * w + j];
            if (!wild || rng() % 4) x = std::fabs(x) / 30.0f;
          }
      const auto row = [&](int q, int k) { return v.data() + std::size_t(q * 5 + k) * w; };
      const float* src[3] = {row(0, 0), row(1, 0), row(2, 0)};
      const float* fu[3] = {row(0, 1), row(1, 1), row(2, 1)};
      const float* fm[3] = {row(0, 2), row(1, 2), row(2, 2)};
      const float* fd[3] = {row(0, 3), row(1, 3), row(2, 3)};
      const float* ang[3] = {row(0, 4), row(1, 4), row(2, 4)};
      for (int l : {1, 2, 7})
        for (int cut : {1, 3}) {
          const int r = w - cut;
          if (r - l < n) continue;
          for (bool bypass : {false, true}) {
            float want[3], got[3];
            fadm::scalar_rows().masked(src, fu, fm, fd, ang, rf, l, r, w, bypass, 3.0, want);
            simd.masked(src, fu, fm, fd, ang, rf, l, r, w, bypass, 3.0, got);
            for (int t = 0; t < 3; ++t)
              ASSERT_TRUE(same(got[t], want[t]))
                  << "w " << w << " [" << l << ", " << r << ") bypass " << bypass << " t " << t;
          }
        }
    }
  });
}

// Whole frames through every scale, SIMD on and off.
TEST_F(FloatAdmSimd, ComputeEqualsScalar) {
  struct Case {
    int w, h;
    fadm::Params p;
    bool wild;
  };
  std::vector<Case> cases;
  const int sizes[][2] = {{17, 17}, {18, 23}, {64, 48}, {121, 80}, {177, 144}, {352, 288}, {500, 41}, {33, 260}};
  for (const auto& s : sizes) cases.push_back({s[0], s[1], {}, false});
  fadm::Params p;
  p.enhn_gain_limit = 1.0;
  cases.push_back({160, 90, p, false});
  p.enhn_gain_limit = 1.1;  // not a float: the double path of the gain limit
  cases.push_back({160, 90, p, false});
  p = {};
  p.bypass_cm = true;
  cases.push_back({160, 90, p, false});
  p = {};
  p.p_norm = 2.5;  // scalar terms
  cases.push_back({160, 90, p, false});
  p = {};
  p.csf_mode = 1;
  p.noise_weight = 0.2;
  cases.push_back({200, 120, p, false});
  p = {};
  p.csf_mode = 2;
  p.skip_scale0 = true;
  cases.push_back({200, 120, p, false});
  cases.push_back({128, 96, {}, true});
  const auto run = [&](const Case& c, std::uint32_t seed) {
    std::mt19937 g(seed);
    std::vector<float> ref(std::size_t(c.w) * c.h), dis(ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const int x = int(i % c.w), y = int(i / c.w);
      ref[i] = c.wild ? any_float(g) / 1e30f : float(((x * 7 + y * 3) % 200) - 100 + int(g() % 30));
      dis[i] = c.wild ? any_float(g) / 1e30f
                      : ref[i] * (1.0f - 0.1f * ((x / 8 + y / 8) % 3)) + float(int(g() % 11) - 5) * ((x / 16) % 2);
    }
    return fadm::compute(ref.data(), dis.data(), c.w, c.h, c.p);
  };
  vmafx::simd::set_enabled(false);
  std::vector<fadm::Scores> want;
  for (std::size_t i = 0; i < cases.size(); ++i) want.push_back(run(cases[i], std::uint32_t(200 + i)));
  vmafx::simd::set_enabled(true);
  each_target([&] {
    ASSERT_TRUE(vmafx::simd::enabled());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const fadm::Scores got = run(cases[i], std::uint32_t(200 + i));
      const fadm::Scores& w = want[i];
      const std::string at =
          std::to_string(cases[i].w) + "x" + std::to_string(cases[i].h) + " case " + std::to_string(i);
      EXPECT_TRUE(same(got.score, w.score)) << at;
      EXPECT_TRUE(same(got.aim, w.aim)) << at;
      EXPECT_TRUE(same(got.num, w.num)) << at;
      EXPECT_TRUE(same(got.den, w.den)) << at;
      for (int s = 0; s < 4; ++s) {
        EXPECT_TRUE(same(got.num_scale[s], w.num_scale[s])) << at << " scale " << s;
        EXPECT_TRUE(same(got.den_scale[s], w.den_scale[s])) << at << " scale " << s;
      }
    }
  });
}

}  // namespace
}  // namespace vmafx
