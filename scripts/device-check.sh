#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs the device backends' checks on the GPU machine (no compiler, no -dev
# packages, no network there): binaries are built here and carried in .device/.
#   bash scripts/device-check.sh            # every section
#   bash scripts/device-check.sh cuda       # one section
#   bash scripts/device-check.sh ciede      # the ciede twins (certificate + replay)
#   bash scripts/device-check.sh libav      # NVDEC vs CPU decode (carry .device-libav.txz instead)
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

# NVIDIA's OpenCL driver for the ICD loader: the machine ships no .icd file.
nvidia_opencl() {
  local nv=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
  [ -e "$nv" ] || return 0
  mkdir -p /etc/OpenCL/vendors /tmp/vmafx-ocl-vendors
  echo "$nv" > /etc/OpenCL/vendors/nvidia.icd 2> /dev/null || true
  echo "$nv" > /tmp/vmafx-ocl-vendors/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/vmafx-ocl-vendors
}

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
  nvidia_opencl
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
  nvidia_opencl
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

# --- golden ---
# Exactness through the CLI after engine or pipeline changes (about 2 min):
# the golden set with --backend cuda, auto and opencl (8 shards each), and
# the twin harness on both backends.
golden_check() {
  local B=$REPO/.device/cuda
  local L=$OUT
  nvidia_opencl
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local root
  for root in /work/main /work/cuda-wt; do
    mkdir -p "$root/build-cuda/tools" && cp -f "$B/vmaf" "$root/build-cuda/tools/vmaf"
  done
  local rc=0 mode i
  for mode in ${GOLDEN_MODES:-cuda auto opencl}; do
    local filter='*CliGolden*'
    [ "$mode" = opencl ] && filter='*CliGolden*vmaf*:*CliGolden*ssim*'
    for i in 0 1 2 3 4 5 6 7; do
      (cd /work/main && VMAFX_GOLDEN_EXTRA_ARGS="--backend $mode ${GOLDEN_EXTRA:-}" GTEST_TOTAL_SHARDS=8 \
        GTEST_SHARD_INDEX=$i timeout 300 "$B/vmafx_golden_tests" --gtest_filter="$filter" \
        > "$L/golden-$mode.$i.log" 2>&1) &
    done
    wait
    cat "$L"/golden-$mode.[0-7].log > "$L/golden-$mode.log" && rm -f "$L"/golden-$mode.[0-7].log
    echo "== golden --backend $mode: passed $(grep -c '^\[       OK \]' "$L/golden-$mode.log")," \
         "failed $(grep -c -E '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$L/golden-$mode.log")," \
         "of which 'no $mode twin': $(grep -c "no $mode twin" "$L/golden-$mode.log")"
    grep -v 'twin for this' "$L/golden-$mode.log" | grep -m3 -A8 'Failure' | cut -c1-200 | head -30
  done
  echo "== checkfeat (cuda, opencl)"
  timeout 240 "$B/vmafx_checkfeat" > "$L/checkfeat.log" 2>&1 || rc=1
  grep -E '^\[  (PASSED|FAILED) |^\[  SKIPPED' "$L/checkfeat.log" | head -5
  grep -m 10 'MISMATCH\|twin failed\|FAILED  \]' "$L/checkfeat.log" | cut -c1-200
  return $rc
}
# --- end golden ---

