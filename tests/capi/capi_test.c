/* SPDX-License-Identifier: BSD-3-Clause */
/* A libvmaf client in C11, built only through `pkg-config libvmaf` against an
 * installed vmaf-exact (tests/capi/check.sh). Calls every function of
 * libvmaf's public headers, including their error paths, and writes scores
 * for check.sh to compare with the vmaf CLI's.
 *
 *   capi_test errors
 *   capi_test score SCENARIO REF.y4m DIS.y4m OUT_PREFIX
 *   capi_test parallel REF.y4m DIS.y4m   (4 contexts on 4 threads at once)
 *
 * score writes OUT_PREFIX.{json,xml,csv,sub} (vmaf_write_output) and
 * OUT_PREFIX.txt: "name index %.17g" per picture and "name pool %.17g" per
 * pooling method, read back through the API. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/version.h>

static int failures;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                          \
    }                                                                      \
  } while (0)

#include "y4m.h"

/* ---- error paths ---- */
/* "errors MODEL log" runs them at VMAF_LOG_LEVEL_ERROR: check.sh compares
 * the library's error lines with tests/capi/errors.expected. */
static enum VmafLogLevel errors_level = VMAF_LOG_LEVEL_NONE;

static void check_errors(const char *model_path) {
  VmafConfiguration cfg = {errors_level, 0, 0, 0, 0};
  VmafContext *vmaf = NULL;
  VmafModel *model = NULL;
  VmafModelCollection *mc = NULL;
  VmafModelConfig mcfg = {"vmaf", 0};
  VmafPicture a, b;
  double s;
  VmafModelCollectionScore cs;
  VmafFeatureDictionary *d = NULL;

  CHECK(VMAF_API_VERSION_MAJOR == 3 && VMAF_API_VERSION_MINOR == 2 && VMAF_API_VERSION_PATCH == 0);
  CHECK(!strncmp(vmaf_version(), "3.2.0", 5));

  /* vmaf_init */
  CHECK(vmaf_init(NULL, cfg) == -EINVAL);
  cfg.log_level = (enum VmafLogLevel)99;
  CHECK(vmaf_init(&vmaf, cfg) == -EINVAL);
  cfg.log_level = errors_level;
  CHECK(vmaf_init(&vmaf, cfg) == 0 && vmaf);

  /* dictionaries */
  CHECK(vmaf_feature_dictionary_set(NULL, "a", "1") == -EINVAL);
  CHECK(vmaf_feature_dictionary_set(&d, NULL, "1") == -EINVAL);
  CHECK(vmaf_feature_dictionary_set(&d, "a", NULL) == -EINVAL);
  CHECK(vmaf_feature_dictionary_set(&d, "enable_chroma", "false") == 0 && d);
  CHECK(vmaf_feature_dictionary_free(NULL) == -EINVAL);
  CHECK(vmaf_feature_dictionary_free(&d) == 0 && !d);
  CHECK(vmaf_feature_dictionary_free(&d) == 0);

  /* pictures */
  CHECK(vmaf_picture_alloc(NULL, VMAF_PIX_FMT_YUV420P, 8, 16, 16) == -EINVAL);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_UNKNOWN, 8, 16, 16) == -EINVAL);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 7, 16, 16) == -EINVAL);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 17, 16, 16) == -EINVAL);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 10, 33, 17) == 0);
  CHECK(a.w[0] == 33 && a.h[0] == 17 && a.w[1] == 16 && a.h[1] == 8 && a.w[2] == 16 && a.h[2] == 8);
  CHECK(a.stride[0] == 128 && a.stride[1] == 64 && a.stride[2] == 64 && a.bpc == 10);
  CHECK((char *)a.data[1] == (char *)a.data[0] + 128 * 17 && (char *)a.data[2] == (char *)a.data[1] + 64 * 8);
  CHECK(((unsigned short *)a.data[0])[32] == 0);
  CHECK(vmaf_picture_unref(&a) == 0 && !a.data[0] && !a.ref);
  CHECK(vmaf_picture_unref(&a) == -EINVAL);
  CHECK(vmaf_picture_unref(NULL) == -EINVAL);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV400P, 8, 20, 10) == 0);
  CHECK(a.w[1] == 0 && a.h[1] == 0 && !a.data[1] && !a.data[2] && a.stride[0] == 32);
  CHECK(vmaf_picture_unref(&a) == 0);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV422P, 8, 64, 10) == 0);
  CHECK(a.w[1] == 32 && a.h[1] == 10 && a.stride[1] == 32);
  CHECK(vmaf_picture_unref(&a) == 0);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV444P, 8, 64, 10) == 0);
  CHECK(a.w[1] == 64 && a.h[1] == 10 && a.stride[1] == 64);
  CHECK(vmaf_picture_unref(&a) == 0);

  /* models */
  CHECK(vmaf_model_load(NULL, &mcfg, "vmaf_v0.6.1") == -EINVAL);
  CHECK(vmaf_model_load(&model, NULL, "vmaf_v0.6.1") == -EINVAL);
  CHECK(vmaf_model_load(&model, &mcfg, NULL) == -EINVAL);
  CHECK(vmaf_model_load(&model, &mcfg, "no_such_model") == -EINVAL);
  CHECK(vmaf_model_load(&model, &mcfg, "vmaf_b_v0.6.3") == -EINVAL); /* a collection */
  CHECK(vmaf_model_load_from_path(&model, &mcfg, "/nonexistent/model.json") == -EINVAL);
  CHECK(vmaf_model_load_from_path(&model, &mcfg, "/dev/null") == -EINVAL);
  CHECK(vmaf_model_collection_load(&model, &mc, &mcfg, "vmaf_v0.6.1") == -EINVAL); /* not one */
  CHECK(vmaf_model_collection_load(NULL, &mc, &mcfg, "vmaf_b_v0.6.3") == -EINVAL);
  CHECK(vmaf_model_collection_load(&model, NULL, &mcfg, "vmaf_b_v0.6.3") == -EINVAL);
  CHECK(vmaf_model_collection_load_from_path(&model, &mc, &mcfg, "/nonexistent.json") == -EINVAL);
  {
    /* A file of the other kind: model/vmaf_b_v0.6.3.json beside model_path. */
    char boot[4096];
    const char *slash = strrchr(model_path, '/');
    snprintf(boot, sizeof boot, "%.*svmaf_b_v0.6.3.json", slash ? (int)(slash - model_path + 1) : 0, model_path);
    CHECK(vmaf_model_load_from_path(&model, &mcfg, boot) == -EINVAL);
    CHECK(vmaf_model_collection_load_from_path(&model, &mc, &mcfg, model_path) == -EINVAL);
  }
  CHECK(vmaf_model_load_from_path(&model, &mcfg, model_path) == 0 && model);
  vmaf_model_destroy(model);
  model = NULL;
  vmaf_model_destroy(NULL);
  vmaf_model_collection_destroy(NULL);
  CHECK(vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1") == 0 && model);
  d = NULL;
  vmaf_feature_dictionary_set(&d, "adm_enhn_gain_limit", "1.0");
  CHECK(vmaf_model_feature_overload(NULL, "adm", d) == -EINVAL); /* takes d */
  d = NULL;
  CHECK(vmaf_model_feature_overload(model, "adm", NULL) == -EINVAL);
  /* Overloaded options are checked when a context uses the model, as libvmaf does. */
  {
    VmafModel *bad = NULL;
    VmafContext *v2 = NULL;
    CHECK(vmaf_init(&v2, cfg) == 0);
    CHECK(vmaf_model_load(&bad, &mcfg, "vmaf_v0.6.1") == 0);
    vmaf_feature_dictionary_set(&d, "adm_enhn_gain_limit", "0.5"); /* below the range */
    CHECK(vmaf_model_feature_overload(bad, "adm", d) == 0);
    CHECK(vmaf_use_features_from_model(v2, bad) == -EINVAL);
    vmaf_model_destroy(bad);
    bad = NULL;
    d = NULL;
    CHECK(vmaf_model_load(&bad, &mcfg, "vmaf_v0.6.1") == 0);
    vmaf_feature_dictionary_set(&d, "no_such_option", "1");
    CHECK(vmaf_model_feature_overload(bad, "vif", d) == 0);
    CHECK(vmaf_use_features_from_model(v2, bad) == -EINVAL);
    vmaf_model_destroy(bad);
    d = NULL;
    CHECK(vmaf_close(v2) == 0);
  }
  CHECK(vmaf_model_collection_load(&model, &mc, &mcfg, "no_such_model") == -EINVAL);
  CHECK(vmaf_model_collection_feature_overload(model, NULL, "adm", NULL) == -EINVAL);

  /* registration */
  CHECK(vmaf_use_features_from_model(NULL, model) == -EINVAL);
  CHECK(vmaf_use_features_from_model(vmaf, NULL) == -EINVAL);
  CHECK(vmaf_use_features_from_model_collection(vmaf, NULL) == -EINVAL);
  CHECK(vmaf_use_feature(NULL, "psnr", NULL) == -EINVAL);
  CHECK(vmaf_use_feature(vmaf, NULL, NULL) == -EINVAL);
  CHECK(vmaf_use_feature(vmaf, "no_such_feature", NULL) == -EINVAL);
  d = NULL;
  vmaf_feature_dictionary_set(&d, "no_such_option", "1");
  CHECK(vmaf_use_feature(vmaf, "psnr", d) == -EINVAL); /* d stays the caller's */
  CHECK(vmaf_feature_dictionary_free(&d) == 0);
  vmaf_feature_dictionary_set(&d, "enable_chroma", "maybe");
  CHECK(vmaf_use_feature(vmaf, "psnr", d) == -EINVAL);
  CHECK(vmaf_feature_dictionary_free(&d) == 0);
  CHECK(vmaf_use_features_from_model(vmaf, model) == 0);
  CHECK(vmaf_import_feature_score(NULL, "x", 1.0, 0) == -EINVAL);
  CHECK(vmaf_import_feature_score(vmaf, NULL, 1.0, 0) == -EINVAL);
  CHECK(vmaf_import_feature_score(vmaf, "imported", 1.5, 0) == 0);
  CHECK(vmaf_import_feature_score(vmaf, "imported", 2.5, 0) == -EINVAL); /* already there */
  CHECK(vmaf_import_feature_score(vmaf, "far", 1.0, 0xffffffffu) == -EINVAL); /* once wrapped (fuzz_capi) */
  CHECK(vmaf_import_feature_score(vmaf, "far", 1.0, 1u << 24) == -EINVAL);
  CHECK(vmaf_feature_score_at_index(vmaf, "imported", &s, 0) == 0 && s == 1.5);

  /* pictures into a context */
  CHECK(vmaf_read_pictures(NULL, NULL, NULL, 0) == -EINVAL);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 8, 64, 64) == 0);
  CHECK(vmaf_read_pictures(vmaf, &a, NULL, 0) == -EINVAL); /* one of two */
  CHECK(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV420P, 8, 32, 32) == 0);
  CHECK(vmaf_read_pictures(vmaf, &a, &b, 0) == -EINVAL); /* sizes differ: still the caller's */
  CHECK(a.ref && b.ref);
  {
    /* One sample wide (4:2:0 and 4:2:2) or tall (4:2:0): empty chroma planes
     * (libvmaf's geometry rounds down). Refused, still the caller's (the
     * copy into the engine once read 4 GB past the plane: fuzz_capi). */
    const unsigned sizes[][3] = {{VMAF_PIX_FMT_YUV420P, 1, 16}, {VMAF_PIX_FMT_YUV420P, 16, 1},
                                 {VMAF_PIX_FMT_YUV422P, 1, 16}};
    for (int i = 0; i < 3; ++i) {
      VmafPicture p = {0}, q = {0};
      CHECK(vmaf_picture_alloc(&p, (enum VmafPixelFormat)sizes[i][0], 8, sizes[i][1], sizes[i][2]) == 0);
      CHECK(vmaf_picture_alloc(&q, (enum VmafPixelFormat)sizes[i][0], 8, sizes[i][1], sizes[i][2]) == 0);
      CHECK(p.w[1] == 0 || p.h[1] == 0);
      CHECK(vmaf_read_pictures(vmaf, &p, &q, 0) == -EINVAL);
      CHECK(p.ref && q.ref);
      vmaf_picture_unref(&p);
      vmaf_picture_unref(&q);
    }
  }
  vmaf_picture_unref(&b);
  CHECK(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV420P, 8, 64, 64) == 0);
  CHECK(vmaf_read_pictures(vmaf, &a, &b, 5) == -EINVAL); /* not the next index */
  CHECK(vmaf_read_pictures(vmaf, &a, &b, 0) == 0);
  CHECK(!a.ref && !b.ref); /* taken */
  CHECK(vmaf_use_feature(vmaf, "psnr", NULL) == -EINVAL);    /* too late */
  CHECK(vmaf_use_features_from_model(vmaf, model) == -EINVAL); /* too late too */
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 10, 64, 64) == 0);
  CHECK(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV420P, 10, 64, 64) == 0);
  CHECK(vmaf_read_pictures(vmaf, &a, &b, 1) == -EINVAL); /* another depth */
  vmaf_picture_unref(&a);
  vmaf_picture_unref(&b);
  CHECK(vmaf_score_at_index(vmaf, model, &s, 0) == -EINVAL); /* before the flush */
  CHECK(vmaf_write_output(vmaf, "/dev/null", VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
  CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == 0);
  CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == -EINVAL); /* flushed */
  CHECK(vmaf_score_at_index(NULL, model, &s, 0) == -EINVAL);
  CHECK(vmaf_score_at_index(vmaf, NULL, &s, 0) == -EINVAL);
  CHECK(vmaf_score_at_index(vmaf, model, NULL, 0) == -EINVAL);
  CHECK(vmaf_score_at_index(vmaf, model, &s, 1) == -EINVAL); /* no such picture */
  CHECK(vmaf_score_at_index(vmaf, model, &s, 0) == 0 && s >= 0 && s <= 100);
  CHECK(vmaf_feature_score_at_index(vmaf, "imported", &s, 0) == 0 && s == 1.5);
  CHECK(vmaf_feature_score_at_index(vmaf, "no_such", &s, 0) == -EINVAL);
  CHECK(vmaf_feature_score_at_index(vmaf, NULL, &s, 0) == -EINVAL);
  CHECK(vmaf_feature_score_at_index(vmaf, "imported", NULL, 0) == -EINVAL);
  CHECK(vmaf_import_feature_score(vmaf, "imported", 3.0, 0) == -EINVAL);
  CHECK(vmaf_import_feature_score(vmaf, "late", 3.0, 0) == 0);
  CHECK(vmaf_import_feature_score(vmaf, "late", 3.0, 0xffffffffu) == -EINVAL); /* after the flush too */
  CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_UNKNOWN, &s, 0, 0) == -EINVAL);
  CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_NB, &s, 0, 0) == -EINVAL);
  CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 1, 0) == -EINVAL);
  CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, NULL, 0, 0) == -EINVAL);
  CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, 3) == -EINVAL);
  CHECK(vmaf_feature_score_pooled(vmaf, "late", VMAF_POOL_METHOD_MAX, &s, 0, 0) == 0 && s == 3.0);
  CHECK(vmaf_feature_score_pooled(vmaf, "late", VMAF_POOL_METHOD_MAX, &s, 0, 1) == -EINVAL);
  CHECK(vmaf_feature_score_pooled(vmaf, "late", (enum VmafPoolingMethod)0, &s, 0, 0) == -EINVAL);
  CHECK(vmaf_score_at_index_model_collection(vmaf, NULL, &cs, 0) == -EINVAL);
  CHECK(vmaf_score_pooled_model_collection(vmaf, NULL, VMAF_POOL_METHOD_MEAN, &cs, 0, 0) == -EINVAL);
  CHECK(vmaf_write_output(NULL, "/dev/null", VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
  CHECK(vmaf_write_output(vmaf, NULL, VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
  CHECK(vmaf_write_output(vmaf, "/dev/null", VMAF_OUTPUT_FORMAT_NONE) == -EINVAL);
  CHECK(vmaf_write_output(vmaf, "/nonexistent/dir/out.json", VMAF_OUTPUT_FORMAT_JSON) == -EINVAL);
  CHECK(vmaf_write_output(vmaf, "/dev/null", VMAF_OUTPUT_FORMAT_XML) == 0);
  CHECK(vmaf_close(vmaf) == 0);
  CHECK(vmaf_close(NULL) == -EINVAL);

  /* a collection used on a context; preallocated pictures */
  CHECK(vmaf_init(&vmaf, cfg) == 0);
  VmafModel *bm = NULL;
  CHECK(vmaf_model_collection_load(&bm, &mc, &mcfg, "vmaf_b_v0.6.3") == 0 && bm && mc);
  d = NULL;
  vmaf_feature_dictionary_set(&d, "adm_enhn_gain_limit", "1.2");
  CHECK(vmaf_model_collection_feature_overload(bm, &mc, "adm", d) == 0);
  CHECK(vmaf_use_features_from_model_collection(vmaf, mc) == 0);
  VmafPictureConfiguration pc = {{64, 64, 8, VMAF_PIX_FMT_YUV420P}, 0};
  CHECK(vmaf_preallocate_pictures(NULL, pc) == -EINVAL);
  CHECK(vmaf_preallocate_pictures(vmaf, pc) == -EINVAL); /* no pictures */
  CHECK(vmaf_fetch_preallocated_picture(vmaf, &a) == -EINVAL); /* nothing preallocated */
  pc.pic_cnt = 2;
  pc.pic_params.bpc = 4;
  CHECK(vmaf_preallocate_pictures(vmaf, pc) == -EINVAL);
  pc.pic_params.bpc = 8;
  CHECK(vmaf_preallocate_pictures(vmaf, pc) == 0);
  CHECK(vmaf_preallocate_pictures(vmaf, pc) == -EINVAL); /* once */
  CHECK(vmaf_fetch_preallocated_picture(vmaf, NULL) == -EINVAL);
  for (unsigned i = 0; i < 3; i++) {
    CHECK(vmaf_fetch_preallocated_picture(vmaf, &a) == 0 && a.w[0] == 64 && a.stride[1] == 32);
    CHECK(vmaf_fetch_preallocated_picture(vmaf, &b) == 0 && a.data[0] != b.data[0]);
    memset(a.data[0], (int)(16 + i), (size_t)a.stride[0] * a.h[0]);
    memset(b.data[0], (int)(20 + i), (size_t)b.stride[0] * b.h[0]);
    CHECK(vmaf_read_pictures(vmaf, &a, &b, i) == 0); /* back to the pool */
  }
  CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == 0);
  CHECK(vmaf_score_at_index_model_collection(vmaf, mc, &cs, 1) == 0);
  CHECK(cs.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP && cs.bootstrap.ci.p95.lo <= cs.bootstrap.ci.p95.hi);
  CHECK(vmaf_score_pooled_model_collection(vmaf, mc, VMAF_POOL_METHOD_MEAN, &cs, 0, 2) == 0);
  CHECK(vmaf_score_pooled_model_collection(vmaf, mc, VMAF_POOL_METHOD_MEAN, &cs, 0, 3) == -EINVAL);
  CHECK(vmaf_score_pooled(vmaf, bm, VMAF_POOL_METHOD_MEAN, &s, 0, 2) == 0);
  CHECK(vmaf_close(vmaf) == 0);
  vmaf_model_collection_destroy(mc);
  vmaf_model_destroy(bm);
  vmaf_model_destroy(model);

  /* scoring fails after the pictures were taken: they are released, and the
   * context refuses more */
  CHECK(vmaf_init(&vmaf, cfg) == 0);
  CHECK(vmaf_use_feature(vmaf, "cambi", NULL) == 0);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 8, 64, 64) == 0);
  CHECK(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV420P, 8, 64, 64) == 0);
  CHECK(vmaf_read_pictures(vmaf, &a, &b, 0) == -EINVAL); /* cambi: too small */
  CHECK(!a.ref && !b.ref);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 8, 64, 64) == 0);
  CHECK(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV420P, 8, 64, 64) == 0);
  CHECK(vmaf_read_pictures(vmaf, &a, &b, 0) == -EINVAL);
  CHECK(a.ref && b.ref); /* refused: still the caller's */
  vmaf_picture_unref(&a);
  vmaf_picture_unref(&b);
  CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == -EINVAL);
  CHECK(vmaf_close(vmaf) == 0);

  /* a context closed before the flush, and one with no picture */
  CHECK(vmaf_init(&vmaf, cfg) == 0);
  CHECK(vmaf_use_feature(vmaf, "psnr", NULL) == 0);
  CHECK(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 8, 64, 64) == 0);
  CHECK(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV420P, 8, 64, 64) == 0);
  CHECK(vmaf_read_pictures(vmaf, &a, &b, 0) == 0);
  CHECK(vmaf_close(vmaf) == 0);
  CHECK(vmaf_init(&vmaf, cfg) == 0);
  CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == 0);
  CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 0) == -EINVAL);
  CHECK(vmaf_close(vmaf) == 0);
}

