#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Recipe of the 19 integer-ssim oracle runs, oracle/<pair>.ssim.json.
#   VMAF=<integer-ssim oracle> OUT=<folder> make/oracle-ssim.sh
#     VMAF  the `vmaf` binary built by `INTEGER_SSIM=1 make/setup_oracle.sh`
#           (libvmaf 3.2.0 at f85a8536, %.17g output, integer_ssim.c compiled
#           and registered as "ssim"; stock libvmaf has no "ssim" extractor)
#     OUT   where the JSON files go (created; default scratch/oracle-ssim)
# Runs from the set root (tests/data/golden), like every manifest command.
# Each run is the manifest's `cmdline` of that pair with `vmaf` -> "$VMAF"
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
# The pairs, as the manifest names them; the reference is the part before "__".
PAIRS=(
  astro176__x264_crf18
  astro176__x264_crf45
  astro176__x265_crf38
  astro176__aom_crf58
  astro176__vp9_crf55
  astro176__identical
  astro176__noise
  astro176__unsharp
  life176__x264_crf30
  coffee320__scale_half
  coffee320__x264_crf30
  chelsea352__gblur1.5
  camera351x287p444__bright12
  mandel240p10__x265_crf30
  rocket240x177p422p10__x264_crf32
  testsrc2_240p444__vp9_crf45
  cellauto240p12__aom_crf45
  gradnoise240p444p12__x265_crf28
  mosaic1080__down960_x264_crf23_up
)
for pair in "${PAIRS[@]}"; do
  "$VMAF" -r "clips/${pair%%__*}.ref.y4m" -d "clips/$pair.dis.y4m" -q --json -o "$OUT/$pair.ssim.json" -n --feature ssim
done
echo "oracle-ssim.sh: ${#PAIRS[@]} runs written to $OUT"
