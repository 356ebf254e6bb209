#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs one libFuzzer target (tests/fuzz/fuzz_*.cpp) for a while:
#
#   scripts/fuzz.sh TARGET [SECONDS]     e.g. scripts/fuzz.sh fuzz_y4m 600
#   scripts/fuzz.sh all SECONDS          every target, one after the other
#
# Targets: fuzz_y4m, fuzz_yuv, fuzz_model, fuzz_options, fuzz_report,
# fuzz_capi (the C API; builds with VMAFX_CAPI) and fuzz_libav (compressed
# input; builds with FFmpeg's libraries). "all" runs those the build has.
# Builds them in build-asan (clang, ASan+UBSan, the same build that
# scripts/sanitize.sh address tests), starts from the seed corpus
# tests/fuzz/corpus/TARGET (plus model/*.json for fuzz_model) and keeps what
# it learns in build-asan/fuzz/corpus/TARGET, so a second run goes on from
# there. A crash, leak, timeout or sanitizer report stops the run with a
# non-zero status and leaves the input in build-asan/fuzz/artifacts/; fix the
# code, then add the input to tests/fuzz/corpus/TARGET as found-<what> (the
# fuzz_* ctests replay the corpus). Extra arguments after SECONDS go to
# libFuzzer (e.g. -jobs=2 -workers=2).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(fuzz_y4m fuzz_yuv fuzz_model fuzz_options fuzz_report fuzz_capi fuzz_libav)
target="${1:-}"
secs="${2:-600}"
shift $(( $# >= 2 ? 2 : $# ))
if [ -z "$target" ]; then
  echo "usage: scripts/fuzz.sh TARGET|all [SECONDS] [libFuzzer args]  (targets: ${targets[*]})" >&2
  exit 2
fi
if [ "$target" = all ]; then
  list=("${targets[@]}")
else
  [[ " ${targets[*]} " == *" $target "* ]] || { echo "fuzz.sh: unknown target '$target' (targets: ${targets[*]})" >&2; exit 2; }
  list=("$target")
fi
build="$PWD/${VMAFX_FUZZ_BUILD:-build-asan}"  # absolute: fuzz_options works in a scratch directory
[ -n "${VMAFX_FUZZ_NO_BUILD:-}" ] || scripts/sanitize.sh address --build-only "${list[@]}"
if [ "$target" = all ]; then  # those this build has
  built=()
  for t in "${list[@]}"; do [ -x "$build/tests/fuzz/$t" ] && built+=("$t"); done
  list=("${built[@]}")
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
for t in "${list[@]}"; do
  work="$build/fuzz/corpus/$t"
  art="$build/fuzz/artifacts"
  mkdir -p "$work" "$art"
  seeds=("$PWD/tests/fuzz/corpus/$t")
  [ "$t" = fuzz_model ] && seeds+=("$PWD/model")
  log="$build/fuzz/$t.log"
  echo "== $t: $secs s (corpus $work, log $log)"
  # -timeout: one input may take at most 10 s; -rss_limit_mb: at most 2.5 GB.
  if ! "$build/tests/fuzz/$t" "$work" "${seeds[@]}" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2560 \
       -print_final_stats=1 -artifact_prefix="$art/$t-" "$@" >"$log" 2>&1; then
    status=1
    echo "!! $t failed; the end of $log:"
    tail -n 60 "$log"
  fi
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)"
  echo "   $t: ${runs:-?} executions, corpus $(find "$work" -type f | wc -l) files"
done
exit "$status"
