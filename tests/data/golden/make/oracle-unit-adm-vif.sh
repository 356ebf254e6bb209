#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Recipe of the libvmaf values recorded in the unit tests on generated frames:
#   tests/unit/adm_test.cpp  kRecorded (integer "adm", 7 cases: adm00..adm06)
#   tests/unit/vif_test.cpp  kCases    (integer "vif" with debug=true, 12 cases)
#     LIBVMAF=<oracle tree>/libvmaf OUT=<folder> make/oracle-unit-adm-vif.sh
#   LIBVMAF  the libvmaf/ folder of the %.17g oracle made by make/setup_oracle.sh
#            (built: its build/src/libvmaf.so and headers are used)
#   OUT      where the frames, the driver and the JSON files go (created;
#            default scratch/oracle-unit)
#   CC       C compiler for make/oracle_frames.c (default cc)
# The frames are the tests' generators (make/synth_frames.py); the CLI cannot
# read them (luma only; 9 and 14 bit), so make/oracle_frames.c feeds them
# through libvmaf's API as YUV400P pictures, with the options of each case
# and cpumask 255 (libvmaf's plain C code, as the tests say), and libvmaf's
# JSON writer prints the result. Check: make/check_recorded.py unit "$OUT".
# Options are spelled with their full names: the tests use our aliases (egl,
# rdh, csf, nvd) in places, but libvmaf 3.2.0 matches dictionary keys against
# full option names only and silently ignores an alias (`--feature
# adm=egl=1.0` runs with the default gain limit and exits 0).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${LIBVMAF:?set LIBVMAF to the libvmaf/ folder of the oracle tree}"
LIBVMAF="$(cd "$LIBVMAF" && pwd)"
OUT="${OUT:-scratch/oracle-unit}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
"${CC:-cc}" -std=c11 -O2 -Wall -o "$OUT/oracle_frames" "$HERE/oracle_frames.c" \
  -I"$LIBVMAF/include" -I"$LIBVMAF/build/include" -L"$LIBVMAF/build/src" -lvmaf \
  -Wl,-rpath,"$LIBVMAF/build/src"

# adm NAME W H BPC SEED -- OPTIONS...
adm() {
  local name=$1 w=$2 h=$3 bpc=$4 seed=$5; shift 6
  /usr/bin/python3 "$HERE/synth_frames.py" adm "$w" "$h" "$bpc" "$seed" "$OUT/$name.ref" "$OUT/$name.dis"
  "$OUT/oracle_frames" "$w" "$h" "$bpc" 255 "$OUT/$name.ref" "$OUT/$name.dis" "$OUT/$name.json" adm "$@"
}
# vif NAME MODE W H BPC SEED -- OPTIONS...
vif() {
  local name=$1 mode=$2 w=$3 h=$4 bpc=$5 seed=$6; shift 7
  /usr/bin/python3 "$HERE/synth_frames.py" vif "$mode" "$w" "$h" "$bpc" "$seed" "$OUT/$name.ref" "$OUT/$name.dis"
  "$OUT/oracle_frames" "$w" "$h" "$bpc" 255 "$OUT/$name.ref" "$OUT/$name.dis" "$OUT/$name.json" vif "$@"
}

# tests/unit/adm_test.cpp, kRecorded, in order
adm adm00 67 45 8 7 --
adm adm01 67 45 8 7 -- adm_enhn_gain_limit=1.2 adm_ref_display_height=2160
adm adm02 67 45 8 7 -- adm_csf_mode=1
adm adm03 67 45 8 7 -- adm_dlm_weight=0.7 adm_enhn_gain_limit=1.0 adm_noise_weight=0.02 adm_norm_view_dist=1.5 adm_ref_display_height=2160 adm_min_val=0.5 adm_csf_mode=2
adm adm04 67 45 10 7 -- adm_csf_mode=3 adm_norm_view_dist=5
adm adm05 67 45 10 7 -- adm_skip_scale0=true
adm adm06 35 33 16 9 --
# tests/unit/vif_test.cpp, kCases, by name
vif MinimumSize8Bit 0 16 16 8 1 -- debug=true vif_enhn_gain_limit=100 vif_skip_scale0=false
vif OddSize10Bit 0 17 23 10 2 -- debug=true vif_enhn_gain_limit=100 vif_skip_scale0=false
vif OddSize444Like8Bit 0 35 31 8 9 -- debug=true vif_enhn_gain_limit=100 vif_skip_scale0=false
vif Enhanced8Bit 1 33 19 8 3 -- debug=true vif_enhn_gain_limit=100 vif_skip_scale0=false
vif Enhanced8BitGainLimit1 1 33 19 8 3 -- debug=true vif_enhn_gain_limit=1 vif_skip_scale0=false
vif Enhanced14BitGainLimit1_5 1 64 48 14 8 -- debug=true vif_enhn_gain_limit=1.5 vif_skip_scale0=false
vif Extreme16Bit 4 40 40 16 4 -- debug=true vif_enhn_gain_limit=100 vif_skip_scale0=false
vif Extreme16BitGainLimit1 4 40 40 16 4 -- debug=true vif_enhn_gain_limit=1 vif_skip_scale0=false
vif Identical12Bit 2 24 24 12 5 -- debug=true vif_enhn_gain_limit=100 vif_skip_scale0=false
vif Flat8Bit 3 16 16 8 6 -- debug=true vif_enhn_gain_limit=100 vif_skip_scale0=false
vif Flat16Bit 3 21 17 16 6 -- debug=true vif_enhn_gain_limit=100 vif_skip_scale0=false
vif SkipScale0_9Bit 0 35 31 9 7 -- debug=true vif_enhn_gain_limit=100 vif_skip_scale0=true
echo "oracle-unit-adm-vif.sh: 19 runs written to $OUT"
