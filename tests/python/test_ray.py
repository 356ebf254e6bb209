# SPDX-License-Identifier: BSD-3-Clause
"""vmaf_exact.ray on a local 2-CPU Ray cluster: pairs, a clip split into frame ranges, a worker killed mid-run."""
import os

import pytest
import ray  # python/requirements-dev.txt

# A folder named ray (Ray's own /tmp/ray, from cwd /tmp) is not Ray.
assert hasattr(ray, "init"), f"'import ray' found {ray.__path__}, not Ray: run pytest from another folder"

import vmaf_exact  # noqa: E402
import vmaf_exact.ray as vr  # noqa: E402
from conftest import CLIPS, run_cli, synthetic_clip, write_y4m  # noqa: E402

PAIRS = [
    ("astro176.ref.y4m", "astro176__x264_crf45.dis.y4m"),
    ("chelsea352.ref.y4m", "chelsea352__gblur1.5.dis.y4m"),
    ("coffee320.ref.y4m", "coffee320__x264_crf30.dis.y4m"),
    ("mandel240p10.ref.y4m", "mandel240p10__x265_crf30.dis.y4m"),
    ("life176.ref.y4m", "life176__x264_crf30.dis.y4m"),
]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    die = tmp_path_factory.mktemp("ray") / "die-once"
    os.environ["VMAFX_RAY_TEST_DIE_FILE"] = str(die)  # the actors inherit it: see _Scorer._maybe_die
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=150 * 1024 * 1024, log_to_driver=False, configure_logging=False,
             runtime_env={"env_vars": {"VMAFX_RAY_TEST_DIE_FILE": str(die)}})
    yield die
    ray.shutdown()
    os.environ.pop("VMAFX_RAY_TEST_DIE_FILE", None)


def pairs():
    return [(CLIPS / r, CLIPS / d) for r, d in PAIRS]


def test_pairs_equal_score(cluster):
    got = {}
    for i, r in vr.score_pairs(pairs(), cpus_per_actor=1, features=["psnr"]):
        assert i not in got
        got[i] = r
    assert sorted(got) == list(range(len(PAIRS)))
    for i, (ref, dis) in enumerate(pairs()):
        one = vmaf_exact.score(ref, dis, features=["psnr"], backend="cpu")
        assert got[i].to_json(fps=1) == one.to_json(fps=1)
        assert got[i].models["vmaf"] == one.models["vmaf"]


@pytest.fixture(scope="module")
def long_clip(tmp_path_factory):
    d = tmp_path_factory.mktemp("clip")
    ref, dis = synthetic_clip(23, 256, 176)  # cambi and speed_chroma (HFR models) need 216+ and 80x80 chroma
    write_y4m(d / "ref.y4m", ref, 256, 176)
    write_y4m(d / "dis.y4m", dis, 256, 176)
    return d / "ref.y4m", d / "dis.y4m"


SPLITS = {
    "vmaf": {},
    "vmaf_psnr_float_motion": {"features": ["psnr", "float_motion", "float_ssim"]},
    "hfr_five_frame_window": {"models": ["vmaf_v1.0.16_hfr_3d0h"]},
    "subsample3_bootstrap": {"models": ["vmaf_b_v0.6.3"], "subsample": 3},
    "motion_moving_average": {"models": ["vmaf_v0.6.1"],
                              "features": ["motion=motion_moving_average=true:motion_five_frame_window=true"]},
}


def cli_args(ref, dis, kw):
    a = ["-r", ref, "-d", dis, "--backend", "cpu"]
    for m in kw.get("models", []):
        a += ["--model", "version=" + m]
    for f in kw.get("features", []):
        a += ["--feature", f]
    if "subsample" in kw:
        a += ["--subsample", kw["subsample"]]
    return a


@pytest.mark.parametrize("case", SPLITS)
def test_split_clip_equals_cli(cluster, long_clip, cli, case):
    """A 23-frame clip in ranges of 4 on two actors: the merged report is the CLI's, byte for byte."""
    kw = SPLITS[case]
    ref, dis = long_clip
    ctx = vmaf_exact.Session(256, 176, models=kw.get("models", ("vmaf_v0.6.1",)), features=kw.get("features", ()),
                             subsample=kw.get("subsample", 1)).range_context
    assert ctx.unsplittable == "" and ctx.before >= 1
    out = list(vr.score_pairs([(ref, dis)], split_frames=4, **kw))
    assert [i for i, _ in out] == [0]
    merged = out[0][1]
    assert merged.n_frames == 23
    text, fps = run_cli(cli, cli_args(ref, dis, kw), "json")
    assert merged.to_json(fps=fps) == text
    xml, fps = run_cli(cli, cli_args(ref, dis, kw), "xml")
    assert merged.to_xml(fps=fps) == xml


