#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The licence line of the project's own files (LICENSE: BSD-3-Clause):
#
#   scripts/spdx.sh           adds "SPDX-License-Identifier: BSD-3-Clause" as a
#                             comment at the top of every source file that lacks
#                             one (after a #! line)
#   scripts/spdx.sh --check   lists the files without it (exit 1 when any)
#
# Sources: C, C++, CUDA, OpenCL, Python, shell, CMake and .ci/run. Not the
# model files (Netflix's, model/LICENSE-netflix-models.txt), nor data.
set -euo pipefail
cd "$(dirname "$0")/.."
tag="SPDX-License-Identifier: BSD-3-Clause"
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.c' '*.h' '*.cu' '*.cuh' '*.cl' '*.py' '*.pyi' '*.sh' \
  '*.cmake' '*CMakeLists.txt' '.ci/run' | grep -v '^tests/fuzz/corpus/')
missing=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  head -n 3 "$f" | grep -q "SPDX-License-Identifier:" || missing+=("$f")
done
if [ "${1:-}" = "--check" ]; then
  [ "${#missing[@]}" -eq 0 ] && exit 0
  printf '%s: no SPDX-License-Identifier line (scripts/spdx.sh adds it)\n' "${missing[@]}" >&2
  exit 1
fi
for f in "${missing[@]}"; do
  case "$f" in
    *.c | *.h) line="/* $tag */" ;;
    *.cpp | *.hpp | *.cu | *.cuh | *.cl) line="// $tag" ;;
    *) line="# $tag" ;;
  esac
  if head -c 2 "$f" | grep -q '^#!'; then
    sed -i "1a $line" "$f"
  else
    sed -i "1i $line" "$f"
  fi
done
echo "spdx: ${#missing[@]} files given the licence line"
