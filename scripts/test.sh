#!/usr/bin/env bash
# The second command of the README: install, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j "${VMAFX_JOBS:-$(nproc)}" "$@"
