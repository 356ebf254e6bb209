// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The CUDA backend's runtime: error translation, device and pinned buffers,
// per-thread streams with a per-frame plane cache, and the Backend itself.
// Host-only header (the twins' glue includes it; kernels do not).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/backend.hpp"
#include "vmaf_exact/picture.hpp"
#include "vmaf_exact/input.hpp"

namespace vmafx::cuda {

// One line for a failed CUDA call: "cuda: <what>: <kind> (<cudaGetErrorString>)",
// where <kind> names the class of failure (no device, out of device memory,
// driver failure, ...). Exposed for tests.
std::string error_message(cudaError_t e, std::string_view what);
// Throws vmafx::Error(error_message(e, what)).
[[noreturn]] void fail(cudaError_t e, std::string_view what);
inline void check(cudaError_t e, std::string_view what) {
  if (e != cudaSuccess) fail(e, what);
}

// Device memory that only grows: ensure() reallocates when a larger size is
// asked for (the first frame), and is a no-op after that.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();
  void* ensure(std::size_t bytes);
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
  std::size_t n_ = 0;
};

// Page-locked host memory, same growth rule.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer();
  void* ensure(std::size_t bytes);
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
  std::size_t n_ = 0;
};

// Everything one engine thread uses on the device: its stream, its scratch
// buffers (keyed by owner and slot, reused for the whole run) and the device
// copies of the planes of the frame it is working on. Used by one thread only.
class CudaBackend;

class ThreadContext {
 public:
  // high_priority: for temporal twins (sequencing thread), whose small kernels
  // should not queue behind the workers' frames.
  ThreadContext(CudaBackend& backend, bool high_priority);
  ~ThreadContext();
  ThreadContext(const ThreadContext&) = delete;
  ThreadContext& operator=(const ThreadContext&) = delete;

  cudaStream_t stream() const { return stream_; }

  // The device copy of plane `p` of `pic` for frame `index`: uploaded
  // asynchronously on this thread's stream the first time a twin of this
  // thread asks for it, then shared by the thread's other twins. The copy has
  // the picture's row stride (bytes).
  // With claim_shared false the published copy is left to the frame's worker.
  const void* plane(const Picture& pic, unsigned index, int p, bool claim_shared = true);

  // Scratch memory of twin `owner`, slot `slot`; stable while the size is.
  void* device(const void* owner, int slot, std::size_t bytes);
  void* pinned(const void* owner, int slot, std::size_t bytes);

  // Waits for this thread's stream; throws on an asynchronous failure.
  void sync(std::string_view what);

  // The end of most twins' frame: checks the kernels' launch, copies `bytes`
  // of device memory `dev` into host memory `host` on this thread's
  // stream, and waits for it. `what` names the twin in the errors.
  void read_back(void* host, const void* dev, std::size_t bytes, std::string_view what);

  // For the few host-side reads a twin makes (a replayed pixel, a range
  // check): `pic` itself, or, when its frame is only in device memory
  // (Picture::device_copy: NVDEC, the C API), its first `planes` planes read
  // back into a host picture of this thread, one per `slot` (0 or 1, so that
  // a reference and a distorted picture can be read back together).
  const Picture& host_view(const Picture& pic, int slot, int planes = 3);

 private:
  struct Entry {
    const Picture* pic = nullptr;
    unsigned index = 0;
    int plane = 0;
    std::uint64_t used = 0;
    const void* ptr = nullptr;  // buf, or a published luma plane
    std::uint64_t epoch = 0;
    DeviceBuffer buf;
  };
  CudaBackend& backend_;
  cudaStream_t stream_ = nullptr;
  Entry cache_[8];
  std::uint64_t tick_ = 0;
  std::map<std::pair<const void*, int>, DeviceBuffer> dev_;
  std::map<std::pair<const void*, int>, PinnedBuffer> pin_;
  std::unique_ptr<Picture> host_[2];  // host_view's read-backs
};

