// SPDX-License-Identifier: BSD-3-Clause
#include "io/video_reader.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <bit>
#include <cstring>
#include <filesystem>
#include <functional>
#include <sstream>

#include "core/error.hpp"
#include "io/libav_reader.hpp"

namespace vmafx {

namespace {

constexpr std::size_t kMaxHeader = 4096;
// Bytes read from a clip that is not Y4M to recognize a container.
constexpr std::size_t kProbeBytes = 4096;
constexpr int kMaxDimension = 1 << 15;  // 32768 a side
// At most 2^26 luma samples (8192x8192; 8K UHD is 7680x4320): the engine keeps
// a few pictures per thread, so this bounds memory whatever a header claims.
constexpr long long kMaxSamples = 1LL << 26;

void check_area(const std::string& path, int w, int h) {
  if (static_cast<long long>(w) * h > kMaxSamples)
    throw input_error(path + ": frame size " + std::to_string(w) + "x" + std::to_string(h) +
                      " is too large (at most 67108864 luma samples, e.g. 8192x8192)");
}

bool parse_int(std::string_view s, int& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// Y4M colour-space tags. Any 4:2:0 chroma siting is accepted: siting does not
// change the sample layout, and libvmaf does not resample.
bool parse_colorspace(std::string_view c, ChromaFormat& chroma, int& bpc) {
  struct Tag {
    std::string_view tag;
    ChromaFormat chroma;
    int bpc;
  };
  static constexpr Tag kTags[] = {
      {"420jpeg", ChromaFormat::k420, 8}, {"420mpeg2", ChromaFormat::k420, 8}, {"420paldv", ChromaFormat::k420, 8},
      {"420", ChromaFormat::k420, 8},     {"422", ChromaFormat::k422, 8},      {"444", ChromaFormat::k444, 8},
      {"mono", ChromaFormat::k400, 8},    {"420p9", ChromaFormat::k420, 9},    {"422p9", ChromaFormat::k422, 9},
      {"444p9", ChromaFormat::k444, 9},   {"420p10", ChromaFormat::k420, 10},  {"422p10", ChromaFormat::k422, 10},
      {"444p10", ChromaFormat::k444, 10}, {"420p12", ChromaFormat::k420, 12},  {"422p12", ChromaFormat::k422, 12},
      {"444p12", ChromaFormat::k444, 12}, {"420p14", ChromaFormat::k420, 14},  {"422p14", ChromaFormat::k422, 14},
      {"444p14", ChromaFormat::k444, 14}, {"420p16", ChromaFormat::k420, 16},  {"422p16", ChromaFormat::k422, 16},
      {"444p16", ChromaFormat::k444, 16}, {"mono10", ChromaFormat::k400, 10},  {"mono12", ChromaFormat::k400, 12},
      {"mono16", ChromaFormat::k400, 16},
  };
  for (const Tag& t : kTags) {
    if (c == t.tag) {
      chroma = t.chroma;
      bpc = t.bpc;
      return true;
    }
  }
  return false;
}

// Frames a regular file of `bytes` holds at `per_frame` bytes each (0 for a pipe).
std::uint64_t frames_in_file(int fd, std::uint64_t header, std::uint64_t per_frame) {
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || std::uint64_t(st.st_size) < header || per_frame == 0) return 0;
  return (std::uint64_t(st.st_size) - header) / per_frame;
}

// The frame rate of a Y4M header ("F30000:1001"), or {0, 0} when absent or malformed.
std::pair<int, int> y4m_rate(const std::string& fields) {
  std::istringstream in(fields);
  std::string tok;
  while (in >> tok) {
    if (tok[0] != 'F') continue;
    const std::size_t colon = tok.find(':');
    int num = 0, den = 0;
    if (colon != std::string::npos && parse_int(std::string_view(tok).substr(1, colon - 1), num) &&
        parse_int(std::string_view(tok).substr(colon + 1), den) && num > 0 && den > 0)
      return {num, den};
  }
  return {0, 0};
}

// The first bytes of a clip that is not Y4M: what FFmpeg would say it is when
// this build cannot decode it (only unambiguous signatures).
[[maybe_unused]] const char* compressed_signature(const std::string& head) {
  auto at = [&](std::size_t off, std::string_view sig) {
    return head.size() >= off + sig.size() && head.compare(off, sig.size(), sig) == 0;
  };
  if (at(4, "ftyp")) return "an MP4/MOV";
  if (at(0, "\x1a\x45\xdf\xa3")) return "a Matroska/WebM";
  if (at(0, "DKIF")) return "an IVF";
  if (at(0, "RIFF")) return "an AVI";
  if (at(0, "OggS")) return "an Ogg";
  return nullptr;
}

// Whether a clip given as raw YUV could still be a container or an
// elementary stream that FFmpeg recognizes with a high score: a signature, an
// MPEG start code at the start, or MPEG-TS sync bytes. Raw frames of video
// almost never start so; those that do are probed as before.
[[maybe_unused]] bool may_be_compressed(const std::string& head) {
  auto at = [&](std::size_t off, std::string_view sig) {
    return head.size() >= off + sig.size() && head.compare(off, sig.size(), sig) == 0;
  };
  using namespace std::string_view_literals;
  return compressed_signature(head) || at(0, "\0\0\1"sv) || at(0, "\0\0\0\1"sv) || at(0, "FLV") ||
         (at(0, "\x47") && (head.size() < 189 || head[188] == '\x47'));
}

class Y4mReader final : public FileReader {
 public:
  // `data_offset`: where the first frame header starts (after the stream header).
  Y4mReader(std::string path, int fd, const PictureFormat& fmt, std::pair<int, int> rate, std::uint64_t count,
            std::uint64_t data_offset)
      : FileReader(std::move(path), fd), rate_(rate), count_(count) {
    fmt_ = fmt;
    set_layout(data_offset, 6);
  }
  std::optional<Timestamp> timestamp() const override {
    if (rate_.first == 0 || frames_ == 0) return std::nullopt;
    return Timestamp{std::int64_t(frames_) - 1, rate_.second, rate_.first};
  }
  std::uint64_t frame_count_hint() const override { return count_; }
  std::string truncated_message() const override { return "truncated frame data"; }
  bool read(Picture& pic) override {
    if (!frame_header()) return false;
    // The payload, and in the same read the next frame's "FRAME\n".
    std::size_t got = 0;
    unsigned bits = 0;
    unsigned* hot = or_while_reading() ? &bits : nullptr;
    if (read_frame(pic, marker_, sizeof marker_, got, hot) != fmt_.frame_bytes())
      fail("frame " + std::to_string(frames_) + ": " + truncated_message());
    marker_len_ = got;
    have_marker_ = true;
    finish_check(pic, frames_, hot);
    ++frames_;
    return true;
  }

