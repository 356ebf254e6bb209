# SPDX-License-Identifier: BSD-3-Clause
"""vmaf_exact.score and Session against libvmaf's oracle outputs (==) and the CLI's reports (byte for byte)."""
import json
import math
import os
import threading

import numpy as np
import pytest

import vmaf_exact
from conftest import CLIPS, GOLDEN, cli_error, read_y4m, run_cli, synthetic_clip, write_y4m


def kwargs_from_argv(argv):
    """vmaf_exact.score keywords for an oracle command line (argv[0] is 'vmaf')."""
    kw = {"models": [], "features": []}
    ref = dis = None
    raw = {}
    it = iter(argv[1:])
    for a in it:
        if a in ("-r", "--reference"):
            ref = GOLDEN / next(it)
        elif a in ("-d", "--distorted"):
            dis = GOLDEN / next(it)
        elif a in ("-o", "--output"):
            next(it)
        elif a in ("-q", "--json", "--quiet"):
            pass
        elif a in ("-m", "--model"):
            kw["models"].append(next(it))
        elif a == "--feature":
            kw["features"].append(next(it))
        elif a in ("-n", "--no_prediction"):
            kw["no_prediction"] = True
        elif a in ("-w", "--width"):
            raw["width"] = int(next(it))
        elif a in ("-h", "--height"):
            raw["height"] = int(next(it))
        elif a in ("-p", "--pixel_format"):
            raw["pixel_format"] = next(it)
        elif a in ("-b", "--bitdepth"):
            raw["bitdepth"] = int(next(it))
        elif a == "--subsample":
            kw["subsample"] = int(next(it))
        else:
            raise AssertionError(f"oracle option {a} not handled by the test")
    if raw:
        kw["raw"] = raw
    return ref, dis, kw


def oracle_cases(runs=("vmaf_v0.6.1", "features", "extras")):
    m = json.loads((GOLDEN / "manifest.json").read_text())
    out = []
    for p in m["pairs"]:
        for o in p["oracle"]:
            if o["run"] in runs and not (p["name"].startswith("mosaic1080") and o["run"] != "vmaf_v0.6.1"):
                out.append(pytest.param(o, id=f'{p["name"]}-{o["run"]}'))
    return out


def same(ours, theirs):
    if theirs is None:  # libvmaf writes a non-finite score as null
        return not math.isfinite(ours)
    return ours == theirs


@pytest.mark.parametrize("run", oracle_cases())
def test_scores_equal_libvmaf(run):
    """Every per-frame and pooled score of libvmaf's %.17g oracle, == (threads=2, the CPU)."""
    # Where libvmaf's AVX2 and plain-C paths disagree, the plain-C output (scalar_path) is the reference.
    sp = run.get("scalar_path", {})
    # The golden set was made on AMD processors (float_adm's division).
    check_oracle(run["argv"], GOLDEN / (sp["file"] if sp.get("identical") is False else run["file"]), "amd")


def libvmaf_cpu_cases():
    out = []
    for cpu in ("amd", "generic", "intel"):
        runs = GOLDEN.parent / "libvmaf_cpu" / cpu / "runs.json"
        if runs.exists():
            for o in json.loads(runs.read_text())["runs"]:
                if o["run"] == "vmaf_float_v0.6.1" and o["pair"].startswith("astro176"):
                    out.append(pytest.param(cpu, o, id=f'{cpu}-{o["pair"]}-{o["run"]}'))
    return out


@pytest.mark.parametrize("cpu,run", libvmaf_cpu_cases())
def test_libvmaf_cpu_equals_libvmaf(cpu, run):
    """libvmaf_cpu= picks which libvmaf float_adm equals: each variant's recorded outputs (tests/data/libvmaf_cpu)."""
    check_oracle(run["argv"], GOLDEN.parent / "libvmaf_cpu" / cpu / run["file"], cpu)


def check_oracle(argv, path, cpu):
    ref, dis, kw = kwargs_from_argv(argv)
    r = vmaf_exact.score(ref, dis, backend="cpu", threads=2, libvmaf_cpu=cpu, **kw)
    oracle = json.loads(path.read_text())
    frames = r.frames
    assert r.n_frames == len(oracle["frames"])
    checked = 0
    for f in oracle["frames"]:
        for name, v in f["metrics"].items():
            assert name in frames, name
            assert same(frames[name][f["frameNum"]], v), (name, f["frameNum"], frames[name][f["frameNum"]], v)
            checked += 1
    assert checked > 0
    pooled = r.pooled
    for name, d in oracle.get("pooled_metrics", {}).items():
        for method, v in d.items():
            assert same(pooled[name][method], v), (name, method)
    for name, v in oracle.get("aggregate_metrics", {}).items():
        assert same(dict(r.aggregate)[name], v), name


