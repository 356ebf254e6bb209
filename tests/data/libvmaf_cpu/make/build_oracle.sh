#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds a libvmaf 3.2.0 oracle (Netflix/vmaf v3.2.0-13-gf85a8536) for the
# float_adm division variants, statically linked so that the `vmaf` binary can
# be carried to another machine.
#   build_oracle.sh SRC DST VARIANT
#     SRC      a libvmaf tree at commit f85a8536 (the folder holding libvmaf/
#              and model/), e.g. `git -C vmaf archive f85a8536 libvmaf model | tar -x -C SRC`
#     DST      where the copy and its build go (created; must not exist)
#     VARIANT  rcp      stock: adm_tools.c divides with rcp_s() (RCPSS + one
#                       Newton step) as every SSE2 build does; gives the
#                       'intel' or 'amd' answer of the processor it runs on
#              generic  DIVS(n, d) is n / d, the definition libvmaf's non-SSE2
#                       builds (aarch64, ppc64) compile: ADM_OPT_RECIP_DIVISION
#                       is left undefined (adm_options.h), and adm_tools.c's
#                       '#ifdef __SSE2__' around the reciprocal becomes
#                       '#if defined(__SSE2__) && defined(ADM_OPT_RECIP_DIVISION)'
#                       (on x86-64 __SSE2__ is always defined, and stock
#                       adm_tools.c then leaves DIVS undefined: it does not link)
# Both copies also print every score with "%.17g" (the change of
# tests/data/golden/make/setup_oracle.sh, checked there by sha256), so the JSON holds libvmaf's exact
# doubles. The build is otherwise the golden oracle's:
#   meson setup --buildtype release -Denable_float=true, gcc, -O3, no -march.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: build_oracle.sh SRC DST rcp|generic" >&2; exit 2; }
SRC=$1 DST=$2 VARIANT=$3
case "$VARIANT" in rcp|generic) ;; *) echo "build_oracle.sh: unknown variant '$VARIANT'" >&2; exit 2;; esac
[ ! -e "$DST" ] || { echo "build_oracle.sh: $DST exists" >&2; exit 2; }
mkdir -p "$DST"
(cd "$SRC" && tar --exclude=./libvmaf/build -cf - libvmaf model) | (cd "$DST" && tar xf -)
cd "$DST/libvmaf"
sed -i 's/%\.6f/%.17g/g; s/%\.16f/%.17g/g' src/output.c
grep -q '^#define ADM_OPT_RECIP_DIVISION$' src/feature/adm_options.h
if [ "$VARIANT" = generic ]; then
  sed -i 's|^#define ADM_OPT_RECIP_DIVISION$|/* undefined for the generic oracle */|' src/feature/adm_options.h
  ! grep -q 'define ADM_OPT_RECIP_DIVISION' src/feature/adm_options.h
  [ "$(grep -c '^#ifdef __SSE2__$' src/feature/adm_tools.c)" = 1 ]
  sed -i 's|^#ifdef __SSE2__$|#if defined(__SSE2__) \&\& defined(ADM_OPT_RECIP_DIVISION)|' src/feature/adm_tools.c
  grep -q '^#if defined(__SSE2__) && defined(ADM_OPT_RECIP_DIVISION)$' src/feature/adm_tools.c
fi
meson setup build --buildtype release -Denable_float=true -Ddefault_library=static \
  -Dc_link_args=-static -Dcpp_link_args=-static >/dev/null
ninja -C build tools/vmaf >/dev/null
build/tools/vmaf --version
