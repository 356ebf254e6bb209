#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares re-run oracle outputs with the libvmaf values written into tests.

  check_recorded.py float-variants DIR   (make/oracle-float-variants.sh OUT)
      tests/golden/float_features_golden_test.cpp, variants(): every name,
      every frame, and the names in libvmaf's order
  check_recorded.py unit DIR             (make/oracle-unit-adm-vif.sh OUT)
      tests/unit/adm_test.cpp kRecorded and tests/unit/vif_test.cpp kCases

The tables are read from the test sources themselves (their brace
initialisers parsed as literals), so what is checked is what the tests hold.
Numbers are compared with == as doubles. Exit status 1 on any difference.
"""
import ast
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[4]


def table(path, marker):
    """The brace initialiser that starts at the end of `marker`, as lists."""
    src = (ROOT / path).read_text()
    i = src.index(marker) + len(marker) - 1
    assert src[i] == "{", marker
    depth = 0
    for j in range(i, len(src)):
        depth += {"{": 1, "}": -1}.get(src[j], 0)
        if depth == 0:
            break
    body = re.sub(r"//[^\n]*", "", src[i:j + 1])
    body = re.sub(r"\b(\d+)u\b", r"\1", body)
    body = re.sub(r'(?<!")\btrue\b(?!")', "True", body)
    body = re.sub(r'(?<!")\bfalse\b(?!")', "False", body)
    return ast.literal_eval(body.replace("{", "[").replace("}", "]"))


def frames(path):
    return [f["metrics"] for f in json.loads(pathlib.Path(path).read_text())["frames"]]


class Tally:
    def __init__(self):
        self.equal = self.differ = 0

    def check(self, what, got, want):
        if got == want:
            self.equal += 1
        else:
            self.differ += 1
            print(f"{what}: libvmaf {got!r}, test {want!r}")


def float_variants(out):
    t = Tally()
    v = table("tests/golden/float_features_golden_test.cpp", "static const std::vector<Variant> v = {")
    for i, (pair, extractor, opts, values) in enumerate(v):
        fr = frames(f"{out}/{pair}.fv{i:02d}.json")
        names = [n for n, _ in values]
        t.check(f"variant {i} names", list(fr[0].keys()), names)
        for name, want in values:
            t.check(f"variant {i} {name} frame count", len(fr), len(want))
            for k, w in enumerate(want):
                t.check(f"variant {i} {name} frame {k}", fr[k].get(name) if k < len(fr) else None, w)
    return t, f"{len(v)} variants"


ADM_NAMES = ["integer_adm2", "integer_aim", "integer_adm3",
             "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3"]
VIF_NAMES = ["integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3",
             "integer_vif", "integer_vif_num", "integer_vif_den"] + [
             f"integer_vif_{nd}_scale{s}" for s in range(4) for nd in ("num", "den")]


def by_base(metrics, bases):
    """Values of `bases` in a frame whose names carry one option suffix
    (libvmaf appends e.g. _egl_1.2 to every name of an extractor)."""
    first = next(k for k in metrics if k.startswith(bases[0]))
    suffix = first[len(bases[0]):]
    return [metrics.get(b + suffix) for b in bases], len(metrics)


def unit(out):
    t = Tally()
    adm = table("tests/unit/adm_test.cpp", "const Recorded kRecorded[] = {")
    for i, (what, *_, want) in enumerate(adm):
        got, n = by_base(frames(f"{out}/adm{i:02d}.json")[0], ADM_NAMES)
        t.check(f"adm{i:02d} ({what}) score count", n, 7)
        for name, g, w in zip(ADM_NAMES, got, want):
            t.check(f"adm{i:02d} ({what}) {name}", g, w)
    vif = table("tests/unit/vif_test.cpp", "const Case kCases[] = {")
    for name, *_, want in vif:
        got, n = by_base(frames(f"{out}/{name}.json")[0], VIF_NAMES)
        t.check(f"vif {name} score count", n, 15)
        for vname, g, w in zip(VIF_NAMES, got, want):
            t.check(f"vif {name} {vname}", g, w)
    return t, f"{len(adm)} adm cases, {len(vif)} vif cases"


def main(a):
    if len(a) != 2 or a[0] not in ("float-variants", "unit"):
        sys.exit(__doc__)
    t, what = (float_variants if a[0] == "float-variants" else unit)(a[1])
    print(f"{what}: {t.equal} checks equal, {t.differ} differ")
    return 1 if t.differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
