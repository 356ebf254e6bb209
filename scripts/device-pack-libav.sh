#!/usr/bin/env bash
# Packs, on this machine, what `scripts/device-check.sh libav` runs on the GPU
# machine (no Debian packages, no ffmpeg there): a vmaf built with CUDA and
# FFmpeg's libraries, the shared libraries it loads (its ldd closure, minus
# the C and C++ runtimes every machine has), and 4K test streams encoded here.
#   scripts/device-pack-libav.sh      # then: run `bash scripts/device-check.sh libav`
#                                     # with carry [".device-libav.txz"]
# Debian's libavcodec pulls in every codec library it was built with: the
# archive is about 50 MB (the carry limit is 64 MiB with the tree), so it
# travels alone, not with .device.txz. VMAFX_LIBAV_FRAMES (default 24) sets the
# clips' length; VMAFX_LIBAV_NO_BUILD=1 packs an existing build (VMAFX_LIBAV_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${VMAFX_LIBAV_BUILD_DIR:-build-cuda-libav}
D=.device-libav
if [ -z "${VMAFX_LIBAV_NO_BUILD:-}" ]; then
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DVMAFX_CUDA=ON -DVMAFX_OPENCL=OFF -DVMAFX_LIBAV=ON \
    -DVMAFX_BUILD_TESTS=OFF -DVMAFX_BUILD_BENCH=OFF > /dev/null
  ninja -C $B -j "${VMAFX_JOBS:-2}" vmaf
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
# (dis) encode of ffmpeg's moving test pattern. NVDEC and the CPU decoders
# must give the same scores for each pair.
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
# The CPU decode's scores, from here, to compare with the device's.
for c in hevc8 hevc10 av1-8 av1-10; do
  r=$(ls $D/clips/$c-ref.*) d=$(ls $D/clips/$c-dis.*)
  $B/tools/vmaf -r "$r" -d "$d" --backend cpu --json --precision max -q -o "$D/clips/$c.cpu-here.json"
done
du -sh $D/lib $D/clips
XZ_OPT=-9e tar -cJf .device-libav.txz $D
du -sh .device-libav.txz
