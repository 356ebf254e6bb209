#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Packs, on this machine, what `scripts/device-check.sh libav` runs on the GPU
# machine (no Debian packages, no ffmpeg there): a vmaf built with CUDA and a
# small static FFmpeg with NVDEC (scripts/ffmpeg-static.sh; nothing but the C
# runtime is loaded from the machine, libcuda and libnvcuvid at run time), and
# 4K HEVC and AV1 test streams encoded here with their CPU-decoded scores.
#   scripts/device-pack-libav.sh      # then: run `bash scripts/device-check.sh libav`
#                                     # with carry [".device-libav.txz"]
# VMAFX_LIBAV_FRAMES (default 24) sets the clips' length; VMAFX_LIBAV_NO_BUILD=1
# packs an existing build (VMAFX_LIBAV_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${VMAFX_LIBAV_BUILD_DIR:-build-cuda-libav-static}
D=.device-libav
if [ -z "${VMAFX_LIBAV_NO_BUILD:-}" ]; then
  ff=$(scripts/ffmpeg-static.sh)
  PKG_CONFIG_PATH=$ff/lib/pkgconfig cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DVMAFX_CUDA=ON \
    -DVMAFX_OPENCL=OFF -DVMAFX_LIBAV=ON -DVMAFX_CAPI=OFF -DVMAFX_PYTHON=OFF -DVMAFX_BUILD_TESTS=OFF \
    -DVMAFX_BUILD_BENCH=OFF > /dev/null
  ninja -C $B -j "${VMAFX_JOBS:-2}" vmaf
fi
if ldd $B/tools/vmaf | grep -q 'libav'; then
  echo "device-pack-libav: $B/tools/vmaf loads a shared libav* (configure with the static FFmpeg)" >&2
  exit 1
fi
rm -rf $D && mkdir -p $D/lib $D/clips
cp $B/tools/vmaf $D/ && strip $D/vmaf
ldd $D/vmaf | awk '/=> \//{print $3}' | sort -u | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so* | libm.so* | libpthread.so* | libdl.so* | librt.so* | ld-linux* | libstdc++.so* | libgcc_s.so*) ;;
    *) cp -L "$lib" $D/lib/ ;;
  esac
done
# 4K streams: for HEVC and AV1 at 8 and 10 bits, a better (ref) and a worse
# (dis) encode of ffmpeg's moving test pattern, in containers (for the
# equality checks) and as raw elementary streams (.hevc, .obu), which the
# device check concatenates into long clips for the rates.
N=${VMAFX_LIBAV_FRAMES:-24}
src="-f lavfi -i testsrc2=size=3840x2160:rate=30 -frames:v $N"
enc() {  # name pix_fmt codec-args
  ffmpeg -nostdin -y -hide_banner -loglevel error $src -pix_fmt "$2" ${3} "$D/clips/$1" 2> /dev/null
}
x265="-c:v libx265 -preset ultrafast -x265-params log-level=error"
svt="-c:v libsvtav1 -preset 12"
enc hevc8-ref.mkv yuv420p "$x265 -crf 28"
enc hevc8-dis.mp4 yuv420p "$x265 -crf 38"
enc hevc10-ref.mkv yuv420p10le "$x265 -crf 28"
enc hevc10-dis.mp4 yuv420p10le "$x265 -crf 38"
enc av1-8-ref.mkv yuv420p "$svt -crf 30"
enc av1-8-dis.ivf yuv420p "$svt -crf 50"
enc av1-10-ref.mkv yuv420p10le "$svt -crf 30"
enc av1-10-dis.webm yuv420p10le "$svt -crf 50"
# The elementary streams: the containers' packets, copied.
for c in hevc8 hevc10; do
  for s in ref dis; do
    ffmpeg -nostdin -y -hide_banner -loglevel error -i "$(ls $D/clips/$c-$s.*)" -c copy -bsf:v hevc_mp4toannexb \
      -f hevc "$D/clips/raw-$c-$s.hevc"
  done
