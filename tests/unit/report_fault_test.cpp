// SPDX-License-Identifier: BSD-3-Clause
// report_text() when no memory stream can be made: open_memstream fails only
// when malloc does, which a test cannot arrange reliably, so this binary
// defines open_memstream itself (the executable's definition wins over the C
// library's, as over a sanitizer's interceptor) and fails it on request;
// otherwise it forwards to the C library's.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "vmaf_exact/collector.hpp"
#include "core/error.hpp"
#include "output/report.hpp"

namespace {
bool g_fail_open_memstream = false;
}

extern "C" std::FILE* open_memstream(char** buf, std::size_t* len) {
  if (g_fail_open_memstream) {
    errno = ENOMEM;
    return nullptr;
  }
  using Fn = std::FILE* (*)(char**, std::size_t*);
  static const Fn real = reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, "open_memstream"));
  return real(buf, len);
}

namespace vmafx {
namespace {

TEST(ReportFaults, ReportTextWithoutMemory) {
  FeatureCollector fc;
  fc.append("psnr_y", 0, 30.5);
  ReportInfo info;
  info.frames = 1;
  // The override forwards: the report is made as usual.
  EXPECT_NE(report_text(OutputFormat::kJson, fc, info).find("\"psnr_y\": 30.500000"), std::string::npos);
  g_fail_open_memstream = true;
  try {
    report_text(OutputFormat::kJson, fc, info);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "report: out of memory");
    EXPECT_EQ(e.kind(), Error::Kind::kOutput);
  }
  g_fail_open_memstream = false;
}

}  // namespace
}  // namespace vmafx
