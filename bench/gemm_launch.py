#!/usr/bin/env python3
"""Prints the launch file of testdata/run/tma-gemm-pipeline at another size: C (M x N) = A (M x K)
* B (K x N), one 64 x 64 tile per CTA, the same random seeds. M and N must be multiples of 64,
K a multiple of 8. Usage: gemm_launch.py M N K"""
import json
import sys

m, n, k = (int(x) for x in sys.argv[1:4])
if m % 64 or n % 64 or k % 8 or min(m, n, k) <= 0:
    sys.exit("gemm_launch: M and N must be positive multiples of 64, K of 8")


def tmap(buf, inner, outer, box):
    return {"buffer": buf, "type": "f32", "dims": [inner, outer], "strides": [inner * 4], "box": box,
            "elementStrides": [1, 1], "interleave": "none", "swizzle": "none", "l2Promotion": "none",
            "oobFill": "none"}


launch = {
    "about": f"tma-gemm-pipeline at {m}x{n}x{k}",
    "kernel": "tma_gemm_pipeline",
    "grid": [n // 64, m // 64, 1],
    "block": [160, 1, 1],
    "buffers": {
        "A": {"type": "f32", "count": m * k, "init": {"random": 9001}},
        "B": {"type": "f32", "count": k * n, "init": {"random": 9002}},
        "C": {"type": "f32", "count": m * n, "init": 0},
    },
    "tensorMaps": {"tmA": tmap("A", k, m, [8, 64]), "tmB": tmap("B", n, k, [64, 8]), "tmC": tmap("C", n, m, [64, 64])},
    "params": [{"tensorMap": "tmA"}, {"tensorMap": "tmB"}, {"tensorMap": "tmC"}, {"s32": m}, {"s32": n}, {"s32": k}],
    "dump": ["C"],
}
print(json.dumps(launch, indent=1))