# --- e2e ---
# The CLI end to end (scripts/bench-e2e.sh) beside libvmaf 3.2.0's stock CLIs
# (.device/libvmaf, packed by device-pack.sh), where the time goes in a few
# runs (VMAFX_STATS=1), and host memory over 10,000 frames. E2E_* override
# bench-e2e.sh's matrix (see the defaults below).
e2e_check() {
  local B=$REPO/.device/cuda
  local L=$OUT
  nvidia_opencl
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local rc=0
  { nproc; grep -m1 'model name' /proc/cpuinfo; grep -o -m1 -w 'avx512f' /proc/cpuinfo; free -g | head -2;
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$L/e2e-env.log" 2>&1
  cat "$L/e2e-env.log"
  local C=/tmp/vmafx-bench
  mkdir -p $C
  export VMAF=$B/vmaf MKCLIP=$B/vmafx_mkclip CLIPS=$C
  export LIBVMAF_CPU=$REPO/.device/libvmaf/vmaf-cpu LIBVMAF_CUDA=$REPO/.device/libvmaf/vmaf-cuda
  local T=$(nproc)
  # 1. where the time goes (one run each, 300 frames)
  if [ -z "${E2E_SKIP_STATS:-}" ]; then
    SIZES="${E2E_SIZES:-1920x1080 3840x2160}" BITS=8 PREPARE_ONLY=1 FRAMES=300 bash "$REPO/scripts/bench-e2e.sh" > /dev/null
    local sz be
    for sz in 2160p8 1080p8; do
      for be in ${E2E_STATS_BACKENDS:-cuda opencl cpu}; do
        echo "== stats: $sz vmaf_v0.6.1 --backend $be"
        VMAFX_STATS=1 timeout 120 "$B/vmaf" -r $C/$sz.ref.y4m -d $C/$sz.dis.y4m --backend $be -q --json -o /tmp/s.json 2>&1 | head -14
      done
    done
    echo "== stats: 2160p8 vmaf_v1.0.16_1d5h_2160 --backend cpu / auto"
    for be in cpu auto; do
      VMAFX_STATS=1 timeout 120 "$B/vmaf" -r $C/2160p8.ref.y4m -d $C/2160p8.dis.y4m --backend $be -q --json -o /tmp/s.json \
        --model version=vmaf_v1.0.16_1d5h_2160 2>&1 | head -14
    done
  fi
  # 2. the table: the full matrix (E2E_PLAN=full, about an hour), or the rows
  # the issue's targets name (default, about 3 min), one bench-e2e.sh call each:
  # size|bits|models|backends|cpu threads|frames of 1-thread rows
  echo "== e2e table"
  local plan row
  if [ "${E2E_PLAN:-targets}" = full ]; then
    plan=("1920x1080 3840x2160|8 10|v0.6.1 v0.6.1+neg 1d5h|cpu cuda opencl auto|1 4 $T|60")
  else
    plan=("3840x2160|8|v0.6.1|cpu cuda opencl auto|1 $T|20"
          "3840x2160|8|1d5h|cpu auto cuda|$T|20"
          "3840x2160|8|v0.6.1+neg|cpu cuda|$T|20"
          "1920x1080|8|v0.6.1|cpu cuda opencl|1 4 $T|60"
          "1920x1080|8|1d5h|cpu auto|$T|60"
          "1920x1080|10|v0.6.1|cpu cuda|$T|60")
  fi
  : > "$L/e2e-table.md"
  for row in "${plan[@]}"; do
    IFS='|' read -r sz bt md be th f1 <<< "$row"
    SIZES="$sz" BITS="$bt" MODELS="$md" BACKENDS="$be" THREADS="$th" FRAMES_1T="$f1" FRAMES="${E2E_FRAMES:-300}" \
      REPS="${E2E_REPS:-2}" MD="$L/e2e-part.md" timeout "${E2E_TIMEOUT:-420}" bash "$REPO/scripts/bench-e2e.sh" 2>&1 |
      tee -a "$L/e2e.log" | grep -v '^| ----\|^| clip' || rc=1
    cat "$L/e2e-part.md" >> "$L/e2e-table.md"
  done
  # 3. host memory over 10,000 frames (raw 1080p through FIFOs)
  if [ -z "${E2E_SKIP_RSS:-}" ]; then
    echo "== rss over 10200 frames, 1920x1080 8-bit raw from FIFOs, --backend ${E2E_RSS_BACKEND:-cuda}"
    timeout 120 bash "$REPO/scripts/rss-check.sh" 1920 1080 34 "${E2E_RSS_BACKEND:-cuda}" < /dev/null 2>&1 |
      awk 'NR % 3 == 1 || /exit/' || rc=1
  fi
  return $rc
}
# --- end e2e ---

# --- python ---
# The Python module (vmaf_exact, built here for the GPU machine's python3 3.12
# with CUDA by scripts/device-pack-python.sh into .device/python): score()'s
# report == the CLI's with --backend cuda, a clip merged from frame ranges,
# and pairs/s of one persistent GPU scorer beside the CLI's fps
# (scripts/device-python.py). Ray does not travel (its wheel is over the carry
# limit): the scorer runs without Ray's scheduling there.
python_check() {
  local P=$REPO/.device/python B=$REPO/.device/cuda
  if [ ! -e "$P/vmaf_exact/__init__.py" ]; then
    echo "python: $P missing (run scripts/device-pack-python.sh first)"; return 1
  fi
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local C=/tmp/vmafx-py
  mkdir -p $C
  [ -s $C/1080p8.dis.y4m ] || "$B/vmafx_mkclip" "$REPO/tests/data/golden/clips/mosaic1080.ref.y4m" 1920 1080 8 "${PY_FRAMES:-120}" $C/1080p8.ref.y4m $C/1080p8.dis.y4m
  echo "== python: score(), ranges, one persistent GPU scorer (1080p 8-bit, ${PY_FRAMES:-120} frames)"
  PYTHONPATH="$P${PYTHONPATH:+:$PYTHONPATH}" timeout 400 python3 "$REPO/scripts/device-python.py" "$B/vmaf" \
    $C/1080p8.ref.y4m $C/1080p8.dis.y4m "${PY_PAIRS:-8}" 2>&1 | tee "$OUT/python.log"
  return "${PIPESTATUS[0]}"
}
# --- end python ---

# --- libav ---
# Compressed input decoded by NVDEC against CPU decoding, and the rates
# (docs/input.md, docs/perf.md). Carried: .device-libav.txz from
# scripts/device-pack-libav.sh (a vmaf with CUDA and a static FFmpeg with
# NVDEC, 4K HEVC and AV1 pairs at 8 and 10 bit in containers and as raw
# streams, and their CPU-decoded scores computed where they were packed).
# LIBAV_REPEAT (default 20) copies of each raw stream make the long clips the
# rates are measured on. About 3 min.
libav_check() {
  local D=$REPO/.device-libav
  local L=$OUT
  if [ -f "$REPO/.device-libav.txz" ] && [ ! -x "$D/vmaf" ]; then
    (cd "$REPO" && { tar -xJf .device-libav.txz 2> /dev/null ||
      python3 -c 'import tarfile; tarfile.open(".device-libav.txz").extractall(".")'; })
  fi
  if [ ! -x "$D/vmaf" ]; then echo "libav: $D/vmaf missing (run scripts/device-pack-libav.sh, carry .device-libav.txz)"; return 1; fi
  export LD_LIBRARY_PATH="$D/lib:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local rc=0 c r d f
  {
    date -u
    nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1 | head -2
    echo "== ldd (not found = missing on this machine)"; ldd "$D/vmaf" | grep 'not found'
    echo "== NVDEC library"; ls -l /usr/local/nvidia/lib64/libnvcuvid* /usr/lib/x86_64-linux-gnu/libnvcuvid* 2>&1
    "$D/vmaf" --version; "$D/vmaf" --list-devices
  } > "$L/libav-env.log" 2>&1
  cat "$L/libav-env.log"
  same() {  # same A B: the reports without their fps line
    if cmp -s <(grep -v '"fps"' "$1") <(grep -v '"fps"' "$2"); then echo "  equal: $(basename "$2")"
    else echo "  DIFFERENT: $(basename "$2") vs $(basename "$1")"; diff <(grep -v '"fps"' "$1") <(grep -v '"fps"' "$2") | head -4; rc=1; fi
  }
  for c in hevc8 hevc10 av1-8 av1-10; do
    r=$(ls "$D"/clips/$c-ref.*) d=$(ls "$D"/clips/$c-dis.*)
    echo "== libav $c ($(basename "$r"), $(basename "$d")): NVDEC vs the CPU decode where packed"
    local base=(-r "$r" -d "$d" --json --precision max)
    # --backend cuda decodes on NVDEC by default, frames stay on the GPU; the
    # notices (stderr) say when NVDEC was not used.
    timeout 120 "$D/vmaf" "${base[@]}" --backend cuda -o "$L/libav-$c-cuda.json" 2> "$L/libav-$c-cuda.err" || rc=1
    grep -E 'notice|error' "$L/libav-$c-cuda.err" | sed 's/^/  /'
    timeout 120 env VMAFX_HWDEC_HOST=1 "$D/vmaf" "${base[@]}" -q --backend cuda -o "$L/libav-$c-cuda-host.json" || rc=1
    timeout 120 "$D/vmaf" "${base[@]}" -q --backend cpu --hwdec cuda -o "$L/libav-$c-nvdec-cpu.json" || rc=1
    for f in "$L/libav-$c-cuda.json" "$L/libav-$c-cuda-host.json" "$L/libav-$c-nvdec-cpu.json"; do
      same "$D/clips/$c.cpu-here.json" "$f"
    done
    case $c in hevc*)
      timeout 120 "$D/vmaf" "${base[@]}" -q --backend cpu --hwdec none -o "$L/libav-$c-cpu.json" || rc=1
      same "$D/clips/$c.cpu-here.json" "$L/libav-$c-cpu.json" ;;
    esac
  done
  # Rates: HEVC only (the H200's NVDEC has no AV1; LIBAV_RATE_CODECS to add).
  local n=${LIBAV_REPEAT:-20} ext
  for c in ${LIBAV_RATE_CODECS:-hevc8 hevc10}; do
    for s in ref dis; do
      f=$(ls "$D"/clips/raw-$c-$s.*); ext=${f##*.}
      for _ in $(seq "$n"); do cat "$f"; done > "$D/long-$c-$s.$ext"
    done
    r=$(ls "$D"/long-$c-ref.*) d=$(ls "$D"/long-$c-dis.*)
    echo "== libav $c: $n x the raw streams: equal to the CPU decode, then rates (frame pairs/s)"
    "$D/vmaf" -r "$D/clips/raw-$c-ref.$ext" -d "$D/clips/raw-$c-dis.$ext" --backend cuda --json --precision max -q \
      -o "$L/libav-raw-$c.json" || rc=1
    same "$D/clips/raw-$c.cpu-here.json" "$L/libav-raw-$c.json"
    for i in $(seq "${LIBAV_ROUNDS:-2}"); do
      "$D/vmaf" -r "$r" -d "$d" --decode-only --hwdec cuda 2>&1 | sed 's/^/  nvdec decode only: /'
      "$D/vmaf" -r "$r" -d "$d" --backend cuda --json -o "$L/libav-$c-rate.json" -q || rc=1
      grep '"fps"' "$L/libav-$c-rate.json" | sed 's/^ */  score, cuda, NVDEC frames on the GPU: /'
      VMAFX_HWDEC_HOST=1 "$D/vmaf" -r "$r" -d "$d" --backend cuda --json -o "$L/libav-$c-rate-host.json" -q || rc=1
      grep '"fps"' "$L/libav-$c-rate-host.json" | sed 's/^ */  score, cuda, NVDEC frames through the host: /'
    done
    case $c in hevc*)
      "$D/vmaf" -r "$r" -d "$d" --decode-only -q 2>&1 | sed 's/^/  cpu decode only: /'
      "$D/vmaf" -r "$r" -d "$d" --backend cuda --hwdec none --json -o "$L/libav-$c-rate-cpudec.json" -q || rc=1
      grep '"fps"' "$L/libav-$c-rate-cpudec.json" | sed 's/^ */  score, cuda, CPU decode: /' ;;
    esac
    rm -f "$r" "$d"
  done
  return $rc
}
# --- end libav ---

