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
# The binaries travel packed (scripts/device-pack.sh): unpack them, replacing
# whatever an earlier call left on the machine.
if [ -f "$REPO/.device.txz" ] && [ "${VMAFX_DEVICE_UNPACKED:-}" != 1 ]; then
  export VMAFX_DEVICE_UNPACKED=1
  (cd "$REPO" && rm -rf .device && { tar -xJf .device.txz 2> /dev/null ||
    python3 -c 'import tarfile; tarfile.open(".device.txz").extractall(".")'; })
fi
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
# Carried: .device/ as scripts/device-pack.sh fills it (one build with CUDA and
# OpenCL; cudart and gtest static; lib/ holds Debian's shared-only Google
# Benchmark and the OpenCL ICD loader). See docs/perf.md, "CUDA backend".
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
  timeout 60 "$B/vmafx_backend_tests" --gtest_filter='Cuda*' > "$L/cuda-errors.log" 2>&1 || rc=1
  tail -n 2 "$L/cuda-errors.log"
  echo "== cuda: exact-math vectors in CUDA kernels (soft fp64, SSIM term, VIF gain, decimation)"
  timeout 240 "$B/vmafx_exact_cuda_tests" > "$L/cuda-exact.log" 2>&1 || rc=1
  grep -E '^\[  (PASSED|FAILED) |^\[  FAILED  \]' "$L/cuda-exact.log" | head -10
  echo "== cuda: checkfeat"
  timeout 240 "$B/vmafx_checkfeat" > "$L/cuda-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[       OK \]|^\[  FAILED  \]' "$L/cuda-checkfeat.log" | grep cuda | head -30
  grep -m 20 'MISMATCH\|twin failed' "$L/cuda-checkfeat.log" | cut -c1-300
  echo "== cuda: checkfeat vif with VMAFX_CUDA_EXACT=int (integer gain terms, no fp64)"
  VMAFX_CUDA_EXACT=int timeout 120 "$B/vmafx_checkfeat" --gtest_filter='*cuda_vif*' \
    > "$L/cuda-checkfeat-int.log" 2>&1 || rc=1
  grep -E '^\[  (PASSED|FAILED) |^\[       OK \]' "$L/cuda-checkfeat-int.log" | head -5
  grep -m 5 'MISMATCH\|twin failed' "$L/cuda-checkfeat-int.log" | cut -c1-300
  # The tiled scale-0 VIF kernel (vif_tile.cuh) is the default; VMAFX_CUDA_VIF=v1
  # selects the original one, which must stay exact too, and its kernel time
  # is printed beside the default's (same machine, same run). <= 40 s.
  echo "== cuda: VMAFX_CUDA_VIF=v1 (original VIF scale 0): checkfeat vif, kernel time"
  VMAFX_CUDA_VIF=v1 timeout 15 "$B/vmafx_checkfeat" --gtest_filter='*cuda_vif*' \
    > "$L/cuda-vif-v1-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[  (PASSED|FAILED) |^\[  FAILED  \]' "$L/cuda-vif-v1-checkfeat.log" | head -5
  grep -m 5 'MISMATCH\|twin failed' "$L/cuda-vif-v1-checkfeat.log" | cut -c1-300
  for k in v1 v2; do
    VMAFX_CUDA_VIF=$k timeout 10 "$B/vmafx_bench_cuda_bench" --benchmark_counters_tabular=true \
      --benchmark_filter='BM_Kernels/3840/2160/8/' > "$L/cuda-vif-$k-kernels.log" 2>&1 || rc=1
    echo "$k:"; grep -E '^BM_' "$L/cuda-vif-$k-kernels.log" | head -2
  done
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
  # Where the time goes (informative; allowed to fail where the profiler
  # cannot read counters): speed-of-light of one frame's VIF and motion kernels.
  if [ -n "${VMAFX_NCU:-}" ] && command -v ncu > /dev/null; then
    echo "== cuda: ncu (VIF/motion kernels, 3840x2160 8-bit)"
    timeout 120 ncu --launch-skip 9 --launch-count 9 --section SpeedOfLight --section Occupancy \
      "$B/vmafx_bench_cuda_bench" --benchmark_filter='BM_Kernels/3840/2160/8/' > "$L/cuda-ncu.log" 2>&1 || true
    grep -E '^  [a-z_]+.*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Registers Per' \
      "$L/cuda-ncu.log" | head -60
  fi
  return $rc
}
# --- end cuda ---

