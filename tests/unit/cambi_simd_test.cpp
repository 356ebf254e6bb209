// SPDX-License-Identifier: BSD-3-Clause
// The SIMD passes of CAMBI (feature/cambi_simd.cpp) against the scalar
// references of feature/cambi.cpp (namespace cambi::scalar), with == on every
// sample, mask value and float bit pattern, on every SIMD target this CPU runs:
// random and edge inputs, widths 1..300 (every row-end case of every vector
// width), 8/9/10/12/16-bit conversion. The select-free top-k mean against
// libvmaf's quick-select. Whole pictures through the extractor with SIMD off
// and on. Without Highway (or on a CPU without a SIMD target) the tests skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/feature.hpp"
#include "feature/cambi.hpp"
#include "feature/cambi_simd.hpp"
#include "exact/cambi_tables.h"
#include "core/simd.hpp"
#include "simd_targets.hpp"

namespace vmafx {
namespace {

namespace cs = cambi::simd;
namespace sc = cambi::scalar;
using test::SimdTargets;

std::vector<int> widths() {
  std::vector<int> w;
  for (int i = 1; i <= 70; ++i) w.push_back(i);
  for (int i : {95, 96, 97, 127, 128, 129, 130, 191, 192, 193, 255, 256, 257, 299, 300}) w.push_back(i);
  return w;
}

template <class T>
std::vector<T> random_vec(std::mt19937& rng, std::size_t n, unsigned lo, unsigned hi) {
  std::uniform_int_distribution<unsigned> u(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = T(u(rng));
  return v;
}

// Pictures with flat patches, steps of a code or two (bands), noise and
// extremes: what the spatial mask and the histograms see in real content.
std::vector<std::uint16_t> patchy(std::mt19937& rng, int w, int h, int lo, int hi) {
  std::vector<std::uint16_t> img(std::size_t(w) * h);
  std::uniform_int_distribution<int> val(lo, hi), kind(0, 9), sz(1, 12);
  for (int y = 0; y < h;) {
    const int bh = sz(rng);
    for (int x = 0; x < w;) {
      const int bw = sz(rng) * 3;
      const int k = kind(rng);
      const int v0 = val(rng);
      for (int yy = y; yy < std::min(h, y + bh); ++yy)
        for (int xx = x; xx < std::min(w, x + bw); ++xx) {
          int v = v0;
          if (k == 0)
            v = val(rng);  // noise
          else if (k == 1)
            v = v0 + (xx - x) / 4;  // ramp, steps of one code
          else if (k == 2)
            v = v0 + 2 * ((xx + yy) / 5);  // steps of two codes
          img[std::size_t(yy) * w + xx] = std::uint16_t(std::clamp(v, lo, hi));
        }
      x += bw;
    }
    y += bh;
  }
  return img;
}

TEST_F(SimdTargets, CambiConvertRows) {
  std::mt19937 rng(11);
  each_target([&] {
    for (int w : widths()) {
      const auto in8 = random_vec<std::uint8_t>(rng, std::size_t(w), 0, 255);
      for (int bpc : {6, 7, 8}) {
        std::vector<std::uint16_t> a(w), b(w);
        sc::convert_row(in8.data(), a.data(), w, bpc);
        cs::convert_row(in8.data(), b.data(), w, bpc);
        ASSERT_EQ(a, b) << "8-bit storage, bpc " << bpc << " w " << w;
      }
      auto in16 = random_vec<std::uint16_t>(rng, std::size_t(w), 0, 65535);
      in16[0] = 65535;
      in16[std::size_t(w) - 1] = 0;
      for (int bpc = 9; bpc <= 16; ++bpc) {
        std::vector<std::uint16_t> a(w), b(w);
        sc::convert_row(in16.data(), a.data(), w, bpc);
        cs::convert_row(in16.data(), b.data(), w, bpc);
        ASSERT_EQ(a, b) << "bpc " << bpc << " w " << w;
      }
      const auto mx = *std::max_element(in16.begin(), in16.end());
      ASSERT_EQ(cs::row_max(in16.data(), w), mx) << w;
      auto small = random_vec<std::uint16_t>(rng, std::size_t(w), 0, 1023);
      small[std::size_t(rng() % unsigned(w))] = 1024;  // one sample above 10 bit, anywhere
      ASSERT_EQ(cs::row_max(small.data(), w), *std::max_element(small.begin(), small.end())) << w;
    }
  });
}

TEST_F(SimdTargets, CambiAntiDither) {
  std::mt19937 rng(12);
  each_target([&] {
    for (int w : widths())
      for (int h : {1, 2, 3, 5}) {
        for (unsigned hi : {3u, 1024u, 0x3FFFu}) {
          auto a = random_vec<std::uint16_t>(rng, std::size_t(w) * h, 0, hi);
          if (hi == 0x3FFF) std::fill(a.begin(), a.begin() + std::min<std::size_t>(a.size(), 40), 0x3FFF);
          auto b = a;
          sc::anti_dither(a.data(), w, h);
          cs::anti_dither(b.data(), w, h);
          ASSERT_EQ(a, b) << w << "x" << h << " max " << hi;
        }
      }
  });
}

TEST_F(SimdTargets, CambiDecimate) {
  std::mt19937 rng(13);
  each_target([&] {
    for (int w : widths())
      for (int h : {1, 2, 3, 4}) {
        // A (2w - 1 or 2w) x (2h - 1 or 2h) region in a buffer of stride >= its width, in place.
        for (int odd : {0, 1}) {
          const int sw = 2 * w - odd, sh = 2 * h - odd;
          const std::ptrdiff_t stride = sw + (w % 3);
          auto a = random_vec<std::uint16_t>(rng, std::size_t(stride) * sh, 0, 65535);
          auto b = a;
          sc::decimate(a.data(), stride, w, h);
          cs::decimate(b.data(), stride, w, h);
          ASSERT_EQ(a, b) << w << "x" << h << " odd " << odd;
        }
      }
  });
}

TEST_F(SimdTargets, CambiModeFilter) {
  std::mt19937 rng(14);
  each_target([&] {
    for (int w : widths())
      for (int h : {1, 2, 3, 4, 7}) {
        for (unsigned hi : {2u, 5u, 65535u}) {
          const std::ptrdiff_t stride = w + (h % 2) * 5;
          auto a = random_vec<std::uint16_t>(rng, std::size_t(stride) * h, 0, hi);
          auto b = a;
          std::vector<std::uint16_t> s1(3 * std::size_t(w)), s2(3 * std::size_t(w));
          sc::mode_filter(a.data(), stride, w, h, s1.data());
          cs::mode_filter(b.data(), stride, w, h, s2.data());
          ASSERT_EQ(a, b) << w << "x" << h << " max " << hi;
        }
      }
  });
}

TEST_F(SimdTargets, CambiSpatialMask) {
  std::mt19937 rng(15);
  each_target([&] {
    for (int w : widths())
      for (int h : {1, 2, 3, 4, 7, 8, 9, 20}) {
        const std::ptrdiff_t stride = w + (w % 4);
        std::vector<std::uint16_t> img(std::size_t(stride) * h, 0);
        const auto p = patchy(rng, w, h, 0, (w + h) % 2 ? 3 : 1023);
        for (int y = 0; y < h; ++y) std::copy_n(p.data() + std::size_t(y) * w, w, img.data() + y * stride);
        std::vector<std::uint16_t> ma(img.size(), 7), mb(img.size(), 7);
        sc::spatial_mask(img.data(), stride, w, h, ma.data());
        // The SIMD one at every threshold its row sums can meet (0..49) and above.
        for (std::uint16_t thr : {std::uint16_t(0), std::uint16_t(7), std::uint16_t(24), std::uint16_t(48),
                                  std::uint16_t(49), std::uint16_t(0xFFFF)}) {
          std::vector<std::uint16_t> ref(img.size(), 7), got(img.size(), 7);
          std::vector<std::uint16_t> colsum(std::size_t(w) + 64, 0xABCD);
          cs::spatial_mask(img.data(), stride, w, h, thr, got.data(), colsum.data());
          // Reference at this threshold: the zero-derivative count of the 7x7 window.
          for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
              unsigned n = 0;
              for (int yy = std::max(0, y - 3); yy <= std::min(h - 1, y + 3); ++yy)
                for (int xx = std::max(0, x - 3); xx <= std::min(w - 1, x + 3); ++xx) {
                  const std::uint16_t* r = img.data() + yy * stride;
                  const bool hz = xx == w - 1 || r[xx] == r[xx + 1];
                  const bool vt = yy == h - 1 || r[xx] == r[xx + stride];
                  n += hz && vt;
                }
              ref[std::size_t(y) * stride + x] = std::uint16_t(n > thr);
            }
          ASSERT_EQ(got, ref) << w << "x" << h << " threshold " << thr;
          // Even rows and columns only, packed as decimate leaves them.
          std::vector<std::uint16_t> half(img.size(), 7);
          cs::spatial_mask(img.data(), stride, w, h, thr, half.data(), colsum.data(), true);
          sc::decimate(ref.data(), stride, (w + 1) / 2, (h + 1) / 2);
          for (int y = 0; y < (h + 1) / 2; ++y)
            for (int x = 0; x < (w + 1) / 2; ++x)
              ASSERT_EQ(half[std::size_t(y) * stride + x], ref[std::size_t(y) * stride + x])
                  << w << "x" << h << " threshold " << thr << " half at " << x << "," << y;
        }
        // And through the dispatcher with SIMD on, at the size's own threshold.
        vmafx::simd::set_enabled(true);
        cambi::spatial_mask(img.data(), stride, w, h, mb.data());
        std::vector<std::uint16_t> hb(img.size(), 7), ha(ma);
        cambi::spatial_mask_half(img.data(), stride, w, h, hb.data());
        vmafx::simd::reset_enabled();
        ASSERT_EQ(ma, mb) << w << "x" << h;
        sc::decimate(ha.data(), stride, (w + 1) / 2, (h + 1) / 2);
        for (int y = 0; y < (h + 1) / 2; ++y)
          ASSERT_TRUE(
              std::equal(hb.begin() + y * stride, hb.begin() + y * stride + (w + 1) / 2, ha.begin() + y * stride))
              << w << "x" << h << " half row " << y;
      }
  });
}

cambi::Settings settings(const std::map<std::string, std::string>& opts, int w = 1920, int h = 1080) {
  return cambi::resolve(OptionSet(kCambiExtractor.options, opts, "cambi"), PictureFormat{w, h, 10, ChromaFormat::k420});
}

bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// One c_values comparison: scalar vs SIMD (on a zeroed histogram, which must be zero again after).
void check_c_values(const std::vector<std::uint16_t>& img, const std::vector<std::uint16_t>& mask,
                    std::ptrdiff_t stride, int w, int h, int window, const cambi::Settings& st,
                    const std::string& what) {
  const std::size_t counters = st.band_size > 0 ? std::size_t(st.band_size) * w : 0;
  std::vector<std::uint16_t> hs(counters + 1, 0x5555);
  std::vector<std::uint16_t> hz(counters + cs::kHistSlack, 0);
  std::vector<float> a(std::size_t(w) * h, -1.0f), b(std::size_t(w) * h, -2.0f);
  sc::c_values(img.data(), mask.data(), stride, w, h, window, st, a.data(), hs.data());
  cs::c_values(img.data(), mask.data(), stride, w, h, window, st, b.data(), hz.data());
  ASSERT_TRUE(same_floats(a, b)) << what;
  ASSERT_TRUE(std::all_of(hz.begin(), hz.end(), [](std::uint16_t v) { return v == 0; })) << what << ": counters left";
}

TEST_F(SimdTargets, CambiCValues) {
  const std::vector<std::map<std::string, std::string>> option_sets = {
      {},
      {{"cambi_vis_lum_threshold", "0.06"}},
      {{"max_log_contrast", "0"}},
      {{"max_log_contrast", "5"}, {"tvi_threshold", "0.001"}},
      {{"max_log_contrast", "3"}, {"cambi_vis_lum_threshold", "10"}},
      {{"eotf", "pq"}, {"cambi_vis_lum_threshold", "50"}},
  };
  std::mt19937 rng(16);
  each_target([&] {
    for (const auto& o : option_sets) {
      const cambi::Settings st = settings(o);
      const int lo = std::max(0, st.band_base - 6), hi = st.band_base + std::max(st.band_size, 0) + 6;
      std::string name;
      for (const auto& [k, v] : o) name += k + "=" + v + " ";
      for (int w : widths()) {
        if (w > 70 && w % 2 == 0) continue;  // keep the run short: odd wide rows suffice for the row ends
        const int h = 1 + int(rng() % 9);
        for (int window : {1, 3, 9, 17, 33, 65}) {
          const std::ptrdiff_t stride = w + (window % 7);
          std::vector<std::uint16_t> img(std::size_t(stride) * h, 0), mask(img.size(), 0);
          // Values in a few codes (long runs, one histogram row) or across the band.
          const bool narrow = (w + window) % 3 != 0;
          const int vlo = narrow ? lo + int(rng() % unsigned(hi - lo + 1)) : lo;
          const auto p = patchy(rng, w, h, vlo, narrow ? std::min(hi, vlo + 6) : hi);
          for (int y = 0; y < h; ++y) {
            std::copy_n(p.data() + std::size_t(y) * w, w, img.data() + y * stride);
            for (int x = 0; x < w; ++x) mask[std::size_t(y) * stride + x] = (rng() % 8) != 0 || (x / 5) % 2;
          }
          check_c_values(img, mask, stride, w, h, window, st,
                         name + std::to_string(w) + "x" + std::to_string(h) + " window " + std::to_string(window));
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
      // Samples the pipeline never holds: codes above 10 bit, 65535 (img + num_diffs wraps in 16 bits).
      for (int w : {5, 40, 77}) {
        const int h = 6;
        auto img = random_vec<std::uint16_t>(rng, std::size_t(w) * h, 0, 65535);
        for (std::size_t i = 0; i < img.size(); i += 3) img[i] = std::uint16_t(65535 - i % 40);
        std::vector<std::uint16_t> mask(img.size(), 1);
        check_c_values(img, mask, w, w, h, 9, st, name + "extreme samples");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
    // A real-sized scale: 1920x64 of banded content, the 4K-at-1080 window.
    const cambi::Settings st = settings({{"cambi_vis_lum_threshold", "0.06"}});
    const int w = 1920, h = 64;
    auto img = patchy(rng, w, h, st.band_base, st.band_base + 40);
    std::vector<std::uint16_t> mask(img.size());
    for (auto& m : mask) m = (rng() % 5) != 0;
    check_c_values(img, mask, w, w, h, 33, st, "1920x64");
  });
}

// c_values through the dispatcher, twice on one thread (the counters it keeps
// zeroed between calls), with SIMD off and on.
TEST(CambiSimd, CValuesDispatcherKeepsCountersClean) {
  if (vmafx::simd::targets().empty()) GTEST_SKIP() << "no SIMD target";
  std::mt19937 rng(17);
  const cambi::Settings st = settings({});
  for (int round = 0; round < 3; ++round) {
    const int w = 150 + round * 37, h = 40 + round;
    const auto img = patchy(rng, w, h, 0, 300);
    std::vector<std::uint16_t> mask(img.size());
    for (auto& m : mask) m = (rng() % 4) != 0;
    std::vector<float> a(img.size()), b(img.size());
    vmafx::simd::set_enabled(false);
    cambi::c_values(img.data(), mask.data(), w, w, h, 17, st, a.data());
    vmafx::simd::set_enabled(true);
    cambi::c_values(img.data(), mask.data(), w, w, h, 17, st, b.data());
    vmafx::simd::reset_enabled();
    ASSERT_TRUE(same_floats(a, b)) << round;
  }
}

// ---------------------------------------------------------------------------
// Top-k mean without the quick-select.

// c-value-like floats: weight * p0 * p * reciprocal[p0 + p], or 0.
std::vector<float> c_like(std::mt19937& rng, int n, double zero_fraction, int max_count) {
  std::vector<float> v(std::size_t(n), 0.0f);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> cnt(1, max_count), wt(1, 4);
  for (auto& x : v) {
    if (u(rng) < zero_fraction) continue;
    const int p0 = cnt(rng), p = cnt(rng);
    x = float(wt(rng) * p0 * p) * vmafx_cambi_reciprocal[p0 + p];
  }
  return v;
}

double reference_topk(std::vector<float> v, double topk) { return sc::topk_mean(v.data(), int(v.size()), topk); }

TEST(CambiSimd, TopkMeanWithoutSelectIsTheQuickSelectMean) {
  if (vmafx::simd::targets().empty()) GTEST_SKIP() << "no SIMD target";
  std::mt19937 rng(18);
  int taken = 0, cases = 0;
  for (int n : {1, 2, 3, 7, 16, 33, 100, 1000, 4097, 65536, 300000}) {
    for (double zeros : {0.0, 0.2, 0.5, 0.9, 0.99, 1.0}) {
      for (double topk : {0.0001, 0.01, 0.3, 0.6, 0.99, 1.0}) {
        for (int max_count : {3, 60, 2000}) {
          if (n >= 65536 && max_count == 60) continue;
          auto v = c_like(rng, n, zeros, max_count);
          if (n > 10 && max_count == 3) v[std::size_t(n / 2)] = v[0];  // ties
          double mean = -1.0;
          const bool ok = cambi::topk_mean_without_select(v.data(), n, topk, &mean);
          ++cases;
          if (ok) {
            ++taken;
            ASSERT_EQ(mean, reference_topk(v, topk)) << "n " << n << " zeros " << zeros << " topk " << topk;
          }
          // The dispatcher with SIMD on, whichever way it goes.
          vmafx::simd::set_enabled(true);
          auto w = v;
          const double got = cambi::topk_mean(w.data(), n, topk);
          vmafx::simd::reset_enabled();
          ASSERT_EQ(got, reference_topk(v, topk)) << "n " << n << " zeros " << zeros << " topk " << topk;
        }
      }
    }
  }
  // The path must apply to c-value-like data (counts of at most a window).
  EXPECT_EQ(taken, cases);
}

TEST(CambiSimd, TopkMeanFallsBackWhereOrderMatters) {
  if (vmafx::simd::targets().empty()) GTEST_SKIP() << "no SIMD target";
  std::mt19937 rng(19);
  // A wide range of magnitudes: the sum rounds, so the order counts.
  std::vector<float> v(5000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = i % 2 ? 1.0e7f + float(i) : 0.1f * float(i % 7 + 1);
  std::shuffle(v.begin(), v.end(), rng);
  double mean;
  EXPECT_FALSE(cambi::topk_mean_without_select(v.data(), int(v.size()), 0.6, &mean));
  EXPECT_FALSE(cambi::topk_mean_without_select(v.data(), int(v.size()), 1.0, &mean));
  // Negative, -0, infinite: never.
  std::vector<float> neg = {1.0f, -1.0f, 2.0f}, nzero = {1.0f, -0.0f, 2.0f},
                     inf = {1.0f, std::numeric_limits<float>::infinity(), 2.0f};
  EXPECT_FALSE(cambi::topk_mean_without_select(neg.data(), 3, 0.6, &mean));
  EXPECT_FALSE(cambi::topk_mean_without_select(nzero.data(), 3, 0.6, &mean));
  EXPECT_FALSE(cambi::topk_mean_without_select(inf.data(), 3, 0.6, &mean));
  // And the dispatcher gives the reference's value there.
  for (double topk : {0.3, 0.6, 1.0}) {
    auto w = v;
    vmafx::simd::set_enabled(true);
    const double got = cambi::topk_mean(w.data(), int(w.size()), topk);
    vmafx::simd::reset_enabled();
    EXPECT_EQ(got, reference_topk(v, topk)) << topk;
  }
  // Subnormals (T in the lowest bin): the reference.
  std::vector<float> sub(100, std::numeric_limits<float>::denorm_min());
  for (std::size_t i = 0; i < 10; ++i) sub[i] = 1.0f;
  EXPECT_FALSE(cambi::topk_mean_without_select(sub.data(), 100, 0.6, &mean));
}

// ---------------------------------------------------------------------------
// Whole pictures through the extractor: SIMD off and on give the same report.

void set_sample(Picture& p, int x, int y, long v) {
  if (p.bpc() == 8)
    p.row<std::uint8_t>(0, y)[x] = std::uint8_t(v);
  else
    p.row<std::uint16_t>(0, y)[x] = std::uint16_t(v);
}

FeatureCollector run_cambi(const PictureFormat& fmt, unsigned frames, const std::map<std::string, std::string>& opts,
                           std::uint32_t seed) {
  Engine e(fmt, EngineOptions{.threads = 0});
  e.use(FeatureRequest{"cambi", opts});
  std::mt19937 rng(seed);
  const long maxv = (1L << fmt.bpc) - 1;
  for (unsigned i = 0; i < frames; ++i) {
    auto r = e.acquire();
    auto d = e.acquire();
    for (Picture* p : {r.get(), d.get()}) {
      for (int pl = 0; pl < p->format().plane_count(); ++pl) {
        const PlaneView v = p->plane(pl);
        for (int y = 0; y < v.height; ++y)
          for (int x = 0; x < v.width; ++x) {
            if (p->bpc() == 8)
              p->row<std::uint8_t>(pl, y)[x] = 128;
            else
              p->row<std::uint16_t>(pl, y)[x] = std::uint16_t(1L << (p->bpc() - 1));
          }
      }
      // Banded ramps, flat patches and noise in the luma.
      const auto img = patchy(rng, fmt.width, fmt.height, 0, 60);
      for (int y = 0; y < fmt.height; ++y)
        for (int x = 0; x < fmt.width; ++x) {
          const long ramp = ((x * 40) / fmt.width + (y * 20) / fmt.height + long(i)) << std::max(0, fmt.bpc - 8);
          long v = (long(img[std::size_t(y) * fmt.width + x]) << std::max(0, fmt.bpc - 8)) / 8 + ramp +
                   (long(64) << std::max(0, fmt.bpc - 8));
          if ((x + y) % 97 == 0) v = maxv;
          set_sample(*p, x, y, std::min(v, maxv));
        }
    }
    e.push(std::move(r), std::move(d));
  }
  e.finish();
  return std::move(e.collector());
}

TEST(CambiSimd, WholePicturesSimdOffAndOn) {
  if (vmafx::simd::targets().empty()) GTEST_SKIP() << "no SIMD target";
  struct Case {
    PictureFormat f;
    std::map<std::string, std::string> o;
  };
  const std::vector<Case> cases = {
      {{320, 240, 8, ChromaFormat::k420}, {}},
      {{333, 217, 10, ChromaFormat::k420}, {{"full_ref", "true"}}},
      {{480, 270, 12, ChromaFormat::k444}, {{"enc_width", "400"}, {"enc_height", "230"}, {"enc_bitdepth", "8"}}},
      {{256, 240, 16, ChromaFormat::k400}, {{"max_log_contrast", "4"}, {"topk", "0.2"}}},
      {{300, 230, 9, ChromaFormat::k420}, {{"cambi_vis_lum_threshold", "0.06"}, {"cambi_max_val", "17"}}},
      {{1920, 1080, 8, ChromaFormat::k420},
       {{"cambi_high_res_speedup", "1080"}, {"cambi_vis_lum_threshold", "0.06"}, {"cambi_max_val", "17"}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.f.width) + "x" + std::to_string(c.f.height) + " " + std::to_string(c.f.bpc));
    vmafx::simd::set_enabled(false);
    const auto off = run_cambi(c.f, 2, c.o, 5);
    vmafx::simd::set_enabled(true);
    const auto on = run_cambi(c.f, 2, c.o, 5);
    vmafx::simd::reset_enabled();
    ASSERT_FALSE(off.all().empty());
    ASSERT_EQ(off.all().size(), on.all().size());
    for (const auto& s : off.all()) {
      const auto* t = on.find(s.name);
      ASSERT_NE(t, nullptr) << s.name;
      ASSERT_EQ(s.value.size(), t->value.size()) << s.name;
      for (std::size_t i = 0; i < s.value.size(); ++i) EXPECT_EQ(s.value[i], t->value[i]) << s.name << " frame " << i;
    }
  }
}

}  // namespace
}  // namespace vmafx
