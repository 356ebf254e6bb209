// SPDX-License-Identifier: BSD-3-Clause
// Renditions of another format (size, bit depth, chroma format) converted to
// the reference's format by FFmpeg's libswscale, set up as FFmpeg's scale
// filter sets it up, so that the frames scored are the very frames of
// `ffmpeg -i DIS -vf scale=W:H:flags=F -pix_fmt P` (docs/input.md).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "backend/backends.hpp"
#include "core/env.hpp"
#include "core/error.hpp"
#include "core/scale_exact.hpp"
#include "io/ffmpeg_dl.hpp"
#include "io/scale_default.hpp"
#include "vmaf_exact/input.hpp"

#if VMAFX_HAVE_SWSCALE
extern "C" {
#include <libavutil/cpu.h>
#include <libavutil/opt.h>
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>
}
#endif

namespace vmafx {

const char* default_scale_flags() { return kDefaultScaleFlags; }

#if VMAFX_HAVE_SWSCALE
namespace {

// The planar pixel format of a picture format, or AV_PIX_FMT_NONE.
AVPixelFormat pix_fmt_of(const PictureFormat& f) {
  struct Row {
    int bpc;
    AVPixelFormat fmt[4];  // 420, 422, 444, 400
  };
  static constexpr Row kRows[] = {
      {8, {AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P, AV_PIX_FMT_GRAY8}},
      {9, {AV_PIX_FMT_YUV420P9LE, AV_PIX_FMT_YUV422P9LE, AV_PIX_FMT_YUV444P9LE, AV_PIX_FMT_GRAY9LE}},
      {10, {AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV444P10LE, AV_PIX_FMT_GRAY10LE}},
      {12, {AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV444P12LE, AV_PIX_FMT_GRAY12LE}},
      {14, {AV_PIX_FMT_YUV420P14LE, AV_PIX_FMT_YUV422P14LE, AV_PIX_FMT_YUV444P14LE, AV_PIX_FMT_GRAY14LE}},
      {16, {AV_PIX_FMT_YUV420P16LE, AV_PIX_FMT_YUV422P16LE, AV_PIX_FMT_YUV444P16LE, AV_PIX_FMT_GRAY16LE}},
  };
  for (const Row& r : kRows)
    if (r.bpc == f.bpc) return r.fmt[static_cast<int>(f.chroma)];
  return AV_PIX_FMT_NONE;
}

struct SwsFree {
  void operator()(SwsContext* c) const { sws_freeContext(c); }
};

std::string describe(const PictureFormat& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + chroma_name(f.chroma) + " " +
         std::to_string(f.bpc) + "-bit";
}

class ScaledReader final : public VideoReader {
 public:
  ScaledReader(std::unique_ptr<VideoReader> inner, const PictureFormat& target, const std::string& flags)
      : VideoReader(inner->path()), inner_(std::move(inner)), src_(inner_->format()) {
    fmt_ = target;
    const AVPixelFormat in = pix_fmt_of(src_), out = pix_fmt_of(target);
    if (in == AV_PIX_FMT_NONE)
      throw input_error(path_ + ": cannot scale a " + std::to_string(src_.bpc) +
                        "-bit clip (libswscale has 8, 9, 10, 12, 14 and 16 bit)");
    if (out == AV_PIX_FMT_NONE)
      throw input_error(path_ + ": cannot scale to the reference's " + std::to_string(target.bpc) +
                        "-bit format (libswscale has 8, 9, 10, 12, 14 and 16 bit)");
    sws_.reset(sws_alloc_context());
    if (!sws_) throw Error("out of memory (libswscale context)");
    SwsContext* s = sws_.get();
    // As FFmpeg 5.1's scale filter (progressive frames): sizes, formats,
    // the flags, default parameters, and MPEG-2 chroma siting (vertical
    // position 128) on 8-bit 4:2:0 sides; every other side keeps
    // libswscale's own default siting.
    av_opt_set_int(s, "srcw", src_.width, 0);
    av_opt_set_int(s, "srch", src_.height, 0);
    av_opt_set_int(s, "src_format", in, 0);
    av_opt_set_int(s, "dstw", target.width, 0);
    av_opt_set_int(s, "dsth", target.height, 0);
    av_opt_set_int(s, "dst_format", out, 0);
    if (av_opt_set(s, "sws_flags", flags.c_str(), 0) < 0)
      throw Error("--scale " + flags + ": not a libswscale flags string (e.g. bicubic, lanczos, bicubic+accurate_rnd)",
                  Error::Kind::kUsage);
    av_opt_set_int(s, "src_h_chr_pos", -513, 0);
    av_opt_set_int(s, "src_v_chr_pos", in == AV_PIX_FMT_YUV420P ? 128 : -513, 0);
    av_opt_set_int(s, "dst_h_chr_pos", -513, 0);
    av_opt_set_int(s, "dst_v_chr_pos", out == AV_PIX_FMT_YUV420P ? 128 : -513, 0);
    // VMAFX_SIMD=off: libswscale's plain C paths too (they choose at set-up).
    if (!env::simd_allowed()) av_force_cpu_flags(0);
    if (sws_init_context(s, nullptr, nullptr) < 0)
      throw input_error(path_ + ": libswscale cannot convert " + describe(src_) + " to " + describe(target) +
                        " with flags " + flags);
    tmp_ = Picture(src_);
    // The default flags have an exact twin (core/scale_exact.hpp) that
    // scales frames a GPU decoded without leaving the GPU
    // (use_device_importer); other flags, and pairs the twin does not
    // reproduce, are libswscale's alone.
    if (flags == kDefaultScaleFlags) {
      try {
        plan_ = std::make_unique<sws::Plan>(src_, target);
      } catch (const Error&) {
        plan_.reset();
      }
    }
  }

