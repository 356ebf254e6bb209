/*
 * SPDX-License-Identifier: BSD-3-Clause
 * A small driver of libvmaf's public API (libvmaf.h, feature.h, picture.h),
 * used to record libvmaf's values on generated frames that the CLI cannot
 * read (luma only, or bit depths other than 8/10/12/16).
 *
 *   oracle_frames W H BPC CPUMASK REF DIS OUT.json EXTRACTOR [KEY=VALUE ...]
 *
 * REF and DIS hold one or more W x H luma frames, packed, one byte a sample
 * at BPC 8 and two (little-endian) above. Each frame pair becomes a
 * VMAF_PIX_FMT_YUV400P picture pair; EXTRACTOR runs with the KEY=VALUE
 * options (vmaf_feature_dictionary_set); CPUMASK is VmafConfiguration's
 * cpumask (255: libvmaf's plain C code only); libvmaf's own JSON writer then
 * writes OUT.json (with a %.17g oracle build: the exact doubles).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

static int die(const char *what)
{
    fprintf(stderr, "oracle_frames: %s\n", what);
    return 1;
}

static int read_frame(FILE *f, VmafPicture *pic, unsigned w, unsigned h, unsigned bpc)
{
    const size_t bytes = bpc > 8 ? 2 : 1;
    unsigned char *row = malloc(w * bytes);
    if (!row) return -1;
    int ret = 0;
    for (unsigned y = 0; y < h && !ret; y++) {
        if (fread(row, bytes, w, f) != w) { ret = -1; break; }
        unsigned char *dst = (unsigned char *)pic->data[0] + y * pic->stride[0];
        if (bytes == 1) {
            memcpy(dst, row, w);
        } else {
            uint16_t *d16 = (uint16_t *)dst;
            for (unsigned x = 0; x < w; x++)
                d16[x] = (uint16_t)(row[2 * x] | (row[2 * x + 1] << 8));
        }
    }
    free(row);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc < 9)
        return die("usage: oracle_frames W H BPC CPUMASK REF DIS OUT.json EXTRACTOR [KEY=VALUE ...]");
    const unsigned w = (unsigned)atoi(argv[1]), h = (unsigned)atoi(argv[2]);
    const unsigned bpc = (unsigned)atoi(argv[3]);
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_WARNING, .n_threads = 0,
                              .n_subsample = 1, .cpumask = strtoull(argv[4], NULL, 0) };
    FILE *fr = fopen(argv[5], "rb"), *fd = fopen(argv[6], "rb");
    if (!fr || !fd) return die("cannot open REF or DIS");

    VmafContext *vmaf;
    if (vmaf_init(&vmaf, cfg)) return die("vmaf_init failed");
    VmafFeatureDictionary *dict = NULL;
    for (int i = 9; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) return die("options are KEY=VALUE");
        *eq = '\0';
        if (vmaf_feature_dictionary_set(&dict, argv[i], eq + 1)) return die("bad option");
    }
    if (vmaf_use_feature(vmaf, argv[8], dict)) return die("vmaf_use_feature failed");

    unsigned index = 0;
    for (;; index++) {
        VmafPicture ref, dis;
        if (vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV400P, bpc, w, h) ||
            vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV400P, bpc, w, h))
            return die("vmaf_picture_alloc failed");
        if (read_frame(fr, &ref, w, h, bpc) || read_frame(fd, &dis, w, h, bpc)) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
            break;
        }
        if (vmaf_read_pictures(vmaf, &ref, &dis, index)) return die("vmaf_read_pictures failed");
    }
    if (index == 0) return die("no complete frame in REF/DIS");
    if (vmaf_read_pictures(vmaf, NULL, NULL, 0)) return die("flush failed");
    if (vmaf_write_output(vmaf, argv[7], VMAF_OUTPUT_FORMAT_JSON)) return die("vmaf_write_output failed");
    vmaf_close(vmaf);
    fclose(fr);
    fclose(fd);
    return 0;
}
