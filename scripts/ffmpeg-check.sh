#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# FFmpeg as a real libvmaf client: builds Debian's FFmpeg 5.1 (apt-get source
# ffmpeg) with only what `ffmpeg -i dis.y4m -i ref.y4m -lavfi libvmaf=...`
# needs, against vmaf-exact's installed libvmaf.pc / libvmaf.so.3, and checks
# that every per-frame and pooled score in its libvmaf logs equals the vmaf
# CLI's report (the same text, fps aside): the default model, two models
# joined with |, feature options, n_subsample, all four log formats.
#
#   scripts/ffmpeg-check.sh [BUILD_DIR]     (default: build)
#
# The ffmpeg binary links libvmaf.so.3 dynamically, so it is rebuilt only when
# our installed headers or libvmaf.pc's version change: it is cached in
# ${VMAFX_FFMPEG_CACHE:-~/.cache/vmafx-ffmpeg}/<key>/ffmpeg and every run uses
# the current library through LD_LIBRARY_PATH (the ABI, not only the API).
# 8-bit clips only: FFmpeg 5.1's filter copies w bytes per row, not w samples,
# so above 8 bits it hands libvmaf (any libvmaf) half-filled pictures.
# Exit 77 (a skip) when the Debian source package cannot be fetched. Its
# source entries are the machine's own apt sources (the enabled "deb" entries
# of /etc/apt/sources.list and /etc/apt/sources.list.d), turned into deb-src
# entries in a private sources list: no archive address is named here.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$(realpath "${1:-build}")
cache=${VMAFX_FFMPEG_CACHE:-$HOME/.cache/vmafx-ffmpeg}
work=$build/ffmpeg-check
rm -rf "$work" && mkdir -p "$work" "$cache"

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
pc=$(find "$work/prefix" -name libvmaf.pc | head -n1)
test -n "$pc" || { echo "ffmpeg-check: no libvmaf.pc in the install (VMAFX_CAPI off?)"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")

# What a configured FFmpeg depends on: our headers, the pc file's version and
# flags, and the configure line below.
configure_flags=(
  --disable-everything --disable-autodetect --disable-doc --disable-debug --disable-network
  --disable-x86asm --disable-programs --enable-ffmpeg --disable-ffplay --disable-ffprobe
  --enable-pthreads --enable-libvmaf --enable-filter=libvmaf,buffer,buffersink,format,null,scale,setpts,trim
  --enable-demuxer=yuv4mpegpipe,rawvideo,matroska --enable-decoder=rawvideo,wrapped_avframe
  --enable-encoder=wrapped_avframe,rawvideo --enable-muxer=null,rawvideo --enable-protocol=file,pipe
  --enable-swscale
)
key=$( { cat "$work/prefix/include/libvmaf/"*.h; grep -E '^(Version|Cflags)' "$pc";
         echo "${configure_flags[*]}"; } | sha256sum | cut -c1-16)
ffmpeg=$cache/$key/ffmpeg

if [ ! -x "$ffmpeg" ]; then
  # The source package: a deb-src entry for this command only (a private
  # sources list and package lists; the system's apt setup is untouched).
  src=$cache/src
  if ! ls "$src"/ffmpeg_*.dsc > /dev/null 2>&1; then
    rm -rf "$src" && mkdir -p "$src/lists/partial" "$src/cache/archives/partial"
    # deb -> deb-src, one-line (.list) and deb822 (.sources) formats alike.
    mkdir -p "$src/parts"
    : > "$src/sources.list"
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      if [ -f "$f" ]; then sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >> "$src/sources.list"; fi
    done
    for f in /etc/apt/sources.list.d/*.sources; do
      if [ -f "$f" ]; then sed 's/^Types:.*/Types: deb-src/' "$f" > "$src/parts/$(basename "$f")"; fi
    done
    apt_opts=(-o "Dir::Etc::SourceList=$src/sources.list" -o "Dir::Etc::SourceParts=$src/parts"
              -o "Dir::State::Lists=$src/lists" -o "Dir::Cache=$src/cache" -o Debug::NoLocking=1)
    if ! (apt-get "${apt_opts[@]}" update > "$src/update.log" 2>&1 &&
          cd "$src" && apt-get "${apt_opts[@]}" source --download-only ffmpeg > "$src/source.log" 2>&1); then
      echo "ffmpeg-check: skipped: cannot fetch Debian's ffmpeg source package (see $src/*.log)"
      exit 77
    fi
  fi
  rm -rf "$cache/tree" && mkdir -p "$cache/tree"
  dpkg-source --no-check -x "$(ls "$src"/ffmpeg_*.dsc | head -n1)" "$cache/tree/ffmpeg" > /dev/null
  start=$(date +%s)
  (
    cd "$cache/tree/ffmpeg"
    PKG_CONFIG_PATH=$(dirname "$pc") ./configure "${configure_flags[@]}" > "$work/configure.log" 2>&1 ||
      { tail -n 30 ffbuild/config.log; exit 1; }
    make -j "${VMAFX_JOBS:-$(nproc)}" ffmpeg > "$work/make.log" 2>&1 || { tail -n 30 "$work/make.log"; exit 1; }
  )
  mkdir -p "$cache/$key"
  cp "$cache/tree/ffmpeg/ffmpeg" "$ffmpeg.tmp" && mv "$ffmpeg.tmp" "$ffmpeg"
  rm -rf "$cache/tree"
  echo "ffmpeg-check: built FFmpeg $(cat "$src"/ffmpeg_*.dsc | awk '/^Version:/ {print $2; exit}') in $(( $(date +%s) - start )) s"
fi

export LD_LIBRARY_PATH=$libdir
ldd "$ffmpeg" | grep "libvmaf.so.3 => $libdir" > /dev/null ||
  { echo "ffmpeg-check: $ffmpeg does not load $libdir/libvmaf.so.3"; ldd "$ffmpeg" | grep vmaf; exit 1; }

clips=$root/tests/data/golden/clips
vmaf=$work/prefix/bin/vmaf
fails=0 runs=0
# check NAME REF DIS FORMAT LIBVMAF_OPTIONS -- CLI_ARGS...
# (in LIBVMAF_OPTIONS, a ':' inside a quoted value is written '\:': the graph
# parser removes the quotes, the filter's option parser the backslash)
check() {
  local name=$1 ref=$2 dis=$3 fmt=$4 opts=$5
  shift 6
  runs=$((runs + 1))
  # Twice: libvmaf's own number format, and every double in full (%.17g).
  for prec in default max; do
    local out=$work/$name.$prec
    VMAFX_LIBVMAF_PRECISION=${prec/default/} "$ffmpeg" -nostdin -hide_banner -loglevel error \
      -i "$clips/$dis" -i "$clips/$ref" \
      -lavfi "libvmaf=log_fmt=$fmt:log_path=$out.$fmt:n_threads=4${opts:+:$opts}" -f null - 2> "$out.ffmpeg.log" ||
      { echo "ffmpeg-check: $name: ffmpeg failed"; cat "$out.ffmpeg.log"; fails=$((fails + 1)); return; }
    local cli_prec=()
    [ "$prec" = max ] && cli_prec=(--precision max)
    "$vmaf" -q -r "$clips/$ref" -d "$clips/$dis" "$@" "${cli_prec[@]}" --"$fmt" -o "$out.cli.$fmt"
    if ! cmp -s <(grep -v fps "$out.$fmt") <(grep -v fps "$out.cli.$fmt"); then
      echo "ffmpeg-check: $name: FFmpeg's $fmt log ($prec precision) differs from the CLI's report"
      diff <(grep -v fps "$out.$fmt") <(grep -v fps "$out.cli.$fmt") | head -n 10
      fails=$((fails + 1))
      return
    fi
  done
  echo "ffmpeg-check: $name: $(grep -c . "$out.$fmt") lines equal the CLI's, at libvmaf's and at full precision"
}
check default chelsea352.ref.y4m chelsea352__gblur1.5.dis.y4m json "" --
check two_models coffee320.ref.y4m coffee320__x264_crf30.dis.y4m json \
  "model='version=vmaf_v0.6.1\\:name=vmaf|version=vmaf_v0.6.1neg\\:name=neg\\:disable_clip=true'" -- \
  -m version=vmaf_v0.6.1 -m version=vmaf_v0.6.1neg:name=neg:disable_clip
check features coffee320.ref.y4m coffee320__scale_half.dis.y4m xml \
  "feature='name=psnr|name=float_ssim\\:enable_lcs=true|name=cambi\\:full_ref=true'" -- \
  --feature psnr --feature float_ssim=enable_lcs=true --feature cambi=full_ref=true
check overload astro176.ref.y4m astro176__x265_crf38.dis.y4m csv \
  "model='version=vmaf_v0.6.1\\:adm.adm_enhn_gain_limit=1.0\\:motion.motion_force_zero=true'" -- \
  -m version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.0:motion.motion_force_zero=true
check subsample life176.ref.y4m life176__x264_crf30.dis.y4m sub "n_subsample=3:feature=name=psnr" -- \
  --subsample 3 --feature psnr
check subsample_json astro176.ref.y4m astro176__aom_crf58.dis.y4m json \
  "n_subsample=2:model='version=vmaf_v0.6.1|version=vmaf_4k_v0.6.1\\:name=vmaf_4k'" -- \
  --subsample 2 -m version=vmaf_v0.6.1 -m version=vmaf_4k_v0.6.1:name=vmaf_4k
check odd444 camera351x287p444.ref.y4m camera351x287p444__bright12.dis.y4m json "" --
check yuv444 testsrc2_240p444.ref.y4m testsrc2_240p444__vp9_crf45.dis.y4m xml "feature=name=psnr" -- --feature psnr
test "$fails" = 0 || { echo "ffmpeg-check: $fails of $runs runs differ"; exit 1; }
echo "ffmpeg-check: FFmpeg $("$ffmpeg" -version | awk 'NR==1 {print $3}') with vmaf-exact's libvmaf.so.3: $runs runs equal the CLI's reports"
