#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs a libvmaf 3.2.0 oracle (build_oracle.sh) over the golden clips for
every output that float_adm's division touches, and records what it wrote.

  run_oracle.py VMAF GOLDEN OUT

VMAF    the oracle's `vmaf` binary (build_oracle.sh; %.17g output)
GOLDEN  the golden set (tests/data/golden: manifest.json and clips/)
OUT     a new folder: one JSON per run, named <pair>.<run>.json, and
        runs.json (each run's file and exact command line, the oracle's
        version and sha256, and the processor it ran on)

The runs, for every pair of GOLDEN's manifest:
  * each golden command line that asks for float_adm ("features", "egl1"),
    unchanged but for the output file;
  * for each built-in integer model the golden set runs on the pair
    (vmaf_v0.6.1, vmaf_4k_v0.6.1, vmaf_v0.6.1neg, vmaf_b_v0.6.3; not the
    --subsample run), its float twin (vmaf_float_v0.6.1, vmaf_float_4k_v0.6.1,
    vmaf_float_v0.6.1neg, vmaf_float_b_v0.6.3), with the same input arguments.
Commands run from GOLDEN (the manifest's paths are relative to it), one at a
time, without --threads (libvmaf's single-threaded path, as the golden set)."""
import hashlib
import json
import os
import platform
import subprocess
import sys

FLOAT_TWIN = {
    "vmaf_v0.6.1": "vmaf_float_v0.6.1",
    "vmaf_4k_v0.6.1": "vmaf_float_4k_v0.6.1",
    "vmaf_v0.6.1neg": "vmaf_float_v0.6.1neg",
    "vmaf_b_v0.6.3": "vmaf_float_b_v0.6.3",
}


def cpu_info():
    info = {"machine": platform.machine()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                k, v = k.strip(), v.strip()
                if k in ("vendor_id", "model name", "cpu family", "model", "stepping", "microcode") and k not in info:
                    info[k] = v
                if k == "flags" and "flags" not in info:
                    fl = v.split()
                    info["flags"] = [x for x in ("sse2", "avx", "avx2", "fma", "avx512f", "avx512bw") if x in fl]
    except OSError:
        pass
    return info


def runs(manifest):
    for p in manifest["pairs"]:
        for r in p["oracle"]:
            argv = r["argv"]
            if "-o" not in argv:
                continue
            o = argv.index("-o")
            inputs = argv[1:o - 2] if argv[o - 2:o] == ["-q", "--json"] else None
            if any(a.startswith("float_adm") for a in argv):
                yield p["name"], r["run"], argv[1:o] + argv[o + 2:]
            if r["run"] in FLOAT_TWIN and inputs is not None:
                twin = FLOAT_TWIN[r["run"]]
                yield p["name"], twin, inputs + ["-q", "--json", "--model", "version=" + twin]


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: run_oracle.py VMAF GOLDEN OUT")
    vmaf, golden, out = (os.path.abspath(a) for a in sys.argv[1:])
    if os.path.exists(out):
        sys.exit(f"run_oracle.py: {out}: exists")
    with open(os.path.join(golden, "manifest.json")) as f:
        manifest = json.load(f)
    os.makedirs(out)
    v = subprocess.run([vmaf, "--version"], capture_output=True, text=True, check=True)
    version = (v.stdout + v.stderr).strip()
    with open(vmaf, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    record = {"oracle": {"version": version, "sha256": sha}, "cpu": cpu_info(), "runs": []}
    for pair, run, args in runs(manifest):
        name = f"{pair}.{run}.json"
        argv = ["vmaf"] + args + ["-o", name]
        res = subprocess.run([vmaf] + args + ["-o", os.path.join(out, name)], cwd=golden, capture_output=True,
                             text=True)
        if res.returncode != 0:
            sys.exit(f"run_oracle.py: {' '.join(argv)}: exit {res.returncode}: {res.stderr.strip()}")
        record["runs"].append({"pair": pair, "run": run, "file": name, "argv": argv})
        print(name, flush=True)
    with open(os.path.join(out, "runs.json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
