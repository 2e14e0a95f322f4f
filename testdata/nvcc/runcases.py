#!/usr/bin/env python3
"""Run cases built from the nvcc corpus: testdata/run/nvcc-<name>/{kernel.ptx, launch.json, expected.json}.

    runcases.py write              write kernel.ptx (a copy of the corpus PTX) and launch.json of every case
    runcases.py check RESULTS      check hardware results against independent numpy models of the CUDA
                                   sources; write expected.json for each case that agrees
    runcases.py list               list the cases

RESULTS holds one line per case, as the reference harness produced them on hardware (each case run
twice, kept only when both runs gave identical output):
    <case-dir-name> <result JSON>          or          <case-dir-name> NONDETERMINISTIC

The models below restate, in numpy, what each kernel of testdata/nvcc/src computes. They are the
check of the hardware output, not its source: expected.json is always the hardware's status and buffers.
Where a model can only be approximate (transcendental functions, float sums in a different order)
it compares with a tolerance; everything else is compared exactly.
"""
import json
import math
import os
import random
import sys
from fractions import Fraction

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUN = os.path.join(ROOT, "testdata", "run")

DT = {"u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16, "u32": np.uint32, "s32": np.int32,
      "u64": np.uint64, "s64": np.int64, "f32": np.float32, "f64": np.float64}
M64 = (1 << 64) - 1


# ----------------------------------------------------------------------------------------------
# buffer initialisation, exactly as docs/launch-format.md describes it

def splitmix64(seed, n):
    state, out = seed & M64, []
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        out.append(z ^ (z >> 31))
    return out


def init_buffer(spec):
    dt = np.dtype(DT[spec["type"]])
    if "values" in spec:
        return np.array(spec["values"], dtype=dt)
    n, init = spec["count"], spec.get("init", 0)
    if init == "iota":
        return np.arange(n).astype(dt)
    if isinstance(init, dict):
        raw = splitmix64(init["random"], n)
        if dt.kind == "f":
            return np.array([(x >> 40) * 2.0 ** -24 for x in raw], dtype=dt)
        bits = dt.itemsize * 8
        return np.array([x & ((1 << bits) - 1) for x in raw], dtype=np.uint64).astype(f"u{dt.itemsize}").view(dt)
    return np.full(n, init, dtype=dt)


# ----------------------------------------------------------------------------------------------
# exact arithmetic helpers

def wrap32(x):
    """int array/int -> int32 with two's-complement wrap."""
    return (np.asarray(x, dtype=np.int64) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)


def u32(x):
    return np.asarray(np.asarray(x, dtype=object) % (1 << 32), dtype=np.uint64).astype(np.uint32)


def round_frac(x, p, emin, emax, mode="rn"):
    """Round the exact rational x to a binary format with p significand bits (hidden bit included),
    minimum normal exponent emin and maximum exponent emax. Returns a Python float (may be +-inf)."""
    if x == 0:
        return 0.0
    s = -1 if x < 0 else 1
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - p + 1)
    q = a / ulp
    n = q.numerator // q.denominator
    rem = q - n
    if mode == "rn":
        if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1):
            n += 1
    elif mode == "ru":
        if rem > 0 and s > 0:
            n += 1
    elif mode == "rd":
        if rem > 0 and s < 0:
            n += 1
    elif mode != "rz":
        raise ValueError(mode)
    r = n * ulp
    maxf = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if r > maxf:
        if mode == "rn" or (mode == "ru" and s > 0) or (mode == "rd" and s < 0):
            return s * math.inf
        r = maxf
    return math.copysign(float(r), s)


F16 = (11, -14, 15)
BF16 = (8, -126, 127)
F32 = (24, -126, 127)


def to_f32(x, mode="rn"):
    return np.float32(round_frac(Fraction(x), *F32, mode))


def fma32(a, b, c):
    return np.float32(round_frac(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)), *F32))


def f16_bits(v):
    return int(np.array([v], dtype=np.float16).view(np.uint16)[0])


def bf16_bits(v):
    return int(np.array([v], dtype=np.float32).view(np.uint32)[0]) >> 16


def f32_of_bits(b):
    return np.array([b], dtype=np.uint32).view(np.float32)[0]


def bits_of_f32(f):
    return int(np.array([f], dtype=np.float32).view(np.uint32)[0])


def cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def cmod(a, b):
    return a - b * cdiv(a, b)


def popc(x):
    return bin(x & 0xFFFFFFFF).count("1")


# ----------------------------------------------------------------------------------------------
# case table

CASES = []


def case(name, src, ptx, kernel, grid, block, buffers, params, dump, about, model, **extra):
    CASES.append(dict(name=name, src=src, ptx=ptx, kernel=kernel, grid=grid, block=block, buffers=buffers,
                      params=params, dump=dump, about=about, model=model, extra=extra))


def rnd_values(seed, n, lo, hi):
    r = random.Random(seed)
    return [r.randint(lo, hi) for _ in range(n)]


def exact(a):
    return ("exact", a)


def close(a, rtol, atol=0.0):
    return ("close", a, rtol, atol)


# --- reduce.cu ---------------------------------------------------------------------------------

