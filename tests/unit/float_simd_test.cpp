// SPDX-License-Identifier: BSD-3-Clause
// The SIMD rows of the shared float helpers (feature/float_simd.cpp) and of
// SpEED's block statistics (feature/speed_simd.cpp) against the scalar loops,
// for identical bits on every SIMD target this CPU runs:
// - flt::simd::vertical / horizontal / horizontal_dec2 against the tap-ordered
//   scalar sum, every
//   width 1..300, filter widths 1..37, values over the whole float range with
//   signed zeros, subnormals and infinities;
// - flt::simd::row_abs_diff_sums (float_motion's SAD rows) against the
//   running float sums, and fmotion::sad on and off;
// - fmotion::blurred_sad against sad() of the full-frame blurred planes;
// - flt::simd::exact_sum (float_psnr's and float_moment's sums) against the
//   running double sums;
// - flt::convolve_row, convolve, convolve_decimated and plane_to_float with
//   the SIMD path on and off (and convolve_decimated against the kept samples
//   of the full convolve);
// - speed's rows (block means and covariances, picture_copy) against
//   speed::scalar_rows(), the means and covariances at the sizes the
//   features produce and at the smallest ones;
// - speed::score on and off.
// Two NaNs compare equal whatever their payloads (inf - inf in both paths);
// every other value must have the same bits. Without Highway (or on a CPU
// without a SIMD target) the tests skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "feature/float_common.hpp"
#include "feature/float_motion.hpp"
#include "feature/float_simd.hpp"
#include "feature/speed.hpp"
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

// Index of the first differing value, or -1.
long first_diff(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return long(i);
  return -1;
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
    default: break;
  }
  std::uint32_t bits = std::uint32_t(rng());
  if (k < 20) {
    float f;
    bits &= 0xff7fffffu;  // any finite value (exponent below 255)
    std::memcpy(&f, &bits, 4);
    return f;
  }
  return (float(rng() % 2000001) - 1000000.0f) / 997.0f;
}

// Values as the features see them: samples - 128 and their filtered forms.
float plain_float(std::mt19937& rng) { return float(int(rng() % 256) - 128) * (1.0f + float(rng() % 7) / 8.0f); }

std::vector<float> filter(std::mt19937& rng, int fw) {
  std::vector<float> f(static_cast<std::size_t>(fw));
  float sum = 0;
  for (float& v : f) sum += v = float(1 + rng() % 1000);
  for (float& v : f) v /= sum;
  return f;
}

class FloatSimd : public test::SimdTargets {
 protected:
  void TearDown() override {
    vmafx::simd::reset_enabled();
    test::SimdTargets::TearDown();
  }
};

