# SPDX-License-Identifier: BSD-3-Clause
"""vmaf-exact from Python: VMAF and its companion metrics, bit-exact with libvmaf 3.2.0.

    import vmaf_exact
    r = vmaf_exact.score("ref.y4m", "dis.y4m")
    print(r.pooled["vmaf"]["mean"], r.frames["vmaf"][:5])
    open("report.json", "w").write(r.to_json())   # the CLI's JSON, byte for byte

`Session` scores numpy planes as they come; `vmaf_exact.ray.score_pairs` scores
many pairs (and long clips in frame ranges) on a Ray cluster. Failures raise
`vmaf_exact.Error` (a subclass per kind) with the CLI's one-line message.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._core import (  # noqa: F401  (re-exported)
    DeviceError,
    Error,
    InputError,
    ModelError,
    OutputError,
    UnsupportedError,
    UsageError,
    available_backends,
    describe_features,
    list_devices,
)

__version__ = _core.version
libvmaf_version = _core.libvmaf_version

__all__ = [
    "score", "Session", "Result", "ModelSummary", "RangeContext", "Error", "UsageError", "InputError",
    "UnsupportedError", "ModelError", "DeviceError", "OutputError", "available_backends", "list_devices",
    "describe_features", "count_frames", "score_ladder",
]

POOL_METHODS = ("min", "max", "mean", "harmonic_mean")
PathLike = Union[str, "os.PathLike[str]"]


def _model_arg(m: str) -> str:
    # "vmaf_v0.6.1" is short for "version=vmaf_v0.6.1"; a .json path for "path=...".
    if "=" in m:
        return m
    if m.endswith(".json") or os.sep in m:
        return "path=" + m
    return "version=" + m


def _config(models, features, no_prediction, threads, subsample, backend, gpu, libvmaf_cpu):
    if isinstance(models, str) or isinstance(features, str):
        raise UsageError("models and features are lists of strings (got a single string)")
    models = [] if models is None else [_model_arg(str(m)) for m in models]
    features = [] if features is None else [str(f) for f in features]
    return _core.make_config(models, features, bool(no_prediction), int(threads), int(subsample), str(backend),
                             int(gpu), str(libvmaf_cpu))


def _raw(raw) -> Optional[Tuple[int, int, str, int]]:
    # raw=(width, height, pixel_format, bitdepth) or a dict with those keys.
    if raw is None:
        return None
    if isinstance(raw, dict):
        try:
            raw = (raw["width"], raw["height"], raw["pixel_format"], raw["bitdepth"])
        except KeyError as e:
            raise UsageError(f"raw format: missing {e.args[0]} (needs width, height, pixel_format, bitdepth)") from None
    if len(raw) != 4:
        raise UsageError("raw format: expected (width, height, pixel_format, bitdepth)")
    w, h, pf, b = raw
    return int(w), int(h), str(pf), int(b)


@dataclass(frozen=True)
class ModelSummary:
    """One model's pooled result as the CLI prints it (ci_* and stddev: bootstrap models only)."""
    name: str
    bootstrap: bool
    mean: float
    ci_lo: float = 0.0
    ci_hi: float = 0.0
    stddev: float = 0.0


@dataclass(frozen=True)
class RangeContext:
    """What scoring a clip in frame ranges needs (see Session::range_context in session.hpp)."""
    before: int
    after: int
    subsample: int
    unsplittable: str

    def first_frame(self, begin: int) -> int:
        f = begin - self.before if begin > self.before else 0
        return f - f % self.subsample if self.subsample > 1 else f


def _percentile_text(p) -> str:
    """A percentile as --percentiles writes it: 1, 99.9 (the C++ side checks the range and the decimals)."""
    if isinstance(p, str):
        return p
    if isinstance(p, int):
        return str(p)
    t = repr(float(p))
    return t[:-2] if t.endswith(".0") else t


