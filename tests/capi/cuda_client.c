/* SPDX-License-Identifier: BSD-3-Clause */
/* What FFmpeg's libvmaf_cuda filter does, through libvmaf_cuda.h: a CUDA
 * state on the caller's CUcontext, device pictures preallocated by the
 * library, filled with cuMemcpy2D from the caller's context, scored; then the
 * same clip on the CPU. Both reports (at full precision) must be identical,
 * fps aside. The error paths of the CUDA functions are checked first.
 *
 *   cuda_client REF.y4m DIS.y4m OUT_PREFIX [MODEL_VERSION]
 *
 * Exits 77 (a skip) when there is no CUDA driver or device. The driver API
 * is loaded at run time, so the binary starts on machines without one. */
#include <cuda.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/libvmaf_cuda.h>

#include "y4m.h"

typedef CUresult (*PFN_init)(unsigned);
typedef CUresult (*PFN_device_get)(CUdevice *, int);
typedef CUresult (*PFN_primary_retain)(CUcontext *, CUdevice);
typedef CUresult (*PFN_push)(CUcontext);
typedef CUresult (*PFN_pop)(CUcontext *);
typedef CUresult (*PFN_memcpy2d)(const CUDA_MEMCPY2D *);

static PFN_push ctx_push;
static PFN_pop ctx_pop;
static PFN_memcpy2d memcpy2d;
static CUcontext ctx;
static int failures;

#define CHECK(cond)                                                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);  \
      failures++;                                                               \
    }                                                                           \
  } while (0)

/* Copies a host picture into a device picture, as the filter copies frames. */
static int upload(const VmafPicture *host, VmafPicture *dev) {
  const int planes = host->pix_fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
  const size_t bps = host->bpc > 8 ? 2 : 1;
  if (ctx_push(ctx) != CUDA_SUCCESS) return -1;
  int err = 0;
  for (int p = 0; p < planes && !err; p++) {
    CUDA_MEMCPY2D m;
    memset(&m, 0, sizeof m);
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = host->data[p];
    m.srcPitch = (size_t)host->stride[p];
    m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    m.dstDevice = (CUdeviceptr)dev->data[p];
    m.dstPitch = (size_t)dev->stride[p];
    m.WidthInBytes = host->w[p] * bps;
    m.Height = host->h[p];
    err = memcpy2d(&m) != CUDA_SUCCESS;
  }
  CUcontext dummy;
  ctx_pop(&dummy);
  return err ? -1 : 0;
}

static int run(const char *ref_path, const char *dis_path, const char *out, const char *version, int cuda,
               VmafCudaState *state) {
  VmafConfiguration cfg = {VMAF_LOG_LEVEL_WARNING, 0, 0, 0, 0};
  VmafModelConfig mcfg = {"vmaf", 0};
  VmafContext *vmaf = NULL;
  VmafModel *model = NULL;
  Y4m ref, dis;
  if (y4m_open(&ref, ref_path) || y4m_open(&dis, dis_path)) return 1;
  if (vmaf_init(&vmaf, cfg)) return 1;
  if (cuda && vmaf_cuda_import_state(vmaf, state)) return 1;
  if (vmaf_model_load(&model, &mcfg, version) || vmaf_use_features_from_model(vmaf, model)) return 1;
  if (vmaf_use_feature(vmaf, "psnr", NULL) || vmaf_use_feature(vmaf, "float_ssim", NULL)) return 1;
  if (cuda) {
    VmafCudaPictureConfiguration pc = {{ref.w, ref.h, ref.bpc, ref.fmt},
                                       VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE};
    if (vmaf_cuda_preallocate_pictures(vmaf, pc)) return 1;
  }
  unsigned n = 0;
  for (;; n++) {
    VmafPicture r, d;
    if (y4m_read(&ref, &r) <= 0) break;
    if (y4m_read(&dis, &d) <= 0) return 1;
    if (cuda) {
      VmafPicture rd, dd;
      if (vmaf_cuda_fetch_preallocated_picture(vmaf, &rd) || vmaf_cuda_fetch_preallocated_picture(vmaf, &dd))
        return 1;
      if (upload(&r, &rd) || upload(&d, &dd)) return 1;
      vmaf_picture_unref(&r);
      vmaf_picture_unref(&d);
      r = rd;
      d = dd;
    }
    if (vmaf_read_pictures(vmaf, &r, &d, n)) return 1;
  }
  if (vmaf_read_pictures(vmaf, NULL, NULL, 0)) return 1;
  double s;
  if (vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, n - 1)) return 1;
  printf("%s: %u pictures, vmaf %.17g\n", cuda ? "cuda" : "cpu", n, s);
  if (vmaf_write_output(vmaf, out, VMAF_OUTPUT_FORMAT_JSON)) return 1;
  vmaf_close(vmaf);
  vmaf_model_destroy(model);
  fclose(ref.f);
  fclose(dis.f);
  return 0;
}

