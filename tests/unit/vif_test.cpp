// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of the integer VIF ("vif"): the fixed-point pieces in isolation,
// whole frames against libvmaf 3.2.0 (values captured from libvmaf's plain C
// integer_vif.c on the pictures vt_make() generates; no clip needed), a plain
// reference implementation, threads, options and error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/options.hpp"
#include "feature/vif.hpp"
#include "exact/vif_tables.h"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using vif::Accum;
using vif::GainTerms;

// ---------------------------------------------------------------------------
// Generated test pictures (the same generator fed libvmaf for the expected
// values below; keep it bit-identical).
std::uint32_t vt_next(std::uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}
int vt_clamp(int v, int maxv) { return v < 0 ? 0 : v > maxv ? maxv : v; }
int vt_noise(std::uint32_t& s, int range) { return int(vt_next(s) % std::uint32_t(range + 1)); }

// Fills packed w x h planes. The order of the vt_next() calls is part of the
// definition (it fixes the pictures the expected values were computed on).
void vt_make(int mode, int w, int h, int bpc, std::uint32_t seed, std::uint16_t* ref, std::uint16_t* dis) {
  const int maxv = (1 << bpc) - 1;
  std::uint32_t s = seed;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int base = ((x * 3 + y * 5) % 64) * maxv / 63;
      int r, d;
      switch (mode) {
        case 0:  // gradient + noise, a flat band on the left; dis = ref + noise
          if (x < w / 4) {
            r = maxv / 2;
          } else {
            r = vt_clamp(base + vt_noise(s, maxv / 8) - maxv / 16, maxv);
          }
          d = vt_clamp(r + vt_noise(s, maxv / 4) - maxv / 8, maxv);
          break;
        case 1:  // contrast enhanced: gain above 1
          r = vt_clamp(maxv / 4 + base / 2 + vt_noise(s, maxv / 16), maxv);
          d = vt_clamp(2 * r - maxv / 2, maxv);
          break;
        case 2:  // identical
          r = vt_clamp(base + vt_noise(s, maxv / 8), maxv);
          d = r;
          break;
        case 3:  // flat, different levels
          r = maxv / 3;
          d = maxv / 2;
          break;
        default: {  // binary full-range ref, uniform dis
          r = (vt_next(s) & 1) ? maxv : 0;
          d = vt_noise(s, maxv);
          break;
        }
      }
      ref[std::size_t(y) * w + x] = std::uint16_t(r);
      dis[std::size_t(y) * w + x] = std::uint16_t(d);
    }
}

// Records what an extractor writes, by internal name.
struct Recorder : FeatureSink {
  std::vector<std::string> names;
  std::map<std::string, double> value;
  void put(std::string_view n, unsigned, double v) override {
    names.emplace_back(n);
    value[std::string(n)] = v;
  }
  void put_plain(std::string_view n, unsigned i, double v) override { put(n, i, v); }
};

PictureFormat luma_format(int w, int h, int bpc, ChromaFormat c = ChromaFormat::k400) {
  return PictureFormat{w, h, bpc, c};
}

// Writes packed samples into a picture's luma, after filling every byte of the
// plane (row padding included) with junk that must not matter.
void fill(Picture& p, const std::vector<std::uint16_t>& px) {
  const int w = p.width(), h = p.height();
  std::memset(p.plane_data(0), 0xA5, std::size_t(p.stride(0)) * h);
  test::fill_plane(p, 0, [&](int x, int y) { return long(px[std::size_t(y) * w + x]); });
}

std::unique_ptr<Extractor> make_vif(const std::map<std::string, std::string>& opts, const PictureFormat& fmt) {
  return kVifExtractor.create(OptionSet(kVifExtractor.options, opts, "vif"), fmt);
}

