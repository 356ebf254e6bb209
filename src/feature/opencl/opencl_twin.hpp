#pragma once
// Common pieces of the OpenCL twins (src/feature/opencl/<f>_opencl.cpp): the
// base class that ties a twin to its engine's FrameGroup, and the factories
// the backend looks up by extractor name.
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

using TwinFactory = std::unique_ptr<Extractor> (*)(std::shared_ptr<FrameGroup> group, const OptionSet& opts,
                                                   const PictureFormat& fmt);

struct TwinEntry {
  std::string_view extractor;  // the CPU extractor's name
  std::string_view cl_file;    // its kernel source (built when the twin is created)
  TwinFactory make;
};
// The twin of a CPU extractor, or nullptr.
const TwinEntry* find_twin(std::string_view extractor);

// One per twin (defined in <f>_opencl.cpp). Each validates the format exactly
// as the CPU extractor does (same Error), so a rejected input fails the same way.
std::unique_ptr<Extractor> make_ssim_twin(std::shared_ptr<FrameGroup>, const OptionSet&, const PictureFormat&);
std::unique_ptr<Extractor> make_vif_twin(std::shared_ptr<FrameGroup>, const OptionSet&, const PictureFormat&);
std::unique_ptr<Extractor> make_float_ssim_twin(std::shared_ptr<FrameGroup>, const OptionSet&, const PictureFormat&);
std::unique_ptr<Extractor> make_float_ms_ssim_twin(std::shared_ptr<FrameGroup>, const OptionSet&,
                                                   const PictureFormat&);
std::unique_ptr<Extractor> make_motion_twin(std::shared_ptr<FrameGroup>, const OptionSet&, const PictureFormat&);
std::unique_ptr<Extractor> make_psnr_twin(std::shared_ptr<FrameGroup>, const OptionSet&, const PictureFormat&);
std::unique_ptr<Extractor> make_adm_twin(std::shared_ptr<FrameGroup>, const OptionSet&, const PictureFormat&);

}  // namespace vmafx::ocl