  // Frames the inner reader decodes on `importer`'s CUDA device stay there:
  // the exact scaler's CUDA twin converts them device to device (the same
  // samples as libswscale, tests/scale), and the scored picture gets the
  // result as its device copy.
  bool use_device_importer(DeviceImporter* importer) override {
    if (!importer || !plan_ || importer->cuda_device() < 0) return false;
    auto scaler = create_scaler("cuda", importer->cuda_device(), *plan_);
    if (!inner_->use_device_importer(importer)) return false;
    device_ = std::move(scaler);
    return true;
  }

  bool read(Picture& pic) override {
    if (!inner_->read(tmp_)) return false;
    frames_ = inner_->frames_read();
    if (device_ && tmp_.device_copy()) {
      device_->scale(tmp_, pic);
      ++device_frames_;
      return true;
    }
    const std::uint8_t* in[4] = {};
    int in_stride[4] = {};
    std::uint8_t* out[4] = {};
    int out_stride[4] = {};
    for (int p = 0; p < src_.plane_count(); ++p) {
      in[p] = tmp_.plane(p).data;
      in_stride[p] = static_cast<int>(tmp_.stride(p));
    }
    for (int p = 0; p < fmt_.plane_count(); ++p) {
      out[p] = pic.plane_data(p);
      out_stride[p] = static_cast<int>(pic.stride(p));
    }
    pic.clear_device_copy();
    if (sws_scale(sws_.get(), in, in_stride, 0, src_.height, out, out_stride) != fmt_.height)
      throw input_error(path_ + ": frame " + std::to_string(frames_ - 1) + ": libswscale failed to convert it");
    // A gray rendition of a reference with chroma cannot happen (the formats
    // are checked), so every plane of the target is written above.
    return true;
  }
  ~ScaledReader() override {
    if (env::stats() && device_frames_ > 0)
      std::fprintf(stderr, "%s: %u of %u frames scaled on the GPU (the default scaler's CUDA twin)\n", path_.c_str(),
                   device_frames_, frames_);
  }

  bool skip(Picture&) override {
    const bool got = inner_->skip(tmp_);
    frames_ = inner_->frames_read();
    return got;
  }
  bool decode_only(Picture&) override {
    const bool got = inner_->decode_only(tmp_);
    frames_ = inner_->frames_read();
    return got;
  }
  PictureFormat source_format() const override { return src_; }
  std::optional<Timestamp> timestamp() const override { return inner_->timestamp(); }
  std::uint64_t frame_count_hint() const override { return inner_->frame_count_hint(); }
  std::string decode_report() const override { return inner_->decode_report(); }
  std::string format_name() const override { return inner_->format_name(); }
  bool full_range() const override { return inner_->full_range(); }
  std::string notice() const override { return inner_->notice(); }