std::string create_error(const std::map<std::string, std::string>& opts, const PictureFormat& fmt) {
  try {
    make_vif(opts, fmt);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// ---------------------------------------------------------------------------
// Tables and the fixed-point pieces.

TEST(VifTables, FiltersSumTo65536) {
  for (int s = 0; s < VMAFX_VIF_SCALES; ++s) {
    std::uint32_t sum = 0;
    for (int k = 0; k < vmafx_vif_filter_width[s]; ++k) sum += vmafx_vif_filter[s][k];
    EXPECT_EQ(sum, 65536u) << "scale " << s;
    for (int k = vmafx_vif_filter_width[s]; k < VMAFX_VIF_MAX_TAPS; ++k) EXPECT_EQ(vmafx_vif_filter[s][k], 0);
  }
}

// The table is libvmaf's round(log2f(m) * 2048). float(log2(double)) is the
// correctly rounded log2f (checked equal to glibc's on every entry).
TEST(VifTables, Log2TableIsRoundedFloatLog2) {
  for (int m = VMAFX_VIF_LOG2_BASE; m < 65536; ++m) {
    const float l = float(std::log2(double(m)));
    ASSERT_EQ(vmafx_vif_log2_table[m - VMAFX_VIF_LOG2_BASE], std::uint16_t(std::round(l * 2048))) << m;
  }
  EXPECT_EQ(vmafx_vif_log2_table[0], 30720);
  EXPECT_EQ(vmafx_vif_log2_table[VMAFX_VIF_LOG2_SIZE - 1], 32768);
}

TEST(VifMath, Log2Q11) {
  EXPECT_EQ(vif::log2_q11(1u << 17), 17 * 2048);
  EXPECT_EQ(vif::log2_q11(std::uint64_t{1} << 32), 32 * 2048);
  EXPECT_EQ(vif::log2_q11(std::uint64_t{1} << 47), 47 * 2048);
  // 3 * 2^17: mantissa 49152 (log2 = 15.58496...), 3 bits dropped.
  EXPECT_EQ(vif::log2_q11(3u << 17), 31918 + 3 * 2048);
  // Only the top 16 bits count.
  EXPECT_EQ(vif::log2_q11((3u << 17) + 7), vif::log2_q11(3u << 17));
  EXPECT_EQ(vif::log2_q11(0xFFFFFFFFu), 32768 + 16 * 2048);
}

// Identical planes: g = s / (s + eps) is just below 1, so the noise term
// truncates to 0 and g*g*s to s - 1, not s.
TEST(VifMath, GainTermsIdenticalPlanesLoseOne) {
  for (std::int32_t s : {131072, 200000, 1 << 24, 2000000000}) {
    const GainTerms t = vif::gain_terms(s, s, s, 100.0);
    EXPECT_EQ(t.noise, std::uint32_t(vif::kSigmaNsq)) << s;
    EXPECT_EQ(t.total, std::int64_t(vif::kSigmaNsq) + s - 1) << s;
  }
}

TEST(VifMath, GainTermsAndGainLimit) {
  // g just below 2: sv_sq = 900000 - g*400000 is just above 100000.
  GainTerms t = vif::gain_terms(200000, 900000, 400000, 100.0);
  EXPECT_EQ(t.noise, 131072u + 100000u);
  EXPECT_EQ(t.total, 131072 + 100000 + 799999);
  // The limit caps g in the signal term only; the noise keeps the true g.
  t = vif::gain_terms(200000, 900000, 400000, 1.0);
  EXPECT_EQ(t.noise, 131072u + 100000u);
  EXPECT_EQ(t.total, 131072 + 100000 + 200000);
  t = vif::gain_terms(200000, 900000, 400000, 1.5);
  EXPECT_EQ(t.total, 131072 + 100000 + 450000);
}

TEST(VifMath, GainTermsNegativeNoiseClampsToZero) {
  // sv_sq < 0: clamped.
  GainTerms t = vif::gain_terms(200000, 100000, 300000, 100.0);
  EXPECT_EQ(t.noise, 131072u);
  // sv_sq far below INT32_MIN (2^60 / 2^17): still clamped, no undefined conversion.
  t = vif::gain_terms(131072, 1, 1 << 30, 100.0);
  EXPECT_EQ(t.noise, 131072u);
  EXPECT_EQ(t.total, 131072 + 100 * 100 * std::int64_t{131072});
}

TEST(VifMath, AccumulateBranches) {
  Accum a;
  vif::accumulate(a, 1000, -5, 7, 100.0);  // below sigma_nsq: flat branch, sigma2 clamped
  EXPECT_EQ(a.num_non_log, 0);
  EXPECT_EQ(a.den_non_log, 1);
  vif::accumulate(a, 131071, 40, 7, 100.0);
  EXPECT_EQ(a.num_non_log, 40);
  EXPECT_EQ(a.den_non_log, 2);
  vif::accumulate(a, 131072, 40, 0, 100.0);  // log branch, sigma12 <= 0: denominator only
  EXPECT_EQ(a.den_log, 2048);                // log2(2^18) - 17
  EXPECT_EQ(a.num_log, 0);
  vif::accumulate(a, 131072, -3, 50, 100.0);  // sigma2 <= 0: denominator only
  EXPECT_EQ(a.den_log, 4096);
  EXPECT_EQ(a.num_log, 0);
  vif::accumulate(a, 131072, 131072, 131072, 100.0);
  const GainTerms t = vif::gain_terms(131072, 131072, 131072, 100.0);
  EXPECT_EQ(a.num_log, vif::log2_q11(std::uint64_t(t.total)) - vif::log2_q11(t.noise));
  EXPECT_EQ(a.den_log, 3 * 2048);
}

TEST(VifMath, Finish) {
  Accum a;
  a.num_log = 3 * 2048;
  a.den_log = 5 * 2048;
  a.num_non_log = std::int64_t{16384} * 65025;
  a.den_non_log = 2;
  const vif::ScaleResult r = vif::finish(a);
  EXPECT_EQ(r.num, 4.0f);
  EXPECT_EQ(r.den, 7.0f);
  const vif::ScaleResult z = vif::finish(Accum{});
  EXPECT_EQ(z.num, 0.0f);
  EXPECT_EQ(z.den, 0.0f);
}

// ---------------------------------------------------------------------------
// Whole frames against libvmaf. Recipe:
// tests/data/golden/make/oracle-unit-adm-vif.sh (one run per case, by name).

constexpr const char* kNames[15] = {"VMAF_integer_feature_vif_scale0_score",
                                    "VMAF_integer_feature_vif_scale1_score",
                                    "VMAF_integer_feature_vif_scale2_score",
                                    "VMAF_integer_feature_vif_scale3_score",
                                    "integer_vif",
                                    "integer_vif_num",
                                    "integer_vif_den",
                                    "integer_vif_num_scale0",
                                    "integer_vif_den_scale0",
                                    "integer_vif_num_scale1",
                                    "integer_vif_den_scale1",
                                    "integer_vif_num_scale2",
                                    "integer_vif_den_scale2",
                                    "integer_vif_num_scale3",
                                    "integer_vif_den_scale3"};

struct Case {
  const char* name;
  int mode, w, h, bpc;
  std::uint32_t seed;
  const char* egl;
  bool skip_scale0;
  double want[15];  // kNames order, libvmaf 3.2.0 with debug=true
};

// Modes of vt_make: 0 gradient + noise with a flat band, 1 contrast enhanced,
// 2 identical, 3 flat, 4 full-range binary vs uniform noise.
const Case kCases[] = {
    {"MinimumSize8Bit",
     0,
     16,
     16,
     8,
     1u,
     "100",
     false,
     {0.3141980767250061, 0.74481993913650513, 0.79489046335220337, 0.63339793682098389, 0.39999800739055952,
      1352.64794921875, 3381.63671875, 853.22314453125, 2715.55810546875, 398.9580078125, 535.6435546875,
      87.85791015625, 110.5283203125, 12.60888671875, 19.90673828125}},
    {"OddSize10Bit",
     0,
     17,
     23,
     10,
     2u,
     "100",
     false,
     {0.34127047657966614, 0.75829911231994629, 0.80906152725219727, 0.67993360757827759, 0.41500199499413659,
      2133.54248046875, 5141.04150390625, 1448.6826171875, 4244.96923828125, 562.3935546875, 741.6513671875,
      109.4619140625, 135.294921875, 13.00439453125, 19.1259765625}},
    {"OddSize444Like8Bit",
     0,
     35,
     31,
     8,
     9u,
     "100",
     false,
     {0.32192137837409973, 0.76706916093826294, 0.84241163730621338, 0.88137835264205933, 0.40626144206872777,
      5625.27783203125, 13846.44775390625, 3638.5302734375, 11302.54296875, 1616.0068359375, 2106.72900390625,
      315.126953125, 374.0771484375, 55.61376953125, 63.0986328125}},
    {"Enhanced8Bit",
     1,
     33,
     19,
     8,
     3u,
     "100",
     false,
     {1.0231097936630249, 1.2445296049118042, 1.320731520652771, 1.3681255578994751, 1.0661283982507981, 7531.419921875,
      7064.27099609375, 5914.21630859375, 5780.62744140625, 1307.7041015625, 1050.76171875, 253.9267578125,
      192.26220703125, 55.57275390625, 40.61962890625}},
    {"Enhanced8BitGainLimit1",
     1,
     33,
     19,
     8,
     3u,
     "1",
     false,
     {0.81014358997344971, 0.97241353988647461, 0.99233531951904297, 0.98724591732025146, 0.84025700966716932,
      5935.80322265625, 7064.27099609375, 4683.13818359375, 5780.62744140625, 1021.77490234375, 1050.76171875,
      190.78857421875, 192.26220703125, 40.1015625, 40.61962890625}},
    {"Enhanced14BitGainLimit1_5",
     1,
     64,
     48,
     14,
     8u,
     "1.5",
     false,
     {0.86031413078308105, 1.113986611366272, 1.1678298711776733, 1.2760344743728638, 0.91181822278273339,
      32714.22265625, 35878.00927734375, 24899.521484375, 28942.359375, 6294.6875, 5650.59521484375, 1292.54931640625,
      1106.7958984375, 227.46435546875, 178.2587890625}},
    {"Extreme16Bit",
     4,
     40,
     40,
     16,
     4u,
     "100",
     false,
     {0.00039953988743945956, 0.0064943726174533367, 0.0044778017327189445, 0.0082767438143491745, 0.001274598103772201,
      31.1630859375, 24449.3427734375, 8.302734375, 20780.740234375, 19.04541015625, 2932.60205078125, 2.68359375,
      599.310546875, 1.13134765625, 136.68994140625}},
    {"Extreme16BitGainLimit1",
     4,
     40,
     40,
     16,
     4u,
     "1",
     false,
     {0.00039953988743945956, 0.0064943726174533367, 0.0044778017327189445, 0.0082767438143491745, 0.001274598103772201,
      31.1630859375, 24449.3427734375, 8.302734375, 20780.740234375, 19.04541015625, 2932.60205078125, 2.68359375,
      599.310546875, 1.13134765625, 136.68994140625}},
    {"Identical12Bit",
     2,
     24,
     24,
     12,
     5u,
     "100",
     false,
     {1, 1, 1, 1, 1, 8169.083984375, 8169.083984375, 6491.484375, 6491.484375, 1339.4365234375, 1339.4365234375,
      285.478515625, 285.478515625, 52.6845703125, 52.6845703125}},
    {"Flat8Bit", 3, 16, 16, 8, 6u, "100", false, {1, 1, 1, 1, 1, 340, 340, 256, 256, 64, 64, 16, 16, 4, 4}},
    {"Flat16Bit", 3, 21, 17, 16, 6u, "100", false, {1, 1, 1, 1, 1, 461, 461, 357, 357, 80, 80, 20, 20, 4, 4}},
    {"SkipScale0_9Bit",
     0,
     35,
     31,
     9,
     7u,
     "100",
     true,
     {0, 0.76237475872039795, 0.83494061231613159, 0.93944251537322998, 0.77749746951861765, 1994.9677734375,
      2565.88330078125, 0, -1, 1619.0986328125, 2123.7568359375, 315.4599609375, 377.8232421875, 60.4091796875,
      64.30322265625}},
};

class VifVsLibvmaf : public ::testing::TestWithParam<Case> {};

TEST_P(VifVsLibvmaf, EveryOutputEqual) {
  const Case& c = GetParam();
  const PictureFormat fmt = luma_format(c.w, c.h, c.bpc);
  auto ex = make_vif(
      {{"debug", "true"}, {"vif_enhn_gain_limit", c.egl}, {"vif_skip_scale0", c.skip_scale0 ? "true" : "false"}}, fmt);
  std::vector<std::uint16_t> r(std::size_t(c.w) * c.h), d(r.size());
  vt_make(c.mode, c.w, c.h, c.bpc, c.seed, r.data(), d.data());
  Picture ref(fmt), dis(fmt);
  fill(ref, r);
  fill(dis, d);
  Recorder out;
  ex->extract(ref, dis, 0, out);
  ASSERT_EQ(out.names.size(), 15u);
  for (int i = 0; i < 15; ++i) {
    EXPECT_EQ(out.names[i], kNames[i]);
    EXPECT_EQ(out.value[kNames[i]], c.want[i]) << kNames[i];
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, VifVsLibvmaf, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

TEST(Vif, WithoutDebugOnlyTheFourScores) {
  const PictureFormat fmt = luma_format(16, 16, 8);
  auto ex = make_vif({}, fmt);
  std::vector<std::uint16_t> r(256), d(256);
  vt_make(0, 16, 16, 8, 1, r.data(), d.data());
  Picture ref(fmt), dis(fmt);
  fill(ref, r);
  fill(dis, d);
  Recorder out;
  ex->extract(ref, dis, 7, out);
  ASSERT_EQ(out.names.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out.value[kNames[i]], kCases[0].want[i]);
}

// Chroma is never read: the same luma gives the same scores in every layout.
TEST(Vif, ChromaFormatsIgnored) {
  std::vector<std::uint16_t> r(std::size_t(17) * 23), d(r.size());
  vt_make(0, 17, 23, 10, 2, r.data(), d.data());
  for (ChromaFormat cf : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::k400}) {
    const PictureFormat fmt = luma_format(17, 23, 10, cf);
    auto ex = make_vif({}, fmt);
    Picture ref(fmt), dis(fmt);
    for (int p = 1; p < fmt.plane_count(); ++p) {
      std::memset(ref.plane_data(p), 0x11 * p, std::size_t(ref.stride(p)) * fmt.plane_height(p));
      std::memset(dis.plane_data(p), 0x37 * p, std::size_t(dis.stride(p)) * fmt.plane_height(p));
    }
    fill(ref, r);
    fill(dis, d);
    Recorder out;
    ex->extract(ref, dis, 0, out);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out.value[kNames[i]], kCases[1].want[i]) << kNames[i];
  }
}

// ---------------------------------------------------------------------------
// A plain reference: every scale filtered at full resolution with an explicit
// mirror formula, then decimated, as the algorithm is defined. Checks the
// shortcuts of the implementation (only kept samples computed, row maps,
// in-place padding) on random sizes.

// libvmaf's in-place mirror is, for n >= 2, a reflection with period 2(n-1).
int reflect(int i, int n) {
  const int period = 2 * (n - 1);
  int m = i % period;
  if (m < 0) m += period;
  return m < n ? m : period - m;
}

struct RefImage {
  int w, h;
  std::vector<std::uint32_t> px;
  std::uint32_t at(int x, int y) const { return px[std::size_t(reflect(y, h)) * w + reflect(x, w)]; }
};

std::array<vif::ScaleResult, 4> reference_scales(RefImage ref, RefImage dis, int bpc, double limit) {
  std::array<vif::ScaleResult, 4> out{};
  for (int s = 0; s < 4; ++s) {
    const int taps = vmafx_vif_filter_width[s], half = taps / 2, w = ref.w, h = ref.h;
    const std::uint16_t* c = vmafx_vif_filter[s];
    const int shv = s == 0 ? bpc : 16, shsq = s == 0 ? 2 * (bpc - 8) : 16;
    const std::uint64_t rv = std::uint64_t{1} << (shv - 1), rsq = shsq ? std::uint64_t{1} << (shsq - 1) : 0;
    // Vertical pass of the statistic, everywhere.
    std::vector<std::uint64_t> vm1(std::size_t(w) * h), vm2(vm1.size()), vxx(vm1.size()), vyy(vm1.size()),
        vxy(vm1.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        std::uint64_t m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;
        for (int k = 0; k < taps; ++k) {
          const std::uint64_t a = ref.at(x, y - half + k), b = dis.at(x, y - half + k);
          m1 += c[k] * a;
          m2 += c[k] * b;
          xx += c[k] * a * a;
          yy += c[k] * b * b;
          xy += c[k] * a * b;
        }
        const std::size_t i = std::size_t(y) * w + x;
        vm1[i] = (m1 + rv) >> shv;
        vm2[i] = (m2 + rv) >> shv;
        vxx[i] = (xx + rsq) >> shsq;
        vyy[i] = (yy + rsq) >> shsq;
        vxy[i] = (xy + rsq) >> shsq;
      }
    Accum acc;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        std::uint64_t m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;
        for (int k = 0; k < taps; ++k) {
          const std::size_t i = std::size_t(y) * w + reflect(x - half + k, w);
          m1 += c[k] * vm1[i];
          m2 += c[k] * vm2[i];
          xx += c[k] * vxx[i];
          yy += c[k] * vyy[i];
          xy += c[k] * vxy[i];
        }
        const auto q = [](std::uint64_t a, std::uint64_t b) { return (a * b + 0x80000000u) >> 32; };
        const auto f = [](std::uint64_t v) { return (v + 32768) >> 16; };
        vif::accumulate(acc, std::int32_t(std::uint32_t(f(xx) - q(m1, m1))),
                        std::int32_t(std::uint32_t(f(yy) - q(m2, m2))), std::int32_t(std::uint32_t(f(xy) - q(m1, m2))),
                        limit);
      }
    out[s] = vif::finish(acc);
    if (s == 3) break;
    // Next scale: filter s+1 everywhere, keep even rows and columns.
    const int nt = vmafx_vif_filter_width[s + 1], nh = nt / 2;
    const std::uint16_t* nc = vmafx_vif_filter[s + 1];
    RefImage nr{w / 2, h / 2, {}}, nd{w / 2, h / 2, {}};
    std::vector<std::uint64_t> tr(std::size_t(w) * h), td(tr.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        std::uint64_t a = 0, b = 0;
        for (int k = 0; k < nt; ++k) {
          a += nc[k] * std::uint64_t{ref.at(x, y - nh + k)};
          b += nc[k] * std::uint64_t{dis.at(x, y - nh + k)};
        }
        tr[std::size_t(y) * w + x] = (a + rv) >> shv;
        td[std::size_t(y) * w + x] = (b + rv) >> shv;
      }
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        std::uint64_t a = 0, b = 0;
        for (int k = 0; k < nt; ++k) {
          a += nc[k] * tr[std::size_t(y) * w + reflect(x - nh + k, w)];
          b += nc[k] * td[std::size_t(y) * w + reflect(x - nh + k, w)];
        }
        if (y % 2 == 0 && x % 2 == 0 && y / 2 < h / 2 && x / 2 < w / 2) {
          nr.px.push_back(std::uint32_t((a + 32768) >> 16));
          nd.px.push_back(std::uint32_t((b + 32768) >> 16));
        }
      }
    ref = std::move(nr);
    dis = std::move(nd);
  }
  return out;
}

