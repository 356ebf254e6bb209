/* SPDX-License-Identifier: BSD-3-Clause */
/* Prints the layout of libvmaf's public C ABI: the size and alignment of every
 * public struct, the offset of every field, and every enumerator's value.
 * Compiled against libvmaf 3.2.0's own headers (Netflix/vmaf
 * v3.2.0-13-gf85a8536, libvmaf/include/libvmaf/) it wrote
 * tests/data/libvmaf_abi.txt:
 *   cc -std=c11 -I SRC/libvmaf/include tests/abi/libvmaf_abi.c -o abi && ./abi > tests/data/libvmaf_abi.txt
 * The headers it was compiled against (sha256):
 *   3b91f45bfdcc25e9b43f4e4da9310c14f5718d4d7f222a6cac5f1a258fb14de6  libvmaf.h
 *   4c25a226e4caefa7eca56c782167597fff1729c8caa1c145183c9479eca94180  model.h
 *   a649f92c78dc9755c0aaf19d7c16831f6a7a8bad321ce064c18eac40c2c1bc98  picture.h
 *   a259aed55f548cd29976b546da215ea8cc98a200df904b76573e434ef8f626b6  feature.h
 *   411c80b098e64c788f9ea703fb5d5a6eff4575dfaed186e3e47e640fafac60c2  libvmaf_cuda.h
 * (gcc 12.2, x86-64 Linux, LP64). The test libvmaf_abi builds it against ours (include/libvmaf) and compares
 * the output with that file, so no layout change passes unseen. */
#include <stddef.h>
#include <stdio.h>

#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_cuda.h"

#define SIZE(T) printf("sizeof %s %zu align %zu\n", #T, sizeof(T), _Alignof(T))
#define FIELD(T, f) printf("offsetof %s.%s %zu size %zu\n", #T, #f, offsetof(T, f), sizeof(((T *)0)->f))
#define ENUM(e) printf("enum %s %lld\n", #e, (long long)(e))

int main(void) {
  SIZE(VmafConfiguration);
  FIELD(VmafConfiguration, log_level);
  FIELD(VmafConfiguration, n_threads);
  FIELD(VmafConfiguration, n_subsample);
  FIELD(VmafConfiguration, cpumask);
  FIELD(VmafConfiguration, gpumask);
  SIZE(VmafPictureConfiguration);
  FIELD(VmafPictureConfiguration, pic_params.w);
  FIELD(VmafPictureConfiguration, pic_params.h);
  FIELD(VmafPictureConfiguration, pic_params.bpc);
  FIELD(VmafPictureConfiguration, pic_params.pix_fmt);
  FIELD(VmafPictureConfiguration, pic_cnt);
  SIZE(VmafModelConfig);
  FIELD(VmafModelConfig, name);
  FIELD(VmafModelConfig, flags);
  SIZE(VmafModelCollectionScore);
  FIELD(VmafModelCollectionScore, type);
  FIELD(VmafModelCollectionScore, bootstrap.bagging_score);
  FIELD(VmafModelCollectionScore, bootstrap.stddev);
  FIELD(VmafModelCollectionScore, bootstrap.ci.p95.lo);
  FIELD(VmafModelCollectionScore, bootstrap.ci.p95.hi);
  SIZE(VmafPicture);
  FIELD(VmafPicture, pix_fmt);
  FIELD(VmafPicture, bpc);
  FIELD(VmafPicture, w);
  FIELD(VmafPicture, h);
  FIELD(VmafPicture, stride);
  FIELD(VmafPicture, data);
  FIELD(VmafPicture, ref);
  FIELD(VmafPicture, priv);
  SIZE(VmafCudaConfiguration);
  FIELD(VmafCudaConfiguration, cu_ctx);
  SIZE(VmafCudaPictureConfiguration);
  FIELD(VmafCudaPictureConfiguration, pic_params.w);
  FIELD(VmafCudaPictureConfiguration, pic_params.h);
  FIELD(VmafCudaPictureConfiguration, pic_params.bpc);
  FIELD(VmafCudaPictureConfiguration, pic_params.pix_fmt);
  FIELD(VmafCudaPictureConfiguration, pic_prealloc_method);
  SIZE(enum VmafLogLevel);
  ENUM(VMAF_LOG_LEVEL_NONE);
  ENUM(VMAF_LOG_LEVEL_ERROR);
  ENUM(VMAF_LOG_LEVEL_WARNING);
  ENUM(VMAF_LOG_LEVEL_INFO);
  ENUM(VMAF_LOG_LEVEL_DEBUG);
  SIZE(enum VmafOutputFormat);
  ENUM(VMAF_OUTPUT_FORMAT_NONE);
  ENUM(VMAF_OUTPUT_FORMAT_XML);
  ENUM(VMAF_OUTPUT_FORMAT_JSON);
  ENUM(VMAF_OUTPUT_FORMAT_CSV);
  ENUM(VMAF_OUTPUT_FORMAT_SUB);
  SIZE(enum VmafPoolingMethod);
  ENUM(VMAF_POOL_METHOD_UNKNOWN);
  ENUM(VMAF_POOL_METHOD_MIN);
  ENUM(VMAF_POOL_METHOD_MAX);
  ENUM(VMAF_POOL_METHOD_MEAN);
  ENUM(VMAF_POOL_METHOD_HARMONIC_MEAN);
  ENUM(VMAF_POOL_METHOD_NB);
  SIZE(enum VmafModelFlags);
  ENUM(VMAF_MODEL_FLAGS_DEFAULT);
  ENUM(VMAF_MODEL_FLAG_DISABLE_CLIP);
  ENUM(VMAF_MODEL_FLAG_ENABLE_TRANSFORM);
  ENUM(VMAF_MODEL_FLAG_DISABLE_TRANSFORM);
  SIZE(enum VmafModelCollectionScoreType);
  ENUM(VMAF_MODEL_COLLECTION_SCORE_UNKNOWN);
  ENUM(VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
  SIZE(enum VmafPixelFormat);
  ENUM(VMAF_PIX_FMT_UNKNOWN);
  ENUM(VMAF_PIX_FMT_YUV420P);
  ENUM(VMAF_PIX_FMT_YUV422P);
  ENUM(VMAF_PIX_FMT_YUV444P);
  ENUM(VMAF_PIX_FMT_YUV400P);
  SIZE(enum VmafCudaPicturePreallocationMethod);
  ENUM(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE);
  ENUM(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE);
  ENUM(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST);
  ENUM(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED);
  return 0;
}
