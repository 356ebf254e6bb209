// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Common pieces of the OpenCL twins (src/feature/opencl/<f>_opencl.cpp): the
// base class that ties a twin to its engine's FrameGroup. Each twin's factory
// is named in the feature table (feature/registry.cpp).
#include <memory>
#include <string_view>

#include "backend/opencl/opencl_runtime.hpp"
#include "core/feature.hpp"

namespace vmafx::ocl {

class Twin : public Extractor {
 protected:
  explicit Twin(std::shared_ptr<FrameGroup> g) : group_(std::move(g)), id_(group_->new_twin_id()) {}
  // The calling thread's slot; marks the group as running frames.
  Slot& slot() {
    group_->seal();
    return group_->slot();
  }
  std::shared_ptr<FrameGroup> group_;
  int id_;
};

// The frame a twin's submit() enqueued on this thread: extract() uses its
// pending read when it is for the same frame, and enqueues afresh otherwise
// (submit() was not called, or was for another frame).
struct FrameKey {
  const Picture* ref = nullptr;
  const Picture* dis = nullptr;
  unsigned index = 0;
  bool matches(const Picture& r, const Picture& d, unsigned i, const PendingRead& read) const {
    return read.active() && ref == &r && dis == &d && index == i;
  }
};

}  // namespace vmafx::ocl
