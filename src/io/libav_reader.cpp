// SPDX-License-Identifier: BSD-3-Clause
// Compressed input through FFmpeg's libraries (optional: VMAFX_HAVE_LIBAV).
// The decoder's samples are copied into the session's pictures unchanged:
// planar YUV as it is, the semi-planar layouts of hardware decoders (NV12,
// P010, P016) split into planes. Nothing is scaled or converted; anything
// else is an error.
#include "vmaf_exact/input.hpp"

#ifndef VMAFX_HAVE_LIBAV

namespace vmafx {
bool compressed_input_supported() { return false; }
std::string compressed_input_versions() { return {}; }
}  // namespace vmafx

#else

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/env.hpp"
#include "core/error.hpp"
#include "io/decoder_stream.hpp"
#include "io/ffmpeg_dl.hpp"
#include "io/libav_reader.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/hwcontext.h>
#include <libavutil/pixdesc.h>
}

namespace vmafx {

bool compressed_input_supported() { return true; }

std::string compressed_input_versions() {
  try {
    ffmpeg_require("FFmpeg");
  } catch (const Error& e) {
    return e.what();
  }
  auto v = [](unsigned x) {
    return std::to_string(x >> 16) + "." + std::to_string((x >> 8) & 0xff) + "." + std::to_string(x & 0xff);
  };
  return "libavformat " + v(avformat_version()) + ", libavcodec " + v(avcodec_version()) + ", libavutil " +
         v(avutil_version());
}

namespace {

std::string av_error(int e) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(e, buf, sizeof buf);
  return buf;
}

// An FFmpeg CUDA device on the driver's primary context of device `index`
// (the one the CUDA backend, through the runtime API, uses, so that decoded
// surfaces are readable there); FFmpeg's error code.
int cuda_device(AVBufferRef** out, int index) {
  AVDictionary* o = nullptr;
  av_dict_set(&o, "primary_ctx", "1", 0);
  const int r = av_hwdevice_ctx_create(out, AV_HWDEVICE_TYPE_CUDA, std::to_string(index).c_str(), o, 0);
  av_dict_free(&o);
  return r;
}

// FFmpeg's own log lines would break the one-line error rule: errors reach
// the user through our messages instead.
void quiet_libav() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_level(AV_LOG_QUIET); });
}

// How a decoder's pixel format maps onto a Picture.
enum class Layout { kPlanar, kSemiPlanar, kSemiPlanarMsb };  // the last: samples in the top bits
struct PixMap {
  AVPixelFormat pix;
  ChromaFormat chroma;
  int bpc;
  Layout layout;
  bool full_range;  // the yuvj formats
};

constexpr PixMap kPixMaps[] = {
    {AV_PIX_FMT_YUV420P, ChromaFormat::k420, 8, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV422P, ChromaFormat::k422, 8, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV444P, ChromaFormat::k444, 8, Layout::kPlanar, false},
    {AV_PIX_FMT_GRAY8, ChromaFormat::k400, 8, Layout::kPlanar, false},
    {AV_PIX_FMT_YUVJ420P, ChromaFormat::k420, 8, Layout::kPlanar, true},
    {AV_PIX_FMT_YUVJ422P, ChromaFormat::k422, 8, Layout::kPlanar, true},
    {AV_PIX_FMT_YUVJ444P, ChromaFormat::k444, 8, Layout::kPlanar, true},
    {AV_PIX_FMT_YUV420P9LE, ChromaFormat::k420, 9, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV422P9LE, ChromaFormat::k422, 9, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV444P9LE, ChromaFormat::k444, 9, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV420P10LE, ChromaFormat::k420, 10, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV422P10LE, ChromaFormat::k422, 10, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV444P10LE, ChromaFormat::k444, 10, Layout::kPlanar, false},
    {AV_PIX_FMT_GRAY10LE, ChromaFormat::k400, 10, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV420P12LE, ChromaFormat::k420, 12, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV422P12LE, ChromaFormat::k422, 12, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV444P12LE, ChromaFormat::k444, 12, Layout::kPlanar, false},
    {AV_PIX_FMT_GRAY12LE, ChromaFormat::k400, 12, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV420P14LE, ChromaFormat::k420, 14, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV422P14LE, ChromaFormat::k422, 14, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV444P14LE, ChromaFormat::k444, 14, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV420P16LE, ChromaFormat::k420, 16, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV422P16LE, ChromaFormat::k422, 16, Layout::kPlanar, false},
    {AV_PIX_FMT_YUV444P16LE, ChromaFormat::k444, 16, Layout::kPlanar, false},
    {AV_PIX_FMT_GRAY16LE, ChromaFormat::k400, 16, Layout::kPlanar, false},
    {AV_PIX_FMT_NV12, ChromaFormat::k420, 8, Layout::kSemiPlanar, false},
    {AV_PIX_FMT_P010LE, ChromaFormat::k420, 10, Layout::kSemiPlanarMsb, false},
    {AV_PIX_FMT_P016LE, ChromaFormat::k420, 16, Layout::kSemiPlanar, false},
    // NVDEC's 4:4:4 output (libavcodec's CUDA frames) is planar.
};

const PixMap* find_pix_map(int pix) {
  for (const PixMap& m : kPixMaps)
    if (m.pix == pix) return &m;
  return nullptr;
}

std::string pix_name(int pix) {
  const char* n = av_get_pix_fmt_name(AVPixelFormat(pix));
  return n ? n : "unknown";
}

// The container libavformat recognizes in `head` by content alone (a name
// ending in .yuv must not make raw YUV a "rawvideo" container).
const AVInputFormat* probe(const std::string& head, int& score) {
  quiet_libav();
  std::string buf = head;
  buf.append(AVPROBE_PADDING_SIZE, '\0');
  AVProbeData pd{};
  pd.filename = "";
  pd.buf = reinterpret_cast<unsigned char*>(buf.data());
  pd.buf_size = int(head.size());
  pd.mime_type = nullptr;
  score = 0;
  return av_probe_input_format3(&pd, 1, &score);
}

// The file descriptor behind the AVIOContext: the bytes open_video already
// read come first on a pipe; a regular file is read again from its start.
struct FdIo {
  int fd = -1;
  std::string head;
  std::size_t head_pos = 0;
  bool seekable = false;

  static int read(void* opaque, std::uint8_t* buf, int size) {
    auto* io = static_cast<FdIo*>(opaque);
    if (io->head_pos < io->head.size()) {
      const std::size_t n = std::min(std::size_t(size), io->head.size() - io->head_pos);
      std::memcpy(buf, io->head.data() + io->head_pos, n);
      io->head_pos += n;
      return int(n);
    }
    for (;;) {
      const ssize_t r = ::read(io->fd, buf, std::size_t(size));
      if (r > 0) return int(r);
      if (r == 0) return AVERROR_EOF;
      if (errno != EINTR) return AVERROR(errno);
    }
  }
  static std::int64_t seek(void* opaque, std::int64_t offset, int whence) {
    auto* io = static_cast<FdIo*>(opaque);
    if (!io->seekable) return AVERROR(ESPIPE);
    if (whence & AVSEEK_SIZE) {
      struct stat st;
      return ::fstat(io->fd, &st) == 0 ? std::int64_t(st.st_size) : AVERROR(errno);
    }
    whence &= ~AVSEEK_FORCE;
    const off_t r = ::lseek(io->fd, off_t(offset), whence);
    return r < 0 ? AVERROR(errno) : std::int64_t(r);
  }
};