@dataclass
class Result:
    """Scores of one (reference, distorted) pair.

    frames: per-frame scores by feature name (float64 arrays of length n_frames;
    NaN where a frame was not scored, e.g. with subsample). pooled: min, max,
    mean and harmonic_mean of each (libvmaf's pooling). models: the models'
    pooled results with their bootstrap collection intervals. aggregate:
    whole-clip metrics (e.g. apsnr). to_html(): the HTML report. to_json()/to_xml()/to_csv()/to_sub():
    the CLI's reports, byte for byte (fps aside: pass the CLI's fps to compare).
    """
    n_frames: int
    width: int
    height: int
    bpc: int
    chroma: str
    subsample: int
    fps: float
    seconds: float
    series: List[Tuple[str, np.ndarray, np.ndarray]]  # (name, values, written mask as uint8), libvmaf's order
    aggregate: List[Tuple[str, float]]
    model_names: List[Tuple[str, bool]]  # (name, bootstrap)
    threads: int = 0
    backend: str = ""
    notices: List[str] = field(default_factory=list)
    range_context: Optional[RangeContext] = None
    offset: int = 0  # score_ladder with sync="auto": the frame offset found (> 0: the distorted clip's extra frames)

    @classmethod
    def _from_core(cls, d) -> "Result":
        return cls(n_frames=d["frames"], width=d["width"], height=d["height"], bpc=d["bpc"], chroma=d["chroma"],
                   subsample=d["subsample"], fps=d["fps"], seconds=d["seconds"], series=list(d["series"]),
                   aggregate=list(d["aggregate"]), model_names=[(m[0], m[1]) for m in d["models"]],
                   threads=d["threads"], backend=d["backend"], notices=list(d["notices"]),
                   range_context=RangeContext(*d["range"]))

    @property
    def frames(self) -> Dict[str, np.ndarray]:
        out = {}
        for name, v, w in self.series:
            a = np.array(v, dtype=np.float64)
            a[w == 0] = np.nan
            out[name] = a
        return out

    def __getitem__(self, name: str) -> np.ndarray:
        for n, v, w in self.series:
            if n == name:
                a = np.array(v, dtype=np.float64)
                a[w == 0] = np.nan
                return a
        raise KeyError(name)

    @property
    def names(self) -> List[str]:
        return [n for n, _, _ in self.series]

    def pool(self, name: str, method: str = "mean") -> Optional[float]:
        """libvmaf's pooling of one feature (None if a scored frame lacks it)."""
        for n, v, w in self.series:
            if n == name:
                return _core.pool(n, v, w, method, self.n_frames, self.subsample)
        raise KeyError(name)

    @property
    def pooled(self) -> Dict[str, Dict[str, float]]:
        out = {}
        for n, v, w in self.series:
            d = {}
            for m in POOL_METHODS:
                x = _core.pool(n, v, w, m, self.n_frames, self.subsample)
                if x is not None:
                    d[m] = x
            out[n] = d
        return out

    @property
    def models(self) -> Dict[str, ModelSummary]:
        out = {}
        for name, boot in self.model_names:
            mean = self.pool(name) if name in self.names else None
            if mean is None:
                continue
            if boot:
                def get(s):
                    return self.pool(s) if s in self.names else None
                out[name] = ModelSummary(name, True, get(name + "_bagging") or 0.0, get(name + "_ci_p95_lo") or 0.0,
                                         get(name + "_ci_p95_hi") or 0.0, get(name + "_stddev") or 0.0)
            else:
                out[name] = ModelSummary(name, False, mean)
        return out

    @property
    def vmaf(self) -> Optional[float]:
        """The first model's pooled mean (the number the CLI prints first)."""
        ms = list(self.models.values())
        return ms[0].mean if ms else None

    def report(self, format: str = "xml", precision: Union[None, int, str] = None, fps: Optional[float] = None,
               percentiles: Optional[Sequence[float]] = None) -> str:
        """The CLI's report text: format xml, json, csv or sub; precision as --precision (None: libvmaf's rule,
        1..17, or "max"); fps: the number to print (default: this run's); percentiles: as --percentiles (pooled
        percentiles by nearest rank added to xml, json and csv; None: libvmaf's report byte for byte)."""
        digits = self._digits(precision)
        pct = ",".join(_percentile_text(p) for p in percentiles) if percentiles else ""
        return _core.report_text(format, self.series, self.aggregate, self.n_frames, self.subsample, self.width,
                                 self.height, self.fps if fps is None else float(fps), digits, pct)

    @staticmethod
    def _digits(precision) -> int:
        if precision is None:
            return 0
        if precision == "max":
            return 17
        try:
            digits = int(precision)
        except (TypeError, ValueError):
            raise UsageError(f"precision {precision}: expected 1..17 or max") from None
        if not 1 <= digits <= 17:
            raise UsageError(f"precision {precision}: expected 1..17 or max")
        return digits

    def to_html(self, ref: Optional[PathLike] = None, dis: Optional[PathLike] = None, worst: int = 6,
                percentiles: Optional[Sequence[float]] = None, precision: Union[None, int, str] = None,
                title: Optional[str] = None, skip_ref: int = 0, skip_dis: int = 0) -> str:
        """The HTML report (the CLI's --html): one self-contained page with the per-frame chart, pooled values,
        percentiles (nearest rank; 1, 5, 10, 50 and any in `percentiles`) and the `worst` lowest-scoring frames.
        With the clips' paths (`ref`, `dis`, and the frames skipped before the first scored one), the worst frames
        get thumbnails of the reference, the distorted frame and their difference. Write it with
        open(path, "w").write(result.to_html(...))."""
        digits = self._digits(precision)
        pct = ",".join(_percentile_text(p) for p in percentiles) if percentiles else ""
        return _core.html_text(self.series, self.aggregate, self.n_frames, self.subsample, self.width, self.height,
                               self.fps, digits, [n for n, _ in self.model_names], title or "", self.backend,
                               int(worst), pct, os.fspath(ref) if ref is not None else "",
                               os.fspath(dis) if dis is not None else "", int(skip_ref), int(skip_dis))

    def to_xml(self, precision=None, fps=None, percentiles=None) -> str:
        return self.report("xml", precision, fps, percentiles)

    def to_json(self, precision=None, fps=None, percentiles=None) -> str:
        return self.report("json", precision, fps, percentiles)

    def to_csv(self, precision=None, fps=None, percentiles=None) -> str:
        return self.report("csv", precision, fps, percentiles)

    def to_sub(self, precision=None, fps=None) -> str:
        return self.report("sub", precision, fps)

    def __repr__(self) -> str:
        ms = ", ".join(f"{m.name}={m.mean:.6f}" for m in self.models.values())
        return f"<vmaf_exact.Result {self.n_frames} frames {self.width}x{self.height} {ms}>"


