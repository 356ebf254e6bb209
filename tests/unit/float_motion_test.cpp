// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of float_motion: SAD and blend computed directly, libvmaf's write order and values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "core/engine.hpp"
#include "core/error.hpp"
#include "feature/float_adm.hpp"
#include "exact/float_adm_tables.h"
#include "feature/float_ansnr.hpp"
#include "feature/float_common.hpp"
#include "feature/float_moment.hpp"
#include "feature/float_motion.hpp"
#include "feature/float_psnr.hpp"
#include "feature/float_vif.hpp"
#include "exact/float_vif_tables.h"
#include "support/pictures.hpp"

namespace vmafx {
namespace {

using namespace vmafx::test;

TEST(FloatMotionDirect, SadAndBlend) {
  std::vector<float> a(6 * 4, 3.0f), b(6 * 4, 3.0f);
  EXPECT_EQ(fmotion::sad(a.data(), b.data(), 6, 4, false, 6), 0.0f);
  b[5] = 11.0f;
  EXPECT_EQ(fmotion::sad(a.data(), b.data(), 6, 4, false, 6), 8.0f / 24.0f);
  EXPECT_EQ(fmotion::blend(50.0, 1.0, 40.0), 50.0);
  EXPECT_EQ(fmotion::blend(50.0, 0.5, 40.0), 50.0 * 0.5 + 0.5 * 40.0);
  EXPECT_EQ(fmotion::blend(30.0, 0.5, 40.0), 30.0);
}

// With add_scale1, a plane narrower than the luma is rescaled from libvmaf's
// misread buffer: rows alternate between the left halves of the real rows and
// the (zero) padding after them.
TEST(FloatMotionDirect, NarrowPlaneScaleOneReadsLibvmafsBuffer) {
  const int w = 16, h = 8, luma_w = 32;
  std::vector<float> a(w * h), b(w * h, 0.0f);
  for (int i = 0; i < w * h; ++i) a[i] = float(i % 7);
  // Build libvmaf's view by hand: buffer rows of 32, read with rows of 16.
  std::vector<float> buffer(std::size_t(luma_w) * h, 0.0f), view(w * h);
  for (int y = 0; y < h; ++y) std::copy(a.begin() + y * w, a.begin() + (y + 1) * w, buffer.begin() + y * luma_w);
  for (int y = 0; y < h; ++y) std::copy(buffer.begin() + y * w, buffer.begin() + (y + 1) * w, view.begin() + y * w);
  const float s0 = fmotion::sad(a.data(), b.data(), w, h, false, luma_w);
  const float s1_view =
      fmotion::sad(view.data(), b.data(), w, h, true, w) - fmotion::sad(view.data(), b.data(), w, h, false, w);
  EXPECT_EQ(fmotion::sad(a.data(), b.data(), w, h, true, luma_w), s0 + s1_view);
  // Equal padded widths (4:4:4, or chroma as wide as the luma after padding): no misread.
  EXPECT_EQ(fmotion::sad(a.data(), b.data(), w, h, true, w), fmotion::sad(a.data(), b.data(), w, h, true, 15));
}

// ---- Names and write order ------------------------------------------------------

std::vector<std::string> motion_writes(unsigned frames, const std::map<std::string, std::string>& opts,
                                       std::vector<Recorder::Rec>* all = nullptr) {
  const PictureFormat f{.width = 16, .height = 12, .bpc = 8, .chroma = ChromaFormat::k420};
  const OptionSet o(kFloatMotionExtractor.options, opts, "float_motion");
  auto ex = kFloatMotionExtractor.create(o, f);
  Recorder rec;
  const Filler fill = scaled_content(8);
  for (unsigned i = 0; i < frames; ++i) {
    Picture r(f), d(f);
    fill(r, d, i);
    ex->extract(r, d, i, rec);
  }
  ex->flush(rec);
  if (all) *all = rec.recs;
  return rec.names();
}

TEST(FloatMotionOrder, WhatIsWrittenWhen) {
  const std::string m = "VMAF_feature_motion_score", m2 = "VMAF_feature_motion2_score",
                    m3 = "VMAF_feature_motion3_score";
  EXPECT_EQ(motion_writes(1, {}), (std::vector<std::string>{m2 + "@0", m + "@0", m3 + "@0"}));
  EXPECT_EQ(motion_writes(2, {}),
            (std::vector<std::string>{m2 + "@0", m + "@0", m + "@1", m3 + "@0", m2 + "@1", m3 + "@1"}));
  EXPECT_EQ(motion_writes(3, {}), (std::vector<std::string>{m2 + "@0", m + "@0", m + "@1", m3 + "@0", m + "@2",
                                                            m2 + "@1", m3 + "@1", m2 + "@2", m3 + "@2"}));
  EXPECT_EQ(motion_writes(2, {{"debug", "false"}}),
            (std::vector<std::string>{m2 + "@0", m3 + "@0", m2 + "@1", m3 + "@1"}));
  // force_zero: everything per frame, nothing on flush.
  EXPECT_EQ(motion_writes(2, {{"motion_force_zero", "true"}}),
            (std::vector<std::string>{m2 + "@0", m3 + "@0", m + "@0", m2 + "@1", m3 + "@1", m + "@1"}));
}

TEST(FloatMotionOrder, ValuesFollowTheScores) {
  std::vector<Recorder::Rec> r;
  motion_writes(4, {}, &r);
  std::map<std::string, double> v;
  for (const auto& x : r) {
    EXPECT_FALSE(x.plain);
    v[x.name.substr(13, 7) + std::to_string(x.index)] = x.value;  // "motion_", "motion2", "motion3"
  }
  // motion[i] is the score of frame i; motion2[i] = min(score[i], score[i+1]); the last takes score[n-1].
  EXPECT_EQ(v["motion_0"], 0.0);
  EXPECT_GT(v["motion_1"], 0.0);
  EXPECT_EQ(v["motion20"], 0.0);
  EXPECT_EQ(v["motion21"], std::min(v["motion_1"], v["motion_2"]));
  EXPECT_EQ(v["motion22"], std::min(v["motion_2"], v["motion_3"]));
  EXPECT_EQ(v["motion23"], v["motion_3"]);
  EXPECT_EQ(v["motion30"], v["motion_1"]);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(v["motion3" + std::to_string(i)], v["motion2" + std::to_string(i)]);
}

}  // namespace
}  // namespace vmafx
