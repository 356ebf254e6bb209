#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Score the golden set's oracle runs with only some extractors, on a device
backend, and compare every value they write with libvmaf's (==).

usage: golden-twins.py BIN GOLDEN_DIR --features float_vif,float_adm,float_motion --backend opencl

For each oracle run of GOLDEN_DIR/manifest.json that uses one of the
extractors, the run's command is replayed with its --feature arguments for
those extractors alone (models and other features dropped), on --backend,
and each value of the output is compared with the oracle's value of that name
(the plain C path's where libvmaf's SIMD path differs). Prints one line per
run and a summary; exit 0 only when every value is equal and none is missing.
"""
import argparse, json, math, os, subprocess, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument('bin')
ap.add_argument('setdir')
ap.add_argument('--features', required=True)
ap.add_argument('--backend', default='opencl')
ap.add_argument('--timeout', type=int, default=900)
a = ap.parse_args()
wanted = set(a.features.split(','))
man = json.load(open(os.path.join(a.setdir, 'manifest.json')))
total = same = runs = bad_runs = 0
for p in man['pairs']:
    for o in p.get('oracle', []):
        argv = list(o['argv'])
        keep, feats, i = [], [], 1
        while i < len(argv):
            x = argv[i]
            if x in ('--feature', '--model') and i + 1 < len(argv):
                if x == '--feature' and argv[i + 1].split('=', 1)[0] in wanted:
                    feats += [x, argv[i + 1]]
                i += 2
                continue
            keep.append(x)
            i += 1
        if not feats:
            continue
        sp = o.get('scalar_path') or {}
        exp_file = sp['file'] if isinstance(sp, dict) and sp.get('identical') is False else o['file']
        ref = json.load(open(os.path.join(a.setdir, exp_file)))
        runs += 1
        with tempfile.TemporaryDirectory() as td:
            out = os.path.join(td, 'out.json')
            # the golden set was made on AMD (float_adm's division: tests/data/libvmaf_cpu)
            cmd = [os.path.abspath(a.bin)] + keep + feats + ['--precision', 'max', '--backend', a.backend,
                                                             '--libvmaf-cpu', 'amd']
            if '-n' not in cmd:
                cmd.append('-n')
            cmd[cmd.index('-o') + 1] = out
            r = subprocess.run(cmd, cwd=a.setdir, capture_output=True, text=True, timeout=a.timeout)
            if r.returncode != 0:
                bad_runs += 1
                print(f"ERROR {p['name']}/{o['run']}: {(r.stderr.strip().splitlines() or ['?'])[-1][:200]}")
                continue
            mine = json.load(open(out))
        n = eq = 0
        worst = ''
        for fr, fm in zip(ref['frames'], mine['frames']):
            for k, w in fm['metrics'].items():
                n += 1
                v = fr['metrics'].get(k)
                if v is not None and (v == w or (isinstance(v, float) and math.isnan(v) and math.isnan(w))):
                    eq += 1
                elif v is None and w is None and k in fr['metrics']:
                    eq += 1  # null in both reports: a non-finite value (ciede2000 of identical clips is +inf)
                elif not worst:
                    worst = f"{k} frame {fm.get('frameNum')}: libvmaf {v!r} ours {w!r}"
        frames_ok = len(ref['frames']) == len(mine['frames'])
        total += n
        same += eq
        ok = n > 0 and eq == n and frames_ok
        bad_runs += 0 if ok else 1
        print(f"{'OK   ' if ok else 'DIFF '} {p['name']}/{o['run']}: {eq}/{n} values"
              + ('' if frames_ok else ' (frame count differs)') + (f"; first: {worst}" if worst else ''))
print(f"exact {same}/{total} values, {runs - bad_runs}/{runs} runs fully exact ({a.backend}: {a.features})")
sys.exit(0 if runs and bad_runs == 0 and same == total else 1)
