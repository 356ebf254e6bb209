#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Host memory of the CLI over a long run: raw frames streamed through FIFOs
# (a FRAMES-frame clip repeated), VmRSS sampled every 2 s, the peak RSS at
# the end (/usr/bin/time). Memory must stay flat.
#   scripts/rss-check.sh [WIDTH HEIGHT LOOPS BACKEND]   (default 1920 1080 34 cpu: 10,200 frames)
# env: VMAF, MKCLIP (build/tools/...), CLIPS (/tmp/vmafx-bench), FRAMES (300),
# THREADS (the CLI's default when unset), LIBVMAF=path: run that libvmaf CLI
# instead (same FIFOs and options, no --backend), for the side-by-side peak.
set -u
cd "$(dirname "$0")/.."
W=${1:-1920} H=${2:-1080} LOOPS=${3:-34} BE=${4:-cpu} FRAMES=${FRAMES:-300}
VMAF=$(readlink -f "${VMAF:-build/tools/vmaf}")
MKCLIP=$(readlink -f "${MKCLIP:-build/tools/vmafx_mkclip}")
C=${CLIPS:-/tmp/vmafx-bench}
mkdir -p "$C"
r=$C/rss${W}x${H}x$FRAMES.ref.yuv d=$C/rss${W}x${H}x$FRAMES.dis.yuv
[ -s "$d" ] || "$MKCLIP" tests/data/golden/clips/mosaic1080.ref.y4m "$W" "$H" 8 "$FRAMES" "$r" "$d" || exit 1
T=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; rm -rf "$T"' EXIT
mkfifo "$T/r" "$T/d"
(for i in $(seq "$LOOPS"); do cat "$r"; done > "$T/r") > /dev/null 2>&1 &
(for i in $(seq "$LOOPS"); do cat "$d"; done > "$T/d") > /dev/null 2>&1 &
args=(-r "$T/r" -d "$T/d" -w "$W" -h "$H" -p 420 -b 8 -q --json -o "$T/out.json")
[ -n "${THREADS:-}" ] && args+=(--threads "$THREADS")
# The peak: /usr/bin/time's maximum resident set size where there is one,
# else the last VmHWM sampled.
wrap=()
[ -x /usr/bin/time ] && wrap=(/usr/bin/time -f %M -o "$T/peak")
if [ -n "${LIBVMAF:-}" ]; then
  "${wrap[@]}" "$LIBVMAF" "${args[@]}" > /dev/null &
else
  "${wrap[@]}" "$VMAF" "${args[@]}" --backend "$BE" &
fi
pid=$!
t=0 hwm=
while kill -0 $pid 2> /dev/null; do
  sleep 2
  t=$((t + 2))
  p=$pid
  [ ${#wrap[@]} -gt 0 ] && p=$(pgrep -P $pid | head -1)
  rss=$(awk '/VmRSS/ {print $2}' /proc/"$p"/status 2> /dev/null)
  h=$(awk '/VmHWM/ {print $2}' /proc/"$p"/status 2> /dev/null)
  [ -n "$h" ] && hwm=$h
  [ -n "$rss" ] && echo "t=${t}s VmRSS=${rss} kB"
done
wait $pid
rc=$?
[ -s "$T/peak" ] && hwm=$(tail -1 "$T/peak")
echo "exit $rc, frames scored: $(grep -c '"frameNum"' "$T/out.json" 2> /dev/null), peak RSS ${hwm:-?} kB"
exit $rc
