#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Recipe of the float option-variant values in
# tests/golden/float_features_golden_test.cpp (variants(), 22 entries, in
# order: fv00..fv21): float_vif, float_adm and float_motion with options the
# golden runs lack, on golden clips.
#   VMAF=<oracle> OUT=<folder> make/oracle-float-variants.sh
#     VMAF  the %.17g oracle built by make/setup_oracle.sh
#     OUT   where <pair>.fvNN.json go (created; default scratch/oracle-float-variants)
# Runs from the set root. The test's values were recorded from libvmaf's
# plain C code (a build with asm off), so each run has --cpumask 255 (no x86
# SIMD: the same code). Check: make/check_recorded.py float-variants "$OUT"
# (every name in libvmaf's order, every frame, ==).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${VMAF:?set VMAF to the oracle binary}"
VMAF="$(cd "$(dirname "$VMAF")" && pwd)/$(basename "$VMAF")"
OUT="${OUT:-scratch/oracle-float-variants}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
cd "$HERE/.."
"$VMAF" --version
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv00.json -n --feature float_vif=vif_kernelscale=0.5 --cpumask 255
"$VMAF" -r clips/mandel240p10.ref.y4m -d clips/mandel240p10__x265_crf30.dis.y4m -q --json -o "$OUT"/mandel240p10__x265_crf30.fv01.json -n --feature float_vif=vif_kernelscale=1.66667 --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv02.json -n --feature float_vif=vif_kernelscale=3.71134 --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv03.json -n --feature float_vif=vif_prescale=0.5:vif_prescale_method=bilinear --cpumask 255
"$VMAF" -r clips/mandel240p10.ref.y4m -d clips/mandel240p10__x265_crf30.dis.y4m -q --json -o "$OUT"/mandel240p10__x265_crf30.fv04.json -n --feature float_vif=vif_prescale=1.5:vif_prescale_method=bicubic --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv05.json -n --feature float_vif=vif_prescale=2:vif_prescale_method=lanczos4 --cpumask 255
"$VMAF" -r clips/gradnoise240p444p12.ref.y4m -d clips/gradnoise240p444p12__x265_crf28.dis.y4m -q --json -o "$OUT"/gradnoise240p444p12__x265_crf28.fv06.json -n --feature float_vif=vif_prescale=0.75 --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv07.json -n --feature float_vif=vif_skip_scale0=true:debug=true --cpumask 255
"$VMAF" -r clips/mandel240p10.ref.y4m -d clips/mandel240p10__x265_crf30.dis.y4m -q --json -o "$OUT"/mandel240p10__x265_crf30.fv08.json -n --feature float_vif=vif_sigma_nsq=0.5:vif_scale1_min_val=0.95:vif_enhn_gain_limit=1.5 --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv09.json -n --feature float_adm=adm_csf_mode=1:adm_csf_scale=2:adm_csf_diag_scale=0.5 --cpumask 255
"$VMAF" -r clips/mandel240p10.ref.y4m -d clips/mandel240p10__x265_crf30.dis.y4m -q --json -o "$OUT"/mandel240p10__x265_crf30.fv10.json -n --feature float_adm=adm_csf_mode=2:adm_norm_view_dist=6:adm_ref_display_height=2160 --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv11.json -n --feature float_adm=adm_p_norm=2:adm_bypass_cm=1 --cpumask 255
"$VMAF" -r clips/gradnoise240p444p12.ref.y4m -d clips/gradnoise240p444p12__x265_crf28.dis.y4m -q --json -o "$OUT"/gradnoise240p444p12__x265_crf28.fv12.json -n --feature float_adm=adm_p_norm=4.5:adm_enhn_gain_limit=1.2 --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv13.json -n --feature float_adm=adm_skip_scale0=true:adm_skip_aim_scale=2:debug=true --cpumask 255
"$VMAF" -r clips/mandel240p10.ref.y4m -d clips/mandel240p10__x265_crf30.dis.y4m -q --json -o "$OUT"/mandel240p10__x265_crf30.fv14.json -n --feature float_adm=adm_noise_weight=1:adm_adm3_apply_hm=true:adm_min_val=0.5 --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv15.json -n --feature float_adm=adm_f1s0=0.5:adm_f2s3=0:adm_dlm_weight=0.3:adm_csf_mode=7 --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv16.json -n --feature float_motion=motion_add_scale1=true:motion_filter_size=3 --cpumask 255
"$VMAF" -r clips/rocket240x177p422p10.ref.y4m -d clips/rocket240x177p422p10__x264_crf32.dis.y4m -q --json -o "$OUT"/rocket240x177p422p10__x264_crf32.fv17.json -n --feature float_motion=motion_add_uv=true --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv18.json -n --feature float_motion=motion_add_uv=true:motion_add_scale1=true --cpumask 255
"$VMAF" -r clips/gradnoise240p444p12.ref.y4m -d clips/gradnoise240p444p12__x265_crf28.dis.y4m -q --json -o "$OUT"/gradnoise240p444p12__x265_crf28.fv19.json -n --feature float_motion=motion_add_uv=true:motion_add_scale1=true:motion_filter_size=1 --cpumask 255
"$VMAF" -r clips/astro176.ref.y4m -d clips/astro176__unsharp.dis.y4m -q --json -o "$OUT"/astro176__unsharp.fv20.json -n --feature float_motion=motion_force_zero=true --cpumask 255
"$VMAF" -r clips/mandel240p10.ref.y4m -d clips/mandel240p10__x265_crf30.dis.y4m -q --json -o "$OUT"/mandel240p10__x265_crf30.fv21.json -n --feature float_motion=motion_fps_weight=2:motion_blend_factor=0.5:motion_blend_offset=5:motion_max_val=12:debug=false --cpumask 255
echo "oracle-float-variants.sh: 22 runs written to $OUT"