# --- harden ---
# Issue 16: BM_RssFlat's failed check must end the bench with exit 1 (it
# exited 0 before). With --rss-limit-kib=0 any growth after frame 1000 fails
# it (RSS rarely stays flat to the KiB over 9000 frames): expect exit 1.
harden_check() {
  local B=$REPO/.device/cuda
  if [ ! -x "$B/vmafx_bench_cuda_bench" ]; then echo "harden: $B/vmafx_bench_cuda_bench missing"; return 1; fi
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # Debian's shared-only libbenchmark
  echo "== harden: BM_RssFlat with a 0 KiB limit (expect exit 1)"
  timeout 300 "$B/vmafx_bench_cuda_bench" --benchmark_filter=BM_RssFlat --rss-limit-kib=0 > "$OUT/harden-rss.log" 2>&1
  local rc=$?
  grep -v '^rss:' "$OUT/harden-rss.log" | tail -n 5
  echo "exit $rc"
  [ "$rc" -eq 1 ]
}
# --- end harden ---

if [ "$WHICH" = harden ]; then
  harden_check || STATUS=1
fi

# --- import ---
# NVDEC surfaces as pictures' device copies (src/backend/cuda/import.cu):
# tests/checkfeat/cuda_import_test.cpp (NV12/P010/P016/4:4:4 unpacked sample
# for sample, stray low bits caught, scores of device copies == host pictures).
import_check() {
  local B=$REPO/.device/cuda
  if [ ! -x "$B/vmafx_backend_tests" ]; then echo "import: $B/vmafx_backend_tests missing"; return 1; fi
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "== import: CudaImport tests"
  timeout 120 "$B/vmafx_backend_tests" --gtest_filter='CudaImport*:CudaErrors*' > "$OUT/import.log" 2>&1
  local rc=$?
  grep -E '^\[       OK \]|^\[  FAILED  \]|^\[  SKIPPED \]|^\[  PASSED  \]' "$OUT/import.log"
  return $rc
}
if [ "$WHICH" = import ]; then
  import_check || STATUS=1
