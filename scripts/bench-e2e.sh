#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# End-to-end speed of the `vmaf` CLI as users run it: Y4M files (in the page
# cache) -> report file, start-up removed: fps = (N - 1) / (t(N frames) - t(1)),
# the fastest of REPS runs each. With libvmaf 3.2.0's CLIs given (LIBVMAF_CPU:
# its stock CPU build, LIBVMAF_CUDA: its CUDA build), they run side by side in
# the same run, with the same flags, and the ratio is printed. The read limit
# of each clip pair is one `cat` of both files.
#
#   scripts/bench-e2e.sh                       # everything (long: about an hour on 16 cores)
#   SIZES=1920x1080 BITS=8 MODELS=v0.6.1 BACKENDS=cpu THREADS="1 4" scripts/bench-e2e.sh
#
# env: VMAF (build/tools/vmaf)  MKCLIP (build/tools/vmafx_mkclip)  CLIPS (folder for the clips,
#      made once: /tmp/vmafx-bench)  FRAMES (300)  FRAMES_1T (frames for 1-thread CPU rows, 60)
#      SIZES ("1920x1080 3840x2160")  BITS ("8 10 12 16")  MODELS ("v0.6.1 v0.6.1+neg 1d5h")
#      BACKENDS ("cpu cuda opencl auto")  THREADS ("1 4 16": CPU rows)  GPU_THREADS ("default")
#      REPS (2)  LIBVMAF_CPU, LIBVMAF_CUDA (paths; rows without them print "-")  MD (also write
#      the table, as Markdown, to this file)  PREPARE_ONLY (1: make the clips, measure nothing)
# Each report of ours is compared with the first one of its clip and model (fps
# removed): "same" means byte-identical for every backend and thread count.
set -u
cd "$(dirname "$0")/.."
VMAF=$(readlink -f "${VMAF:-build/tools/vmaf}")
MKCLIP=$(readlink -f "${MKCLIP:-build/tools/vmafx_mkclip}")
CLIPS=${CLIPS:-/tmp/vmafx-bench}
N=${FRAMES:-300}
N1=${FRAMES_1T:-60}
REPS=${REPS:-2}
SEED=tests/data/golden/clips/mosaic1080.ref.y4m
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
[ -x "$VMAF" ] || { echo "bench-e2e: $VMAF not built" >&2; exit 1; }
mkdir -p "$CLIPS"

now() { date +%s.%N; }
# seconds of one run, or "fail"
run_time() {
  local s e
  s=$(now)
  "$@" > /dev/null 2> "$SCRATCH/err" || { echo fail; return; }
  e=$(now)
  python3 -c "print($e - $s)"
}
# fps of a command (given without --frame_cnt) over n frames
fps_of() {
  local n=$1; shift
  run_time "$@" --frame_cnt 1 > /dev/null  # warm-up: page cache, driver, kernels
  local a=() b=() i
  for i in $(seq "$REPS"); do
    a+=("$(run_time "$@" --frame_cnt 1)")
    b+=("$(run_time "$@" --frame_cnt "$n")")
  done
  if [[ " ${a[*]} ${b[*]} " == *" fail "* ]]; then
    echo "fail($(head -c 120 "$SCRATCH/err" | tr '\n' ' '))"
    return
  fi
  python3 -c "a=min(map(float,'${a[*]}'.split())); b=min(map(float,'${b[*]}'.split())); print(f'{($n-1)/(b-a):.1f}')"
}
ratio() { A=$1 B=$2 python3 -c "import os
try: print(f'{float(os.environ[\"A\"])/float(os.environ[\"B\"]):.2f}x')
except ValueError: print('-')"; }
model_args() {
  case $1 in
    v0.6.1) echo "--model version=vmaf_v0.6.1" ;;
    v0.6.1+neg) echo "--model version=vmaf_v0.6.1:name=vmaf --model version=vmaf_v0.6.1neg:name=vmaf_neg" ;;
    1d5h) echo "--model version=vmaf_v1.0.16_1d5h_2160" ;;
    *) echo "--model version=$1" ;;
  esac
}

line() {
  printf '| %-16s | %-11s | %-7s | %7s | %9s | %9s | %6s | %s |\n' "$@"
  [ -n "${MD:-}" ] && printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@" >> "$MD"
}
[ -n "${MD:-}" ] && : > "$MD"
echo "# vmaf-exact $("$VMAF" --version 2>/dev/null) on $(nproc) cores, $(date -u +%FT%TZ); N=$N frames (CPU 1-thread rows: $N1)"
line clip model backend threads "ours fps" "libvmaf" ratio report
line ---- ----- ------- ------- -------- ------- ----- ------

for size in ${SIZES:-1920x1080 3840x2160}; do
  for bits in ${BITS:-8 10 12 16}; do
    w=${size%x*}; h=${size#*x}
    name="${h}p${bits}"
    ref=$CLIPS/$name.ref.y4m dis=$CLIPS/$name.dis.y4m
    if [ ! -s "$dis" ] || [ "$(cat "$CLIPS/$name.frames" 2> /dev/null)" != "$N" ]; then
      "$MKCLIP" "$SEED" "$w" "$h" "$bits" "$N" "$ref" "$dis" || exit 1
      echo "$N" > "$CLIPS/$name.frames"
    fi
    [ -n "${PREPARE_ONLY:-}" ] && continue
    s=$(now); cat "$ref" "$dis" > /dev/null; cat "$ref" "$dis" > /dev/null; e=$(now)
    catfps=$(python3 -c "print(f'{2 * $N / ($e - $s):.1f}')")
    line "$name" "(cat)" - - "$catfps" - - -
    for m in ${MODELS:-v0.6.1 v0.6.1+neg 1d5h}; do
      for be in ${BACKENDS:-cpu cuda opencl auto}; do
        ths=${THREADS:-1 4 16}
        [ "$be" = cpu ] || ths=${GPU_THREADS:-default}
        for th in $ths; do
          tf=()
          [ "$th" = default ] || tf=(--threads "$th")
          n=$N
          [ "$be" = cpu ] && [ "$th" = 1 ] && n=$N1
          # shellcheck disable=SC2046
          ours=$(fps_of "$n" "$VMAF" -r "$ref" -d "$dis" $(model_args "$m") --backend "$be" "${tf[@]}" -q --json \
                 -o "$SCRATCH/ours.json")
          # the last timed run's report (n frames) against the first of this clip, model and n
          same=-
          key="$SCRATCH/first.$name.$m.$n"
          if [[ "$ours" != fail* ]]; then
            grep -v '"fps"' "$SCRATCH/ours.json" > "$SCRATCH/report.nofps"
            if [ ! -e "$key" ]; then
              cp "$SCRATCH/report.nofps" "$key"
              same=first
            elif cmp -s "$SCRATCH/report.nofps" "$key"; then
              same=same
            else
              same=DIFFERS
            fi
          fi
          lib=-
          case $be in
            cpu) [ -n "${LIBVMAF_CPU:-}" ] && lib=$(fps_of "$n" "$LIBVMAF_CPU" -r "$ref" -d "$dis" $(model_args "$m") \
                   "${tf[@]}" -q --json -o "$SCRATCH/lib.json") ;;
            cuda) [ -n "${LIBVMAF_CUDA:-}" ] && lib=$(fps_of "$n" "$LIBVMAF_CUDA" -r "$ref" -d "$dis" \
                   $(model_args "$m") -q --json -o "$SCRATCH/lib.json") ;;
          esac
          line "$name" "$m" "$be" "$th" "$ours" "$lib" "$(ratio "$ours" "$lib")" "$same"
        done
      done
    done
  done
done
