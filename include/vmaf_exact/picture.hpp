// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace vmafx {

enum class ChromaFormat : std::uint8_t { k420, k422, k444, k400 };

// Geometry and sample format of a picture. Samples are uint8_t when bpc == 8
// and uint16_t (native endian) when 9 <= bpc <= 16.
struct PictureFormat {
  int width = 0;
  int height = 0;
  int bpc = 8;
  ChromaFormat chroma = ChromaFormat::k420;

  int plane_count() const { return chroma == ChromaFormat::k400 ? 1 : 3; }
  int bytes_per_sample() const { return bpc > 8 ? 2 : 1; }
  // Chroma planes of odd-sized pictures round up, as Y4M and FFmpeg store them.
  int plane_width(int p) const {
    if (p == 0 || chroma == ChromaFormat::k444) return width;
    return (width + 1) >> 1;
  }
  int plane_height(int p) const {
    if (p == 0 || chroma != ChromaFormat::k420) return height;
    return (height + 1) >> 1;
  }
  std::size_t plane_bytes(int p) const { return std::size_t(plane_width(p)) * plane_height(p) * bytes_per_sample(); }
  std::size_t frame_bytes() const {
    std::size_t n = 0;
    for (int p = 0; p < plane_count(); ++p) n += plane_bytes(p);
    return n;
  }
  bool operator==(const PictureFormat&) const = default;
};

// A read-only view of one plane. stride is in bytes.
struct PlaneView {
  const std::uint8_t* data = nullptr;
  std::ptrdiff_t stride = 0;
  int width = 0;
  int height = 0;

  template <class T>
  const T* row(int y) const {
    return reinterpret_cast<const T*>(data + y * stride);
  }
};

// Where picture memory comes from: the default heap, or a device backend's
// page-locked host memory (faster uploads). `alloc` returns 64-byte aligned
// memory or nullptr.
struct HostAllocator {
  void* (*alloc)(std::size_t bytes, void* ctx) = nullptr;
  void (*free)(void* p, void* ctx) = nullptr;
  void* ctx = nullptr;
};

// An owning picture: up to three planes in one 64-byte aligned allocation,
// each row starting on a 64-byte boundary. Pictures are reused through a pool;
// allocation happens once per buffer, never per frame.
class Picture {
 public:
  Picture() = default;
  explicit Picture(const PictureFormat& fmt, const HostAllocator* allocator = nullptr);

  const PictureFormat& format() const { return fmt_; }
  int width() const { return fmt_.width; }
  int height() const { return fmt_.height; }
  int bpc() const { return fmt_.bpc; }

  PlaneView plane(int p) const {
    return {buf_.get() + offset_[p], stride_[p], fmt_.plane_width(p), fmt_.plane_height(p)};
  }
  std::uint8_t* plane_data(int p) { return buf_.get() + offset_[p]; }
  std::ptrdiff_t stride(int p) const { return stride_[p]; }

  template <class T>
  T* row(int p, int y) {
    return reinterpret_cast<T*>(plane_data(p) + y * stride_[p]);
  }
  template <class T>
  const T* row(int p, int y) const {
    return plane(p).row<T>(y);
  }

  // Where this frame's samples are when a GPU decoder left them in device
  // memory (NVDEC with --backend cuda): planar, with this picture's strides,
  // in memory of the CUDA backend that imported them (DeviceImporter). The
  // host planes then hold nothing of the frame; only that backend's twins
  // read such a picture. Cleared whenever the picture is filled on the host.
  struct DeviceCopy {
    int cuda_device = -1;
    const void* plane[3] = {nullptr, nullptr, nullptr};
  };
  const DeviceCopy* device_copy() const { return device_.cuda_device >= 0 ? &device_ : nullptr; }
  void set_device_copy(const DeviceCopy& d) { device_ = d; }
  void clear_device_copy() { device_ = {}; }

 private:
  struct Free {
    HostAllocator a;
    void operator()(std::uint8_t* p) const;
  };
  PictureFormat fmt_{};
  std::unique_ptr<std::uint8_t[], Free> buf_;
  std::ptrdiff_t stride_[3] = {0, 0, 0};
  std::size_t offset_[3] = {0, 0, 0};
  DeviceCopy device_{};
};

}  // namespace vmafx
