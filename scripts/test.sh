#!/usr/bin/env bash
# The second command of the README: install, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The Python module and its tests (tests/python, run by ctest) need .venv
# (PyPI: nanobind, numpy, pytest, ray); VMAFX_NO_PYTHON=1 leaves them out.
py=()
if [ "${VMAFX_NO_PYTHON:-0}" != 1 ]; then
  scripts/python-env.sh
  py=(-DVMAFX_PYTHON=ON "-DPython_EXECUTABLE=$PWD/.venv/bin/python")
fi
scripts/build.sh "${py[@]}"
cd build
ctest --output-on-failure -j "${VMAFX_JOBS:-$(nproc)}" "$@"
