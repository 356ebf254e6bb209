// SPDX-License-Identifier: BSD-3-Clause
// A device twin refuses what its CPU reference refuses, with the reference's
// one-line message: a Session on each device backend of this build (skipped
// only where the backend lists no device).
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "support/devices.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {
namespace {

std::string refusal(const SessionConfig& cfg, const PictureFormat& fmt) {
  try {
    Session s(fmt, cfg);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

class DeviceRefusals : public ::testing::TestWithParam<std::string> {};

TEST_P(DeviceRefusals, CambiBitDepthOutsideEightToSixteen) {
  if (!test::device_listed(GetParam())) GTEST_SKIP() << "no " << GetParam() << " device listed";
  SessionConfig c;
  c.no_prediction = true;
  c.features = {"cambi"};
  c.backend = GetParam();
  EXPECT_EQ(refusal(c, {64, 64, 7, ChromaFormat::k420}), "cambi: unsupported bit depth 7 (8 to 16)");
}

// The device backends of this build (none: no such test).
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DeviceRefusals);
INSTANTIATE_TEST_SUITE_P(Backends, DeviceRefusals, ::testing::ValuesIn(test::built_device_backends()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace vmafx
