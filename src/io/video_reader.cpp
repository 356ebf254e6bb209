#include "io/video_reader.hpp"

#include <cerrno>
#include <charconv>
#include <bit>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "core/error.hpp"

namespace vmafx {

namespace {

constexpr std::size_t kMaxHeader = 4096;
constexpr int kMaxDimension = 1 << 15;  // 32768 a side
// At most 2^26 luma samples (8192x8192; 8K UHD is 7680x4320): the engine keeps
// a few pictures per thread, so this bounds memory whatever a header claims.
constexpr long long kMaxSamples = 1LL << 26;

void check_area(const std::string& path, int w, int h) {
  if (static_cast<long long>(w) * h > kMaxSamples)
    throw Error(path + ": frame size " + std::to_string(w) + "x" + std::to_string(h) +
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
      {"420jpeg", ChromaFormat::k420, 8},  {"420mpeg2", ChromaFormat::k420, 8},
      {"420paldv", ChromaFormat::k420, 8}, {"420", ChromaFormat::k420, 8},
      {"422", ChromaFormat::k422, 8},      {"444", ChromaFormat::k444, 8},
      {"mono", ChromaFormat::k400, 8},     {"420p9", ChromaFormat::k420, 9},
      {"422p9", ChromaFormat::k422, 9},    {"444p9", ChromaFormat::k444, 9},
      {"420p10", ChromaFormat::k420, 10},  {"422p10", ChromaFormat::k422, 10},
      {"444p10", ChromaFormat::k444, 10},  {"420p12", ChromaFormat::k420, 12},
      {"422p12", ChromaFormat::k422, 12},  {"444p12", ChromaFormat::k444, 12},
      {"420p14", ChromaFormat::k420, 14},  {"422p14", ChromaFormat::k422, 14},
      {"444p14", ChromaFormat::k444, 14},  {"420p16", ChromaFormat::k420, 16},
      {"422p16", ChromaFormat::k422, 16},  {"444p16", ChromaFormat::k444, 16},
      {"mono10", ChromaFormat::k400, 10},  {"mono12", ChromaFormat::k400, 12},
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

class Y4mReader final : public VideoReader {
 public:
  Y4mReader(std::string path, std::FILE* f, const std::string& header)
      : VideoReader(std::move(path), f) {
    fmt_ = parse_y4m_header(header, path_);
  }
  bool read(Picture& pic) override {
    // "FRAME" [params] '\n'
    char magic[5];
    std::size_t n = std::fread(magic, 1, 5, file_.get());
    if (n == 0 && std::feof(file_.get())) return false;
    if (n != 5 || std::memcmp(magic, "FRAME", 5) != 0)
      fail("frame " + std::to_string(frames_) + ": missing FRAME marker" +
           (n != 5 ? " (truncated)" : ""));
    std::size_t len = 0;
    for (;;) {
      int c = std::fgetc(file_.get());
      if (c == EOF) fail("frame " + std::to_string(frames_) + ": truncated frame header");
      if (c == '\n') break;
      if (++len > kMaxHeader) fail("frame " + std::to_string(frames_) + ": frame header too long");
    }
    if (!read_payload(pic)) fail("frame " + std::to_string(frames_) + ": truncated frame data");
    return true;
  }
};

class RawReader final : public VideoReader {
 public:
  RawReader(std::string path, std::FILE* f, const RawFormat& raw) : VideoReader(std::move(path), f) {
    fmt_ = {raw.width, raw.height, raw.bpc, raw.chroma};
  }
  bool read(Picture& pic) override {
    int c = std::fgetc(file_.get());
    if (c == EOF) return false;
    std::ungetc(c, file_.get());
    if (!read_payload(pic))
      fail("frame " + std::to_string(frames_) + ": truncated frame data (file size is not a multiple of the frame size)");
    return true;
  }
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

void VideoReader::fail(const std::string& what) const { throw Error(path_ + ": " + what); }

bool VideoReader::read_payload(Picture& pic) {
  const int bps = fmt_.bytes_per_sample();
  for (int p = 0; p < fmt_.plane_count(); ++p) {
    const std::size_t row_bytes = std::size_t(fmt_.plane_width(p)) * bps;
    for (int y = 0, h = fmt_.plane_height(p); y < h; ++y) {
      if (std::fread(pic.row<std::uint8_t>(p, y), 1, row_bytes, file_.get()) != row_bytes) return false;
    }
  }
  if (bps == 2) {
    // Samples are little-endian in files; check range so that a 10-bit clip
    // with garbage high bits is reported, not scored.
    const unsigned maxv = (1u << fmt_.bpc) - 1;
    for (int p = 0; p < fmt_.plane_count(); ++p) {
      for (int y = 0, h = fmt_.plane_height(p); y < h; ++y) {
        std::uint16_t* r = pic.row<std::uint16_t>(p, y);
        for (int x = 0, w = fmt_.plane_width(p); x < w; ++x) {
          if constexpr (std::endian::native == std::endian::big) r[x] = std::uint16_t((r[x] >> 8) | (r[x] << 8));
          if (r[x] > maxv)
            fail("frame " + std::to_string(frames_) + ": sample value " + std::to_string(r[x]) +
                 " exceeds " + std::to_string(fmt_.bpc) + "-bit range");
        }
      }
    }
  }
  ++frames_;
  return true;
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
          throw Error(path + ": bad Y4M width '" + std::string(val) + "'");
        break;
      case 'H':
        if (!parse_int(val, fmt.height) || fmt.height <= 0 || fmt.height > kMaxDimension)
          throw Error(path + ": bad Y4M height '" + std::string(val) + "'");
        break;
      case 'C':
        if (!parse_colorspace(val, fmt.chroma, fmt.bpc))
          throw Error(path + ": unsupported Y4M colour space 'C" + std::string(val) + "'");
        have_c = true;
        break;
      case 'F': case 'I': case 'A': case 'X':
        break;  // frame rate, interlacing, aspect, comments: no effect on scores
      default:
        throw Error(path + ": unknown Y4M header field '" + tok + "'");
    }
  }
  if (fmt.width < 0) throw Error(path + ": Y4M header has no width (W)");
  if (fmt.height < 0) throw Error(path + ": Y4M header has no height (H)");
  check_area(path, fmt.width, fmt.height);
  if (!have_c) {
    fmt.chroma = ChromaFormat::k420;  // the Y4M default
    fmt.bpc = 8;
  }
  return fmt;
}

std::unique_ptr<VideoReader> open_video(const std::string& path, const std::optional<RawFormat>& raw) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(path + ": is a directory, not a clip");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Error(path + ": cannot open: " + std::strerror(errno));
  char magic[10];
  std::size_t n = std::fread(magic, 1, sizeof magic, f);
  if (n == sizeof magic && std::memcmp(magic, "YUV4MPEG2 ", sizeof magic) == 0) {
    std::string header;
    for (;;) {
      int c = std::fgetc(f);
      if (c == EOF) {
        std::fclose(f);
        throw Error(path + ": truncated Y4M header");
      }
      if (c == '\n') break;
      header.push_back(char(c));
      if (header.size() > kMaxHeader) {
        std::fclose(f);
        throw Error(path + ": Y4M header too long");
      }
    }
    try {
      auto r = std::make_unique<Y4mReader>(path, f, header);
      return r;
    } catch (...) {
      // Y4mReader owns f only once constructed; parse errors come from its ctor.
      throw;
    }
  }
  if (!raw) {
    std::fclose(f);
    if (n >= 4 && std::memcmp(magic, "YUV4", 4) == 0)
      throw Error(path + ": bad Y4M signature");
    throw Error(path + ": not a Y4M file; raw YUV input needs -w, -h, -p and -b");
  }
  std::rewind(f);
  if (raw->width <= 0 || raw->height <= 0 || raw->width > kMaxDimension || raw->height > kMaxDimension) {
    std::fclose(f);
    throw Error(path + ": bad raw frame size " + std::to_string(raw->width) + "x" + std::to_string(raw->height));
  }
  try {
    check_area(path, raw->width, raw->height);
  } catch (...) {
    std::fclose(f);
    throw;
  }
  return std::make_unique<RawReader>(path, f, *raw);
}

}  // namespace vmafx
