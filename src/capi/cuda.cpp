// SPDX-License-Identifier: BSD-3-Clause
// libvmaf C API, CUDA part (libvmaf_cuda.h), in CUDA builds: a context that
// imported a CUDA state scores with the CUDA backend (twins on the GPU, the
// other extractors on the CPU); pictures may live in device memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "capi/capi.hpp"
#include "libvmaf/libvmaf_cuda.h"
#include "vmaf_exact/input.hpp"

struct VmafCudaState {
  int device = 0;
  void* cu_ctx = nullptr;
};

namespace vmafx::capi {

namespace {

void* device_alloc(std::size_t bytes) {
  void* p = nullptr;
  return cudaMalloc(&p, bytes) == cudaSuccess ? p : nullptr;
}
void device_free(void* p) { cudaFree(p); }
void* pinned_alloc(std::size_t bytes) {
  void* p = nullptr;
  return cudaMallocHost(&p, bytes) == cudaSuccess ? p : nullptr;
}
void pinned_free(void* p) { cudaFreeHost(p); }
void* heap_alloc(std::size_t bytes) { return std::aligned_alloc(64, (bytes + 63) / 64 * 64); }
void heap_free(void* p) { std::free(p); }

}  // namespace

// Copies a device picture into an engine picture (odd sizes: the last
// column / row repeated into the engine's rounded-up chroma planes): on the
// device through `importer` when there is one and the planes have the
// engine's sizes, otherwise into host memory.
int copy_device_picture(const VmafPicture& src, vmafx::Picture& dst, vmafx::DeviceImporter* importer) {
  const unsigned bps = src.bpc > 8 ? 2 : 1;
  const int planes = dst.format().plane_count();
  bool exact_size = true;
  for (int p = 0; p < planes; ++p)
    exact_size = exact_size && int(src.w[p]) == dst.format().plane_width(p) &&
                 int(src.h[p]) == dst.format().plane_height(p) && src.stride[p] <= std::ptrdiff_t(INT32_MAX);
  if (importer && exact_size) {
    vmafx::DeviceImporter::Surface s;
    for (int p = 0; p < planes; ++p) {
      s.data[p] = src.data[p];
      s.pitch[p] = int(src.stride[p]);
    }
    importer->import(s, dst);  // no shift: no stray bits to find
    return 0;
  }
  for (int p = 0; p < dst.format().plane_count(); ++p) {
    const int dw = dst.format().plane_width(p), dh = dst.format().plane_height(p);
    const unsigned sw = std::min<unsigned>(src.w[p], dw), sh = std::min<unsigned>(src.h[p], dh);
    if (cudaMemcpy2D(dst.plane_data(p), dst.stride(p), src.data[p], src.stride[p], std::size_t(sw) * bps, sh,
                     cudaMemcpyDeviceToHost) != cudaSuccess) {
      log(VMAF_LOG_LEVEL_ERROR, "vmaf_read_pictures: copying a device picture failed");
      return -EINVAL;
    }
    for (int y = 0; y < dh; ++y) {
      std::uint8_t* d = dst.plane_data(p) + std::ptrdiff_t(y) * dst.stride(p);
      if (unsigned(y) >= sh)
        std::memcpy(d, dst.plane_data(p) + std::ptrdiff_t(sh - 1) * dst.stride(p), std::size_t(sw) * bps);
      for (int x = sw; x < dw; ++x) std::memcpy(d + x * bps, d + (sw - 1) * bps, bps);
    }
  }
  return 0;
}

}  // namespace vmafx::capi

using namespace vmafx::capi;

extern "C" {

int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg) {
  if (!cu_state) return -EINVAL;
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    log(VMAF_LOG_LEVEL_ERROR, "vmaf_cuda_state_init: no CUDA device");
    return -EINVAL;
  }
  auto* s = static_cast<VmafCudaState*>(std::malloc(sizeof(VmafCudaState)));
  if (!s) return -ENOMEM;
  s->device = 0;
  s->cu_ctx = cfg.cu_ctx;
  *cu_state = s;
  return 0;
}

int vmaf_cuda_import_state(VmafContext* vmaf, VmafCudaState* cu_state) {
  if (!vmaf || !cu_state) return -EINVAL;
  if (vmaf->engine || vmaf->flushed || !vmaf->uses.empty()) {
    log(VMAF_LOG_LEVEL_ERROR, "vmaf_cuda_import_state: call it before registering features");
    return -EINVAL;
  }
  vmaf->use_cuda = true;
  vmaf->cuda_device = cu_state->device;
  return 0;
}

int vmaf_cuda_preallocate_pictures(VmafContext* vmaf, VmafCudaPictureConfiguration cfg) {
  if (!vmaf || vmaf->cuda_pool) return -EINVAL;
  const int method = cfg.pic_prealloc_method;
  if (method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE) return 0;
  if (method < VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE ||
      method > VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED)
    return -EINVAL;
  VmafPicture shape;
  std::size_t bytes;
  if (!picture_geometry(shape, cfg.pic_params.pix_fmt, cfg.pic_params.bpc, cfg.pic_params.w, cfg.pic_params.h, bytes))
    return -EINVAL;
  try {
    auto pool = make_host_pool(shape, bytes, 4);
    if (method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE) {
      pool->buf = BufType::kDevice;
      pool->alloc = device_alloc;
      pool->free_fn = device_free;
    } else if (method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED) {
      pool->alloc = pinned_alloc;
      pool->free_fn = pinned_free;
    } else {
      pool->alloc = heap_alloc;
      pool->free_fn = heap_free;
    }
    vmaf->cuda_pool = std::move(pool);
    vmaf->cuda_prealloc_method = method;
    return 0;
  } catch (...) {
    return -ENOMEM;
  }
}

int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
  if (!vmaf || !pic || !vmaf->cuda_pool) return -EINVAL;
  try {
    return pool_fetch(vmaf->cuda_pool, pic);
  } catch (...) {
    return -ENOMEM;
  }
}

}  // extern "C"
