#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Replays the golden set for one feature alone: every oracle run that wrote a
metric of FEATURE is rerun with its input arguments and `--feature FEATURE`
only (so a backend without twins of the run's other features can score it),
and each value of that feature is compared with libvmaf's, ==.

usage: golden-feature.py VMAF GOLDEN_DIR FEATURE METRIC_REGEX [extra vmaf args...]
  e.g. scripts/golden-feature.py build/tools/vmaf tests/data/golden cambi '^cambi' --backend opencl
Exit 0 only when every value is equal and every run succeeded."""
import json, os, re, subprocess, sys, tempfile

if len(sys.argv) < 5:
    sys.exit(__doc__)
vmaf, setdir, feature, metric = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3], re.compile(sys.argv[4])
extra = sys.argv[5:]
man = json.load(open(os.path.join(setdir, 'manifest.json')))
total = equal = errors = 0
for p in man['pairs']:
    for o in p.get('oracle', []):
        sp = o.get('scalar_path') or {}
        exp = sp['file'] if isinstance(sp, dict) and sp.get('identical') is False else o['file']
        want = json.load(open(os.path.join(setdir, exp)))
        if not any(metric.search(k) for f in want['frames'] for k in f['metrics']):
            continue
        args, i, argv = [], 1, o['argv']
        while i < len(argv):
            if argv[i] in ('--feature', '-o', '--model'):
                i += 2
                continue
            args.append(argv[i])
            i += 1
        with tempfile.TemporaryDirectory() as td:
            out = os.path.join(td, 'out.json')
            # the golden set was made on AMD (float_adm's division: tests/data/libvmaf_cpu)
            cmd = [vmaf] + args + ['-n', '--feature', feature, '-o', out, '--precision', 'max',
                                   '--libvmaf-cpu', 'amd'] + extra
            r = subprocess.run(cmd, cwd=setdir, capture_output=True, text=True)
            if r.returncode != 0:
                errors += 1
                print(f"ERROR {p['name']}/{o['run']}: {(r.stderr.strip().splitlines() or ['?'])[-1][:200]}")
                continue
            got = json.load(open(out))
        for fw, fg in zip(want['frames'], got['frames']):
            for k, v in fw['metrics'].items():
                if not metric.search(k):
                    continue
                total += 1
                if fg['metrics'].get(k, 'MISSING') == v:
                    equal += 1
                else:
                    print(f"DIFF {p['name']}/{o['run']} frame {fw['frameNum']} {k}: want {v!r} got {fg['metrics'].get(k, 'MISSING')!r}")
print(f"golden-feature {feature}: {equal}/{total} values equal, {errors} runs failed")
sys.exit(0 if total and equal == total and not errors else 1)
