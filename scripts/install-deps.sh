#!/usr/bin/env bash
# Installs what vmaf-exact needs to build and test on Debian 12 (bookworm) or
# newer. Safe to run again; uses sudo when not root.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
pkgs=(
  build-essential cmake ninja-build pkg-config ccache
  nlohmann-json3-dev libcli11-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
  python3 python3-dev python3-venv
  libhwy-dev
  libavformat-dev libavcodec-dev libavutil-dev ffmpeg
)
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
