#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2317  # sharded is called through step
# Checks too slow for every submission (CI, .ci/run, keeps each gate on a
# smaller set; docs/reliability.md, "Release checks"). Run before a release
# and on the merged tree, after scripts/test.sh has built ./build:
#
#   scripts/release-check.sh [FUZZ_SECONDS]      (default 600 s a fuzz target)
#
#   1. every golden command line through --backend opencl on this machine's
#      OpenCL device (PoCL here), the 1080p pair included (CI leaves it out)
#   2. every SpEED golden run on OpenCL (CI runs one pair of each format)
#   3. cambi's OpenCL twin on libvmaf's variants and synthetic clips at full
#      size (VMAFX_SLOW_TWIN_TESTS=1; CI leaves the 1080p cases out)
#   4. each fuzz target for FUZZ_SECONDS (CI: 30 s)
#
# Each step prints its time; the exit status is 1 when any step failed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
secs=${1:-600}
golden=build/tests/vmafx_golden_tests
[ -x "$golden" ] || { echo "release-check: $golden missing: run scripts/test.sh first"; exit 2; }
status=0
step() {
  local name=$1 t0=$SECONDS
  shift
  echo "== release-check: $name"
  if "$@"; then echo "== release-check: $name: passed in $((SECONDS - t0)) s"
  else echo "== release-check: $name: FAILED after $((SECONDS - t0)) s"; status=1; fi
}
jobs=${VMAFX_JOBS:-$(nproc)}
# GTEST sharding over the cores: one process a shard, every shard's status counts.
sharded() {
  local filter=$1 extra=$2 i rc=0 pids=()
  for ((i = 0; i < jobs; i++)); do
    VMAFX_GOLDEN_EXTRA_ARGS="$extra" GTEST_TOTAL_SHARDS=$jobs GTEST_SHARD_INDEX=$i \
      "$golden" --gtest_filter="$filter" --gtest_brief=1 > "build/release-check.$i.log" 2>&1 &
    pids+=("$!")
  done
  for ((i = 0; i < jobs; i++)); do
    wait "${pids[$i]}" || { rc=1; tail -n 30 "build/release-check.$i.log"; }
  done
  return "$rc"
}
step "golden, every command line, --backend opencl" sharded '*CliGolden*' '--backend opencl'
step "SpEED golden runs, --backend opencl" sharded '*SpeedCli*' '--backend opencl'
step "cambi twins at full size" env VMAFX_SLOW_TWIN_TESTS=1 "$golden" --gtest_filter='*CambiTwin*opencl*' --gtest_brief=1
step "fuzz, $secs s a target" scripts/fuzz.sh all "$secs"
exit "$status"
