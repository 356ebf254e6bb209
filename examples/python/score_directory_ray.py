#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Scores a directory of encodes against their sources on a Ray cluster.

    python3 score_directory_ray.py SOURCES/ ENCODES/ results.csv [--address auto] [--gpus-per-actor 1]
                                   [--split-frames 600] [--model vmaf_v0.6.1] [--reports DIR]

An encode is paired with the source whose file name (without extension) its
own name starts with: ENCODES/chelsea__x264_crf30.y4m is scored against
SOURCES/chelsea.y4m. Results are written as each pair finishes (one CSV row
per encode with the pooled scores); --reports also writes the CLI's JSON
report of every encode. The paths must be readable on every Ray node.
"""
import argparse
import csv
import os
import sys
import time
from pathlib import Path

import ray

import vmaf_exact.ray as vr

CLIP_EXTS = (".y4m", ".yuv")


def pair_up(sources: Path, encodes: Path):
    srcs = sorted((p for p in sources.iterdir() if p.suffix in CLIP_EXTS), key=lambda p: -len(p.stem))
    pairs = []
    for enc in sorted(p for p in encodes.iterdir() if p.suffix in CLIP_EXTS):
        src = next((s for s in srcs if enc.stem.startswith(s.stem) and enc != s), None)
        if src is None:
            print(f"skipping {enc}: no source whose name it starts with", file=sys.stderr)
            continue
        pairs.append((src, enc))
    return pairs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sources", type=Path)
    ap.add_argument("encodes", type=Path)
    ap.add_argument("output", type=Path, help="CSV of pooled scores, one row per encode")
    ap.add_argument("--address", default=None, help="Ray cluster address (default: start a local one)")
    ap.add_argument("--gpus-per-actor", type=float, default=0, help="1: one CUDA scorer per GPU")
    ap.add_argument("--cpus-per-actor", type=float, default=4)
    ap.add_argument("--split-frames", type=int, default=0, help="score clips longer than N frames in ranges")
    ap.add_argument("--model", action="append", default=None)
    ap.add_argument("--feature", action="append", default=[])
    ap.add_argument("--reports", type=Path, default=None, help="folder for each encode's JSON report")
    a = ap.parse_args()

    pairs = pair_up(a.sources, a.encodes)
    if not pairs:
        sys.exit("no encode matches a source")
    ray.init(address=a.address)
    if a.reports:
        a.reports.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with open(a.output, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["source", "encode", "frames", "model", "mean", "min", "harmonic_mean", "ci_lo", "ci_hi"])
        done = 0
        for i, r in vr.score_pairs(pairs, gpus_per_actor=a.gpus_per_actor, cpus_per_actor=a.cpus_per_actor,
                                   split_frames=a.split_frames, models=a.model or ["vmaf_v0.6.1"],
                                   features=a.feature):
            src, enc = pairs[i]
            for m in r.models.values():
                p = r.pooled[m.name]
                w.writerow([src, enc, r.n_frames, m.name, m.mean, p["min"], p["harmonic_mean"],
                            m.ci_lo if m.bootstrap else "", m.ci_hi if m.bootstrap else ""])
            f.flush()
            if a.reports:
                (a.reports / (enc.stem + ".json")).write_text(r.to_json())
            done += 1
            print(f"[{done}/{len(pairs)}] {enc.name}: " +
                  ", ".join(f"{m.name} {m.mean:.3f}" for m in r.models.values()), flush=True)
    secs = time.monotonic() - t0
    print(f"{len(pairs)} pairs in {secs:.1f} s ({len(pairs) / secs:.2f} pairs/s)")


if __name__ == "__main__":
    main()
