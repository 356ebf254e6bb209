#!/usr/bin/env bash
# Runs the device backends' checks on the GPU machine (no compiler, no -dev
# packages, no network there): binaries are built here and carried in .device/.
#   bash scripts/device-check.sh            # every section
#   bash scripts/device-check.sh cuda       # one section
# Logs go to $OUT/ (or ./device-logs when OUT is unset).
set -u
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$REPO/device-logs}
mkdir -p "$OUT"
WHICH=${1:-all}
STATUS=0

# The test binaries have the absolute paths of the tree they were built in
# compiled in (<root>/tests/data, <root>/build-cuda/tools/vmaf): make them
# resolve to this copy. Roots: this checkout and the CUDA build worktree.
for root in /work/main /work/cuda-wt; do
  if [ ! -e "$root/tests/data" ] && [ "$REPO" != "$root" ]; then
    mkdir -p "$(dirname "$root")" && ln -sfn "$REPO" "$root"
  fi
done

# --- cuda ---
# Carried: .device/cuda/{vmaf,vmafx_checkfeat,vmafx_golden_tests,vmafx_bench_cuda_bench,
# vmafx_cuda_errors_test} built in build-cuda (Release, -DVMAFX_CUDA=ON; cudart
# and gtest static), and .device/cuda/lib/libbenchmark.so.1debian (Debian's
# Google Benchmark is only shared). See docs/perf.md, "CUDA backend".
cuda_check() {
  local B=$REPO/.device/cuda
  local L=$OUT
  if [ ! -x "$B/vmaf" ]; then echo "cuda: $B/vmaf missing (build and copy first)"; return 1; fi
  local root
  for root in /work/main /work/cuda-wt; do
    mkdir -p "$root/build-cuda/tools" && cp -f "$B/vmaf" "$root/build-cuda/tools/vmaf"
  done
  local rc=0
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  {
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 | head -3
    for b in "$B"/*; do echo "== ldd $(basename "$b")"; ldd "$b" | grep -v -E 'linux-vdso|ld-linux' ; done
    "$B/vmaf" --list-devices
  } > "$L/cuda-env.log" 2>&1
  echo "== cuda: error paths"
  timeout 60 "$B/vmafx_cuda_errors_test" > "$L/cuda-errors.log" 2>&1 || rc=1
  tail -n 2 "$L/cuda-errors.log"
  echo "== cuda: checkfeat"
  timeout 240 "$B/vmafx_checkfeat" > "$L/cuda-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$L/cuda-checkfeat.log" | grep -v opencl | head -30
  grep -m 20 'MISMATCH\|twin failed' "$L/cuda-checkfeat.log" | cut -c1-300
  # The CLI golden set, in 8 parallel shards: with --backend cuda (a command
  # with a feature that has no CUDA twin yet fails with "no cuda twin"), and
  # with --backend auto (those features on the CPU, the rest on the GPU).
  local mode
  for mode in cuda auto; do
    echo "== cuda: CLI golden with --backend $mode"
    local i
    for i in 0 1 2 3 4 5 6 7; do
      VMAFX_GOLDEN_EXTRA_ARGS="--backend $mode" GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 300 \
        "$B/vmafx_golden_tests" --gtest_filter='*CliGolden*' > "$L/cuda-golden-$mode.$i.log" 2>&1 &
    done
    wait
    cat "$L"/cuda-golden-$mode.[0-7].log > "$L/cuda-golden-$mode.log"
    rm -f "$L"/cuda-golden-$mode.[0-7].log
    echo "passed: $(grep -c '^\[       OK \]' "$L/cuda-golden-$mode.log")" \
         "failed: $(grep -c -E '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$L/cuda-golden-$mode.log")" \
         "of which failed for 'no cuda twin': $(grep -c '^vmaf: error: .*no cuda twin' "$L/cuda-golden-$mode.log")"
    grep -v 'no cuda twin' "$L/cuda-golden-$mode.log" | grep -m3 -A12 'Failure' | cut -c1-300 | head -40
    if [ "$mode" = auto ] && grep -q -E '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$L/cuda-golden-$mode.log"; then rc=1; fi
  done
  echo "== cuda: bench"
  timeout 300 "$B/vmafx_bench_cuda_bench" --benchmark_counters_tabular=true > "$L/cuda-bench.log" 2>&1 || rc=1
  grep -v '^rss:' "$L/cuda-bench.log" | tail -n 30
  grep '^rss:' "$L/cuda-bench.log" | sed -n '1p;$p'
  return $rc
}
# --- end cuda ---

# --- opencl ---
# (owned by the OpenCL backend; add its checks here)
# --- end opencl ---

if [ "$WHICH" = all ] || [ "$WHICH" = cuda ]; then
  cuda_check || STATUS=1
fi
if [ "$WHICH" = all ] || [ "$WHICH" = opencl ]; then
  if declare -F opencl_check > /dev/null; then opencl_check || STATUS=1; fi
fi
echo "device-check: exit $STATUS (logs in $OUT)"
exit $STATUS
