#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares re-run oracle JSON files with the committed ones.

  compare_oracle.py DIR [DIR ...]

For every DIR/NAME.json, compares it with oracle/NAME.json of this set:
parsed as JSON (Python's float parsing is correctly rounded, so each %.17g
number is the oracle's exact double), the top-level "fps" dropped, then
compared with == (null stays null; key order is checked too). Also says
whether the files are byte-identical apart from the "fps" line. Exit status
1 if any file differs or has no committed counterpart.
"""
import json
import pathlib
import re
import sys

SET = pathlib.Path(__file__).resolve().parent.parent


def load(p):
    text = p.read_text()
    data = json.loads(text)
    data.pop("fps", None)
    return data, re.sub(r'^  "fps": [^\n]*\n', "", text, flags=re.M)


def count_scores(run):
    """Per-frame scores, pooled values and aggregate values (nulls included)."""
    n = sum(len(f["metrics"]) for f in run.get("frames", []))
    n += sum(len(p) for p in run.get("pooled_metrics", {}).values())
    return n + len(run.get("aggregate_metrics", {}))


def keys_in_order(x):
    if isinstance(x, dict):
        return [(k, keys_in_order(v)) for k, v in x.items()]
    if isinstance(x, list):
        return [keys_in_order(v) for v in x]
    return None


def main(dirs):
    bad = files = numbers = same_bytes = 0
    for d in dirs:
        for got_path in sorted(pathlib.Path(d).glob("*.json")):
            want_path = SET / "oracle" / got_path.name
            files += 1
            if not want_path.exists():
                print(f"{got_path.name}: no committed oracle/{got_path.name}")
                bad += 1
                continue
            got, got_text = load(got_path)
            want, want_text = load(want_path)
            ok = got == want and keys_in_order(got) == keys_in_order(want)
            numbers += count_scores(want)
            same_bytes += got_text == want_text
            if not ok:
                bad += 1
                print(f"{got_path.name}: DIFFERS")
    print(f"{files} files, {files - bad} equal (== on {numbers} scores, fps ignored), "
          f"{same_bytes} byte-identical apart from fps, {bad} differ")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
