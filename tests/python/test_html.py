# SPDX-License-Identifier: BSD-3-Clause
"""Result.to_html() and the percentiles of Result.report() against the CLI."""
import re

import pytest

import vmaf_exact
from conftest import CLIPS, run_cli

REF, DIS = CLIPS / "chelsea352.ref.y4m", CLIPS / "chelsea352__gblur1.5.dis.y4m"


@pytest.fixture(scope="module")
def result():
    return vmaf_exact.score(REF, DIS, threads=1)


@pytest.mark.parametrize("fmt", ["json", "xml", "csv"])
def test_percentiles_equal_cli(cli, result, fmt):
    text, fps = run_cli(cli, ["-r", REF, "-d", DIS, "--percentiles", "1,5,99.9"], fmt)
    assert result.report(fmt, fps=fps, percentiles=[1, "5", 99.9]) == text
    assert "p99.9" in text
    plain, fps = run_cli(cli, ["-r", REF, "-d", DIS], fmt)
    assert result.report(fmt, fps=fps) == plain


def test_percentile_errors(result):
    with pytest.raises(vmaf_exact.UsageError, match=r"^percentile '101': expected a number from 0 to 100"):
        result.to_json(percentiles=[101])
    with pytest.raises(vmaf_exact.UsageError, match=r"^percentile 5 is given twice$"):
        result.to_html(percentiles=[5, 5])
    with pytest.raises(vmaf_exact.UsageError, match=r"^worst -1: expected 0 or more$"):
        result.to_html(worst=-1)
    with pytest.raises(vmaf_exact.UsageError, match=r"^skip_ref/skip_dis: expected 0 or more$"):
        result.to_html(ref=REF, dis=DIS, skip_dis=-2)
    # The module's own guard behind the package's, for a caller of _core itself.
    with pytest.raises(vmaf_exact.Error, match=r"^precision 18: expected 1\.\.17 or max$"):
        vmaf_exact._core.html_text(result.series, result.aggregate, result.n_frames, result.subsample, result.width,
                                   result.height, result.fps, 18, [], "", "cpu", 6, "", "", "", 0, 0)


def test_to_html(result):
    page = result.to_html(worst=2, percentiles=[99])
    assert page.startswith("<!DOCTYPE html>")
    # The pooled numbers of the table are the report's.
    for name, pooled in result.pooled.items():
        for stat, v in pooled.items():
            m = re.search(rf'<tr[^>]* data-series="{name}">.*?<td data-stat="{stat}">([^<]*)</td>', page)
            assert m and float(m.group(1)) == float(f"{v:.6f}"), (name, stat)
    assert '<td data-stat="p99">' in page
    # The two worst frames by vmaf, lowest first; no thumbnails without the clips' paths.
    v = result["vmaf"]
    worst = sorted(range(len(v)), key=lambda i: (v[i], i))[:2]
    assert [int(f) for f in re.findall(r'class="frame" data-frame="(\d+)"', page)] == worst
    assert "<img" not in page and "could not be read a second time" in page


def test_to_html_thumbnails(result):
    page = result.to_html(ref=REF, dis=DIS, worst=3)
    if "need a build with FFmpeg's libavcodec" in page:
        pytest.skip("this build has no libavcodec image encoder")
    assert page.count('<img class="thumb"') == 9
    assert "No thumbnails" not in page
    # Skipping past the clip's end: a note, no thumbnails.
    page = result.to_html(ref=REF, dis=DIS, worst=3, skip_ref=2)
    assert "ended before frame" in page and "<img" not in page