// The decoder's hardware path refused the stream at its first frame: FFmpeg's
// own AV1 decoder (hardware only) on a GPU whose NVDEC has no AV1 (before
// Ada, e.g. Hopper). open_libav then starts over on the CPU.
struct NoHardwareDecode {
  std::string codec;
};

class LibavReader final : public VideoReader {
 public:
  LibavReader(std::string path, int fd, std::string head, const OpenOptions& opts);
  ~LibavReader() override;

  bool read(Picture& pic) override {
    if (!next_frame()) return false;
    if (importer_ && frame_->format == hw_pix_)
      import(pic);
    else
      convert(pic);
    ++frames_;
    return true;
  }
  bool skip(Picture&) override {
    if (!next_frame()) return false;
    ++frames_;
    return true;
  }
  bool decode_only(Picture& scratch) override { return skip(scratch); }
  bool use_device_importer(DeviceImporter* importer) override {
    if (!importer || hw_pix_ == AV_PIX_FMT_NONE || !hw_device_ || importer->cuda_device() != hw_index_) return false;
    importer_ = importer;
    return true;
  }
  std::optional<Timestamp> timestamp() const override {
    if (last_pts_ == AV_NOPTS_VALUE) return std::nullopt;
    return Timestamp{last_pts_, time_base_.num, time_base_.den};
  }
  std::uint64_t frame_count_hint() const override { return count_hint_; }
  std::string format_name() const override { return name_; }
  bool full_range() const override { return full_range_; }
  std::string notice() const override { return notice_; }
  std::string decode_report() const override;
  void set_notice(std::string n) { notice_ = std::move(n); }

 private:
  [[noreturn]] void fail(const std::string& what, Error::Kind kind = Error::Kind::kInput) const {
    throw Error(path_ + ": " + what, kind);
  }
  // Errors name the next frame to come out (a decoder reports an error with
  // the frame it was in, its threads hold a few packets); a packet the
  // container marks bad is named by its number (decode order, from 0).
  std::string at_frame() const { return "frame " + std::to_string(frames_) + ": "; }
  void init(int fd, std::string head, const OpenOptions& opts);
  void release();
  void open_decoder(const AVCodec* codec, const OpenOptions& opts);
  void configure(AVCodecContext* d, int threads);  // what every decoder of this stream is set up with
  bool splits_at_keyframes() const;                // codecs whose keyframe packets start a segment
  bool next_segmented();                           // next_frame() with segments_
  void start_segments(int workers);
  void check_end(std::int64_t discarded) const;  // at the stream's clean end: was it cut short?
  int create_cuda_device(int index);
  bool next_frame();
  const AVFrame& host_frame();  // the frame with its samples in host memory
  void check_frame(const AVFrame& f);
  [[noreturn]] void decode_failed(int r) const;
  void check_duration() const;
  void convert(Picture& pic);
  void import(Picture& pic);  // the decoder's surface to the picture's device copy
  [[noreturn]] void stray_bits() const;

  FdIo io_;
  AVIOContext* avio_ = nullptr;
  AVFormatContext* fmt_ctx_ = nullptr;
  AVCodecContext* dec_ = nullptr;
  AVPacket* pkt_ = nullptr;
  AVFrame* frame_ = nullptr;
  AVFrame* sw_frame_ = nullptr;
  AVBufferRef* hw_device_ = nullptr;
  AVPixelFormat hw_pix_ = AV_PIX_FMT_NONE;
  int hw_index_ = 0;                    // the CUDA device decoding
  DeviceImporter* importer_ = nullptr;  // set: hardware frames stay on the device
  int stream_ = -1;
  std::int64_t packets_ = 0;    // packets of the stream sent to the decoder
  std::int64_t discarded_ = 0;  // of them, those whose frames are not shown (edit lists)
  AVRational time_base_{0, 1};
  bool draining_ = false, ended_ = false;
  bool pending_ = false;  // frame_ holds a decoded frame not yet delivered
  bool sw_valid_ = false;
  std::int64_t last_pts_ = AV_NOPTS_VALUE, first_pts_ = AV_NOPTS_VALUE;
  const PixMap* map_ = nullptr;
  int shift_ = 0;  // MSB-aligned samples (P010, a hardware decoder's 16-bit frames): bits to shift down
  int pix_ = AV_PIX_FMT_NONE;
  bool full_range_ = false;
  std::uint64_t count_hint_ = 0;
  std::string name_, notice_;
  // Segment-parallel decoding (OpenOptions::decode_segments). While init
  // decodes the first frame it keeps the packets it sends (record_): the
  // segments decode them again.
  class Segments;
  std::unique_ptr<Segments> segments_;
  const AVCodec* codec_ = nullptr;  // the decoder's codec (segments open their own)
  bool record_ = false;
  std::vector<AVPacket*> replay_;
};

// ---- Segment-parallel decoding ---------------------------------------------------
// One thread demuxes the stream and cuts it into segments at clean keyframes:
// a keyframe packet (for H.264 one holding an IDR picture) shown after every
// packet sent before it, and followed, within the next kLookahead packets, by
// nothing shown before it (no leading pictures, which may refer to frames
// before the cut). Worker w decodes segments w,
// w + W, w + 2W, ... with its own decoder, drained and flushed between them;
// the reading thread takes the frames segment by segment, in the order one
// decoder gives them. A wrong cut does not go unnoticed: a packet after a cut
// shown before its keyframe (past the lookahead), or a segment's first frame
// not shown after the previous segment's last, fails the read with a message.
class LibavReader::Segments {
 public:
  // What the reading thread gets next.
  struct Next {
    AVFrame* frame = nullptr;       // a frame (the caller owns it), or the end of the stream when null
    bool first_of_segment = false;  // the frame opens a segment after the first
    std::string error;              // the stream failed here: the message after "frame N: "
    int decode_error = 0;           // or libavcodec failed here with this code
    std::exception_ptr exception;   // or this was thrown here
    std::int64_t discarded = 0;     // at the end: packets whose frames are not shown
  };

  Segments(LibavReader& r, int workers, std::size_t buffered_frames, std::vector<AVPacket*> replay)
      : r_(r), workers_(workers), cap_(buffered_frames), replay_(std::move(replay)) {
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    try {
      for (int w = 0; w < workers_; ++w) {
        AVCodecContext* d = avcodec_alloc_context3(r_.codec_);
        if (!d) throw std::bad_alloc();
        decoders_.push_back(d);
        if (int e = avcodec_parameters_to_context(d, r_.fmt_ctx_->streams[r_.stream_]->codecpar); e < 0)
          fail("cannot set up a " + std::string(r_.codec_->name) + " decoder for segments: " + av_error(e));
        if (r_.hw_device_ && r_.hw_pix_ != AV_PIX_FMT_NONE && env::decode_streams_own()) {
          AVBufferRef* dev = nullptr;
          if (int e = cuda_device(&dev, r_.hw_index_); e < 0)
            fail("cannot make a CUDA device for a segment decoder: " + av_error(e), Error::Kind::kDevice);
          try {
            streams_.push_back(std::make_unique<DecoderStream>(dev));
          } catch (const Error& e) {
            fail(e.what(), Error::Kind::kDevice);  // with the file's name
          }
          d->hw_device_ctx = av_buffer_ref(streams_.back()->device());
          if (!d->hw_device_ctx) throw std::bad_alloc();
        }
        r_.configure(d, std::max(1, cores / workers_));
        if (int e = avcodec_open2(d, r_.codec_, nullptr); e < 0)
          fail("cannot open a " + std::string(r_.codec_->name) + " decoder for segments: " + av_error(e),
               Error::Kind::kUnsupported);
      }
      demuxer_ = std::thread([this] { demux(); });
      for (int w = 0; w < workers_; ++w) threads_.emplace_back([this, w] { work(w); });
    } catch (...) {
      stop();
      throw;
    }
  }
  ~Segments() { stop(); }

