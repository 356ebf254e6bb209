#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Re-runs the oracle command lines stored in manifest.json.

  rerun_manifest.py VMAF OUT [--run NAME ...] [--extra ARG ...] [--scalar-files]

Runs, from the set root, every pair's oracle[].argv (or only the runs named
by --run) with argv[0] 'vmaf' replaced by VMAF and the '-o oracle/FILE'
output redirected to OUT/FILE; --extra appends arguments (for instance
--extra --cpumask --extra 255). --scalar-files also runs the stored
--cpumask 255 command of every run whose plain-C output differed
(scalar_path.argv, the *.cpumask255.json files). Then: make/compare_oracle.py OUT.
Exit status 1 if a run's exit status is not 0.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys

SET = pathlib.Path(__file__).resolve().parent.parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vmaf")
    ap.add_argument("out")
    ap.add_argument("--run", action="append", default=[])
    ap.add_argument("--extra", action="append", default=[])
    ap.add_argument("--scalar-files", action="store_true")
    a = ap.parse_args()
    vmaf = os.path.abspath(a.vmaf)
    out = pathlib.Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((SET / "manifest.json").read_text())
    failed = runs = 0
    for pair in manifest["pairs"]:
        for run in pair["oracle"]:
            if a.run and run["run"] not in a.run:
                continue
            todo = [run]
            if a.scalar_files and "argv" in run.get("scalar_path", {}):
                todo.append(run["scalar_path"])
            for r in todo:
                argv = list(r["argv"])
                assert argv[0] == "vmaf"
                argv[0] = vmaf
                o = argv.index("-o") + 1
                assert argv[o] == r["file"] and argv[o].startswith("oracle/")
                argv[o] = str(out / argv[o][len("oracle/"):])
                argv += a.extra
                runs += 1
                rc = subprocess.run(argv, cwd=SET, stdout=subprocess.DEVNULL).returncode
                if rc != 0:
                    failed += 1
                    print(f"{r['file']}: exit status {rc}", file=sys.stderr)
    print(f"{runs} runs, {failed} failed, outputs in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