def score(ref: PathLike, dis: PathLike, models: Optional[Sequence[str]] = ("vmaf_v0.6.1",),
          features: Sequence[str] = (), backend: str = "auto", threads: int = 0, *, subsample: int = 1,
          no_prediction: bool = False, gpu: int = 0, raw=None, frame_skip_ref: int = 0, frame_skip_dist: int = 0,
          frame_cnt: int = 0, scale: Optional[str] = None, libvmaf_cpu: str = "auto") -> Result:
    """Scores the distorted clip `dis` against `ref` as `vmaf -r ref -d dis ...` would.

    models: names ("vmaf_v0.6.1"), paths ("my.json") or --model strings
    ("version=vmaf_4k_v0.6.1:name=4k"); features: --feature strings ("psnr",
    "float_ssim=enable_lcs=true"); raw: (width, height, "420", bitdepth) for
    .yuv input; scale: libswscale flags for a distorted clip of another size or
    format (as `vmaf --scale`; None: the default bicubic); libvmaf_cpu: which
    libvmaf float_adm (and the vmaf_float_* models) equals, as the CLI's
    --libvmaf-cpu: "auto" (this machine's), "intel", "amd" or "generic". The
    GIL is released while scoring.
    """
    if no_prediction and models == ("vmaf_v0.6.1",):
        models = ()
    cfg = _config(models, features, no_prediction, threads, subsample, backend, gpu, libvmaf_cpu)
    d = _core.score_files(os.fspath(ref), os.fspath(dis), cfg, _raw(raw), int(frame_skip_ref), int(frame_skip_dist),
                          int(frame_cnt), scale or "")
    return Result._from_core(d)


_ERROR_KINDS = {c.kind: c for c in (UsageError, InputError, UnsupportedError, ModelError, DeviceError, OutputError)}