 private:
  // Consumes "FRAME" [params] '\n' (or finds a clean end of file). Uses the
  // bytes read ahead with the previous frame when there are some.
  bool frame_header() {
    if (!have_marker_) marker_len_ = read_bytes(marker_, sizeof marker_);
    have_marker_ = false;
    const std::size_t n = marker_len_;
    if (n == 0) return false;
    if (n < 5 || std::memcmp(marker_, "FRAME", 5) != 0)
      fail("frame " + std::to_string(frames_) + ": missing FRAME marker" + (n < 5 ? " (truncated)" : ""));
    if (n == 5) fail("frame " + std::to_string(frames_) + ": truncated frame header");
    if (marker_[5] == '\n') return true;
    // Frame parameters: rare; read them byte by byte.
    std::size_t len = 1;
    for (;;) {
      char c;
      if (read_bytes(&c, 1) != 1) fail("frame " + std::to_string(frames_) + ": truncated frame header");
      if (c == '\n') return true;
      if (++len > kMaxHeader) fail("frame " + std::to_string(frames_) + ": frame header too long");
    }
  }

  void reset_read_ahead() override { have_marker_ = false; }

  char marker_[6] = {};
  std::size_t marker_len_ = 0;
  bool have_marker_ = false;
  std::pair<int, int> rate_;
  std::uint64_t count_;
};

class RawReader final : public FileReader {
 public:
  RawReader(std::string path, int fd, const RawFormat& raw) : FileReader(std::move(path), fd) {
    fmt_ = {raw.width, raw.height, raw.bpc, raw.chroma};
    count_ = frames_in_file(fd, 0, fmt_.frame_bytes());
    set_layout(0, 0);
  }
  std::string truncated_message() const override {
    return "truncated frame data (file size is not a multiple of the frame size)";
  }
  std::uint64_t frame_count_hint() const override { return count_; }
  void take_pending(std::string bytes) { pending_ = std::move(bytes); }
  bool read(Picture& pic) override {
    std::size_t unused = 0;
    unsigned bits = 0;
    unsigned* hot = or_while_reading() ? &bits : nullptr;
    const std::size_t got = read_frame(pic, nullptr, 0, unused, hot);
    if (got == 0) return false;
    if (got != fmt_.frame_bytes()) fail("frame " + std::to_string(frames_) + ": " + truncated_message());
    finish_check(pic, frames_, hot);
    ++frames_;
    return true;
  }