TEST_F(FloatSimd, RowPassesEqualTheTapOrderedSum) {
  std::mt19937 rng(21);
  struct Case {
    int w, fw;
    std::vector<float> f, in;  // in: fw rows of w values, or w + fw - 1 values
  };
  std::vector<Case> cases;
  for (int w = 1; w <= 300; ++w) {
    const int fw = 1 + 2 * int(rng() % 19);  // 1 .. 37
    Case c{w, fw, filter(rng, fw), std::vector<float>(std::max(std::size_t(fw) * (w + fw), std::size_t(2 * w + fw)))};
    for (float& v : c.in) v = (w % 3 == 0) ? any_float(rng) : plain_float(rng);
    if (w % 7 == 0) c.f[rng() % c.f.size()] = -c.f[0];  // a negative tap
    cases.push_back(std::move(c));
  }
  std::vector<std::vector<float>> want_v, want_h, want_d;
  for (const Case& c : cases) {
    std::vector<float> v(std::size_t(c.w)), h(std::size_t(c.w)), dec(std::size_t(c.w));
    for (int j = 0; j < c.w; ++j) {
      float a = 0.0f, b = 0.0f, e = 0.0f;
      for (int k = 0; k < c.fw; ++k) {
        a += c.f[k] * c.in[std::size_t(k) * c.w + j];
        b += c.f[k] * c.in[std::size_t(j + k)];
        e += c.f[k] * c.in[std::size_t(2 * j + k)];
      }
      v[j] = a;
      h[j] = b;
      dec[j] = e;
    }
    want_v.push_back(std::move(v));
    want_h.push_back(std::move(h));
    want_d.push_back(std::move(dec));
  }
  each_target([&] {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      std::vector<const float*> rows;
      for (int k = 0; k < c.fw; ++k) rows.push_back(c.in.data() + std::size_t(k) * c.w);
      std::vector<float> v(std::size_t(c.w)), h(std::size_t(c.w));
      flt::simd::vertical(c.f.data(), c.fw, rows.data(), c.w, v.data());
      flt::simd::horizontal(c.f.data(), c.fw, c.in.data(), c.w, h.data());
      ASSERT_EQ(first_diff(v, want_v[i]), -1) << "vertical w " << c.w << " fw " << c.fw;
      ASSERT_EQ(first_diff(h, want_h[i]), -1) << "horizontal w " << c.w << " fw " << c.fw;
      // Decimated: only the values 0 .. 2 (w - 1) + fw - 1 may be read (a
      // copy of exactly that many, so that a sanitizer sees any overread).
      const std::vector<float> exact(c.in.begin(), c.in.begin() + (2 * (c.w - 1) + c.fw));
      std::vector<float> dec(std::size_t(c.w));
      flt::simd::horizontal_dec2(c.f.data(), c.fw, exact.data(), c.w, dec.data());
      ASSERT_EQ(first_diff(dec, want_d[i]), -1) << "horizontal_dec2 w " << c.w << " fw " << c.fw;
    }
  });
}

// convolve_row / convolve / convolve_decimated with the SIMD path off (the
// scalar loops) and on.
TEST_F(FloatSimd, ConvolutionsEqualScalar) {
  std::mt19937 rng(22);
  struct Case {
    int w, h, fw, step;
    std::vector<float> f, img;
  };
  std::vector<Case> cases;
  for (int w = 1; w <= 300; w += (w < 40 ? 1 : 7)) {
    const int fw = 1 + 2 * int(rng() % 10);
    if (fw / 2 > w - 1) continue;  // the mirror needs w > fw / 2
    const int h = std::max(fw / 2 + 1, 2 + int(rng() % 20));
    Case c{w, h, fw, 1 + int(rng() % 16), filter(rng, fw), std::vector<float>(std::size_t(w) * h)};
    for (float& v : c.img) v = (w % 5 == 0) ? any_float(rng) : plain_float(rng);
    cases.push_back(std::move(c));
  }
  const auto run = [&](const Case& c, std::vector<float>& row, std::vector<float>& full, std::vector<float>& dec) {
    row.assign(std::size_t(c.w), 0.0f);
    full.assign(c.img.size(), 0.0f);
    const int dw = (c.w - 1) / c.step + 1, dh = (c.h - 1) / c.step + 1;
    dec.assign(std::size_t(dw) * dh, 0.0f);
    flt::convolve_row(c.f.data(), c.fw, c.img.data(), c.w, row.data());
    flt::convolve(c.f.data(), c.fw, c.img.data(), c.w, c.h, full.data());
    flt::convolve_decimated(c.f.data(), c.fw, c.img.data(), c.w, c.h, c.step, dw, dh, dec.data());
    // The decimated output is the full one's kept samples.
    for (int i = 0; i < dh; ++i)
      for (int j = 0; j < dw; ++j)
        ASSERT_TRUE(same(dec[std::size_t(i) * dw + j], full[std::size_t(i) * c.step * c.w + j * c.step]))
            << c.w << "x" << c.h << " step " << c.step << " at " << i << "," << j;
  };
  vmafx::simd::set_enabled(false);
  std::vector<std::vector<float>> rows(cases.size()), fulls(cases.size()), decs(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) run(cases[i], rows[i], fulls[i], decs[i]);
  vmafx::simd::set_enabled(true);
  each_target([&] {
    ASSERT_TRUE(vmafx::simd::enabled());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      std::vector<float> row, full, dec;
      run(cases[i], row, full, dec);
      const Case& c = cases[i];
      ASSERT_EQ(first_diff(row, rows[i]), -1) << "convolve_row " << c.w << " fw " << c.fw;
      ASSERT_EQ(first_diff(full, fulls[i]), -1) << "convolve " << c.w << "x" << c.h << " fw " << c.fw;
      ASSERT_EQ(first_diff(dec, decs[i]), -1) << "convolve_decimated " << c.w << "x" << c.h;
    }
  });
}

