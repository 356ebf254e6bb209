// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the Y4M reader, stream header and frame data. The input
// is a whole .y4m file; it is opened by path (open_video, as the CLI does)
// and read frame by frame into a Picture.
//
// Oracle: no sanitizer report, no crash; every failure is a vmafx::Error whose
// message is one line starting with the path; a clip that opens has a sane
// format (1..32768 a side, at most 2^26 luma samples, 8..16 bit).
#include <cstdint>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  vmafx::fuzz::read_clip(data, size, 6, 2);
  return 0;
}
