# SPDX-License-Identifier: BSD-3-Clause
"""Shared helpers of the Python tests: the golden clips, the CLI built beside the module, Y4M in numpy."""
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
CLIPS = GOLDEN / "clips"


def _audit_library():
    """The error-audit trace (tests/audit/error_trace.cpp), when scripts/test.sh preloads it."""
    if not os.environ.get("VMAFX_ERROR_LOG"):
        return None
    lib = ctypes.CDLL(None)
    return lib if hasattr(lib, "vmafx_audit_set_test") else None


_AUDIT = _audit_library()
_PACKAGE = os.sep + "vmaf_exact" + os.sep


@pytest.fixture(autouse=True)
def _error_audit(request):
    """Under the error audit: names the test for the trace and logs every
    exception raised in the package's Python code (scripts/error-audit.py)."""
    if _AUDIT is None:
        yield
        return
    _AUDIT.vmafx_audit_set_test(request.node.nodeid.encode())
    # The exceptions themselves are kept (not their ids): a freed exception's
    # id is reused by the next one, which would then go unlogged.
    logged = []

    def local(frame, event, arg):
        if event == "exception" and not any(e is arg[1] for e in logged):
            logged.append(arg[1])
            _AUDIT.vmafx_audit_log_python(str(arg[1]).encode(errors="replace"))
        return local

    def calls(frame, event, arg):
        return local if _PACKAGE in frame.f_code.co_filename else None

    old = sys.gettrace()
    sys.settrace(calls)
    try:
        yield
    finally:
        sys.settrace(old)


def find_cli():
    """The vmaf CLI to compare with: $VMAFX_CLI, else build*/tools/vmaf of this tree."""
    env = os.environ.get("VMAFX_CLI")
    if env:
        return env
    for b in ("build", "build-py"):
        p = ROOT / b / "tools" / "vmaf"
        if p.exists():
            return str(p)
    return shutil.which("vmaf")


@pytest.fixture(scope="session")
def cli():
    p = find_cli()
    if not p:
        pytest.fail("no vmaf CLI found (build it, or set VMAFX_CLI): the CLI comparisons need one")
    return p


def run_cli(cli, args, fmt="json", expect_ok=True):
    """Runs the CLI writing a report to stdout; returns (report text, fps as printed) or (rc, stderr)."""
    flag = {"json": "--json", "xml": "--xml", "csv": "--csv", "sub": "--sub"}[fmt]
    p = subprocess.run([cli, *[str(a) for a in args], "-q", flag, "-o", "-"], capture_output=True, text=True)
    if not expect_ok:
        return p.returncode, p.stderr
    assert p.returncode == 0, p.stderr
    fps = None
    m = re.search(r'"fps": ([0-9.]+)', p.stdout) or re.search(r'fps="([0-9.]+)"', p.stdout)
    if m:
        fps = float(m.group(1))
    return p.stdout, fps


def cli_error(cli, args):
    """The CLI's one-line error message (without 'vmaf: error: ')."""
    rc, err = run_cli(cli, args, expect_ok=False)
    assert rc == 1, err
    line = err.strip().splitlines()[-1]
    assert line.startswith("vmaf: error: "), err
    return line[len("vmaf: error: "):]


@pytest.fixture(scope="session")
def manifest():
    return json.loads((GOLDEN / "manifest.json").read_text())


def read_y4m(path):
    """Frames of a Y4M file as lists of numpy planes, and (width, height, bitdepth, chroma)."""
    data = Path(path).read_bytes()
    end = data.index(b"\n")
    tags = data[:end].decode().split()[1:]
    w = int(next(t[1:] for t in tags if t[0] == "W"))
    h = int(next(t[1:] for t in tags if t[0] == "H"))
    c = next((t[1:] for t in tags if t[0] == "C"), "420")
    m = re.match(r"(420|422|444)(?:p(\d+))?", c)
    if m:
        chroma, bpc = m.group(1), int(m.group(2) or 8)
    else:
        chroma, bpc = "400", int(re.match(r"mono(\d*)", c).group(1) or 8)
    dt = np.uint8 if bpc == 8 else np.dtype("<u2")
    bps = 1 if bpc == 8 else 2
    cw = w if chroma == "444" else (w + 1) // 2
    ch = h if chroma in ("444", "422") else (h + 1) // 2
    shapes = [(h, w)] if chroma == "400" else [(h, w), (ch, cw), (ch, cw)]
    frames, pos = [], end + 1
    while pos < len(data):
        pos = data.index(b"\n", pos) + 1  # FRAME line
        planes = []
        for sh in shapes:
            n = sh[0] * sh[1] * bps
            planes.append(np.frombuffer(data, dtype=dt, count=sh[0] * sh[1], offset=pos).reshape(sh))
            pos += n
        frames.append(planes)
    return frames, (w, h, bpc, chroma)


def write_y4m(path, frames, w, h, bpc=8, chroma="420"):
    tag = {8: chroma + ("jpeg" if chroma == "420" else "")}.get(bpc, f"{chroma}p{bpc}")
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C{tag}\n".encode())
        for planes in frames:
            f.write(b"FRAME\n")
            for p in planes:
                f.write(np.ascontiguousarray(p, dtype=np.uint8 if bpc == 8 else "<u2").tobytes())


def synthetic_clip(n, w=176, h=144, seed=1):
    """n frames of a moving gradient with texture (reference) and a noisier, shifted copy (distorted)."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    tex = rng.integers(0, 40, size=(h + 64, w + 64))
    ref, dis = [], []
    for i in range(n):
        dx, dy = (3 * i) % 64, (2 * i + (i * i) % 5) % 64
        y = (xx * 0.8 + yy * 0.5 + 4 * i + tex[dy:dy + h, dx:dx + w]) % 220 + 16
        u = np.full((h // 2, w // 2), 128 + (i % 7)); v = np.full((h // 2, w // 2), 120 - (i % 5))
        noise = rng.integers(-6 - (i % 4) * 3, 7 + (i % 4) * 3, size=(h, w))
        yd = np.clip(y + noise, 0, 255)
        ref.append([y.astype(np.uint8), u.astype(np.uint8), v.astype(np.uint8)])
        dis.append([yd.astype(np.uint8), u.astype(np.uint8), (v + 1).astype(np.uint8)])
    return ref, dis