TEST(Vif, MatchesPlainReferenceOnRandomSizes) {
  std::mt19937 rng(12345);
  for (int iter = 0; iter < 24; ++iter) {
    const int w = 16 + int(rng() % 50), h = 16 + int(rng() % 50);
    const int bpc = std::vector<int>{8, 9, 10, 12, 16}[rng() % 5];
    const double limit = std::vector<double>{100.0, 1.0, 2.5}[rng() % 3];
    std::vector<std::uint16_t> r(std::size_t(w) * h), d(r.size());
    vt_make(int(rng() % 5), w, h, bpc, rng(), r.data(), d.data());
    const auto as_u8 = [&](const std::vector<std::uint16_t>& v) {
      std::vector<std::uint8_t> o(v.begin(), v.end());
      return o;
    };
    std::vector<std::uint8_t> r8 = as_u8(r), d8 = as_u8(d);
    const int bytes = bpc == 8 ? 1 : 2;
    const PlaneView rv{bpc == 8 ? r8.data() : reinterpret_cast<const std::uint8_t*>(r.data()), w * bytes, w, h};
    const PlaneView dv{bpc == 8 ? d8.data() : reinterpret_cast<const std::uint8_t*>(d.data()), w * bytes, w, h};
    const auto got = vif::compute_scales(rv, dv, bpc, limit, false);
    const auto want =
        reference_scales(RefImage{w, h, {r.begin(), r.end()}}, RefImage{w, h, {d.begin(), d.end()}}, bpc, limit);
    for (int s = 0; s < 4; ++s) {
      EXPECT_EQ(got[s].num, want[s].num) << w << "x" << h << " bpc " << bpc << " scale " << s;
      EXPECT_EQ(got[s].den, want[s].den) << w << "x" << h << " bpc " << bpc << " scale " << s;
    }
  }
}

