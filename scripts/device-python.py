#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Python module on the GPU machine (scripts/device-check.sh python): exactness against the CLI with
--backend cuda, and throughput: the CLI's fps, one score() call, and one persistent scorer (what a
vmaf_exact.ray GPU actor runs) over several pairs, in pairs/s; through Ray as well where ray is installed.
    device-python.py VMAF_CLI REF DIS [PAIRS]
"""
import json
import subprocess
import sys
import time

import vmaf_exact
import vmaf_exact.ray as vr

cli, ref, dis = sys.argv[1:4]
npairs = int(sys.argv[4]) if len(sys.argv) > 4 else 8
print("vmaf_exact", vmaf_exact.__version__, "backends:", vmaf_exact.available_backends(), vmaf_exact.list_devices())
status = 0

# 1. The CLI, --backend cuda (a warm-up run first: the CUDA context).
subprocess.run([cli, "-r", ref, "-d", dis, "--backend", "cuda", "-q", "--json", "-o", "/dev/null"], check=True)
t = time.perf_counter()
out = subprocess.run([cli, "-r", ref, "-d", dis, "--backend", "cuda", "-q", "--json", "-o", "-"], check=True,
                     capture_output=True, text=True).stdout
cli_wall = time.perf_counter() - t
cli_fps = json.loads(out)["fps"]
n = len(json.loads(out)["frames"])
print(f"cli: {n} frames, fps {cli_fps:.1f} (process wall {cli_wall:.2f} s, {n / cli_wall:.1f} frames/s)")

# 2. score() with the same backend: the same report, byte for byte.
r = vmaf_exact.score(ref, dis, backend="cuda")
same = r.to_json(fps=cli_fps) == out
print(f"score(): {r.n_frames} frames {r.fps:.1f} fps; backend: {r.backend}; report == CLI's: {same}")
status |= not same

# 3. One persistent scorer (a GPU actor's body, without Ray) over npairs pairs.
s = vr._Scorer("cuda", 0)
t = time.perf_counter()
for _ in range(npairs):
    x = s.score(ref, dis, {})
    assert not isinstance(x, vr._Failure), x
secs = time.perf_counter() - t
print(f"persistent scorer: {npairs} pairs in {secs:.2f} s: {npairs / secs:.2f} pairs/s, "
      f"{npairs * n / secs:.1f} frames/s (CLI fps {cli_fps:.1f})")

# 4. A clip in frame ranges, merged: equal to the whole run.
ctx = r.range_context
size = max(n // 4, 1)
parts = []
for b in range(0, n, size):
    e = min(b + size, n)
    first = ctx.first_frame(b)
    cnt = min(e + ctx.after, n) - first
    parts.append((b, e, first, vmaf_exact.score(ref, dis, backend="cuda", frame_skip_ref=first,
                                                frame_skip_dist=first, frame_cnt=cnt)))
merged_same = vr.merge_ranges(parts, n).to_json(fps=cli_fps) == out
print(f"ranges of {size} frames merged == CLI's report: {merged_same}")
status |= not merged_same

# 5. CUDA arrays through DLPack (PyTorch, on the machine's image): Session fed CUDA planes == fed host planes.
try:
    import numpy as np
    import torch
except ImportError:
    print("torch: not installed here (CUDA arrays through DLPack not checked)")
else:
    w, h = r.width, r.height
    raw = open(ref, "rb").read()
    rawd = open(dis, "rb").read()

    def frames(data, count):
        pos = data.index(b"\n") + 1
        out = []
        for _ in range(count):
            pos = data.index(b"\n", pos) + 1
            y = np.frombuffer(data, np.uint8, w * h, pos).reshape(h, w); pos += w * h
            u = np.frombuffer(data, np.uint8, w * h // 4, pos).reshape(h // 2, w // 2); pos += w * h // 4
            v = np.frombuffer(data, np.uint8, w * h // 4, pos).reshape(h // 2, w // 2); pos += w * h // 4
            out.append([y, u, v])
        return out

    k = min(n, 10)
    fr, fd = frames(raw, k), frames(rawd, k)
    sh, sc = vmaf_exact.Session(w, h, backend="cuda"), vmaf_exact.Session(w, h, backend="cuda")
    for a, b in zip(fr, fd):
        sh.push(a, b)
        sc.push([torch.from_numpy(p.copy()).cuda() for p in a], [torch.from_numpy(p.copy()).cuda() for p in b])
    ok = sh.finish().to_json(fps=1) == sc.finish().to_json(fps=1)
    print(f"Session fed torch CUDA tensors (DLPack) == fed numpy planes, {k} frames: {ok}")
    status |= not ok

# 6. Through Ray, where it is installed (it does not travel: its wheel is larger than the carry limit).
try:
    import ray
except ImportError:
    print("ray: not installed here (pairs/s above is the actor's body without Ray's scheduling)")
else:
    ray.init(num_gpus=1, include_dashboard=False)
    t = time.perf_counter()
    got = list(vr.score_pairs([(ref, dis)] * npairs, gpus_per_actor=1))
    secs = time.perf_counter() - t
    ok = all(res.to_json(fps=cli_fps) == out for _, res in got) and len(got) == npairs
    print(f"ray score_pairs, 1 GPU actor: {npairs} pairs in {secs:.2f} s: {npairs / secs:.2f} pairs/s; reports == CLI's: {ok}")
    status |= not ok
print("python device check:", "ok" if status == 0 else "FAILED")
sys.exit(status)
