/* SPDX-License-Identifier: BSD-3-Clause */
/* vmaf-exact: libvmaf 3.2.0's C API, picture.h (pictures handed to the library).
 * Written for vmaf-exact from libvmaf's documented API; same types and layout. */
#ifndef VMAFX_LIBVMAF_PICTURE_H
#define VMAFX_LIBVMAF_PICTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P,
};

/* Reference count of a picture's buffer (opaque). */
typedef struct VmafRef VmafRef;

/* A picture: up to three planes of `bpc`-bit samples (one byte per sample at
 * 8 bits, two native-endian bytes above). w/h are each plane's size in
 * samples, stride the bytes from one row to the next. `ref` and `priv`
 * belong to the library. */
typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/* Allocates a w x h picture of `pix_fmt` with `bpc` bits per sample (8..16),
 * zero-filled. Chroma planes are (w >> 1) wide for 4:2:0 and 4:2:2 and
 * (h >> 1) high for 4:2:0; rows are padded to 32 samples. Returns 0, or
 * -EINVAL (bad arguments) / -ENOMEM. */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt,
                       unsigned bpc, unsigned w, unsigned h);

/* Drops the caller's reference: the buffer is freed with the last one, and
 * *pic is zeroed. -EINVAL for NULL or a picture that holds no reference. */
int vmaf_picture_unref(VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_PICTURE_H */
