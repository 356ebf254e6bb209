// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: compressed input (io/libav_reader.cpp, FFmpeg's
// libavformat/libavcodec; built only with VMAFX_LIBAV). The input is a whole
// file (mp4, mkv, webm, ivf, ... whatever libavformat recognizes by its
// content); it is opened by path (open_video, as the CLI does) and read to the
// end, every frame converted into a Picture, with its presentation time.
//
// Oracle: no sanitizer report, crash, leak or hang in our code (Debian's
// FFmpeg libraries are not instrumented: their own bugs show only as crashes);
// every failure is a vmafx::Error whose message is one line starting with the
// path; a clip that opens has a sane format (1..32768 a side, at most 2^26
// luma samples, 8..16 bit); frames_read() counts the frames delivered.
#include <cstdint>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  vmafx::fuzz::read_clip(data, size, 64, 3);
  return 0;
}
