#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Recipe of the 19 integer-ssim oracle runs, oracle/<pair>.ssim.json.
#   VMAF=<integer-ssim oracle> OUT=<folder> make/oracle-ssim.sh
#     VMAF  the `vmaf` binary built by `INTEGER_SSIM=1 make/setup_oracle.sh`
#           (libvmaf 3.2.0 at f85a8536, %.17g output, integer_ssim.c compiled
#           and registered as "ssim"; stock libvmaf has no "ssim" extractor)
#     OUT   where the JSON files go (created; default scratch/oracle-ssim)
# Runs from the set root (tests/data/golden), like every manifest command.
# Each line is the manifest's `cmdline` of that run with `vmaf` -> "$VMAF"
# and `-o oracle/` -> `-o "$OUT"/`. No --threads (errors reach the exit
# code) and no --cpumask: integer_ssim.c has no SIMD code. The 16-bit pair
# (gradnoise240p16__noise_gblur) has no run: libvmaf's code overflows `int`
# there (README, "Integer ssim runs").
# Check: make/compare_oracle.py "$OUT" (every value ==, fps ignored).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${VMAF:?set VMAF to the integer-ssim oracle binary}"
VMAF="$(cd "$(dirname "$VMAF")" && pwd)/$(basename "$VMAF")"
OUT="${OUT:-scratch/oracle-ssim}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
cd "$HERE/.."
"$VMAF" --version
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__x264_crf18.dis.y4m -q --json -o "$OUT"/astro176__x264_crf18.ssim.json -n --feature ssim
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__x264_crf45.dis.y4m -q --json -o "$OUT"/astro176__x264_crf45.ssim.json -n --feature ssim
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__x265_crf38.dis.y4m -q --json -o "$OUT"/astro176__x265_crf38.ssim.json -n --feature ssim
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__aom_crf58.dis.y4m -q --json -o "$OUT"/astro176__aom_crf58.ssim.json -n --feature ssim
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__vp9_crf55.dis.y4m -q --json -o "$OUT"/astro176__vp9_crf55.ssim.json -n --feature ssim
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__identical.dis.y4m -q --json -o "$OUT"/astro176__identical.ssim.json -n --feature ssim
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__noise.dis.y4m -q --json -o "$OUT"/astro176__noise.ssim.json -n --feature ssim
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.ssim.json -n --feature ssim
"$VMAF" -r clips/life176.ref.y4m -d clips/life176__x264_crf30.dis.y4m -q --json -o "$OUT"/life176__x264_crf30.ssim.json -n --feature ssim
"$VMAF" -r clips/coffee320.ref.y4m -d clips/coffee320__scale_half.dis.y4m -q --json -o "$OUT"/coffee320__scale_half.ssim.json -n --feature ssim
"$VMAF" -r clips/coffee320.ref.y4m -d clips/coffee320__x264_crf30.dis.y4m -q --json -o "$OUT"/coffee320__x264_crf30.ssim.json -n --feature ssim
"$VMAF" -r clips/chelsea352.ref.y4m -d clips/chelsea352__gblur1.5.dis.y4m -q --json -o "$OUT"/chelsea352__gblur1.5.ssim.json -n --feature ssim
"$VMAF" -r clips/camera351x287p444.ref.y4m -d clips/camera351x287p444__bright12.dis.y4m -q --json -o "$OUT"/camera351x287p444__bright12.ssim.json -n --feature ssim
"$VMAF" -r clips/mandel240p10.ref.y4m -d clips/mandel240p10__x265_crf30.dis.y4m -q --json -o "$OUT"/mandel240p10__x265_crf30.ssim.json -n --feature ssim
"$VMAF" -r clips/rocket240x177p422p10.ref.y4m -d clips/rocket240x177p422p10__x264_crf32.dis.y4m -q --json -o "$OUT"/rocket240x177p422p10__x264_crf32.ssim.json -n --feature ssim
"$VMAF" -r clips/testsrc2_240p444.ref.y4m -d clips/testsrc2_240p444__vp9_crf45.dis.y4m -q --json -o "$OUT"/testsrc2_240p444__vp9_crf45.ssim.json -n --feature ssim
"$VMAF" -r clips/cellauto240p12.ref.y4m -d clips/cellauto240p12__aom_crf45.dis.y4m -q --json -o "$OUT"/cellauto240p12__aom_crf45.ssim.json -n --feature ssim
"$VMAF" -r clips/gradnoise240p444p12.ref.y4m -d clips/gradnoise240p444p12__x265_crf28.dis.y4m -q --json -o "$OUT"/gradnoise240p444p12__x265_crf28.ssim.json -n --feature ssim
"$VMAF" -r clips/mosaic1080.ref.y4m -d clips/mosaic1080__down960_x264_crf23_up.dis.y4m -q --json -o "$OUT"/mosaic1080__down960_x264_crf23_up.ssim.json -n --feature ssim
echo "oracle-ssim.sh: 19 runs written to $OUT"
