// libFuzzer target: the Y4M reader, stream header and frame data. The input
// is a whole .y4m file; it is opened by path (open_video, as the CLI does)
// and read frame by frame into a Picture.
//
// Oracle: no sanitizer report, no crash; every failure is a vmafx::Error whose
// message is one line starting with the path; a clip that opens has a sane
// format (1..32768 a side, at most 2^26 luma samples, 8..16 bit).
#include <cstdint>
#include <optional>

#include "core/error.hpp"
#include "fuzz_common.hpp"
#include "io/video_reader.hpp"

using namespace vmafx;

namespace {
// Frames larger than this are not read (the header is still parsed): a
// header may claim 8192x8192 16-bit 4:4:4, 400 MB a frame.
constexpr std::size_t kMaxFrameBytes = std::size_t(1) << 22;
constexpr int kMaxFrames = 6;
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
    for (int i = 0; i < kMaxFrames; ++i) {
      const bool got = (i % 2) ? reader->skip(pic) : reader->read(pic);
      if (!got) break;
      if (reader->frames_read() != unsigned(i + 1)) std::abort();
    }
  } catch (const Error& e) {
    fuzz::check_message(e.what(), file.path() + ": ");
  }
  return 0;
}