/* Equal files, lines with "fps" aside. */
static int same_report(const char *a, const char *b) {
  FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
  char la[4096], lb[4096];
  int same = fa && fb, lines = 0;
  while (same) {
    char *x, *y;
    do x = fgets(la, sizeof la, fa); while (x && strstr(la, "fps"));
    do y = fgets(lb, sizeof lb, fb); while (y && strstr(lb, "fps"));
    if (!x || !y) {
      same = !x && !y;
      break;
    }
    lines++;
    if (strcmp(la, lb)) {
      fprintf(stderr, "cuda_client: reports differ:\n  cpu:  %s  cuda: %s", la, lb);
      same = 0;
    }
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same && lines > 10;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: cuda_client REF.y4m DIS.y4m OUT_PREFIX [MODEL_VERSION]\n");
    return 2;
  }
  const char *version = argc > 4 ? argv[4] : "vmaf_v0.6.1";
  setenv("VMAFX_LIBVMAF_PRECISION", "max", 1);
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    printf("cuda_client: skipped: no CUDA driver (libcuda.so.1)\n");
    return 77;
  }
  PFN_init init = (PFN_init)dlsym(lib, "cuInit");
  PFN_device_get device_get = (PFN_device_get)dlsym(lib, "cuDeviceGet");
  PFN_primary_retain retain = (PFN_primary_retain)dlsym(lib, "cuDevicePrimaryCtxRetain");
  ctx_push = (PFN_push)dlsym(lib, "cuCtxPushCurrent_v2");
  ctx_pop = (PFN_pop)dlsym(lib, "cuCtxPopCurrent_v2");
  memcpy2d = (PFN_memcpy2d)dlsym(lib, "cuMemcpy2D_v2");
  CUdevice dev;
  if (!init || !device_get || !retain || !ctx_push || !ctx_pop || !memcpy2d || init(0) != CUDA_SUCCESS ||
      device_get(&dev, 0) != CUDA_SUCCESS) {
    printf("cuda_client: skipped: no CUDA device\n");
    return 77;
  }
  if (retain(&ctx, dev) != CUDA_SUCCESS) return 1;

  /* Error paths. */
  VmafCudaConfiguration cc = {ctx};
  VmafCudaState *state = NULL;
  VmafContext *vmaf = NULL;
  VmafConfiguration cfg = {VMAF_LOG_LEVEL_NONE, 0, 0, 0, 0};
  VmafPicture pic;
  CHECK(vmaf_cuda_state_init(NULL, cc) == -EINVAL);
  CHECK(vmaf_cuda_state_init(&state, cc) == 0 && state);
  CHECK(vmaf_cuda_import_state(NULL, state) == -EINVAL);
  CHECK(vmaf_init(&vmaf, cfg) == 0);
  CHECK(vmaf_cuda_import_state(vmaf, NULL) == -EINVAL);
  CHECK(vmaf_cuda_fetch_preallocated_picture(vmaf, &pic) == -EINVAL); /* nothing preallocated */
  VmafCudaPictureConfiguration pc = {{64, 64, 8, VMAF_PIX_FMT_YUV420P}, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE};
  CHECK(vmaf_cuda_preallocate_pictures(NULL, pc) == -EINVAL);
  CHECK(vmaf_cuda_preallocate_pictures(vmaf, pc) == 0);
  CHECK(vmaf_cuda_fetch_preallocated_picture(vmaf, &pic) == -EINVAL);
  pc.pic_prealloc_method = (enum VmafCudaPicturePreallocationMethod)9;
  CHECK(vmaf_cuda_preallocate_pictures(vmaf, pc) == -EINVAL);
  pc.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED;
  pc.pic_params.bpc = 20;
  CHECK(vmaf_cuda_preallocate_pictures(vmaf, pc) == -EINVAL);
  pc.pic_params.bpc = 8;
  CHECK(vmaf_cuda_preallocate_pictures(vmaf, pc) == 0);
  CHECK(vmaf_cuda_fetch_preallocated_picture(NULL, &pic) == -EINVAL);
  CHECK(vmaf_cuda_fetch_preallocated_picture(vmaf, NULL) == -EINVAL);
  CHECK(vmaf_cuda_fetch_preallocated_picture(vmaf, &pic) == 0 && pic.w[0] == 64 && pic.data[0]);
  memset(pic.data[0], 1, 64); /* host memory (page-locked) */
  CHECK(vmaf_picture_unref(&pic) == 0);
  CHECK(vmaf_cuda_import_state(vmaf, state) == 0);
  CHECK(vmaf_use_feature(vmaf, "psnr", NULL) == 0);
  CHECK(vmaf_cuda_import_state(vmaf, state) == -EINVAL); /* after registering features */
  CHECK(vmaf_close(vmaf) == 0);
  if (failures) {
    fprintf(stderr, "cuda_client: %d checks failed\n", failures);
    return 1;
  }

  char cpu[4096], gpu[4096];
  snprintf(cpu, sizeof cpu, "%s.cpu.json", argv[3]);
  snprintf(gpu, sizeof gpu, "%s.cuda.json", argv[3]);
  if (run(argv[1], argv[2], cpu, version, 0, NULL) || run(argv[1], argv[2], gpu, version, 1, state)) {
    fprintf(stderr, "cuda_client: scoring failed\n");
    return 1;
  }
  free(state);
  if (!same_report(cpu, gpu)) {
    fprintf(stderr, "cuda_client: the CUDA context's report differs from the CPU's\n");
    return 1;
  }
  printf("cuda_client: device pictures through libvmaf_cuda.h: the report equals the CPU's\n");
  return 0;
}