// Identical inputs: every scale's score is 1 or just below it (the gain term
// truncates g*g*sigma1_sq down by one, see GainTermsIdenticalPlanesLoseOne),
// never above; flat identical inputs are exactly 1 (all pixels in the flat branch).
TEST(Vif, IdenticalInputs) {
  for (int bpc : {8, 10, 16}) {
    std::vector<std::uint16_t> r(std::size_t(48) * 40), d(r.size());
    vt_make(2, 48, 40, bpc, 99, r.data(), d.data());
    const PictureFormat fmt = luma_format(48, 40, bpc);
    auto ex = make_vif({}, fmt);
    Picture ref(fmt), dis(fmt);
    fill(ref, r);
    fill(dis, r);
    Recorder out;
    ex->extract(ref, dis, 0, out);
    for (int i = 0; i < 4; ++i) {
      EXPECT_LE(out.value[kNames[i]], 1.0);
      EXPECT_GT(out.value[kNames[i]], 0.999);
    }
    std::vector<std::uint16_t> flat(r.size(), std::uint16_t((1 << bpc) / 3));
    fill(ref, flat);
    fill(dis, flat);
    Recorder f;
    ex->extract(ref, dis, 0, f);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(f.value[kNames[i]], 1.0) << bpc;
  }
}

// One instance, frames extracted concurrently on several threads (and sizes
// changing per thread's scratch): same values as one after another.
TEST(Vif, ConcurrentExtractsEqualSequential) {
  const PictureFormat fmt = luma_format(67, 45, 10);
  auto ex = make_vif({{"debug", "true"}}, fmt);
  constexpr int kFrames = 8;
  std::vector<std::unique_ptr<Picture>> refs, diss;
  for (int f = 0; f < kFrames; ++f) {
    std::vector<std::uint16_t> r(std::size_t(67) * 45), d(r.size());
    vt_make(f % 5, 67, 45, 10, 1000 + f, r.data(), d.data());
    refs.push_back(std::make_unique<Picture>(fmt));
    diss.push_back(std::make_unique<Picture>(fmt));
    fill(*refs.back(), r);
    fill(*diss.back(), d);
  }
  std::vector<Recorder> seq(kFrames), par(kFrames);
  for (int f = 0; f < kFrames; ++f) ex->extract(*refs[f], *diss[f], f, seq[f]);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 3; ++rep)
        for (int f = t; f < kFrames; f += 4) {
          Recorder r;
          ex->extract(*refs[f], *diss[f], f, r);
          if (rep == 2) par[f] = r;
        }
    });
  for (auto& th : threads) th.join();
  for (int f = 0; f < kFrames; ++f) {
    EXPECT_EQ(par[f].names, seq[f].names);
    EXPECT_EQ(par[f].value, seq[f].value) << "frame " << f;
  }
}

