#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A ladder from the bundled sample: encodes the 352x288 reference at three
# smaller sizes (x264, x265, VP9) with ffmpeg, then scores every rendition
# against the reference in one vmaf command (upscaled as ffmpeg's scale filter
# does, bicubic by default). Run after scripts/demo.sh (it builds vmaf).
#   examples/ladder/ladder.sh [OUT_DIR]   (default build/ladder)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/ladder}
mkdir -p "$out"
ref=tests/data/golden/clips/chelsea352.ref.y4m
ff() { ffmpeg -nostdin -y -hide_banner -loglevel error -i "$ref" "$@"; }
ff -vf scale=264:216 -c:v libx264 -crf 30 "$out/216p.mp4"
ff -vf scale=176:144 -c:v libx265 -x265-params log-level=error -crf 30 "$out/144p.mkv"
ff -vf scale=128:104 -c:v libvpx-vp9 -deadline good -b:v 60k "$out/104p.webm"
./build/tools/vmaf -r "$ref" -d "$out/216p.mp4" -d "$out/144p.mkv" -d "$out/104p.webm" \
  --json -o "$out/reports" --summary "$out/summary.csv" -q
