#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A small static FFmpeg for the GPU machine (no Debian packages there, and
# Debian's libavcodec loads 128 shared libraries, too many to carry): Debian's
# FFmpeg 5.1 source, configured with only the demuxers, parsers and decoders
# of the streams users score (mp4/mkv/webm/ivf; H.264, HEVC, VP9, AV1) and
# NVDEC (--enable-nvdec through Debian's ffnvcodec headers, which load
# libcuda and libnvcuvid at run time: nothing CUDA is linked). One external
# codec library, libdav1d (shared: Debian has no static one), so that AV1 can
# be decoded on the CPU where NVDEC has no AV1 (Hopper). libswscale is built:
# renditions of another size are converted by it (docs/input.md).
#
#   scripts/ffmpeg-static.sh            # prints the install prefix
#
# Installs into ${VMAFX_FFMPEG_CACHE:-~/.cache/vmafx-ffmpeg}/static-<key>
# (key: the configure line and the source version), built once; a vmaf linked
# against it: scripts/device-pack-libav.sh. Needs the Debian source package
# that scripts/ffmpeg-check.sh fetches (fetched here the same way).
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${VMAFX_FFMPEG_CACHE:-$HOME/.cache/vmafx-ffmpeg}
need=()
dpkg -s libffmpeg-nvenc-dev > /dev/null 2>&1 || need+=(libffmpeg-nvenc-dev)
dpkg -s nasm > /dev/null 2>&1 || need+=(nasm)
dpkg -s dpkg-dev > /dev/null 2>&1 || need+=(dpkg-dev)
dpkg -s libdav1d-dev > /dev/null 2>&1 || need+=(libdav1d-dev)
if [ "${#need[@]}" -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get install -y --no-install-recommends "${need[@]}" > /dev/null
fi

flags=(
  --disable-everything --disable-autodetect --disable-doc --disable-debug --disable-network
  --disable-programs --disable-avdevice --disable-swresample --disable-postproc
  --disable-avfilter --enable-static --disable-shared --enable-pic --enable-pthreads
  --enable-ffnvcodec --enable-nvdec --enable-cuda
  --enable-demuxer=matroska,mov,ivf,h264,hevc,obu
  --enable-parser=h264,hevc,vp9,av1
  --enable-libdav1d --enable-decoder=h264,hevc,vp9,av1,libdav1d
  --enable-hwaccel=h264_nvdec,hevc_nvdec,vp9_nvdec,av1_nvdec
  --enable-bsf=vp9_superframe_split,av1_frame_split,h264_mp4toannexb,hevc_mp4toannexb
  --enable-protocol=file,pipe
)
src=$cache/src
if ! ls "$src"/ffmpeg_*.dsc > /dev/null 2>&1; then
  echo "ffmpeg-static: no Debian ffmpeg source in $src; run scripts/ffmpeg-check.sh once (it fetches it)" >&2
  exit 1
fi
version=$(awk '/^Version:/ {print $2; exit}' "$src"/ffmpeg_*.dsc)
key=$(echo "$version ${flags[*]}" | sha256sum | cut -c1-16)
prefix=$cache/static-$key
if [ ! -f "$prefix/lib/pkgconfig/libavcodec.pc" ]; then
  tree=$cache/static-tree
  rm -rf "$tree" && mkdir -p "$tree"
  dpkg-source --no-check -x "$(ls "$src"/ffmpeg_*.dsc | head -n1)" "$tree/ffmpeg" > /dev/null
  start=$(date +%s)
  (
    cd "$tree/ffmpeg"
    ./configure --prefix="$prefix" "${flags[@]}" > "$tree/configure.log" 2>&1 ||
      { tail -n 30 ffbuild/config.log >&2; exit 1; }
    make -j "${VMAFX_JOBS:-$(nproc)}" > "$tree/make.log" 2>&1 || { tail -n 30 "$tree/make.log" >&2; exit 1; }
    make install > "$tree/install.log" 2>&1
  )
  rm -rf "$tree"
  echo "ffmpeg-static: built FFmpeg $version in $(( $(date +%s) - start )) s" >&2
fi
echo "$prefix"
