// SPDX-License-Identifier: BSD-3-Clause
// The reader as a build without FFmpeg's libraries compiles it (video_reader.cpp
// and libav_reader.cpp without VMAFX_HAVE_LIBAV): prints what open_video says
// about each file. tests/CMakeLists.txt runs it on a compressed clip.
#include <cstdio>

#include "vmaf_exact/error.hpp"
#include "vmaf_exact/input.hpp"

int main(int argc, char** argv) {
  if (vmafx::compressed_input_supported()) return 3;
  int rc = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      auto r = vmafx::open_video(argv[i]);
      std::printf("%s: opened\n", argv[i]);
    } catch (const vmafx::Error& e) {
      std::printf("%s\n", e.what());
      rc = 1;
    }
  }
  return rc;
}
