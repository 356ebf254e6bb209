// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Common pieces of the OpenCL twins (src/feature/opencl/<f>_opencl.cpp): the
// base class that ties a twin to its engine's FrameGroup, and FrameTwin, the
// submit()/extract() round trip most twins are. Each twin's factory is named
// in the feature table (feature/registry.cpp).
#include <bit>
#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>

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

// The per-thread state of a FrameTwin: the frame enqueued last and the
// non-blocking read that ends its device work. A twin derives its state
// from it and adds the read's destination.
struct FrameState : Slot::State {
  FrameKey frame;
  PendingRead read;
};

// A twin whose frame is one round trip: enqueue() queues the frame's device
// work, ending with a non-blocking read into the state P; emit() turns what
// was read into the frame's features. The base owns the rest, the same for
// every such twin: submit() enqueues, extract() enqueues again unless the
// pending work is for this frame, waits for the read, then emits.
//
// P is a FrameState, or (a twin with several reads, e.g. one per scale) a
// Slot::State with a FrameKey `frame` and a `last_read()`, the read that the
// frame's work ends with; such a twin waits for its reads itself, in emit()
// and before enqueue() reuses their destinations.
template <class P>
class FrameTwin : public Twin {
 public:
  void submit(const Picture& ref, const Picture& dis, unsigned index) final {
    Slot& s = slot();
    start(s, ref, dis, index, s.state<P>(id_));
  }

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) final {
    Slot& s = slot();
    P& st = s.state<P>(id_);
    if (!st.frame.matches(ref, dis, index, last_read(st))) start(s, ref, dis, index, st);
    if constexpr (kOneRead) st.read.finish();
    emit(s, st, ref, dis, index, out);
  }

 protected:
  using Twin::Twin;
  using Pending = P;

  virtual void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, P& st) = 0;
  virtual void emit(Slot& s, P& st, const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) = 0;

 private:
  static constexpr bool kOneRead = std::is_base_of_v<FrameState, P>;
  static const PendingRead& last_read(P& st) {
    if constexpr (kOneRead)
      return st.read;
    else
      return st.last_read();
  }
  void start(Slot& s, const Picture& ref, const Picture& dis, unsigned index, P& st) {
    if constexpr (kOneRead) st.read.finish();  // an earlier read into st, never waited for
    enqueue(s, ref, dis, index, st);
    st.frame = {&ref, &dis, index};
  }
};

// The bits of a float or double, as the kernels take their constants.
inline std::uint32_t f32_bits(float f) { return std::bit_cast<std::uint32_t>(f); }
inline std::uint64_t f64_bits(double f) { return std::bit_cast<std::uint64_t>(f); }

}  // namespace vmafx::ocl
