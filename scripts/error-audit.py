#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Error-message audit (issues 16, 25): every error message of the sources has
a test that triggers it AND checks its text.

  scripts/error-audit.py [--log FILE] [--check] [--list] [--counts]

RULES (what a contributor adding an error message must do)

1. What is a message. Every place (file:line) of these is its own entry, even
   when two places have the same text:
   * error:  vmafx::Error(...) / Error(...) and the kind helpers of
     src/core/error.hpp (input_error, model_error, ...) and local fail(...) /
     bad(...) helpers, with a string literal in their arguments (src/, tools/,
     python/src/);
   * stderr: a "vmaf: ..." line the CLI prints to stderr (tools/), but the
     informational ones that NOT_ERRORS / NOT_ERRORS_RE list (add a new
     informational line there, and its printed form to LOG_NOT_ERRORS);
   * capi:   log(VMAF_LOG_LEVEL_ERROR, "...") of the C API (src/capi);
   * logic:  std::logic_error("...") guards (src/);
   * python: raise X("...") / raise X(f"...") in python/ (the package).
   A message is its literal text with the computed parts as wildcards, shown
   as "…" ("…: bad Y4M width '…'"); `c ? "A" : "B"` gives two messages.
   Wrappers that only add a prefix (path + ": " + what) are not messages.

2. Triggered. The test run is traced (tests/audit/error_trace.cpp, preloaded
   by scripts/test.sh; tests/python/conftest.py for Python raises): every
   vmafx::Error and std::logic_error thrown, every "vmaf: " stderr line, every
   "libvmaf ERROR" line of the C API, with the test and the program that made
   it. A place is triggered by a test when a logged message of its kind
   matches its text up to the end (wildcards match anything; a prefix such
   as "path: " is allowed, since wrappers add one; "write failed" is not
   matched by "write failed: No space left"). Places in a device folder or
   file (cuda, opencl) are triggered only by tests that name that backend
   (in the test's name or source); tools/ places only by the vmaf program;
   python/ places only by Python tests.

3. Checked. The triggering test must check the text: the message's longest
   literal piece, trimmed of spaces and punctuation at its ends (its
   "distinctive part", shown by --list), must appear inside a string literal
   of that test's source, or a string literal of that test must share at
   least 16 consecutive characters (or the distinctive part's length, and at
   least 8) with the message's literal text (so "two models are named 'vmaf'"
   checks "two models are named '…'; give one another name (name=...)").
   The test's source is: the TEST body (for TEST_P, the test's file, where
   its parameter tables are), the pytest function, or for a program run by
   ctest (C API client, scripts) the files PROGRAM_SOURCES names. So write
   the expected text (or at least the distinctive part) in the assertion:
   EXPECT_EQ(err.what(), "...full text...") or expect_error(..., "...").

4. Exemptions (scripts/error-audit-exempt.txt): one message a line,
   "FILE|TEXT<TAB>REASON": FILE a path (no wildcards), TEXT the message's
   text exactly as --list prints it (with …); every place of that text in
   that file is exempt. A reason is required. "log|REGEX<TAB>REASON" accepts
   logged messages composed outside a message call. A FILE rule that matches
   no place is an error.