// ---------------------------------------------------------------------------
// Options, names and errors.

TEST(VifOptions, TableMirrorsLibvmaf) {
  ASSERT_EQ(kVifExtractor.name, "vif");
  ASSERT_EQ(kVifExtractor.options.size(), 3u);
  const OptionSpec& d = kVifExtractor.options[0];
  EXPECT_EQ(d.name, "debug");
  EXPECT_EQ(d.alias, "");
  EXPECT_EQ(d.type, OptionType::kBool);
  EXPECT_EQ(d.default_num, 0);
  EXPECT_FALSE(d.feature_param);
  const OptionSpec& g = kVifExtractor.options[1];
  EXPECT_EQ(g.name, "vif_enhn_gain_limit");
  EXPECT_EQ(g.alias, "egl");
  EXPECT_EQ(g.type, OptionType::kDouble);
  EXPECT_EQ(g.default_num, 100.0);
  EXPECT_EQ(g.min, 1.0);
  EXPECT_EQ(g.max, 100.0);
  EXPECT_TRUE(g.feature_param);
  const OptionSpec& s = kVifExtractor.options[2];
  EXPECT_EQ(s.name, "vif_skip_scale0");
  EXPECT_EQ(s.alias, "ssclz");
  EXPECT_EQ(s.type, OptionType::kBool);
  EXPECT_EQ(s.default_num, 0);
  EXPECT_TRUE(s.feature_param);
  EXPECT_EQ(kVifExtractor.flags, 0u);
  ASSERT_EQ(kVifExtractor.provided.size(), 15u);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(kVifExtractor.provided[i], kNames[i]);
}

