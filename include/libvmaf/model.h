/* SPDX-License-Identifier: BSD-3-Clause */
/* vmaf-exact: libvmaf 3.2.0's C API, model.h (VMAF models and bootstrap
 * model collections). */
#ifndef VMAFX_LIBVMAF_MODEL_H
#define VMAFX_LIBVMAF_MODEL_H

#include <stdint.h>

#include "feature.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A loaded model (opaque). It does not belong to any context: one model may
 * serve several contexts, and outlives them or not. */
typedef struct VmafModel VmafModel;

enum VmafModelFlags {
    VMAF_MODEL_FLAGS_DEFAULT = 0,
    VMAF_MODEL_FLAG_DISABLE_CLIP = (1 << 0),      /* ignore the model's score_clip */
    VMAF_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1),  /* apply score_transform even when not enabled */
    VMAF_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2), /* never apply score_transform */
};

typedef struct VmafModelConfig {
    const char *name; /* name of the score in the outputs; NULL: "vmaf" */
    uint64_t flags;   /* VMAF_MODEL_FLAG_* */
} VmafModelConfig;

/* A built-in model by version ("vmaf_v0.6.1", ...). 0 or -EINVAL. */
int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg,
                    const char *version);

/* A model from a JSON file. 0 or -EINVAL. */
int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg,
                              const char *path);

/* Sets the options in `opts_dict` on every feature of `model` whose extractor
 * is named `feature_name` ("adm", "vif", "motion", ...). Takes opts_dict (it
 * is freed, also on failure). Affects contexts that register the model's
 * features afterwards. */
int vmaf_model_feature_overload(VmafModel *model, const char *feature_name,
                                VmafFeatureDictionary *opts_dict);

void vmaf_model_destroy(VmafModel *model);

/* The bootstrap sub-models of a collection (vmaf_b_v0.6.3, ...) (opaque). */
typedef struct VmafModelCollection VmafModelCollection;

enum VmafModelCollectionScoreType {
    VMAF_MODEL_COLLECTION_SCORE_UNKNOWN = 0,
    VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP,
};

typedef struct VmafModelCollectionScore {
    enum VmafModelCollectionScoreType type;
    struct {
        double bagging_score;
        double stddev;
        struct {
            struct { double lo, hi; } p95;
        } ci;
    } bootstrap;
} VmafModelCollectionScore;

/* A bootstrap collection by version: *model gets its main model (named
 * cfg->name, "vmaf" by default), *model_collection the bootstrap sub-models
 * (named "<name>_0001", ...). Both are the caller's. 0 or -EINVAL. */
int vmaf_model_collection_load(VmafModel **model,
                               VmafModelCollection **model_collection,
                               VmafModelConfig *cfg,
                               const char *version);

int vmaf_model_collection_load_from_path(VmafModel **model,
                                         VmafModelCollection **model_collection,
                                         VmafModelConfig *cfg,
                                         const char *path);

/* vmaf_model_feature_overload() on `model` and on every sub-model of
 * *model_collection. Takes opts_dict. */
int vmaf_model_collection_feature_overload(VmafModel *model,
                                           VmafModelCollection **model_collection,
                                           const char *feature_name,
                                           VmafFeatureDictionary *opts_dict);

void vmaf_model_collection_destroy(VmafModelCollection *model_collection);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_MODEL_H */
