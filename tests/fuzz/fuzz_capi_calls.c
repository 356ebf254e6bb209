/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_capi's calls that pass an enum by value, with the int a C caller may
 * put there (any int: C allows it; a C++ caller could not pass one outside
 * the enum's range without undefined behaviour of its own). */
#include "libvmaf/libvmaf.h"

int fuzz_picture_alloc(VmafPicture *pic, int pix_fmt, unsigned bpc, unsigned w, unsigned h) {
  return vmaf_picture_alloc(pic, (enum VmafPixelFormat)pix_fmt, bpc, w, h);
}

int fuzz_score_pooled(VmafContext *vmaf, VmafModel *model, int method, double *score, unsigned lo, unsigned hi) {
  return vmaf_score_pooled(vmaf, model, (enum VmafPoolingMethod)method, score, lo, hi);
}

int fuzz_feature_score_pooled(VmafContext *vmaf, const char *name, int method, double *score, unsigned lo,
                              unsigned hi) {
  return vmaf_feature_score_pooled(vmaf, name, (enum VmafPoolingMethod)method, score, lo, hi);
}

int fuzz_score_pooled_model_collection(VmafContext *vmaf, VmafModelCollection *mc, int method,
                                       VmafModelCollectionScore *score, unsigned lo, unsigned hi) {
  return vmaf_score_pooled_model_collection(vmaf, mc, (enum VmafPoolingMethod)method, score, lo, hi);
}

int fuzz_write_output(VmafContext *vmaf, const char *path, int fmt) {
  return vmaf_write_output(vmaf, path, (enum VmafOutputFormat)fmt);
}
