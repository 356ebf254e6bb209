#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Writes the seed corpus of fuzz_libav (tests/fuzz/corpus/fuzz_libav/): tiny
# clips (64x64, 3 to 5 frames of ffmpeg's test pattern) encoded by Debian's
# ffmpeg CLI in each codec and container the FFmpeg input is tested with,
# plus a few broken ones (cut short, a damaged packet). The files are small
# and committed; run again only to change them (encoders differ by version,
# so the bytes do). found-* seeds are left alone.
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)/corpus/fuzz_libav"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src="-f lavfi -i testsrc2=size=64x64:rate=25 -frames:v"
enc() {  # name frames args...
  local name=$1 n=$2
  shift 2
  ffmpeg -nostdin -y -hide_banner -loglevel error $src "$n" "$@" "$out/$name"
}
enc h264.mp4 4 -c:v libx264 -preset ultrafast -crf 40 -bf 1 -pix_fmt yuv420p
enc h264-faststart.mp4 3 -c:v libx264 -preset ultrafast -crf 40 -movflags +faststart
enc h264-444.mkv 3 -c:v libx264 -preset ultrafast -crf 40 -pix_fmt yuv444p
enc h264-10bit-422.mkv 3 -c:v libx264 -preset ultrafast -crf 40 -pix_fmt yuv422p10le
enc hevc.mp4 3 -c:v libx265 -preset ultrafast -crf 40 -x265-params log-level=error -tag:v hvc1
enc hevc-10bit.mkv 3 -c:v libx265 -preset ultrafast -crf 40 -x265-params log-level=error -pix_fmt yuv420p10le
enc vp9.webm 4 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -crf 50 -b:v 0
enc vp9-444.ivf 3 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -crf 50 -b:v 0 -pix_fmt yuv444p
enc vp8.webm 3 -c:v libvpx -deadline realtime -cpu-used 8 -crf 50 -b:v 100k
enc av1.ivf 3 -c:v libaom-av1 -cpu-used 8 -crf 60 -usage realtime
enc av1.mkv 3 -c:v libaom-av1 -cpu-used 8 -crf 60 -usage realtime -pix_fmt yuv420p10le
enc mjpeg-full.mkv 2 -c:v mjpeg -pix_fmt yuvj420p -q:v 20
enc mpeg4.avi 3 -c:v mpeg4 -q:v 20
enc ffv1-gray.mkv 2 -c:v ffv1 -pix_fmt gray
enc rgb.mkv 2 -c:v libx264rgb -preset ultrafast -crf 40 -pix_fmt bgr24
enc image.jxl 1 -c:v libjxl
ffmpeg -nostdin -y -hide_banner -loglevel error -f lavfi -i sine=duration=0.05 -c:a aac "$out/audio-only.m4a"
# Broken files: cut short, a packet damaged.
head -c $(( $(stat -c %s "$out/h264.mp4") / 2 )) "$out/h264.mp4" > "$out/cut-h264.mp4"
head -c $(( $(stat -c %s "$out/vp9.webm") * 2 / 3 )) "$out/vp9.webm" > "$out/cut-vp9.webm"
head -c $(( $(stat -c %s "$out/av1.ivf") - 20 )) "$out/av1.ivf" > "$out/cut-av1.ivf"
cp "$out/hevc-10bit.mkv" "$out/damaged-hevc.mkv"
printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$out/damaged-hevc.mkv" bs=1 seek=$(( $(stat -c %s "$out/hevc-10bit.mkv") / 2 )) conv=notrunc status=none
ls -l "$out"