TEST(VifOptions, Suffixes) {
  const auto suffix = [](std::map<std::string, std::string> o) {
    return OptionSet(kVifExtractor.options, o, "vif").name_suffix();
  };
  EXPECT_EQ(suffix({}), "");
  EXPECT_EQ(suffix({{"debug", "true"}}), "");
  EXPECT_EQ(suffix({{"vif_enhn_gain_limit", "1.0"}}), "_egl_1");
  EXPECT_EQ(suffix({{"vif_enhn_gain_limit", "1.5"}}), "_egl_1.5");
  EXPECT_EQ(suffix({{"vif_enhn_gain_limit", "100"}}), "");
  EXPECT_EQ(suffix({{"vif_skip_scale0", "true"}}), "_ssclz");
  EXPECT_EQ(suffix({{"vif_enhn_gain_limit", "1"}, {"vif_skip_scale0", "true"}}), "_egl_1_ssclz");
}

// Output names through the engine: alias for the scores, the option suffix on
// every output including the debug ones.
TEST(VifOptions, OutputNamesThroughEngine) {
  const PictureFormat fmt = luma_format(16, 16, 8, ChromaFormat::k420);
  Engine engine(fmt, EngineOptions{});
  engine.use(FeatureRequest{"vif", {{"vif_enhn_gain_limit", "1"}, {"debug", "true"}}});
  std::vector<std::uint16_t> r(256), d(256);
  vt_make(0, 16, 16, 8, 1, r.data(), d.data());
  auto a = engine.acquire();
  auto b = engine.acquire();
  fill(*a, r);
  fill(*b, d);
  engine.push(std::move(a), std::move(b));
  engine.finish();
  std::vector<std::string> names;
  for (const auto& s : engine.collector().all()) names.push_back(s.name);
  const std::vector<std::string> want = {"integer_vif_scale0_egl_1",
                                         "integer_vif_scale1_egl_1",
                                         "integer_vif_scale2_egl_1",
                                         "integer_vif_scale3_egl_1",
                                         "integer_vif_egl_1",
                                         "integer_vif_num_egl_1",
                                         "integer_vif_den_egl_1",
                                         "integer_vif_num_scale0_egl_1",
                                         "integer_vif_den_scale0_egl_1",
                                         "integer_vif_num_scale1_egl_1",
                                         "integer_vif_den_scale1_egl_1",
                                         "integer_vif_num_scale2_egl_1",
                                         "integer_vif_den_scale2_egl_1",
                                         "integer_vif_num_scale3_egl_1",
                                         "integer_vif_den_scale3_egl_1"};
  EXPECT_EQ(names, want);
}

