#pragma once
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "core/picture.hpp"

namespace vmafx {

// Geometry for headerless planar input (.yuv): -w -h -p -b.
struct RawFormat {
  int width = 0;
  int height = 0;
  ChromaFormat chroma = ChromaFormat::k420;
  int bpc = 8;
};

// Sequential reader of one clip. Memory is one frame's bytes, whatever the
// clip length. Every error is an Error whose message starts with the path.
class VideoReader {
 public:
  virtual ~VideoReader() = default;
  const PictureFormat& format() const { return fmt_; }
  const std::string& path() const { return path_; }
  // Reads the next frame into `pic` (which must have format()). Returns false
  // at a clean end of file; throws Error on a truncated or malformed frame.
  virtual bool read(Picture& pic) = 0;
  // Frames read so far.
  unsigned frames_read() const { return frames_; }

 protected:
  VideoReader(std::string path, std::FILE* f) : path_(std::move(path)), file_(f) {}
  bool read_payload(Picture& pic);  // the planes of one frame
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> file_;
  PictureFormat fmt_{};
  unsigned frames_ = 0;
};

// Opens `path`. A file that starts with "YUV4MPEG2 " is read as Y4M (its header
// wins; `raw`, if given, must agree); anything else needs `raw`.
std::unique_ptr<VideoReader> open_video(const std::string& path,
                                        const std::optional<RawFormat>& raw);

// Parses a Y4M stream header line (without "YUV4MPEG2 " and the newline).
// Exposed for tests. Throws Error("<path>: ...").
PictureFormat parse_y4m_header(const std::string& fields, const std::string& path);

const char* chroma_name(ChromaFormat c);

}  // namespace vmafx