fi
# --- end import ---

# --- capi ---
# libvmaf's C API on the CUDA backend (libvmaf_cuda.h), as FFmpeg's
# libvmaf_cuda filter drives it: device pictures preallocated by the library,
# filled with cuMemcpy2D from the caller's context; each report (full
# precision) must equal the CPU context's. Carried: .device/cuda/
# vmafx_capi_cuda_client and lib/libvmaf.so.3 (scripts/device-pack.sh).
capi_check() {
  local B=$REPO/.device/cuda
  if [ ! -x "$B/vmafx_capi_cuda_client" ]; then echo "capi: $B/vmafx_capi_cuda_client missing (device-pack first)"; return 1; fi
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local clips=$REPO/tests/data/golden/clips rc=0 r
  echo "== capi: libvmaf_cuda.h with device pictures vs the CPU"
  for pair in "chelsea352 chelsea352__gblur1.5 vmaf_v0.6.1" "mandel240p10 mandel240p10__x265_crf30 vmaf_v0.6.1" \
              "mosaic1080 mosaic1080__down960_x264_crf23_up vmaf_v0.6.1" \
              "coffee320 coffee320__x264_crf30 vmaf_v0.6.1neg" "cellauto240p12 cellauto240p12__aom_crf45 vmaf_4k_v0.6.1"; do
    set -- $pair
    timeout 300 "$B/vmafx_capi_cuda_client" "$clips/$1.ref.y4m" "$clips/$2.dis.y4m" "$OUT/capi-$1" "$3" \
      > "$OUT/capi-$1.log" 2>&1
    r=$?
    echo "capi $1 ($3): exit $r: $(tail -n 1 "$OUT/capi-$1.log")"
    [ "$r" = 0 ] || rc=1
  done
  return $rc
}
# --- end capi ---