// Per-row sums of |a - b| against the running float sum of the scalar loop,
// every width 1..300 with heights 1..19 (blocks of eight rows and the rest),
// and fmotion::sad (which adds them up) with SIMD on and off.
TEST_F(FloatSimd, RowAbsDiffSumsEqualTheRunningSums) {
  std::mt19937 rng(26);
  struct Case {
    int w, h;
    std::vector<float> a, b;
  };
  std::vector<Case> cases;
  for (int w = 1; w <= 300; ++w) {
    const int h = 1 + int(rng() % 19);
    Case c{w, h, std::vector<float>(std::size_t(w) * h), std::vector<float>(std::size_t(w) * h)};
    for (std::size_t i = 0; i < c.a.size(); ++i) {
      c.a[i] = (w % 3 == 0) ? any_float(rng) : plain_float(rng);
      c.b[i] = (w % 3 == 0) ? any_float(rng) : plain_float(rng);
    }
    cases.push_back(std::move(c));
  }
  cases.push_back({1100, 9, std::vector<float>(9900), std::vector<float>(9900)});  // chunks of columns
  for (std::size_t i = 0; i < 9900; ++i) {
    cases.back().a[i] = plain_float(rng) / 3.0f;
    cases.back().b[i] = plain_float(rng) / 7.0f;
  }
  std::vector<std::vector<float>> want;
  std::vector<float> want_sad;
  vmafx::simd::set_enabled(false);
  for (const Case& c : cases) {
    std::vector<float> s(std::size_t(c.h));
    for (int i = 0; i < c.h; ++i) {
      float line = 0.0f;
      for (int j = 0; j < c.w; ++j) line += std::fabs(c.a[std::size_t(i) * c.w + j] - c.b[std::size_t(i) * c.w + j]);
      s[std::size_t(i)] = line;
    }
    want.push_back(std::move(s));
    want_sad.push_back(fmotion::sad(c.a.data(), c.b.data(), c.w, c.h, false, c.w));
  }
  vmafx::simd::set_enabled(true);
  each_target([&] {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      std::vector<float> got(std::size_t(c.h), 5.0f);
      flt::simd::row_abs_diff_sums(c.a.data(), c.b.data(), c.w, c.h, got.data());
      ASSERT_EQ(first_diff(got, want[i]), -1) << c.w << "x" << c.h;
      ASSERT_TRUE(same(fmotion::sad(c.a.data(), c.b.data(), c.w, c.h, false, c.w), want_sad[i])) << c.w << "x" << c.h;
    }
  });
}

