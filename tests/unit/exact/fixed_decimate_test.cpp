// SPDX-License-Identifier: BSD-3-Clause
// src/exact/fixed_decimate.h against float_ssim's decimation, bit for bit.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <string>

#include "exact/fixed_decimate.h"
#include "exact_reference.h"
#include "exact_vectors.h"

namespace {

using namespace vmafx::exact_test;

uint32_t fixed_window(const uint16_t* s, int scale, int bpc) {
  const uint32_t tap = vmafx_decimate_tap_bits(scale);
  uint64_t sum = 0;
  for (int i = 0; i < scale * scale; ++i) sum += vmafx_decimate_product_fx(vmafx_decimate_sample_fx(s[i], bpc), tap);
  return vmafx_decimate_round_fx(sum);
}

TEST(FixedDecimate, TapIsTheReferenceQuotient) {
  for (int scale = 1; scale <= 4096; ++scale)
    ASSERT_EQ(vmafx_decimate_tap_bits(scale), fbits(1.0f / (scale * scale))) << scale;
}

TEST(FixedDecimate, ProductsAreTheFp32Products) {
  Rng r(seed_of(0xF32, 0));
  for (int i = 0; i < 2000000; ++i) {
    const int scale = 1 + (int)r.below(VMAFX_DECIMATE_MAX_SCALE);
    const int bpc = (int[]){8, 10, 12, 16}[r.below(4)];
    const uint32_t sample = (uint32_t)r.below(1ull << bpc);
    const float scaler = bpc == 10 ? 4.0f : (bpc == 12 ? 16.0f : 256.0f);
    const float px = bpc == 8 ? (float)sample : (float)sample / scaler;
    const double want = (double)(px * (1.0f / (scale * scale))) * 4503599627370496.0;  // * 2^52
    const uint64_t got =
        vmafx_decimate_product_fx(vmafx_decimate_sample_fx(sample, bpc), vmafx_decimate_tap_bits(scale));
    ASSERT_EQ((double)got, want) << sample << " " << bpc << " " << scale;
    ASSERT_EQ(got, (uint64_t)want);
  }
}

class FixedDecimate : public ::testing::TestWithParam<int> {};

TEST_P(FixedDecimate, WindowSumsMatchReference) {
  const int bpc = GetParam();
  const size_t n = env_count("VMAFX_EXACT_WINDOWS", 1000000);
  const DecimateSet d = decimate_vectors(bpc, n);
  ASSERT_GE(d.start.size(), n);
  size_t bad = 0, rounded = 0;
  std::string repro;
  for (size_t w = 0; w < d.start.size(); ++w) {
    const uint16_t* s = d.samples.data() + d.start[w];
    const uint32_t want = fbits(ref_decimate_window(s, d.scale[w], bpc));
    const uint32_t got = fixed_window(s, d.scale[w], bpc);
    if (got != want && bad < 8) {
      char line[128];
      std::snprintf(line, sizeof line, "  window %zu scale %d: 0x%08x, reference 0x%08x\n", w, d.scale[w], got, want);
      repro += line;
    }
    bad += got != want;
    // windows whose sum is not an fp32 value: the final rounding mattered
    uint64_t sum = 0;
    const uint32_t tap = vmafx_decimate_tap_bits(d.scale[w]);
    for (int i = 0; i < d.scale[w] * d.scale[w]; ++i)
      sum += vmafx_decimate_product_fx(vmafx_decimate_sample_fx(s[i], bpc), tap);
    rounded += sum != (uint64_t)((double)fval(want) * 4503599627370496.0);
  }
  EXPECT_EQ(bad, 0u) << "of " << d.start.size() << " windows at " << bpc << " bits:\n" << repro;
  EXPECT_GT(rounded, d.start.size() / 4);
  std::printf("[ bpc %2d ] %zu windows, %zu rounded at the end\n", bpc, d.start.size(), rounded);
}

INSTANTIATE_TEST_SUITE_P(Depths, FixedDecimate, ::testing::Values(8, 10, 12, 16),
                         [](const ::testing::TestParamInfo<int>& i) { return "bpc" + std::to_string(i.param); });

TEST(FixedDecimate, WholePlanesWithMirroredEdgesMatchReference) {
  // _iqa_decimate over a plane: output (x, y) filters around (x s, y s),
  // KBND_SYMMETRIC outside the plane
  Rng r(seed_of(0xDEC, 99));
  size_t bad = 0, outputs = 0;
  for (int iter = 0; iter < 400; ++iter) {
    const int bpc = (int[]){8, 10, 12, 16}[iter & 3];
    const int scale = 2 + (int)r.below(9);
    const int w = scale + (int)r.below(90), h = scale + (int)r.below(60);
    std::vector<uint16_t> img((size_t)w * h);
    for (auto& p : img) p = (uint16_t)r.below(1ull << bpc);
    const int sw = vmafx_decimate_out_size(w, scale), sh = vmafx_decimate_out_size(h, scale);
    const int first = vmafx_decimate_first_offset(scale);
    std::vector<uint16_t> win((size_t)scale * scale);
    for (int y = 0; y < sh; ++y)
      for (int x = 0; x < sw; ++x) {
        int k = 0;
        for (int v = first; v < first + scale; ++v)
          for (int u = first; u < first + scale; ++u) {
            // the reference's own boundary rule, spelled out
            int xx = x * scale + u, yy = y * scale + v;
            if (xx < 0)
              xx = -1 - xx;
            else if (xx >= w)
              xx = (w - (xx - w)) - 1;
            if (yy < 0)
              yy = -1 - yy;
            else if (yy >= h)
              yy = (h - (yy - h)) - 1;
            ASSERT_EQ(xx, vmafx_decimate_mirror(x * scale + u, w));
            ASSERT_EQ(yy, vmafx_decimate_mirror(y * scale + v, h));
            win[k++] = img[(size_t)yy * w + xx];
          }
        bad += fixed_window(win.data(), scale, bpc) != fbits(ref_decimate_window(win.data(), scale, bpc));
        ++outputs;
      }
  }
  EXPECT_EQ(bad, 0u) << "of " << outputs;
}

}  // namespace