# --- cambi ---
# cambi's CUDA and OpenCL twins (about 3 min): the twin harness, libvmaf's
# values of the option variants and synthetic clips (1080p with and without
# the speed-up), the golden set's cambi runs through the CLI, then the time
# of cambi alone (the vmaf_v1.0.16 options) and of vmaf_v1.0.16_1d5h_2160 at
# 3840x2160 8-bit: --backend cpu, cuda, opencl, auto.
cambi_check() {
  local B=$REPO/.device/cuda
  local L=$OUT
  if [ ! -x "$B/vmaf" ]; then echo "cambi: $B/vmaf missing (run scripts/device-pack.sh first)"; return 1; fi
  nvidia_opencl
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local rc=0 be
  echo "== cambi: checkfeat (cuda, opencl)"
  timeout 240 "$B/vmafx_checkfeat" --gtest_filter='*cuda_cambi*:*opencl_cambi*' > "$L/cambi-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[  (PASSED|FAILED) |^\[  SKIPPED|^\[  FAILED  \]' "$L/cambi-checkfeat.log" | head -20
  grep -m 10 'MISMATCH\|twin failed' "$L/cambi-checkfeat.log" | cut -c1-300
  echo "== cambi: libvmaf's variants and synthetic clips on both twins"
  (cd /work/main && VMAFX_SLOW_TWIN_TESTS=1 timeout 300 "$B/vmafx_golden_tests" --gtest_filter='*CambiTwinVsLibvmaf*' \
    > "$L/cambi-golden-twins.log" 2>&1) || rc=1
  grep -E '^\[  (PASSED|FAILED) |^\[  SKIPPED|^\[  FAILED  \]' "$L/cambi-golden-twins.log" | head -20
  grep -m 5 -A4 'Failure' "$L/cambi-golden-twins.log" | cut -c1-300
  for be in cuda opencl; do
    echo "== cambi: golden runs through the CLI, --backend $be"
    timeout 300 python3 "$REPO/scripts/golden-feature.py" "$B/vmaf" "$REPO/tests/data/golden" cambi '^cambi' \
      --backend $be > "$L/cambi-golden-cli-$be.log" 2>&1 || rc=1
    tail -n 4 "$L/cambi-golden-cli-$be.log"
  done
  echo "== cambi: time at 3840x2160 8-bit (${CAMBI_FRAMES:-300} frames)"
  local C=/tmp/vmafx-bench T=$(nproc)
  mkdir -p $C
  (cd "$REPO" && VMAF=$B/vmaf MKCLIP=$B/vmafx_mkclip CLIPS=$C SIZES=3840x2160 BITS=8 PREPARE_ONLY=1 FRAMES=${CAMBI_FRAMES:-300} \
    bash scripts/bench-e2e.sh > /dev/null 2>&1) || rc=1
  local opts=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06
  for be in cpu cuda opencl; do
    local t0=$(date +%s%N)
    local th=""
    [ $be = cpu ] && th="--threads $T"  # the GPU backends: their preferred frames in flight
    timeout 300 "$B/vmaf" -r $C/2160p8.ref.y4m -d $C/2160p8.dis.y4m -n --feature cambi=$opts --backend $be \
      $th -q --precision max --json -o "$L/cambi-4k-$be.json" > "$L/cambi-4k-$be.log" 2>&1 || rc=1
    echo "cambi alone, --backend $be: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  done
  python3 - "$L" <<'PY' || rc=1
import json, sys
d = sys.argv[1]
runs = {b: json.load(open(f"{d}/cambi-4k-{b}.json")) for b in ("cpu", "cuda", "opencl")}
for b in ("cuda", "opencl"):
    same = runs[b]["frames"] == runs["cpu"]["frames"]
    print(f"cambi 4K frames, {b} == cpu: {same} ({len(runs[b]['frames'])} frames)")
    if not same: sys.exit(1)
PY
  for be in cpu auto; do
    echo "== cambi: vmaf_v1.0.16_1d5h_2160, --backend $be (VMAFX_STATS=1)"
    VMAFX_STATS=1 timeout 300 "$B/vmaf" -r $C/2160p8.ref.y4m -d $C/2160p8.dis.y4m --backend $be -q \
      --json -o "$L/cambi-1d5h-$be.json" --model version=vmaf_v1.0.16_1d5h_2160 2>&1 | head -16
  done
  return $rc
}
# --- end cambi ---

# --- twins-misc ---
# The float_psnr, float_moment, float_ansnr and psnr_hvs twins (issue 14) on
# CUDA and NVIDIA's OpenCL: their checkfeat configurations, then the CLI golden
# set with --backend cuda and opencl (8 shards each; commands that still need
# a feature without a twin, e.g. ciede, are counted apart). About 3 min.
twins_misc_check() {
  local B=$REPO/.device/cuda
  local L=$OUT
  nvidia_opencl
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local root
  for root in /work/main /work/cuda-wt; do
    mkdir -p "$root/build-cuda/tools" && cp -f "$B/vmaf" "$root/build-cuda/tools/vmaf"
  done
  local rc=0 mode i
  echo "== twins-misc: checkfeat (cuda, opencl)"
  timeout 300 "$B/vmafx_checkfeat" \
    --gtest_filter='*cuda_float_psnr*:*cuda_float_moment*:*cuda_float_ansnr*:*cuda_psnr_hvs*:*opencl_float_psnr*:*opencl_float_moment*:*opencl_float_ansnr*:*opencl_psnr_hvs*' \
    > "$L/twins-misc-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[       OK \]|^\[  FAILED  \]|^\[  SKIPPED' "$L/twins-misc-checkfeat.log" | head -12
  grep -m 10 'MISMATCH\|twin failed' "$L/twins-misc-checkfeat.log" | cut -c1-300
  echo "== twins-misc: float_psnr / float_moment past 2^53 units (2048x2048 16-bit, one-by-one path)"
  timeout 120 "$B/vmafx_backend_tests" --gtest_filter='*FloatSums*' > "$L/twins-misc-sums.log" 2>&1 || rc=1
  grep -E '^\[       OK \]|^\[  FAILED  \]|^\[  SKIPPED' "$L/twins-misc-sums.log" | head -4
  for mode in cuda opencl; do
    for i in 0 1 2 3 4 5 6 7; do
      (cd /work/main && VMAFX_GOLDEN_EXTRA_ARGS="--backend $mode" GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i \
        timeout 300 "$B/vmafx_golden_tests" --gtest_filter='*CliGolden*' > "$L/twins-misc-golden-$mode.$i.log" 2>&1) &
    done
    wait
    cat "$L"/twins-misc-golden-$mode.[0-7].log > "$L/twins-misc-golden-$mode.log"
    rm -f "$L"/twins-misc-golden-$mode.[0-7].log
    echo "== twins-misc: CLI golden --backend $mode: passed $(grep -c '^\[       OK \]' "$L/twins-misc-golden-$mode.log")," \
         "failed $(grep -c -E '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$L/twins-misc-golden-$mode.log")," \
         "of which 'no $mode twin': $(grep -c "no $mode twin" "$L/twins-misc-golden-$mode.log")"
    grep -v 'twin for this' "$L/twins-misc-golden-$mode.log" | grep -m3 -A8 'Failure' | cut -c1-200 | head -30
  done
  return $rc
}
# --- end twins-misc ---

