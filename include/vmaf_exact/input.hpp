// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Reading clips: Y4M (any of its 4:2:0 sitings, 4:2:2, 4:4:4, mono, 8 to 16
// bit) and raw planar YUV, from files, pipes or FIFOs; compressed video (mp4,
// mkv, webm, ivf, ...: whatever FFmpeg's libraries decode) when built with
// them (VMAFX_HAVE_LIBAV); and FrameSource, which reads a reference and a
// distorted clip on two threads, ahead of scoring, straight into a Session's
// pictures, pairing frames by index or by presentation time.
//
//   auto ref = vmafx::open_video("ref.y4m"), dis = vmafx::open_video("dis.y4m");
//   vmafx::Session s(ref->format(), cfg);
//   vmafx::FrameSource src(*ref, *dis, s, {});
//   std::shared_ptr<vmafx::Picture> a, b;
//   while (src.next(a, b)) s.push(std::move(a), std::move(b));
//   s.finish();
//
// Every failure is a vmafx::Error (kind kInput) whose message starts with the path.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

// A presentation time: value * num / den seconds.
struct Timestamp {
  std::int64_t value = 0;
  int num = 0;
  int den = 1;
};

// How open_video reads a compressed clip (ignored for Y4M and raw YUV).
struct OpenOptions {
  int stream = 0;        // which video stream: 0 = the first (ffmpeg's -map 0:v:N)
  std::string hwdec;     // "" (CPU decode) or "cuda" (NVDEC through libavcodec)
  int hwdec_device = 0;  // the CUDA device that decodes (the session's --gpu)
  // Compressed input: decoders working at once on consecutive segments of the
  // stream, split at keyframes that nothing before them is shown after
  // (vmaf --decode-segments). 0 or 1: one decoder. The frames, their order
  // and their time stamps are the same either way.
  int decode_segments = 0;
};

// A GPU backend's door for frames a hardware decoder left in device memory
// (Session::device_importer()): the reader hands it the decoder's surface and
// the backend unpacks it into its own memory as the picture's device copy,
// with no trip through the host.
class DeviceImporter {
 public:
  virtual ~DeviceImporter() = default;
  struct Surface {
    const void* data[3] = {nullptr, nullptr, nullptr};  // device pointers, as the decoder left them
    int pitch[3] = {0, 0, 0};                           // bytes per row
    bool interleaved_chroma = false;                    // NV12/P010/P016: data[1] holds U and V alternating
    int shift = 0;                                      // samples in the top bits of 16: shifted down by this
  };
  virtual int cuda_device() const = 0;
  // Fills `pic`'s device copy from `s` (pic's format says the geometry).
  // Returns false when a sample had nonzero bits below `shift` (not the
  // stated bit depth); throws Error on a device failure.
  virtual bool import(const Surface& s, Picture& pic) = 0;
};

// Sequential reader of one clip. Memory is the pictures it fills, whatever
// the clip length.
class VideoReader {
 public:
  virtual ~VideoReader() = default;
  VideoReader(const VideoReader&) = delete;
  VideoReader& operator=(const VideoReader&) = delete;

  const PictureFormat& format() const { return fmt_; }
  // The format of the clip as stored: format() unless the reader converts
  // (scale_video()).
  virtual PictureFormat source_format() const { return fmt_; }
  const std::string& path() const { return path_; }
  // Reads the next frame into `pic` (which must have format()). Returns false
  // at a clean end of the clip; throws Error on a truncated or malformed frame.
  virtual bool read(Picture& pic) = 0;
  // Skips the next frame (may use `scratch`); false at a clean end.
  virtual bool skip(Picture& scratch) { return read(scratch); }
  // Decodes the next frame and drops it (vmaf --decode-only: the input's own
  // rate); a compressed clip's frame is not copied anywhere.
  virtual bool decode_only(Picture& scratch) { return read(scratch); }
  // Frames decoded on a GPU may from now on go to `importer` instead of the
  // host picture; false (and nothing changes) when this reader does not
  // decode on that device.
  virtual bool use_device_importer(DeviceImporter* /*importer*/) { return false; }
  // Positional reads: a clip whose frames sit at fixed places in a regular
  // file (raw YUV, a Y4M whose frame headers carry no parameters) can be read
  // by frame index from several threads at once (FrameSource's readers), as
  // long as nothing calls read() meanwhile. positional() says whether this
  // reader can.
  enum class At { kFrame, kEnd, kIrregular };
  virtual bool positional() const { return false; }
  // Reads frame `index` (counted from the clip's first frame) into `pic`
  // without moving the reader. kEnd: the clip ends before it. kIrregular:
  // the frame is not where a fixed layout puts it (a Y4M frame header with
  // parameters) or this reader has no positional reads; read on with
  // resume_at(index) and read(). Throws what read() would throw for that
  // frame, with the same message.
  virtual At read_at(std::uint64_t /*index*/, Picture& /*pic*/) const { return At::kIrregular; }
  // The next read() reads frame `index` (after positional reads).
  virtual void resume_at(std::uint64_t /*index*/) {}
  // Frames read (or skipped) so far.
  unsigned frames_read() const { return frames_; }
  // Presentation time of the frame read (or skipped) last; nullopt when the
  // input has none (raw YUV, a Y4M without a frame rate, a frame without one).
  virtual std::optional<Timestamp> timestamp() const { return std::nullopt; }
  // Frames the clip is expected to hold, when known without reading it (for a
  // progress estimate only); 0 when unknown.
  virtual std::uint64_t frame_count_hint() const { return 0; }
  // What the file holds, for messages: "yuv420p10le, hevc in matroska"; ""
  // for Y4M and raw YUV (their format() says it all).
  virtual std::string format_name() const { return {}; }
  // Full-range samples (yuvj*, or a stream flagged full range); Y4M and raw
  // YUV count as limited range.
  virtual bool full_range() const { return false; }
  // Notes for the user (a decoder fallback); empty when there are none.
  virtual std::string notice() const { return {}; }
  // How the clip was decoded, for VMAFX_STATS (decoding in segments: how
  // many, by how many decoders); empty when there is nothing to add.
  virtual std::string decode_report() const { return {}; }

