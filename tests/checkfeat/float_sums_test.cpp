// SPDX-License-Identifier: BSD-3-Clause
// The float_psnr and float_moment twins past 2^53 units: a 2048x2048 16-bit
// frame whose double sums stop being exact past the middle, so the
// twins take their one-by-one path (the device writes the remaining terms, the
// host adds them in order). The harness's small inputs never get there.
// Skips where the backend has no device.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "backend/backends.hpp"
#include "support/devices.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "exact/float_terms.h"
#include "feature/exact_sum.hpp"

namespace vmafx {
namespace {

constexpr int kW = 2048, kH = 2048;

void fill(Picture& ref, Picture& dis) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> hi(50000, 65535), lo(0, 10000);
  for (int p = 0; p < 3; ++p)
    for (int y = 0; y < ref.plane(p).height; ++y)
      for (int x = 0; x < ref.plane(p).width; ++x) {
        ref.row<std::uint16_t>(p, y)[x] = std::uint16_t(hi(rng));
        dis.row<std::uint16_t>(p, y)[x] = std::uint16_t(lo(rng));
      }
}

FeatureCollector score(Backend* b) {
  Engine e({kW, kH, 16, ChromaFormat::k420}, {.threads = 0, .subsample = 1, .backend = b, .cpu_fallback = false});
  e.use({"float_psnr", {}});
  e.use({"float_moment", {}});
  auto r = e.acquire();
  auto d = e.acquire();
  fill(*r, *d);
  e.push(std::move(r), std::move(d));
  e.finish();
  return std::move(e.collector());
}

class FloatSums : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatSums, PastTwoToTheFiftyThreeUnitsEqualTheCpu) {
  // Skipped only where the backend lists no device; a listed one must start.
  if (!test::device_listed(GetParam())) GTEST_SKIP() << "no " << GetParam() << " device listed";
  const std::unique_ptr<Backend> backend = create_backend(GetParam(), 0);
  // The content does take the one-by-one path (the squared error's sum).
  {
    Picture ref({kW, kH, 16, ChromaFormat::k420}), dis({kW, kH, 16, ChromaFormat::k420});
    fill(ref, dis);
    std::vector<std::uint64_t> rows(kH, 0);
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x)
        rows[y] += vmafx_fterm(VMAFX_FTERM_ERROR, ref.row<std::uint16_t>(0, y)[x], dis.row<std::uint16_t>(0, y)[x]);
    const exact_sum::Prefix p = exact_sum::exact_prefix(rows);
    ASSERT_GT(p.rows, 0);
    ASSERT_LT(p.rows, kH);
  }
  const FeatureCollector cpu = score(nullptr);
  const FeatureCollector twin = score(backend.get());
  const auto& a = cpu.all();
  const auto& b = twin.all();
  ASSERT_EQ(a.size(), 5u);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(a[k].name, b[k].name);
    ASSERT_TRUE(a[k].written[0] && b[k].written[0]) << a[k].name;
    EXPECT_EQ(a[k].value[0], b[k].value[0]) << a[k].name;
  }
}

// The device backends of this build (none: no such test).
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FloatSums);
INSTANTIATE_TEST_SUITE_P(Backends, FloatSums, ::testing::ValuesIn(test::built_device_backends()));

}  // namespace
}  // namespace vmafx