def m_reduce_shared(b, G=4, B=256, n=3000):
    x = b["in"].astype(np.int64)
    out = [sum(int(x[i]) for i in range(n) if (i % (G * B)) // B == blk) for blk in range(G)]
    return {"out": exact(wrap32(out))}


case("reduce-shared", "reduce.cu", "reduce.sm_80.ptx", "reduce_sum_shared", [4], [256],
     {"in": {"type": "s32", "count": 4096, "init": {"random": 101}}, "out": {"type": "s32", "count": 4, "init": -1}},
     ["in", "out", {"s32": 3000}], ["out"],
     "shared-memory tree reduction with a grid-stride load loop, partial last pass (n=3000 of 4096), int wrap-around",
     m_reduce_shared)


def m_reduce_warp(b, G=3, B=256, n=2500):
    x = b["in"].astype(np.int64)
    part = [0] * G
    for i in range(n):
        part[(i % (G * B)) // B] += int(x[i]) * ((i & 3) - 1)
    return {"partial": exact(wrap32(part)), "total": exact(wrap32([sum(part) + 5]))}


case("reduce-warp", "reduce.cu", "reduce.sm_90.ptx", "reduce_sum_warp", [3], [256],
     {"in": {"type": "s32", "count": 2600, "init": {"random": 102}},
      "partial": {"type": "s32", "count": 3, "init": 0}, "total": {"type": "s32", "count": 1, "init": 5}},
     ["in", "partial", "total", {"s32": 2500}], ["partial", "total"],
     "warp-shuffle (shfl.sync.down) reduction, per-warp partials in shared memory, one atomicAdd per block",
     m_reduce_warp)


def m_reduce_minmax(b, G=4, B=256, n=4000):
    x = (b["in"].astype(np.float32) * np.float32(2) - np.float32(1)).astype(np.float32)
    mm, ds = [], []
    for blk in range(G):
        idx = [i for i in range(n) if (i % (G * B)) // B == blk]
        v = x[idx]
        mm += [v.max(), v.min()]
        ds.append(float(np.sum(v.astype(np.float64) ** 2)))
    return {"mm": exact(np.array(mm, dtype=np.float32)), "dsum": close(np.array(ds), 1e-12)}


case("reduce-minmax-f64", "reduce.cu", "reduce.sm_90.ptx", "reduce_minmax_f32_sum_f64", [4], [256],
     {"in": {"type": "f32", "count": 4000, "init": {"random": 103}},
      "mm": {"type": "f32", "count": 8, "init": 0}, "dsum": {"type": "f64", "count": 4, "init": 0}},
     ["in", "mm", "dsum", {"s32": 4000}], ["mm", "dsum"],
     "fmaxf/fminf tree reduction of f32 and a sum of squares in f64 (fixed combination order)",
     m_reduce_minmax)


def m_reduce_u64_u16(b, G=2, B=256, n=400):
    x = [int(v) for v in b["in"]]
    o64, o16 = [], []
    for blk in range(G):
        vals = [x[i] if i < n else 0 for i in range(blk * B, blk * B + B)]
        o64.append(sum(v * 0x10001 for v in vals) & M64)
        o16.append(sum(v & 0xFFFF for v in vals) & 0xFFFF)
    return {"out64": exact(np.array(o64, dtype=np.uint64)), "out16": exact(np.array(o16, dtype=np.uint16))}


case("reduce-u64-u16", "reduce.cu", "reduce.sm_90.ptx", "reduce_sum_u64_u16", [2], [256],
     {"in": {"type": "u32", "count": 512, "init": {"random": 104}},
      "out64": {"type": "u64", "count": 2, "init": 0}, "out16": {"type": "u16", "count": 2, "init": 0}},
     ["in", "out64", "out16", {"s32": 400}], ["out64", "out16"],
     "templated block_sum instantiated for u64 and u16 (16-bit shared memory, mul.wide-style widening), partial block",
     m_reduce_u64_u16)

# --- scan.cu -----------------------------------------------------------------------------------

SCAN_IN = rnd_values(201, 1024, -1000, 1000)


def m_scan_hillis(b, B=256, n=1000):
    x = b["in"].astype(np.int64)
    out = np.full(1024, -7, dtype=np.int64)
    for blk in range(4):
        acc = 0
        for t in range(B):
            g = blk * B + t
            acc += int(x[g]) if g < n else 0
            if g < n:
                out[g] = acc
    return {"out": exact(wrap32(out))}


case("scan-hillis-steele", "scan.cu", "scan.sm_80.ptx", "scan_hillis_steele", [4], [256],
     {"in": {"type": "s32", "values": SCAN_IN}, "out": {"type": "s32", "count": 1024, "init": -7}},
     ["in", "out", {"s32": 1000}], ["out"],
     "per-block inclusive scan, double-buffered shared memory, partial last block (n=1000)",
     m_scan_hillis)


def m_scan_blelloch(b, B=256, n=1000):
    x = b["in"].astype(np.int64)
    out = np.full(1024, -7, dtype=np.int64)
    sums = []
    for blk in range(2):
        acc = 0
        for j in range(2 * B):
            g = blk * 2 * B + j
            if g < n:
                out[g] = acc
            acc += int(x[g]) if g < n else 0
        sums.append(acc)
    return {"out": exact(wrap32(out)), "sums": exact(wrap32(sums))}


case("scan-blelloch", "scan.cu", "scan.sm_90.ptx", "scan_blelloch", [2], [256],
     {"in": {"type": "s32", "values": SCAN_IN}, "out": {"type": "s32", "count": 1024, "init": -7},
      "sums": {"type": "s32", "count": 2, "init": 0}},
     ["in", "out", "sums", {"s32": 1000}], ["out", "sums"],
     "work-efficient exclusive scan (up-sweep/down-sweep) with bank-conflict padding, 512 items per block",
     m_scan_blelloch)


def m_scan_warp(b, B=256, n=500):
    x = b["in"].astype(np.float64)
    out = np.zeros(512)
    for blk in range(2):
        acc = 0.0
        for t in range(B):
            g = blk * B + t
            acc += x[g] if g < n else 0.0
            if g < n:
                out[g] = acc
    return {"out": close(out, 1e-5, 1e-6)}


case("scan-warp-f32", "scan.cu", "scan.sm_90.ptx", "scan_warp_f32", [2], [256],
     {"in": {"type": "f32", "count": 512, "init": {"random": 202}}, "out": {"type": "f32", "count": 512, "init": 0}},
     ["in", "out", {"s32": 500}], ["out"],
     "f32 inclusive scan with shfl.sync.up inside warps and across warp totals",
     m_scan_warp)

# --- warp_shuffle.cu ---------------------------------------------------------------------------


def m_shfl(b, n=128):
    v = [int(x) for x in b["in"]]
    out = np.zeros((10, n), dtype=np.int64)
    for g in range(n):
        w, l = g & ~31, g & 31
        out[0, g] = v[w + 3]
        out[1, g] = v[g - 1] if l >= 1 else v[g]
        out[2, g] = v[g + 2] if l + 2 <= 31 else v[g]
        out[3, g] = v[w + (l ^ 5)]
        out[4, g] = v[w + (l & ~7) + ((l + 1) & 7)]
        out[5, g] = v[g - 3] if (l & 15) >= 3 else v[g]
        out[6, g] = sum(v[w:w + 32])
        src = 31 - l
        out[7, g] = v[w + src] ^ (src * 7)
        f = lambda k: np.float32(np.float32(v[k]) * np.float32(0.25))
        out[8, g] = bits_of_f32(f(g + 16) if l + 16 <= 31 else f(g))
        out[9, g] = v[w + (l ^ 1)] if l < 16 else -1
    return {"out": exact(wrap32(out.reshape(-1)))}


case("shfl", "warp_shuffle.cu", "warp_shuffle.sm_90.ptx", "shfl_patterns", [2], [64],
     {"in": {"type": "s32", "count": 128, "init": {"random": 301}}, "out": {"type": "s32", "count": 1280, "init": 0}},
     ["in", "out", {"s32": 128}], ["out"],
     "shfl.sync idx/up/down/bfly with widths 8 and 16 (c operand), 64-bit and f32 payloads, a half-warp member mask",
     m_shfl)


def m_shfl_f64(b):
    x = b["in"].astype(np.float64)
    out = []
    for w in range(4):
        a = list(x[w * 32:(w + 1) * 32])
        for off in (16, 8, 4, 2, 1):
            a = [a[l] + (a[l + off] if l + off < 32 else a[l]) for l in range(32)]
        out.append(a[0])
    return {"out": exact(np.array(out))}


case("shfl-f64", "warp_shuffle.cu", "warp_shuffle.sm_90.ptx", "shfl_reduce_f64", [1], [128],
     {"in": {"type": "f64", "count": 128, "init": {"random": 302}}, "out": {"type": "f64", "count": 4, "init": 0}},
     ["in", "out"], ["out"],
     "f64 warp reduction: each double shuffled as two 32-bit shfl.sync.down halves",
     m_shfl_f64)

# --- warp_vote.cu ------------------------------------------------------------------------------


def vote_input():
    r = random.Random(401)
    v = [r.randint(0, 2000) for _ in range(32)]                      # warp 0: all >= 0, some > 1000
    v += [r.randint(-1000, 1000) for _ in range(32)]                 # warp 1: mixed signs, none > 1000
    v += [r.randint(0, (1 << 30) - 1) & ~1 for _ in range(32)]       # warp 2: same v >> 30, all even
    v += [r.randint(-(1 << 31) + 600, (1 << 31) - 1) for _ in range(32)]  # warp 3: wide range
    return v


def fns(mask, base, offset):
    pos, count = base, offset - 1
    while 0 <= pos < 32:
        if mask >> pos & 1:
            if count == 0:
                return pos
            count -= 1
        pos += 1
    return 0xFFFFFFFF


def byte_perm(x, y, s):
    src = (x & 0xFFFFFFFF) | (y & 0xFFFFFFFF) << 32
    r = 0
    for i in range(4):
        sel = (s >> (4 * i)) & 7
        r |= ((src >> (8 * sel)) & 0xFF) << (8 * i)
    return r


def brev(x):
    return int(f"{x & 0xFFFFFFFF:032b}"[::-1], 2)


def m_vote(b, n=128):
    v = [int(x) for x in b["in"]]
    out = np.zeros((12, n), dtype=np.uint64)
    for w0 in range(0, n, 32):
        wv = v[w0:w0 + 32]
        ballot = sum(1 << l for l in range(32) if wv[l] & 1)
        anyv = int(any(x > 1000 for x in wv))
        allv = int(all(x >= 0 for x in wv))
        hi = [x >> 30 for x in wv]
        same = all(h == hi[0] for h in hi)
        for l in range(32):
            g = w0 + l
            x = wv[l]
            out[0, g] = ballot
            out[1, g] = anyv
            out[2, g] = allv
            out[3, g] = sum(1 << k for k in range(32) if (wv[k] & 7) == (x & 7))
            out[4, g] = (0xFFFFFFFF if same else 0) ^ ((1 if same else 0) << 1)
            out[5, g] = sum(y & 0xFF for y in wv) & 0xFFFFFFFF
            out[6, g] = min(y & 0xFFFFFFFF for y in wv)
            out[7, g] = max(y - 500 for y in wv) & 0xFFFFFFFF
            ro = 0
            ra = 0xFFFFFFFF
            rx = 0
            for y in wv:
                ro |= y & 0xFFFFFFFF
                ra &= (y | 0x100) & 0xFFFFFFFF
                rx ^= y & 0xFFFFFFFF
            out[8, g] = ro ^ ra ^ rx
            ffs = (ballot & -ballot).bit_length()
            clz = 32 - ballot.bit_length()
            out[9, g] = popc(ballot) | ffs << 8 | clz << 16
            out[10, g] = brev(x) ^ byte_perm(x, ballot, 0x3715)
            pll = bin(((ballot << 17) | (x & 0xFFFFFFFF)) & M64).count("1")
            out[11, g] = (fns(ballot, l, 1) + pll) & 0xFFFFFFFF
    return {"out": exact(out.reshape(-1).astype(np.uint32))}


case("vote", "warp_vote.cu", "warp_vote.sm_90.ptx", "vote_patterns", [2], [64],
     {"in": {"type": "s32", "values": vote_input()}, "out": {"type": "u32", "count": 1536, "init": 0}},
     ["in", "out", {"s32": 128}], ["out"],
     "vote.sync ballot/any/all, match.any/all.sync, redux.sync add/min/max/and/or/xor, popc/ffs(bfind)/clz/brev/prmt/fns",
     m_vote)


def vote_div_input():
    r = random.Random(402)
    return [r.randint(-100, 150) for _ in range(64)]


def m_vote_div(b):
    v = [int(x) for x in b["in"]]
    out = []
    for w0 in (0, 32):
        wv = v[w0:w0 + 32]
        for l in range(32):
            if l % 2 == 0:
                bal = sum(1 << k for k in range(0, 32, 2) if wv[k] > 50)
                m = sum(1 << k for k in range(0, 32, 2) if cmod(wv[k], 3) == cmod(wv[l], 3))
                out.append((bal + m) & 0xFFFFFFFF)
            else:
                out.append(sum(wv[k] for k in range(1, 32, 2)) & 0xFFFFFFFF)
    return {"out": exact(np.array(out, dtype=np.uint32))}


case("vote-divergent", "warp_vote.cu", "warp_vote.sm_90.ptx", "vote_divergent", [1], [64],
     {"in": {"type": "s32", "values": vote_div_input()}, "out": {"type": "u32", "count": 64, "init": 0}},
     ["in", "out"], ["out"],
     "vote/match/redux with partial member masks (even lanes 0x55555555, odd lanes 0xaaaaaaaa) in divergent branches",
     m_vote_div)

# --- atomics.cu --------------------------------------------------------------------------------

ATOM_INIT = {
    "gi": [0, -1000000, 1000000, 0, 0, -1, 1, 0],
    "gu": [0, 0xFFFFFFFF, 0, 0, 0, 0, 0, 0],
    "gull": [0, 0, 0xFFFFFFFFFFFFFFFF, 1],
    "gf": [0.0, 0.0, -100.0, 0.0],
    "gd": [0.0, 0.0],
}


def m_atomics(b, G=4, B=128):
    n = G * B
    v = [int(x) & 0x3FF for x in b["in"]]
    gi = list(ATOM_INIT["gi"])
    gu = list(ATOM_INIT["gu"])
    gull = list(ATOM_INIT["gull"])
    gf = [Fraction(x) for x in ATOM_INIT["gf"]]
    gd = [Fraction(x) for x in ATOM_INIT["gd"]]
    for blk in range(G):
        bv = v[blk * B:(blk + 1) * B]
        gi[0] += sum(bv)
        gi[1] = max(gi[1], max(x - 300 for x in bv))
        gi[2] = min(gi[2], min(x - 300 for x in bv))
        s_or, s_and, s_xor = 0, 0xFFFFFFFF, 0
        for t, x in enumerate(bv):
            g = blk * B + t
            s_or |= 1 << (x & 31)
            s_and &= (~(1 << (g & 31)) & 0xFFFFFFFF) | x
            s_xor ^= (x * 2654435761) & 0xFFFFFFFF
        gu[0] |= s_or
        gu[1] &= s_and
        gu[2] ^= s_xor
        gu[3] += B % 10
        gf[0] += sum(x & 63 for x in bv)
        gull[0] = (gull[0] + sum(x << 20 for x in bv)) & M64
    gi[3] += sum(x & 15 for x in v)
    gi[4] -= sum(x & 7 for x in v)
    gi[5] = max(gi[5], max(3 * x for x in v))
    gi[6] = min(gi[6], min(-x for x in v))
    for _ in range(n):
        gu[4] = 0 if gu[4] >= 100 else gu[4] + 1
        gu[5] = 6 if (gu[5] == 0 or gu[5] > 6) else gu[5] - 1
    gull[1] = max(gull[1], max(x * 0x100000001 for x in v))
    gull[2] = min(gull[2], min(0xFFFFFFFFFF - x for x in v))
    for x in v:
        gull[3] = gull[3] * (x | 1) & M64
    gf[1] += sum(Fraction(x % 17, 2) for x in v)
    gf[2] = max(gf[2], max(Fraction(x, 8) for x in v))
    gd[0] += sum(Fraction(x, 4) for x in v)
    gi[7] += n
    gu[6] += 2 * n
    if gu[7] == 0:
        gu[7] = 0x5A5A5A5A
    gd[1] += Fraction(3, 2) * n
    gf[3] = Fraction(-1)
    tickets = [1] * n + [n]
    return {"gi": exact(wrap32(gi)), "gu": exact(np.array(gu, dtype=np.uint32)),
            "gull": exact(np.array(gull, dtype=np.uint64)), "gf": exact(np.array([float(x) for x in gf], dtype=np.float32)),
            "gd": exact(np.array([float(x) for x in gd])), "slots": exact(wrap32([x + 1000 for x in v])),
            "tickets": exact(wrap32(tickets))}


case("atomics", "atomics.cu", "atomics.sm_90.ptx", "atomics_mix", [4], [128],
     {"in": {"type": "s32", "count": 512, "init": {"random": 501}},
      "gi": {"type": "s32", "values": ATOM_INIT["gi"]}, "gu": {"type": "u32", "values": ATOM_INIT["gu"]},
      "gull": {"type": "u64", "values": ATOM_INIT["gull"]}, "gf": {"type": "f32", "values": ATOM_INIT["gf"]},
      "gd": {"type": "f64", "values": ATOM_INIT["gd"]}, "slots": {"type": "s32", "count": 512, "init": 7},
      "tickets": {"type": "s32", "count": 513, "init": 0}},
     ["in", "gi", "gu", "gull", "gf", "gd", "slots", "tickets", {"s32": 512}],
     ["gi", "gu", "gull", "gf", "gd", "slots", "tickets"],
     "atom/red on shared and global: add/sub/min/max/and/or/xor/inc/dec/exch/cas on s32, u32, u64, f32, f64, "
     "CAS loops, .cta/.sys scopes, cuda::atomic_ref; all results independent of update order",
     m_atomics)


def m_hist(b, n=2048):
    h = np.zeros(256, dtype=np.int64)
    for x in b["in"][:n]:
        x = int(x)
        for s in (0, 8, 16, 24):
            h[(x >> s) & 0xFF] += 1
    return {"hist": exact(h.astype(np.uint32))}


case("atomic-histogram", "atomics.cu", "atomics.sm_80.ptx", "atomic_histogram", [4], [128],
     {"in": {"type": "u32", "count": 2048, "init": {"random": 502}}, "hist": {"type": "u32", "count": 256, "init": 0}},
     ["in", "hist", {"s32": 2048}], ["hist"],
     "byte histogram: shared-memory atomicAdd per block, merged into global memory",
     m_hist)

# --- matmul_tiled.cu ---------------------------------------------------------------------------


def m_matmul(b, M=40, N=48, K=36):
    A = b["A"].astype(np.float64).reshape(M, K)
    Bm = b["B"].astype(np.float64).reshape(K, N)
    return {"C": close((A @ Bm).reshape(-1), 1e-5, 1e-6)}


case("matmul-tiled", "matmul_tiled.cu", "matmul_tiled.sm_80.ptx", "matmul_tiled", [3, 3], [16, 16],
     {"A": {"type": "f32", "count": 40 * 36, "init": {"random": 601}},
      "B": {"type": "f32", "count": 36 * 48, "init": {"random": 602}}, "C": {"type": "f32", "count": 40 * 48, "init": 0}},
     ["A", "B", "C", {"s32": 40}, {"s32": 48}, {"s32": 36}], ["C"],
     "16x16 shared-memory tiled SGEMM, 2D grid/block, M=40 N=48 K=36 (partial tiles, bounds checks), fma accumulation",
     m_matmul)


def m_matmul_i32(b, M=33, N=40, K=50):
    A = b["A"].astype(np.int64).reshape(M, K)
    Bm = b["B"].astype(np.int64).reshape(K, N)
    return {"C": exact(wrap32((A @ Bm).reshape(-1)))}


case("matmul-i32", "matmul_tiled.cu", "matmul_tiled.sm_90.ptx", "matmul_tiled_i32_2x2", [3, 3], [8, 8],
     {"A": {"type": "s32", "values": rnd_values(603, 33 * 50, -3000, 3000)},
      "B": {"type": "s32", "values": rnd_values(604, 50 * 40, -3000, 3000)},
      "C": {"type": "s32", "count": 33 * 40, "init": 0}},
     ["A", "B", "C", {"s32": 33}, {"s32": 40}, {"s32": 50}], ["C"],
     "int GEMM with a 2x2 register block per thread (local int acc[2][2] kept in registers), M=33 N=40 K=50",
     m_matmul_i32)

# --- wmma.cu -----------------------------------------------------------------------------------


def m_wmma(b, M=32, N=32, K=32):
    A = b["A"].astype(np.float64).reshape(M, K)
    Bt = b["B"].astype(np.float64).reshape(N, K)
    return {"C": exact((A @ Bt.T).reshape(-1).astype(np.float32))}


case("wmma", "wmma.cu", "wmma.sm_90.ptx", "wmma_gemm_f16_f32", [2, 2], [32],
     {"A": {"type": "f32", "values": [float(x) for x in rnd_values(701, 1024, -4, 4)]},
      "B": {"type": "f32", "values": [float(x) for x in rnd_values(702, 1024, -4, 4)]},
      "C": {"type": "f32", "count": 1024, "init": 0}},
     ["A", "B", "C", {"s32": 32}, {"s32": 32}, {"s32": 32}], ["C"],
     "nvcuda::wmma 16x16x16 f16 x f16 -> f32 (wmma.load/mma/store.sync), 32x32x32 with small integer inputs (exact)",
     m_wmma)

# --- barrier.cu --------------------------------------------------------------------------------

BAR_IN = rnd_values(801, 1536, -10000, 10000)


def m_barrier(b, G=2, C=256, nch=3):
    x = [int(v) for v in b["in"]]
    out = []
    for blk in range(G):
        for t in range(C):
            out.append(sum((c + 1) * x[blk * nch * C + c * C + C - 1 - t] for c in range(nch)))
    return {"out": exact(wrap32(out))}


case("barrier-memcpy-async", "barrier.cu", "barrier.sm_90.ptx", "barrier_memcpy_async", [2], [256],
     {"in": {"type": "s32", "values": BAR_IN}, "out": {"type": "s32", "count": 512, "init": 0}},
     ["in", "out", {"s32": 3}], ["out"],
     "cuda::barrier + block-wide cuda::memcpy_async (aligned_size_t<16>), two barriers double-buffering 3 chunks",
     m_barrier)


def m_barrier_split(b):
    x = [int(v) for v in b["in"]]
    return {"out": exact(wrap32([x[(g & ~255) + ((g & 255) ^ 1)] * 2 + g for g in range(512)]))}


case("barrier-split-arrive", "barrier.cu", "barrier.sm_80.ptx", "barrier_split_arrive", [2], [256],
     {"in": {"type": "s32", "values": BAR_IN[:512]}, "out": {"type": "s32", "count": 512, "init": 0}},
     ["in", "out"], ["out"],
     "per-thread cuda::memcpy_async of 4 bytes (cp.async on sm_80 PTX) and a split arrive()/wait(token)",
     m_barrier_split)


def m_barrier_drop(b, G=2, B=256):
    out = [t // 32 for _ in range(G) for t in range(B)]
    sums = [32 * (B // 32 - p) for _ in range(G) for p in range(8)]
    return {"out": exact(wrap32(out)), "phase_sums": exact(wrap32(sums))}


case("barrier-drop", "barrier.cu", "barrier.sm_90.ptx", "barrier_drop", [2], [256],
     {"out": {"type": "s32", "count": 512, "init": -1}, "phase_sums": {"type": "s32", "count": 16, "init": -1}},
     ["out", "phase_sums"], ["out", "phase_sums"],
     "cuda::barrier over 8 phases with arrive_and_drop shrinking the expected count (warp w leaves in phase w)",
     m_barrier_drop)

# --- pipeline.cu -------------------------------------------------------------------------------

PIPE_IN = rnd_values(901, 1280, -10000, 10000)


def m_pipe_stages(b, G=2, C=128, nch=5):
    x = [int(v) for v in b["in"]]
    return {"out": exact(wrap32([sum((c + 1) * x[blk * nch * C + c * C + t] for c in range(nch))
                                 for blk in range(G) for t in range(C)]))}


case("pipeline-stages", "pipeline.cu", "pipeline.sm_90.ptx", "pipeline_stages", [2], [128],
     {"in": {"type": "s32", "values": PIPE_IN}, "out": {"type": "s32", "count": 256, "init": 0}},
     ["in", "out", {"s32": 5}], ["out"],
     "3-stage cuda::pipeline (producer_acquire/commit, consumer_wait/release) with block-wide memcpy_async, 5 chunks",
     m_pipe_stages)


def m_pipe_roles(b, G=2, C=128, nch=4):
    x = [int(v) for v in b["in"]]
    return {"out": exact(wrap32([max(x[blk * nch * C + c * C + t] * (c % 3 + 1) - c for c in range(nch))
                                 for blk in range(G) for t in range(C)]))}


case("pipeline-roles", "pipeline.cu", "pipeline.sm_80.ptx", "pipeline_roles", [2], [160],
     {"in": {"type": "s32", "values": PIPE_IN[:1024]}, "out": {"type": "s32", "count": 256, "init": 0}},
     ["in", "out", {"s32": 4}], ["out"],
     "cuda::pipeline with pipeline_role: warp 0 produces (per-element cp.async), 128 threads consume, 2 stages",
     m_pipe_roles)


def m_pipe_prim(b, total=256, nper=4):
    x = [int(v) for v in b["in"]]
    return {"out": exact(wrap32([sum(x[k * total + g] * (k + 1) for k in range(nper)) for g in range(total)]))}


case("pipeline-primitives", "pipeline.cu", "pipeline.sm_90.ptx", "pipeline_primitives", [2], [128],
     {"in": {"type": "s32", "values": PIPE_IN[:1024]}, "out": {"type": "s32", "count": 256, "init": 0}},
     ["in", "out", {"s32": 4}], ["out"],
     "__pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior(1): per-thread double buffering",
     m_pipe_prim)

# --- cg_memcpy.cu ------------------------------------------------------------------------------


def m_cg_scan(b, G=2, B=256, N=512):
    x = [int(v) for v in b["in"]]
    out = [0] * (G * N)
    red = [-1] * 32
    for blk in range(G):
        s = x[blk * N:(blk + 1) * N]
        for w in range(B // 32):
            for j in range(2):
                acc = 0
                for l in range(32):
                    r = w * 32 + l
                    i = r + 256 * j
                    acc += s[i] * s[N - 1 - i]
                    out[blk * N + i] = acc + (s[r % 256] & 1)
            red[blk * 16 + w] = sum(s[w * 32 + l] + s[w * 32 + l + 256] for l in range(32))
    return {"out": exact(wrap32(out)), "red": exact(wrap32(red))}


case("cg-memcpy-async", "cg_memcpy.cu", "cg_memcpy.sm_90.ptx", "cg_memcpy_scan", [2], [256],
     {"in": {"type": "s32", "values": rnd_values(1001, 1024, -300, 300)},
      "out": {"type": "s32", "count": 1024, "init": 0}, "red": {"type": "s32", "count": 32, "init": -1}},
     ["in", "out", "red"], ["out", "red"],
     "cooperative_groups::memcpy_async (two copies) + wait_prior<1> + wait, cg::inclusive_scan and cg::reduce on 32-thread tiles",
     m_cg_scan)


def m_cg_tiles(b):
    x = [int(v) for v in b["in"]]
    out, out2 = [], []
    for t0 in range(0, 128, 8):
        tv = x[t0:t0 + 8]
        mx = max(tv)
        anyv = any(v > 900 for v in tv)
        for l in range(8):
            out.append(sum(tv[:l]) + mx * 1000)
            nb = tv[l + 1] if l + 1 < 8 else tv[l]
            out2.append(nb | ((1 << 16) if anyv else 0))
    return {"out": exact(wrap32(out)), "out2": exact(wrap32(out2))}


case("cg-tiles", "cg_memcpy.cu", "cg_memcpy.sm_80.ptx", "cg_tiles", [2], [64],
     {"in": {"type": "s32", "values": rnd_values(1002, 128, 0, 1000)},
      "out": {"type": "s32", "count": 128, "init": 0}, "out2": {"type": "s32", "count": 128, "init": 0}},
     ["in", "out", "out2"], ["out", "out2"],
     "8-thread tiles: tile-level cg::memcpy_async, cg::reduce(greater), cg::exclusive_scan, tile shfl_down and any",
     m_cg_tiles)

# --- cluster.cu --------------------------------------------------------------------------------


def m_cluster_hist(b, per=256):
    x = [int(v) for v in b["in"]]
    out = [0] * 256
    for cid in range(2):
        for v in x[cid * 2 * per:(cid + 1) * 2 * per]:
            out[cid * 128 + v % 128] += 1
    return {"out": exact(wrap32(out))}


case("cluster-histogram", "cluster.cu", "cluster.sm_90.ptx", "cluster_histogram", [4], [128],
     {"in": {"type": "s32", "values": rnd_values(1101, 1024, 0, 100000)}, "out": {"type": "s32", "count": 256, "init": -1}},
     ["in", "out", {"s32": 256}], ["out"],
     "__cluster_dims__(2,1,1) (.reqnctapercluster; launch gives no cluster key): distributed shared-memory histogram "
     "through map_shared_rank (mapa) with atomics on the peer CTA's shared memory, barrier.cluster",
     m_cluster_hist)


def m_cluster_ring(b, G=8, B=64, C=4):
    x = [int(v) for v in b["in"]]
    out, info = [], []
    for blk in range(G):
        rank = blk % C
        peer = blk - rank + (rank + 1) % C
        for t in range(B):
            u = (t + 1) % B
            out.append(x[peer * B + u] * 10 + (rank + 1) % C)
        info.append(rank | C << 8 | C << 16)
    return {"out": exact(wrap32(out)), "info": exact(wrap32(info))}


case("cluster-ring", "cluster.cu", "cluster.sm_90.ptx", "cluster_ring", [8], [64],
     {"in": {"type": "s32", "values": rnd_values(1102, 512, -100000, 100000)},
      "out": {"type": "s32", "count": 512, "init": 0}, "info": {"type": "s32", "count": 8, "init": -1}},
     ["in", "out", "info"], ["out", "info"],
     "cluster shape from the launch (cluster [4,1,1], no __cluster_dims__): ring exchange through the next CTA's shared "
     "memory, %cluster_ctarank / %cluster_nctarank / %cluster_nctaid",
     m_cluster_ring, cluster=[4, 1, 1])

# --- cub_block_reduce.cu -----------------------------------------------------------------------


def m_cub_reduce(b, G=3, B=128):
    x = [int(v) for v in b["in"]]
    valid = [int(v) for v in b["valid"]]
    out = []
    for blk in range(G):
        s = x[blk * B * 4:(blk + 1) * B * 4]
        out += [sum(s), max(s), sum(s[t * 4] for t in range(valid[blk]))]
    return {"out": exact(wrap32(out))}


case("cub-block-reduce", "cub_block_reduce.cu", "cub_block_reduce.sm_90.ptx", "cub_block_reduce_i32", [3], [128],
     {"in": {"type": "s32", "values": rnd_values(1201, 1536, -100000, 100000)},
      "out": {"type": "s32", "count": 9, "init": 0}, "valid": {"type": "s32", "values": [100, 128, 1]}},
     ["in", "out", "valid"], ["out"],
     "cub::BlockReduce<int,128>: Sum of 4 items per thread, Reduce with cuda::maximum, Sum over a partial tile",
     m_cub_reduce)


def m_cub_reduce_fp(b, G=2, B=128):
    x = b["in"].astype(np.float32)
    f = [float(np.sum(x[k * B:(k + 1) * B].astype(np.float64))) for k in range(G)]
    d = [min(float(v) * 3.0 for v in x[k * B:(k + 1) * B]) for k in range(G)]
    return {"outf": close(np.array(f), 1e-6), "outd": exact(np.array(d))}


case("cub-block-reduce-fp", "cub_block_reduce.cu", "cub_block_reduce.sm_80.ptx", "cub_block_reduce_fp", [2], [128],
     {"in": {"type": "f32", "count": 256, "init": {"random": 1202}},
      "outf": {"type": "f32", "count": 2, "init": 0}, "outd": {"type": "f64", "count": 2, "init": 0}},
     ["in", "outf", "outd"], ["outf", "outd"],
     "cub::BlockReduce f32 with BLOCK_REDUCE_WARP_REDUCTIONS (Sum) and f64 with RAKING_COMMUTATIVE_ONLY (minimum)",
     m_cub_reduce_fp)

# --- cub_block_radix_sort.cu -------------------------------------------------------------------


def m_sort_u32(b, G=2, T=256):
    x = b["in"]
    return {"out": exact(np.concatenate([np.sort(x[k * T:(k + 1) * T]) for k in range(G)]))}


case("cub-radix-sort", "cub_block_radix_sort.cu", "cub_block_radix_sort.sm_90.ptx", "cub_radix_sort_u32", [2], [64],
     {"in": {"type": "u32", "count": 512, "init": {"random": 1301}}, "out": {"type": "u32", "count": 512, "init": 0}},
     ["in", "out"], ["out"],
     "cub::BlockRadixSort<unsigned,64,4>::Sort, 256 keys per block, blocked arrangement",
     m_sort_u32)


def m_sort_pairs(b, G=2, T=256):
    x = [int(v) for v in b["in"]]
    ko, vo = [], []
    for k in range(G):
        keys = [cmod(v, 50) - 25 for v in x[k * T:(k + 1) * T]]
        order = sorted(range(T), key=lambda i: -keys[i])  # stable
        ko += [keys[i] for i in order]
        vo += order
    return {"keys_out": exact(wrap32(ko)), "vals_out": exact(wrap32(vo))}


case("cub-radix-sort-pairs", "cub_block_radix_sort.cu", "cub_block_radix_sort.sm_80.ptx", "cub_radix_sort_pairs_desc",
     [2], [64],
     {"in": {"type": "s32", "count": 512, "init": {"random": 1302}},
      "keys_out": {"type": "s32", "count": 512, "init": 0}, "vals_out": {"type": "s32", "count": 512, "init": 0}},
     ["in", "keys_out", "vals_out"], ["keys_out", "vals_out"],
     "cub::BlockRadixSort<int,64,4,int>::SortDescendingBlockedToStriped: signed keys with many ties (stable), index payloads",
     m_sort_pairs)


def m_sort_f32(b, G=2, T=256):
    x = (b["in"].astype(np.float32) * np.float32(2) - np.float32(1)).astype(np.float32)
    return {"out": exact(np.concatenate([np.sort(x[k * T:(k + 1) * T]) for k in range(G)]))}


case("cub-radix-sort-f32", "cub_block_radix_sort.cu", "cub_block_radix_sort.sm_90.ptx", "cub_radix_sort_f32", [2], [64],
     {"in": {"type": "f32", "count": 512, "init": {"random": 1303}}, "out": {"type": "f32", "count": 512, "init": 0}},
     ["in", "out"], ["out"],
     "cub::BlockRadixSort on f32 keys (negative and positive) with BlockLoad/BlockStore WARP_TRANSPOSE in a shared union",
     m_sort_f32)

# --- cub_block_scan.cu -------------------------------------------------------------------------


def m_cub_scan(b, G=2, T=512):
    x = [int(v) for v in b["in"]]
    ex, inc, agg = [], [], []
    for k in range(G):
        s = x[k * T:(k + 1) * T]
        acc, m = 0, None
        for v in s:
            ex.append(acc)
            acc += v
            w = cmod(v, 1000) - 500
            m = w if m is None else max(m, w)
            inc.append(m)
        agg.append(acc)
    return {"ex": exact(wrap32(ex)), "inc": exact(wrap32(inc)), "agg": exact(wrap32(agg))}


case("cub-block-scan", "cub_block_scan.cu", "cub_block_scan.sm_90.ptx", "cub_block_scan_i32", [2], [128],
     {"in": {"type": "s32", "values": rnd_values(1401, 1024, -50000, 50000)},
      "ex": {"type": "s32", "count": 1024, "init": 0}, "inc": {"type": "s32", "count": 1024, "init": 0},
      "agg": {"type": "s32", "count": 2, "init": 0}},
     ["in", "ex", "inc", "agg"], ["ex", "inc", "agg"],
     "cub::BlockScan<int,128> ExclusiveSum with aggregate and InclusiveScan(maximum), BlockLoad/Store TRANSPOSE, 4 items/thread",
     m_cub_scan)


def m_cub_scan_algos(b, G=2, B=128):
    x = [int(v) for v in b["in"]]
    o64, of = [], []
    for k in range(G):
        acc, accf = 0, Fraction(0)
        for t in range(B):
            v = x[k * B + t]
            acc = (acc + (v << 8)) & M64
            o64.append(acc)
            of.append(float(accf))
            accf += Fraction(v & 255, 2)
    return {"out64": exact(np.array(o64, dtype=np.uint64)), "outf": exact(np.array(of, dtype=np.float32))}


case("cub-block-scan-algos", "cub_block_scan.cu", "cub_block_scan.sm_80.ptx", "cub_block_scan_algos", [2], [128],
     {"in": {"type": "u32", "count": 256, "init": {"random": 1402}},
      "out64": {"type": "u64", "count": 256, "init": 0}, "outf": {"type": "f32", "count": 256, "init": 0}},
     ["in", "out64", "outf"], ["out64", "outf"],
     "cub::BlockScan BLOCK_SCAN_RAKING on u64 (InclusiveSum) and BLOCK_SCAN_WARP_SCANS on f32 (ExclusiveSum, exact halves)",
     m_cub_scan_algos)

# --- recursion.cu ------------------------------------------------------------------------------


def m_recursion(b, threads=64, n=500):
    x = [int(v) for v in b["in"]]

    def fib(k):
        return k if k < 2 else fib(k - 1) + fib(k - 2)

    out = []
    for g in range(threads):
        a = sorted((x[(g * 5 + k * 7) % n] & 0xFFFF) % 1000 - 300 for k in range(12))
        s_min, s_max, s_sum = min(a), max(a), sum(a)
        o = [0] * 16
        o[0] = fib(g % 16)
        o[1] = math.gcd((x[g % n] & 0xFFFFFFFF) % 5000 + 1, (x[(g + 1) % n] & 0xFFFFFFFF) % 3000 + 1)
        o[2:14] = a
        o[14] = cmod(s_sum, 1000) * 3 + s_max - s_min
        o[15] = a[(x[g % n] & 0xFFFF) % 12]
        out += o
    return {"out": exact(wrap32(out))}


case("recursion", "recursion.cu", "recursion.sm_90.ptx", "recursion_local", [1], [64],
     {"in": {"type": "s32", "count": 500, "init": {"random": 1501}}, "out": {"type": "s32", "count": 1024, "init": 0}},
     ["in", "out", {"s32": 500}], ["out"],
     "__noinline__ recursive device functions (fib, gcd, quicksort on a local array), a struct returned by value and "
     "passed by value (.param .align 8 .b8 arrays), dynamic indexing into .local memory",
     m_recursion)


def m_indirect(b):
    x = [int(v) for v in b["in"]]
    out = []
    for g in range(64):
        sel, p, q = x[3 * g], cmod(x[3 * g + 1], 1000), cmod(x[3 * g + 2], 1000)
        op = (sel & 0xFFFFFFFF) % 4
        out.append([p + q, p - q, p * q, max(p, q)][op])
    return {"out": exact(wrap32(out))}


case("indirect-calls", "recursion.cu", "recursion.sm_80.ptx", "indirect_calls", [1], [64],
     {"in": {"type": "s32", "count": 192, "init": {"random": 1502}}, "out": {"type": "s32", "count": 64, "init": 0}},
     ["in", "out"], ["out"],
     "calls through a local table of device-function pointers (call with a .callprototype, function addresses via mov)",
     m_indirect)

# --- half_bf16.cu ------------------------------------------------------------------------------


def f16_inputs():
    specials = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x477FE000, 0x477FEFFF, 0x477FF000, 0x477FF001,
                0x47800000, 0xC77FF000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x33800000,
                0x33000000, 0x33000001, 0x32FFFFFF, 0x387FC000, 0x38800000, 0x38801000, 0x38802000, 0x3DCCCCCD,
                0x3EAAAAAB, 0x40490FDB, 0xC0490FDB, 0x3F7FFFFF, 0x3F800001, 0x3F801000, 0x3F803000, 0x3F802000,
                0x00000001, 0x80000001, 0x007FFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F808000, 0x3F818000, 0x3F80C000,
                0x4B800000, 0x4B800001, 0xCB7FFFFF, 0x46FFFE00, 0x46FFFF00, 0x3A800100, 0xBA800300, 0x3FFFFFFF]
    r = random.Random(1601)
    vals = list(specials)
    while len(vals) < 128:
        e = r.randint(100, 150)
        vals.append((r.randint(0, 1) << 31) | (e << 23) | r.getrandbits(23))
    ys = []
    for i in range(128):
        e = r.randint(110, 145)
        ys.append((r.randint(0, 1) << 31) | (e << 23) | r.getrandbits(23))
    ys[0:8] = [0x3F800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000000, 0x80000000, 0x477FE000, 0x3F000000]
    return vals, ys


def cvt_half(f, mode="rn"):
    if math.isnan(f):
        return None  # some NaN
    if f == 0:
        return 0x8000 if math.copysign(1, f) < 0 else 0
    if math.isinf(f):
        return 0x7C00 if f > 0 else 0xFC00
    return f16_bits(round_frac(Fraction(f), *F16, mode))


def cvt_bf16(f, mode="rn"):
    if math.isnan(f):
        return None  # some NaN
    if f == 0:
        return 0x8000 if math.copysign(1, f) < 0 else 0
    if math.isinf(f):
        return 0x7F80 if f > 0 else 0xFF80
    return bf16_bits(round_frac(Fraction(f), *BF16, mode))


def half_val(h):
    if h is None:
        return math.nan
    return float(np.array([h], dtype=np.uint16).view(np.float16)[0])


def bf_val(h):
    if h is None:
        return math.nan
    return float(np.array([h << 16], dtype=np.uint32).view(np.float32)[0])


def half_op(fmt, vals, fn):
    """Round the exact result of fn over finite values; IEEE rules for infinities and NaN."""
    cvt = cvt_half if fmt == "h" else cvt_bf16
    if any(math.isnan(v) for v in vals):
        return None  # any NaN
    if any(math.isinf(v) for v in vals):
        try:
            r = fn(*vals)
        except (ValueError, ArithmeticError):
            return None
        return None if math.isnan(r) else cvt(r)
    r = fn(*[Fraction(v) for v in vals])
    if r == 0:
        return cvt(fn(*vals))  # an exact zero: IEEE double arithmetic gives its sign
    return cvt(r)


def m_f16(b, n=128):
    xs = [float(f32_of_bits(v)) for v in b["xin"]]
    ys = [float(f32_of_bits(v)) for v in b["yin"]]
    bits = [[None] * n for _ in range(14)]
    back = [[None] * n for _ in range(5)]
    for i in range(n):
        x, y = xs[i], ys[i]
        hx, hy = cvt_half(x), cvt_half(y)
        bx, by = cvt_bf16(x), cvt_bf16(y)
        fx, fy = half_val(hx), half_val(hy)
        gx, gy = bf_val(bx), bf_val(by)
        bits[0][i] = hx
        bits[1][i] = cvt_half(x, "rz")
        bits[2][i] = cvt_half(x, "rd")
        bits[3][i] = cvt_half(x, "ru")
        bits[4][i] = bx
        bits[5][i] = None if math.isnan(x) else (bits_of_f32(np.float32(x)) >> 16)
        bits[6][i] = half_op("h", [fx, fy], lambda a, c: a + c)
        bits[7][i] = half_op("h", [fx, fy], lambda a, c: a * c)
        bits[8][i] = half_op("h", [fx, fy], lambda a, c: a * c + 1)
        bits[9][i] = half_op("h", [fx, fy], lambda a, c: a + c)
        bits[10][i] = half_op("h", [fy], lambda c: c * Fraction(1, 2) if isinstance(c, Fraction) else c * 0.5)
        bits[11][i] = half_op("b", [gx, gy], lambda a, c: a + c)
        bits[12][i] = half_op("b", [gx, gy], lambda a, c: a * c)
        xi = int(np.array([b["xin"][i]], dtype=np.uint32).view(np.int32)[0]) >> 12
        bits[13][i] = cvt_half(float(xi))
        back[0][i] = fx
        back[1][i] = gx
        if math.isnan(fx):
            back[2][i] = 0.0
        elif math.isinf(fx):
            back[2][i] = float(np.float32(2147483647 if fx > 0 else -2147483648))
        else:
            back[2][i] = float(round(Fraction(fx)))  # Python rounds half to even
        back[3][i] = None if math.isnan(x) else bf_val(bits_of_f32(np.float32(x)) >> 16)
        lt = int(fx < fy)
        ge = int(fx >= fy)
        isnan = int(math.isnan(fx))
        isinf = (1 if fx > 0 else -1) if math.isinf(fx) else 0
        back[4][i] = float(lt | ge << 1 | isnan << 2 | isinf * 8)
    return {"bits": ("f16bits", [v for row in bits for v in row]), "back": ("floats-nan", [v for row in back for v in row])}


F16_X, F16_Y = f16_inputs()
case("f16-bf16", "half_bf16.cu", "half_bf16.sm_90.ptx", "f16_bf16_convert", [2], [64],
     {"xin": {"type": "u32", "values": F16_X}, "yin": {"type": "u32", "values": F16_Y},
      "bits": {"type": "u16", "count": 14 * 128, "init": 0}, "back": {"type": "f32", "count": 5 * 128, "init": 0}},
     ["xin", "yin", "bits", "back", {"s32": 128}], ["bits", "back"],
     "cvt f32->f16 (rn/rz/rm/rp) and f32->bf16 (rn/rz), f16/bf16 add/mul/fma and f16x2 ops, cvt back to f32 and to s32, "
     "setp on f16; inputs are f32 bit patterns incl. NaN, inf, subnormals, ties and overflow boundaries",
     m_f16)

# --- math.cu -----------------------------------------------------------------------------------


def m_math_f32(b, n=256):
    x = (b["in"].astype(np.float32) * np.float32(8) - np.float32(4)).astype(np.float64)
    ax = np.abs(x) + 0.125
    from math import erf
    rows = [np.sin(x), np.cos(x), np.exp(x), np.log(ax), np.sqrt(ax), 1 / np.sqrt(ax), np.log2(ax), x / ax, x / ax,
            ax ** x, np.tanh(x), np.sin(x), np.exp(x), x * ax - 1, np.arctan2(x, ax - 1),
            np.array([erf(v) for v in x]) + np.floor(np.float32(x) * np.float32(3.3)) + np.trunc(x)
            + np.rint(np.float32(x) * np.float32(1.5))]
    return {"out": close(np.concatenate(rows), 2e-5, 2e-6)}


case("math-f32", "math.cu", "math.sm_90.ptx", "math_f32", [1], [256],
     {"in": {"type": "f32", "count": 256, "init": {"random": 1701}}, "out": {"type": "f32", "count": 4096, "init": 0}},
     ["in", "out", {"s32": 256}], ["out"],
     "f32 math library as nvcc expands it: sinf cosf expf logf sqrtf rsqrtf log2f __fdividef div powf tanhf __sinf "
     "__expf fmaf atan2f erff floorf truncf rintf (rows k*256..; rows 5,6,7,11,12 and parts of others use .approx)",
     m_math_f32,
     tolerance="rows 5 (rsqrt.approx), 6 (lg2.approx), 7 (div.approx), 11 (sin.approx), 12 (ex2.approx) come from "
               "approximate instructions; the hardware values are recorded bit-exactly")


def m_math_f64(b, n=256):
    x = b["in"].astype(np.float64) * 8.0 - 4.0
    ax = np.abs(x) + 0.125
    rows = [np.sin(x), np.cos(x), np.exp(x), np.log(ax), np.sqrt(ax), 1 / np.sqrt(ax), x / ax, ax ** x, np.tanh(x),
            np.cbrt(x), x * ax - 1 + np.floor(x * 3.3) + np.rint(x * 7.0), np.arctan2(x, ax - 1) + x.astype(np.float32)]
    return {"out": close(np.concatenate(rows), 1e-14, 1e-15)}


case("math-f64", "math.cu", "math.sm_90.ptx", "math_f64", [1], [256],
     {"in": {"type": "f64", "count": 256, "init": {"random": 1702}}, "out": {"type": "f64", "count": 3072, "init": 0}},
     ["in", "out", {"s32": 256}], ["out"],
     "f64 math library: sin cos exp log sqrt rsqrt div pow tanh cbrt fma floor __double2int_rn atan2 cvt.rn.f32.f64",
     m_math_f64)


def isqrt_rd(a):
    """largest f32 r with r*r <= a (a a non-negative f32)"""
    fr = Fraction(float(a))
    if fr == 0:
        return np.float32(0)
    r = to_f32(math.sqrt(float(a)), "rn")
    while Fraction(float(r)) ** 2 > fr:
        r = np.nextafter(r, np.float32(0))
    while Fraction(float(np.nextafter(r, np.float32(np.inf)))) ** 2 <= fr:
        r = np.nextafter(r, np.float32(np.inf))
    return r


def m_convert(b, n=256):
    inp = b["in"].astype(np.float32)
    rows = [[0] * n for _ in range(12)]
    for i in range(n):
        x = np.float32((inp[i] - np.float32(0.5)) * np.float32(300000))
        fx = Fraction(float(x))
        rows[0][i] = int(round(fx)) & 0xFFFFFFFF
        rows[1][i] = int(fx) & 0xFFFFFFFF
        rows[2][i] = math.floor(fx) & 0xFFFFFFFF
        rows[3][i] = math.ceil(fx) & 0xFFFFFFFF
        rows[4][i] = int(round(abs(fx))) & 0xFFFFFFFF
        t = np.float32(inp[i] * np.float32(2147483647.0))
        xi = (int(Fraction(float(t))) * 3) & 0xFFFFFFFF
        xi = xi - (1 << 32) if xi >= 1 << 31 else xi
        xl = xi * 1234567
        rows[5][i] = bits_of_f32(to_f32(xi, "rn"))
        rows[6][i] = bits_of_f32(to_f32(xi, "rz"))
        rows[7][i] = bits_of_f32(to_f32(xl, "rn"))
        rows[8][i] = int(Fraction(float(np.float32(x * np.float32(12345))))) & 0xFFFFFFFF
        d = float(x) * 1.0000001
        rows[9][i] = bits_of_f32(to_f32(d, "rn"))
        rows[10][i] = bits_of_f32(to_f32(d, "ru"))
        q = np.float32(x / np.float32(1000))
        sat = np.float32(min(max(float(q), 0.0), 1.0))
        rows[11][i] = bits_of_f32(sat) ^ bits_of_f32(isqrt_rd(np.float32(abs(x))))
    return {"out": exact(np.array([v for r in rows for v in r], dtype=np.uint32))}


case("convert-modes", "math.cu", "math.sm_80.ptx", "convert_modes", [1], [256],
     {"in": {"type": "f32", "count": 256, "init": {"random": 1703}}, "out": {"type": "u32", "count": 3072, "init": 0}},
     ["in", "out", {"s32": 256}], ["out"],
     "cvt between f32/f64 and s32/u32/s64 in rni/rzi/rmi/rpi and rn/rz/rp modes, cvt.sat, sqrt.rm.f32",
     m_convert)

# --- sync_count.cu -----------------------------------------------------------------------------


def sync_input():
    r = random.Random(1801)
    v = [r.randint(0, 4095) for _ in range(480)]
    v[37] = 2000                      # block 0 holds the threshold value itself
    for i in range(160, 480):
        if v[i] == 2000:
            v[i] = 2001
    for i in range(320, 480):         # block 2: every value < 4000, so the _and vote is true
        v[i] %= 4000
    return v


def m_sync(b, G=3, B=160, thr=2000):
    x = [int(v) & 0xFFF for v in b["in"]]
    out, rot = [], []
    for blk in range(G):
        v = x[blk * B:(blk + 1) * B]
        gids = range(blk * B, (blk + 1) * B)
        out += [sum(1 for a in v if a > thr), int(all(a < 4000 or (g & 1) for a, g in zip(v, gids))),
                int(any(a == thr for a in v)), sum(1 for a in v if (a & 3) == (blk & 3))]
        s2 = [v[(t + 1) % B] + v[t] for t in range(B)]
        rot += [s2[B - 1 - t] for t in range(B)]
    return {"out": exact(wrap32(out)), "rot": exact(wrap32(rot))}


case("sync-count", "sync_count.cu", "sync_count.sm_90.ptx", "sync_votes", [3], [160],
     {"in": {"type": "s32", "values": sync_input()}, "out": {"type": "s32", "count": 12, "init": -1},
      "rot": {"type": "s32", "count": 480, "init": 0}},
     ["in", "out", "rot", {"s32": 2000}], ["out", "rot"],
     "__syncthreads_count/_and/_or (bar.red.popc/and/or), __syncwarp, membar.cta/gl, a 160-thread block",
     m_sync)

# --- tma.cu ------------------------------------------------------------------------------------


def m_bulk(b):
    x = [int(v) for v in b["in"]]
    return {"out": exact(wrap32([x[(i & ~1023) + ((i & 1023) ^ 1)] * 3 + 1 for i in range(2048)]))}


case("bulk-copy", "tma.cu", "tma.sm_90.ptx", "bulk_copy_roundtrip", [2], [128],
     {"in": {"type": "s32", "values": rnd_values(1901, 2048, -100000, 100000)}, "out": {"type": "s32", "count": 2048, "init": 0}},
     ["in", "out"], ["out"],
     "cp.async.bulk global->shared with mbarrier complete_tx (barrier_arrive_tx / expect_tx), fence.proxy.async, "
     "cp.async.bulk shared->global with bulk_group commit/wait",
     m_bulk)


def m_tma(b):
    A = b["A"].astype(np.float32).reshape(32, 64)
    return {"Bt": exact((A.T * np.float32(2)).astype(np.float32).reshape(-1))}


case("tma-transpose", "tma.cu", "tma.sm_90.ptx", "tma_transpose_2d", [4, 2], [16, 16],
     {"A": {"type": "f32", "count": 2048, "init": {"random": 1902}}, "Bt": {"type": "f32", "count": 2048, "init": 0}},
     [{"tensorMap": "tmIn"}, {"tensorMap": "tmOut"}], ["Bt"],
     "cp.async.bulk.tensor.2d tile load (tensor map by value, __grid_constant__) into shared memory, transpose, "
     "cp.async.bulk.tensor.2d store through a second tensor map: Bt (64x32) = 2 * transpose(A (32x64))",
     m_tma,
     tensorMaps={
         "tmIn": {"buffer": "A", "type": "f32", "dims": [64, 32], "strides": [256], "box": [16, 16],
                  "elementStrides": [1, 1], "interleave": "none", "swizzle": "none", "l2Promotion": "none",
                  "oobFill": "none"},
         "tmOut": {"buffer": "Bt", "type": "f32", "dims": [32, 64], "strides": [128], "box": [16, 16],
                   "elementStrides": [1, 1], "interleave": "none", "swizzle": "none", "l2Promotion": "none",
                   "oobFill": "none"}})


def m_ptx_bulk(b):
    x = [int(v) for v in b["in"]]
    out = []
    for blk in range(2):
        for p in range(2):
            base = (blk * 2 + p) * 512
            out += [x[base + 511 - i] + p for i in range(512)]
    return {"out": exact(wrap32(out))}


case("ptx-bulk-mbarrier", "tma.cu", "tma.sm_90.ptx", "ptx_bulk_mbarrier", [2], [128],
     {"in": {"type": "s32", "values": rnd_values(1903, 2048, -100000, 100000)}, "out": {"type": "s32", "count": 2048, "init": 0}},
     ["in", "out"], ["out"],
     "cuda::ptx wrappers on a raw mbarrier: mbarrier.init, fence.mbarrier_init, cp.async.bulk, "
     "mbarrier.arrive.expect_tx, mbarrier.try_wait.parity loop over two phases",
     m_ptx_bulk)

# --- transpose.cu ------------------------------------------------------------------------------


def m_transpose(b, w=50, h=40):
    return {"out": exact(b["in"].reshape(h, w).T.reshape(-1).astype(np.float32))}


case("transpose", "transpose.cu", "transpose.sm_80.ptx", "transpose_padded", [2, 2], [32, 8],
     {"in": {"type": "f32", "count": 2000, "init": "iota"}, "out": {"type": "f32", "count": 2000, "init": -1}},
     ["in", "out", {"s32": 50}, {"s32": 40}], ["out"],
     "32x33 padded shared-memory transpose of a 40x50 matrix, 2D grid, partial tiles",
     m_transpose)


def m_saxpy(b, n4=300):
    x, y = b["x"].astype(np.float32), b["y"].astype(np.float32).copy()
    for i in range(4 * n4):
        y[i] = fma32(np.float32(2.5), x[i], y[i])
    return {"y": exact(y)}


case("saxpy-vec4", "transpose.cu", "transpose.sm_90.ptx", "saxpy_vec4", [2], [64],
     {"x": {"type": "f32", "count": 1280, "init": {"random": 2001}}, "y": {"type": "f32", "count": 1280, "init": {"random": 2002}}},
     ["x", "y", {"f32": 2.5}, {"s32": 300}], ["y"],
     "float4 vector loads/stores (ld.global.nc.v4.f32 via __ldg), f32 scalar parameter, grid-stride loop, "
     "elements past 4*n4 untouched",
     m_saxpy)


def m_dyn3d(b):
    x = [int(v) for v in b["in"]]
    out = []
    for bz in range(2):
        for bx in range(2):
            blk = bz * 2 + bx
            for t in range(64):
                tx, ty, tz = t % 4, (t // 4) % 4, t // 16
                out.append(x[blk * 64 + 63 - t] + (tz << 16 | ty << 8 | tx))
    return {"out": exact(wrap32(out))}


case("dyn-shared-3d", "transpose.cu", "transpose.sm_90.ptx", "dyn_shared_reverse_3d", [2, 1, 2], [4, 4, 4],
     {"in": {"type": "s32", "values": rnd_values(2003, 256, -100000, 100000)}, "out": {"type": "s32", "count": 256, "init": 0}},
     ["in", "out"], ["out"],
     "extern __shared__ array sized by sharedBytes=256, 3D block (4,4,4) and 3D grid (2,1,2) index arithmetic",
     m_dyn3d, sharedBytes=256)


def m_mixed(b, n=256):
    q = [int(v) for v in b["b"]]
    s = [int(v) for v in b["s"]]
    d = [float(v) for v in b["d"]]
    o32, o64 = [0] * (2 * n), []
    for i in range(n):
        qx, qy, qz, qw = q[4 * i:4 * i + 4]
        o32[i] = qx | qy << 8 | (qz ^ qw) << 16
        o32[n + i] = (s[2 * i] * s[2 * i + 1]) & 0xFFFFFFFF
        o64.append(s[2 * i] * 100000 + int(d[2 * i] * 1000.0) - int(d[2 * i + 1] * 10.0))
    return {"out32": exact(np.array(o32, dtype=np.uint32)), "out64": exact(np.array(o64, dtype=np.int64))}


case("mixed-widths", "transpose.cu", "transpose.sm_90.ptx", "mixed_widths", [2], [128],
     {"b": {"type": "u8", "count": 1024, "init": {"random": 2004}}, "s": {"type": "s16", "count": 512, "init": {"random": 2005}},
      "d": {"type": "f64", "count": 512, "init": {"random": 2006}},
      "out32": {"type": "u32", "count": 512, "init": 0}, "out64": {"type": "s64", "count": 256, "init": 0}},
     ["b", "s", "d", "out32", "out64", {"s32": 256}], ["out32", "out64"],
     "uchar4 / short2 / double2 vector loads, 8- and 16-bit widening, s64 results from cvt.rzi.s64.f64",
     m_mixed)

# --- globals.cu --------------------------------------------------------------------------------


def m_globals(b, n=200):
    x = [int(v) for v in b["in"]]
    coef = [3, -1, 4, 1, -5, 9, 2, -6]
    lut = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4]
    table = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    tag = [112, 116, 120, 0, 1, 2]
    flut = [0.5, -1.25, 3.0, np.float32(1.0e-3)]
    out, fout = [], []
    for i in range(n):
        acc = sum(coef[k] * x[(i + k) % n] for k in range(8))
        acc += lut[x[i] & 15] + lut[(x[i] >> 4) & 15]
        acc += 100 + -3 * table[i % 3][i % 4] + tag[i % 6]
        out.append(acc)
        fout.append(fma32(np.float32(0.75), np.float32(flut[i % 4]), np.float32(0.5)))
    return {"out": exact(wrap32(out)), "fout": close(np.array(fout, dtype=np.float64), 1e-7),
            "misc": exact(np.array([n, 0x0123456789ABCDEF ^ n], dtype=np.uint64))}


case("module-globals", "globals.cu", "globals.sm_90.ptx", "module_globals", [2], [128],
     {"in": {"type": "s32", "values": rnd_values(2101, 200, -50000, 50000)},
      "out": {"type": "s32", "count": 200, "init": 0}, "fout": {"type": "f32", "count": 200, "init": 0},
      "misc": {"type": "u64", "count": 2, "init": 0}},
     ["in", "out", "fout", "misc", {"s32": 200}], ["out", "fout", "misc"],
     "module-scope .const and .global variables with initializers (arrays, a struct with char/short/double fields, "
     "a u64), a zero-initialized .global counter (atomicAdd), a store into a .global array",
     m_globals)


# ----------------------------------------------------------------------------------------------
# writing cases

def fmt_json(obj, indent=0):
    """JSON with one line per key and number lists kept on one line."""
    pad = " " * indent
    flat = json.dumps(obj)
    if len(flat) <= 110 or not isinstance(obj, (dict, list)):
        return flat
    if isinstance(obj, dict) and all(isinstance(v, (int, float, str)) or
                                     (isinstance(v, list) and not any(isinstance(x, (dict, list)) for x in v))
                                     for v in obj.values()):
        return flat
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f'{pad} {json.dumps(k)}: {fmt_json(v, indent + 1)}' for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list) and any(isinstance(v, (dict, list)) for v in obj):
        return "[\n" + ",\n".join(pad + " " + fmt_json(v, indent + 1) for v in obj) + "\n" + pad + "]"
    return json.dumps(obj)


def launch_of(c):
    launch = {"about": f"{c['about']} (testdata/nvcc/src/{c['src']}, {c['ptx']})"}
    if "tolerance" in c["extra"]:
        launch["tolerance"] = c["extra"]["tolerance"]
    launch["kernel"] = c["kernel"]
    launch["grid"] = c["grid"]
    launch["block"] = c["block"]
    if "cluster" in c["extra"]:
        launch["cluster"] = c["extra"]["cluster"]
    if "sharedBytes" in c["extra"]:
        launch["sharedBytes"] = c["extra"]["sharedBytes"]
    launch["buffers"] = c["buffers"]
    if "tensorMaps" in c["extra"]:
        launch["tensorMaps"] = c["extra"]["tensorMaps"]
    launch["params"] = c["params"]
    launch["dump"] = c["dump"]
    return launch


def case_dir(c):
    return os.path.join(RUN, "nvcc-" + c["name"])


def write():
    for c in CASES:
        d = case_dir(c)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(HERE, c["ptx"])) as f:
            ptx = f.read()
        if f".entry {c['kernel']}(" not in ptx:
            raise SystemExit(f"{c['name']}: {c['kernel']} is not an entry of {c['ptx']}")
        with open(os.path.join(d, "kernel.ptx"), "w") as f:
            f.write(ptx)
        with open(os.path.join(d, "launch.json"), "w") as f:
            f.write(fmt_json(launch_of(c)) + "\n")
    print(f"wrote {len(CASES)} cases under {os.path.relpath(RUN, ROOT)}/nvcc-*")


# ----------------------------------------------------------------------------------------------
# checking hardware results

def compare(name, buf, got_type, got_values, want):
    kind = want[0]
    got = np.array([float("nan") if v == "NaN" else (math.inf if v == "Infinity" else (-math.inf if v == "-Infinity" else v))
                    for v in got_values], dtype=object)
    bad = []
    if kind == "exact":
        exp = np.asarray(want[1])
        if exp.dtype.kind == "f":
            exp32 = exp.astype(DT[got_type]) if got_type in ("f32", "f64") else exp
            g = np.array(got.tolist(), dtype=DT[got_type])
            same = (g.view(f"u{g.itemsize}") == exp32.view(f"u{exp32.itemsize}")) | (np.isnan(g) & np.isnan(exp32))
            bad = [i for i in range(len(g)) if not same[i]]
        else:
            bad = [i for i in range(len(exp)) if int(got[i]) != int(exp[i])]
    elif kind == "close":
        exp, rtol, atol = np.asarray(want[1], dtype=np.float64), want[2], want[3]
        g = np.array(got.tolist(), dtype=np.float64)
        bad = [i for i in range(len(g)) if not (abs(g[i] - exp[i]) <= atol + rtol * abs(exp[i])
                                                or (np.isnan(g[i]) and np.isnan(exp[i])))]
    elif kind == "f16bits":
        bad = [i for i, e in enumerate(want[1])
               if (e is None and not ((int(got[i]) & 0x7C00) == 0x7C00 and (int(got[i]) & 0x3FF)
                                      or (int(got[i]) & 0x7F80) == 0x7F80 and (int(got[i]) & 0x7F)))
               or (e is not None and int(got[i]) != e)]
    elif kind == "floats-nan":
        bad = [i for i, e in enumerate(want[1])
               if (e is None and not math.isnan(float(got[i])))
               or (e is not None and not (float(np.float32(got[i])) == e and math.copysign(1, float(got[i])) == math.copysign(1, e)
                                          or (math.isnan(e) and math.isnan(float(got[i])))))]
    if bad:
        i = bad[0]
        e = want[1][i]
        print(f"  {name}.{buf}: {len(bad)} mismatches, first at [{i}]: got {got_values[i]} model {e}")
    return not bad


def check(results_path):
    byname = {c["name"]: c for c in CASES}
    results = {}
    with open(results_path) as f:
        for line in f:
            line = line.strip()
            if not line or " " not in line:
                continue
            key, rest = line.split(" ", 1)
            if key.startswith("nvcc-"):
                results[key[5:]] = rest
    ok_cases, failed = [], []
    for name, c in byname.items():
        if name not in results:
            print(f"{name}: no result")
            failed.append(name)
            continue
        if results[name].startswith("NONDETERMINISTIC"):
            print(f"{name}: NONDETERMINISTIC")
            failed.append(name)
            continue
        res = json.loads(results[name])
        if res.get("status") != "ok":
            print(f"{name}: status {res.get('status')} {res.get('diagnostics')}")
            failed.append(name)
            continue
        launch = launch_of(c)
        inputs = {k: init_buffer(v) for k, v in launch["buffers"].items()}
        model = c["model"](inputs)
        good = True
        for buf, want in model.items():
            got = res["buffers"][buf]
            good &= compare(name, buf, got["type"], got["values"], want)
        if set(res["buffers"]) != set(launch["dump"]):
            print(f"  {name}: dumped buffers {sorted(res['buffers'])} != {launch['dump']}")
            good = False
        if good:
            ok_cases.append(name)
            with open(os.path.join(case_dir(c), "expected.json"), "w") as f:
                f.write(fmt_json({"status": res["status"], "buffers": res["buffers"]}) + "\n")
            print(f"{name}: ok")
        else:
            print(f"{name}: MODEL MISMATCH (expected.json not written)")
            failed.append(name)
    print(f"{len(ok_cases)} cases agree with their models; {len(failed)} do not: {' '.join(failed)}")
    return 0 if not failed else 1


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "write":
        write()
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2]))
    elif len(sys.argv) >= 2 and sys.argv[1] == "list":
        for c in CASES:
            print(f"nvcc-{c['name']}\t{c['kernel']}\t{c['ptx']}")
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
