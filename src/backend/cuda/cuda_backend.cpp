// SPDX-License-Identifier: BSD-3-Clause
// The CUDA backend: device selection and listing, per-thread streams and
// buffers, page-locked picture memory, error translation.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backend/backends.hpp"
#include "backend/cuda/cuda_runtime.hpp"
#include "backend/cuda/import.hpp"
#include "core/env.hpp"
#include "core/error.hpp"

namespace vmafx {
namespace cuda {

std::string error_message(cudaError_t e, std::string_view what) {
  const char* kind;
  switch (e) {
    case cudaErrorNoDevice: kind = "no CUDA device"; break;
    case cudaErrorInsufficientDriver: kind = "no usable CUDA driver (driver missing or older than the runtime)"; break;
    case cudaErrorMemoryAllocation: kind = "out of device memory"; break;
    case cudaErrorInvalidDevice: kind = "no such CUDA device"; break;
    case cudaErrorDevicesUnavailable: kind = "CUDA device busy or unavailable"; break;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion: kind = "this build has no kernels for the device (built for sm_90)"; break;
    case cudaErrorLaunchOutOfResources: kind = "kernel launch out of resources"; break;
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorECCUncorrectable:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress: kind = "device failure"; break;
    default: kind = "CUDA driver/runtime failure"; break;
  }
  std::string m = "cuda: ";
  m += what;
  m += ": ";
  m += kind;
  m += " (";
  m += cudaGetErrorName(e);
  m += ")";
  return m;
}

void fail(cudaError_t e, std::string_view what) {
  (void)cudaGetLastError();  // clear a non-sticky error
  throw device_error(error_message(e, what));
}

DeviceBuffer::~DeviceBuffer() {
  if (p_) cudaFree(p_);
}

void* DeviceBuffer::ensure(std::size_t bytes) {
  if (bytes <= n_ && p_) return p_;
  if (p_) cudaFree(p_);
  p_ = nullptr;
  n_ = 0;
  check(cudaMalloc(&p_, bytes ? bytes : 1), "cudaMalloc of " + std::to_string(bytes) + " bytes");
  n_ = bytes;
  return p_;
}

PinnedBuffer::~PinnedBuffer() {
  if (p_) cudaFreeHost(p_);
}

void* PinnedBuffer::ensure(std::size_t bytes) {
  if (bytes <= n_ && p_) return p_;
  if (p_) cudaFreeHost(p_);
  p_ = nullptr;
  n_ = 0;
  check(cudaHostAlloc(&p_, bytes ? bytes : 1, cudaHostAllocPortable),
        "cudaHostAlloc of " + std::to_string(bytes) + " bytes");
  n_ = bytes;
  return p_;
}

ThreadContext::ThreadContext(CudaBackend& backend, bool high_priority) : backend_(backend) {
  int least = 0, greatest = 0;
  check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
  check(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, high_priority ? greatest : least),
        "cudaStreamCreate");
}

ThreadContext::~ThreadContext() {
  if (stream_) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
}

const void* ThreadContext::plane(const Picture& pic, unsigned index, int p, bool claim_shared) {
  ++tick_;
  const std::uint64_t epoch = backend_.epoch();
  Entry* victim = &cache_[0];
  for (Entry& e : cache_) {
    if (e.pic == &pic && e.index == index && e.plane == p && e.ptr && e.epoch == epoch) {
      e.used = tick_;
      return e.ptr;
    }
    if (e.used < victim->used) victim = &e;
  }
  victim->pic = &pic;
  victim->index = index;
  victim->plane = p;
  victim->used = tick_;
  victim->ptr = nullptr;
  victim->epoch = epoch;
  if (p == 0 && claim_shared) {
    if (const void* shared = backend_.claim_luma(pic, index, stream_)) {
      victim->ptr = shared;
      return shared;
    }
  }
  const PlaneView v = pic.plane(p);
  const std::size_t bytes = std::size_t(v.stride) * std::size_t(v.height);
  void* d = victim->buf.ensure(bytes);
  // Stream-ordered: earlier kernels reading this slot finish first.
  if (const Picture::DeviceCopy* dc = pic.device_copy())
    check(cudaMemcpyAsync(d, dc->plane[p], bytes, cudaMemcpyDeviceToDevice, stream_), "copy of a decoded plane");
  else
    check(cudaMemcpyAsync(d, v.data, bytes, cudaMemcpyHostToDevice, stream_), "upload of a plane");
  victim->ptr = d;
  return d;
}

Importer::~Importer() {
  for (auto& [id, lane] : lanes_)
    if (lane.stream) cudaStreamDestroy(lane.stream);
}

int Importer::cuda_device() const { return backend_.device(); }

bool Importer::import(const Surface& s, Picture& pic) {
  check(cudaSetDevice(backend_.device()), "cudaSetDevice");
  Lane* lane;
  DeviceBuffer* copy;
  {
    std::lock_guard lk(mu_);
    lane = &lanes_[std::this_thread::get_id()];
    copy = &copies_[&pic];
  }
  if (!lane->stream)  // a blocking stream: it waits for the decoder's copies on the legacy default stream
    check(cudaStreamCreate(&lane->stream), "cudaStreamCreate");
  const PictureFormat& f = pic.format();
  const int planes = f.plane_count();
  const std::uint8_t* base = pic.plane(0).data;
  std::size_t bytes = 0;
  for (int p = 0; p < planes; ++p) {
    const PlaneView v = pic.plane(p);
    bytes = std::max(bytes, std::size_t(v.data - base) + std::size_t(v.stride) * std::size_t(v.height));
  }
  auto* dst = static_cast<std::uint8_t*>(copy->ensure(bytes));
  auto* flag = static_cast<unsigned*>(lane->flag.ensure(sizeof(unsigned)));
  auto* host_flag = static_cast<unsigned*>(lane->host_flag.ensure(sizeof(unsigned)));
  check(cudaMemsetAsync(flag, 0, sizeof(unsigned), lane->stream), "cudaMemsetAsync");
  Picture::DeviceCopy dc;
  dc.cuda_device = backend_.device();
  for (int p = 0; p < planes; ++p) dc.plane[p] = dst + (pic.plane(p).data - base);
  auto out = [&](int p) { return const_cast<void*>(dc.plane[p]); };
  const int bps = f.bytes_per_sample();
  const PlaneView y = pic.plane(0);
  import::launch_unpack(s.data[0], s.pitch[0], out(0), nullptr, y.stride, y.width, y.height, bps, s.shift, flag,
                        lane->stream);
  if (planes == 3) {
    const PlaneView c = pic.plane(1);
    if (s.interleaved_chroma) {
      import::launch_unpack(s.data[1], s.pitch[1], out(1), out(2), c.stride, c.width, c.height, bps, s.shift, flag,
                            lane->stream);
    } else {
      for (int p = 1; p < 3; ++p)
        import::launch_unpack(s.data[p], s.pitch[p], out(p), nullptr, c.stride, c.width, c.height, bps, s.shift, flag,
                              lane->stream);
    }
  }
  check(cudaGetLastError(), "decoded frame: kernel launch");
  check(cudaMemcpyAsync(host_flag, flag, sizeof(unsigned), cudaMemcpyDeviceToHost, lane->stream),
        "decoded frame: readback");
  // The decoder may reuse its surface once this returns.
  check(cudaStreamSynchronize(lane->stream), "decoded frame: unpack");
  pic.set_device_copy(dc);
  return *host_flag == 0;
}

void* ThreadContext::device(const void* owner, int slot, std::size_t bytes) {
  return dev_[{owner, slot}].ensure(bytes);
}

void* ThreadContext::pinned(const void* owner, int slot, std::size_t bytes) {
  return pin_[{owner, slot}].ensure(bytes);
}

void ThreadContext::sync(std::string_view what) { check(cudaStreamSynchronize(stream_), what); }

void ThreadContext::read_back(void* host, const void* dev, std::size_t bytes, std::string_view what) {
  const cudaError_t launched = cudaGetLastError();
  if (launched != cudaSuccess) check(launched, std::string(what) + ": kernel launch");
  const cudaError_t copied = cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, stream_);
  if (copied != cudaSuccess) check(copied, std::string(what) + ": readback");
  sync(what);
}