CASES = {
    "chelsea": ("chelsea352.ref.y4m", "chelsea352__gblur1.5.dis.y4m", {}),
    "mandel10_psnr": ("mandel240p10.ref.y4m", "mandel240p10__x265_crf30.dis.y4m",
                      {"features": ["psnr", "float_ssim"]}),
    "rocket422_bootstrap": ("rocket240x177p422p10.ref.y4m", "rocket240x177p422p10__x264_crf32.dis.y4m",
                            {"models": ["vmaf_b_v0.6.3", "version=vmaf_v0.6.1:name=plain"]}),
    "camera444_subsample": ("camera351x287p444.ref.y4m", "camera351x287p444__bright12.dis.y4m",
                            {"subsample": 2, "features": ["float_motion"]}),
}


def cli_args(ref, dis, kw):
    a = ["-r", CLIPS / ref, "-d", CLIPS / dis, "--backend", "cpu"]
    for m in kw.get("models", []):
        a += ["--model", m if "=" in m else "version=" + m]
    for f in kw.get("features", []):
        a += ["--feature", f]
    if "subsample" in kw:
        a += ["--subsample", kw["subsample"]]
    return a


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fmt", ["json", "xml", "csv", "sub"])
def test_reports_equal_cli(cli, case, fmt):
    ref, dis, kw = CASES[case]
    r = vmaf_exact.score(CLIPS / ref, CLIPS / dis, backend="cpu", **kw)
    text, fps = run_cli(cli, cli_args(ref, dis, kw), fmt)
    assert r.report(fmt, fps=fps) == text
    if fmt == "json":
        assert r.to_json(fps=fps) == text
        text17, fps17 = run_cli(cli, cli_args(ref, dis, kw) + ["--precision", "max"])
        assert r.to_json(precision="max", fps=fps17) == text17


def test_result_api():
    r = vmaf_exact.score(CLIPS / "chelsea352.ref.y4m", CLIPS / "chelsea352__gblur1.5.dis.y4m", threads=1)
    assert r.n_frames == 3 and (r.width, r.height, r.bpc, r.chroma) == (352, 288, 8, "420")
    v = r.frames["vmaf"]
    assert v.dtype == np.float64 and v.shape == (3,)
    assert np.array_equal(r["vmaf"], v)
    assert r.pooled["vmaf"]["mean"] == r.pool("vmaf") == r.models["vmaf"].mean == r.vmaf
    assert r.pooled["vmaf"]["min"] == v.min() and r.pooled["vmaf"]["max"] == v.max()
    assert 0 < r.vmaf < 100
    assert r.names[-1] == "vmaf"
    with pytest.raises(KeyError):
        r["nope"]
    assert "352x288" in repr(r)


def test_bootstrap_intervals():
    r = vmaf_exact.score(CLIPS / "astro176.ref.y4m", CLIPS / "astro176__noise.dis.y4m", models=["vmaf_b_v0.6.3"])
    m = r.models["vmaf"]  # the model's name in libvmaf's output
    assert m.bootstrap and m.ci_lo < m.mean < m.ci_hi and m.stddev > 0
    assert m.ci_lo == r.pool("vmaf_ci_p95_lo") and m.ci_hi == r.pool("vmaf_ci_p95_hi")
    assert m.mean == r.pool("vmaf_bagging") != r.pool("vmaf") and m.stddev == r.pool("vmaf_stddev")


def test_raw_yuv(cli, manifest):
    p = next(p for p in manifest["pairs"] if p["ref"]["container"] == "yuv")
    ref, dis = GOLDEN / p["ref"]["file"], GOLDEN / p["dis"]["file"]
    w, h, b = p["ref"]["width"], p["ref"]["height"], p["ref"]["bitdepth"]
    r = vmaf_exact.score(ref, dis, raw=(w, h, "420", b), backend="cpu")
    r2 = vmaf_exact.score(ref, dis, raw={"width": w, "height": h, "pixel_format": "420", "bitdepth": b})
    text, fps = run_cli(cli, ["-r", ref, "-d", dis, "-w", w, "-h", h, "-p", "420", "-b", b, "--backend", "cpu"])
    assert r.to_json(fps=fps) == text == r2.to_json(fps=fps)
    assert vmaf_exact.count_frames(ref, raw=(w, h, "420", b)) == p["ref"]["frames"]