  [[noreturn]] void fail(const std::string& what, Error::Kind kind = Error::Kind::kInput) const {
    r_.fail(what, kind);  // "<path>: what"
  }

  std::string report() {
    std::lock_guard lk(mu_);
    return std::to_string(segments_.size()) + " segment" + (segments_.size() == 1 ? "" : "s") + " decoded by " +
           std::to_string(workers_) + " decoders, up to " + std::to_string(peak_) + " of " + std::to_string(cap_) +
           " frames waiting";
  }

  Next next() {
    std::unique_lock lk(mu_);
    for (;;) {
      cv_.wait(lk, [&] { return ready(); });
      if (current_ >= segments_.size()) {  // demux_done_ and no segment left
        Next n;
        n.error = demux_error_;
        n.exception = demux_exception_;
        n.discarded = discarded_;
        return n;
      }
      Segment& s = *segments_[current_];
      if (!s.frames.empty()) {
        Next n;
        n.frame = s.frames.front();
        s.frames.pop_front();
        --buffered_;
        n.first_of_segment = current_ > 0 && s.taken++ == 0;
        cv_.notify_all();
        return n;
      }
      // s.decoded: all its frames are out.
      Next n;
      if (s.exception) n.exception = s.exception;
      if (s.decode_error) n.decode_error = s.decode_error;
      if (!s.error.empty()) n.error = s.error;
      if (n.exception || n.decode_error || !n.error.empty()) return n;
      segments_[current_].reset();
      ++current_;
      cv_.notify_all();
    }
  }

 private:
  static constexpr std::int64_t kLookahead = 32;  // packets after a keyframe checked before cutting there
  const std::int64_t lookahead_ = env::decode_lookahead() >= 0 ? env::decode_lookahead() : kLookahead;
  static constexpr std::int64_t kMinPackets = 8;  // a segment's least length
  static constexpr std::size_t kAhead = 16;       // frames the reader's segment decodes ahead of it

  struct Segment {
    std::deque<AVPacket*> packets;  // demuxer -> worker
    bool closed = false;            // no more packets come
    std::string error;              // the stream failed after its packets (message after "frame N: ")
    std::deque<AVFrame*> frames;    // worker -> reader
    bool decoded = false;           // the worker is done with it
    int decode_error = 0;
    std::exception_ptr exception;
    unsigned taken = 0;  // frames the reader took
    ~Segment() {
      for (AVPacket*& p : packets) av_packet_free(&p);
      for (AVFrame*& f : frames) av_frame_free(&f);
    }
  };

  bool ready() const {
    if (stop_) return true;
    if (current_ < segments_.size()) {
      const Segment& s = *segments_[current_];
      return !s.frames.empty() || s.decoded;
    }
    return demux_done_;
  }