// fmotion::blurred_sad (row by row from the samples) against sad() of the two
// full-frame blurred planes (plane_to_float, then convolve), the reference
// made with SIMD off; blurred_sad with SIMD off and on every target.
TEST_F(FloatSimd, BlurredSadEqualsFullFrames) {
  std::mt19937 rng(27);
  struct Case {
    int w, h, bpc;
    std::vector<std::uint8_t> a, b;
  };
  std::vector<Case> cases;
  const int sizes[][2] = {{3, 3}, {4, 7}, {5, 9}, {17, 3}, {33, 16}, {37, 17}, {100, 23}, {257, 30}, {640, 41}};
  constexpr int kDepths[] = {8, 10, 12, 16};
  for (const auto& sz : sizes)
    for (int bpc : kDepths) {
      const int bytes = bpc == 8 ? 1 : 2;
      Case c{sz[0], sz[1], bpc, std::vector<std::uint8_t>(std::size_t(sz[0]) * sz[1] * bytes), {}};
      c.b.resize(c.a.size());
      for (std::size_t i = 0; i < c.a.size(); ++i) {
        c.a[i] = std::uint8_t(rng());
        c.b[i] = (rng() % 4) ? c.a[i] : std::uint8_t(rng());  // all 16 bits, beyond bpc too
      }
      cases.push_back(std::move(c));
    }
  const std::vector<float> filters[] = {{0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f},
                                        {0.166378498f, 0.667243004f, 0.166378498f},
                                        {0.0f, 0.0f, 1.0f, 0.0f, 0.0f}};
  const auto view = [](const Case& c, const std::vector<std::uint8_t>& v) {
    const int bytes = c.bpc == 8 ? 1 : 2;
    return PlaneView{v.data(), std::ptrdiff_t(c.w) * bytes, c.w, c.h};
  };
  vmafx::simd::set_enabled(false);
  std::vector<float> want;
  for (const Case& c : cases)
    for (const auto& f : filters) {
      if (int(f.size()) / 2 >= c.w || int(f.size()) / 2 >= c.h) {
        want.push_back(0.0f);
        continue;
      }
      const std::size_t n = std::size_t(c.w) * c.h;
      std::vector<float> ta(n), tb(n), ba(n), bb(n);
      flt::plane_to_float(view(c, c.a), c.bpc, -128, ta.data());
      flt::plane_to_float(view(c, c.b), c.bpc, -128, tb.data());
      flt::convolve(f.data(), int(f.size()), ta.data(), c.w, c.h, ba.data());
      flt::convolve(f.data(), int(f.size()), tb.data(), c.w, c.h, bb.data());
      want.push_back(fmotion::sad(ba.data(), bb.data(), c.w, c.h, false, c.w));
    }
  const auto check = [&] {
    std::size_t k = 0;
    for (const Case& c : cases)
      for (const auto& f : filters) {
        const float w = want[k++];
        if (int(f.size()) / 2 >= c.w || int(f.size()) / 2 >= c.h) continue;
        const float got = fmotion::blurred_sad(view(c, c.a), view(c, c.b), c.bpc, f.data(), int(f.size()));
        ASSERT_TRUE(same(got, w)) << c.w << "x" << c.h << " bpc " << c.bpc << " taps " << f.size() << ": " << got
                                  << " vs " << w;
      }
  };
  check();  // scalar
  vmafx::simd::set_enabled(true);
  each_target(check);
}

// flt::simd::exact_sum: whenever it claims a sum, that sum equals the
// running double sum in index order; it claims one for converted samples of
// every bit depth (the case the features have), and refuses values that are
// not multiples of 2^-16 or whose magnitudes add up past the bound.
TEST_F(FloatSimd, ExactSumIsTheRunningSum) {
  std::mt19937 rng(28);
  struct Case {
    std::vector<float> a, b;
    bool must_claim, must_refuse = false;
  };
  std::vector<Case> cases;
  constexpr int kDepths[] = {8, 10, 12, 16};
  for (int bpc : kDepths)
    for (int w : {1, 7, 16, 33, 200, 1920}) {
      const int h = w == 1920 ? 40 : 3;
      const int bytes = bpc == 8 ? 1 : 2;
      std::vector<std::uint8_t> ra(std::size_t(w) * h * bytes), rb(ra.size());
      for (std::size_t i = 0; i < ra.size(); ++i) {
        ra[i] = std::uint8_t(rng());
        rb[i] = std::uint8_t(rng());
      }
      for (int offset : {0, -128}) {
        Case c{std::vector<float>(std::size_t(w) * h), std::vector<float>(std::size_t(w) * h), true};
        flt::plane_to_float(PlaneView{ra.data(), std::ptrdiff_t(w) * bytes, w, h}, bpc, offset, c.a.data());
        flt::plane_to_float(PlaneView{rb.data(), std::ptrdiff_t(w) * bytes, w, h}, bpc, offset, c.b.data());
        cases.push_back(std::move(c));
      }
    }
  // Not on the grid: refused (or, if ever claimed, still checked).
  for (int w : {5, 100, 1000}) {
    Case c{std::vector<float>(std::size_t(w)), std::vector<float>(std::size_t(w)), false};
    for (std::size_t i = 0; i < c.a.size(); ++i) {
      c.a[i] = any_float(rng);
      c.b[i] = plain_float(rng) / 3.0f;
    }
    cases.push_back(std::move(c));
  }
  // Past the bound: integers (2^50) whose magnitudes, and squares, add up
  // beyond 2^53; integers whose squares add up beyond 2^53.
  cases.push_back({std::vector<float>(70000, 1125899906842624.0f), std::vector<float>(70000, 0.0f), false, true});
  cases.push_back({std::vector<float>(600000, 65535.0f), std::vector<float>(600000, -65535.0f), false, false});
  // Not on the 2^-16 grid.
  cases.push_back({std::vector<float>(40, 1.0f / 131072.0f), std::vector<float>(40, 0.0f), false, true});
  each_target([&] {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      for (int kind = 0; kind < 3; ++kind) {
        double want = 0;
        for (std::size_t k = 0; k < c.a.size(); ++k) {
          if (kind == 0) want += c.a[k];
          if (kind == 1) want += c.a[k] * c.a[k];
          if (kind == 2) {
            const float d = c.a[k] - c.b[k];
            want += d * d;
          }
        }
        double got = -1.0;
        const bool claimed = flt::simd::exact_sum(c.a.data(), c.b.data(), c.a.size(), kind, &got);
        if (c.must_claim) {
          ASSERT_TRUE(claimed) << "case " << i << " kind " << kind;
        }
        if (c.must_refuse) {
          ASSERT_FALSE(claimed) << "case " << i << " kind " << kind;
        }
        if (claimed) {
          ASSERT_EQ(got, want) << "case " << i << " kind " << kind;
        }
        if (i == cases.size() - 2 && kind == 2) {
          ASSERT_FALSE(claimed) << "squares past 2^53";
        }
      }
    }
  });
}

