# SPDX-License-Identifier: BSD-3-Clause
"""Scale-out on Ray: many (reference, distorted) pairs, and long clips in frame ranges, with the same bits.

    import ray, vmaf_exact.ray as vr
    ray.init()                                   # or ray.init(address="auto") on a cluster
    for i, result in vr.score_pairs([("a.y4m", "a_x264.y4m"), ("b.y4m", "b_av1.y4m")]):
        print(i, result.vmaf)                    # as they finish; same Result objects as vmaf_exact.score

Persistent scorer actors (one per GPU with gpus_per_actor=1, else one per
cpus_per_actor cores) take pairs from a queue. A pair whose actor died is
scored again on a fresh actor (every pair comes back exactly once). With
split_frames=N a clip longer than N frames is scored in ranges of N frames on
any actors: each range also scores the neighbour frames that temporal
features need (Session::range_context), keeps its own frames' scores, and the
gathered per-frame scores are pooled once in frame order, so the merged
Result (and its reports) equals one run over the whole clip, byte for byte.
The paths must be readable where the actors run (a shared file system).
"""
from __future__ import annotations

import collections
import os
import time
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

import vmaf_exact
from vmaf_exact import Result

__all__ = ["score_pairs", "score_ladders", "ScorerPool", "merge_ranges"]

_SCORE_KEYS = ("models", "features", "backend", "threads", "subsample", "no_prediction", "gpu", "raw",
               "frame_skip_ref", "frame_skip_dist", "frame_cnt", "scale", "libvmaf_cpu")
_LADDER_KEYS = _SCORE_KEYS + ("sync", "sync_window", "shortest")


def _ray():
    # Ray is imported when a pool starts: merge_ranges and the scorer itself work without it.
    try:
        import ray
    except ImportError as e:
        raise ImportError("vmaf_exact.ray needs Ray (pip install 'ray' or the package's [ray] extra)") from e
    return ray


def _maybe_die() -> None:
    # Test hook (tests/python/test_ray.py): the first scorer to find the file
    # named by VMAFX_RAY_TEST_DIE_FILE removes it and dies in the middle of a pair.
    f = os.environ.get("VMAFX_RAY_TEST_DIE_FILE")
    if f:
        try:
            os.remove(f)
        except OSError:
            return
        os._exit(1)


class _Scorer:
    """One persistent scorer (a Ray actor): the module imported once, clips read where it runs."""

    def __init__(self, backend: str, threads: int):
        self.backend = backend
        self.threads = threads

    def pid(self) -> int:
        return os.getpid()

    def _kw(self, kw: Dict[str, Any]) -> Dict[str, Any]:
        kw = dict(kw)
        kw.setdefault("backend", self.backend)
        kw.setdefault("threads", self.threads)
        return kw

    def score(self, ref: str, dis: str, kw: Dict[str, Any]):
        _maybe_die()
        try:
            return vmaf_exact.score(ref, dis, **self._kw(kw))
        except vmaf_exact.Error as e:
            return _Failure(type(e).__name__, str(e))

    def plan(self, ref: str, dis: str, kw: Dict[str, Any]):
        """(frames to score, RangeContext) of a pair, or None where it must be scored whole."""
        try:
            kw = self._kw(kw)
            raw = kw.get("raw")
            nr, nd = vmaf_exact.count_frames(ref, raw), vmaf_exact.count_frames(dis, raw)
            sr, sd, cnt = kw.get("frame_skip_ref", 0), kw.get("frame_skip_dist", 0), kw.get("frame_cnt", 0)
            if cnt:
                if nr - sr < cnt or nd - sd < cnt:
                    return None
                n = cnt
            else:
                if nr - sr != nd - sd or nr - sr <= 0:
                    return None  # the whole run gives the CLI's error
                n = nr - sr
            fmt = vmaf_exact._probe(ref, raw)
            models = kw.get("models", ("vmaf_v0.6.1",))
            s = vmaf_exact.Session(fmt[0], fmt[1], fmt[2], fmt[3], models=models, features=kw.get("features", ()),
                                   backend="cpu", threads=1, subsample=kw.get("subsample", 1),
                                   no_prediction=kw.get("no_prediction", False))
            return n, s.range_context
        except vmaf_exact.Error as e:
            return _Failure(type(e).__name__, str(e))

    def score_ladder(self, ref: str, dis: List[str], kw: Dict[str, Any]):
        """One ladder: the reference decoded once on this actor, a Result or a _Failure per rendition."""
        _maybe_die()
        try:
            out = vmaf_exact.score_ladder(ref, dis, **self._kw(kw))
        except vmaf_exact.Error as e:
            return _Failure(type(e).__name__, str(e))
        return [r if isinstance(r, Result) else _Failure(type(r).__name__, str(r)) for r in out]

    def score_range(self, ref: str, dis: str, kw: Dict[str, Any], first: int, count: int):
        kw = self._kw(kw)
        kw["frame_skip_ref"] = kw.get("frame_skip_ref", 0) + first
        kw["frame_skip_dist"] = kw.get("frame_skip_dist", 0) + first
        kw["frame_cnt"] = count
        _maybe_die()
        try:
            return vmaf_exact.score(ref, dis, **kw)
        except vmaf_exact.Error as e:
            return _Failure(type(e).__name__, str(e))