 private:
  std::uint64_t count_ = 0;
};

}  // namespace

const char* chroma_name(ChromaFormat c) {
  switch (c) {
    case ChromaFormat::k420: return "420";
    case ChromaFormat::k422: return "422";
    case ChromaFormat::k444: return "444";
    case ChromaFormat::k400: return "400";
  }
  return "?";
}

namespace {
// Calls read_at(done, n - done) (a read() or pread() of the bytes from `done`
// on) until n bytes are in or the file ends; an error other than EINTR goes
// to fail(errno), which throws. Returns the bytes read.
template <class Read, class Fail>
std::size_t read_full(std::size_t n, Read&& read_at, Fail&& fail) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t r = read_at(done, n - done);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    done += std::size_t(r);
  }
  return done;
}
}  // namespace

FileReader::~FileReader() {
  if (fd_ >= 0) ::close(fd_);
}

void FileReader::fail(const std::string& what) const { throw input_error(path_ + ": " + what); }

void FileReader::fail_io(int err) const { fail(std::string("read error: ") + std::strerror(err)); }

std::size_t FileReader::read_bytes(void* dst, std::size_t n) {
  const std::size_t done = std::min(n, pending_.size());
  std::memcpy(dst, pending_.data(), done);
  pending_.erase(0, done);
  auto* d = static_cast<char*>(dst) + done;
  return done + read_full(
                    n - done, [&](std::size_t at, std::size_t left) { return ::read(fd_, d + at, left); },
                    [this](int err) { fail_io(err); });
}

namespace {
// The bits set in any sample of a row (a plain OR vectorises on every
// target); the caller looks for the culprit only when some are out of range.
unsigned row_bits(const std::uint16_t* r, int w) {
  std::uint16_t m = 0;
  for (int x = 0; x < w; ++x) m |= r[x];
  return m;
}

std::size_t pread_full(int fd, void* dst, std::size_t n, std::uint64_t off, const std::function<void(int)>& fail) {
  auto* d = static_cast<char*>(dst);
  return read_full(
      n, [&](std::size_t at, std::size_t left) { return ::pread(fd, d + at, left, off_t(off + at)); }, fail);
}
}  // namespace

bool FileReader::or_while_reading() const {
  return fmt_.bytes_per_sample() == 2 && fmt_.bpc < 16 && std::endian::native == std::endian::little;
}

void FileReader::payload_pieces(Picture& pic, std::size_t piece, std::vector<::iovec>& out) const {
  out.clear();
  const int bps = fmt_.bytes_per_sample();
  for (int p = 0; p < fmt_.plane_count(); ++p) {
    const std::size_t row_bytes = std::size_t(fmt_.plane_width(p)) * bps;
    const int h = fmt_.plane_height(p);
    if (std::size_t(pic.stride(p)) == row_bytes) {
      auto* base = static_cast<std::uint8_t*>(pic.plane_data(p));
      const std::size_t size = row_bytes * std::size_t(h);
      for (std::size_t off = 0; off < size; off += piece) out.push_back({base + off, std::min(piece, size - off)});
    } else {
      for (int y = 0; y < h; ++y) out.push_back({pic.row<std::uint8_t>(p, y), row_bytes});
    }
  }
}