  void stop() {
    {
      std::lock_guard lk(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (demuxer_.joinable()) demuxer_.join();
    for (auto& t : threads_) t.join();
    threads_.clear();
    segments_.clear();
    for (AVCodecContext*& d : decoders_) avcodec_free_context(&d);
    for (AVPacket*& p : replay_) av_packet_free(&p);
    for (AVPacket*& p : held_) av_packet_free(&p);
    av_buffer_unref(&pool_);
    streams_.clear();  // after the decoders that map on them
  }

  // ---- demuxer thread ----

  // What packet `p` starts: nothing, a keyframe, or an IDR picture of
  // H.264 or HEVC (no picture after it in decode order refers to one before
  // it, or is shown before the ones before it: a cut there needs no time
  // stamps). An H.264 keyframe that is no IDR (a recovery point) counts as
  // nothing: pictures after it may refer to frames before it.
  enum class Key { kNo, kKey, kIdr };
  Key keyframe(const AVPacket* p) const {
    if (!(p->flags & AV_PKT_FLAG_KEY)) return Key::kNo;
    const AVCodecID id = r_.codec_->id;
    if (id != AV_CODEC_ID_H264 && id != AV_CODEC_ID_HEVC) return Key::kKey;
    const bool hevc = id == AV_CODEC_ID_HEVC;
    auto idr = [&](std::uint8_t header) {
      return hevc ? ((header >> 1) & 0x3f) == 19 || ((header >> 1) & 0x3f) == 20 : (header & 0x1f) == 5;
    };
    const Key other = hevc ? Key::kKey : Key::kNo;
    const AVCodecParameters* par = r_.fmt_ctx_->streams[r_.stream_]->codecpar;
    const std::uint8_t* b = p->data;
    const std::size_t n = std::size_t(p->size);
    const int config = hevc ? 21 : 4;  // the byte of avcC/hvcC holding the length prefix's size
    if (par->extradata_size > config && par->extradata[0] == 1) {  // NAL units with length prefixes
      const int len = (par->extradata[config] & 3) + 1;
      for (std::size_t i = 0; i + std::size_t(len) < n;) {
        std::size_t sz = 0;
        for (int k = 0; k < len; ++k) sz = sz << 8 | b[i + std::size_t(k)];
        i += std::size_t(len);
        if (sz == 0 || i + sz > n) return other;
        if (idr(b[i])) return Key::kIdr;
        i += sz;
      }
      return other;
    }
    for (std::size_t i = 0; i + 3 < n; ++i)  // Annex B: start codes
      if (b[i] == 0 && b[i + 1] == 0 && b[i + 2] == 1 && idr(b[i + 3])) return Key::kIdr;
    return other;
  }

  // Starts segment number segments_.size() (the packets given from now on);
  // waits while the reader is far behind.
  bool open_segment(std::unique_lock<std::mutex>& lk) {
    cv_.wait(lk, [&] { return stop_ || segments_.size() < current_ + 2 * std::size_t(workers_); });
    if (stop_) return false;
    if (!segments_.empty()) segments_.back()->closed = true;
    segments_.push_back(std::make_unique<Segment>());
    cv_.notify_all();
    return true;
  }

  void give(AVPacket* p) {  // to the last segment (under mu_)
    Segment& s = *segments_.back();
    if (p->flags & AV_PKT_FLAG_DISCARD) ++discarded_;
    s.packets.push_back(p);
    cv_.notify_all();
  }

  void finish(std::string error) {
    std::lock_guard lk(mu_);
    if (!segments_.empty()) {
      for (AVPacket*& p : held_) give(p);
      held_.clear();
      segments_.back()->closed = true;
      segments_.back()->error = std::move(error);
    } else {
      demux_error_ = std::move(error);
    }
    demux_done_ = true;
    cv_.notify_all();
  }

  // Reads the stream's packets (first those init decoded) and hands them to
  // the segments. held_ keeps the packets from a candidate keyframe on until
  // kLookahead more say whether to cut there.
  void demux() {
    std::int64_t n = 0;  // packets of the stream so far
    bool timed = true;   // every packet so far has a time stamp
    std::size_t next_replay = 0;
    Cuts& c = cuts_;
    try {
      {
        std::unique_lock lk(mu_);
        if (!open_segment(lk)) return;
      }
      AVPacket* pkt = av_packet_alloc();
      if (!pkt) throw std::bad_alloc();
      struct Free {
        AVPacket*& p;
        ~Free() { av_packet_free(&p); }
      } free_pkt{pkt};
      for (;;) {
        AVPacket* p = nullptr;
        if (next_replay < replay_.size()) {
          p = std::exchange(replay_[next_replay++], nullptr);
        } else {
          const int e = av_read_frame(r_.fmt_ctx_, pkt);
          if (e == AVERROR_EOF) break;
          if (e < 0)
            return finish("reading packet " + std::to_string(n) + " failed: " + av_error(e) +
                          " (truncated or corrupt file)");
          if (pkt->stream_index != r_.stream_) {
            av_packet_unref(pkt);
            continue;
          }
          if (pkt->flags & AV_PKT_FLAG_CORRUPT)
            return finish("packet " + std::to_string(n) + " is truncated or corrupt");
          p = av_packet_alloc();
          if (!p) throw std::bad_alloc();
          av_packet_move_ref(p, pkt);
        }
        const std::int64_t index = n++;
        if (p->pts == AV_NOPTS_VALUE) timed = false;
        if (timed && p->pts <= c.floor) {
          av_packet_free(&p);
          return finish("decoding in segments: packet " + std::to_string(index) +
                        " is shown before the segment from packet " + std::to_string(c.floor_packet) +
                        " (decode without --decode-segments)");
        }
        std::unique_lock lk(mu_);
        if (stop_) {
          av_packet_free(&p);
          return;
        }
        const Key key = c.segment_packets >= kMinPackets && held_.empty() && !(p->flags & AV_PKT_FLAG_DISCARD)
                            ? keyframe(p)
                            : Key::kNo;
        if (!timed && key == Key::kIdr) {
          // No time stamps (a raw stream): an IDR picture is a cut.
          c.segment_packets = 0;
          if (!open_segment(lk)) {
            av_packet_free(&p);
            return;
          }
        }
        if (timed && key != Key::kNo && p->pts > c.max_shown)
          held_.push_back(p);  // a candidate: decided lookahead_ packets on
        else if (!held_.empty())
          held_.push_back(p);
        if (!held_.empty()) {
          if (std::int64_t(held_.size()) > lookahead_) {
            decide(index + 1 - std::int64_t(held_.size()), lk);
            if (stop_) return;
          }
          continue;
        }
        if (timed) c.max_shown = std::max(c.max_shown, p->pts);
        ++c.segment_packets;
        give(p);
      }
      std::unique_lock lk(mu_);
      if (!held_.empty()) decide(n - std::int64_t(held_.size()), lk);
      lk.unlock();
      finish({});
    } catch (...) {
      std::lock_guard lk(mu_);
      if (!segments_.empty()) {  // after its frames, as a read error
        segments_.back()->closed = true;
        segments_.back()->exception = std::current_exception();
      } else {
        demux_exception_ = std::current_exception();
      }
      demux_done_ = true;
      cv_.notify_all();
    }
  }

  // held_ starts at packet `first`, a candidate keyframe: cut there when it
  // is shown after everything handed out already and none of the held
  // packets is shown before it.
  void decide(std::int64_t first, std::unique_lock<std::mutex>& lk) {
    Cuts& c = cuts_;
    // No leading picture (one shown before the keyframe but sent after it,
    // as after an open group's CRA): it may refer to frames before the cut.
    const std::int64_t key = held_.front()->pts;
    bool cut = key > c.max_shown;
    for (const AVPacket* h : held_)
      if (h->pts == AV_NOPTS_VALUE || h->pts < key) cut = false;
    if (cut) {
      c.floor = key - 1;
      c.floor_packet = first;
      c.segment_packets = 0;
      if (!open_segment(lk)) return;
    }
    for (AVPacket*& h : held_) {
      c.max_shown = std::max(c.max_shown, h->pts);
      ++c.segment_packets;
      give(h);
    }
    held_.clear();
  }

  // ---- worker threads ----

  void work(int w) {
    AVCodecContext* d = decoders_[std::size_t(w)];
    AVFrame* f = av_frame_alloc();
    bool used = false;
    for (std::size_t k = std::size_t(w);; k += std::size_t(workers_)) {
      Segment* s = nullptr;
      {
        std::unique_lock lk(mu_);
        cv_.wait(lk, [&] { return stop_ || segments_.size() > k || demux_done_; });
        if (stop_ || segments_.size() <= k) break;
        s = segments_[k].get();
      }
      try {
        if (!f) throw std::bad_alloc();
        if (used) avcodec_flush_buffers(d);
        used = true;
        decode(d, *s, k, f, streams_.empty() ? nullptr : streams_[std::size_t(w)].get());
      } catch (...) {
        std::lock_guard lk(mu_);
        s->exception = std::current_exception();
        s->decoded = true;
        cv_.notify_all();
      }
    }
    av_frame_free(&f);
  }

  // Decodes segment `s` (number k) to its end; `stream`: the decoder's own
  // CUDA stream, if it has one.
  void decode(AVCodecContext* d, Segment& s, std::size_t k, AVFrame* f, const DecoderStream* stream) {
    bool draining = false;
    for (;;) {
      const int e = avcodec_receive_frame(d, f);
      if (e == 0) {
        AVFrame* out = av_frame_alloc();
        if (!out) throw std::bad_alloc();
        av_frame_move_ref(out, f);
        out = own(out, stream);
        std::unique_lock lk(mu_);
        // The segment the reader takes frames from waits only for the
        // reader, a few frames ahead; the others for room in the budget.
        cv_.wait(lk, [&] { return stop_ || (k == current_ ? s.frames.size() < kAhead : buffered_ < cap_); });
        if (stop_) {
          av_frame_free(&out);
          return;
        }
        s.frames.push_back(out);
        peak_ = std::max(peak_, ++buffered_);
        cv_.notify_all();
        continue;
      }
      if (e == AVERROR_EOF) return done(s, 0, {});
      if (e != AVERROR(EAGAIN) || draining) return done(s, e, {});
      AVPacket* p = nullptr;
      {
        std::unique_lock lk(mu_);
        cv_.wait(lk, [&] { return stop_ || !s.packets.empty() || s.closed; });
        if (stop_) return;
        if (!s.packets.empty()) {
          p = s.packets.front();
          s.packets.pop_front();
        } else if (!s.error.empty() || s.exception) {
          return done(s, 0, {}, lk);  // as one decoder: the frames it still holds never come
        }
      }
      const bool drain = p == nullptr;
      const int sent = avcodec_send_packet(d, p);  // null: drain
      av_packet_free(&p);
      if (drain) draining = true;
      if (drain && sent == AVERROR_EOF) continue;
      if (sent < 0) return done(s, sent, {});
    }
  }

  // A frame NVDEC decoded holds one of its decoder's surfaces (FFmpeg maps
  // it; a decoder has its DPB and two more, 32 at most) until it is freed.
  // Frames that wait in the queues are copied device to device into frames
  // of a pool of ours, which grows, and the surface goes back at once. The
  // copy runs on the decoder's device stream: by default the legacy default
  // one, which the CUDA backend's blocking import stream waits for (a copy
  // to the host synchronizes); with a stream of its own (`stream`), the
  // copy is waited for here, so the frame is complete when handed on.
  AVFrame* own(AVFrame* src, const DecoderStream* stream) {
    if (!src->hw_frames_ctx || src->format != r_.hw_pix_) return src;
    struct Free {
      AVFrame*& f;
      ~Free() { av_frame_free(&f); }
    } free_src{src};
    {
      std::lock_guard lk(pool_mu_);
      if (!pool_) {
        const auto* in = reinterpret_cast<const AVHWFramesContext*>(src->hw_frames_ctx->data);
        AVBufferRef* p = av_hwframe_ctx_alloc(r_.hw_device_);
        if (!p) throw std::bad_alloc();
        auto* c = reinterpret_cast<AVHWFramesContext*>(p->data);
        c->format = in->format;
        c->sw_format = in->sw_format;
        c->width = in->width;
        c->height = in->height;
        c->initial_pool_size = 0;  // grows as frames wait
        if (int e = av_hwframe_ctx_init(p); e < 0) {
          av_buffer_unref(&p);
          fail("cannot make device frames for decoding in segments: " + av_error(e), Error::Kind::kDevice);
        }
        pool_ = p;
      }
    }
    AVFrame* dst = av_frame_alloc();
    if (!dst) throw std::bad_alloc();
    int e = av_hwframe_get_buffer(pool_, dst, 0);
    if (e >= 0) {
      dst->width = src->width;
      dst->height = src->height;
      e = av_hwframe_transfer_data(dst, src, 0);
    }
    if (e >= 0) e = av_frame_copy_props(dst, src);
    if (e < 0) {
      av_frame_free(&dst);
      fail("copying a decoded frame on the GPU failed: " + av_error(e), Error::Kind::kDevice);
    }
    if (stream) {
      try {
        stream->sync();
      } catch (const Error& x) {
        av_frame_free(&dst);
        fail(x.what(), Error::Kind::kDevice);
      }
    }
    return dst;
  }

  void done(Segment& s, int decode_error, std::exception_ptr ex) {
    std::unique_lock lk(mu_);
    done(s, decode_error, std::move(ex), lk);
  }
  void done(Segment& s, int decode_error, std::exception_ptr ex, std::unique_lock<std::mutex>&) {
    s.decode_error = decode_error;
    if (ex) s.exception = ex;
    s.decoded = true;
    cv_.notify_all();
  }

  LibavReader& r_;
  const int workers_;
  const std::size_t cap_;  // frames waiting in the segments after the reader's, at most (see decode())
  std::vector<AVPacket*> replay_;
  std::vector<AVPacket*> held_;      // demuxer only
  struct Cuts {                      // demuxer only
    std::int64_t max_shown = -1;     // latest time stamp handed to a segment
    std::int64_t floor = INT64_MIN;  // after a cut, no packet may be shown at or before this (the keyframe's - 1)
    std::int64_t floor_packet = 0;   // where that cut is
    std::int64_t segment_packets = 0;
  } cuts_;
  std::vector<AVCodecContext*> decoders_;
  std::vector<std::unique_ptr<DecoderStream>> streams_;  // one per decoder (VMAFX_DECODE_STREAMS=own), or none
  std::thread demuxer_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Segment>> segments_;  // by number; reset once read
  std::size_t current_ = 0;                        // the segment the reader takes frames from
  std::size_t buffered_ = 0, peak_ = 0;
  bool demux_done_ = false, stop_ = false;
  std::mutex pool_mu_;
  AVBufferRef* pool_ = nullptr;  // device frames that NVDEC's frames wait in (own())
  std::string demux_error_;      // the stream failed before its first segment began
  std::exception_ptr demux_exception_;
  std::int64_t discarded_ = 0;
};

LibavReader::LibavReader(std::string path, int fd, std::string head, const OpenOptions& opts)
    : VideoReader(std::move(path)) {
  try {
    init(fd, std::move(head), opts);
  } catch (...) {
    release();  // the destructor does not run for a throwing constructor
    throw;
  }
}

void LibavReader::init(int fd, std::string head, const OpenOptions& opts) {
  quiet_libav();
  io_.fd = fd;
  int score = 0;
  const AVInputFormat* container = probe(head, score);
  struct stat st;
  io_.seekable = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::lseek(fd, 0, SEEK_SET) == 0;
  if (!io_.seekable) io_.head = std::move(head);
  constexpr int kBuf = 1 << 16;
  auto* buf = static_cast<std::uint8_t*>(av_malloc(kBuf));
  if (!buf) throw std::bad_alloc();
  avio_ = avio_alloc_context(buf, kBuf, 0, &io_, &FdIo::read, nullptr, io_.seekable ? &FdIo::seek : nullptr);
  if (!avio_) {
    av_free(buf);
    throw std::bad_alloc();
  }
  avio_->seekable = io_.seekable ? AVIO_SEEKABLE_NORMAL : 0;
  fmt_ctx_ = avformat_alloc_context();
  if (!fmt_ctx_) throw std::bad_alloc();
  fmt_ctx_->pb = avio_;
  fmt_ctx_->flags |= AVFMT_FLAG_CUSTOM_IO;
  if (int r = avformat_open_input(&fmt_ctx_, path_.c_str(), container, nullptr); r < 0)
    fail("cannot be opened as a video: " + av_error(r) + " (truncated or corrupt file?)");  // frees fmt_ctx_
  // Debian's libjxl writes its own diagnostics to standard error (a damaged
  // image: a dozen lines, found by fuzz_yuv), and FFmpeg decodes JPEG XL to
  // RGB only, which is refused anyway: refused before anything decodes.
  for (unsigned i = 0; i < fmt_ctx_->nb_streams; ++i)
    if (fmt_ctx_->streams[i]->codecpar->codec_id == AV_CODEC_ID_JPEGXL)
      fail("JPEG XL is not supported (FFmpeg decodes it to RGB only; its decoder writes to standard error)",
           Error::Kind::kUnsupported);
  if (int r = avformat_find_stream_info(fmt_ctx_, nullptr); r < 0)
    fail("cannot read the stream information: " + av_error(r));

  // The opts.stream-th video stream (cover pictures do not count).
  int videos = 0;
  for (unsigned i = 0; i < fmt_ctx_->nb_streams; ++i) {
    AVStream* s = fmt_ctx_->streams[i];
    const bool video = s->codecpar->codec_type == AVMEDIA_TYPE_VIDEO && !(s->disposition & AV_DISPOSITION_ATTACHED_PIC);
    if (video && videos++ == opts.stream)
      stream_ = int(i);
    else
      s->discard = AVDISCARD_ALL;
  }
  if (videos == 0) fail("no video stream (a " + std::string(fmt_ctx_->iformat->name) + " file)");
  if (stream_ < 0)
    fail("has " + std::to_string(videos) + " video stream" + (videos == 1 ? "" : "s") + ", no stream " +
             std::to_string(opts.stream) + " (streams count from 0)",
         Error::Kind::kUsage);
  AVStream* st_ = fmt_ctx_->streams[stream_];
  time_base_ = st_->time_base;

  const AVCodecID id = st_->codecpar->codec_id;
  const AVCodec* codec = avcodec_find_decoder(id);
  // With hardware decode, AV1 needs FFmpeg's native decoder (the hwaccel
  // host); libdav1d is the CPU choice.
  if (opts.hwdec == "cuda" && id == AV_CODEC_ID_AV1)
    if (const AVCodec* native = avcodec_find_decoder_by_name("av1")) codec = native;
  if (!codec)
    fail("no decoder for codec " + std::string(avcodec_get_name(id)) + " in this FFmpeg build",
         Error::Kind::kUnsupported);
  open_decoder(codec, opts);
  if (id == AV_CODEC_ID_AV1 && std::strcmp(dec_->codec->name, "av1") == 0 && hw_pix_ == AV_PIX_FMT_NONE)
    fail(
        "no CPU decoder for av1 in this FFmpeg build (its own av1 decoder needs a GPU with AV1 NVDEC; "
        "FFmpeg with libdav1d decodes it on the CPU)",
        Error::Kind::kUnsupported);
  pkt_ = av_packet_alloc();
  frame_ = av_frame_alloc();
  sw_frame_ = av_frame_alloc();
  if (!pkt_ || !frame_ || !sw_frame_) throw std::bad_alloc();

  // The first frame fixes the format (the container's word is not enough).
  record_ = opts.decode_segments > 1;
  if (!next_frame()) fail("no frame could be decoded (empty or truncated stream)");
  pending_ = true;
  const AVFrame& f = host_frame();
  pix_ = f.format;
  map_ = find_pix_map(pix_);
  const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(AVPixelFormat(pix_));
  if (!map_) {
    std::string what = "pixel format " + pix_name(pix_);
    if (desc && (desc->flags & AV_PIX_FMT_FLAG_RGB)) what += " (RGB)";
    fail(what +
             " is not supported: VMAF scores YUV 4:2:0, 4:2:2 or 4:4:4 at 8 to 16 bits, "
             "and this tool never converts samples (convert it first, e.g. ffmpeg -pix_fmt yuv444p)",
         Error::Kind::kUnsupported);
  }
  if (f.width <= 0 || f.height <= 0 || f.width > (1 << 15) || f.height > (1 << 15) ||
      static_cast<long long>(f.width) * f.height > (1LL << 26))
    fail("frame size " + std::to_string(f.width) + "x" + std::to_string(f.height) + " is not supported",
         Error::Kind::kUnsupported);
  int bpc = map_->bpc;
  if (map_->layout == Layout::kSemiPlanarMsb) shift_ = 16 - bpc;
  // A hardware decoder hands 9- to 15-bit video over in 16-bit containers with
  // the samples in the top bits (P016, YUV444P16): the stream's own depth says
  // how far down they go.
  if (&f == sw_frame_ && bpc == 16) {
    const AVPixFmtDescriptor* sw = av_pix_fmt_desc_get(dec_->sw_pix_fmt);
    if (sw && sw->comp[0].depth > 8 && sw->comp[0].depth < 16) {
      shift_ = 16 - sw->comp[0].depth;
      bpc = sw->comp[0].depth;
    }
  }
  fmt_ = {f.width, f.height, bpc, map_->chroma};
  full_range_ = map_->full_range || f.color_range == AVCOL_RANGE_JPEG;
  name_ = pix_name(pix_) + (full_range_ && !map_->full_range ? " full range" : "") + ", " + codec->name + " in " +
          std::string(fmt_ctx_->iformat->name).substr(0, std::string(fmt_ctx_->iformat->name).find(','));
  if (hw_pix_ != AV_PIX_FMT_NONE && frame_->format == hw_pix_)
    name_ += ", decoded by NVDEC";
  else if (hw_pix_ != AV_PIX_FMT_NONE && notice_.empty())
    notice_ = path_ + ": NVDEC does not decode this " + std::string(codec->name) + " stream (" + pix_name(pix_) +
              "); decoding on the CPU";

  if (st_->nb_frames > 0) {
    count_hint_ = std::uint64_t(st_->nb_frames);
  } else {
    const AVRational rate = st_->avg_frame_rate.num > 0 ? st_->avg_frame_rate : st_->r_frame_rate;
    double secs = 0;
    if (st_->duration != AV_NOPTS_VALUE)
      secs = double(st_->duration) * av_q2d(st_->time_base);
    else if (fmt_ctx_->duration != AV_NOPTS_VALUE)
      secs = double(fmt_ctx_->duration) / AV_TIME_BASE;
    if (rate.num > 0 && rate.den > 0 && secs > 0) count_hint_ = std::uint64_t(secs * av_q2d(rate) + 0.5);
  }
  if (record_) start_segments(opts.decode_segments);
}

// From the first frame on again, with `workers` decoders; frames wait in
// host memory (CPU decoding) or device memory (NVDEC) up to a budget.
void LibavReader::start_segments(int workers) {
  record_ = false;
  codec_ = dec_->codec;
  avcodec_free_context(&dec_);
  pending_ = false;
  sw_valid_ = false;
  av_frame_unref(frame_);
  packets_ = discarded_ = 0;
  const std::size_t budget = (hw_pix_ != AV_PIX_FMT_NONE ? std::size_t(4) : std::size_t(1)) << 30;
  const std::size_t cap =
      std::clamp<std::size_t>(budget / std::max<std::size_t>(1, fmt_.frame_bytes()), 2 * std::size_t(workers), 1024);
  segments_ = std::make_unique<Segments>(*this, workers, cap, std::exchange(replay_, {}));
}

LibavReader::~LibavReader() { release(); }

void LibavReader::release() {
  segments_.reset();  // its threads use the demuxer and the device
  for (AVPacket*& p : replay_) av_packet_free(&p);
  replay_.clear();
  av_frame_free(&sw_frame_);
  av_frame_free(&frame_);
  av_packet_free(&pkt_);
  avcodec_free_context(&dec_);
  avformat_close_input(&fmt_ctx_);
  if (avio_) av_freep(&avio_->buffer);
  avio_context_free(&avio_);
  av_buffer_unref(&hw_device_);
  if (io_.fd >= 0) ::close(io_.fd);
  io_.fd = -1;
}

// libavcodec offers the formats it can decode to; take the hardware one when
// it is there (NVDEC handles this profile), otherwise its software choice.
AVPixelFormat pick_format(AVCodecContext* ctx, const AVPixelFormat* offered) {
  const auto want = *static_cast<const AVPixelFormat*>(ctx->opaque);
  for (const AVPixelFormat* p = offered; *p != AV_PIX_FMT_NONE; ++p)
    if (*p == want) return *p;
  for (const AVPixelFormat* p = offered; *p != AV_PIX_FMT_NONE; ++p) {
    const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(*p);
    if (d && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL)) return *p;
  }
  return AV_PIX_FMT_NONE;
}

void LibavReader::open_decoder(const AVCodec* codec, const OpenOptions& opts) {
  dec_ = avcodec_alloc_context3(codec);
  if (!dec_) throw std::bad_alloc();
  if (int r = avcodec_parameters_to_context(dec_, fmt_ctx_->streams[stream_]->codecpar); r < 0)
    fail("cannot set up the " + std::string(codec->name) + " decoder: " + av_error(r));
  if (!opts.hwdec.empty()) {
    if (opts.hwdec != "cuda") fail("--hwdec " + opts.hwdec + ": expected cuda", Error::Kind::kUsage);
    for (int i = 0;; ++i) {
      const AVCodecHWConfig* c = avcodec_get_hw_config(codec, i);
      if (!c) break;
      if (c->device_type == AV_HWDEVICE_TYPE_CUDA && (c->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX)) {
        hw_pix_ = c->pix_fmt;
        break;
      }
    }
    if (hw_pix_ == AV_PIX_FMT_NONE) {
      notice_ = path_ + ": the " + std::string(codec->name) +
                " decoder of this FFmpeg has no NVDEC support; decoding on the CPU";
    } else if (int r = create_cuda_device(opts.hwdec_device); r < 0) {
      notice_ = path_ + ": no CUDA decode device (" + av_error(r) + "); decoding on the CPU";
      hw_pix_ = AV_PIX_FMT_NONE;
      if (codec->id == AV_CODEC_ID_AV1) {  // the native AV1 decoder decodes only on hardware
        avcodec_free_context(&dec_);
        const AVCodec* sw = avcodec_find_decoder(AV_CODEC_ID_AV1);
        if (sw && sw != codec) return open_decoder(sw, {opts.stream, "", 0});
      }
    }
  }
  configure(dec_, 0);  // libavcodec's choice of threads (about one per core); the device, if there is one
  if (int r = avcodec_open2(dec_, codec, nullptr); r < 0)
    fail("cannot open the " + std::string(codec->name) + " decoder: " + av_error(r), Error::Kind::kUnsupported);
}

void LibavReader::configure(AVCodecContext* d, int threads) {
  d->pkt_timebase = time_base_;
  d->thread_count = threads;
  // Frame threads only for the codecs whose damaged streams were fuzzed with
  // them: FFmpeg 5.1's MPEG-4 part 2 decoder with frame threads aborted the
  // process (an assertion in avcodec_send_packet) on a damaged AVI that slice
  // threads report as an error (fuzz_libav, LibavErrors.DamagedMpeg4InAvi).
  switch (d->codec_id) {
    case AV_CODEC_ID_H264:
    case AV_CODEC_ID_HEVC:
    case AV_CODEC_ID_VP9:
    case AV_CODEC_ID_AV1: break;
    default: d->thread_type = FF_THREAD_SLICE;
  }
  // A damaged stream is an error, never concealed.
  d->err_recognition |= AV_EF_EXPLODE;
  if (hw_device_ && hw_pix_ != AV_PIX_FMT_NONE) {
    if (!d->hw_device_ctx) d->hw_device_ctx = av_buffer_ref(hw_device_);
    if (!d->hw_device_ctx) throw std::bad_alloc();
    d->opaque = &hw_pix_;
    d->get_format = pick_format;
  }
}

// The decoder's CUDA device (cuda_device) and its index.
int LibavReader::create_cuda_device(int index) {
  hw_index_ = index;
  return cuda_device(&hw_device_, index);
}

bool LibavReader::next_frame() {
  if (pending_) {
    pending_ = false;
    return true;
  }
  if (ended_) return false;
  sw_valid_ = false;
  if (segments_) return next_segmented();
  for (;;) {
    int r = avcodec_receive_frame(dec_, frame_);
    if (r == 0) {
      check_frame(*frame_);
      last_pts_ = frame_->best_effort_timestamp;
      if (frames_ == 0 && !map_) first_pts_ = last_pts_;
      return true;
    }
    if (r == AVERROR_EOF) {
      ended_ = true;
      check_end(discarded_);
      return false;
    }
    if (r != AVERROR(EAGAIN) || draining_) decode_failed(r);
    for (;;) {
      r = av_read_frame(fmt_ctx_, pkt_);
      if (r == AVERROR_EOF) {
        draining_ = true;
        r = avcodec_send_packet(dec_, nullptr);
        if (r < 0 && r != AVERROR_EOF) decode_failed(r);
        break;
      }
      if (r < 0)
        fail(at_frame() + "reading packet " + std::to_string(packets_) + " failed: " + av_error(r) +
             " (truncated or corrupt file)");
      if (pkt_->stream_index != stream_) {
        av_packet_unref(pkt_);
        continue;
      }
      const bool corrupt = pkt_->flags & AV_PKT_FLAG_CORRUPT;
      ++packets_;
      if (pkt_->flags & AV_PKT_FLAG_DISCARD) ++discarded_;
      if (corrupt) fail(at_frame() + "packet " + std::to_string(packets_ - 1) + " is truncated or corrupt");
      if (record_) {
        replay_.push_back(av_packet_clone(pkt_));
        if (!replay_.back()) throw std::bad_alloc();
      }
      r = avcodec_send_packet(dec_, pkt_);
      av_packet_unref(pkt_);
      if (r < 0) decode_failed(r);
      break;
    }
  }
}

// A container that counts its frames (mp4) and holds more than decoded: the
// file was cut short. Packets an edit list leaves out (mp4 cut by
// `ffmpeg -ss T -c copy`) count but are not shown: the decoder drops their
// frames.
void LibavReader::check_end(std::int64_t discarded) const {
  const std::int64_t expected = fmt_ctx_->streams[stream_]->nb_frames - discarded;
  if (expected > 0 && std::int64_t(frames_) < expected)
    fail("ended after " + std::to_string(frames_) + " of its " + std::to_string(expected) +
         " frames (truncated or corrupt)");
  check_duration();
}

void LibavReader::decode_failed(int r) const {
  if (r == AVERROR(ENOSYS) && hw_pix_ != AV_PIX_FMT_NONE && !map_) throw NoHardwareDecode{dec_->codec->name};
  fail(at_frame() + "decoding failed: " + av_error(r));
}

// Containers that do not count frames (Matroska, WebM, IVF) still declare a
// duration: a stream that stops well short of it was cut off (their demuxers
// end quietly at a truncated cluster or frame header).
void LibavReader::check_duration() const {
  const AVStream* st = fmt_ctx_->streams[stream_];
  if (frames_ == 0 || last_pts_ == AV_NOPTS_VALUE || first_pts_ == AV_NOPTS_VALUE) return;
  const AVRational rate = st->avg_frame_rate.num > 0 ? st->avg_frame_rate : st->r_frame_rate;
  if (rate.num <= 0 || rate.den <= 0) return;
  double declared = 0;
  if (st->duration != AV_NOPTS_VALUE && st->duration > 0)
    declared = double(st->duration) * av_q2d(st->time_base);
  else if (fmt_ctx_->nb_streams == 1 && fmt_ctx_->duration != AV_NOPTS_VALUE && fmt_ctx_->duration > 0)
    declared = double(fmt_ctx_->duration) / AV_TIME_BASE;
  else
    return;
  const double frame = 1.0 / av_q2d(rate);
  // Muxers disagree on whether a duration counts from zero or from the first
  // time stamp: a file is short only when it is short either way.
  const double ends = std::max(double(last_pts_ - first_pts_), double(last_pts_)) * av_q2d(time_base_) + frame;
  if (declared - ends > 1.5 * frame) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "ended after %u frames (%.3f s), but the container says %.3f s (truncated file?)",
                  frames_, ends, declared);
    fail(buf);
  }
}

