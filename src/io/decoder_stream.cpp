// SPDX-License-Identifier: BSD-3-Clause
#ifdef VMAFX_HAVE_LIBAV

#include "io/decoder_stream.hpp"

#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "core/error.hpp"

// hwcontext_cuda.h wants cuda.h's two handle types only; declared here as
// the driver declares them, so that no CUDA toolkit is needed.
#define CUDA_VERSION 0
typedef struct CUctx_st* CUcontext;
typedef struct CUstream_st* CUstream;
extern "C" {
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_cuda.h>
}

namespace vmafx {
namespace {

// The five driver functions used, as libcuda.so.1 exports them (CUresult is
// an int; 0 is success).
struct Driver {
  int (*push)(CUcontext) = nullptr;
  int (*pop)(CUcontext*) = nullptr;
  int (*create)(CUstream*, unsigned) = nullptr;
  int (*synchronize)(CUstream) = nullptr;
  int (*destroy)(CUstream) = nullptr;
  std::string error;  // why they could not be loaded
};

constexpr unsigned kNonBlocking = 0x1;  // CU_STREAM_NON_BLOCKING

const Driver& driver() {
  static const Driver d = [] {
    Driver r;
    void* h = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      r.error = "cannot load libcuda.so.1";
      return r;
    }
    auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(h, name));
      if (!fn && r.error.empty()) r.error = std::string("libcuda.so.1 has no ") + name;
    };
    get(r.push, "cuCtxPushCurrent_v2");
    get(r.pop, "cuCtxPopCurrent_v2");
    get(r.create, "cuStreamCreate");
    get(r.synchronize, "cuStreamSynchronize");
    get(r.destroy, "cuStreamDestroy_v2");
    return r;
  }();
  return d;
}

// Runs `call` with `ctx` current on this thread; its CUresult.
template <class F>
int in_context(CUcontext ctx, F call) {
  const Driver& d = driver();
  if (int e = d.push(ctx)) return e;
  const int r = call();
  CUcontext popped;
  d.pop(&popped);
  return r;
}

AVCUDADeviceContext* cuda_hwctx(AVBufferRef* device) {
  return static_cast<AVCUDADeviceContext*>(reinterpret_cast<AVHWDeviceContext*>(device->data)->hwctx);
}

}  // namespace

DecoderStream::DecoderStream(AVBufferRef* device) : device_(device) {
  const Driver& d = driver();
  if (!d.error.empty()) {
    av_buffer_unref(&device_);
    throw device_error("cannot make a CUDA stream for a segment decoder: " + d.error);
  }
  AVCUDADeviceContext* hw = cuda_hwctx(device_);
  context_ = hw->cuda_ctx;
  CUstream s = nullptr;
  if (int e = in_context(hw->cuda_ctx, [&] { return d.create(&s, kNonBlocking); })) {
    av_buffer_unref(&device_);
    throw device_error("cannot make a CUDA stream for a segment decoder: CUDA error " + std::to_string(e));
  }
  stream_ = s;
  hw->stream = s;  // read by each decoder opened on device_ and by FFmpeg's frame copies
}

DecoderStream::~DecoderStream() {
  // The decoders and frames using device_ are gone (their owner frees them
  // first); the device context's last reference goes with it.
  cuda_hwctx(device_)->stream = nullptr;
  in_context(static_cast<CUcontext>(context_), [&] { return driver().destroy(static_cast<CUstream>(stream_)); });
  av_buffer_unref(&device_);
}

void DecoderStream::sync() const {
  const int e = in_context(static_cast<CUcontext>(context_),
                           [&] { return driver().synchronize(static_cast<CUstream>(stream_)); });
  if (e) throw device_error("copying a decoded frame on the GPU failed: CUDA error " + std::to_string(e));
}

}  // namespace vmafx

#endif