std::size_t FileReader::read_frame(Picture& pic, char* tail, std::size_t tail_bytes, std::size_t& tail_got,
                                   unsigned* bits) {
  // One iovec per plane when its rows are contiguous (the usual sizes),
  // otherwise one per row; then the tail. With `bits` a plane is cut into
  // pieces of kHotBytes (an even count: whole samples), and each read takes
  // pieces of at most kHotBytes together, so the pieces it completes are
  // still in cache for the OR.
  payload_pieces(pic, bits ? kHotBytes : ~std::size_t(0), iov_);
  const std::size_t n_payload = iov_.size();
  if (tail_bytes) iov_.push_back({tail, tail_bytes});
  if (bits) pieces_ = iov_;
  // A payload iovec read whole: its samples OR-ed (pieces hold whole samples).
  const auto completed = [&](std::size_t i) {
    if (bits && i < n_payload)
      *bits |= row_bits(static_cast<const std::uint16_t*>(pieces_[i].iov_base), int(pieces_[i].iov_len / 2));
  };
  const std::size_t payload = fmt_.frame_bytes();
  std::size_t total = 0;
  std::size_t first = 0;  // first iovec not yet complete
  // Bytes read ahead earlier go first.
  while (!pending_.empty() && first < iov_.size()) {
    const std::size_t n = std::min(pending_.size(), iov_[first].iov_len);
    std::memcpy(iov_[first].iov_base, pending_.data(), n);
    pending_.erase(0, n);
    total += n;
    iov_[first].iov_base = static_cast<char*>(iov_[first].iov_base) + n;
    iov_[first].iov_len -= n;
    if (iov_[first].iov_len == 0) completed(first++);
  }
  while (first < iov_.size()) {
    std::size_t n = std::min<std::size_t>(iov_.size() - first, IOV_MAX);
    if (bits) {  // the iovecs that fit in kHotBytes, at least one
      std::size_t bytes = iov_[first].iov_len, k = 1;
      while (k < n && bytes + iov_[first + k].iov_len <= kHotBytes) bytes += iov_[first + k++].iov_len;
      n = k;
    }
    const ssize_t r = ::readv(fd_, iov_.data() + first, int(n));
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      fail_io(errno);
    }
    total += std::size_t(r);
    std::size_t left = std::size_t(r);
    while (first < iov_.size() && left >= iov_[first].iov_len) {
      left -= iov_[first].iov_len;
      completed(first++);
    }
    if (left) {
      iov_[first].iov_base = static_cast<char*>(iov_[first].iov_base) + left;
      iov_[first].iov_len -= left;
    }
  }
  tail_got = total > payload ? total - payload : 0;
  return std::min(total, payload);
}

void FileReader::check_samples(Picture& pic, std::uint64_t index) const {
  if (fmt_.bytes_per_sample() != 2) return;
  // Samples are little-endian in files; check range so that a 10-bit clip
  // with garbage high bits is reported, not scored.
  const unsigned maxv = (1u << fmt_.bpc) - 1;
  for (int p = 0; p < fmt_.plane_count(); ++p) {
    const int w = fmt_.plane_width(p), h = fmt_.plane_height(p);
    // Rows without padding are checked as one run.
    const bool packed = std::size_t(pic.stride(p)) == std::size_t(w) * 2;
    const int runs = packed ? 1 : h;
    const int run_w = packed ? w * h : w;
    for (int y = 0; y < runs; ++y) {
      std::uint16_t* r = pic.row<std::uint16_t>(p, y);
      if constexpr (std::endian::native == std::endian::big)
        for (int x = 0; x < run_w; ++x) r[x] = std::uint16_t((r[x] >> 8) | (r[x] << 8));
      if (fmt_.bpc == 16 || row_bits(r, run_w) <= maxv) continue;
      for (int x = 0; x < run_w; ++x)
        if (r[x] > maxv)
          fail("frame " + std::to_string(index) + ": sample value " + std::to_string(r[x]) + " exceeds " +
               std::to_string(fmt_.bpc) + "-bit range");
    }
  }
}

void FileReader::set_layout(std::uint64_t data_offset, std::size_t marker) {
  struct stat st;
  positional_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
  data_offset_ = data_offset;
  marker_ = marker;
}

