#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Regenerates tests/data/speed/<pair>.json from a libvmaf 3.2.0 `vmaf` CLI.

Usage: regenerate.py /path/to/libvmaf-3.2.0/tools/vmaf [--check] [EXTRA_ARG...]

--check compares the binary's output with the stored files instead of
writing them (exit 1 on any difference); EXTRA_ARGs go to every command
(e.g. --cpumask 255 for a libvmaf built with its SIMD paths, which this
turns off). README.md in this folder says which binaries produced and
reproduced the files.

The binary must be libvmaf 3.2.0 (commit f85a8536) built with its plain C
path (no asm: `meson setup -Denable_asm=false ...`) and with the output
formats changed to "%.17g" (the change tests/data/golden/make/setup_oracle.sh makes), so
that every number it prints is the exact double it computed. This script
only runs that binary on the golden clips (tests/data/golden/clips) with the
command lines listed below and stores its JSON output (without "version" and
"fps") or, when it fails (libvmaf crashes on too-small planes and on
speed_temporal with speed_prescale > 1), its exit status.
"""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, '..', 'golden')
MODEL = 'speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45.0'
FEATURE_RUNS = [
    ('chroma', 'speed_chroma'),
    ('chroma_model', 'speed_chroma=' + MODEL),
    ('chroma_ps05_bilinear', 'speed_chroma=' + MODEL + ':speed_prescale=0.5:speed_prescale_method=bilinear'),
    ('chroma_ps06_bilinear', 'speed_chroma=' + MODEL + ':speed_prescale=0.6:speed_prescale_method=bilinear'),
    ('chroma_ps2_nearest', 'speed_chroma=speed_prescale=2.0'),
    ('chroma_ps15_bicubic', 'speed_chroma=speed_prescale=1.5:speed_prescale_method=bicubic'),
    ('chroma_ps07_lanczos4', 'speed_chroma=speed_prescale=0.7:speed_prescale_method=lanczos4'),
    ('chroma_ks2', 'speed_chroma=speed_kernelscale=2.0'),
    ('chroma_ks05', 'speed_chroma=speed_kernelscale=0.5'),
    ('chroma_wvm1', 'speed_chroma=speed_weight_var_mode=1'),
    ('chroma_wvm2', 'speed_chroma=speed_weight_var_mode=2'),
    ('chroma_wvm3', 'speed_chroma=speed_weight_var_mode=3'),
    ('chroma_wvm4', 'speed_chroma=speed_weight_var_mode=4'),
    ('chroma_wvm6', 'speed_chroma=speed_weight_var_mode=6'),
    ('chroma_mxv1', 'speed_chroma=speed_max_val=1.0:speed_sigma_nn=0.5'),
    ('temporal', 'speed_temporal'),
    ('temporal_urd', 'speed_temporal=speed_use_ref_diff=true'),
    ('temporal_ps05_bilinear', 'speed_temporal=speed_prescale=0.5:speed_prescale_method=bilinear'),
    ('temporal_ps08_lanczos4', 'speed_temporal=speed_prescale=0.8:speed_prescale_method=lanczos4'),
    ('temporal_ps2_nearest', 'speed_temporal=speed_prescale=2.0'),
    ('temporal_ks15_snn', 'speed_temporal=speed_kernelscale=1.5:speed_sigma_nn=0.5:speed_nn_floor=0.2:speed_max_val=1.0'),
]
MODELS = ['vmaf_v1.0.16_1d5h_2160', 'vmaf_v1.0.16_3d0h', 'vmaf_v1.0.16_3d0h_2160', 'vmaf_v1.0.16_5d0h',
          'vmaf_v1.0.16_hfr_1d5h_2160', 'vmaf_v1.0.16_hfr_3d0h', 'vmaf_v1.0.16_hfr_3d0h_2160',
          'vmaf_v1.0.16_hfr_5d0h']


def main():
    vmaf = os.path.abspath(sys.argv[1])
    check = '--check' in sys.argv[2:]
    extra = [a for a in sys.argv[2:] if a != '--check']
    same = differ = 0
    manifest = json.load(open(os.path.join(GOLDEN, 'manifest.json')))
    tmp = os.path.join(HERE, '.tmp_out.json')
    for p in manifest['pairs']:
        base = ['vmaf', '-r', p['ref']['file'], '-d', p['dis']['file']]
        raw = p['raw_yuv_args']
        if raw:
            base += ['-w', str(raw['width']), '-h', str(raw['height']), '-p', raw['pixel_format'],
                     '-b', str(raw['bitdepth'])]
        base += ['-q', '--threads', '1', '--json', '-o', '<out>']
        runs = [(n, ['-n', '--feature', f], f) for n, f in FEATURE_RUNS]
        runs += [('model_' + m, ['--model', 'version=' + m], None) for m in MODELS]
        out_runs = []
        for name, args, feat in runs:
            argv = base + args
            real = [vmaf] + [tmp if a == '<out>' else a for a in argv[1:]] + extra
            if os.path.exists(tmp):
                os.remove(tmp)
            cp = subprocess.run(real, cwd=GOLDEN, capture_output=True, text=True, timeout=600)
            entry = {'run': name, 'argv': argv, 'rc': cp.returncode}
            if feat is not None:
                ex, _, opts = feat.partition('=')
                entry['extractor'] = ex
                entry['options'] = dict(kv.split('=') for kv in opts.split(':')) if opts else {}
            if cp.returncode == 0:
                out = json.load(open(tmp))
                out.pop('version', None)
                out.pop('fps', None)
                entry['output'] = out
            out_runs.append(entry)
            print(p['name'], name, cp.returncode, flush=True)
        path = os.path.join(HERE, p['name'] + '.json')
        if check:
            stored = json.load(open(path))['runs']
            for got, want in zip(out_runs, stored):
                if got == want:
                    same += 1
                else:
                    differ += 1
                    print('DIFFERS', p['name'], want['run'], flush=True)
            differ += abs(len(out_runs) - len(stored))
            continue
        with open(path, 'w') as f:
            json.dump({'pair': p['name'], 'runs': out_runs}, f, separators=(',', ':'))
            f.write('\n')
    if os.path.exists(tmp):
        os.remove(tmp)
    if check:
        print(f'{same} runs identical, {differ} differ')
        sys.exit(1 if differ else 0)


if __name__ == '__main__':
    main()