 protected:
  explicit VideoReader(std::string path) : path_(std::move(path)) {}
  std::string path_;
  PictureFormat fmt_{};
  unsigned frames_ = 0;
};

// Opens `path`. Input that starts with "YUV4MPEG2 " is read as Y4M (its
// header gives the format and wins over `raw`, as in libvmaf); a container FFmpeg recognizes by its content is
// decoded (builds with FFmpeg's libraries; others say so); anything else needs
// `raw`.
std::unique_ptr<VideoReader> open_video(const std::string& path, const std::optional<RawFormat>& raw = std::nullopt,
                                        const OpenOptions& opts = {});
// Whether this build decodes compressed video (FFmpeg's libraries), and their
// versions ("libavformat 59.27.100, libavcodec 59.37.100") or "".
bool compressed_input_supported();
std::string compressed_input_versions();

// Renditions of another format: a clip whose size, bit depth or chroma
// format differs from the reference's is converted to the reference's format
// by FFmpeg's libswscale (builds with it), set up as FFmpeg's scale filter
// sets it up: the frames equal those of
//   ffmpeg -i DIS -vf scale=W:H:flags=FLAGS -pix_fmt P
// with the same libraries (docs/input.md). `flags` is a libswscale flags
// string ("bicubic", "lanczos", "bicubic+accurate_rnd", ...). The returned
// reader has `target` as its format; every other property is `inner`'s.
std::unique_ptr<VideoReader> scale_video(std::unique_ptr<VideoReader> inner, const PictureFormat& target,
                                         const std::string& flags);
// The flags used when none are given: a bicubic whose output does not depend
// on the processor's SIMD (docs/input.md says why).
const char* default_scale_flags();
// Opens a distorted clip to score against `ref`: one of the reference's
// format is returned as it is; one of another size, bit depth or chroma
// format is converted by scale_video() with `scale_flags` ("": the default
// flags), and `notice` (when given) says so. A full-range clip against a
// limited-range one is an Error ("videos are incompatible: ..."), as is
// another format in a build without libswscale.
std::unique_ptr<VideoReader> open_rendition(const std::string& path, const VideoReader& ref,
                                            const std::optional<RawFormat>& raw = std::nullopt,
                                            const OpenOptions& opts = {}, const std::string& scale_flags = {},
                                            std::string* notice = nullptr);
