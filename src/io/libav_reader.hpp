// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Internal: compressed input (mp4, mkv, webm, ivf, ...) decoded by FFmpeg's
// libavformat/libavcodec, behind vmafx::open_video. Only builds with
// VMAFX_HAVE_LIBAV define these; video_reader.cpp calls them then.
#include <memory>
#include <string>

#include "vmaf_exact/input.hpp"

namespace vmafx {

// How sure libavformat is, from `head` (the first bytes of `path`), that it
// reads this container: 0 (no idea) to 100 (a signature).
int libav_probe_score(const std::string& head, const std::string& path);

// Opens the clip on `fd` (taken over, closed by the reader or on failure);
// `head` holds the bytes already read from it. Decodes the first frame, so a
// file that yields none fails here. Throws Error("<path>: ...").
std::unique_ptr<VideoReader> open_libav(const std::string& path, int fd, std::string head, const OpenOptions& opts);

}  // namespace vmafx