void LibavReader::check_frame(const AVFrame& f) {
  if (f.decode_error_flags || (f.flags & AV_FRAME_FLAG_CORRUPT))
    fail(at_frame() + "decoded with errors (corrupt or truncated stream)");
  if (!map_) return;  // the first frame: the constructor takes its format
  const int pix = (hw_pix_ != AV_PIX_FMT_NONE && f.format == hw_pix_ && f.hw_frames_ctx)
                      ? reinterpret_cast<const AVHWFramesContext*>(f.hw_frames_ctx->data)->sw_format
                      : f.format;
  if (f.width != fmt_.width || f.height != fmt_.height || pix != pix_)
    fail(at_frame() + "the picture changed from " + std::to_string(fmt_.width) + "x" + std::to_string(fmt_.height) +
         " " + pix_name(pix_) + " to " + std::to_string(f.width) + "x" + std::to_string(f.height) + " " +
         pix_name(pix) + " mid-stream");
}

const AVFrame& LibavReader::host_frame() {
  if (hw_pix_ == AV_PIX_FMT_NONE || frame_->format != hw_pix_) return *frame_;
  if (!sw_valid_) {
    av_frame_unref(sw_frame_);
    if (int r = av_hwframe_transfer_data(sw_frame_, frame_, 0); r < 0)
      fail(at_frame() + "copying the decoded frame from the GPU failed: " + av_error(r), Error::Kind::kDevice);
    sw_valid_ = true;
  }
  return *sw_frame_;
}

