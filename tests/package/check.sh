#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The installed package works for a user: install the build into a prefix,
# build examples/cpp against it with find_package(vmaf_exact), run it, and
# compare its JSON report with the CLI's (the fps line aside).
#   check.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
gen=(); command -v ninja > /dev/null && gen=(-G Ninja)
cmake -S "$src/examples/cpp" -B "$work/example" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/example" > "$work/build.log"
clips=$src/tests/data/golden/clips
"$work/example/score" "$clips/chelsea352.ref.y4m" "$clips/chelsea352__gblur1.5.dis.y4m" "$work/example.json"
"$work/prefix/bin/vmaf" -r "$clips/chelsea352.ref.y4m" -d "$clips/chelsea352__gblur1.5.dis.y4m" -q --json \
  -o "$work/cli.json"
grep -v '"fps"' "$work/example.json" > "$work/example.nofps"
grep -v '"fps"' "$work/cli.json" > "$work/cli.nofps"
cmp "$work/example.nofps" "$work/cli.nofps"
grep -q '"vmaf"' "$work/example.nofps"
echo "package: the example's report equals the CLI's"