--check fails when a place is neither checked nor exempt (NO TEST: never
triggered; UNCHECKED: triggered, but no triggering test has its text), when
a logged message matches no place (a stale audit), when a logged message is
not one line, and when the counts in docs/reliability.md (the block between
the "error-audit counts" markers, written by --counts) are not the current
ones.
"""
import argparse
import ast
import difflib
import fnmatch
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("src", "tools", "python/src")
EXTS = (".cpp", ".hpp", ".h", ".cu", ".cuh")
# Functions whose arguments form an error message.
CALL = re.compile(r"(?:(?<![\w.>:])|(?<=vmafx::))"
                  r"(Error|fail|bad|input_error|unsupported_error|model_error|device_error|output_error)\s*\(")
LOGIC = re.compile(r"logic_error\s*\(")
CAPI_LOG = re.compile(r"(?<![\w.>:])log\s*\(\s*VMAF_LOG_LEVEL_ERROR\s*,")
PYTHON_SOURCES = ("python/vmaf_exact",)
# Programs that ctest runs without a gtest filter (the trace names them), and
# the files that hold their checks.
PROGRAM_SOURCES = {
    "capi_test": ["tests/capi/capi_test.c", "tests/capi/check.sh", "tests/capi/errors.expected"],
    "capi_test_static": ["tests/capi/capi_test.c", "tests/capi/check.sh", "tests/capi/errors.expected"],
    "vmafx_capi_cuda_client": ["tests/capi/cuda_client.c"],
    "vmafx_nolibav_reader": ["tests/CMakeLists.txt"],
}
TEST_DIRS = ("tests",)
DEVICE_WORDS = ("cuda", "opencl")
# stderr lines of the CLI that are not errors.
NOT_ERRORS = ("vmaf: notice: ", "vmaf: %s\\n", "vmaf: %u frames in ", "vmaf: decode only: ")
# The same lines as printed.
# Informational "vmaf: PATH: ..." lines (formats, then as printed).
NOT_ERRORS_RE = re.compile(r"vmaf: %s: (sync offset |%u frames, %u worker threads)")
LOG_NOT_ERRORS = re.compile(r"vmaf: (notice: |\w+ backend on |\d+ frames in |decode only: |"
                            r".*: sync offset [-+]\d|.*: \d+ frames, \d+ worker threads)")
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
    """One place of one message text."""

    def __init__(self, parts, kind, place):
        self.parts = parts
        self.kind = kind
        self.place = place
        self.file = place.rsplit(":", 1)[0]
        self.text = "".join("…" if p is None else p for p in parts)
        body = ".*?".join(re.escape(p) for p in parts if p is not None)
        # Unanchored at the start (wrappers add "path: " prefixes), anchored
        # at the end: "…: write failed" is not matched by "x: write failed: …".
        self.regex = re.compile(body + ("" if parts[-1] is None else "$"), re.S)
        lits = [p for p in parts if p is not None]
        if kind == "stderr":  # the CLI's prefix is not the message's text
            lits = [re.sub(r"^vmaf: (error: )?", "", p) for p in lits]
        lits = [p.strip(" \t\n:;,.'\"()[]") for p in lits]
        self.distinctive = max(lits, key=len) if lits else ""
        self.triggered = set()  # tests that triggered it
        self.checked = set()  # of those, the tests whose source has its text
        self.exempt = None
        base = os.path.basename(self.file)
        self.device = next((w for w in DEVICE_WORDS if f"/{w}/" in self.file or w in base), None)

    def checks(self, lit):
        """Whether test literals (one a line) check this text: the distinctive
        part is in one, or one literal of at least 16 characters (or the
        distinctive part's length) is part of the message's literal text."""
        if self.distinctive and self.distinctive in lit:
            return True
        need = min(16, len(self.distinctive))
        pieces = [p for p in self.parts if p is not None]
        need = max(need, 8)
        for line in set(lit.split("\n")):
            if len(line) < need:
                continue
            for p in pieces:
                if len(p) < need:
                    continue
                m = difflib.SequenceMatcher(None, line, p, autojunk=False).find_longest_match(0, len(line), 0, len(p))
                if m.size >= need:
                    return True
        return False

    def literal_letters(self):
        return sum(ch.isalpha() for p in self.parts if p for ch in p)


def printf_parts(fmt):
    parts = []
    for chunk in re.split(r"(%[-+ #0-9.]*[a-z]+)", fmt):
        if not chunk:
            continue
        parts.append(None if chunk.startswith("%") else chunk)
    return parts


def split_args(text):
    """Top-level comma-separated arguments."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            j = skip_literal(text, i)
            cur += text[i:j]
            i = j
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur)
    return out


