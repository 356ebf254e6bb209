#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Makes .venv (git-ignored, kept between runs) with what the Python module
# needs to build in the CMake build and to run tests/python: the PyPI
# packages of python/requirements-dev.txt (nanobind, scikit-build-core,
# numpy, pytest, ray). Quick when nothing changed (a stamp file).
set -euo pipefail
cd "$(dirname "$0")/.."
req=python/requirements-dev.txt
# Debian's python3 (python3-venv, python3-dev) where there is one.
py=${VMAFX_PYTHON3:-$(if [ -x /usr/bin/python3 ]; then echo /usr/bin/python3; else command -v python3; fi)}
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import sys' 2> /dev/null; then
  rm -rf .venv
  "$py" -m venv .venv
fi
if ! cmp -s "$req" .venv/.vmafx-requirements; then
  t0=$(date +%s)
  .venv/bin/python -m pip install -q --disable-pip-version-check -r "$req" || {
    echo "python-env: cannot install $req (offline?); VMAFX_NO_PYTHON=1 scripts/test.sh builds and tests all but the Python module" >&2
    exit 1
  }
  cp "$req" .venv/.vmafx-requirements
  echo "python-env: installed $req in $(($(date +%s) - t0)) s"
fi