const Picture& ThreadContext::host_view(const Picture& pic, int slot, int planes) {
  const Picture::DeviceCopy* dc = pic.device_copy();
  if (!dc) return pic;
  std::unique_ptr<Picture>& h = host_[slot & 1];
  if (!h || h->format() != pic.format()) h = std::make_unique<Picture>(pic.format());
  // Same format, same allocation rule: the same strides as `pic`.
  for (int p = 0; p < std::min(planes, pic.format().plane_count()); ++p) {
    const PlaneView v = pic.plane(p);
    check(cudaMemcpyAsync(h->plane_data(p), dc->plane[p], std::size_t(v.stride) * std::size_t(v.height),
                          cudaMemcpyDeviceToHost, stream_),
          "read-back of a decoded plane");
  }
  sync("read-back of a decoded plane");
  return *h;
}

namespace {

int device_count() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
    (void)cudaGetLastError();
    return 0;
  }
  check(e, "cudaGetDeviceCount");
  return n;
}

std::string describe(int i) {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, i), "cudaGetDeviceProperties");
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %.1f GiB)", p.name, p.major, p.minor,
                double(p.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

}  // namespace

CudaBackend::CudaBackend(int device) : device_(device) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) fail(e, "device start");
  if (n == 0) fail(cudaErrorNoDevice, "device start");
  if (device < 0 || device >= n)
    throw device_error("cuda: device " + std::to_string(device) + ": no such CUDA device (" + std::to_string(n) +
                       " found)");
  check(cudaSetDevice(device_), "cudaSetDevice");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device_), "cudaGetDeviceProperties");
  if (p.major < 9)
    throw device_error("cuda: device " + std::to_string(device) + " (" + p.name + ", sm_" + std::to_string(p.major) +
                       std::to_string(p.minor) + "): this build has kernels for sm_90 only");
  // Creates the primary context now, so that a broken driver fails here.
  check(cudaFree(nullptr), "context creation");
  device_name_ = "cuda " + std::to_string(device) + ": " + describe(device);
  allocator_ = HostAllocator{&CudaBackend::pinned_alloc, &CudaBackend::pinned_free, this};
  exact_int_ = env::cuda_exact_int();
}

