#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds vmaf-exact in ./build (Release). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${VMAFX_JOBS:-$(nproc)}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$jobs"
