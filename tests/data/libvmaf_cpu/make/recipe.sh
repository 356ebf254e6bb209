#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Records tests/data/libvmaf_cpu/<variant>/ from libvmaf 3.2.0 itself
# (Netflix/vmaf v3.2.0-13-gf85a8536):
#   recipe.sh SRC WORK
#     SRC   the libvmaf tree at f85a8536 (libvmaf/ and model/), e.g.
#           git clone https://github.com/Netflix/vmaf && git -C vmaf archive f85a8536 libvmaf model | tar -x -C SRC
#     WORK  a scratch folder for the two builds (created)
# It builds the stock oracle ('rcp') and the exact-division one ('generic')
# with build_oracle.sh, then runs run_oracle.py with each over
# tests/data/golden. The stock build's answer is the processor's: its
# output goes to amd/ on an AMD processor, intel/ on an Intel one (the
# vendor_id of /proc/cpuinfo). The generic output does not depend on the
# processor. A variant's folder must not exist yet (remove it to re-record).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: recipe.sh SRC WORK" >&2; exit 2; }
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="$(dirname "$HERE")"
GOLDEN="$(cd "$DATA/../golden" && pwd)"
SRC="$(cd "$1" && pwd)"
mkdir -p "$2"
WORK="$(cd "$2" && pwd)"
case "$(grep -m1 '^vendor_id' /proc/cpuinfo | awk '{print $3}')" in
  GenuineIntel) VENDOR=intel ;;
  AuthenticAMD) VENDOR=amd ;;
  *) echo "recipe.sh: neither an Intel nor an AMD processor: the stock build's answer has no variant name" >&2; exit 1 ;;
esac
"$HERE/build_oracle.sh" "$SRC" "$WORK/rcp" rcp
"$HERE/build_oracle.sh" "$SRC" "$WORK/generic" generic
python3 "$HERE/run_oracle.py" "$WORK/rcp/libvmaf/build/tools/vmaf" "$GOLDEN" "$DATA/$VENDOR"
python3 "$HERE/run_oracle.py" "$WORK/generic/libvmaf/build/tools/vmaf" "$GOLDEN" "$DATA/generic"