/* ---- scoring a clip pair ---- */
static const char *const kPoolNames[] = {"", "min", "max", "mean", "harmonic_mean"};

static int score(const char *scenario, const char *ref_path, const char *dis_path, const char *out) {
  VmafConfiguration cfg = {VMAF_LOG_LEVEL_WARNING, 0, 0, 0, 0};
  VmafModelConfig c0 = {NULL, 0}, c1 = {"neg", VMAF_MODEL_FLAG_DISABLE_CLIP};
  VmafModel *models[2] = {NULL, NULL};
  VmafModelCollection *mc = NULL;
  int n_models = 1, err = 0;
  const char *extra_names[4] = {NULL};
  VmafFeatureDictionary *d = NULL;
  VmafContext *vmaf;

  if (!strcmp(scenario, "two")) {
    cfg.n_threads = 2;
    cfg.n_subsample = 2;
  }
  if (!strcmp(scenario, "threads")) cfg.n_threads = 3;
  if (vmaf_init(&vmaf, cfg)) return 1;

  if (!strcmp(scenario, "bootstrap")) {
    err |= vmaf_model_collection_load(&models[0], &mc, &c0, "vmaf_b_v0.6.3");
    err |= vmaf_use_features_from_model_collection(vmaf, mc);
  } else {
    /* float: the model whose float_adm follows VMAFX_LIBVMAF_CPU */
    err |= vmaf_model_load(&models[0], &c0, strcmp(scenario, "float") ? "vmaf_v0.6.1" : "vmaf_float_v0.6.1");
  }
  if (!strcmp(scenario, "two")) {
    n_models = 2;
    err |= vmaf_model_load(&models[1], &c1, "vmaf_v0.6.1neg");
    vmaf_feature_dictionary_set(&d, "adm_enhn_gain_limit", "1.0");
    err |= vmaf_model_feature_overload(models[1], "adm", d);
  }
  for (int m = 0; m < n_models; m++) err |= vmaf_use_features_from_model(vmaf, models[m]);
  if (!strcmp(scenario, "default") || !strcmp(scenario, "threads")) {
    err |= vmaf_use_feature(vmaf, "psnr", NULL);
    d = NULL;
    vmaf_feature_dictionary_set(&d, "enable_lcs", "true");
    err |= vmaf_use_feature(vmaf, "float_ssim", d);
    extra_names[0] = "psnr_y";
    extra_names[1] = "float_ssim";
    extra_names[2] = "float_ssim_l";
  }
  if (!strcmp(scenario, "two")) {
    d = NULL;
    vmaf_feature_dictionary_set(&d, "enable_chroma", "false");
    err |= vmaf_use_feature(vmaf, "psnr", d);
    extra_names[0] = "psnr_y";
  }
  if (err) {
    fprintf(stderr, "capi_test: setup failed\n");
    return 1;
  }

  Y4m ref, dis;
  if (y4m_open(&ref, ref_path) || y4m_open(&dis, dis_path)) {
    fprintf(stderr, "capi_test: cannot open the clips\n");
    return 1;
  }
  unsigned n = 0;
  for (;;) {
    VmafPicture r, t;
    int a = y4m_read(&ref, &r);
    if (a <= 0) break;
    if (y4m_read(&dis, &t) <= 0) {
      vmaf_picture_unref(&r);
      return 1;
    }
    if (vmaf_read_pictures(vmaf, &r, &t, n++)) {
      fprintf(stderr, "capi_test: vmaf_read_pictures failed\n");
      return 1;
    }
  }
  if (vmaf_read_pictures(vmaf, NULL, NULL, 0)) return 1;

  char path[4096];
  FILE *txt;
  snprintf(path, sizeof path, "%s.txt", out);
  if (!(txt = fopen(path, "w"))) return 1;
  const unsigned sub = cfg.n_subsample > 1 ? cfg.n_subsample : 1;
  for (int m = 0; m < n_models; m++) {
    const char *name = m == 0 ? "vmaf" : "neg";
    for (unsigned i = 0; i < n; i += sub) {
      double s;
      if (vmaf_score_at_index(vmaf, models[m], &s, i)) return 1;
      fprintf(txt, "%s %u %.17g\n", name, i, s);
    }
    for (int p = VMAF_POOL_METHOD_MIN; p < VMAF_POOL_METHOD_NB; p++) {
      double s;
      if (vmaf_score_pooled(vmaf, models[m], (enum VmafPoolingMethod)p, &s, 0, n - 1)) return 1;
      fprintf(txt, "%s %s %.17g\n", name, kPoolNames[p], s);
    }
  }
  if (mc) {
    const char *suffix[4] = {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"};
    for (unsigned i = 0; i < n; i += sub) {
      VmafModelCollectionScore cs;
      if (vmaf_score_at_index_model_collection(vmaf, mc, &cs, i)) return 1;
      const double v[4] = {cs.bootstrap.bagging_score, cs.bootstrap.stddev, cs.bootstrap.ci.p95.lo,
                           cs.bootstrap.ci.p95.hi};
      for (int k = 0; k < 4; k++) fprintf(txt, "vmaf%s %u %.17g\n", suffix[k], i, v[k]);
    }
    for (int p = VMAF_POOL_METHOD_MIN; p < VMAF_POOL_METHOD_NB; p++) {
      VmafModelCollectionScore cs;
      if (vmaf_score_pooled_model_collection(vmaf, mc, (enum VmafPoolingMethod)p, &cs, 0, n - 1)) return 1;
      const double v[4] = {cs.bootstrap.bagging_score, cs.bootstrap.stddev, cs.bootstrap.ci.p95.lo,
                           cs.bootstrap.ci.p95.hi};
      for (int k = 0; k < 4; k++) fprintf(txt, "vmaf%s %s %.17g\n", suffix[k], kPoolNames[p], v[k]);
    }
  }
  for (int e = 0; extra_names[e]; e++) {
    for (unsigned i = 0; i < n; i += sub) {
      double s;
      if (vmaf_feature_score_at_index(vmaf, extra_names[e], &s, i)) return 1;
      fprintf(txt, "%s %u %.17g\n", extra_names[e], i, s);
    }
    for (int p = VMAF_POOL_METHOD_MIN; p < VMAF_POOL_METHOD_NB; p++) {
      double s;
      if (vmaf_feature_score_pooled(vmaf, extra_names[e], (enum VmafPoolingMethod)p, &s, 0, n - 1)) return 1;
      fprintf(txt, "%s %s %.17g\n", extra_names[e], kPoolNames[p], s);
    }
  }
  fclose(txt);

  const char *ext[4] = {"xml", "json", "csv", "sub"};
  for (int f = 0; f < 4; f++) {
    snprintf(path, sizeof path, "%s.%s", out, ext[f]);
    if (vmaf_write_output(vmaf, path, (enum VmafOutputFormat)(VMAF_OUTPUT_FORMAT_XML + f))) return 1;
  }
  vmaf_close(vmaf);
  for (int m = 0; m < n_models; m++) vmaf_model_destroy(models[m]);
  vmaf_model_collection_destroy(mc);
  fclose(ref.f);
  fclose(dis.f);
  return 0;
}

/* ---- several contexts at once, one per thread ---- */
typedef struct {
  const char *ref, *dis;
  unsigned n_threads;
  double pooled, last_psnr;
  int err;
} Job;

static void *job_run(void *arg) {
  Job *j = arg;
  VmafConfiguration cfg = {VMAF_LOG_LEVEL_WARNING, j->n_threads, 0, 0, 0};
  VmafModelConfig mc = {NULL, 0};
  VmafContext *vmaf = NULL;
  VmafModel *model = NULL;
  Y4m ref, dis;
  j->err = 1;
  if (vmaf_init(&vmaf, cfg) || vmaf_model_load(&model, &mc, "vmaf_v0.6.1")) return NULL;
  if (vmaf_use_features_from_model(vmaf, model) || vmaf_use_feature(vmaf, "psnr", NULL)) return NULL;
  if (y4m_open(&ref, j->ref) || y4m_open(&dis, j->dis)) return NULL;
  unsigned n = 0;
  for (;; n++) {
    VmafPicture r, d;
    if (y4m_read(&ref, &r) <= 0) break;
    if (y4m_read(&dis, &d) <= 0 || vmaf_read_pictures(vmaf, &r, &d, n)) return NULL;
  }
  if (n == 0 || vmaf_read_pictures(vmaf, NULL, NULL, 0)) return NULL;
  if (vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_HARMONIC_MEAN, &j->pooled, 0, n - 1)) return NULL;
  if (vmaf_feature_score_at_index(vmaf, "psnr_y", &j->last_psnr, n - 1)) return NULL;
  vmaf_close(vmaf);
  vmaf_model_destroy(model);
  fclose(ref.f);
  fclose(dis.f);
  j->err = 0;
  return NULL;
}