def printf_variants(fmt, rest):
    """printf_parts of fmt, where a %s filled by `c ? "A" : "B"` gives one
    message per branch."""
    args = split_args(rest)
    if args and not args[0].strip():
        args = args[1:]
    convs = re.findall(r"%[-+ #0-9.]*[a-z]+", fmt)
    variants = [fmt]
    for k, conv in enumerate(convs):
        alt = None
        if conv == "%s" and k < len(args):
            alt = re.fullmatch(r'\s*[^?]+\?\s*"([^"]*)"\s*:\s*"([^"]*)"\s*', args[k])
        nxt = []
        for v in variants:
            at = v.find(conv, 0)
            # the k-th conversion of the original is the first still in v
            at = re.search(r"%[-+ #0-9.]*[a-z]+", v.replace("%%", "\0\0"))
            head, tail = v[:at.start()], v[at.end():]
            if alt:
                nxt += [head + alt.group(1).replace("%", "%%") + tail, head + alt.group(2).replace("%", "%%") + tail]
            else:
                nxt.append(head + "\x01" + tail)
        variants = nxt
    out = []
    for v in variants:
        parts = [None if p == "\x01" else p.replace("%%", "%") for p in re.split("(\x01)", v) if p]
        out.append(parts)
    return out


def scan():
    """Every place of every message: a list of Message."""
    messages = []

    def add(parts, kind, place):
        parts = [p for p in parts if p != ""]
        if not parts:
            return
        m = Message(parts, kind, place)
        if m.literal_letters() < 3:
            return  # a wrapper: path + ": " + what
        messages.append(m)

    def calls(text, regex, kind, rel):
        for m in regex.finditer(text):
            open_at = m.end() - 1
            while text[open_at] != "(":
                open_at -= 1
            close_at = balanced(text, open_at)
            if close_at < 0:
                continue
            args = text[open_at + 1:close_at]
            if kind == "capi":
                args = args[args.index(",") + 1:]
            if '"' not in args:
                continue
            line = text.count("\n", 0, m.start()) + 1
            if kind == "capi":
                fm = re.match(r'\s*"((?:[^"\\]|\\.)*)"', args)
                if fm:
                    fmt = re.sub(r"\\(.)", lambda e: ESCAPES.get(e.group(1), e.group(1)), fm.group(1))
                    for parts in printf_variants(fmt, args[fm.end():]):
                        add(parts, kind, f"{rel}:{line}")
                continue
            for variant in expand_ternaries(args):
                add(pieces(variant), kind, f"{rel}:{line}")

    for top in SOURCES:
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if not f.endswith(EXTS):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)
                text = strip_comments(open(path, encoding="utf-8", errors="replace").read())
                calls(text, CALL, "error", rel)
                calls(text, LOGIC, "logic", rel)
                if rel.startswith("src/capi/"):
                    calls(text, CAPI_LOG, "capi", rel)
                if top == "tools":
                    for m in re.finditer(r"fprintf\s*\(\s*stderr\s*,", text):
                        close_at = balanced(text, text.index("(", m.start()))
                        args = text[m.end():close_at]
                        fm = re.match(r'\s*"((?:[^"\\]|\\.)*)"', args)
                        if (not fm or not fm.group(1).startswith("vmaf: ") or fm.group(1).startswith(NOT_ERRORS)
                                or NOT_ERRORS_RE.match(fm.group(1))):
                            continue
                        fmt = re.sub(r"\\(.)", lambda e: ESCAPES.get(e.group(1), e.group(1)), fm.group(1))
                        line = text.count("\n", 0, m.start()) + 1
                        # A "%s" filled from `cond ? "A" : "B"` is two messages.
                        alt = re.search(r'\?\s*"([^"]*)"\s*:\s*"([^"]*)"', args[fm.end():])
                        if alt and fmt.count("%") == 1:
                            for a in alt.groups():
                                add([fmt.replace("%s", a)], "stderr", f"{rel}:{line}")
                        else:
                            add(printf_parts(fmt), "stderr", f"{rel}:{line}")
    for top in PYTHON_SOURCES:
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if not f.endswith(".py"):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)
                for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
                    if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args):
                        continue
                    arg = node.exc.args[0]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        parts = [arg.value]
                    elif isinstance(arg, ast.JoinedStr):
                        parts = [v.value if isinstance(v, ast.Constant) else None for v in arg.values]
                        parts = [p for i, p in enumerate(parts) if p is not None or i == 0 or parts[i - 1] is not None]
                    else:
                        continue
                    add(parts, "python", f"{rel}:{node.lineno}")
    return messages


