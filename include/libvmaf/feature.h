/* SPDX-License-Identifier: BSD-3-Clause */
/* vmaf-exact: libvmaf 3.2.0's C API, feature.h (feature extractor options). */
#ifndef VMAFX_LIBVMAF_FEATURE_H
#define VMAFX_LIBVMAF_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

/* A set of key=value options for one feature extractor (opaque). */
typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Sets `key` to `val` in *dict (created when *dict is NULL); a key set again
 * takes the new value. A value that is one number is stored as "%g" of it,
 * read as a float ("1.0" -> "1"), as libvmaf does. 0, -EINVAL or -ENOMEM. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key,
                                const char *val);

/* Frees *dict (NULL is fine) and sets it to NULL. -EINVAL when dict is NULL. */
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_FEATURE_H */
