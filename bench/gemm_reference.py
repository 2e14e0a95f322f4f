#!/usr/bin/env python3
"""Checks a C = A * B result against numpy, with A and B rebuilt from the launch file's
SplitMix64 initialisers (launch-format.md), so a benchmark cannot time a kernel that computes
something else. Usage: gemm_reference.py LAUNCH_JSON RESULT_JSON M N K
Exit status 0 when every element agrees within the tolerance of f32 dot products of length K."""
import json
import sys

import numpy as np

MASK = (1 << 64) - 1


def splitmix64_f32(seed, n):
    out = np.empty(n, dtype=np.float32)
    state = seed & MASK
    for i in range(n):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        out[i] = (z >> 40) * 2.0 ** -24
    return out


def buffer(spec):
    init = spec["init"]
    if isinstance(init, dict):
        return splitmix64_f32(int(init["random"]), int(spec["count"]))
    raise SystemExit("gemm_reference: only random f32 inputs are supported")


def main():
    launch = json.load(open(sys.argv[1]))
    result = json.load(open(sys.argv[2]))
    m, n, k = (int(x) for x in sys.argv[3:6])
    if result.get("status") != "ok":
        print(f"FAIL: status {result.get('status')}: {result.get('diagnostics')}")
        return 1
    a = buffer(launch["buffers"]["A"]).astype(np.float64).reshape(m, k)
    b = buffer(launch["buffers"]["B"]).astype(np.float64).reshape(k, n)
    want = a @ b
    got = np.array(result["buffers"]["C"]["values"], dtype=np.float64).reshape(m, n)
    # f32 accumulation of k products of values in [0, 1): relative error well below 1e-4
    err = np.abs(got - want) / np.maximum(np.abs(want), 1.0)
    worst = float(err.max())
    bad = int((err > 1e-4).sum())
    print(f"reference check: {m}x{n}x{k}, max relative error {worst:.2e}, {bad} elements off")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
