#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Differential check against a libvmaf 3.2.0 `vmaf` built with %.17g output.

Generates synthetic clip pairs that are not in the golden set (sizes, formats,
bit depths, contents, distortions), runs our CLI and the given libvmaf binary
with the same arguments, and compares every per-frame and pooled value with ==.

  scripts/crosscheck_libvmaf.py OURS LIBVMAF [--quick] [--keep DIR]

LIBVMAF must print %.17g (the golden set's oracle build; see
tests/data/golden/README.md, "The precision change"). Nothing is downloaded.
Needs numpy.
"""
import argparse, json, os, subprocess, sys, tempfile
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("ours"); ap.add_argument("libvmaf")
ap.add_argument("--quick", action="store_true"); ap.add_argument("--keep")
ap.add_argument("--extra", default="", help="extra args for our CLI only, e.g. '--backend opencl'")
a = ap.parse_args()

SUB = {"420": (2, 2), "422": (2, 1), "444": (1, 1)}

def blur(x, r):
    """Separable box blur of radius r (float64), edges replicated."""
    if r <= 0:
        return x
    k = 2 * r + 1
    p = np.pad(x, r, mode="edge")
    c = np.cumsum(np.cumsum(p, 0), 1)
    c = np.pad(c, ((1, 0), (1, 0)))
    return (c[k:, k:] - c[:-k, k:] - c[k:, :-k] + c[:-k, :-k]) / (k * k)

def scene(rng, w, h, n, kind):
    """n frames of float luma in [0, 1] and matching chroma-size fields."""
    big = rng.random((h + 64, w + 64 + 4 * n))
    base = blur(big, 3) * 0.7 + blur(big, 0) * 0.3 if kind == "texture" else blur(big, 9)
    if kind == "edges":
        base = (blur(big, 6) > 0.5).astype(float)
    base = (base - base.min()) / (np.ptp(base) + 1e-9)
    return [base[32:32 + h, 32 + 3 * i: 32 + 3 * i + w] for i in range(n)]

def distort(rng, f, how, maxv):
    if how == "noise":
        return f + rng.normal(0, 0.03, f.shape)
    if how == "blur":
        return blur(f, 2)
    if how == "quant":
        return np.round(f * 12) / 12
    if how == "bright":
        return f + 0.05
    if how == "sharpen":
        return f + 1.5 * (f - blur(f, 2))
    return f

def to_int(f, bpc):
    maxv = (1 << bpc) - 1
    return np.clip(np.round(f * maxv), 0, maxv).astype(np.uint16 if bpc > 8 else np.uint8)

def write_clip(path, planes_per_frame, w, h, fmt, bpc, y4m):
    with open(path, "wb") as out:
        if y4m:
            tag = {8: "", 10: "p10", 12: "p12"}[bpc]
            cs = ("420jpeg" if fmt == "420" and bpc == 8 else fmt + tag)
            out.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C{cs}\n".encode())
        for planes in planes_per_frame:
            if y4m:
                out.write(b"FRAME\n")
            for p in planes:
                out.write(p.astype("<u2" if bpc > 8 else "u1").tobytes())

def make_pair(d, name, w, h, fmt, bpc, n, kind, how, seed, y4m=True):
    rng = np.random.default_rng(seed)
    sx, sy = SUB[fmt]
    cw, ch = (w + sx - 1) // sx, (h + sy - 1) // sy
    lum = scene(rng, w, h, n, kind)
    cu = scene(rng, cw, ch, n, "smooth")
    cv = scene(rng, cw, ch, n, "smooth")
    ref = [[to_int(lum[i], bpc), to_int(cu[i], bpc), to_int(cv[i], bpc)] for i in range(n)]
    dis = [[to_int(distort(rng, lum[i], how, 1), bpc), to_int(distort(rng, cu[i], how, 1), bpc),
            to_int(cv[i], bpc)] for i in range(n)]
    ext = "y4m" if y4m else "yuv"
    rp, dp = os.path.join(d, f"{name}.ref.{ext}"), os.path.join(d, f"{name}.dis.{ext}")
    write_clip(rp, ref, w, h, fmt, bpc, y4m)
    write_clip(dp, dis, w, h, fmt, bpc, y4m)
    raw = [] if y4m else ["-w", str(w), "-h", str(h), "-p", fmt, "-b", str(bpc)]
    return rp, dp, raw

PAIRS = [  # name, w, h, fmt, bpc, frames, content, distortion, y4m
    ("hd720_noise", 1280, 720, "420", 8, 3, "texture", "noise", True),
    ("p10_blur", 320, 180, "420", 10, 4, "smooth", "blur", True),
    ("p444_12_odd", 333, 211, "444", 12, 3, "texture", "sharpen", True),
    ("p422_10_quant", 256, 240, "422", 10, 3, "edges", "quant", True),
    ("edges8", 640, 360, "420", 8, 4, "edges", "quant", True),
    ("bright444", 300, 216, "444", 8, 3, "smooth", "bright", True),
    ("raw16", 256, 144, "420", 16, 3, "texture", "blur", False),
    ("raw422_8", 320, 240, "422", 8, 3, "texture", "noise", False),
    ("fhd_sharpen", 1920, 1080, "420", 8, 2, "texture", "sharpen", True),
]
RUNS = [
    ["--model", "version=vmaf_v0.6.1"],
    ["-n", "--feature", "psnr=enable_mse=true:enable_apsnr=true", "--feature", "float_ssim",
     "--feature", "float_ms_ssim", "--feature", "ciede", "--feature", "psnr_hvs", "--feature", "cambi",
     "--feature", "float_vif", "--feature", "float_adm", "--feature", "float_motion"],
    ["-n", "--feature", "float_ssim=enable_lcs=true", "--feature", "float_ms_ssim=enable_lcs=true"],
    ["--model", "version=vmaf_v0.6.1neg"],
    ["--model", "version=vmaf_b_v0.6.3"],
    ["--model", "version=vmaf_4k_v0.6.1", "--subsample", "2"],
    ["--model", "version=vmaf_v0.6.1", "--feature", "vif=vif_enhn_gain_limit=1.0",
     "--feature", "adm=adm_enhn_gain_limit=1.0:adm_csf_mode=0"],
]
if a.quick:
    PAIRS = PAIRS[:3]

def run(binary, rp, dp, raw, args, out, extra=()):
    cmd = [binary, "-r", rp, "-d", dp, *raw, "-q", "--json", "-o", out, *args, *extra]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, (r.stderr.strip().splitlines() or [""])[-1]

d = a.keep or tempfile.mkdtemp(prefix="vmafx_xcheck_")
os.makedirs(d, exist_ok=True)
total = same = 0
failed = []
for i, (name, w, h, fmt, bpc, n, kind, how, y4m) in enumerate(PAIRS):
    rp, dp, raw = make_pair(d, name, w, h, fmt, bpc, n, kind, how, 1000 + i, y4m)
    for args in RUNS:
        lo, mo = os.path.join(d, "lib.json"), os.path.join(d, "ours.json")
        for f in (lo, mo):
            if os.path.exists(f): os.remove(f)
        lrc, lerr = run(a.libvmaf, rp, dp, raw, args, lo)
        # Drop extractors libvmaf refuses for this input, for both.
        if lrc != 0:
            print(f"skip {name} {' '.join(args)}: libvmaf refused ({lerr})")
            continue
        mrc, merr = run(a.ours, rp, dp, raw, args + ["--precision", "max"], mo, a.extra.split())
        label = f"{name} {' '.join(args)}"
        if mrc != 0:
            failed.append(f"ERROR {label}: {merr}"); continue
        L, M = json.load(open(lo)), json.load(open(mo))
        bad = []
        if len(L["frames"]) != len(M["frames"]):
            bad.append("frame count")
        for fl, fm in zip(L["frames"], M["frames"]):
            if list(fl["metrics"]) != list(fm["metrics"]):
                bad.append(f"metric order frame {fl['frameNum']}")
            for k, v in fl["metrics"].items():
                total += 1
                if fm["metrics"].get(k, "MISSING") == v: same += 1
                else: bad.append(f"{k}@{fl['frameNum']}: {v!r} vs {fm['metrics'].get(k, 'MISSING')!r}")
        for k, pv in L["pooled_metrics"].items():
            for s, v in pv.items():
                total += 1
                if M["pooled_metrics"].get(k, {}).get(s, "MISSING") == v: same += 1
                else: bad.append(f"pooled {k}.{s}")
        if L.get("aggregate_metrics") != M.get("aggregate_metrics"):
            bad.append("aggregate")
        print(("ok   " if not bad else "DIFF ") + label + ("" if not bad else ": " + "; ".join(bad[:4])))
        if bad: failed.append(label)
print(f"{same}/{total} values equal; {len(failed)} runs differ or failed")
sys.exit(1 if failed or not total else 0)
