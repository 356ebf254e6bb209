// The OpenCL backend: device selection, twin lookup, engine groups.
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "backend/opencl/opencl_runtime.hpp"
#include "core/error.hpp"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx {
namespace ocl {

TwinFactory find_twin(std::string_view extractor) {
  struct Entry {
    std::string_view name;
    TwinFactory make;
  };
  static constexpr Entry kTwins[] = {
      {"ssim", make_ssim_twin},
      {"vif", make_vif_twin},
      {"float_ssim", make_float_ssim_twin},
      {"float_ms_ssim", make_float_ms_ssim_twin},
      {"motion", make_motion_twin},
      {"psnr", make_psnr_twin},
      {"adm", make_adm_twin},
  };
  for (const Entry& e : kTwins)
    if (e.name == extractor) return e.make;
  return nullptr;
}

namespace {

class OpenclBackend final : public Backend {
 public:
  explicit OpenclBackend(int gpu) : dev_(Device::get(gpu)) {}

  std::string_view name() const override { return "opencl"; }
  std::string device_name() const override { return dev_.name() + " (" + dev_.platform_name() + ")"; }

  const HostAllocator* host_allocator() const override {
    // VMAFX_OPENCL_PAGEABLE=1: plain heap pictures (for comparison)
    const char* e = std::getenv("VMAFX_OPENCL_PAGEABLE");
    return e && *e == '1' ? nullptr : dev_.pinned_allocator();
  }

  std::unique_ptr<Extractor> create_twin(const ExtractorDescriptor& d, const OptionSet& opts,
                                         const PictureFormat& fmt) override {
    const TwinFactory make = find_twin(d.name);
    if (!make) return nullptr;
    // A format the reference refuses has no twin either: the engine then
    // reports the reference's own error (or falls back to it).
    try {
      d.create(opts, fmt);
    } catch (const Error&) {
      return nullptr;
    }
    std::lock_guard lk(mu_);
    if (!group_ || group_->sealed()) group_ = std::make_shared<FrameGroup>(dev_);
    return make(group_, opts, fmt);
  }

 private:
  Device& dev_;
  std::mutex mu_;
  std::shared_ptr<FrameGroup> group_;
};

}  // namespace
}  // namespace ocl

std::unique_ptr<Backend> make_opencl_backend(int gpu) { return std::make_unique<ocl::OpenclBackend>(gpu); }

std::vector<std::string> list_opencl_devices() {
  std::vector<std::string> out;
  std::vector<ocl::DeviceEntry> all;
  try {
    all = ocl::enumerate_devices();
  } catch (const Error&) {
    return out;  // no platform: no devices
  }
  for (std::size_t i = 0; i < all.size(); ++i)
    out.push_back("opencl " + std::to_string(i) + ": " + all[i].platform_name + " / " + all[i].device_name);
  return out;
}

}  // namespace vmafx