 private:
  std::unique_ptr<VideoReader> inner_;
  PictureFormat src_;
  std::unique_ptr<SwsContext, SwsFree> sws_;
  Picture tmp_;
  std::unique_ptr<sws::Plan> plan_;            // the default flags' exact twin, when it applies
  std::unique_ptr<sws::DeviceScaler> device_;  // its CUDA scaler, once frames stay on the GPU
  unsigned device_frames_ = 0;                 // frames it scaled (VMAFX_STATS=1 prints the count)
};

}  // namespace

bool scaling_supported() { return true; }

std::string scaling_versions() {
  try {
    ffmpeg_require("FFmpeg");
  } catch (const Error& e) {
    return e.what();
  }
  const unsigned v = swscale_version();
  return "libswscale " + std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff) + "." +
         std::to_string(v & 0xff);
}

std::unique_ptr<VideoReader> scale_video(std::unique_ptr<VideoReader> inner, const PictureFormat& target,
                                         const std::string& flags) {
  ffmpeg_require(inner->path());
  return std::make_unique<ScaledReader>(std::move(inner), target, flags);
}

#else

bool scaling_supported() { return false; }
std::string scaling_versions() { return {}; }

std::unique_ptr<VideoReader> scale_video(std::unique_ptr<VideoReader> inner, const PictureFormat&, const std::string&) {
  throw input_error(inner->path() +
                    ": has another size or format than the reference, and this vmaf was built without FFmpeg's "
                    "libswscale, so it cannot scale (apt-get install libswscale-dev and rebuild)");
}

#endif

}  // namespace vmafx

namespace vmafx {

std::string describe_video(const VideoReader& r) {
  const PictureFormat f = r.source_format();
  std::string d = std::to_string(f.width) + "x" + std::to_string(f.height) + " " + chroma_name(f.chroma) + " " +
                  std::to_string(f.bpc) + "-bit";
  if (const std::string n = r.format_name(); !n.empty())
    d += " (" + n + ")";
  else if (r.full_range())
    d += " full range";
  return d;
}

std::unique_ptr<VideoReader> open_rendition(const std::string& path, const VideoReader& ref,
                                            const std::optional<RawFormat>& raw, const OpenOptions& opts,
                                            const std::string& scale_flags, std::string* notice) {
  auto dis = open_video(path, raw, opts);
  const PictureFormat& rf = ref.format();
  const PictureFormat df = dis->format();
  const bool same = df == rf;
  if (dis->full_range() != ref.full_range() || (!same && !scaling_supported()) ||
      (!same && (rf.chroma == ChromaFormat::k400) != (df.chroma == ChromaFormat::k400)))
    throw Error("videos are incompatible: " + ref.path() + " is " + describe_video(ref) + ", " + path + " is " +
                describe_video(*dis) +
                (!same && !scaling_supported() ? " (this vmaf was built without FFmpeg's libswscale: it cannot "
                                                 "convert)"
                                               : ""));
  if (same) return dis;
  const std::string flags = scale_flags.empty() ? default_scale_flags() : scale_flags;
  if (notice) {
    *notice = path + ": " + describe_video(*dis) + " converted to " + std::to_string(rf.width) + "x" +
              std::to_string(rf.height) + " " + chroma_name(rf.chroma) + " " + std::to_string(rf.bpc) +
              "-bit by libswscale (" + flags + ")";
    // Aspect ratios differ by more than rounding to whole samples.
    const long long a = 1LL * df.width * rf.height, b = 1LL * rf.width * df.height;
    if (std::llabs(a - b) > std::max<long long>(rf.height, df.height))
      *notice += "; its aspect ratio differs from the reference's (" + std::to_string(df.width) + ":" +
                 std::to_string(df.height) + " against " + std::to_string(rf.width) + ":" + std::to_string(rf.height) +
                 "), stretched as ffmpeg's scale filter does";
  }
  return scale_video(std::move(dis), rf, flags);
}

}  // namespace vmafx
