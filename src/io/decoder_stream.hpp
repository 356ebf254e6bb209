// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Internal: a CUDA stream of its own for one NVDEC decoder (decoding in
// segments, io/libav_reader.cpp). FFmpeg's CUDA device context maps each
// decoded surface and copies frames on the stream it holds, by default
// CUDA's legacy default stream. Work there is ordered after, and before,
// the work of every blocking stream of the context, so with several
// decoders on one device each frame's import (the CUDA backend's blocking
// stream) waits for every decoder's pending maps, which wait for their
// decodes. A DecoderStream is an FFmpeg CUDA device on the same primary
// context whose stream is a new non-blocking one: its decoder's maps and
// copies wait for nothing else, and sync() makes a copied frame complete
// before it is handed on.
//
// No CUDA toolkit at build time: the driver's functions come from
// libcuda.so.1 (which FFmpeg's NVDEC path has loaded already).
#include <string>

struct AVBufferRef;

namespace vmafx {

class DecoderStream {
 public:
  // Takes `device` (an FFmpeg CUDA device context no decoder uses yet) and
  // gives it a new stream. Throws Error (kDevice) naming what the driver
  // refused; `device` is released then too.
  explicit DecoderStream(AVBufferRef* device);
  ~DecoderStream();
  DecoderStream(const DecoderStream&) = delete;
  DecoderStream& operator=(const DecoderStream&) = delete;

  // The FFmpeg device context (owned): a decoder given it maps and copies
  // on the stream.
  AVBufferRef* device() const { return device_; }
  // Waits for everything queued on the stream; throws Error (kDevice).
  void sync() const;

 private:
  AVBufferRef* device_ = nullptr;
  void* context_ = nullptr;  // CUcontext
  void* stream_ = nullptr;   // CUstream
};

}  // namespace vmafx