static int parallel(const char *ref, const char *dis) {
  Job solo = {ref, dis, 0, 0, 0, 0}, jobs[4];
  pthread_t t[4];
  job_run(&solo);
  if (solo.err) return 1;
  for (int i = 0; i < 4; i++) {
    jobs[i] = solo;
    jobs[i].n_threads = (unsigned)i;
    jobs[i].err = 1;
    if (pthread_create(&t[i], NULL, job_run, &jobs[i])) return 1;
  }
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < 4; i++) {
    CHECK(!jobs[i].err);
    CHECK(jobs[i].pooled == solo.pooled && jobs[i].last_psnr == solo.last_psnr);
  }
  if (failures) return 1;
  printf("capi_test parallel: 4 contexts on 4 threads (n_threads 0..3): vmaf %.17g, psnr_y %.17g each\n",
         solo.pooled, solo.last_psnr);
  return 0;
}

int main(int argc, char **argv) {
  if ((argc == 3 || (argc == 4 && !strcmp(argv[3], "log"))) && !strcmp(argv[1], "errors")) {
    if (argc == 4) errors_level = VMAF_LOG_LEVEL_ERROR;
    check_errors(argv[2]);
    if (failures) fprintf(stderr, "capi_test: %d checks failed\n", failures);
    else printf("capi_test errors: all checks passed\n");
    return failures ? 1 : 0;
  }
  if (argc == 4 && !strcmp(argv[1], "parallel")) return parallel(argv[2], argv[3]);
  if (argc == 6 && !strcmp(argv[1], "score")) return score(argv[2], argv[3], argv[4], argv[5]);
  fprintf(stderr, "usage: capi_test errors MODEL.json | score SCENARIO REF.y4m DIS.y4m OUT_PREFIX\n");
  return 2;
}
