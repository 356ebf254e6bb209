// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The exact scaler (core/scale_exact.hpp) on a CUDA device
// (backend/cuda/scale.cu): a plan's filters uploaded once, then pictures
// converted sample for sample as the host reference does, either from host
// pictures (read back) or device to device, so that frames NVDEC left on the
// GPU (Picture::DeviceCopy) are scaled without leaving it.
// Host-only header; one Scaler per thread (it owns its stream).
#include <cuda_runtime.h>

#include <cstddef>
#include <map>

#include "backend/cuda/cuda_runtime.hpp"
#include "core/scale_exact.hpp"

namespace vmafx::cuda {

class Scaler {
 public:
  // On CUDA device `device`. Throws Error on a device failure.
  Scaler(int device, const sws::Plan& plan);
  ~Scaler();
  Scaler(const Scaler&) = delete;
  Scaler& operator=(const Scaler&) = delete;

  const sws::Plan& plan() const { return plan_; }
  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }

  // Device to device, enqueued on stream() (nothing waits): the planes of a
  // plan().src() picture at src[p] (stride src_stride[p] bytes) into the
  // planes of a plan().dst() picture at dst[p].
  void scale_device(const void* const src[3], const std::ptrdiff_t src_stride[3], void* const dst[3],
                    const std::ptrdiff_t dst_stride[3]);

  // `out` from `in`, host pictures: uploads, converts, reads back, waits.
  void scale(const Picture& in, Picture& out);

  // `in` has a device copy on device() (Picture::device_copy: NVDEC, the C
  // API): `out` gets a device copy of its own (device memory this Scaler
  // keeps per `out` picture, laid out as out's host planes) holding the
  // converted frame; out's host planes are left alone. Waits for the stream
  // before returning, so any stream may read the copy afterwards. Throws
  // Error when `in` has no device copy on this device.
  void scale_device_copy(const Picture& in, Picture& out);

 private:
  int device_ = 0;
  sws::Plan plan_;
  cudaStream_t stream_ = nullptr;
  DeviceBuffer filter_[2][4];  // per luma / chroma: h pos, h taps, v pos, v taps
  DeviceBuffer inter_, src_, dst_;
  PinnedBuffer pinned_;
  std::map<const Picture*, DeviceBuffer> copies_;
};

}  // namespace vmafx::cuda