# ---- the tests' sources -----------------------------------------------------

TEST_MACRO = re.compile(r"^\s*(TEST|TEST_F|TEST_P|TYPED_TEST)\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)", re.M)
C_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def literals_of_c(text):
    """The string literals of C/C++ text, unescaped, adjacent ones joined."""
    out, prev_end, cur = [], -1, None
    for m in C_STRING.finditer(text):
        lit = re.sub(r"\\(.)", lambda e: ESCAPES.get(e.group(1), e.group(1)), m.group(1))
        if cur is not None and text[prev_end:m.start()].strip() == "":
            cur += lit
        else:
            if cur is not None:
                out.append(cur)
            cur = lit
        prev_end = m.end()
    if cur is not None:
        out.append(cur)
    return "\n".join(out)


def unregex(text):
    """pytest.raises(match=...) patterns: drop a backslash before a non-letter."""
    return re.sub(r"\\([^A-Za-z0-9])", r"\1", text)


class TestIndex:
    """Where each test's checks are: gtest TEST bodies, pytest functions,
    and the programs of PROGRAM_SOURCES; each as the text of its string
    literals."""

    def __init__(self):
        self.gtest = {}  # "Suite.Name" -> literal text
        self.gtest_raw = {}  # "Suite.Name" -> source text (for backend words)
        self.pytest = {}  # "file.py::name" -> literal text
        for top in TEST_DIRS:
            for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
                if "/data" in dirpath or "/corpus" in dirpath:
                    continue
                for f in sorted(files):
                    path = os.path.join(dirpath, f)
                    if f.endswith((".cpp", ".cu")):
                        self._gtest_file(path)
                    elif f.startswith("test_") and f.endswith(".py"):
                        self._pytest_file(path)

    def _gtest_file(self, path):
        text = strip_comments(open(path, encoding="utf-8", errors="replace").read())
        for m in TEST_MACRO.finditer(text):
            brace = text.find("{", m.end())
            depth, i = 0, brace
            while i < len(text):
                c = text[i]
                if c in "\"'":
                    i = skip_literal(text, i)
                    continue
                depth += c == "{"
                depth -= c == "}"
                if depth == 0:
                    break
                i += 1
            body = text[brace:i + 1]
            scope = text if m.group(1) == "TEST_P" else body
            key = f"{m.group(2)}.{m.group(3)}"
            self.gtest[key] = self.gtest.get(key, "") + literals_of_c(scope)
            self.gtest_raw[key] = self.gtest_raw.get(key, "") + scope

    def _pytest_file(self, path):
        src = open(path, encoding="utf-8").read()
        rel = os.path.basename(path)
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                lits = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
                self.pytest[f"{rel}::{node.name}"] = unregex("\n".join(lits)) + "\n" + "\n".join(lits)

    def sources(self, test, prog):
        """(literal text, raw text) of a logged test name."""
        if "::" in test:  # a pytest node id: path/test_x.py::test_name[param]
            f, _, name = test.partition("::")
            key = f"{os.path.basename(f)}::{name.split('[')[0]}"
            t = self.pytest.get(key, "")
            return t, t + " " + test
        if test in PROGRAM_SOURCES or prog in PROGRAM_SOURCES:
            files = PROGRAM_SOURCES.get(test) or PROGRAM_SOURCES[prog]
            t = "\n".join(literals_of_c(open(os.path.join(ROOT, f), encoding="utf-8").read()) if f.endswith(".c")
                          else open(os.path.join(ROOT, f), encoding="utf-8").read() for f in files)
            return t, t
        # a gtest filter: "Suite.Name", "Prefix/Suite.Name/param", or patterns
        lit, raw = [], [test]
        for pat in test.split("-")[0].split(":"):
            parts = pat.split("/")
            key = parts[1] if len(parts) == 3 else parts[0]
            if key in self.gtest:
                lit.append(self.gtest[key])
                raw.append(self.gtest_raw[key])
            elif "*" in pat or "?" in pat:
                for k in self.gtest:
                    if k.split(".")[0] in pat:
                        lit.append(self.gtest[k])
                        raw.append(self.gtest_raw[k])
        return "\n".join(lit), "\n".join(raw)