@dataclass
class _Failure:
    cls: str
    message: str

    def exception(self) -> Exception:
        return getattr(vmaf_exact, self.cls, vmaf_exact.Error)(self.message)


def _ranges(n: int, size: int) -> List[Tuple[int, int]]:
    return [(b, min(b + size, n)) for b in range(0, n, size)]


def merge_ranges(parts: Sequence[Tuple[int, int, int, Result]], n_frames: int) -> Result:
    """One Result from ranges scored apart: parts are (begin, end, first, result) where `result` scored clip frames
    first .. and covers [begin, end); the ranges tile [0, n_frames). Series keep the order of the range that starts
    at frame 0; each is the ranges' kept frames in frame order."""
    parts = sorted(parts, key=lambda p: p[0])
    if not parts or parts[0][0] != 0 or parts[-1][1] != n_frames or any(
            a[1] != b[0] for a, b in zip(parts, parts[1:])):
        raise vmaf_exact.UsageError("merge_ranges: the ranges do not tile the clip")
    names: List[str] = []
    for _, _, _, r in parts:
        for n in r.names:
            if n not in names:
                names.append(n)
    series = []
    for name in names:
        vs, ws = [], []
        for b, e, first, r in parts:
            lo, hi = b - first, e - first
            found = [(v, w) for nm, v, w in r.series if nm == name]
            if found:
                v, w = found[0]
                v = np.asarray(v)[lo:hi]
                w = np.asarray(w)[lo:hi]
                if len(v) < hi - lo:  # frames the range did not score
                    v = np.concatenate([v, np.zeros(hi - lo - len(v))])
                    w = np.concatenate([w, np.zeros(hi - lo - len(w), dtype=np.uint8)])
            else:
                v, w = np.zeros(hi - lo), np.zeros(hi - lo, dtype=np.uint8)
            vs.append(v)
            ws.append(w)
        series.append((name, np.ascontiguousarray(np.concatenate(vs), dtype=np.float64),
                       np.ascontiguousarray(np.concatenate(ws), dtype=np.uint8)))
    r0 = parts[0][3]
    secs = sum(p[3].seconds for p in parts)
    return Result(n_frames=n_frames, width=r0.width, height=r0.height, bpc=r0.bpc, chroma=r0.chroma,
                  subsample=r0.subsample, fps=n_frames / secs if secs > 0 else 0.0, seconds=secs, series=series,
                  aggregate=list(r0.aggregate), model_names=list(r0.model_names), threads=r0.threads,
                  backend=r0.backend, notices=list(r0.notices), range_context=r0.range_context)


def _check_options(score_kw: Dict[str, Any], split_frames: int, max_retries: int, what: str = "score_pairs",
                   keys: Sequence[str] = _SCORE_KEYS) -> None:
    for k in score_kw:
        if k not in keys:
            raise vmaf_exact.UsageError(f"{what}: unknown option {k} (expected one of {', '.join(keys)})")
    if split_frames < 0:
        raise vmaf_exact.UsageError(f"split_frames {split_frames}: expected 0 (no split) or more")
    if max_retries < 0:
        raise vmaf_exact.UsageError(f"max_retries {max_retries}: expected 0 or more")


@dataclass
class _Task:
    pair: int
    kind: str  # "score", "plan", "range"
    args: tuple
    attempts: int = 0


@dataclass
class _Pair:
    ref: str
    dis: Any  # a path; a list of paths for a ladder
    ranges: List[Tuple[int, int, int]] = field(default_factory=list)  # (begin, end, first)
    parts: List[Tuple[int, int, int, Result]] = field(default_factory=list)
    n_frames: int = 0


