// SPDX-License-Identifier: BSD-3-Clause
#include "backend/cuda/scale_cuda.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "backend/cuda/scale.hpp"
#include "core/error.hpp"

namespace vmafx::cuda {

Scaler::Scaler(int device, const sws::Plan& plan) : device_(device), plan_(plan) {
  check(cudaSetDevice(device_), "cudaSetDevice");
  check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  if (plan_.kind() != sws::Plan::Kind::kScale) return;
  for (int c = 0; c < plan_.filter_sets(); ++c) {
    for (int i = 0; i < 4; ++i) {
      const std::vector<std::int32_t>& a = plan_.filter_array(c, i);
      const std::size_t bytes = a.size() * sizeof(std::int32_t);
      check(cudaMemcpy(filter_[c][i].ensure(bytes), a.data(), bytes, cudaMemcpyHostToDevice), "scaler: filter upload");
    }
  }
}

Scaler::~Scaler() {
  if (stream_) {
    cudaSetDevice(device_);
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
}

void Scaler::scale_device(const void* const src[3], const std::ptrdiff_t src_stride[3], void* const dst[3],
                          const std::ptrdiff_t dst_stride[3]) {
  check(cudaSetDevice(device_), "cudaSetDevice");
  const PictureFormat& sf = plan_.src();
  const PictureFormat& df = plan_.dst();
  std::size_t inter_bytes = 0;
  for (int p = 0; p < df.plane_count(); ++p) {
    const sws::Plan::Plane& g = plan_.plane(p);
    inter_bytes = std::max(inter_bytes, std::size_t(g.dst_w) * g.src_h * sizeof(int));
  }
  // One intermediate per plane would let planes overlap; one buffer keeps
  // memory at a single plane's worth (the stream orders the planes).
  int* inter = plan_.kind() == sws::Plan::Kind::kScale ? static_cast<int*>(inter_.ensure(inter_bytes)) : nullptr;
  for (int p = 0; p < df.plane_count(); ++p) {
    const sws::Plan::Plane& g = plan_.plane(p);
    if (plan_.kind() != sws::Plan::Kind::kScale) {
      scale::launch_depth(src[p], src_stride[p], sf.bpc, dst[p], dst_stride[p], df.bpc, g.dst_w, g.dst_h,
                          plan_.shift_only(p) ? 1 : 0, stream_);
      continue;
    }
    const int c = p == 0 ? 0 : 1;
    auto filt = [&](int i) { return static_cast<const int*>(filter_[c][i].get()); };
    scale::launch_hscale(src[p], src_stride[p], sf.bpc, g.src_w, g.src_h, filt(0), filt(1), g.h.size, g.dst_w,
                         plan_.h_shift(), plan_.wide() ? 1 : 0, inter, stream_);
    scale::launch_vscale(inter, g.dst_w, g.src_h, filt(2), filt(3), g.v.size, g.dst_h, df.bpc, plan_.dithered() ? 1 : 0,
                         p == 2 ? 1 : 0, dst[p], dst_stride[p], stream_);
  }
  check(cudaGetLastError(), "scaler: kernel launch");
}

namespace {

// Bytes of a picture's planes from its first plane on (the device copy
// layout: the host picture's offsets and strides).
std::size_t span(const Picture& pic) {
  const std::uint8_t* base = pic.plane(0).data;
  std::size_t bytes = 0;
  for (int p = 0; p < pic.format().plane_count(); ++p) {
    const PlaneView v = pic.plane(p);
    bytes = std::max(bytes, std::size_t(v.data - base) + std::size_t(v.stride) * std::size_t(v.height));
  }
  return bytes;
}

}  // namespace

void Scaler::scale(const Picture& in, Picture& out) {
  if (!(in.format() == plan_.src()) || !(out.format() == plan_.dst()))
    throw Error("exact scaling (cuda): pictures do not match the plan", Error::Kind::kUsage);
  check(cudaSetDevice(device_), "cudaSetDevice");
  const std::size_t in_bytes = span(in), out_bytes = span(out);
  auto* d_in = static_cast<std::uint8_t*>(src_.ensure(in_bytes));
  auto* d_out = static_cast<std::uint8_t*>(dst_.ensure(out_bytes));
  check(cudaMemcpyAsync(d_in, in.plane(0).data, in_bytes, cudaMemcpyHostToDevice, stream_), "scaler: upload");
  const void* src[3] = {};
  void* dst[3] = {};
  std::ptrdiff_t ss[3] = {}, ds[3] = {};
  for (int p = 0; p < in.format().plane_count(); ++p) {
    src[p] = d_in + (in.plane(p).data - in.plane(0).data);
    ss[p] = in.stride(p);
  }
  for (int p = 0; p < out.format().plane_count(); ++p) {
    dst[p] = d_out + (out.plane(p).data - out.plane(0).data);
    ds[p] = out.stride(p);
  }
  scale_device(src, ss, dst, ds);
  check(cudaMemcpyAsync(out.plane_data(0), d_out, out_bytes, cudaMemcpyDeviceToHost, stream_), "scaler: read-back");
  check(cudaStreamSynchronize(stream_), "scaler: stream");
}

void Scaler::scale_device_copy(const Picture& in, Picture& out) {
  if (!(in.format() == plan_.src()) || !(out.format() == plan_.dst()))
    throw Error("exact scaling (cuda): pictures do not match the plan", Error::Kind::kUsage);
  const Picture::DeviceCopy* dc = in.device_copy();
  if (!dc || dc->cuda_device != device_)
    throw Error("exact scaling (cuda): the source picture has no device copy on device " + std::to_string(device_),
                Error::Kind::kUsage);
  check(cudaSetDevice(device_), "cudaSetDevice");
  auto* base = static_cast<std::uint8_t*>(copies_[&out].ensure(span(out)));
  Picture::DeviceCopy oc;
  oc.cuda_device = device_;
  const void* src[3] = {};
  void* dst[3] = {};
  std::ptrdiff_t ss[3] = {}, ds[3] = {};
  for (int p = 0; p < in.format().plane_count(); ++p) {
    src[p] = dc->plane[p];
    ss[p] = in.stride(p);
  }
  for (int p = 0; p < out.format().plane_count(); ++p) {
    dst[p] = base + (out.plane(p).data - out.plane(0).data);
    ds[p] = out.stride(p);
    oc.plane[p] = dst[p];
  }
  scale_device(src, ss, dst, ds);
  check(cudaStreamSynchronize(stream_), "scaler: stream");
  out.set_device_copy(oc);
}

}  // namespace vmafx::cuda
