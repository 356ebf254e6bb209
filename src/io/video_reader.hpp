#pragma once
#include <sys/uio.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/picture.hpp"

namespace vmafx {

// Geometry for headerless planar input (.yuv): -w -h -p -b.
struct RawFormat {
  int width = 0;
  int height = 0;
  ChromaFormat chroma = ChromaFormat::k420;
  int bpc = 8;
};

// Sequential reader of one clip. Frames are read with one vectored read()
// straight into the picture's rows (no intermediate buffer, no per-frame
// allocation); memory is the picture's, whatever the clip length. Every error
// is an Error whose message starts with the path.
class VideoReader {
 public:
  virtual ~VideoReader();
  VideoReader(const VideoReader&) = delete;
  VideoReader& operator=(const VideoReader&) = delete;

  const PictureFormat& format() const { return fmt_; }
  const std::string& path() const { return path_; }
  // Reads the next frame into `pic` (which must have format()). Returns false
  // at a clean end of file; throws Error on a truncated or malformed frame.
  virtual bool read(Picture& pic) = 0;
  // Skips the next frame without keeping it (seeks where it can). Returns
  // false at a clean end of file; throws as read() does.
  virtual bool skip(Picture& scratch) { return read(scratch); }
  // Frames read (or skipped) so far.
  unsigned frames_read() const { return frames_; }

 protected:
  VideoReader(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  // Reads exactly the frame's planes into `pic` plus up to `tail_bytes` more
  // into `tail`. Returns the number of payload bytes read (short at end of
  // file) and sets `tail_got`.
  std::size_t read_frame(Picture& pic, char* tail, std::size_t tail_bytes, std::size_t& tail_got);
  // Reads up to n bytes; fewer only at end of file.
  std::size_t read_bytes(void* dst, std::size_t n);
  // Range check of >8-bit samples (and byte order on big-endian hosts).
  void check_samples(Picture& pic);
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  int fd_ = -1;
  PictureFormat fmt_{};
  unsigned frames_ = 0;
  // Bytes already read from fd_ that come before what it returns next (the
  // start of a raw clip, read to look for a Y4M signature: no seeking back,
  // so pipes and FIFOs work).
  std::string pending_;

 private:
  std::vector<::iovec> iov_;  // reused: no allocation per frame
};

// Opens `path`. A file that starts with "YUV4MPEG2 " is read as Y4M (its header
// wins; `raw`, if given, is not used, as in libvmaf); anything else needs `raw`.
std::unique_ptr<VideoReader> open_video(const std::string& path,
                                        const std::optional<RawFormat>& raw);

// Parses a Y4M stream header line (without "YUV4MPEG2 " and the newline).
// Exposed for tests. Throws Error("<path>: ...").
PictureFormat parse_y4m_header(const std::string& fields, const std::string& path);

const char* chroma_name(ChromaFormat c);

}  // namespace vmafx
