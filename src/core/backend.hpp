// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "core/feature.hpp"

namespace vmafx {

class DeviceImporter;

// A compute device that runs twins of CPU extractors (CUDA, OpenCL). A twin is
// an Extractor with the same name, options and outputs as the CPU reference,
// and must write the very same doubles. The engine calls a twin exactly as it
// calls the CPU extractor: non-temporal twins from several worker threads at
// once (one frame each; a backend keeps per-thread streams/queues and device
// buffers, and uploads a frame's planes once for all its twins), temporal twins
// in frame order from one sequencing thread.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;    // "cuda", "opencl"
  virtual std::string device_name() const = 0;  // for notices and reports
  // The twin of `d`, or nullptr when this backend has none for it (or not for
  // this format). Throws Error on a device failure.
  virtual std::unique_ptr<Extractor> create_twin(const ExtractorDescriptor& d, const OptionSet& opts,
                                                 const PictureFormat& fmt) = 0;
  // Memory for the engine's picture pool (e.g. page-locked for fast uploads);
  // nullptr = the default heap. Pictures are allocated once and reused.
  virtual const HostAllocator* host_allocator() const { return nullptr; }
  // How many frames' twins should run at once (one worker thread, stream or
  // queue each) for pictures of this format: more only adds contention.
  virtual unsigned preferred_lanes(const PictureFormat& /*fmt*/) const { return 4; }
  // False for a device that is the host's own CPU (e.g. PoCL): --backend auto
  // does not pick it, the CPU backend is faster there.
  virtual bool is_gpu() const { return true; }
  // Takes frames a GPU decoder left in this device's memory (CUDA); nullptr
  // for backends that cannot.
  virtual DeviceImporter* device_importer() { return nullptr; }
};

}  // namespace vmafx