# --- opencl ---
# Uses the binaries of .device/cuda (one build has both backends) and
# .device/opencl for the unit tests and the OpenCL bench (see device-pack.sh;
# the ICD loader and
# libbenchmark travel with them because the GPU machine may lack them).
# NVIDIA's OpenCL needs an ICD file; only NVIDIA's is made visible, so device
# 0 is the GPU whatever else is installed.
opencl_check() {
  local B=$REPO/.device/cuda
  local X=$REPO/.device/opencl
  local L=$OUT
  if [ ! -x "$B/vmaf" ]; then echo "opencl: $B/vmaf missing (run scripts/device-pack.sh first)"; return 1; fi
  local NV=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
  if [ -e "$NV" ]; then
    mkdir -p /etc/OpenCL/vendors && echo "$NV" > /etc/OpenCL/vendors/nvidia.icd
    mkdir -p /tmp/vmafx-ocl-vendors && echo "$NV" > /tmp/vmafx-ocl-vendors/nvidia.icd
    export OCL_ICD_VENDORS=/tmp/vmafx-ocl-vendors
  fi
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  mkdir -p /work/main/build-cuda/tools
  cp -f "$B/vmaf" /work/main/build-cuda/tools/vmaf
  local rc=0
  {
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 | head -3
    "$B/vmaf" --list-devices
  } > "$L/opencl-env.log" 2>&1
  cat "$L/opencl-env.log"
  echo "== opencl: checkfeat"
  timeout 150 "$B/vmafx_checkfeat" --gtest_filter='*opencl*' > "$L/opencl-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[ +(OK|FAILED|SKIPPED) +\]' "$L/opencl-checkfeat.log" | head -20
  grep -m5 -A3 'MISMATCH\|Failure' "$L/opencl-checkfeat.log" | head -30
  # The tiled VIF scale-0 kernel (vif.cl vif_statistic0_v2) is the default;
  # VMAFX_OPENCL_VIF=v1 selects the original, which must stay exact too, and
  # its VIF-twin time is printed for comparison (the default's: bench below).
  echo "== opencl: VMAFX_OPENCL_VIF=v1 (original VIF scale 0): checkfeat vif, 4K vif twin"
  VMAFX_OPENCL_VIF=v1 timeout 20 "$B/vmafx_checkfeat" --gtest_filter='*opencl_vif*' \
    > "$L/opencl-vif-v1-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[ +(OK|FAILED|SKIPPED) +\]' "$L/opencl-vif-v1-checkfeat.log" | head -5
  grep -m5 -A3 'MISMATCH\|Failure' "$L/opencl-vif-v1-checkfeat.log" | head -20
  VMAFX_OPENCL_VIF=v1 timeout 20 "$X/vmafx_bench_opencl_bench" --benchmark_counters_tabular=true \
    --benchmark_filter='BM_Twin/0/3840/2160/' > "$L/opencl-vif-v1-bench.log" 2>&1 || rc=1
  grep -E 'BM_' "$L/opencl-vif-v1-bench.log" | head -4
  echo "== opencl: sources (no fp64) and error tests"
  timeout 60 "$B/vmafx_backend_tests" --gtest_filter='Opencl*' > "$L/opencl-tests.log" 2>&1 || rc=1
  grep -E '^\[ +(OK|FAILED|SKIPPED) +\]|PASSED|FAILED' "$L/opencl-tests.log" | tail -14
  echo "== opencl: exact-math vectors on this OpenCL device (no fp64)"
  timeout 240 "$X/vmafx_unit_tests" --gtest_filter='*OpenClExact*' > "$L/opencl-exact.log" 2>&1 || rc=1
  grep -E '^\[  (PASSED|FAILED) |^\[  FAILED  \]|SKIPPED' "$L/opencl-exact.log" | head -10
  if [ -n "${VMAFX_OPENCL_QUICK:-}" ]; then return $rc; fi  # local dry run of the script
  echo "== opencl: bench"
  timeout 150 "$X/vmafx_bench_opencl_bench" --benchmark_counters_tabular=true > "$L/opencl-bench.log" 2>&1 || rc=1
  tail -n 40 "$L/opencl-bench.log"
  echo "== opencl: CLI golden, --backend opencl on the model and SSIM sets, --backend auto on all"
  (cd /work/main && VMAFX_GOLDEN_EXTRA_ARGS="--backend opencl" timeout 90 "$B/vmafx_golden_tests" \
    --gtest_filter='*CliGolden*vmaf*:*CliGolden*ssim*' > "$L/opencl-golden-opencl.log" 2>&1) || rc=1
  grep -E '^\[  (PASSED|FAILED) ' "$L/opencl-golden-opencl.log" | head -5
  grep -c '^\[       OK' "$L/opencl-golden-opencl.log"
  (cd /work/main && VMAFX_GOLDEN_EXTRA_ARGS="--backend auto" timeout 120 "$B/vmafx_golden_tests" \
    --gtest_filter='*CliGolden*' > "$L/opencl-golden-auto.log" 2>&1) || rc=1
  grep -E '^\[  (PASSED|FAILED) ' "$L/opencl-golden-auto.log" | head -5
  grep -c '^\[       OK' "$L/opencl-golden-auto.log"
  grep -m3 -B2 -A8 'Failure' "$L/opencl-golden-auto.log" | head -30
  return $rc
}
# --- end opencl ---