// "1280x720 420 8-bit (yuv420p, h264 in mov)": a clip's format for messages.
std::string describe_video(const VideoReader& r);
// Whether this build scales (libswscale), and its version ("libswscale 6.7.100") or "".
bool scaling_supported();
std::string scaling_versions();

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
    // Frames each side reads ahead: 0 chooses (auto_depth).
    unsigned depth = 0;
    // Pairing: by index (the default, as libvmaf), or by presentation time:
    // each distorted frame with the reference frame nearest to it, times
    // counted from each clip's first frame (after the skips), in any time base.
    enum class Sync { kIndex, kPts } sync = Sync::kIndex;
    // Stop at the end of the shorter clip instead of failing.
    bool shortest = false;
    // Decode and pair only (VideoReader::decode_only): the pictures delivered
    // hold nothing; for measuring the input's own rate.
    bool decode_only = false;
    // Threads reading each clip that has positional reads (raw YUV and Y4M
    // in regular files; others are read by one): 0 chooses (auto_readers).
    // Not with Sync::kPts. The frames and errors delivered are the same for
    // any number.
    unsigned readers = 0;
  };
  // VMAFX_READERS when set; else 1 for the CPU backend, whose scoring is far
  // slower than one reader, and 4 for a GPU backend.
  static unsigned auto_readers(const Session& session);
  // 1 for the CPU backend: its workers already hold threads + 2 frames in
  // flight, so one frame queued per side keeps them fed and every deeper
  // frame is only memory (3 MB a 1080p 8-bit picture); 4 for a GPU backend,
  // which takes frames in bursts.
  static unsigned auto_depth(const Session& session);
  // Reserves the pictures it reads ahead in `session` (construct it before
  // anything acquires from the session). The readers and the session must
  // outlive this object.
  FrameSource(VideoReader& ref, VideoReader& dis, Session& session, Options opts);
  ~FrameSource();  // stops the readers
  FrameSource(const FrameSource&) = delete;
  FrameSource& operator=(const FrameSource&) = delete;

  // The next pair; false once both clips ended together (or one of them, with
  // `shortest`). Throws the readers' errors in the order one thread reading
  // ref then dis frame by frame would meet them, and an Error when one clip
  // ends before the other. With Sync::kPts a reference picture may come twice
  // (a distorted clip at a higher frame rate); pictures are read-only.
  bool next(std::shared_ptr<Picture>& ref, std::shared_ptr<Picture>& dis);
  // Pairs delivered so far.
  unsigned delivered() const;
  // Where the readers' time went (reading, waiting for pictures or room).
  std::string timing_report() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A ladder: one reference, read (decoded) once, scored against several
// renditions in the same pass. Each rendition is read on its own thread into
// pictures of its own Session; the reference's pictures are shared by every
// session (they come from the first rendition's session, which must outlive
// the others). Frames pair by index, each rendition with its own offset.
// A rendition's report equals the one of scoring it alone (FrameSource with
// the same skips).
//
//   std::vector<vmafx::LadderSource::Rendition> r = {{dis720.get(), &s720}, {dis1080.get(), &s1080}};
//   auto outcome = vmafx::LadderSource(*ref, r, {}).run();
//   for (k ...) if (outcome[k].error.empty()) sessions[k]->finish();
class LadderSource {
 public:
  struct Rendition {
    VideoReader* reader = nullptr;  // at the reference's format (scale_video() where it differs)
    Session* session = nullptr;
    // Frame offset: > 0 drops the rendition's first `offset` frames (it has
    // extra leading frames), < 0 drops the reference's first -offset frames
    // for this rendition (it lacks leading frames).
    int offset = 0;
  };
  struct Options {
    unsigned skip_ref = 0, skip_dis = 0;  // frames to drop first (before the offsets)
    unsigned max_frames = 0;              // pairs per rendition at most (0: all)
    unsigned depth = 4;                   // frames each reader reads ahead
    bool shortest = false;                // stop a rendition at the shorter clip's end instead of failing it
  };
  struct Outcome {
    unsigned frames = 0;  // pairs pushed into the rendition's session
    std::string error;    // why the rendition stopped early ("": it did not)
  };
  LadderSource(VideoReader& ref, std::vector<Rendition> renditions, Options opts);
  ~LadderSource();
  LadderSource(const LadderSource&) = delete;
  LadderSource& operator=(const LadderSource&) = delete;

  // Reads every clip and pushes each pair into its rendition's session;
  // `progress(n)` after the n-th frame of the pass. A rendition that fails
  // (a read error, a length mismatch, a session error) stops with its
  // Outcome::error; the others go on. A reference error fails them all.
  // The caller then finishes the sessions of the renditions without error.
  std::vector<Outcome> run(const std::function<void(unsigned)>& progress = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Alignment: the constant frame offset between a reference and a distorted
// clip (LadderSource::Rendition::offset's sign convention: > 0 when the
// distorted clip has extra leading frames) within +-window frames, from a
// cheap comparison of the luma of the first frames (each frame reduced to a
// 16x16 grid of mean luma). Both readers are read from their current
// position (the caller reopens them to score). Throws Error when no offset
// is clearly best (static or unrelated content) or the clips are too short.
struct SyncResult {
  int offset = 0;
  double best_cost = 0, second_cost = 0;  // mean absolute grid difference (8-bit scale) of the best and runner-up
  int second_offset = 0;
};
SyncResult find_sync_offset(VideoReader& ref, VideoReader& dis, int window);

}  // namespace vmafx
