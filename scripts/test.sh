#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The second command of the README: install, build, and run the whole test
# suite; then the error-message audit: every error message must be triggered
# by a test that checks its text (scripts/error-audit.py, whose header has the
# rules; the run is traced by tests/audit/error_trace.cpp). Extra arguments go
# to ctest (a partial run skips the audit). Offline (no PyPI), run
# VMAFX_NO_PYTHON=1 scripts/test.sh: everything but the Python module and its
# tests (the audit then leaves out the messages of python/).
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
trace="$PWD/build/error-trace.log"
preload="$PWD/build/tests/audit/liberror_trace.so"
rm -f "$trace"
(
  cd build
  if [ -f "$preload" ]; then
    LD_PRELOAD="$preload" VMAFX_ERROR_LOG="$trace" ctest --output-on-failure -j "${VMAFX_JOBS:-$(nproc)}" "$@"
  else
    ctest --output-on-failure -j "${VMAFX_JOBS:-$(nproc)}" "$@"
  fi
)
if [ "$#" -eq 0 ] && [ -f "$preload" ]; then
  audit=(--log "$trace" --check)
  [ "${VMAFX_NO_PYTHON:-0}" != 1 ] || audit+=(--no-python)
  python3 scripts/error-audit.py "${audit[@]}"
fi