# --- float-twins ---
# The CUDA and OpenCL twins of float_vif, float_adm and float_motion (issue
# 14): the twin harness on every option set of the feature table, then each
# golden command's float_vif/float_adm/float_motion arguments alone on each
# backend against libvmaf's values (scripts/golden-twins.py). About 2 min.
float_twins_check() {
  local B=$REPO/.device/cuda
  local L=$OUT
  if [ ! -x "$B/vmaf" ]; then echo "float-twins: $B/vmaf missing (run scripts/device-pack.sh first)"; return 1; fi
  nvidia_opencl
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local rc=0 be
  for be in cuda opencl; do
    echo "== float-twins: checkfeat $be"
    timeout 300 "$B/vmafx_checkfeat" --gtest_filter="*${be}_float_vif*:*${be}_float_adm*:*${be}_float_motion*" \
      > "$L/float-twins-checkfeat-$be.log" 2>&1 || rc=1
    grep -E '^\[ +(OK|FAILED|SKIPPED) +\]' "$L/float-twins-checkfeat-$be.log" | cut -c1-160
    grep -m5 'MISMATCH\|twin failed' "$L/float-twins-checkfeat-$be.log" | cut -c1-300
  done
  if command -v python3 > /dev/null; then
    for be in cuda opencl; do
      echo "== float-twins: golden commands, --backend $be"
      timeout 300 python3 "$REPO/scripts/golden-twins.py" "$B/vmaf" "$REPO/tests/data/golden" \
        --features float_vif,float_adm,float_motion --backend $be > "$L/float-twins-golden-$be.log" 2>&1 || rc=1
      grep -v '^OK' "$L/float-twins-golden-$be.log" | tail -8
    done
  else
    echo "float-twins: no python3 here: golden commands skipped"; rc=1
  fi
  return $rc
}
# --- end float-twins ---

