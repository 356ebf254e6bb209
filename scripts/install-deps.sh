#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what vmaf-exact needs to build and test on Debian 12 (bookworm) or
# newer. Safe to run again; uses sudo when not root.
#   --sanitize  also clang, its sanitizer and libFuzzer runtimes, and
#               llvm-symbolizer (scripts/sanitize.sh, scripts/fuzz.sh)
set -euo pipefail
sanitize=0
[ "${1:-}" = "--sanitize" ] && sanitize=1
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
pkgs=(
  build-essential cmake ninja-build pkg-config ccache
  nlohmann-json3-dev libcli11-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
  python3 python3-dev python3-venv
  libhwy-dev
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev ffmpeg
  chromium
)
[ "$sanitize" -eq 1 ] && pkgs+=(clang llvm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ "$sanitize" -eq 1 ]; then
  # libFuzzer and the sanitizer runtimes of the default clang (14 on Debian 12).
  major="$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n1)"
  rt="libclang-rt-${major}-dev"
  if ! dpkg-query -W -f='${Status}' "$rt" 2>/dev/null | grep -q "install ok installed"; then
    echo "installing: $rt"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get install -y -qq --no-install-recommends "$rt"
  fi
fi
