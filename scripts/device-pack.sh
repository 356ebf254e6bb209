#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds, on this machine, everything scripts/device-check.sh runs on the GPU
# machine (which has no compiler or -dev packages), and copies it into the
# ignored folder .device/ to be carried there:
#   scripts/device-pack.sh    # then: run `bash scripts/device-check.sh` with carry [".device.txz"]
# The binaries are also packed into .device.txz (xz, ~6 MB instead of ~40 MB:
# the carry limit is 64 MiB with the tree); device-check.sh unpacks it.
# One build serves both sections: CUDA and OpenCL are both on. The test
# binaries have their build paths compiled in; device-check.sh recreates them.
set -euo pipefail
cd "$(dirname "$0")/.."
# Without FFmpeg's libraries, libswscale included (the GPU machine lacks them;
# scripts/device-pack-libav.sh carries a static FFmpeg).
cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DVMAFX_CUDA=ON -DVMAFX_OPENCL=ON -DVMAFX_LIBAV=OFF \
  -DVMAFX_SWSCALE=OFF > /dev/null
ninja -C build-cuda -j "${VMAFX_JOBS:-2}" vmaf vmafx_checkfeat vmafx_golden_tests vmafx_backend_tests \
  vmafx_unit_tests vmafx_exact_cuda_tests vmafx_bench_cuda_bench vmafx_bench_opencl_bench vmafx_mkclip
ninja -C build-cuda -j "${VMAFX_JOBS:-2}" vmafx_capi_cuda_client libvmaf  # the C API (device-check.sh capi)
rm -rf .device && mkdir -p .device/cuda/lib .device/opencl
b=build-cuda
cp $b/tools/vmaf $b/tests/vmafx_checkfeat $b/tests/vmafx_golden_tests $b/tests/vmafx_backend_tests \
   $b/tests/vmafx_exact_cuda_tests $b/bench/vmafx_bench_cuda_bench .device/cuda/
cp $b/tests/vmafx_unit_tests $b/bench/vmafx_bench_opencl_bench .device/opencl/
cp $b/tools/vmafx_mkclip .device/cuda/
cp $b/tests/vmafx_capi_cuda_client .device/cuda/ && cp -L $b/src/libvmaf.so.3 .device/cuda/lib/
# libvmaf 3.2.0's stock CLIs, for the side-by-side end-to-end bench (not part
# of the project; they travel only in the ignored .device folder).
# LIBVMAF_DIR: a folder holding libvmaf's vmaf-cpu and vmaf-cuda (not part of
# the repo; the bench rows print "-" without them).
LIBVMAF_DIR=${LIBVMAF_DIR:-}
if [ -n "$LIBVMAF_DIR" ] && [ -x "$LIBVMAF_DIR/vmaf-cpu" ]; then
  mkdir -p .device/libvmaf && cp "$LIBVMAF_DIR"/vmaf-cpu "$LIBVMAF_DIR"/vmaf-cuda .device/libvmaf/
fi
# Shared libraries the GPU machine may lack: Debian's Google Benchmark (shared
# only) and the OpenCL ICD loader.
cp -L /usr/lib/x86_64-linux-gnu/libbenchmark.so.1debian .device/cuda/lib/
cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 .device/cuda/lib/
# Debian's Highway is shared-only too (the CPU SIMD of src/feature/vif_simd.cpp)
if [ -e /usr/lib/x86_64-linux-gnu/libhwy.so.1 ]; then cp -L /usr/lib/x86_64-linux-gnu/libhwy.so.1 .device/cuda/lib/; fi
strip .device/cuda/* .device/opencl/* 2>/dev/null || true
du -sh .device
tar -cJf .device.txz .device
du -sh .device.txz
