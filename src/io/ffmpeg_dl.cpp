// SPDX-License-Identifier: BSD-3-Clause
// FFmpeg's libraries loaded on first use (io/ffmpeg_dl.hpp says why). Each
// FFmpeg function the project calls is defined here with the signature of
// FFmpeg's own header (its parameter types are read off the declaration, so
// only the count is written down, and a wrong count does not compile); the
// definition looks the real function up once and calls it. The file is built
// with hidden visibility: the forwarders never leave the binary or
// libvmaf.so.3, so a program that links FFmpeg itself keeps its own.
#if VMAFX_FFMPEG_DLOPEN

#include "io/ffmpeg_dl.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <tuple>

#include "core/error.hpp"

extern "C" {
#include <libavutil/avutil.h>
#include <libavutil/buffer.h>
#include <libavutil/cpu.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#if VMAFX_HAVE_LIBAV
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#endif
#if VMAFX_HAVE_SWSCALE
#include <libswscale/swscale.h>
#endif
}

namespace vmafx {
namespace {

enum Lib { kUtil, kCodec, kFormat, kScale, kLibs };

// The sonames the build was configured with (src/CMakeLists.txt).
constexpr const char* kSoname[kLibs] = {VMAFX_SONAME_AVUTIL,
#if VMAFX_HAVE_LIBAV
                                        VMAFX_SONAME_AVCODEC, VMAFX_SONAME_AVFORMAT,
#else
                                        nullptr, nullptr,
#endif
#if VMAFX_HAVE_SWSCALE
                                        VMAFX_SONAME_SWSCALE
#else
                                        nullptr
#endif
};

// X(library, function, number of parameters): every FFmpeg function called
// by io/libav_reader.cpp, io/scale.cpp and output/html_report.cpp.
#define VMAFX_FFMPEG_UTIL(X)            \
  X(kUtil, av_buffer_ref, 1)            \
  X(kUtil, av_buffer_unref, 1)          \
  X(kUtil, av_dict_free, 1)             \
  X(kUtil, av_dict_set, 4)              \
  X(kUtil, av_force_cpu_flags, 1)       \
  X(kUtil, av_frame_alloc, 0)           \
  X(kUtil, av_frame_copy_props, 2)      \
  X(kUtil, av_frame_free, 1)            \
  X(kUtil, av_frame_get_buffer, 2)      \
  X(kUtil, av_frame_move_ref, 2)        \
  X(kUtil, av_frame_unref, 1)           \
  X(kUtil, av_free, 1)                  \
  X(kUtil, av_freep, 1)                 \
  X(kUtil, av_get_pix_fmt_name, 1)      \
  X(kUtil, av_hwdevice_ctx_create, 5)   \
  X(kUtil, av_hwframe_ctx_alloc, 1)     \
  X(kUtil, av_hwframe_ctx_init, 1)      \
  X(kUtil, av_hwframe_get_buffer, 3)    \
  X(kUtil, av_hwframe_transfer_data, 3) \
  X(kUtil, av_log_set_level, 1)         \
  X(kUtil, av_malloc, 1)                \
  X(kUtil, av_opt_set, 4)               \
  X(kUtil, av_opt_set_double, 4)        \
  X(kUtil, av_opt_set_int, 4)           \
  X(kUtil, av_pix_fmt_desc_get, 1)      \
  X(kUtil, av_strerror, 3)              \
  X(kUtil, avutil_version, 0)

#if VMAFX_HAVE_LIBAV
#define VMAFX_FFMPEG_DECODE(X)                \
  X(kCodec, av_packet_alloc, 0)               \
  X(kCodec, av_packet_clone, 1)               \
  X(kCodec, av_packet_free, 1)                \
  X(kCodec, av_packet_move_ref, 2)            \
  X(kCodec, av_packet_unref, 1)               \
  X(kCodec, avcodec_alloc_context3, 1)        \
  X(kCodec, avcodec_find_decoder, 1)          \
  X(kCodec, avcodec_find_decoder_by_name, 1)  \
  X(kCodec, avcodec_find_encoder, 1)          \
  X(kCodec, avcodec_find_encoder_by_name, 1)  \
  X(kCodec, avcodec_flush_buffers, 1)         \
  X(kCodec, avcodec_free_context, 1)          \
  X(kCodec, avcodec_get_hw_config, 2)         \
  X(kCodec, avcodec_get_name, 1)              \
  X(kCodec, avcodec_open2, 3)                 \
  X(kCodec, avcodec_parameters_to_context, 2) \
  X(kCodec, avcodec_receive_frame, 2)         \
  X(kCodec, avcodec_receive_packet, 2)        \
  X(kCodec, avcodec_send_frame, 2)            \
  X(kCodec, avcodec_send_packet, 2)           \
  X(kCodec, avcodec_version, 0)               \
  X(kFormat, av_probe_input_format3, 3)       \
  X(kFormat, av_read_frame, 2)                \
  X(kFormat, avformat_alloc_context, 0)       \
  X(kFormat, avformat_close_input, 1)         \
  X(kFormat, avformat_find_stream_info, 2)    \
  X(kFormat, avformat_open_input, 4)          \
  X(kFormat, avformat_version, 0)             \
  X(kFormat, avio_alloc_context, 7)           \
  X(kFormat, avio_context_free, 1)
#else
#define VMAFX_FFMPEG_DECODE(X)
#endif

#if VMAFX_HAVE_SWSCALE
#define VMAFX_FFMPEG_SCALE(X)     \
  X(kScale, sws_alloc_context, 0) \
  X(kScale, sws_freeContext, 1)   \
  X(kScale, sws_init_context, 3)  \
  X(kScale, sws_scale, 7)         \
  X(kScale, swscale_version, 0)
#else
#define VMAFX_FFMPEG_SCALE(X)
#endif

#define VMAFX_FFMPEG_ALL(X) VMAFX_FFMPEG_UTIL(X) VMAFX_FFMPEG_DECODE(X) VMAFX_FFMPEG_SCALE(X)

struct Loaded {
  void* handle[kLibs] = {};
  int failed = -1;                // the library that failed to load or lacks a function; -1: none
  std::string why;                // dlerror()'s words when it failed to load
  const char* missing = nullptr;  // the first listed function it lacks
};

// Loads every configured library, then looks every listed function up.
Loaded load() {
  Loaded l;
  for (int i = 0; i < kLibs; ++i) {
    if (!kSoname[i]) continue;
    l.handle[i] = ::dlopen(kSoname[i], RTLD_NOW | RTLD_LOCAL);
    if (!l.handle[i]) {
      const char* why = ::dlerror();
      l.failed = i;
      l.why = why ? why : "not found";
      return l;
    }
  }
#define VMAFX_FFMPEG_CHECK(lib, f, n)                \
  if (l.failed < 0 && !::dlsym(l.handle[lib], #f)) { \
    l.failed = lib;                                  \
    l.missing = #f;                                  \
  }
  VMAFX_FFMPEG_ALL(VMAFX_FFMPEG_CHECK)
#undef VMAFX_FFMPEG_CHECK
  return l;
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

// One function's address; a failure here is a call without ffmpeg_require()
// first (a test calling FFmpeg itself, say), so there is no caller to tell.
void* symbol(Lib lib, const char* name) {
  const Loaded& l = loaded();
  void* p = l.handle[lib] ? ::dlsym(l.handle[lib], name) : nullptr;
  if (!p) {
    std::fprintf(stderr, "vmaf: FFmpeg's %s %s %s\n", kSoname[lib],
                 l.handle[lib] ? "has no" : "did not load, needed for", name);
    std::abort();
  }
  return p;
}

// (FFmpeg's attributes on a function, warn_unused_result say, are not part
// of its type; GCC says so for each one.)
#pragma GCC diagnostic ignored "-Wignored-attributes"
template <class F>
struct Signature;
template <class R, class... A>
struct Signature<R(A...)> {
  using Ret = R;
  using Ptr = R (*)(A...);
  template <std::size_t I>
  using Arg = std::tuple_element_t<I, std::tuple<A...>>;
};

}  // namespace

void ffmpeg_require(const std::string& who) {
  const Loaded& l = loaded();
  if (l.failed < 0) return;
  const std::string soname = kSoname[l.failed];
  if (l.missing)
    throw unsupported_error(who + ": FFmpeg's " + soname + " has no " + l.missing + " (built against another FFmpeg)");
  throw unsupported_error(who + ": cannot load FFmpeg's " + soname + " (" + l.why + ")");
}

bool ffmpeg_loaded() {
  // Without loading: a library already in the process answers RTLD_NOLOAD.
  void* h = ::dlopen(kSoname[kUtil], RTLD_NOW | RTLD_NOLOAD);
  if (h) ::dlclose(h);
  return h != nullptr;
}

}  // namespace vmafx

// The forwarders: FFmpeg's own declarations (extern "C"), defined here.
#define VMAFX_SIG(f) vmafx::Signature<decltype(f)>
#define VMAFX_P(f, i) VMAFX_SIG(f)::Arg<i> a##i
#define VMAFX_FFMPEG_FWD(lib, f, params, args)                                                \
  extern "C" VMAFX_SIG(f)::Ret f params {                                                     \
    static const auto p = reinterpret_cast<VMAFX_SIG(f)::Ptr>(vmafx::symbol(vmafx::lib, #f)); \
    return p args;                                                                            \
  }
#define VMAFX_FFMPEG_FWD0(lib, f) VMAFX_FFMPEG_FWD(lib, f, (), ())
#define VMAFX_FFMPEG_FWD1(lib, f) VMAFX_FFMPEG_FWD(lib, f, (VMAFX_P(f, 0)), (a0))
#define VMAFX_FFMPEG_FWD2(lib, f) VMAFX_FFMPEG_FWD(lib, f, (VMAFX_P(f, 0), VMAFX_P(f, 1)), (a0, a1))
#define VMAFX_FFMPEG_FWD3(lib, f) VMAFX_FFMPEG_FWD(lib, f, (VMAFX_P(f, 0), VMAFX_P(f, 1), VMAFX_P(f, 2)), (a0, a1, a2))
#define VMAFX_FFMPEG_FWD4(lib, f) \
  VMAFX_FFMPEG_FWD(lib, f, (VMAFX_P(f, 0), VMAFX_P(f, 1), VMAFX_P(f, 2), VMAFX_P(f, 3)), (a0, a1, a2, a3))
#define VMAFX_FFMPEG_FWD5(lib, f)                                                                       \
  VMAFX_FFMPEG_FWD(lib, f, (VMAFX_P(f, 0), VMAFX_P(f, 1), VMAFX_P(f, 2), VMAFX_P(f, 3), VMAFX_P(f, 4)), \
                   (a0, a1, a2, a3, a4))
#define VMAFX_FFMPEG_FWD7(lib, f)                                                                                \
  VMAFX_FFMPEG_FWD(                                                                                              \
      lib, f,                                                                                                    \
      (VMAFX_P(f, 0), VMAFX_P(f, 1), VMAFX_P(f, 2), VMAFX_P(f, 3), VMAFX_P(f, 4), VMAFX_P(f, 5), VMAFX_P(f, 6)), \
      (a0, a1, a2, a3, a4, a5, a6))
#define VMAFX_FFMPEG_DEFINE(lib, f, n) VMAFX_FFMPEG_FWD##n(lib, f)
VMAFX_FFMPEG_ALL(VMAFX_FFMPEG_DEFINE)

#endif  // VMAFX_FFMPEG_DLOPEN