void LibavReader::convert(Picture& pic) {
  const AVFrame& f = host_frame();
  const int bps = fmt_.bytes_per_sample();
  const unsigned low = (1u << shift_) - 1;
  unsigned stray = 0;  // low bits an MSB-aligned sample must not have
  // One row of plane `p` from `src`: copied, or shifted down.
  auto row = [&](int p, int y, const std::uint8_t* src) {
    const int w = fmt_.plane_width(p);
    if (shift_ == 0) {
      std::memcpy(pic.row<std::uint8_t>(p, y), src, std::size_t(w) * bps);
      return;
    }
    const auto* s = reinterpret_cast<const std::uint16_t*>(src);
    std::uint16_t* d = pic.row<std::uint16_t>(p, y);
    unsigned bad = 0;
    for (int x = 0; x < w; ++x) {
      bad |= s[x];
      d[x] = std::uint16_t(s[x] >> shift_);
    }
    stray |= bad & low;
  };
  const bool semi = map_->layout != Layout::kPlanar;
  for (int p = 0; p < (semi ? 1 : fmt_.plane_count()); ++p)
    for (int y = 0, h = fmt_.plane_height(p); y < h; ++y) row(p, y, f.data[p] + std::ptrdiff_t(y) * f.linesize[p]);
  if (semi) {
    // Interleaved chroma (U V U V ...) split into two planes.
    const int cw = fmt_.plane_width(1);
    for (int y = 0, ch = fmt_.plane_height(1); y < ch; ++y) {
      const std::uint8_t* src = f.data[1] + std::ptrdiff_t(y) * f.linesize[1];
      if (bps == 1) {
        std::uint8_t* u = pic.row<std::uint8_t>(1, y);
        std::uint8_t* v = pic.row<std::uint8_t>(2, y);
        for (int x = 0; x < cw; ++x) {
          u[x] = src[2 * x];
          v[x] = src[2 * x + 1];
        }
      } else {
        const auto* s = reinterpret_cast<const std::uint16_t*>(src);
        std::uint16_t* u = pic.row<std::uint16_t>(1, y);
        std::uint16_t* v = pic.row<std::uint16_t>(2, y);
        unsigned bad = 0;
        for (int x = 0; x < cw; ++x) {
          bad |= s[2 * x] | s[2 * x + 1];
          u[x] = std::uint16_t(s[2 * x] >> shift_);
          v[x] = std::uint16_t(s[2 * x + 1] >> shift_);
        }
        stray |= bad & low;
      }
    }
  }
  if (stray) stray_bits();
}

