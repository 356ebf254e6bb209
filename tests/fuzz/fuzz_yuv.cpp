// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the raw (headerless) YUV reader with its size arguments.
// The first 6 bytes of the input are the -w/-h/-p/-b arguments (width and
// height as 16-bit little-endian, so 0, odd and huge sizes occur; a chroma
// byte; a bit-depth byte), the rest is the file. A file that happens to start
// with "YUV4MPEG2 " is read as Y4M, as the CLI does.
//
// Oracle: no sanitizer report, no crash; every failure is a vmafx::Error whose
// message is one line starting with the path; frames read = whole frames in
// the file (a partial last frame is an error).
#include <cstdint>
#include <cstring>
#include <optional>

#include "core/error.hpp"
#include "fuzz_common.hpp"
#include "io/video_reader.hpp"

using namespace vmafx;

namespace {
constexpr std::size_t kMaxFrameBytes = std::size_t(1) << 22;
constexpr int kMaxFrames = 8;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 6) return 0;
  RawFormat raw;
  raw.width = int(std::int16_t(data[0] | data[1] << 8));
  raw.height = int(std::int16_t(data[2] | data[3] << 8));
  raw.chroma = ChromaFormat(data[4] % 5);  // 4 is not a ChromaFormat: the reader must refuse it
  raw.bpc = int(std::int8_t(data[5]));
  data += 6;
  size -= 6;
  fuzz::MemFile file(data, size);
  try {
    auto reader = open_video(file.path(), raw);
    const PictureFormat& f = reader->format();
    if (f.bpc < 8 || f.bpc > 16 || f.width < 1 || f.height < 1) std::abort();
    if (f.frame_bytes() > kMaxFrameBytes) return 0;
    const bool y4m = size >= 10 && std::memcmp(data, "YUV4MPEG2 ", 10) == 0;
    Picture pic(f);
    int n = 0;
    for (; n < kMaxFrames; ++n) {
      const bool got = (n % 2) ? reader->skip(pic) : reader->read(pic);
      if (!got) break;
    }
    // A raw file of k whole frames gives k frames, then a clean end.
    if (!y4m && n < kMaxFrames && std::size_t(n) != size / f.frame_bytes()) std::abort();
  } catch (const Error& e) {
    fuzz::check_message(e.what(), file.path() + ": ");
  }
  return 0;
}