# --- speed ---
# The speed_chroma / speed_temporal twins (issue 14): checkfeat's speed
# configurations on CUDA and on NVIDIA's OpenCL, then every golden speed
# feature run (tests/data/speed: 21 option sets x 20 pairs, libvmaf's values)
# through the CLI with --backend cuda and --backend opencl (no CPU fallback).
# About 2 min.
speed_check() {
  local B=$REPO/.device/cuda
  local L=$OUT
  nvidia_opencl
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local root
  for root in /work/main /work/cuda-wt; do
    mkdir -p "$root/build-cuda/tools" && cp -f "$B/vmaf" "$root/build-cuda/tools/vmaf"
  done
  local rc=0 be
  echo "== speed: checkfeat (cuda, opencl)"
  timeout 300 "$B/vmafx_checkfeat" --gtest_filter='*cuda_speed*:*opencl_speed*' > "$L/speed-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[ +(OK|FAILED|SKIPPED) +\]|^\[  (PASSED|FAILED) ' "$L/speed-checkfeat.log" | head -30
  grep -m 10 'MISMATCH\|twin failed' "$L/speed-checkfeat.log" | cut -c1-300
  for be in cuda opencl; do
    (cd /work/main && VMAFX_GOLDEN_EXTRA_ARGS="--backend $be" timeout 300 "$B/vmafx_golden_tests" \
      --gtest_filter='*SpeedCli*chroma*:*SpeedCli*temporal*' > "$L/speed-golden-$be.log" 2>&1) || rc=1
    echo "== speed: golden feature runs --backend $be: passed $(grep -c '^\[       OK \]' "$L/speed-golden-$be.log")," \
         "failed $(grep -c -E '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$L/speed-golden-$be.log")"
    grep -m3 -A6 'Failure' "$L/speed-golden-$be.log" | cut -c1-200 | head -20
  done
  # The vmaf_v1.0.16 HFR models' other features on the device: adm3/aim,
  # motion3 with the five-frame window and moving average, speed_chroma with
  # the models' options (bilinear prescale): the report equals --backend cpu's.
  local G=/work/main/tests/data/golden/clips pair f
  local F="--feature adm=adm_dlm_weight=0.7:adm_enhn_gain_limit=1.0:adm_noise_weight=0.02:adm_norm_view_dist=3.0:adm_ref_display_height=1080:adm_min_val=0.5:adm_csf_mode=2"
  F="$F --feature motion=motion_max_val=18:motion_five_frame_window=true:motion_moving_average=true"
  F="$F --feature speed_chroma=speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_prescale=0.6:speed_prescale_method=bilinear:speed_max_val=45"
  F="$F --feature speed_temporal"
  for pair in chelsea352:chelsea352__gblur1.5 mosaic1080:mosaic1080__down960_x264_crf23_up \
              camera351x287p444:camera351x287p444__bright12 gradnoise240p444p12:gradnoise240p444p12__x265_crf28; do
    for be in cpu cuda opencl; do
      # shellcheck disable=SC2086
      timeout 120 "$B/vmaf" -r "$G/${pair%%:*}.ref.y4m" -d "$G/${pair##*:}.dis.y4m" -q --json -n $F --precision max \
        --backend $be -o "$L/hfr-$be.json" > "$L/hfr-$be.log" 2>&1 || { rc=1; cat "$L/hfr-$be.log"; }
      grep -v '"fps"' "$L/hfr-$be.json" > "$L/hfr-$be.nofps.json"
    done
    for f in cuda opencl; do
      if cmp -s "$L/hfr-cpu.nofps.json" "$L/hfr-$f.nofps.json"; then echo "== speed: HFR features ${pair%%:*} $f == cpu"
      else echo "== speed: HFR features ${pair%%:*} $f DIFFERS from cpu"; rc=1; fi
    done
  done
  # The vmaf_v1.0.16* models themselves (cambi's twins included), libvmaf's values.
  for be in cuda opencl; do
    (cd /work/main && VMAFX_GOLDEN_EXTRA_ARGS="--backend $be" timeout 300 "$B/vmafx_golden_tests" \
      --gtest_filter='*SpeedCli*model*' > "$L/speed-golden-models-$be.log" 2>&1) || rc=1
    echo "== speed: golden v1.0.16 model runs --backend $be: passed $(grep -c '^\[       OK \]' "$L/speed-golden-models-$be.log")," \
         "failed $(grep -c -E '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$L/speed-golden-models-$be.log")" \
         "(of which 'no $be twin': $(grep -c "no $be twin" "$L/speed-golden-models-$be.log"))"
  done
  return $rc
}
# --- end speed ---

# --- ciede ---
# The ciede twins (issue 14): certified soft-fp64 interval evaluation on the
# device, uncertified pixels replayed on the host (exact/ciede.h). checkfeat's
# ciede configuration on CUDA and NVIDIA OpenCL; the stress test (2,000,000
# random pairs per bit depth through each kernel, every certified pixel ==
# the CPU, replay counts printed); the golden ciede runs alone
# (scripts/golden-twins.py, libvmaf's values) and the CLI golden set with
# --backend cuda and opencl (no command refused any more). About 5 min.
ciede_check() {
  local B=$REPO/.device/cuda
  local L=$OUT
  if [ ! -x "$B/vmaf" ]; then echo "ciede: $B/vmaf missing (run scripts/device-pack.sh first)"; return 1; fi
  nvidia_opencl
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local root
  for root in /work/main /work/cuda-wt; do
    mkdir -p "$root/build-cuda/tools" && cp -f "$B/vmaf" "$root/build-cuda/tools/vmaf"
  done
  local rc=0 be i
  echo "== ciede: checkfeat (cuda, opencl)"
  timeout 300 "$B/vmafx_checkfeat" --gtest_filter='*cuda_ciede*:*opencl_ciede*' > "$L/ciede-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[ +(OK|FAILED|SKIPPED) +\]' "$L/ciede-checkfeat.log" | cut -c1-160
  grep -m 10 'MISMATCH\|twin failed' "$L/ciede-checkfeat.log" | cut -c1-300
  echo "== ciede: stress, 4 x 2,000,000 random pairs per backend"
  VMAFX_CIEDE_STRESS=2000000 timeout 400 "$B/vmafx_backend_tests" --gtest_filter='CiedeStress*' \
    > "$L/ciede-stress.log" 2>&1 || rc=1
  grep -E '^ciede stress|^\[ +(OK|FAILED|SKIPPED) +\]' "$L/ciede-stress.log" | cut -c1-200
  if command -v python3 > /dev/null; then
    for be in cuda opencl; do
      echo "== ciede: golden ciede runs, ciede alone, --backend $be"
      timeout 300 python3 "$REPO/scripts/golden-twins.py" "$B/vmaf" "$REPO/tests/data/golden" \
        --features ciede --backend $be > "$L/ciede-golden-twins-$be.log" 2>&1 || rc=1
      grep -v '^OK' "$L/ciede-golden-twins-$be.log" | tail -4
    done
  fi
  for be in cuda opencl; do
    for i in 0 1 2 3 4 5 6 7; do
      (cd /work/main && VMAFX_GOLDEN_EXTRA_ARGS="--backend $be" GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i \
        timeout 300 "$B/vmafx_golden_tests" --gtest_filter='*CliGolden*' > "$L/ciede-golden-$be.$i.log" 2>&1) &
    done
    wait
    cat "$L"/ciede-golden-$be.[0-7].log > "$L/ciede-golden-$be.log"
    rm -f "$L"/ciede-golden-$be.[0-7].log
    echo "== ciede: CLI golden --backend $be: passed $(grep -c '^\[       OK \]' "$L/ciede-golden-$be.log")," \
         "failed $(grep -c -E '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$L/ciede-golden-$be.log")," \
         "of which 'no $be twin': $(grep -c "no $be twin" "$L/ciede-golden-$be.log")"
    grep -m3 -A8 'Failure' "$L/ciede-golden-$be.log" | cut -c1-200 | head -30
  done
  return $rc
}
# --- end ciede ---

