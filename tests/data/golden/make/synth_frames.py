#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the generated test frames of the unit tests as raw luma files.

  synth_frames.py adm  W H BPC SEED      REF DIS   (adm_test_frames() of tests/unit/adm_test.cpp)
  synth_frames.py vif  MODE W H BPC SEED REF DIS   (vt_make() of tests/unit/vif_test.cpp)

One W x H frame each, packed, one byte a sample at BPC 8 and two
little-endian bytes above (the input of oracle_frames.c). This is the
generators of those tests written again in Python, sample for sample (same
integer arithmetic, same order of the random-number calls); keep the three
in step.
"""
import struct
import sys

M32 = 0xFFFFFFFF


def adm_frames(w, h, bpc, seed):
    s = seed & M32

    def rnd():
        nonlocal s
        s = (s * 1664525 + 1013904223) & M32
        return s >> 16

    extra = bpc - 8
    ref, dis = [], []
    for y in range(h):
        for x in range(w):
            base = (x * 5 + y * 3) % 97 * 2 + ((x // 7 + y // 5) % 2) * 40 + rnd() % 24
            d = base + rnd() % 17 - 8 + (30 if (x + y) % 11 == 0 else 0)
            d = min(max(d, 0), 255)
            lo_r = rnd() & ((1 << extra) - 1) if extra else 0
            lo_d = rnd() & ((1 << extra) - 1) if extra else 0
            ref.append((base << extra) | lo_r)
            dis.append((d << extra) | lo_d)
    return ref, dis


def vif_frames(mode, w, h, bpc, seed):
    s = seed & M32

    def nxt():
        nonlocal s
        s ^= (s << 13) & M32
        s ^= s >> 17
        s ^= (s << 5) & M32
        return s

    def clamp(v, maxv):
        return 0 if v < 0 else maxv if v > maxv else v

    def noise(rng):
        return nxt() % (rng + 1)

    maxv = (1 << bpc) - 1
    ref, dis = [], []
    for y in range(h):
        for x in range(w):
            base = ((x * 3 + y * 5) % 64) * maxv // 63
            if mode == 0:
                r = maxv // 2 if x < w // 4 else clamp(base + noise(maxv // 8) - maxv // 16, maxv)
                d = clamp(r + noise(maxv // 4) - maxv // 8, maxv)
            elif mode == 1:
                r = clamp(maxv // 4 + base // 2 + noise(maxv // 16), maxv)
                d = clamp(2 * r - maxv // 2, maxv)
            elif mode == 2:
                r = clamp(base + noise(maxv // 8), maxv)
                d = r
            elif mode == 3:
                r, d = maxv // 3, maxv // 2
            else:
                r = maxv if nxt() & 1 else 0
                d = noise(maxv)
            ref.append(r)
            dis.append(d)
    return ref, dis


def write(path, samples, bpc):
    with open(path, "wb") as f:
        if bpc > 8:
            f.write(struct.pack(f"<{len(samples)}H", *samples))
        else:
            f.write(bytes(samples))


def main(a):
    if a[0] == "adm" and len(a) == 7:
        w, h, bpc, seed = map(int, a[1:5])
        ref, dis = adm_frames(w, h, bpc, seed)
    elif a[0] == "vif" and len(a) == 8:
        mode, w, h, bpc, seed = map(int, a[1:6])
        ref, dis = vif_frames(mode, w, h, bpc, seed)
    else:
        sys.exit(__doc__)
    write(a[-2], ref, bpc)
    write(a[-1], dis, bpc)


if __name__ == "__main__":
    main(sys.argv[1:])