TEST_F(FloatSimd, PlaneToFloatEqualsScalar) {
  std::mt19937 rng(23);
  struct Case {
    int w, bpc, offset;
    std::vector<std::uint8_t> bytes;
  };
  std::vector<Case> cases;
  for (int w = 1; w <= 300; ++w) {
    constexpr int kDepths[] = {8, 10, 12, 16};
    const int bpc = kDepths[w % 4];
    Case c{w, bpc, (w % 2) ? -128 : 0, std::vector<std::uint8_t>(std::size_t(w) * 3 * (bpc == 8 ? 1 : 2))};
    for (auto& b : c.bytes) b = std::uint8_t(rng());  // all 16 bits, beyond bpc too
    cases.push_back(std::move(c));
  }
  const auto run = [](const Case& c) {
    const int bytes = c.bpc == 8 ? 1 : 2;
    const PlaneView v{c.bytes.data(), std::ptrdiff_t(c.w) * bytes, c.w, 3};
    std::vector<float> out(std::size_t(c.w) * 3);
    flt::plane_to_float(v, c.bpc, c.offset, out.data());
    return out;
  };
  vmafx::simd::set_enabled(false);
  std::vector<std::vector<float>> want;
  for (const Case& c : cases) want.push_back(run(c));
  vmafx::simd::set_enabled(true);
  each_target([&] {
    for (std::size_t i = 0; i < cases.size(); ++i)
      ASSERT_EQ(first_diff(run(cases[i]), want[i]), -1) << "w " << cases[i].w << " bpc " << cases[i].bpc;
  });
}

