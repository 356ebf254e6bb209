// SPDX-License-Identifier: BSD-3-Clause
#include "backend/opencl/scale_opencl.hpp"

#include <cstdint>
#include <vector>

#include "core/error.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "scale.cl";

template <class T>
void arg(cl_kernel k, cl_uint i, const T& v) {
  check(clSetKernelArg(k, i, sizeof(T), &v), "clSetKernelArg (scale)");
}

std::size_t round_up(std::size_t v, std::size_t m) { return (v + m - 1) / m * m; }

void run2d(cl_command_queue q, cl_kernel k, int w, int h) {
  const std::size_t local[2] = {16, 8};
  const std::size_t global[2] = {round_up(std::size_t(w), local[0]), round_up(std::size_t(h), local[1])};
  check(clEnqueueNDRangeKernel(q, k, 2, nullptr, global, local, 0, nullptr, nullptr), "clEnqueueNDRangeKernel (scale)");
}

}  // namespace

Scaler::Scaler(int gpu, const sws::Plan& plan) : dev_(Device::get(gpu)), plan_(plan) {
  cl_int err = CL_SUCCESS;
  queue_ = clCreateCommandQueue(dev_.context(), dev_.id(), 0, &err);
  check(err, "clCreateCommandQueue (scale)");
  cl_program prog = dev_.program(kFile);
  hscale_ = clCreateKernel(prog, "sws_hscale", &err);
  check(err, "clCreateKernel sws_hscale");
  vscale_ = clCreateKernel(prog, "sws_vscale", &err);
  check(err, "clCreateKernel sws_vscale");
  depth_ = clCreateKernel(prog, "sws_depth", &err);
  check(err, "clCreateKernel sws_depth");
  if (plan_.kind() != sws::Plan::Kind::kScale) return;
  for (int c = 0; c < plan_.filter_sets(); ++c) {
    for (int i = 0; i < 4; ++i) {
      const std::vector<std::int32_t>& a = plan_.filter_array(c, i);
      const std::size_t bytes = a.size() * sizeof(std::int32_t);
      cl_mem m = filter_[c][i].get(dev_.context(), bytes);
      write(queue_, m, a.data(), bytes);
    }
  }
}

Scaler::~Scaler() {
  dev_.wait_built(kFile);  // no cache write outlives the run
  if (hscale_) clReleaseKernel(hscale_);
  if (vscale_) clReleaseKernel(vscale_);
  if (depth_) clReleaseKernel(depth_);
  if (queue_) clReleaseCommandQueue(queue_);
}

void Scaler::scale(const Picture& in, Picture& out) {
  if (!(in.format() == plan_.src()) || !(out.format() == plan_.dst()))
    throw Error("exact scaling (opencl): pictures do not match the plan", Error::Kind::kUsage);
  const PictureFormat& sf = plan_.src();
  const PictureFormat& df = plan_.dst();
  const int sb = sf.bytes_per_sample(), db = df.bytes_per_sample();
  const cl_context ctx = dev_.context();
  for (int p = 0; p < df.plane_count(); ++p) {
    const sws::Plan::Plane& g = plan_.plane(p);
    // Upload the source plane packed (pitch = width).
    const PlaneView v = in.plane(p);
    cl_mem src = src_[p].get(ctx, std::size_t(g.src_w) * g.src_h * sb);
    const std::size_t row = std::size_t(g.src_w) * sb;
    const std::size_t src_origin[3] = {0, 0, 0}, region[3] = {row, std::size_t(g.src_h), 1};
    check(clEnqueueWriteBufferRect(queue_, src, CL_FALSE, src_origin, src_origin, region, row, 0, std::size_t(v.stride),
                                   0, v.data, 0, nullptr, nullptr),
          "clEnqueueWriteBufferRect (scale source)");
    cl_mem dst = dst_[p].get(ctx, std::size_t(g.dst_w) * g.dst_h * db);
    if (plan_.kind() != sws::Plan::Kind::kScale) {
      const cl_int a[] = {sf.bpc, g.src_w, df.bpc, g.dst_w, g.dst_w, g.dst_h, plan_.shift_only(p) ? 1 : 0};
      arg(depth_, 0, src);
      arg(depth_, 1, a[0]);
      arg(depth_, 2, a[1]);
      arg(depth_, 3, dst);
      arg(depth_, 4, a[2]);
      arg(depth_, 5, a[3]);
      arg(depth_, 6, a[4]);
      arg(depth_, 7, a[5]);
      arg(depth_, 8, a[6]);
      run2d(queue_, depth_, g.dst_w, g.dst_h);
    } else {
      const int c = p == 0 ? 0 : 1;
      cl_mem inter = inter_.get(ctx, std::size_t(g.dst_w) * g.src_h * sizeof(std::int32_t));
      const cl_int src_wide = sb == 2 ? 1 : 0, wide = plan_.wide() ? 1 : 0, sh = plan_.h_shift();
      arg(hscale_, 0, src);
      arg(hscale_, 1, src_wide);
      arg(hscale_, 2, cl_int(g.src_w));
      arg(hscale_, 3, cl_int(g.src_w));
      arg(hscale_, 4, cl_int(g.src_h));
      arg(hscale_, 5, filter_[c][0].mem());
      arg(hscale_, 6, filter_[c][1].mem());
      arg(hscale_, 7, cl_int(g.h.size));
      arg(hscale_, 8, cl_int(g.dst_w));
      arg(hscale_, 9, sh);
      arg(hscale_, 10, wide);
      arg(hscale_, 11, inter);
      run2d(queue_, hscale_, g.dst_w, g.src_h);
      arg(vscale_, 0, inter);
      arg(vscale_, 1, cl_int(g.dst_w));
      arg(vscale_, 2, cl_int(g.src_h));
      arg(vscale_, 3, filter_[c][2].mem());
      arg(vscale_, 4, filter_[c][3].mem());
      arg(vscale_, 5, cl_int(g.v.size));
      arg(vscale_, 6, cl_int(g.dst_h));
      arg(vscale_, 7, cl_int(df.bpc));
      arg(vscale_, 8, cl_int(plan_.dithered() ? 1 : 0));
      arg(vscale_, 9, cl_int(p == 2 ? 1 : 0));
      arg(vscale_, 10, dst);
      arg(vscale_, 11, cl_int(g.dst_w));
      run2d(queue_, vscale_, g.dst_w, g.dst_h);
    }
    const std::size_t orow = std::size_t(g.dst_w) * db;
    const std::size_t oregion[3] = {orow, std::size_t(g.dst_h), 1};
    enqueue_wait(
        [&](cl_event* e) {
          return clEnqueueReadBufferRect(queue_, dst, CL_FALSE, src_origin, src_origin, oregion, orow, 0,
                                         std::size_t(out.stride(p)), 0, out.plane_data(p), 0, nullptr, e);
        },
        "read back (scale output)", "clEnqueueReadBufferRect (scale output)");
  }
}

}  // namespace vmafx::ocl