def score_ladder(ref: PathLike, dis: Sequence[PathLike], models: Optional[Sequence[str]] = ("vmaf_v0.6.1",),
                 features: Sequence[str] = (), backend: str = "auto", threads: int = 0, *, subsample: int = 1,
                 no_prediction: bool = False, gpu: int = 0, raw=None, frame_skip_ref: int = 0,
                 frame_skip_dist: int = 0, frame_cnt: int = 0, scale: Optional[str] = None, sync: str = "index",
                 sync_window: int = 30, shortest: bool = False,
                 libvmaf_cpu: str = "auto") -> List[Union[Result, Error]]:
    """Scores every rendition in `dis` against `ref`, read (decoded) once, as
    `vmaf -r ref -d dis[0] -d dis[1] ...` does.

    Returns one entry per rendition, in order: its Result (equal to score()'s
    for that rendition alone; `Result.offset` is the frame offset used), or the
    Error that stopped it (the other renditions are still scored). Renditions
    of another size or format are converted (scale: libswscale flags, None: the
    default bicubic); sync="auto" finds each rendition's frame offset within
    +-sync_window frames; libvmaf_cpu as for score(). Errors common to all (a
    bad model, an unreadable reference) raise. The GIL is released while
    scoring.
    """
    if isinstance(dis, (str, bytes)) or not isinstance(dis, Sequence):
        raise UsageError("score_ladder: dis is a list of distorted clips")
    if sync not in ("index", "auto"):
        raise UsageError(f"sync {sync}: expected index or auto")
    if no_prediction and models == ("vmaf_v0.6.1",):
        models = ()
    cfg = _config(models, features, no_prediction, threads, subsample, backend, gpu, libvmaf_cpu)
    out = _core.score_ladder_files(os.fspath(ref), [os.fspath(d) for d in dis], cfg, _raw(raw), int(frame_skip_ref),
                                   int(frame_skip_dist), int(frame_cnt), scale or "", sync == "auto",
                                   int(sync_window), bool(shortest))
    results: List[Union[Result, Error]] = []
    for item in out:
        if isinstance(item, tuple):
            kind, message = item
            results.append(_ERROR_KINDS.get(kind, Error)(message))
        else:
            r = Result._from_core(item)
            r.offset = int(item["offset"])
            results.append(r)
    return results


def count_frames(path: PathLike, raw=None) -> int:
    """Frames in a clip (reads it through)."""
    return _core.count_frames(os.fspath(path), _raw(raw))


def _probe(path: PathLike, raw=None) -> Tuple[int, int, int, str]:
    """(width, height, bitdepth, pixel_format) of a clip, from its header (or raw)."""
    return _core.probe(os.fspath(path), _raw(raw))


Plane = np.ndarray
Frame = Union[Plane, Sequence[Plane]]


class Session:
    """Scores frames handed over as numpy planes, one pair at a time.

        s = vmaf_exact.Session(1920, 1080, bitdepth=8, pixel_format="420")
        for y_u_v_ref, y_u_v_dis in frames:
            s.push(y_u_v_ref, y_u_v_dis)   # sequences of 2-D uint8/uint16 planes
        result = s.finish()

    Planes may be any strided views (they are read in place); a 4:0:0 session
    also takes a single 2-D array. push() and finish() release the GIL.
    """

    def __init__(self, width: int, height: int, bitdepth: int = 8, pixel_format: str = "420",
                 models: Optional[Sequence[str]] = ("vmaf_v0.6.1",), features: Sequence[str] = (),
                 backend: str = "auto", threads: int = 0, *, subsample: int = 1, no_prediction: bool = False,
                 gpu: int = 0, libvmaf_cpu: str = "auto"):
        if no_prediction and models == ("vmaf_v0.6.1",):
            models = ()
        cfg = _config(models, features, no_prediction, threads, subsample, backend, gpu, libvmaf_cpu)
        self._s = _core._Session(int(width), int(height), int(bitdepth), str(pixel_format), cfg)

    @staticmethod
    def _planes(f) -> List[np.ndarray]:
        if isinstance(f, np.ndarray) and f.ndim == 2:
            return [f]
        return list(f)

    def push(self, ref: Frame, dis: Frame) -> None:
        self._s.push(self._planes(ref), self._planes(dis))

    def finish(self) -> Result:
        return Result._from_core(self._s.finish())

    @property
    def frames(self) -> int:
        return self._s.frames

    @property
    def threads(self) -> int:
        return self._s.threads

    @property
    def backend(self) -> str:
        return self._s.backend

    @property
    def notices(self) -> List[str]:
        return list(self._s.notices)

    @property
    def range_context(self) -> RangeContext:
        return RangeContext(*self._s.range)