// SpEED's block means and covariances of dw x dh images, on and off.
TEST_F(FloatSimd, SpeedBlockMomentsEqualScalar) {
  std::mt19937 rng(24);
  struct Case {
    speed::Dims d;
    std::vector<float> img;
  };
  std::vector<Case> cases;
  // Plane sizes: the smallest (80x80 -> 5x5 decimated), odd ones, 1080p and
  // 4K luma and chroma.
  const int sizes[][2] = {{80, 80},   {95, 81},     {96, 97},     {177, 144},   {351, 287},
                          {960, 540}, {1920, 1080}, {1920, 1080}, {3840, 2160}, {500, 90}};
  for (const auto& s : sizes) {
    Case c{speed::make_dims(s[0], s[1], 1.0), {}};
    c.img.resize(std::size_t(c.d.dw) * c.d.dh);
    const bool wild = cases.size() % 3 == 2;
    for (float& v : c.img) v = wild ? any_float(rng) / 1e20f : plain_float(rng) / 3.0f;
    cases.push_back(std::move(c));
  }
  constexpr int E = speed::kBlockElems;
  const auto run = [](const speed::Rows& r, const Case& c) {
    std::vector<float> out(E + E * E);
    r.block_moments(c.img.data(), c.img.size(), c.d.dw, c.d.subw, c.d.subh, out.data(), out.data() + E);
    return out;
  };
  std::vector<std::vector<float>> want;
  for (const Case& c : cases) want.push_back(run(speed::scalar_rows(), c));
  vmafx::simd::set_enabled(true);
  each_target([&] {
    for (std::size_t i = 0; i < cases.size(); ++i)
      ASSERT_EQ(first_diff(run(speed::rows(), cases[i]), want[i]), -1) << cases[i].d.dw << "x" << cases[i].d.dh;
  });
  // block_moments() takes the rows of the switch.
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::vector<float> out(E + E * E);
    speed::block_moments(cases[i].d, cases[i].img.data(), out.data(), out.data() + E);
    ASSERT_EQ(first_diff(out, want[i]), -1);
  }
  vmafx::simd::reset_enabled();
}

// SpEED's picture_copy rows (sample / 2^(bpc - 8) + -128.0f), every width
// up to a few vectors and every sample value.
TEST_F(FloatSimd, SpeedToFloatRowsEqualScalar) {
  std::mt19937 rng(26);
  std::vector<std::uint8_t> s8(300);
  std::vector<std::uint16_t> s16(300);
  for (std::size_t i = 0; i < s8.size(); ++i) {
    s8[i] = std::uint8_t(i < 256 ? i : rng());
    s16[i] = std::uint16_t(i < 2 ? 65535 * i : rng());
  }
  const float scalers[] = {4.0f, 16.0f, 256.0f};
  const auto run = [&](const speed::Rows& r, int w) {
    std::vector<float> out(std::size_t(4 * w));
    r.to_float8(s8.data(), w, out.data());
    for (int k = 0; k < 3; ++k) r.to_float16(s16.data(), w, scalers[k], out.data() + (k + 1) * w);
    return out;
  };
  std::vector<std::vector<float>> want;
  for (int w = 1; w <= 300; ++w) want.push_back(run(speed::scalar_rows(), w));
  vmafx::simd::set_enabled(true);
  each_target([&] {
    for (int w = 1; w <= 300; ++w) ASSERT_EQ(first_diff(run(speed::rows(), w), want[std::size_t(w - 1)]), -1) << w;
  });
  vmafx::simd::reset_enabled();
}

// A whole SpEED score (Gaussian, decimation, moments, fit) on and off.
TEST_F(FloatSimd, SpeedScoreEqualsScalar) {
  std::mt19937 rng(25);
  const int sizes[][2] = {{80, 80}, {200, 131}, {960, 540}};
  speed::Params p;
  p.sigma_nn = 0.19f;
  p.nn_floor = 0.1f;
  p.weight_var_mode = 5;
  for (const auto& s : sizes) {
    const speed::Dims d = speed::make_dims(s[0], s[1], 1.0);
    std::vector<float> ref(std::size_t(s[0]) * s[1]), dis(ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) {
      ref[i] = float(int((i * 7 + i / s[0] * 3) % 200) - 100 + int(rng() % 40));
      dis[i] = ref[i] + float(int(rng() % 21) - 10);
    }
    float want = 0;
    vmafx::simd::set_enabled(false);
    std::vector<float> r = ref, q = dis;
    const bool want_err = speed::score(p, d, r.data(), q.data(), &want);
    vmafx::simd::set_enabled(true);
    each_target([&] {
      std::vector<float> r2 = ref, q2 = dis;
      float got = 0;
      EXPECT_EQ(speed::score(p, d, r2.data(), q2.data(), &got), want_err);
      EXPECT_TRUE(same(got, want)) << s[0] << "x" << s[1] << ": " << got << " vs " << want;
    });
  }
}

}  // namespace
}  // namespace vmafx