def test_skip_and_frame_cnt(cli):
    ref, dis = CLIPS / "astro176.ref.y4m", CLIPS / "astro176__x264_crf45.dis.y4m"
    r = vmaf_exact.score(ref, dis, frame_skip_ref=1, frame_skip_dist=1, frame_cnt=2)
    text, fps = run_cli(cli, ["-r", ref, "-d", dis, "--frame_skip_ref", 1, "--frame_skip_dist", 1, "--frame_cnt", 2])
    assert r.n_frames == 2 and r.to_json(fps=fps) == text


# --- Session: numpy planes ---

def session_for(path, **kw):
    frames, (w, h, b, c) = read_y4m(path)
    return frames, vmaf_exact.Session(w, h, bitdepth=b, pixel_format=c, **kw)


@pytest.mark.parametrize("ref,dis", [("chelsea352.ref.y4m", "chelsea352__gblur1.5.dis.y4m"),
                                     ("rocket240x177p422p10.ref.y4m", "rocket240x177p422p10__x264_crf32.dis.y4m")])
def test_session_equals_files(ref, dis):
    kw = {"features": ["psnr"], "backend": "cpu"}
    rf, s = session_for(CLIPS / ref, **kw)
    df, _ = read_y4m(CLIPS / dis)
    for a, b in zip(rf, df):
        s.push(a, b)
    assert s.frames == len(rf)
    r = s.finish()
    f = vmaf_exact.score(CLIPS / ref, CLIPS / dis, **kw)
    assert r.names == f.names
    for (n1, v1, w1), (n2, v2, w2) in zip(r.series, f.series):
        assert n1 == n2 and np.array_equal(v1, v2) and np.array_equal(w1, w2)
    assert r.to_json(fps=1.0) == f.to_json(fps=1.0)
    assert r.to_xml(fps=1.0) == f.to_xml(fps=1.0)


def test_session_strided_views():
    """Planes that are views into larger buffers (row padding, every other column) score the same."""
    rf, s = session_for(CLIPS / "chelsea352.ref.y4m", backend="cpu")
    df, _ = read_y4m(CLIPS / "chelsea352__gblur1.5.dis.y4m")
    s2 = vmaf_exact.Session(352, 288, backend="cpu")
    for a, b in zip(rf, df):
        s.push(a, b)
        views = []
        for planes in (a, b):
            vs = []
            for k, p in enumerate(planes):
                if k == 0:  # padded rows
                    buf = np.zeros((p.shape[0], p.shape[1] + 40), np.uint8)
                    buf[:, 7:7 + p.shape[1]] = p
                    v = buf[:, 7:7 + p.shape[1]]
                else:  # every other column of a twice-as-wide buffer
                    buf = np.zeros((p.shape[0], 2 * p.shape[1]), np.uint8)
                    buf[:, ::2] = p
                    v = buf[:, ::2]
                assert not v.flags["C_CONTIGUOUS"]
                vs.append(v)
            views.append(vs)
        s2.push(*views)
    assert s.finish().to_json(fps=0) == s2.finish().to_json(fps=0)


def test_session_reversed_rows_and_400():
    """Negative strides (a flipped picture) and a 4:0:0 session fed one 2-D array per frame."""
    ref, dis = synthetic_clip(3, 64, 48)
    s = vmaf_exact.Session(64, 48, pixel_format="400", models=[], no_prediction=True, features=["psnr"])
    s2 = vmaf_exact.Session(64, 48, pixel_format="400", models=[], no_prediction=True, features=["psnr"])
    for a, b in zip(ref, dis):
        s.push(a[0], b[0])
        fa, fb = np.ascontiguousarray(a[0][::-1]), np.ascontiguousarray(b[0][::-1])
        s2.push(fa[::-1], fb[::-1])
    r, r2 = s.finish(), s2.finish()
    assert r.to_json(fps=0) == r2.to_json(fps=0)
    assert r.frames["psnr_y"][0] > 20


