#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Formats the project's C++ and CUDA sources with .clang-format, or, with
# --check, lists the files that differ from it (exit 1 when any does).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' | grep -v '^tests/fuzz/corpus/')
if [ "${1:-}" = "--check" ]; then
  bad=0
  for f in "${files[@]}"; do
    if ! clang-format --dry-run -Werror "$f" > /dev/null 2>&1; then echo "$f"; bad=1; fi
  done
  exit $bad
fi
clang-format -i "${files[@]}"