void LibavReader::stray_bits() const {
  fail(at_frame() + pix_name(pix_) + " samples with nonzero low bits: not " + std::to_string(fmt_.bpc) + "-bit video");
}

void LibavReader::import(Picture& pic) {
  DeviceImporter::Surface s;
  for (int p = 0; p < 3; ++p) {
    s.data[p] = frame_->data[p];
    s.pitch[p] = frame_->linesize[p];
  }
  s.interleaved_chroma = map_->layout != Layout::kPlanar;
  s.shift = shift_;
  if (!importer_->import(s, pic)) stray_bits();
}

std::string LibavReader::decode_report() const {
  return segments_ ? "decoding in segments: " + segments_->report() : std::string();
}

bool LibavReader::next_segmented() {
  Segments::Next n = segments_->next();
  if (n.exception) std::rethrow_exception(n.exception);
  if (n.decode_error) decode_failed(n.decode_error);
  if (!n.error.empty()) fail(at_frame() + n.error);
  if (!n.frame) {
    ended_ = true;
    check_end(n.discarded);
    return false;
  }
  av_frame_unref(frame_);
  av_frame_move_ref(frame_, n.frame);
  av_frame_free(&n.frame);
  check_frame(*frame_);
  const std::int64_t pts = frame_->best_effort_timestamp;
  if (n.first_of_segment && pts != AV_NOPTS_VALUE && last_pts_ != AV_NOPTS_VALUE && pts <= last_pts_)
    fail(at_frame() +
         "decoding in segments: the frame is not shown after the one before it "
         "(decode without --decode-segments)");
  last_pts_ = pts;
  return true;
}

}  // namespace