done
for c in av1-8 av1-10; do
  for s in ref dis; do
    ffmpeg -nostdin -y -hide_banner -loglevel error -i "$(ls $D/clips/$c-$s.*)" -c copy -f obu \
      "$D/clips/raw-$c-$s.obu"
  done
done
# Ladders (issue 20), as raw HEVC streams (concatenated on the device into
# long clips for the rates): a 4K 8-bit source and its 2160p, 1080p, 720p and
# 540p encodes (scaled down by ffmpeg, bicubic); and a 640x360 10-bit source
# with renditions at 480x270 (HEVC) and 426x240 (VP9 profile 2: odd chroma
# widths), in containers.
lsrc="-f lavfi -i testsrc2=size=3840x2160:rate=30,noise=alls=6:allf=t -frames:v $N"
ffmpeg -nostdin -y -hide_banner -loglevel error $lsrc -pix_fmt yuv420p $x265 -crf 18 -f hevc "$D/clips/ladder-src.hevc"
for h in 2160 1080 720 540; do
  ffmpeg -nostdin -y -hide_banner -loglevel error -i "$D/clips/ladder-src.hevc" -vf "scale=-2:$h:flags=bicubic" \
    -pix_fmt yuv420p $x265 -crf 30 -f hevc "$D/clips/ladder-$h.hevc"
done
ssrc="-f lavfi -i testsrc2=size=640x360:rate=30,noise=alls=10:allf=t -frames:v $N"
ffmpeg -nostdin -y -hide_banner -loglevel error $ssrc -pix_fmt yuv420p10le -strict -1 "$D/clips/small10-src.y4m"
ffmpeg -nostdin -y -hide_banner -loglevel error -i "$D/clips/small10-src.y4m" -vf scale=480:270 -pix_fmt yuv420p10le \
  $x265 -crf 30 "$D/clips/small10-480.mkv"
ffmpeg -nostdin -y -hide_banner -loglevel error -i "$D/clips/small10-src.y4m" -vf scale=426:240 -pix_fmt yuv420p10le \
  -c:v libvpx-vp9 -profile:v 2 -deadline realtime -cpu-used 8 -b:v 400k "$D/clips/small10-426.webm"
# The CPU decode's scores, from here (this machine's Debian FFmpeg, with
# libdav1d for AV1: the static FFmpeg decodes AV1 on NVDEC only).
vmaf_here=${VMAFX_LIBAV_CPU_VMAF:-build/tools/vmaf}
for c in hevc8 hevc10 av1-8 av1-10; do
  r=$(ls $D/clips/$c-ref.*) d=$(ls $D/clips/$c-dis.*)
  $vmaf_here -r "$r" -d "$d" --backend cpu --json --precision max -q -o "$D/clips/$c.cpu-here.json"
  $vmaf_here -r "$D/clips/raw-$c-ref."* -d "$D/clips/raw-$c-dis."* --backend cpu --json --precision max -q \
    -o "$D/clips/raw-$c.cpu-here.json"
done
mkdir -p "$D/clips/ladder.cpu-here" "$D/clips/small10.cpu-here"
$vmaf_here -r "$D/clips/ladder-src.hevc" -d "$D/clips/ladder-2160.hevc" -d "$D/clips/ladder-1080.hevc" \
  -d "$D/clips/ladder-720.hevc" -d "$D/clips/ladder-540.hevc" --backend cpu --json --precision max -q \
  -o "$D/clips/ladder.cpu-here" > /dev/null
$vmaf_here -r "$D/clips/small10-src.y4m" -d "$D/clips/small10-480.mkv" -d "$D/clips/small10-426.webm" \
  --backend cpu --json --precision max -q -o "$D/clips/small10.cpu-here" > /dev/null
du -sh $D/lib $D/clips
XZ_OPT=-9e tar -cJf .device-libav.txz $D
du -sh .device-libav.txz