VideoReader::At FileReader::read_at(std::uint64_t index, Picture& pic) const {
  if (!positional_) return At::kIrregular;
  const auto io_fail = [this](int err) { fail_io(err); };
  const std::string frame = "frame " + std::to_string(index);
  std::uint64_t off = data_offset_ + index * (marker_ + fmt_.frame_bytes());
  if (marker_) {
    // The checks of Y4mReader::frame_header, for a frame at its fixed place.
    char m[6];
    const std::size_t n = pread_full(fd_, m, sizeof m, off, io_fail);
    if (n == 0) return At::kEnd;
    if (n < 5 || std::memcmp(m, "FRAME", 5) != 0)
      fail(frame + ": missing FRAME marker" + (n < 5 ? " (truncated)" : ""));
    if (n == 5) fail(frame + ": truncated frame header");
    if (m[5] != '\n') return At::kIrregular;
    off += sizeof m;
  }
  // Positional reads of the payload's pieces (payload_pieces: at most
  // kHotBytes, or a row); a short read means the file ends inside this
  // frame. Samples of 9 to 15 bits are OR-ed while the bytes just read are
  // still in cache (a second pass over a 4K frame runs from memory and
  // halved the 10-bit read rate); only a frame with a stray bit is scanned
  // again, by check_samples, for the first culprit. The truncation is
  // reported before any sample, as the sequential path does. The piece list
  // is per thread: several readers call this at once.
  const bool hot = or_while_reading();
  unsigned bits = 0;
  std::size_t got = 0;
  thread_local std::vector<::iovec> pieces;
  payload_pieces(pic, kHotBytes, pieces);
  for (const ::iovec& piece : pieces) {
    const std::size_t r = pread_full(fd_, piece.iov_base, piece.iov_len, off + got, io_fail);
    if (hot) bits |= row_bits(static_cast<const std::uint16_t*>(piece.iov_base), int(r / 2));
    got += r;
    if (r < piece.iov_len) break;
  }
  if (got == 0 && !marker_) return At::kEnd;
  if (got != fmt_.frame_bytes()) fail(frame + ": " + truncated_message());
  finish_check(pic, index, hot ? &bits : nullptr);
  return At::kFrame;
}

void FileReader::resume_at(std::uint64_t index) {
  if (!positional_) return;
  const std::uint64_t off = data_offset_ + index * (marker_ + fmt_.frame_bytes());
  if (::lseek(fd_, off_t(off), SEEK_SET) < 0) fail_io(errno);
  pending_.clear();
  reset_read_ahead();
  frames_ = unsigned(index);
}

PictureFormat parse_y4m_header(const std::string& fields, const std::string& path) {
  PictureFormat fmt;
  fmt.width = fmt.height = -1;
  bool have_c = false;
  std::istringstream in(fields);
  std::string tok;
  while (in >> tok) {
    const char key = tok[0];
    std::string_view val(tok.data() + 1, tok.size() - 1);
    switch (key) {
      case 'W':
        if (!parse_int(val, fmt.width) || fmt.width <= 0 || fmt.width > kMaxDimension)
          throw input_error(path + ": bad Y4M width '" + std::string(val) + "'");
        break;
      case 'H':
        if (!parse_int(val, fmt.height) || fmt.height <= 0 || fmt.height > kMaxDimension)
          throw input_error(path + ": bad Y4M height '" + std::string(val) + "'");
        break;
      case 'C':
        if (!parse_colorspace(val, fmt.chroma, fmt.bpc))
          throw input_error(path + ": unsupported Y4M colour space 'C" + std::string(val) + "'");
        have_c = true;
        break;
      case 'F':
      case 'I':
      case 'A':
      case 'X': break;  // frame rate, interlacing, aspect, comments: no effect on scores
      default: throw input_error(path + ": unknown Y4M header field '" + tok + "'");
    }
  }
  if (fmt.width < 0) throw input_error(path + ": Y4M header has no width (W)");
  if (fmt.height < 0) throw input_error(path + ": Y4M header has no height (H)");
  check_area(path, fmt.width, fmt.height);
  if (!have_c) {
    fmt.chroma = ChromaFormat::k420;  // the Y4M default
    fmt.bpc = 8;
  }
  return fmt;
}