// Frames NVDEC left in device memory become pictures' device copies: one
// planar buffer per pool picture, filled on a stream of the reading thread
// (which waits for the decoder's copies on the legacy default stream).
class Importer final : public DeviceImporter {
 public:
  explicit Importer(CudaBackend& backend) : backend_(backend) {}
  ~Importer() override;
  int cuda_device() const override;
  bool import(const Surface& s, Picture& pic) override;

 private:
  struct Lane {
    cudaStream_t stream = nullptr;
    DeviceBuffer flag;
    PinnedBuffer host_flag;
  };
  CudaBackend& backend_;
  std::mutex mu_;
  std::map<const Picture*, DeviceBuffer> copies_;
  std::map<std::thread::id, Lane> lanes_;
};

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int device);
  ~CudaBackend() override;

  std::string_view name() const override { return "cuda"; }
  std::string device_name() const override { return device_name_; }
  std::unique_ptr<Extractor> create_twin(const ExtractorDescriptor& d, const OptionSet& opts,
                                         const PictureFormat& fmt) override;
  const HostAllocator* host_allocator() const override { return &allocator_; }
  DeviceImporter* device_importer() override { return &importer_; }
  // Measured on an H200 (docs/perf.md): 4 streams at 4K, 8 below.
  unsigned preferred_lanes(const PictureFormat& f) const override {
    return std::int64_t(f.width) * f.height >= 3840 * 2160 ? 4 : 8;
  }

  int device() const { return device_; }
  // Bumped whenever a twin is created (a new engine): (picture, frame index)
  // identifies a frame's content only within one engine, so cached device
  // copies of older epochs are never reused.
  std::uint64_t epoch() const { return epoch_.load(std::memory_order_acquire); }
  // VMAFX_CUDA_EXACT=int: twins that have one use their integer-exact path
  // (src/exact) instead of native fp64 (for GPUs with slow fp64). Read once.
  bool exact_int() const { return exact_int_; }

  // Luma planes shared across threads: the motion twin (sequencing thread)
  // uploads a frame's reference luma once, into a device mirror of that pool
  // picture, and the worker thread that takes the frame claims it instead of
  // uploading it again. A mirror is rewritten only when its picture carries a
  // new frame, i.e. after every twin of the old frame has returned.
  const void* publish_luma(const Picture& pic, unsigned index, cudaStream_t s);
  // The published luma of (pic, index), once; makes `s` wait for its upload.
  // nullptr when there is none.
  const void* claim_luma(const Picture& pic, unsigned index, cudaStream_t s);
  // Frees the published planes (their publisher, the motion twin, is going
  // away with its engine, whose worker threads have stopped).
  void drop_published();
  // The calling thread's context (created on first use; temporal twins get
  // their own, with a high-priority stream). Also makes this backend's device
  // current on the calling thread.
  ThreadContext& context(bool temporal = false);

 private:
  static void* pinned_alloc(std::size_t bytes, void* ctx);
  static void pinned_free(void* p, void* ctx);

  int device_;
  std::atomic<std::uint64_t> epoch_{1};
  bool exact_int_ = false;
  std::string device_name_;
  HostAllocator allocator_;
  std::mutex mu_;
  std::map<std::pair<std::thread::id, bool>, std::unique_ptr<ThreadContext>> contexts_;
  // Freed page-locked blocks by size, reused by the next picture pool
  // (cudaHostAlloc is slow; pools come and go with engines).
  std::multimap<std::size_t, void*> pinned_free_;
  std::map<void*, std::size_t> pinned_size_;
  struct Mirror {
    DeviceBuffer buf;
    cudaEvent_t ready = nullptr;
    unsigned index = 0;
    std::uint64_t epoch = 0;
    bool claimable = false;
  };
  std::mutex mirror_mu_;
  std::map<const Picture*, std::unique_ptr<Mirror>> mirrors_;
  Importer importer_{*this};  // destroyed first: its streams before the device's state
};

}  // namespace vmafx::cuda