def load_exemptions(messages):
    path = os.path.join(ROOT, "scripts", "error-audit-exempt.txt")
    rules, problems = [], []
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        raw = raw.rstrip("\n")
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        where, _, reason = raw.partition("\t")
        file, _, text = where.partition("|")
        if not reason.strip() or not text:
            problems.append(f"error-audit-exempt.txt:{n}: a rule is FILE|TEXT<TAB>REASON, with a reason")
            continue
        if file != "log" and any(ch in file for ch in "*?["):
            problems.append(f"error-audit-exempt.txt:{n}: {file}: one file, no wildcards")
            continue
        rules.append([file, text, reason.strip(), 0])
    for m in messages:
        for r in rules:
            if r[0] != "log" and m.file == r[0] and m.text == r[1]:
                m.exempt = r[2]
                r[3] += 1
                break
    return rules, problems


KINDS = ("error", "stderr", "capi", "logic", "python")
LOG_KIND = {"error": "error", "stderr": "stderr", "capi": "capi", "logic": "logic", "pyraise": "python"}
COUNTS_BEGIN = "<!-- error-audit counts: begin (written by scripts/error-audit.py --counts) -->"
COUNTS_END = "<!-- error-audit counts: end -->"
COUNTS_DOC = os.path.join(ROOT, "docs", "reliability.md")


def counts_text(messages):
    n = {k: sum(m.kind == k for m in messages) for k in KINDS}
    texts = len({(m.kind, m.text) for m in messages})
    exempt = sum(bool(m.exempt) for m in messages)
    return (f"{len(messages)} error-message places ({texts} distinct texts): {n['error']} Error throws, "
            f"{n['stderr']} CLI stderr lines, {n['capi']} C API error logs, {n['logic']} logic_error guards, "
            f"{n['python']} Python raises; {exempt} exempt with a reason (scripts/error-audit-exempt.txt), "
            f"every other one triggered by a test that checks its text.")


