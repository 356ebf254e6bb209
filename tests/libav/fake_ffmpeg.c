// SPDX-License-Identifier: BSD-3-Clause
// A stand-in for one of FFmpeg's shared libraries, with its soname and none of
// its functions: tests/libav checks that runs on Y4M and raw YUV never load
// FFmpeg (they pass with it first on LD_LIBRARY_PATH) and that a broken
// install is one clear error (io/ffmpeg_dl.cpp).
int vmafx_fake_ffmpeg_library = 1;
