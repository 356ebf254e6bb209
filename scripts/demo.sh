#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The first command of the README: install, build, and score the bundled sample
# (a 352x288 clip pair, 3 frames) with the default model vmaf_v0.6.1.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
clips=tests/data/golden/clips
./build/tools/vmaf -r "$clips/chelsea352.ref.y4m" -d "$clips/chelsea352__gblur1.5.dis.y4m" \
  --json -o build/demo.json "$@"
echo "per-frame scores: build/demo.json"
