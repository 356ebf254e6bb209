/* SPDX-License-Identifier: BSD-3-Clause */
/* vmaf-exact: libvmaf 3.2.0's C API, libvmaf.h.
 *
 * A drop-in for libvmaf: the same functions, types, enum values and struct
 * layouts, so that programs built for libvmaf (FFmpeg's libvmaf filter,
 * libaom, ...) link and run against vmaf-exact's libvmaf.so.3 unchanged, and
 * get libvmaf's scores, bit for bit. Written for vmaf-exact from libvmaf's
 * documented API. docs/c-api.md describes what each call does here.
 *
 * Every function returns 0 on success or a negative errno value (-EINVAL for
 * bad arguments or a failed computation, -ENOMEM). The library never exits,
 * aborts or prints anything above the log level of the context. One context
 * must not be used by two threads at once; separate contexts work in
 * parallel. */
#ifndef VMAFX_LIBVMAF_H
#define VMAFX_LIBVMAF_H

#include <stdint.h>
#include <stdio.h>

#include "libvmaf/model.h"
#include "libvmaf/picture.h"
#include "libvmaf/feature.h"

#ifdef __cplusplus
extern "C" {
#endif

enum VmafLogLevel {
    VMAF_LOG_LEVEL_NONE = 0,
    VMAF_LOG_LEVEL_ERROR,
    VMAF_LOG_LEVEL_WARNING,
    VMAF_LOG_LEVEL_INFO,
    VMAF_LOG_LEVEL_DEBUG,
};

enum VmafOutputFormat {
    VMAF_OUTPUT_FORMAT_NONE = 0,
    VMAF_OUTPUT_FORMAT_XML,
    VMAF_OUTPUT_FORMAT_JSON,
    VMAF_OUTPUT_FORMAT_CSV,
    VMAF_OUTPUT_FORMAT_SUB,
};

enum VmafPoolingMethod {
    VMAF_POOL_METHOD_UNKNOWN = 0,
    VMAF_POOL_METHOD_MIN,
    VMAF_POOL_METHOD_MAX,
    VMAF_POOL_METHOD_MEAN,
    VMAF_POOL_METHOD_HARMONIC_MEAN,
    VMAF_POOL_METHOD_NB
};

/* Passed by value to vmaf_init().
 *   log_level    what the library may print on stderr (messages at or above
 *                it); one line each, prefixed "libvmaf".
 *   n_threads    worker threads; 0: none, every extractor runs on the thread
 *                that calls vmaf_read_pictures(). Scores never depend on it.
 *   n_subsample  score every n-th frame (0 or 1: every frame).
 *   cpumask      accepted for compatibility; SIMD never changes a score
 *                (the same in every instruction set), so nothing is masked.
 *   gpumask      non-zero: no GPU, even after vmaf_cuda_import_state(). */
typedef struct VmafConfiguration {
    enum VmafLogLevel log_level;
    unsigned n_threads;
    unsigned n_subsample;
    uint64_t cpumask;
    uint64_t gpumask;
} VmafConfiguration;

typedef struct VmafContext VmafContext;

/* Opens a context in *vmaf; close it with vmaf_close(). */
int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg);

/* Registers the feature extractors `model` needs (extractors shared by
 * several models run once). Call before the first picture; the model must
 * stay loaded while its scores are asked for. */
int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model);

/* The same for every sub-model of a bootstrap collection. */
int vmaf_use_features_from_model_collection(VmafContext *vmaf,
                                            VmafModelCollection *model_collection);

/* Registers one feature extractor by name ("psnr", "float_ssim", "cambi",
 * ...) with options (opts_dict may be NULL). The context takes opts_dict
 * when this succeeds; on failure it is still the caller's. */
int vmaf_use_feature(VmafContext *vmaf, const char *feature_name,
                     VmafFeatureDictionary *opts_dict);

/* Stores a score computed elsewhere as feature `feature_name` of picture
 * `index` (models use it like an extracted one). -EINVAL if that feature
 * already has a value there, or for an index past both the pictures read and
 * 2^24 - 1 (the scores are kept frame by frame: a stray index must not
 * allocate gigabytes). */
int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name,
                              double value, unsigned index);

/* Hands over the next pair of pictures; pairs are numbered 0, 1, 2, ... in
 * the order they are handed over (another index is -EINVAL). The context takes both pictures (and
 * unreferences them) when this succeeds, also when it fails after they were
 * accepted. ref = dist = NULL flushes: every frame is scored, after which no
 * picture can follow. A 4:2:0 or 4:2:2 picture one sample wide (4:2:0: or
 * tall) has empty chroma planes and is refused (-EINVAL, still the caller's). */
int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist,
                       unsigned index);

/* The model's score of picture `index` (predicted and stored on first use).
 * Model scores are available after the flush. */
int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score,
                        unsigned index);

int vmaf_score_at_index_model_collection(VmafContext *vmaf,
                                         VmafModelCollection *model_collection,
                                         VmafModelCollectionScore *score,
                                         unsigned index);

/* A feature's (or model's) stored value at picture `index`. */
int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name,
                                double *score, unsigned index);

/* The model's scores of pictures [index_low, index_high] (every n_subsample-th)
 * pooled with pool_method. */
int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model,
                      enum VmafPoolingMethod pool_method, double *score,
                      unsigned index_low, unsigned index_high);

int vmaf_score_pooled_model_collection(VmafContext *vmaf,
                                       VmafModelCollection *model_collection,
                                       enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore *score,
                                       unsigned index_low, unsigned index_high);

int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name,
                              enum VmafPoolingMethod pool_method, double *score,
                              unsigned index_low, unsigned index_high);

/* Geometry of pictures to preallocate (by value to vmaf_preallocate_pictures). */
typedef struct VmafPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    unsigned pic_cnt;
} VmafPictureConfiguration;

/* Prepares pic_cnt pictures of this geometry for vmaf_fetch_preallocated_picture(). */
int vmaf_preallocate_pictures(VmafContext *vmaf,
                              VmafPictureConfiguration cfg);

/* One preallocated picture (waits while all are in use); hand it to
 * vmaf_read_pictures() or vmaf_picture_unref(). */
int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

/* Closes the context and frees all it holds. */
int vmaf_close(VmafContext *vmaf);

/* Writes every stored score, per picture and pooled, to output_path in
 * libvmaf's layout (the vmaf command line's report). */
int vmaf_write_output(VmafContext *vmaf, const char *output_path,
                      enum VmafOutputFormat fmt);

/* "3.2.0-vmaf-exact-<version>". */
const char *vmaf_version(void);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_H */
