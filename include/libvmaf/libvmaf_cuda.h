/* SPDX-License-Identifier: BSD-3-Clause */
/* vmaf-exact: libvmaf 3.2.0's C API, libvmaf_cuda.h (installed with CUDA
 * builds): scoring on an NVIDIA GPU, with pictures in host or device memory. */
#ifndef VMAFX_LIBVMAF_CUDA_H
#define VMAFX_LIBVMAF_CUDA_H

#include "libvmaf/libvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A GPU to score on (opaque). */
typedef struct VmafCudaState VmafCudaState;

typedef struct VmafCudaConfiguration {
    void *cu_ctx; /* a CUcontext to work in; NULL: device 0's primary context */
} VmafCudaConfiguration;

/* Opens a GPU in *cu_state (allocated with malloc: free() it, or leave it, once
 * no context uses it). -EINVAL when there is no usable CUDA device. */
int vmaf_cuda_state_init(VmafCudaState **cu_state, VmafCudaConfiguration cfg);

/* Makes the context score on that GPU (unless its gpumask is non-zero): the
 * extractors with CUDA twins run there, the others on the CPU. Call before
 * registering features. */
int vmaf_cuda_import_state(VmafContext *vmaf, VmafCudaState *cu_state);

enum VmafCudaPicturePreallocationMethod {
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE = 0,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED,
};

typedef struct VmafCudaPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    enum VmafCudaPicturePreallocationMethod pic_prealloc_method;
} VmafCudaPictureConfiguration;

/* Prepares pictures for vmaf_cuda_fetch_preallocated_picture(): in device
 * memory (DEVICE: data[] are device pointers in the state's CUcontext, to be
 * filled there, e.g. with cuMemcpy2D), in plain host memory (HOST) or in
 * page-locked host memory (HOST_PINNED). */
int vmaf_cuda_preallocate_pictures(VmafContext *vmaf,
                                   VmafCudaPictureConfiguration cfg);

/* One picture prepared by vmaf_cuda_preallocate_pictures(); hand it to
 * vmaf_read_pictures() (device pictures are scored without a copy to the
 * host when every extractor runs on the GPU) or to vmaf_picture_unref(). */
int vmaf_cuda_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture* pic);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_CUDA_H */