int libav_probe_score(const std::string& head, const std::string& path) {
  ffmpeg_require(path);
  int score = 0;
  return probe(head, score) ? score : 0;
}

std::unique_ptr<VideoReader> open_libav(const std::string& path, int fd, std::string head, const OpenOptions& opts) {
  ffmpeg_require(path);
  if (opts.hwdec.empty()) return std::make_unique<LibavReader>(path, fd, std::move(head), opts);
  // A second descriptor of the same file, to start over on the CPU when the
  // hardware path refuses the stream (the reader closes `fd` then).
  const int again = ::dup(fd);
  const std::string head_again = head;
  try {
    auto r = std::make_unique<LibavReader>(path, fd, std::move(head), opts);
    if (again >= 0) ::close(again);
    return r;
  } catch (const NoHardwareDecode& e) {
    if (again < 0 || ::lseek(again, 0, SEEK_SET) != 0) {
      if (again >= 0) ::close(again);
      throw Error(path + ": NVDEC does not decode this " + e.codec +
                      " stream on this GPU, and a pipe cannot be read again to decode it on the CPU "
                      "(give a file, or --hwdec none)",
                  Error::Kind::kUnsupported);
    }
    OpenOptions cpu = opts;
    cpu.hwdec.clear();
    auto r = std::make_unique<LibavReader>(path, again, head_again, cpu);
    r->set_notice(path + ": NVDEC does not decode this " + e.codec + " stream on this GPU; decoding on the CPU");
    return r;
  } catch (...) {
    if (again >= 0) ::close(again);
    throw;
  }
}

}  // namespace vmafx

#endif  // VMAFX_HAVE_LIBAV