# --- profile ---
# Where the OpenCL time goes (informative): device time per kernel and per
# transfer (VMAFX_OPENCL_PROFILE=1) for the vmaf_v0.6.1 twins alone and for
# the engine at 3840x2160 8-bit, then the engine's frames/s without profiling
# for both backends side by side. About 60 s.
profile_check() {
  local B=$REPO/.device/cuda
  local X=$REPO/.device/opencl
  local L=$OUT
  local NV=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
  if [ -e "$NV" ]; then
    mkdir -p /tmp/vmafx-ocl-vendors && echo "$NV" > /tmp/vmafx-ocl-vendors/nvidia.icd
    export OCL_ICD_VENDORS=/tmp/vmafx-ocl-vendors
  fi
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local rc=0
  echo "== profile: OpenCL twins and engine at 3840x2160 8-bit (VMAFX_OPENCL_PROFILE=1)"
  VMAFX_OPENCL_PROFILE=1 timeout 120 "$X/vmafx_bench_opencl_bench" --benchmark_counters_tabular=true \
    --benchmark_filter="${VMAFX_PROFILE_FILTER:-BM_Twin/[012]/3840/|BM_Engine/1/3840/2160/8/4/}" \
    > "$L/profile-opencl.log" 2>&1 || rc=1
  grep -v -E '^(Run on|CPU Caches|  L[123]|Load Average|\*\*\*WARNING)' "$L/profile-opencl.log" | head -120
  echo "== profile: engine frames/s, OpenCL then CUDA, 3840x2160 8-bit (no profiling)"
  timeout 120 "$X/vmafx_bench_opencl_bench" --benchmark_counters_tabular=true \
    --benchmark_filter='BM_Engine/1/3840/2160/8/' > "$L/profile-opencl-fps.log" 2>&1 || rc=1
  grep -E '^BM_' "$L/profile-opencl-fps.log"
  timeout 120 "$B/vmafx_bench_cuda_bench" --benchmark_counters_tabular=true \
    --benchmark_filter='BM_Engine/1/3840/2160/8/' > "$L/profile-cuda-fps.log" 2>&1 || rc=1
  grep -E '^BM_' "$L/profile-cuda-fps.log"
  return $rc
}
# --- end profile ---

if [ "$WHICH" = profile ]; then
  profile_check || STATUS=1
fi
if [ "$WHICH" = all ] || [ "$WHICH" = cuda ]; then
  cuda_check || STATUS=1
fi
if [ "$WHICH" = all ] || [ "$WHICH" = opencl ]; then
  if declare -F opencl_check > /dev/null; then opencl_check || STATUS=1; fi
fi
echo "device-check: exit $STATUS (logs in $OUT)"
exit $STATUS