TEST(VifErrors, TooSmall) {
  EXPECT_EQ(create_error({}, luma_format(15, 16, 8)),
            "vif: picture 15x16 is too small (at least 16x16, so that the fourth scale is 2x2)");
  EXPECT_EQ(create_error({}, luma_format(16, 15, 10)),
            "vif: picture 16x15 is too small (at least 16x16, so that the fourth scale is 2x2)");
  EXPECT_EQ(create_error({}, luma_format(1, 1, 8)),
            "vif: picture 1x1 is too small (at least 16x16, so that the fourth scale is 2x2)");
  EXPECT_EQ(create_error({}, luma_format(16, 16, 8)), "no error");
}

TEST(VifErrors, BitDepth) {
  EXPECT_EQ(create_error({}, luma_format(32, 32, 7)), "vif: bit depth 7 is not supported (8 to 16)");
  EXPECT_EQ(create_error({}, luma_format(32, 32, 17)), "vif: bit depth 17 is not supported (8 to 16)");
  for (int bpc = 8; bpc <= 16; ++bpc) EXPECT_EQ(create_error({}, luma_format(32, 32, bpc)), "no error");
}

TEST(VifErrors, BadOptions) {
  const auto msg = [](std::map<std::string, std::string> o) {
    try {
      OptionSet s(kVifExtractor.options, o, "vif");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(msg({{"vif_enhn_gain_limit", "0.5"}}), "vif: option vif_enhn_gain_limit=0.5: out of range [1, 100]");
  EXPECT_EQ(msg({{"vif_enhn_gain_limit", "100.5"}}), "vif: option vif_enhn_gain_limit=100.5: out of range [1, 100]");
  EXPECT_EQ(msg({{"vif_skip_scale0", "1"}}), "vif: option vif_skip_scale0=1: expected true or false");
  EXPECT_EQ(msg({{"vif_kernelscale", "1"}}),
            "vif: unknown option 'vif_kernelscale' (known: debug, vif_enhn_gain_limit, vif_skip_scale0)");
}

}  // namespace
}  // namespace vmafx