def test_split_needs_the_neighbours(long_clip):
    """Ranges scored without their neighbour frames differ: the check above can fail."""
    ref, dis = long_clip
    whole = vmaf_exact.score(ref, dis)
    parts = []
    for b in range(0, 23, 4):
        e = min(b + 4, 23)
        parts.append((b, e, b, vmaf_exact.score(ref, dis, frame_skip_ref=b, frame_skip_dist=b, frame_cnt=e - b)))
    naive = vr.merge_ranges(parts, 23)
    assert naive.to_json(fps=1) != whole.to_json(fps=1)
    ctx = whole.range_context
    parts = []
    for b in range(0, 23, 4):
        e = min(b + 4, 23)
        first = ctx.first_frame(b)
        cnt = min(e + ctx.after, 23) - first
        parts.append((b, e, first, vmaf_exact.score(ref, dis, frame_skip_ref=first, frame_skip_dist=first,
                                                    frame_cnt=cnt)))
    assert vr.merge_ranges(parts, 23).to_json(fps=1) == whole.to_json(fps=1)
    with pytest.raises(vmaf_exact.UsageError, match=r"^merge_ranges: the ranges do not tile the clip$"):
        vr.merge_ranges(parts[1:], 23)


def test_unsplittable_scored_whole(cluster, long_clip, cli):
    ref, dis = long_clip
    kw = {"features": ["psnr=enable_apsnr=true"]}
    ctx = vmaf_exact.Session(256, 176, features=kw["features"]).range_context
    assert ctx.unsplittable.startswith("psnr: enable_apsnr")
    [(i, r)] = list(vr.score_pairs([(ref, dis)], split_frames=4, **kw))
    text, fps = run_cli(cli, cli_args(ref, dis, kw), "json")
    assert r.to_json(fps=fps) == text and r.aggregate


def test_worker_killed_mid_run(cluster, long_clip):
    """An actor dies (os._exit) in the middle of a pair: that pair is scored again, every pair comes back once."""
    cluster.write_text("die")
    items = pairs() + [long_clip]
    seen = []
    with vr.ScorerPool(num_actors=2) as pool:
        for i, r in pool.score_pairs(items, split_frames=8):
            seen.append(i)
            assert r.n_frames > 0
        assert pool.retried >= 1
    assert not cluster.exists()  # the hook fired
    assert sorted(seen) == list(range(len(items)))


def test_ray_errors(cluster, tmp_path):
    with pytest.raises(vmaf_exact.InputError, match="nope.y4m"):
        list(vr.score_pairs([(CLIPS / "astro176.ref.y4m", tmp_path / "nope.y4m")]))
    with pytest.raises(vmaf_exact.UsageError, match="unknown option colour"):
        list(vr.score_pairs([], colour="red"))
    with pytest.raises(vmaf_exact.UsageError, match=r"^split_frames -1: expected 0 \(no split\) or more$"):
        list(vr.score_pairs([], split_frames=-1))
    with pytest.raises(vmaf_exact.UsageError, match=r"^max_retries -1: expected 0 or more$"):
        list(vr.score_pairs([], max_retries=-1))
    with pytest.raises(vmaf_exact.UsageError, match=r"^num_actors 0: expected 1 or more$"):
        vr.ScorerPool(num_actors=0)
    with pytest.raises(vmaf_exact.UsageError, match=r"^max_in_flight 0: expected 1 or more$"):
        vr.ScorerPool(num_actors=1, max_in_flight=0)
    # A pair whose scorer keeps dying is given up after max_retries, with an error naming it.
    cluster.write_text("die")
    with pytest.raises(vmaf_exact.Error, match="life176__x264_crf30.dis.y4m: its scorer died on all 1 attempts"):
        list(vr.score_pairs([(CLIPS / "life176.ref.y4m", CLIPS / "life176__x264_crf30.dis.y4m")], max_retries=0))


def test_ladders_equal_score_ladder(cluster, tmp_path):
    # Two ladders, one task each: a half-size rendition (scaled back) and a
    # full-size one; a missing rendition comes back as its error, the others
    # are scored.
    from test_score import half_size
    ladders = [
        (CLIPS / "astro176.ref.y4m", [half_size(tmp_path), CLIPS / "astro176__x264_crf45.dis.y4m",
                                      tmp_path / "missing.y4m"]),
        (CLIPS / "coffee320.ref.y4m", [CLIPS / "coffee320__x264_crf30.dis.y4m"]),
    ]
    got = dict(vr.score_ladders(ladders, cpus_per_actor=1, features=["psnr"]))
    assert sorted(got) == [0, 1]
    for i, (ref, dis) in enumerate(ladders):
        alone = vmaf_exact.score_ladder(ref, dis, features=["psnr"], backend="cpu")
        assert len(got[i]) == len(dis)
        for a, b in zip(got[i], alone):
            if isinstance(b, vmaf_exact.Error):
                assert type(a) is type(b) and str(a) == str(b)
            else:
                assert a.to_json(fps=1) == b.to_json(fps=1)
    assert isinstance(got[0][2], vmaf_exact.InputError) and "missing.y4m" in str(got[0][2])
    with pytest.raises(vmaf_exact.UsageError, match="score_ladders: unknown option colour"):
        list(vr.score_ladders([], colour="red"))
