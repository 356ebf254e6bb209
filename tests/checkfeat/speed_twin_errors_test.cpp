// SPDX-License-Identifier: BSD-3-Clause
// The SpEED twins refuse what the CPU reference refuses, with the
// reference's one-line message: an input without chroma planes, planes under
// 80x80 after the prescale, a speed_temporal prescale that enlarges the
// frame, an unknown prescale method, a kernel scale libvmaf lacks. On every
// device backend this build has (skipped where none lists a device), through
// the engine without CPU fallback, and through the CLI.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "support/devices.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/options.hpp"

namespace vmafx {
namespace {

struct Case {
  const char* extractor;
  const char* opts;
  PictureFormat fmt;
  const char* message_start;
};

// The message of the engine's error for (extractor, options) on `fmt`, or
// "" when it was accepted.
std::string refusal(Backend* backend, const Case& c) {
  try {
    Engine e(c.fmt, {.threads = 0, .subsample = 1, .backend = backend, .cpu_fallback = false});
    e.use({c.extractor, parse_option_string(c.opts, c.extractor)});
    return "";
  } catch (const Error& err) {
    return err.what();
  }
}

TEST(SpeedTwinErrors, RefusedWithTheReferencesMessage) {
  const Case cases[] = {
      {"speed_chroma", "", {352, 288, 8, ChromaFormat::k400}, "speed_chroma: the input has no chroma planes"},
      {"speed_chroma", "", {150, 150, 8, ChromaFormat::k420}, "speed_chroma: plane 75x75"},
      {"speed_chroma", "speed_prescale=0.5", {352, 288, 10, ChromaFormat::k420}, "speed_chroma: plane 176x144"},
      {"speed_temporal",
       "speed_prescale=2",
       {352, 288, 8, ChromaFormat::k420},
       "speed_temporal: speed_prescale 2 enlarges"},
      {"speed_temporal",
       "speed_prescale_method=cubic",
       {352, 288, 8, ChromaFormat::k420},
       "speed_temporal: speed_prescale_method 'cubic'"},
      {"speed_temporal",
       "speed_kernelscale=0.3",
       {352, 288, 8, ChromaFormat::k420},
       "speed_temporal: speed_kernelscale 0.3"},
      {"speed_temporal", "", {352, 288, 9, ChromaFormat::k420}, "speed_temporal: bit depth 9"},
  };
  // Every device backend of this build that lists a device (a listed device
  // that does not start fails the test); skipped where none lists one.
  int backends = 0;
  for (const std::string& name : test::built_device_backends()) {
    if (!test::device_listed(name)) continue;
    const std::unique_ptr<Backend> b = create_backend(name, 0);
    ++backends;
    for (const Case& c : cases) {
      const std::string cpu = refusal(nullptr, c);
      EXPECT_EQ(cpu.rfind(c.message_start, 0), 0u) << c.extractor << ":" << c.opts << ": " << cpu;
      EXPECT_EQ(refusal(b.get(), c), cpu) << name << " " << c.extractor << ":" << c.opts;
    }
    // And an accepted configuration has a twin (no CPU fallback).
    const ExtractorDescriptor* d = find_extractor("speed_temporal");
    ASSERT_NE(d, nullptr);
    OptionSet set(d->options, {}, d->name);
    EXPECT_NE(b->create_twin(*d, set, {352, 288, 8, ChromaFormat::k420}), nullptr) << name;
  }
  if (backends == 0) GTEST_SKIP() << "no device listed by the device backends of this build";
}

}  // namespace
}  // namespace vmafx
