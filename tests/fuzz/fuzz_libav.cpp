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
#include <optional>

#include "core/error.hpp"
#include "fuzz_common.hpp"
#include "io/video_reader.hpp"

using namespace vmafx;

namespace {
// Frames larger than this are not read (the stream is still opened): a
// header may claim 8192x8192 4:4:4 16-bit.
constexpr std::size_t kMaxFrameBytes = std::size_t(1) << 22;
constexpr unsigned kMaxFrames = 64;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::MemFile file(data, size);
  try {
    auto reader = open_video(file.path(), std::nullopt);
    const PictureFormat& f = reader->format();
    if (f.width < 1 || f.height < 1 || f.width > 32768 || f.height > 32768 ||
        static_cast<long long>(f.width) * f.height > (1LL << 26) || f.bpc < 8 || f.bpc > 16)
      std::abort();
    if (f.frame_bytes() > kMaxFrameBytes) return 0;
    Picture pic(f);
    for (unsigned i = 0; i < kMaxFrames; ++i) {
      const bool got = (i % 3 == 2) ? reader->skip(pic) : reader->read(pic);
      if (!got) break;
      if (reader->frames_read() != i + 1) std::abort();
      if (auto ts = reader->timestamp(); ts && ts->den == 0 && ts->num == 0) std::abort();
    }
  } catch (const Error& e) {
    fuzz::check_message(e.what(), file.path() + ": ");
  }
  return 0;
}