def test_gil_released(tmp_path):
    """score() releases the GIL: it reads its two videos from named pipes that
    only Python threads of this process fill. Were the GIL held while score()
    reads, the writers could never run and the call would never return."""
    ref_src = CLIPS / "chelsea352.ref.y4m"
    dis_src = CLIPS / "chelsea352__gblur1.5.dis.y4m"
    ref_fifo, dis_fifo = tmp_path / "ref.y4m", tmp_path / "dis.y4m"
    os.mkfifo(ref_fifo)
    os.mkfifo(dis_fifo)
    written = {}

    def feed(src, fifo):
        data = src.read_bytes()
        with open(fifo, "wb") as f:
            for i in range(0, len(data), 1 << 16):
                f.write(data[i:i + (1 << 16)])
        written[fifo] = len(data)

    result = {}

    def run():
        result["r"] = vmaf_exact.score(ref_fifo, dis_fifo, threads=1, features=["psnr"])

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    writers = [threading.Thread(target=feed, args=a, daemon=True) for a in ((ref_src, ref_fifo), (dis_src, dis_fifo))]
    for w in writers:
        w.start()
    # A generous bound that only a held GIL (a deadlock) reaches.
    worker.join(timeout=120)
    assert not worker.is_alive(), "score() kept the GIL while it read the pipes"
    for w in writers:
        w.join(timeout=10)
    assert written == {ref_fifo: ref_src.stat().st_size, dis_fifo: dis_src.stat().st_size}
    direct = vmaf_exact.score(ref_src, dis_src, threads=1, features=["psnr"])
    assert result["r"].to_json(fps=0) == direct.to_json(fps=0)
    assert result["r"].frames["psnr_y"][0] > 20


# --- errors: the CLI's one-line messages ---

def test_error_missing_file(cli, tmp_path):
    ref, missing = CLIPS / "chelsea352.ref.y4m", tmp_path / "nope.y4m"
    with pytest.raises(vmaf_exact.InputError) as e:
        vmaf_exact.score(ref, missing)
    assert str(e.value) == cli_error(cli, ["-r", ref, "-d", missing])
    assert e.value.kind == "input" and isinstance(e.value, vmaf_exact.Error) and isinstance(e.value, OSError)


def test_error_incompatible(cli, tmp_path):
    frames, (w, h, b, c) = read_y4m(CLIPS / "astro176.ref.y4m")
    mono = tmp_path / "mono.y4m"
    write_y4m(mono, [[f[0]] for f in frames], w, h, chroma="mono")
    ref = CLIPS / "astro176.ref.y4m"
    with pytest.raises(vmaf_exact.Error) as e:
        vmaf_exact.score(ref, mono)
    assert str(e.value) == cli_error(cli, ["-r", ref, "-d", mono])
    assert str(e.value).startswith("videos are incompatible: ")


# --- renditions of another size, ladders ---