class ScorerPool:
    """Persistent scorer actors on the connected Ray cluster (ray.init first).

    num_actors: default one per GPU (gpus_per_actor > 0) or one per cpus_per_actor CPUs of the cluster.
    backend: default "cuda" for GPU actors, "cpu" otherwise; threads: default cpus_per_actor for CPU actors,
    0 (automatic) for GPU actors. max_in_flight: pairs queued on each actor (an actor scores one at a time; the
    next one queued means it never waits for the driver between pairs)."""

    def __init__(self, num_actors: Optional[int] = None, cpus_per_actor: float = 1, gpus_per_actor: float = 0,
                 backend: Optional[str] = None, threads: Optional[int] = None, max_in_flight: int = 2):
        ray = _ray()
        if not ray.is_initialized():
            ray.init()
        res = ray.cluster_resources()
        if num_actors is None:
            if gpus_per_actor:
                num_actors = int(res.get("GPU", 0) // gpus_per_actor)
            else:
                num_actors = int(res.get("CPU", 1) // max(cpus_per_actor, 1e-9))
            num_actors = max(num_actors, 1)
        if num_actors < 1:
            raise vmaf_exact.UsageError(f"num_actors {num_actors}: expected 1 or more")
        if max_in_flight < 1:
            raise vmaf_exact.UsageError(f"max_in_flight {max_in_flight}: expected 1 or more")
        self.backend = backend or ("cuda" if gpus_per_actor else "cpu")
        self.threads = threads if threads is not None else (0 if gpus_per_actor else max(int(cpus_per_actor), 1))
        self._cls = ray.remote(num_cpus=cpus_per_actor, num_gpus=gpus_per_actor, max_restarts=0)(_Scorer)
        self.max_in_flight = max_in_flight
        self.actors: List[Any] = [self._new_actor() for _ in range(num_actors)]
        self._inflight: Dict[Any, Tuple[_Task, Any]] = {}
        self.retried = 0  # tasks scored again after their actor died

    def _new_actor(self):
        return self._cls.remote(self.backend, self.threads)

    def busy_actors(self) -> List[Any]:
        """Actors with work in flight (tests kill one to check the retry)."""
        busy = {id(a) for _, a in self._inflight.values()}
        return [a for a in self.actors if id(a) in busy]

    def shutdown(self) -> None:
        ray = _ray()
        for a in self.actors:
            ray.kill(a)
        self.actors = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()

    def _submit(self, actor, t: _Task, kw):
        p = self._pairs[t.pair]
        if t.kind == "score":
            ref = actor.score.remote(p.ref, p.dis, kw)
        elif t.kind == "ladder":
            ref = actor.score_ladder.remote(p.ref, p.dis, kw)
        elif t.kind == "plan":
            ref = actor.plan.remote(p.ref, p.dis, kw)
        else:
            ref = actor.score_range.remote(p.ref, p.dis, kw, t.args[2], t.args[3])
        self._inflight[ref] = (t, actor)

    def score_pairs(self, pairs: Iterable[Tuple[Any, Any]], *, split_frames: int = 0, max_retries: int = 3,
                    **score_kw) -> Iterator[Tuple[int, Result]]:
        """Yields (index, Result) for every pair as it finishes (each exactly once). score_kw are
        vmaf_exact.score's keywords (models, features, subsample, raw, ...). A vmaf_exact.Error of a pair is
        raised when it comes back."""
        _check_options(score_kw, split_frames, max_retries)
        items = [_Pair(os.fspath(r), os.fspath(d)) for r, d in pairs]
        yield from self._run(items, "plan" if split_frames else "score", split_frames, max_retries, dict(score_kw))

    def score_ladders(self, ladders: Iterable[Tuple[Any, Sequence[Any]]], *, max_retries: int = 3,
                      **score_kw) -> Iterator[Tuple[int, List[Any]]]:
        """Yields (index, results) for every (ref, [dis, ...]) ladder as it finishes: each ladder is scored on one
        actor, its reference decoded once (vmaf_exact.score_ladder); results holds a Result or a vmaf_exact.Error per
        rendition. score_kw: score_ladder's keywords. An error of the whole ladder is raised when it comes back."""
        _check_options(score_kw, 0, max_retries, "score_ladders", _LADDER_KEYS)
        items = [_Pair(os.fspath(r), [os.fspath(d) for d in ds]) for r, ds in ladders]
        for i, out in self._run(items, "ladder", 0, max_retries, dict(score_kw)):
            yield i, [r.exception() if isinstance(r, _Failure) else r for r in out]

    def _run(self, items: List[_Pair], first_kind: str, split_frames: int, max_retries: int,
             kw: Dict[str, Any]) -> Iterator[Tuple[int, Any]]:
        ray = _ray()
        self._pairs = items
        self._inflight = {}  # what an abandoned earlier call left is not waited for
        queue: Deque[_Task] = collections.deque(_Task(i, first_kind, ()) for i in range(len(self._pairs)))
        done = 0
        load: Dict[int, int] = collections.defaultdict(int)
        while done < len(self._pairs):
            # Hand out work: the least loaded live actors first.
            while queue:
                actor = min(self.actors, key=lambda a: load[id(a)])
                if load[id(actor)] >= self.max_in_flight:
                    break
                t = queue.popleft()
                self._submit(actor, t, kw)
                load[id(actor)] += 1
            ready, _ = ray.wait(list(self._inflight), num_returns=1)
            ref = ready[0]
            t, actor = self._inflight.pop(ref)
            load[id(actor)] -= 1
            try:
                out = ray.get(ref)
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError,
                    ray.exceptions.ObjectLostError) as e:
                t.attempts += 1
                if t.attempts > max_retries:
                    raise vmaf_exact.Error(
                        f"{self._pairs[t.pair].dis}: its scorer died on all {t.attempts} attempts ({type(e).__name__})") from e
                self.retried += 1
                if actor in self.actors:  # replace the dead actor once
                    i = self.actors.index(actor)
                    self.actors[i] = self._new_actor()
                    load.pop(id(actor), None)
                queue.appendleft(t)
                continue
            if isinstance(out, _Failure):
                raise out.exception()
            p = self._pairs[t.pair]
            if t.kind in ("score", "ladder"):
                done += 1
                yield t.pair, out
            elif t.kind == "plan":
                if out is None or out[1].unsplittable or out[0] <= split_frames:
                    queue.append(_Task(t.pair, "score", ()))
                    continue
                n, rc = out
                p.n_frames = n
                for b, e in _ranges(n, split_frames):
                    first = rc.first_frame(b)
                    count = min(e + rc.after, n) - first
                    p.ranges.append((b, e, first))
                    queue.append(_Task(t.pair, "range", (b, e, first, count)))
            else:
                b, e, first, _ = t.args
                p.parts.append((b, e, first, out))
                if len(p.parts) == len(p.ranges):
                    done += 1
                    merged = merge_ranges(p.parts, p.n_frames)
                    p.parts = []
                    yield t.pair, merged


def score_pairs(pairs: Iterable[Tuple[Any, Any]], *, num_actors: Optional[int] = None, cpus_per_actor: float = 1,
                gpus_per_actor: float = 0, split_frames: int = 0, max_retries: int = 3,
                **score_kw) -> Iterator[Tuple[int, Result]]:
    """Scores every (ref, dis) pair on the Ray cluster, yielding (index, Result) as each finishes.

    One persistent actor per GPU (gpus_per_actor=1: backend "cuda") or per cpus_per_actor CPUs; split_frames=N
    scores clips longer than N frames in ranges on several actors, merged exactly; score_kw: vmaf_exact.score's
    keywords. The actors are shut down when the iterator ends."""
    _check_options({k: v for k, v in score_kw.items() if k not in ("backend", "threads")}, split_frames,
                   max_retries)
    with ScorerPool(num_actors, cpus_per_actor, gpus_per_actor, score_kw.pop("backend", None),
                    score_kw.pop("threads", None)) as pool:
        yield from pool.score_pairs(pairs, split_frames=split_frames, max_retries=max_retries, **score_kw)


def score_ladders(ladders: Iterable[Tuple[Any, Sequence[Any]]], *, num_actors: Optional[int] = None,
                  cpus_per_actor: float = 1, gpus_per_actor: float = 0, max_retries: int = 3,
                  **score_kw) -> Iterator[Tuple[int, List[Any]]]:
    """Scores every (ref, [dis, ...]) ladder on the Ray cluster, one ladder per task (its reference decoded once on
    the actor that scores it), yielding (index, [Result or vmaf_exact.Error per rendition]) as each finishes.
    score_kw: vmaf_exact.score_ladder's keywords (scale, sync, models, ...). The actors are shut down when the
    iterator ends."""
    _check_options({k: v for k, v in score_kw.items() if k not in ("backend", "threads")}, 0, max_retries,
                   "score_ladders", _LADDER_KEYS)
    with ScorerPool(num_actors, cpus_per_actor, gpus_per_actor, score_kw.pop("backend", None),
                    score_kw.pop("threads", None)) as pool:
        yield from pool.score_ladders(ladders, max_retries=max_retries, **score_kw)
