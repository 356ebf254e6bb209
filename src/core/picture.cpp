// SPDX-License-Identifier: BSD-3-Clause
#include "vmaf_exact/picture.hpp"

#include <cstdlib>
#include <new>

namespace vmafx {

namespace {
constexpr std::size_t kAlign = 64;
std::size_t round_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
}  // namespace

void Picture::Free::operator()(std::uint8_t* p) const {
  if (a.free)
    a.free(p, a.ctx);
  else
    std::free(p);
}

Picture::Picture(const PictureFormat& fmt, const HostAllocator* allocator) : fmt_(fmt) {
  std::size_t total = 0;
  for (int p = 0; p < fmt.plane_count(); ++p) {
    stride_[p] = static_cast<std::ptrdiff_t>(round_up(std::size_t(fmt.plane_width(p)) * fmt.bytes_per_sample()));
    offset_[p] = total;
    total += std::size_t(stride_[p]) * fmt.plane_height(p);
  }
  const std::size_t bytes = round_up(total ? total : kAlign);
  Free f{};
  void* mem = nullptr;
  if (allocator && allocator->alloc) {
    mem = allocator->alloc(bytes, allocator->ctx);
    f.a = *allocator;
  } else {
    mem = std::aligned_alloc(kAlign, bytes);
  }
  if (!mem) throw std::bad_alloc();
  buf_ = std::unique_ptr<std::uint8_t[], Free>(static_cast<std::uint8_t*>(mem), f);
}

}  // namespace vmafx
