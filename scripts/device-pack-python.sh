#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds, on this machine, the Python module for the GPU machine (its python3
# is 3.12, with numpy; nothing can be installed there) with the CUDA and
# OpenCL backends, and packs it into .device/python (the module, ~5 MB, and
# the pure-Python files), then .device.txz again. Run after
# scripts/device-pack.sh (whose .device/cuda it adds to), then
#   run `bash scripts/device-check.sh python` with carry [".device.txz"]
# Needs a Python 3.12 here (VMAFX_DEVICE_PYTHON, default python3.12 or
# pyenv's) for the module's ABI; nanobind comes from PyPI into .venv-device.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${VMAFX_DEVICE_PYTHON:-$(ls -d /root/.pyenv/versions/3.12*/bin/python3.12 2> /dev/null | tail -1)}
py=${py:-$(command -v python3.12)}
[ -n "$py" ] || { echo "device-pack-python: no Python 3.12 here (set VMAFX_DEVICE_PYTHON)"; exit 1; }
[ -x .venv-device/bin/python ] || "$py" -m venv .venv-device
.venv-device/bin/python -m pip install -q --disable-pip-version-check nanobind==3.1.0
cmake -S . -B build-pycuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DVMAFX_CUDA=ON -DVMAFX_OPENCL=ON \
  -DVMAFX_PYTHON=ON -DVMAFX_LIBAV=OFF -DVMAFX_BUILD_TESTS=OFF -DVMAFX_BUILD_BENCH=OFF -DVMAFX_BUILD_TOOLS=OFF \
  -DPython_EXECUTABLE="$PWD/.venv-device/bin/python" > /dev/null
ninja -C build-pycuda -j "${VMAFX_JOBS:-2}" _core
rm -rf .device/python && mkdir -p .device/python/vmaf_exact
cp build-pycuda/python/vmaf_exact/_core*.so .device/python/vmaf_exact/
cp python/vmaf_exact/*.py python/vmaf_exact/*.pyi .device/python/vmaf_exact/
strip -x .device/python/vmaf_exact/_core*.so
du -sh .device/python
tar -cJf .device.txz .device
du -sh .device.txz