def half_size(tmp_path, name="half.y4m"):
    """A rendition of astro176 at half its size (every other sample), as Y4M."""
    frames, (w, h, b, c) = read_y4m(CLIPS / "astro176.ref.y4m")
    out = tmp_path / name
    write_y4m(out, [[p[::2, ::2] for p in f] for f in frames], (w + 1) // 2, (h + 1) // 2)
    return out


@pytest.mark.parametrize("flags", [None, "lanczos"])
def test_score_scaled_equals_cli(cli, tmp_path, flags):
    ref, small = CLIPS / "astro176.ref.y4m", half_size(tmp_path)
    r = vmaf_exact.score(ref, small, features=["psnr"], scale=flags)
    text, fps = run_cli(cli, ["-r", ref, "-d", small, "--feature", "psnr"] + (["--scale", flags] if flags else []))
    assert r.to_json(fps=fps) == text
    assert r.width == 176 and r.n_frames == 4


def test_score_ladder(cli, tmp_path):
    ref = CLIPS / "astro176.ref.y4m"
    dis = [half_size(tmp_path), CLIPS / "astro176__x264_crf45.dis.y4m"]
    broken = tmp_path / "broken.y4m"
    broken.write_bytes((CLIPS / "astro176__noise.dis.y4m").read_bytes()[:-100])
    out = vmaf_exact.score_ladder(ref, dis + [broken], features=["psnr"])
    assert len(out) == 3
    for r, d in zip(out[:2], dis):
        text, fps = run_cli(cli, ["-r", ref, "-d", d, "--feature", "psnr"])
        assert r.to_json(fps=fps) == text and r.offset == 0
    assert isinstance(out[2], vmaf_exact.InputError)
    assert str(out[2]) == cli_error(cli, ["-r", ref, "-d", broken])
    with pytest.raises(vmaf_exact.UsageError) as e:
        vmaf_exact.score_ladder(ref, str(dis[1]))
    assert str(e.value) == "score_ladder: dis is a list of distorted clips"
    with pytest.raises(vmaf_exact.UsageError) as e:
        vmaf_exact.score_ladder(ref, dis, sync="pts")
    assert str(e.value) == "sync pts: expected index or auto"
    with pytest.raises(vmaf_exact.Error) as e:
        vmaf_exact.score_ladder(ref, [])
    assert str(e.value) == "score_ladder needs at least one distorted clip"


def test_error_lengths_differ(cli, tmp_path):
    frames, (w, h, b, c) = read_y4m(CLIPS / "astro176.ref.y4m")
    short = tmp_path / "short.y4m"
    write_y4m(short, frames[:2], w, h)
    ref = CLIPS / "astro176.ref.y4m"
    with pytest.raises(vmaf_exact.Error) as e:
        vmaf_exact.score(ref, short)
    msg = cli_error(cli, ["-r", ref, "-d", short])
    # The same message; the advice names the module's option (the CLI's names its flags).
    assert " has more (use " in msg
    assert str(e.value) == msg.split(" (use ", 1)[0] + " (use frame_cnt to score a prefix)"
    assert str(e.value).endswith("astro176.ref.y4m has more (use frame_cnt to score a prefix)")


def test_error_truncated(cli, tmp_path):
    data = (CLIPS / "astro176.ref.y4m").read_bytes()
    bad = tmp_path / "trunc.y4m"
    bad.write_bytes(data[:len(data) - 100])
    with pytest.raises(vmaf_exact.InputError) as e:
        vmaf_exact.score(bad, bad)
    assert str(e.value) == cli_error(cli, ["-r", bad, "-d", bad])


@pytest.mark.parametrize("kw,cli_opts,cls", [
    ({"models": ["vmaf_nope"]}, ["--model", "version=vmaf_nope"], vmaf_exact.Error),
    ({"models": ["version=vmaf_v0.6.1:bogus=1"]}, ["--model", "version=vmaf_v0.6.1:bogus=1"], vmaf_exact.UsageError),
    ({"features": ["nope"]}, ["--feature", "nope"], vmaf_exact.UsageError),
    ({"features": ["psnr=enable_chroma=maybe"]}, ["--feature", "psnr=enable_chroma=maybe"], vmaf_exact.UsageError),
    ({"backend": "tpu"}, ["--backend", "tpu"], vmaf_exact.UsageError),
    ({"libvmaf_cpu": "arm"}, ["--libvmaf-cpu", "arm"], vmaf_exact.Error),
])
def test_error_config(cli, kw, cli_opts, cls):
    ref, dis = CLIPS / "astro176.ref.y4m", CLIPS / "astro176__noise.dis.y4m"
    with pytest.raises(cls) as e:
        vmaf_exact.score(ref, dis, **kw)
    assert str(e.value) == cli_error(cli, ["-r", ref, "-d", dis, *cli_opts])
    with pytest.raises(cls) as e2:
        vmaf_exact.Session(176, 144, **kw)
    assert str(e2.value) == str(e.value)


def test_error_model_file(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    ref, dis = CLIPS / "astro176.ref.y4m", CLIPS / "astro176__noise.dis.y4m"
    with pytest.raises(vmaf_exact.Error) as e:
        vmaf_exact.score(ref, dis, models=[str(bad)])
    assert str(e.value) == cli_error(cli, ["-r", ref, "-d", dis, "--model", f"path={bad}"])


def test_error_arguments():
    ref, dis = CLIPS / "astro176.ref.y4m", CLIPS / "astro176__noise.dis.y4m"
    cases = [
        (dict(threads=-1), "threads -1: expected 0 (automatic) or more"),
        (dict(subsample=0), "subsample 0: expected 1 or more"),
        (dict(gpu=-2), "gpu -2: expected a device index, 0 or more"),
        (dict(raw=(176, 144, "420", 7)), "raw format: bitdepth 7: expected 8 to 16"),
        (dict(raw=(176, 144, "400", 8)), "raw format: pixel_format 400: expected 420, 422 or 444"),
        (dict(raw=(176, 144, "411", 8)), "raw format: pixel_format 411: expected 420, 422, 444 or 400"),
        (dict(raw=(0, 144, "420", 8)), "raw format: width and height must be positive (got 0x144)"),
        (dict(raw={"width": 1}), "raw format: missing height (needs width, height, pixel_format, bitdepth)"),
        (dict(raw=(176, 144, "420")), "raw format: expected (width, height, pixel_format, bitdepth)"),
        (dict(models="vmaf_v0.6.1"), "models and features are lists of strings (got a single string)"),
        (dict(frame_cnt=-1), "frame_skip_ref, frame_skip_dist and frame_cnt must be 0 or more"),
    ]
    for kw, msg in cases:
        with pytest.raises(vmaf_exact.UsageError) as e:
            vmaf_exact.score(ref, dis, **kw)
        assert str(e.value) == msg, kw
    r = vmaf_exact.score(ref, dis)
    for bad in (0, 18, "min"):
        with pytest.raises(vmaf_exact.UsageError, match="expected 1..17 or max"):
            r.to_json(precision=bad)
    with pytest.raises(vmaf_exact.UsageError, match="report format yaml: expected xml, json, csv or sub"):
        r.report("yaml")
    with pytest.raises(vmaf_exact.UsageError, match=r"^pool method avg: expected min, max, mean or harmonic_mean$"):
        r.pool("vmaf", "avg")
    # The module's own guard behind the package's, for a caller of _core itself.
    with pytest.raises(vmaf_exact.Error, match=r"^precision 18: expected 1\.\.17 or max$"):
        vmaf_exact._core.report_text("json", r.series, r.aggregate, r.n_frames, r.subsample, r.width, r.height, 1.0,
                                     18, "")


def test_error_session_input():
    rf, s = session_for(CLIPS / "mandel240p10.ref.y4m")  # 10-bit: uint16 planes
    a = rf[0]
    with pytest.raises(vmaf_exact.UsageError, match=r"^Session: frame 0 reference: expected 3 planes \(got 1\)$"):
        s.push(a[:1], a)
    with pytest.raises(vmaf_exact.UsageError,
                       match=r"^Session: frame 0 distorted plane 0: expected dtype uint16 for 10-bit samples$"):
        s.push(a, [a[0].astype(np.uint8), a[1], a[2]])
    with pytest.raises(vmaf_exact.UsageError,
                       match=r"^Session: frame 0 reference plane 1: expected shape \(88, 120\), got \(88, 119\)$"):
        s.push([a[0], a[1][:, 1:], a[2]], a)
    with pytest.raises(vmaf_exact.UsageError, match="no frames to score"):
        s.finish()
    s.push(a, a)
    s.finish()
    with pytest.raises(vmaf_exact.UsageError, match="push after finish"):
        s.push(a, a)
    with pytest.raises(vmaf_exact.UsageError, match="finish called twice"):
        s.finish()
    with pytest.raises(vmaf_exact.UsageError, match="Session: bitdepth 4: expected 8 to 16"):
        vmaf_exact.Session(16, 16, bitdepth=4)
    with pytest.raises(vmaf_exact.UsageError, match="Session: width and height must be positive"):
        vmaf_exact.Session(-1, 16)


def test_error_dtype_8bit():
    """uint16 planes for an 8-bit session: the dtype error names the plane."""
    s = vmaf_exact.Session(16, 16, pixel_format="444", models=[], no_prediction=True, features=["psnr"])
    a = np.zeros((3, 16, 16), np.uint8)
    with pytest.raises(vmaf_exact.UsageError,
                       match=r"^Session: frame 0 reference plane 0: expected dtype uint8 for 8-bit samples$"):
        s.push([a[0].astype(np.uint16), a[1], a[2]], a)


def test_error_unsupported():
    """An extractor that cannot score the format: UnsupportedError, as the CLI's kind."""
    with pytest.raises(vmaf_exact.UnsupportedError) as e:
        vmaf_exact.Session(2, 2, pixel_format="420")
    assert e.value.kind == "unsupported" and "too small" in str(e.value)


def test_module_info():
    assert vmaf_exact.libvmaf_version == "3.2.0"
    assert vmaf_exact.__version__.count(".") == 2
    assert "motion" in vmaf_exact.describe_features()
    assert isinstance(vmaf_exact.available_backends(), list)