std::unique_ptr<VideoReader> open_video(const std::string& path, const std::optional<RawFormat>& raw,
                                        const OpenOptions& opts) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw input_error(path + ": is a directory, not a clip");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw input_error(path + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    bool armed = true;
    ~Closer() {
      if (armed) ::close(fd);
    }
  } closer{fd};
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  auto read_some = [&](char* dst, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t r = ::read(fd, dst + done, n - done);
      if (r == 0) break;
      if (r < 0) {
        if (errno == EINTR) continue;
        throw input_error(path + ": read error: " + std::strerror(errno));
      }
      done += std::size_t(r);
    }
    return done;
  };
  char magic[10];
  const std::size_t n = read_some(magic, sizeof magic);
  if (n == sizeof magic && std::memcmp(magic, "YUV4MPEG2 ", sizeof magic) == 0) {
    std::string header;
    for (;;) {
      char c;
      if (read_some(&c, 1) != 1) throw input_error(path + ": truncated Y4M header");
      if (c == '\n') break;
      header.push_back(c);
      if (header.size() > kMaxHeader) throw input_error(path + ": Y4M header too long");
    }
    const PictureFormat fmt = parse_y4m_header(header, path);
    const std::uint64_t count = frames_in_file(fd, sizeof magic + header.size() + 1, 6 + fmt.frame_bytes());
    closer.armed = false;  // the reader owns fd from here
    return std::make_unique<Y4mReader>(path, fd, fmt, y4m_rate(header), count, sizeof magic + header.size() + 1);
  }
  // Not Y4M: read a little more, to recognize a container by its content.
  // The bytes read go on to whichever reader takes the file (pipes cannot seek).
  std::string head(magic, n);
  if (n == sizeof magic) {
    head.resize(kProbeBytes);
    head.resize(n + read_some(head.data() + n, kProbeBytes - n));
  }
  if (n >= 4 && std::memcmp(magic, "YUV4", 4) == 0) throw input_error(path + ": bad Y4M signature");
#ifdef VMAFX_HAVE_LIBAV
  // A raw clip is never probed as a container unless the evidence is strong
  // (a container signature, or an elementary stream's headers); without -w
  // -h -p -b anything FFmpeg recognizes more than vaguely is tried.
  // FFmpeg's libraries are loaded for that only where the first bytes could
  // be one (raw YUV runs load none: io/ffmpeg_dl.hpp).
  if ((!raw || may_be_compressed(head)) && libav_probe_score(head, path) > (raw ? 50 : 25)) {
    closer.armed = false;  // open_libav owns fd from here
    return open_libav(path, fd, std::move(head), opts);
  }
#else
  (void)opts;
  if (const char* what = compressed_signature(head))
    throw unsupported_error(path + ": looks like " + std::string(what) +
                            " file; this vmaf was built without FFmpeg's libraries (libavformat, libavcodec), "
                            "so it reads only Y4M and raw YUV");
#endif
  if (!raw) throw input_error(path + ": not a Y4M file; raw YUV input needs -w, -h, -p and -b");
  if (raw->width <= 0 || raw->height <= 0 || raw->width > kMaxDimension || raw->height > kMaxDimension)
    throw input_error(path + ": bad raw frame size " + std::to_string(raw->width) + "x" + std::to_string(raw->height));
  // The CLI checks these too; a library caller may not (a Picture holds 8 to
  // 16 bits, and the range check shifts by the depth).
  if (raw->bpc < 8 || raw->bpc > 16)
    throw input_error(path + ": bad raw bit depth " + std::to_string(raw->bpc) + " (8 to 16)");
  if (raw->chroma != ChromaFormat::k420 && raw->chroma != ChromaFormat::k422 && raw->chroma != ChromaFormat::k444 &&
      raw->chroma != ChromaFormat::k400)
    throw input_error(path + ": bad raw chroma format " + std::to_string(int(raw->chroma)));
  check_area(path, raw->width, raw->height);
  closer.armed = false;
  auto r = std::make_unique<RawReader>(path, fd, *raw);
  r->take_pending(std::move(head));  // the bytes read above start its first frame
  return r;
}

}  // namespace vmafx
