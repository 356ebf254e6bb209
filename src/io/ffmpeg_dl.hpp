// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Internal: FFmpeg's libraries loaded when first needed. A build with
// VMAFX_FFMPEG_DLOPEN links none of libavformat, libavcodec, libavutil and
// libswscale (nor the ~130 libraries they pull in): io/ffmpeg_dl.cpp defines
// the FFmpeg functions this project calls as hidden forwarders that load the
// libraries by their sonames on first use. A run on Y4M or raw YUV then maps
// no FFmpeg code at all (start-up and resident memory). Other builds (a
// static FFmpeg) link the libraries and ffmpeg_require() does nothing.
#include <string>

namespace vmafx {

// Loads FFmpeg's libraries (once per process) and checks that every function
// this project calls is there; throws Error("<who>: cannot load FFmpeg's
// <lib>: <why>") when one is missing. Call before the first FFmpeg function,
// so that a missing library is a clear error rather than an abort.
#if VMAFX_FFMPEG_DLOPEN
void ffmpeg_require(const std::string& who);
// Whether the libraries are loaded in this process (tests, VMAFX_STATS).
bool ffmpeg_loaded();
#else
inline void ffmpeg_require(const std::string&) {}
inline bool ffmpeg_loaded() { return true; }
#endif

}  // namespace vmafx
