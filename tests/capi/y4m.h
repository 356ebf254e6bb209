/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal Y4M reader for the C API tests (tests/capi). */
#ifndef VMAFX_TESTS_CAPI_Y4M_H
#define VMAFX_TESTS_CAPI_Y4M_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

typedef struct {
  FILE *f;
  unsigned w, h, bpc;
  enum VmafPixelFormat fmt;
} Y4m;

static int y4m_open(Y4m *y, const char *path) {
  char line[512];
  memset(y, 0, sizeof *y);
  y->f = fopen(path, "rb");
  if (!y->f || !fgets(line, sizeof line, y->f) || strncmp(line, "YUV4MPEG2 ", 10)) return -1;
  y->fmt = VMAF_PIX_FMT_YUV420P;
  y->bpc = 8;
  for (char *t = strtok(line + 10, " \n"); t; t = strtok(NULL, " \n")) {
    if (t[0] == 'W') y->w = (unsigned)atoi(t + 1);
    if (t[0] == 'H') y->h = (unsigned)atoi(t + 1);
    if (t[0] == 'C') {
      if (!strncmp(t + 1, "444", 3)) y->fmt = VMAF_PIX_FMT_YUV444P;
      if (!strncmp(t + 1, "422", 3)) y->fmt = VMAF_PIX_FMT_YUV422P;
      if (!strncmp(t + 1, "mono", 4)) y->fmt = VMAF_PIX_FMT_YUV400P;
      const char *p = strchr(t, 'p');
      if (p && p[1] >= '0' && p[1] <= '9') y->bpc = (unsigned)atoi(p + 1);
    }
  }
  return y->w && y->h ? 0 : -1;
}

/* Reads the next frame into a new picture; 1 on success, 0 at the end. Chroma
 * planes of odd sizes are stored rounded up in Y4M; the picture keeps what
 * vmaf_picture_alloc gives it. */
static int y4m_read(Y4m *y, VmafPicture *pic) {
  char line[256];
  if (!fgets(line, sizeof line, y->f)) return 0;
  if (strncmp(line, "FRAME", 5)) return -1;
  if (vmaf_picture_alloc(pic, y->fmt, y->bpc, y->w, y->h)) return -1;
  const unsigned bps = y->bpc > 8 ? 2 : 1;
  const int planes = y->fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
  for (int p = 0; p < planes; p++) {
    unsigned fw = y->w, fh = y->h;
    if (p && y->fmt != VMAF_PIX_FMT_YUV444P) fw = (y->w + 1) / 2;
    if (p && y->fmt == VMAF_PIX_FMT_YUV420P) fh = (y->h + 1) / 2;
    unsigned char *row = malloc((size_t)fw * bps);
    for (unsigned r = 0; r < fh; r++) {
      if (fread(row, bps, fw, y->f) != fw) {
        free(row);
        vmaf_picture_unref(pic);
        return -1;
      }
      if (r < pic->h[p])
        memcpy((unsigned char *)pic->data[p] + (size_t)r * (size_t)pic->stride[p], row, (size_t)pic->w[p] * bps);
    }
    free(row);
  }
  return 1;
}

#endif
