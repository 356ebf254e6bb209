#pragma once
// Reading clips: Y4M (any of its 4:2:0 sitings, 4:2:2, 4:4:4, mono, 8 to 16
// bit) and raw planar YUV, from files, pipes or FIFOs, and FrameSource, which
// reads a reference and a distorted clip on two threads, ahead of scoring,
// straight into a Session's pictures.
//
//   auto ref = vmafx::open_video("ref.y4m"), dis = vmafx::open_video("dis.y4m");
//   vmafx::Session s(ref->format(), cfg);
//   vmafx::FrameSource src(*ref, *dis, s, {});
//   std::shared_ptr<vmafx::Picture> a, b;
//   while (src.next(a, b)) s.push(std::move(a), std::move(b));
//   s.finish();
//
// Every failure is a vmafx::Error (kind kInput) whose message starts with the path.
#include <memory>
#include <optional>
#include <string>

#include "vmaf_exact/picture.hpp"

namespace vmafx {

class Session;

// Geometry of headerless planar input (.yuv).
struct RawFormat {
  int width = 0;
  int height = 0;
  ChromaFormat chroma = ChromaFormat::k420;
  int bpc = 8;
};

// Sequential reader of one clip. Memory is the pictures it fills, whatever
// the clip length.
class VideoReader {
 public:
  virtual ~VideoReader() = default;
  VideoReader(const VideoReader&) = delete;
  VideoReader& operator=(const VideoReader&) = delete;

  const PictureFormat& format() const { return fmt_; }
  const std::string& path() const { return path_; }
  // Reads the next frame into `pic` (which must have format()). Returns false
  // at a clean end of the clip; throws Error on a truncated or malformed frame.
  virtual bool read(Picture& pic) = 0;
  // Skips the next frame (may use `scratch`); false at a clean end.
  virtual bool skip(Picture& scratch) { return read(scratch); }
  // Frames read (or skipped) so far.
  unsigned frames_read() const { return frames_; }

 protected:
  explicit VideoReader(std::string path) : path_(std::move(path)) {}
  std::string path_;
  PictureFormat fmt_{};
  unsigned frames_ = 0;
};

// Opens `path`. Input that starts with "YUV4MPEG2 " is read as Y4M (its
// header gives the format and wins over `raw`, as in libvmaf); anything else
// needs `raw`.
std::unique_ptr<VideoReader> open_video(const std::string& path, const std::optional<RawFormat>& raw = std::nullopt);

// "420", "422", "444" or "400".
const char* chroma_name(ChromaFormat c);

// Reads the reference and the distorted clip on two threads, a few frames
// ahead, straight into pictures of a Session's pool: the two files are read
// at once and while earlier frames are scored.
class FrameSource {
 public:
  struct Options {
    unsigned skip_ref = 0, skip_dis = 0;  // frames to drop first
    unsigned max_frames = 0;              // pairs to deliver at most (0: all)
    unsigned depth = 4;                   // frames each side reads ahead
  };
  // Reserves the pictures it reads ahead in `session` (construct it before
  // anything acquires from the session). The readers and the session must
  // outlive this object.
  FrameSource(VideoReader& ref, VideoReader& dis, Session& session, Options opts);
  ~FrameSource();  // stops the readers
  FrameSource(const FrameSource&) = delete;
  FrameSource& operator=(const FrameSource&) = delete;

  // The next pair; false once both clips ended together. Throws the readers'
  // errors in the order one thread reading ref then dis frame by frame would
  // meet them, and an Error when one clip ends before the other.
  bool next(std::shared_ptr<Picture>& ref, std::shared_ptr<Picture>& dis);
  // Pairs delivered so far.
  unsigned delivered() const;
  // Where the readers' time went (reading, waiting for pictures or room).
  std::string timing_report() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vmafx
