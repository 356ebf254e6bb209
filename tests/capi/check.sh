#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# libvmaf's C API as a client sees it: install the build into a prefix, build
# tests/capi/capi_test.c as C11 with -Wall -Werror through `pkg-config
# libvmaf` only (shared, then static), run its error-path checks, and score
# golden clips with it: its reports (all four formats, fps aside) must equal
# the CLI's byte for byte, and every score it reads back through the API
# (per picture and pooled, %.17g) must equal the CLI's --precision max JSON.
#   check.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
pcdir=$(dirname "$(find "$work/prefix" -name libvmaf.pc | head -n1)")
export PKG_CONFIG_PATH=$pcdir
test "$(pkg-config --modversion libvmaf)" = 3.2.0
soname=$(objdump -p "$pcdir"/../libvmaf.so | awk '/SONAME/ {print $2}')
test "$soname" = libvmaf.so.3 || { echo "capi: SONAME is '$soname', expected libvmaf.so.3"; exit 1; }
# Only libvmaf's functions are exported.
extra=$(nm -D --defined-only "$pcdir"/../libvmaf.so | awk '{print $3}' | grep -v '^vmaf_' || true)
test -z "$extra" || { echo "capi: libvmaf.so exports more than vmaf_*:"; echo "$extra" | head; exit 1; }
cc=${CC:-cc}
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Wextra -Werror -o "$work/capi_test" -I"$src/tests/capi" "$src/tests/capi/capi_test.c" \
  $(pkg-config --cflags libvmaf) $(pkg-config --libs libvmaf)
# The static archive, through the same pkg-config file (--static).
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Wextra -Werror -o "$work/capi_test_static" -I"$src/tests/capi" "$src/tests/capi/capi_test.c" \
  $(pkg-config --cflags libvmaf) $(pkg-config --static --libs libvmaf | sed 's/-lvmaf\b/-l:libvmaf.a/')
export LD_LIBRARY_PATH=$pcdir/..
if ldd "$work/capi_test" | grep -q 'libvmaf.so.3 => not found'; then echo "capi: libvmaf.so.3 not found"; exit 1; fi
ldd "$work/capi_test_static" | grep -q libvmaf && { echo "capi: the static build links libvmaf.so"; exit 1; }

# Every error path; at VMAF_LOG_LEVEL_NONE the library prints nothing.
for t in capi_test capi_test_static; do
  "$work/$t" errors "$src/model/vmaf_v0.6.1.json" 2> "$work/$t.stderr"
  test ! -s "$work/$t.stderr" || { echo "capi: $t printed at log level NONE:"; head "$work/$t.stderr"; exit 1; }
done
# The same paths at VMAF_LOG_LEVEL_ERROR: the library's error lines, each
# one line, are tests/capi/errors.expected (SRC: the source folder).
"$work/capi_test" errors "$src/model/vmaf_v0.6.1.json" log 2> "$work/errors.log" > /dev/null
if ! diff <(sed "s|$src|SRC|g" "$work/errors.log") "$src/tests/capi/errors.expected"; then
  echo "capi: the error lines differ from tests/capi/errors.expected (above)"; exit 1
fi

clips=$src/tests/data/golden/clips
"$work/capi_test" parallel "$clips/coffee320.ref.y4m" "$clips/coffee320__x264_crf30.dis.y4m"
vmaf=$work/prefix/bin/vmaf
fails=0
# scenario | ref | dis | CLI arguments
run() {
  local name=$1 scen=$2 ref=$3 dis=$4
  shift 4
  "$work/capi_test" score "$scen" "$clips/$ref" "$clips/$dis" "$work/$name"
  for f in xml json csv sub; do
    "$vmaf" -q -r "$clips/$ref" -d "$clips/$dis" "$@" --$f -o "$work/$name.cli.$f"
    if ! cmp -s <(grep -v 'fps' "$work/$name.$f") <(grep -v 'fps' "$work/$name.cli.$f"); then
      echo "capi: $name: the $f report differs from the CLI's"
      diff <(grep -v 'fps' "$work/$name.$f") <(grep -v 'fps' "$work/$name.cli.$f") | head -n 10
      fails=$((fails + 1))
    fi
  done
  "$vmaf" -q -r "$clips/$ref" -d "$clips/$dis" "$@" --json --precision max -o "$work/$name.max.json"
  python3 - "$work/$name.txt" "$work/$name.max.json" << 'EOF' || fails=$((fails + 1))
import json, sys
txt, ref = sys.argv[1], json.load(open(sys.argv[2]))
frames = {f["frameNum"]: f["metrics"] for f in ref["frames"]}
pooled = ref["pooled_metrics"]
n = bad = 0
for line in open(txt):
    name, where, value = line.split()
    want = frames[int(where)][name] if where.isdigit() else pooled[name][where]
    n += 1
    if format(want, ".17g") != value:
        bad += 1
        print(f"capi: {txt}: {name} {where}: API {value}, CLI {format(want, '.17g')}")
if n == 0 or bad:
    sys.exit(1)
print(f"capi: {txt.rsplit('/', 1)[-1]}: {n} scores equal the CLI's")
EOF
}
run default default chelsea352.ref.y4m chelsea352__gblur1.5.dis.y4m --feature psnr --feature float_ssim=enable_lcs=true
run threads threads mandel240p10.ref.y4m mandel240p10__x265_crf30.dis.y4m --feature psnr \
  --feature float_ssim=enable_lcs=true
run odd444 default camera351x287p444.ref.y4m camera351x287p444__bright12.dis.y4m --feature psnr \
  --feature float_ssim=enable_lcs=true
run two two coffee320.ref.y4m coffee320__x264_crf30.dis.y4m -m version=vmaf_v0.6.1 \
  -m version=vmaf_v0.6.1neg:name=neg:disable_clip:adm.adm_enhn_gain_limit=1.0 --feature psnr=enable_chroma=false \
  --subsample 2 --threads 2
run bootstrap bootstrap life176.ref.y4m life176__x264_crf30.dis.y4m -m version=vmaf_b_v0.6.3
# VMAFX_LIBVMAF_CPU picks the C API's float_adm division as --libvmaf-cpu does
# the CLI's; the variants' scores differ on this pair (tests/data/libvmaf_cpu).
for cpu in amd generic intel; do
  VMAFX_LIBVMAF_CPU=$cpu run "float_$cpu" float astro176.ref.y4m astro176__x264_crf45.dis.y4m \
    -m version=vmaf_float_v0.6.1 --libvmaf-cpu $cpu
done
test "$fails" = 0 || { echo "capi: $fails comparisons failed"; exit 1; }
echo "capi: the C API's reports and scores equal the CLI's"
