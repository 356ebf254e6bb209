#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Host memory of the CLI over a long run: raw frames streamed through FIFOs
# (a 300-frame clip repeated), VmRSS sampled every 2 s. Memory must stay flat.
#   scripts/rss-check.sh [WIDTH HEIGHT LOOPS BACKEND]   (default 1920 1080 34 cpu: 10,200 frames)
# env: VMAF, MKCLIP (build/tools/...), CLIPS (/tmp/vmafx-bench)
set -u
cd "$(dirname "$0")/.."
W=${1:-1920} H=${2:-1080} LOOPS=${3:-34} BE=${4:-cpu}
VMAF=$(readlink -f "${VMAF:-build/tools/vmaf}")
MKCLIP=$(readlink -f "${MKCLIP:-build/tools/vmafx_mkclip}")
C=${CLIPS:-/tmp/vmafx-bench}
mkdir -p "$C"
r=$C/rss${W}x${H}.ref.yuv d=$C/rss${W}x${H}.dis.yuv
[ -s "$d" ] || "$MKCLIP" tests/data/golden/clips/mosaic1080.ref.y4m "$W" "$H" 8 300 "$r" "$d" || exit 1
T=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; rm -rf "$T"' EXIT
mkfifo "$T/r" "$T/d"
(for i in $(seq "$LOOPS"); do cat "$r"; done > "$T/r") > /dev/null 2>&1 &
(for i in $(seq "$LOOPS"); do cat "$d"; done > "$T/d") > /dev/null 2>&1 &
"$VMAF" -r "$T/r" -d "$T/d" -w "$W" -h "$H" -p 420 -b 8 --backend "$BE" -q --json -o "$T/out.json" &
pid=$!
t=0
while kill -0 $pid 2> /dev/null; do
  sleep 2
  t=$((t + 2))
  rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status 2> /dev/null)
  [ -n "$rss" ] && echo "t=${t}s VmRSS=${rss} kB"
done
wait $pid
rc=$?
echo "exit $rc, frames scored: $(grep -c '"frameNum"' "$T/out.json" 2> /dev/null)"
exit $rc
