#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Error-message audit (issue 16): every distinct error message in src/ and
tools/, and the tests that trigger it.

  scripts/error-audit.py [--log FILE] [--check] [--list]

Messages are read from the sources: every Error(...) construction, every
call of the kind helpers of src/core/error.hpp (input_error(...), model_error(...),
...) and of a local fail(...)/bad(...) helper that has a string literal in its
arguments, and every line the CLI prints to stderr as "vmaf: ..." that is
an error. A message is its literal text with the computed parts as wildcards
("…: bad Y4M width '…'"); the same text at several places is one message.
Wrappers that only add a prefix (path + ": " + what) are not messages.

Which test triggers which message is not guessed from the test sources: the
test run is traced (tests/audit/error_trace.cpp, preloaded by
scripts/test.sh), which logs every vmafx::Error thrown and every "vmaf: "
line printed, with the test that ran it. A message is triggered by a test
when a logged message matches it. Messages that no test can trigger here
(a CUDA device, an OpenCL driver failure) are listed with the reason in
scripts/error-audit-exempt.txt; --check fails when any other message has no
test, when a logged message matches no message of the sources, or when a
logged message is not one line.
"""
import argparse
import fnmatch
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("src", "tools", "python/src")
EXTS = (".cpp", ".hpp", ".h", ".cu", ".cuh")
# Functions whose arguments form an error message.
CALL = re.compile(r"(?<![\w.>:])(Error|fail|bad|input_error|unsupported_error|model_error|device_error|output_error)\s*\(")
# stderr lines of the CLI that are not errors.
NOT_ERRORS = ("vmaf: notice: ", "vmaf: %s\\n", "vmaf: %u frames in ")
# The same lines as printed.
LOG_NOT_ERRORS = re.compile(r"vmaf: (notice: |\w+ backend on |\d+ frames in )")
ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0", "r": "\r"}


def strip_comments(text):
    """Blanks out comments, keeping string literals and line numbers."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def balanced(text, start):
    """text[start] == '('; returns the index of its ')'."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < len(text) and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def skip_literal(text, i):
    """text[i] opens a string or character literal; returns the index after it."""
    j = i + 1
    while j < len(text) and text[j] != text[i]:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def expand_ternaries(args):
    """`(c ? "A" + x : "B")` gives two messages: one per branch."""
    i, stack = 0, []
    while i < len(args):
        c = args[i]
        if c in "\"'":
            i = skip_literal(args, i)
            continue
        if c == "(":
            stack.append(i)
        elif c == ")" and stack:
            stack.pop()
        elif c == "?":
            lo = stack[-1] if stack else -1
            depth, j, colon = 0, i + 1, -1
            while j < len(args):
                d = args[j]
                if d in "\"'":
                    j = skip_literal(args, j)
                    continue
                if d == "(":
                    depth += 1
                elif d == ")":
                    if depth == 0:
                        break
                    depth -= 1
                elif d == ":" and depth == 0:
                    if args[j + 1:j + 2] == ":":
                        j += 2
                        continue
                    if colon < 0:
                        colon = j
                j += 1
            hi = j  # the group's ')' or the end
            if colon < 0:
                return [args]
            head, tail = args[:lo + 1], args[hi:]
            yes, no = args[i + 1:colon], args[colon + 1:hi]
            letters = lambda t: sum(ch.isalpha() for p in pieces(t) if p for ch in p)
            if letters(yes) < 3 and letters(no) < 3:  # a plural "s": one message
                return expand_ternaries(head + " x " + tail)
            return expand_ternaries(head + yes + tail) + expand_ternaries(head + no + tail)
        i += 1
    return [args]


def pieces(args):
    """Splits argument text into literal strings and wildcards (None)."""
    out, i = [], 0
    code = ""
    while i < len(args):
        c = args[i]
        if c == '"' and not re.search(r"[\w)]'$", code[-2:] if code else ""):
            if code.strip(" \t\n+,"):
                out.append(None)
            code = ""
            j, lit = i + 1, []
            while args[j] != '"':
                if args[j] == "\\":
                    lit.append(ESCAPES.get(args[j + 1], args[j + 1]))
                    j += 2
                else:
                    lit.append(args[j])
                    j += 1
            if out and isinstance(out[-1], str):
                out[-1] += "".join(lit)  # "a" "b" is one literal
            else:
                out.append("".join(lit))
            i = j + 1
        else:
            code += c
            i += 1
    if code.strip(" \t\n+,;"):
        out.append(None)
    # collapse wildcards
    res = []
    for p in out:
        if p is None and res and res[-1] is None:
            continue
        res.append(p)
    return res


class Message:
    def __init__(self, parts):
        self.parts = parts
        self.text = "".join("…" if p is None else p for p in parts)
        self.regex = re.compile(".*?".join(re.escape(p) for p in parts if p is not None), re.S)
        self.places = []
        self.tests = set()
        self.exempt = None

    def literal_letters(self):
        return sum(ch.isalpha() for p in self.parts if p for ch in p)


def printf_parts(fmt):
    parts = []
    for chunk in re.split(r"(%[-+ #0-9.]*[a-z]+)", fmt):
        if not chunk:
            continue
        parts.append(None if chunk.startswith("%") else chunk)
    return parts


def scan():
    messages = {}

    def add(parts, place):
        parts = [p for p in parts if p != ""]
        m = Message(parts)
        if m.literal_letters() < 3:
            return  # a wrapper: path + ": " + what
        messages.setdefault(m.text, m).places.append(place)

    for top in SOURCES:
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if not f.endswith(EXTS):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)
                text = strip_comments(open(path, encoding="utf-8", errors="replace").read())
                for m in CALL.finditer(text):
                    open_at = m.end() - 1
                    close_at = balanced(text, open_at)
                    if close_at < 0:
                        continue
                    args = text[open_at + 1:close_at]
                    if '"' not in args:
                        continue
                    line = text.count("\n", 0, m.start()) + 1
                    for variant in expand_ternaries(args):
                        add(pieces(variant), f"{rel}:{line}")
                if top == "tools":
                    for m in re.finditer(r"fprintf\s*\(\s*stderr\s*,", text):
                        close_at = balanced(text, text.index("(", m.start()))
                        args = text[m.end():close_at]
                        fm = re.match(r'\s*"((?:[^"\\]|\\.)*)"', args)
                        if not fm or not fm.group(1).startswith("vmaf: ") or fm.group(1).startswith(NOT_ERRORS):
                            continue
                        fmt = re.sub(r"\\(.)", lambda e: ESCAPES.get(e.group(1), e.group(1)), fm.group(1))
                        line = text.count("\n", 0, m.start()) + 1
                        # A "%s" filled from `cond ? "A" : "B"` is two messages.
                        alt = re.search(r'\?\s*"([^"]*)"\s*:\s*"([^"]*)"', args[fm.end():])
                        if alt and fmt.count("%") == 1:
                            for a in alt.groups():
                                add([fmt.replace("%s", a)], f"{rel}:{line}")
                        else:
                            add(printf_parts(fmt), f"{rel}:{line}")
    return messages


def load_exemptions(messages):
    path = os.path.join(ROOT, "scripts", "error-audit-exempt.txt")
    rules = []
    for raw in open(path, encoding="utf-8"):
        raw = raw.rstrip("\n")
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        where, _, reason = raw.partition("\t")
        file_glob, _, needle = where.partition("|")
        rules.append([file_glob, needle, reason.strip(), 0])
    for m in messages.values():
        for r in rules:
            if r[0] == "log":
                continue
            text_ok = m.text == r[1][1:] if r[1].startswith("=") else r[1] in m.text
            if all(fnmatch.fnmatch(p.rsplit(":", 1)[0], r[0]) for p in m.places) and text_ok:
                m.exempt = r[2]
                r[3] += 1
                break
    return rules


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log", default=os.path.join(ROOT, "build", "error-trace.log"),
                    help="trace of the test run (default: build/error-trace.log)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a message has no test")
    ap.add_argument("--list", action="store_true", help="list every message with its tests")
    a = ap.parse_args()

    messages = scan()
    rules = load_exemptions(messages)
    problems = []
    if not os.path.exists(a.log):
        sys.exit(f"error-audit: {a.log}: no trace; run the tests through scripts/test.sh first")
    unmatched = {}
    for raw in open(a.log, encoding="utf-8", errors="replace"):
        test, kind, msg = (raw.rstrip("\n").split("\t", 2) + ["", ""])[:3]
        msg = msg.replace("\\n", "\n").replace("\\\\", "\\")
        if kind == "error" and ("\n" in msg or not msg.strip()):
            problems.append(f"not one line: {msg!r} (test {test})")
        if kind == "stderr" and LOG_NOT_ERRORS.match(msg):
            continue
        hit = False
        for m in messages.values():
            if m.regex.search(msg) and (kind == "stderr") == m.text.startswith("vmaf: "):
                m.tests.add(test)
                hit = True
        for r in rules:
            if r[0] == "log" and re.match(r[1], msg):
                r[3] += 1
                hit = True
        if not hit:
            unmatched.setdefault(msg, test)

    total = len(messages)
    exempt = [m for m in messages.values() if m.exempt]
    tested = [m for m in messages.values() if m.tests]
    missing = [m for m in messages.values() if not m.tests and not m.exempt]
    if a.list:
        for m in sorted(messages.values(), key=lambda m: m.places[0]):
            state = "tested" if m.tests else "EXEMPT" if m.exempt else "NO TEST"
            print(f"{state:8} {m.places[0]:34} {m.text!r}")
            if m.tests:
                print(f"{'':8} {'':34} by {', '.join(sorted(m.tests)[:3])}{' ...' if len(m.tests) > 3 else ''}")
            elif m.exempt:
                print(f"{'':8} {'':34} ({m.exempt})")
    for msg, test in sorted(unmatched.items()):
        problems.append(f"a logged message matches no message of the sources (stale audit?): {msg!r} (test {test})")
    for r in rules:
        if r[3] == 0 and r[0] != "log":
            problems.append(f"exemption matches no message: {r[0]}|{r[1]}")
    print(f"error-audit: {total} distinct messages: {len(tested)} triggered by a test, "
          f"{len([m for m in exempt if not m.tests])} exempt (untestable here), {len(missing)} without a test")
    for m in missing:
        print(f"  NO TEST  {m.places[0]}: {m.text!r}")
    for p in problems:
        print(f"  PROBLEM  {p}")
    if a.check and (missing or problems):
        sys.exit(1)


if __name__ == "__main__":
    main()