# --- final ---
# A session's last run with little device time left: the checks of the newest
# changes, most important first, each bounded, sizes cut down (the full
# sections above say more). Carried: .device.txz and .device-libav.txz.
final_check() {
  local B=$REPO/.device/cuda L=$OUT rc=0 be i
  nvidia_opencl
  export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  for root in /work/main /work/cuda-wt; do
    mkdir -p "$root/build-cuda/tools" && cp -f "$B/vmaf" "$root/build-cuda/tools/vmaf"
  done
  import_check || rc=1
  capi_check || rc=1
  echo "== final: ciede checkfeat (cuda, opencl)"
  timeout 120 "$B/vmafx_checkfeat" --gtest_filter='*cuda_ciede*:*opencl_ciede*' > "$L/ciede-checkfeat.log" 2>&1 || rc=1
  grep -E '^\[ +(OK|FAILED|SKIPPED) +\]' "$L/ciede-checkfeat.log" | cut -c1-160
  echo "== final: ciede stress, ${FINAL_STRESS:-300000} random pairs per depth and backend"
  VMAFX_CIEDE_STRESS=${FINAL_STRESS:-300000} timeout 150 "$B/vmafx_backend_tests" --gtest_filter='CiedeStress*' \
    > "$L/ciede-stress.log" 2>&1 || rc=1
  grep -E '^ciede stress|^\[ +(OK|FAILED|SKIPPED) +\]' "$L/ciede-stress.log" | cut -c1-200
  for be in cuda opencl; do
    echo "== final: golden ciede runs (libvmaf's values), --backend $be"
    timeout 120 python3 "$REPO/scripts/golden-twins.py" "$B/vmaf" "$REPO/tests/data/golden" --features ciede \
      --backend $be > "$L/ciede-golden-twins-$be.log" 2>&1 || rc=1
    tail -3 "$L/ciede-golden-twins-$be.log"
  done
  if [ -f "$REPO/.device-libav.txz" ]; then
    LIBAV_REPEAT=${LIBAV_REPEAT:-10} LIBAV_ROUNDS=${LIBAV_ROUNDS:-1} libav_check || rc=1
  fi
  for be in cuda opencl; do
    for i in 0 1 2 3 4 5 6 7; do
      (cd /work/main && VMAFX_GOLDEN_EXTRA_ARGS="--backend $be" GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i \
        timeout 200 "$B/vmafx_golden_tests" --gtest_filter='*CliGolden*' > "$L/final-golden-$be.$i.log" 2>&1) &
    done
    wait
    cat "$L"/final-golden-$be.[0-7].log > "$L/final-golden-$be.log" && rm -f "$L"/final-golden-$be.[0-7].log
    echo "== final: CLI golden --backend $be: passed $(grep -c '^\[       OK \]' "$L/final-golden-$be.log")," \
         "failed $(grep -c -E '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$L/final-golden-$be.log")"
    grep -m3 -A8 'Failure' "$L/final-golden-$be.log" | cut -c1-200 | head -20
  done
  return $rc
}
if [ "$WHICH" = final ]; then
  final_check || STATUS=1
fi
# --- end final ---

if [ "$WHICH" = golden ] || [ "$WHICH" = quick ]; then
  golden_check || STATUS=1
fi
if [ "$WHICH" = e2e ] || [ "$WHICH" = quick ]; then
  e2e_check || STATUS=1
fi
if [ "$WHICH" = python ]; then
  python_check || STATUS=1
fi
if [ "$WHICH" = cambi ]; then
  cambi_check || STATUS=1
fi
if [ "$WHICH" = twins-misc ]; then
  twins_misc_check || STATUS=1
fi
if [ "$WHICH" = float-twins ]; then
  float_twins_check || STATUS=1
fi
if [ "$WHICH" = ciede ]; then
  ciede_check || STATUS=1
fi
if [ "$WHICH" = speed ]; then
  speed_check || STATUS=1
fi
if [ "$WHICH" = profile ]; then
  profile_check || STATUS=1
fi
if [ "$WHICH" = libav ]; then
  libav_check || STATUS=1
fi
if [ "$WHICH" = all ] || [ "$WHICH" = cuda ]; then
  cuda_check || STATUS=1
fi
if [ "$WHICH" = all ] || [ "$WHICH" = opencl ]; then
  if declare -F opencl_check > /dev/null; then opencl_check || STATUS=1; fi
fi
if [ "$WHICH" = all ] || [ "$WHICH" = capi ]; then
  capi_check || STATUS=1
fi
echo "device-check: exit $STATUS (logs in $OUT)"
exit $STATUS
