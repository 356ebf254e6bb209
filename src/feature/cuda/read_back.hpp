// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The bookkeeping of a temporal CUDA twin (motion, psnr) that reads frame i's
// result back on its next call, so that the sequencing thread never waits for
// the device: an event after each frame's read-back copy (two, by frame
// parity), one after its uploads (the picture's host memory may be refilled as
// soon as the call returns), and which frame is still to be read.
#include <cuda_runtime.h>

#include "backend/cuda/cuda_runtime.hpp"

namespace vmafx::cuda {

class ReadBack {
 public:
  ReadBack() = default;
  ReadBack(const ReadBack&) = delete;
  ReadBack& operator=(const ReadBack&) = delete;
  ~ReadBack() {
    for (cudaEvent_t e : done_)
      if (e) cudaEventDestroy(e);
    if (uploaded_) cudaEventDestroy(uploaded_);
  }

  // Creates the events on the first call (on the twin's device).
  void create() {
    if (uploaded_) return;
    for (cudaEvent_t& e : done_) check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    check(cudaEventCreateWithFlags(&uploaded_, cudaEventDisableTiming), "cudaEventCreate");
  }

  // After enqueueing frame `index`'s uploads, and after its read-back copy.
  void record_uploaded(cudaStream_t s) { check(cudaEventRecord(uploaded_, s), "cudaEventRecord"); }
  void record_done(unsigned index, cudaStream_t s) { check(cudaEventRecord(done_[index & 1], s), "cudaEventRecord"); }
  void wait_uploaded(const char* what) { check(cudaEventSynchronize(uploaded_), what); }

  void set_pending(unsigned index) {
    pending_ = true;
    index_ = index;
  }
  // The pending frame, once its read-back has arrived; false when none is.
  bool take(unsigned* index, const char* what) {
    if (!pending_) return false;
    pending_ = false;
    *index = index_;
    check(cudaEventSynchronize(done_[index_ & 1]), what);
    return true;
  }
  bool pending() const { return pending_; }

 private:
  cudaEvent_t done_[2] = {nullptr, nullptr};
  cudaEvent_t uploaded_ = nullptr;
  bool pending_ = false;
  unsigned index_ = 0;
};

}  // namespace vmafx::cuda