CudaBackend::~CudaBackend() {
  contexts_.clear();
  for (auto& [pic, m] : mirrors_)
    if (m->ready) cudaEventDestroy(m->ready);
  mirrors_.clear();
  for (auto& [size, p] : pinned_free_) cudaFreeHost(p);
}

ThreadContext& CudaBackend::context(bool temporal) {
  check(cudaSetDevice(device_), "cudaSetDevice");
  std::lock_guard lk(mu_);
  auto& slot = contexts_[{std::this_thread::get_id(), temporal}];
  if (!slot) slot = std::make_unique<ThreadContext>(*this, temporal);
  return *slot;
}

const void* CudaBackend::publish_luma(const Picture& pic, unsigned index, cudaStream_t s) {
  Mirror* m;
  {
    std::lock_guard lk(mirror_mu_);
    auto& slot = mirrors_[&pic];
    if (!slot) {
      slot = std::make_unique<Mirror>();
      check(cudaEventCreateWithFlags(&slot->ready, cudaEventDisableTiming), "cudaEventCreate");
    }
    m = slot.get();
    m->claimable = false;
  }
  const PlaneView v = pic.plane(0);
  const std::size_t bytes = std::size_t(v.stride) * std::size_t(v.height);
  void* d = m->buf.ensure(bytes);
  if (const Picture::DeviceCopy* dc = pic.device_copy())
    check(cudaMemcpyAsync(d, dc->plane[0], bytes, cudaMemcpyDeviceToDevice, s), "copy of a decoded luma plane");
  else
    check(cudaMemcpyAsync(d, v.data, bytes, cudaMemcpyHostToDevice, s), "upload of a luma plane");
  check(cudaEventRecord(m->ready, s), "cudaEventRecord");
  std::lock_guard lk(mirror_mu_);
  m->index = index;
  m->epoch = epoch();
  m->claimable = true;
  return d;
}

const void* CudaBackend::claim_luma(const Picture& pic, unsigned index, cudaStream_t s) {
  std::lock_guard lk(mirror_mu_);
  auto it = mirrors_.find(&pic);
  if (it == mirrors_.end()) return nullptr;
  Mirror& m = *it->second;
  if (!m.claimable || m.index != index || m.epoch != epoch()) return nullptr;
  m.claimable = false;
  check(cudaStreamWaitEvent(s, m.ready, 0), "cudaStreamWaitEvent");
  return m.buf.get();
}

void CudaBackend::drop_published() {
  std::lock_guard lk(mirror_mu_);
  for (auto& [pic, m] : mirrors_) {
    if (m->ready) {
      cudaEventSynchronize(m->ready);
      cudaEventDestroy(m->ready);
    }
  }
  mirrors_.clear();
}

void* CudaBackend::pinned_alloc(std::size_t bytes, void* ctx) {
  auto* self = static_cast<CudaBackend*>(ctx);
  {
    std::lock_guard lk(self->mu_);
    auto it = self->pinned_free_.find(bytes);
    if (it != self->pinned_free_.end()) {
      void* p = it->second;
      self->pinned_free_.erase(it);
      return p;
    }
  }
  cudaSetDevice(self->device_);
  void* p = nullptr;
  if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;  // the Picture throws bad_alloc
  }
  std::lock_guard lk(self->mu_);
  self->pinned_size_[p] = bytes;
  return p;
}

void CudaBackend::pinned_free(void* p, void* ctx) {
  auto* self = static_cast<CudaBackend*>(ctx);
  std::lock_guard lk(self->mu_);
  auto it = self->pinned_size_.find(p);
  if (it == self->pinned_size_.end()) return;
  self->pinned_free_.emplace(it->second, p);
}

std::unique_ptr<Extractor> CudaBackend::create_twin(const ExtractorDescriptor& d, const OptionSet& opts,
                                                    const PictureFormat& fmt) {
  if (env::cuda_disabled(d.name)) return nullptr;
  const FeatureEntry& entry = feature_entry(d);
  if (!entry.cuda) return nullptr;
  epoch_.fetch_add(1, std::memory_order_acq_rel);
  return entry.cuda(*this, opts, fmt);
}

}  // namespace cuda

std::unique_ptr<Backend> make_cuda_backend(int gpu) { return std::make_unique<cuda::CudaBackend>(gpu); }

std::vector<std::string> list_cuda_devices() {
  std::vector<std::string> out;
  const int n = cuda::device_count();
  for (int i = 0; i < n; ++i) out.push_back("cuda " + std::to_string(i) + ": " + cuda::describe(i));
  return out;
}

}  // namespace vmafx
