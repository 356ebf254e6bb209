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
#include <cstdio>
#include <cstring>
#include <mutex>

#include "core/error.hpp"
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
}

LibavReader::~LibavReader() { release(); }

void LibavReader::release() {
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
  dec_->pkt_timebase = time_base_;
  dec_->thread_count = 0;  // libavcodec's choice (about one per core)
  // Frame threads only for the codecs whose damaged streams were fuzzed with
  // them: FFmpeg 5.1's MPEG-4 part 2 decoder with frame threads aborted the
  // process (an assertion in avcodec_send_packet) on a damaged AVI that slice
  // threads report as an error (fuzz_libav, LibavErrors.DamagedMpeg4InAvi).
  switch (codec->id) {
    case AV_CODEC_ID_H264:
    case AV_CODEC_ID_HEVC:
    case AV_CODEC_ID_VP9:
    case AV_CODEC_ID_AV1: break;
    default: dec_->thread_type = FF_THREAD_SLICE;
  }
  // A damaged stream is an error, never concealed.
  dec_->err_recognition |= AV_EF_EXPLODE;
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
    } else {
      dec_->hw_device_ctx = av_buffer_ref(hw_device_);
      dec_->opaque = &hw_pix_;
      dec_->get_format = pick_format;
    }
  }
  if (int r = avcodec_open2(dec_, codec, nullptr); r < 0)
    fail("cannot open the " + std::string(codec->name) + " decoder: " + av_error(r), Error::Kind::kUnsupported);
}

// The decoder's CUDA device: the driver's primary context of device `index`,
// the one the CUDA backend (the runtime API) uses, so that its surfaces are
// readable there.
int LibavReader::create_cuda_device(int index) {
  hw_index_ = index;
  AVDictionary* o = nullptr;
  av_dict_set(&o, "primary_ctx", "1", 0);
  const int r = av_hwdevice_ctx_create(&hw_device_, AV_HWDEVICE_TYPE_CUDA, std::to_string(index).c_str(), o, 0);
  av_dict_free(&o);
  return r;
}

bool LibavReader::next_frame() {
  if (pending_) {
    pending_ = false;
    return true;
  }
  if (ended_) return false;
  sw_valid_ = false;
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
      // A container that counts its frames (mp4) and holds more than decoded:
      // the file was cut short. Packets an edit list leaves out (mp4 cut by
      // `ffmpeg -ss T -c copy`) count but are not shown: the decoder drops
      // their frames.
      const std::int64_t expected = fmt_ctx_->streams[stream_]->nb_frames - discarded_;
      if (expected > 0 && std::int64_t(frames_) < expected)
        fail("ended after " + std::to_string(frames_) + " of its " + std::to_string(expected) +
             " frames (truncated or corrupt)");
      check_duration();
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
      r = avcodec_send_packet(dec_, pkt_);
      av_packet_unref(pkt_);
      if (r < 0) decode_failed(r);
      break;
    }
  }
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

}  // namespace

int libav_probe_score(const std::string& head, const std::string&) {
  int score = 0;
  return probe(head, score) ? score : 0;
}

std::unique_ptr<VideoReader> open_libav(const std::string& path, int fd, std::string head, const OpenOptions& opts) {
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
