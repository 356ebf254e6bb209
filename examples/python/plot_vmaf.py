#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plots the per-frame VMAF of two encodes of one source (matplotlib).

    python3 plot_vmaf.py SOURCE.y4m ENCODE_A.y4m ENCODE_B.y4m [-o vmaf.png] [--model vmaf_v0.6.1]

Each curve is labelled with its pooled mean and harmonic mean; the frames
where the two differ most are marked.
"""
import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import vmaf_exact  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path)
    ap.add_argument("encodes", type=Path, nargs=2)
    ap.add_argument("-o", "--output", type=Path, default=Path("vmaf.png"))
    ap.add_argument("--model", default="vmaf_v0.6.1")
    a = ap.parse_args()

    fig, ax = plt.subplots(figsize=(10, 4.5))
    curves = []
    for enc in a.encodes:
        r = vmaf_exact.score(a.source, enc, models=[a.model])
        name = next(iter(r.models))
        v = r.frames[name]
        p = r.pooled[name]
        curves.append(v)
        ax.plot(np.arange(len(v)), v, lw=1.2,
                label=f"{enc.name}: mean {p['mean']:.2f}, harmonic mean {p['harmonic_mean']:.2f}")
    if len(curves[0]) == len(curves[1]):
        diff = np.abs(curves[0] - curves[1])
        worst = np.argsort(diff)[-3:]
        ax.scatter(worst, np.minimum(curves[0], curves[1])[worst], marker="v", color="k", zorder=3,
                   label="largest differences")
    ax.set_xlabel("frame")
    ax.set_ylabel(a.model)
    ax.set_ylim(0, max(100.0, max(float(np.nanmax(c)) for c in curves)) + 3)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    ax.set_title(f"per-frame {a.model} against {a.source.name}")
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    main()