def docs_counts():
    text = open(COUNTS_DOC, encoding="utf-8").read()
    if COUNTS_BEGIN not in text or COUNTS_END not in text:
        return None, text
    return text[text.index(COUNTS_BEGIN) + len(COUNTS_BEGIN):text.index(COUNTS_END)].strip(), text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log", default=os.path.join(ROOT, "build", "error-trace.log"),
                    help="trace of the test run (default: build/error-trace.log)")
    ap.add_argument("--check", action="store_true", help="exit 1 on a place neither checked nor exempt")
    ap.add_argument("--list", action="store_true", help="list every place with its tests")
    ap.add_argument("--counts", action="store_true", help="write the counts into docs/reliability.md")
    ap.add_argument("--no-python", action="store_true",
                    help="a run without the Python module (VMAFX_NO_PYTHON=1): leave out the places of python/")
    a = ap.parse_args()

    messages = scan()
    rules, problems = load_exemptions(messages)
    if a.counts:
        old, doc = docs_counts()
        if old is None:
            sys.exit(f"error-audit: {COUNTS_DOC}: no counts markers")
        i, j = doc.index(COUNTS_BEGIN) + len(COUNTS_BEGIN), doc.index(COUNTS_END)
        open(COUNTS_DOC, "w", encoding="utf-8").write(doc[:i] + "\n" + counts_text(messages) + "\n" + doc[j:])
        print(f"error-audit: wrote the counts into {os.path.relpath(COUNTS_DOC, ROOT)}")
        return
    if not os.path.exists(a.log):
        sys.exit(f"error-audit: {a.log}: no trace; run the tests through scripts/test.sh first")
    tests = TestIndex()
    by_kind = {k: [m for m in messages if m.kind == k] for k in KINDS}
    unmatched = {}
    seen = set()
    for raw in open(a.log, encoding="utf-8", errors="replace"):
        f = raw.rstrip("\n").split("\t", 3)
        if len(f) < 4:
            continue
        test, kind, prog, msg = f
        if (test, kind, prog, msg) in seen:
            continue
        seen.add((test, kind, prog, msg))
        msg = msg.replace("\\n", "\n").replace("\\\\", "\\")
        # A Python exception of another library passing through the package
        # (Ray's actor errors span lines) is not one of its messages.
        foreign = kind == "pyraise" and not any(m.regex.search(msg) for m in by_kind["python"])
        if kind in ("error", "capi", "pyraise") and not foreign and ("\n" in msg or not msg.strip()):
            problems.append(f"not one line: {msg!r} (test {test})")
        if kind == "stderr" and LOG_NOT_ERRORS.match(msg):
            continue
        hit = False
        for r in rules:
            if r[0] == "log" and re.match(r[1], msg):
                r[3] += 1
                hit = True
        lit, rawsrc = tests.sources(test, prog)
        low = rawsrc.lower()
        for m in by_kind.get(LOG_KIND.get(kind, ""), []):
            if not m.regex.search(msg):
                continue
            hit = True
            if m.device and m.device not in low:
                continue  # a device place: only tests of that backend
            if m.file.startswith("tools/") and prog != "vmaf":
                continue
            if m.file.startswith("python/") and "::" not in test:
                continue
            m.triggered.add(test)
            if m.checks(lit):
                m.checked.add(test)
        if not hit and kind == "capi":  # "%s: %s" of an Error's text: the Error was logged too
            hit = any(m.regex.search(msg) for m in by_kind["error"])
        if not hit and kind != "pyraise":  # a Python exception may be any, e.g. a KeyError
            unmatched.setdefault(msg, test)

    def state(m):
        return "checked" if m.checked else "EXEMPT" if m.exempt else "UNCHECKED" if m.triggered else "NO TEST"

    if a.list:
        for m in sorted(messages, key=lambda m: m.place):
            st = state(m)
            print(f"{st:9} {m.kind:6} {m.place:40} {m.text!r}")
            if st == "checked":
                print(f"{'':16} {'':40} by {', '.join(sorted(m.checked)[:3])}{' ...' if len(m.checked) > 3 else ''}")
            elif st == "EXEMPT":
                print(f"{'':16} {'':40} ({m.exempt})")
            elif st == "UNCHECKED":
                print(f"{'':16} {'':40} triggered by {', '.join(sorted(m.triggered)[:3])}; "
                      f"none has {m.distinctive!r} in a string literal")
    for msg, test in sorted(unmatched.items()):
        problems.append(f"a logged message matches no message of the sources (stale audit?): {msg!r} (test {test})")
    for r in rules:  # log rules depend on the build (CUDA, FFmpeg): not required to match
        if r[3] == 0 and r[0] != "log":
            problems.append(f"exemption matches nothing: {r[0]}|{r[1]}")
    old, _ = docs_counts()
    if old != counts_text(messages):
        problems.append("docs/reliability.md's error-audit counts are stale: run scripts/error-audit.py --counts")
    if a.no_python:
        left = [m for m in messages if m.file.startswith("python/") and state(m) in ("NO TEST", "UNCHECKED")]
        print(f"error-audit: --no-python: {len(left)} places of python/ left out (no Python tests in this run)")
        messages = [m for m in messages if m not in left]
    st = [state(m) for m in messages]
    unchecked = [m for m in messages if state(m) == "UNCHECKED"]
    missing = [m for m in messages if state(m) == "NO TEST"]
    print(f"error-audit: {len(messages)} places: {st.count('checked')} triggered and checked by a test, "
          f"{st.count('EXEMPT')} exempt, {len(unchecked)} triggered but unchecked, {len(missing)} without a test")
    for m in unchecked:
        print(f"  UNCHECKED  {m.place}: {m.text!r} (by {', '.join(sorted(m.triggered)[:2])}; "
              f"distinctive part {m.distinctive!r})")
    for m in missing:
        print(f"  NO TEST    {m.place}: {m.text!r}")
    for p in problems:
        print(f"  PROBLEM    {p}")
    if a.check and (missing or unchecked or problems):
        sys.exit(1)


if __name__ == "__main__":
    main()
