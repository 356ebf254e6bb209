#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The HTML report in headless Chromium, offline.

Makes a 48-frame clip pair (vmafx_mkclip), scores it with the CLI (--json with
--percentiles, and --html), and a ladder page of two renditions
(vmafx_html_ladder), opens each page in headless Chromium driven through the
DevTools protocol (--remote-debugging-pipe) with the network emulated offline,
and checks:
  - no console error, no exception, no blocked request (the page's CSP forbids
    every fetch: anything it tried to load would be an error);
  - the page rendered (its script ran, the chart was drawn);
  - every pooled number shown (mean, harmonic mean, min, max, percentiles) is
    the JSON report's number;
  - the chart has one point per scored frame for every series;
  - the worst frames shown are the N lowest vmaf frames of the JSON, in order,
    with their scores, and their thumbnails decoded;
  - hover shows a frame's values; dragging zooms in, double-click zooms out;
  - the ladder page's summary table holds each rendition's JSON numbers.
Screenshots are written to --out. Exit 77 (skip) only when no chromium binary
is found.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, file=sys.stderr)


class Browser:
    """Chromium over --remote-debugging-pipe: requests on fd 3, replies on fd 4, NUL-terminated JSON."""

    def __init__(self, binary, profile):
        cmd_r, self.cmd_w = os.pipe()
        self.res_r, res_w = os.pipe()

        def child():
            os.dup2(cmd_r, 3)
            os.dup2(res_w, 4)

        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check",
             "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>", "--allow-file-access-from-files",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child, close_fds=False)
        os.close(cmd_r)
        os.close(res_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def _read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.res_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, name, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            for i, e in enumerate(self.events):
                if e["method"] == name:
                    return self.events.pop(i)
            self.events.append(self._read())
        raise RuntimeError("timed out waiting for " + name)

    def open(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(domain + ".enable")
        self.send("Network.emulateNetworkConditions",
                  {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        self.events.clear()
        self.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("evaluate failed: " + json.dumps(r["exceptionDetails"])[:400])
        return r["result"].get("value")

    def errors(self):
        """Console errors, exceptions and error log entries seen so far."""
        self.send("Runtime.evaluate", {"expression": "1"})  # drain pending events
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
                out.append("console." + p["type"] + ": " + json.dumps(p.get("args"))[:300])
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                out.append("log: " + p["entry"].get("text", "")[:300])
            elif m == "Network.loadingFailed":
                out.append("request failed: " + json.dumps(p)[:300])
            elif m == "Network.requestWillBeSent" and not p.get("request", {}).get("url", "").startswith(("file:", "data:")):
                out.append("request: " + p["request"]["url"])
        return out

    def mouse(self, kind, x, y, clicks=0):
        self.send("Input.dispatchMouseEvent",
                  {"type": kind, "x": x, "y": y, "button": "left" if kind != "mouseMoved" else "none",
                   "clickCount": clicks})

    def screenshot(self, path):
        h = self.eval("Math.ceil(document.documentElement.scrollHeight)")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": int(h), "deviceScaleFactor": 1, "mobile": False})
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        return os.path.getsize(path)

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def frames_of(report):
    return {f["frameNum"]: f["metrics"] for f in report["frames"]}


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd) + " failed: " + r.stderr)
    return r


def banded(src, dst, step):
    """A worse rendition of a Y4M clip: every sample quantised to `step` (banding)."""
    table = bytes(min(255, (v // step) * step + step // 2) for v in range(256))
    with open(src, "rb") as f:
        data = f.read()
    head, rest = data.split(b"\n", 1)
    fields = {t[0]: t[1:] for t in head.decode().split()[1:]}
    w, h = int(fields["W"]), int(fields["H"])
    size = w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)
    out = [head + b"\n"]
    pos = 0
    while pos < len(rest):
        nl = rest.index(b"\n", pos)
        out.append(rest[pos:nl + 1])
        out.append(rest[nl + 1:nl + 1 + size].translate(table))
        pos = nl + 1 + size
    with open(dst, "wb") as f:
        f.write(b"".join(out))


def check_stats(b, report, rendition, percentiles):
    """Every number of the rendition's stats table equals the JSON's."""
    cells = b.eval(f"""Array.from(document.querySelectorAll('table.stats[data-rendition="{rendition}"] tr[data-series]'))
        .map(tr => [tr.dataset.series, Array.from(tr.querySelectorAll('td[data-stat]'))
        .map(td => [td.dataset.stat, td.textContent])])""")
    pooled = report["pooled_metrics"]
    check(sorted(c[0] for c in cells) == sorted(pooled), f"rendition {rendition}: table rows are the JSON's metrics")
    n = 0
    for name, stats in cells:
        for stat, text in stats:
            if stat.startswith("p") and stat not in percentiles:
                continue
            want = pooled[name][stat]
            check(float(text) == want, f"rendition {rendition}: {name} {stat} shown {text}, JSON {want}")
            n += 1
    check(n == len(pooled) * (4 + len(percentiles)), f"rendition {rendition}: {n} numbers compared")


def check_chart(b, report, rendition):
    pts = b.eval(f"""Object.fromEntries(Array.from(document.querySelectorAll(
        'polyline.series[data-rendition="{rendition}"]')).map(p => [p.dataset.series, p.points.numberOfItems]))""")
    frames = frames_of(report)
    check(len(pts) >= 1, f"rendition {rendition}: series drawn")
    for name, n in pts.items():
        want = sum(1 for m in frames.values() if m.get(name) is not None)
        check(n == want, f"rendition {rendition}: chart of {name} has {n} points, {want} frames scored")
    return pts


def check_worst(b, report, rendition, n, thumbs):
    frames = frames_of(report)
    want = sorted(frames, key=lambda i: (frames[i]["vmaf"], i))[:n]
    shown = b.eval(f"""Array.from(document.querySelectorAll('section.rendition[data-rendition="{rendition}"] .frame'))
        .map(d => [Number(d.dataset.frame), d.querySelector('.score').textContent,
                   Array.from(d.querySelectorAll('img.thumb')).map(i => [i.dataset.kind, i.complete, i.naturalWidth])])""")
    check([s[0] for s in shown] == want, f"rendition {rendition}: worst frames shown {[s[0] for s in shown]}, "
                                          f"JSON's worst {want}")
    for f, score, imgs in shown:
        check(float(score) == frames[f]["vmaf"], f"frame {f}: score shown {score}, JSON {frames[f]['vmaf']}")
        if thumbs:
            check([i[0] for i in imgs] == ["reference", "distorted", "difference"], f"frame {f}: three thumbnails")
            check(all(i[1] and i[2] > 0 for i in imgs), f"frame {f}: thumbnails decoded {imgs}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vmaf", required=True)
    ap.add_argument("--mkclip", required=True)
    ap.add_argument("--ladder", required=True)
    ap.add_argument("--seed", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: no chromium binary (apt-get install chromium)")
        return 77
    os.makedirs(args.out, exist_ok=True)
    o = lambda n: os.path.join(args.out, n)  # noqa: E731
    run([args.mkclip, args.seed, "320", "180", "8", "48", o("ref.y4m"), o("dis.y4m")])
    banded(o("dis.y4m"), o("dis2.y4m"), 12)
    pct = ["p1", "p5", "p10", "p50"]
    run([args.vmaf, "-r", o("ref.y4m"), "-d", o("dis.y4m"), "--json", "-o", o("single.json"), "--percentiles",
         "1,5,10,50", "--html", o("single.html"), "-q"])
    run([args.ladder, o("ref.y4m"), o("ladder.html"), o("ladder"), o("dis.y4m"), o("dis2.y4m")])
    report = json.load(open(o("single.json")))
    thumbs = "No thumbnails" not in open(o("single.html")).read()
    if not thumbs:
        check("need a build with FFmpeg's libavcodec" in open(o("single.html")).read(),
              "without thumbnails the page says why")

    with tempfile.TemporaryDirectory() as profile:
        b = Browser(chromium, profile)
        try:
            # The single page.
            b.open("file://" + os.path.abspath(o("single.html")))
            check(b.eval("document.body.dataset.ready") == "1", "the page's script ran")
            check_stats(b, report, 0, pct)
            pts = check_chart(b, report, 0)
            check(list(pts) == ["vmaf"], f"only the model is drawn at first: {list(pts)}")
            check_worst(b, report, 0, 6, thumbs)
            check(b.screenshot(o("single.png")) > 10000, "screenshot written")
            # Hover over the middle of the plot: the tooltip names a frame and vmaf.
            box = b.eval("(r => [r.left, r.top, r.width, r.height])(document.getElementById('chart').getBoundingClientRect())")
            b.eval("document.getElementById('chart').scrollIntoView()")
            box = b.eval("(r => [r.left, r.top, r.width, r.height])(document.getElementById('chart').getBoundingClientRect())")
            sx = box[2] / 1000.0
            px = lambda frame: box[0] + (58 + frame / 47.0 * (1000 - 58 - 14)) * sx  # noqa: E731
            cy = box[1] + box[3] / 2
            b.mouse("mouseMoved", px(20), cy)
            tip = b.eval("[getComputedStyle(document.getElementById('tip')).display, document.getElementById('tip').textContent]")
            frames = frames_of(report)
            check(tip[0] == "block", "hover shows the tooltip")
            check(tip[1].startswith("frame 20\n"), f"hover names frame 20: {tip[1]!r}")
            check(f"vmaf: {frames[20]['vmaf']:.6f}" in tip[1] or f"vmaf: {frames[20]['vmaf']}" in tip[1],
                  f"hover shows frame 20's vmaf: {tip[1]!r}")
            # Drag from frame 10 to 30: zoomed in; double-click: all again.
            b.mouse("mousePressed", px(10), cy, 1)
            b.mouse("mouseMoved", px(30), cy)
            b.mouse("mouseReleased", px(30), cy, 1)
            n_zoom = b.eval("document.querySelector('polyline.series').points.numberOfItems")
            check(20 <= n_zoom <= 24, f"zoomed to frames 10..30: {n_zoom} points")
            b.mouse("mousePressed", px(20), cy, 1)
            b.mouse("mouseReleased", px(20), cy, 1)
            b.mouse("mousePressed", px(20), cy, 2)
            b.mouse("mouseReleased", px(20), cy, 2)
            n_all = b.eval("document.querySelector('polyline.series').points.numberOfItems")
            check(n_all == len(frames), f"double-click zooms out: {n_all} points")
            # Turning a feature on draws it.
            b.eval("(c => { c.click(); })(document.querySelectorAll('#legend-more input')[0])")
            check(b.eval("document.querySelectorAll('polyline.series').length") == 2, "a feature turned on is drawn")
            errs = b.errors()
            check(not errs, "no console error, exception or request: " + "; ".join(errs))

            # The ladder page.
            reports = [json.load(open(o(f"ladder{r}.json"))) for r in range(2)]
            b.open("file://" + os.path.abspath(o("ladder.html")))
            check(b.eval("document.body.dataset.ready") == "1", "ladder: the page's script ran")
            rows = b.eval("""Array.from(document.querySelectorAll('#summary tr[data-rendition]')).map(tr =>
                [Number(tr.dataset.rendition), tr.dataset.series,
                 Object.fromEntries(Array.from(tr.querySelectorAll('td[data-stat]')).map(td => [td.dataset.stat, td.textContent]))])""")
            check(len(rows) == 2, f"ladder: one summary row per rendition: {len(rows)}")
            for r, name, stats in rows:
                for stat in ("mean", "harmonic_mean", "min"):
                    want = reports[r]["pooled_metrics"][name][stat]
                    check(float(stats[stat]) == want, f"ladder: rendition {r} {stat} shown {stats[stat]}, JSON {want}")
                # 1% low: the mean of the lowest ceil(n / 100) scores, added in ascending order
                vals = sorted(m[name] for m in frames_of(reports[r]).values())
                k = -(-len(vals) // 100)
                acc = 0.0
                for v in vals[:k]:
                    acc += v
                low1 = float(f"{acc / k:.6f}")
                check(float(stats["low1"]) == low1, f"ladder: rendition {r} 1% low shown {stats['low1']}, frames give {low1}")
            check(reports[1]["pooled_metrics"]["vmaf"]["mean"] != reports[0]["pooled_metrics"]["vmaf"]["mean"],
                  "ladder: the renditions differ")
            for r in range(2):
                check_stats(b, reports[r], r, ["p1"])
                check_chart(b, reports[r], r)
                check_worst(b, reports[r], r, 3, thumbs)
            check(b.screenshot(o("ladder.png")) > 10000, "ladder screenshot written")
            errs = b.errors()
            check(not errs, "ladder: no console error, exception or request: " + "; ".join(errs))
        finally:
            b.close()
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        return 1
    print("all checks passed; screenshots in " + args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
