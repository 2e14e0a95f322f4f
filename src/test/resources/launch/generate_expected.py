#!/usr/bin/env python3
"""Writes the expected values the launch tests compare against, computed independently of the Java
code: buffer initialisation with numpy exactly as gpu-reference/harness.py does it, SplitMix64 with
Python integers, and shortest float decimals as Python and numpy print them.

    python3 generate_expected.py      # rewrites init-cases.json, splitmix64.json, shortest-floats.json

Needs numpy. The output is deterministic.
"""
import hashlib, json, math, os, random, struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MASK64 = (1 << 64) - 1
DTYPES = {
    "u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16, "u32": np.uint32,
    "s32": np.int32, "u64": np.uint64, "s64": np.int64, "f32": np.float32, "f64": np.float64,
    "b8": np.uint8, "b16": np.uint16, "b32": np.uint32, "b64": np.uint64,
}


# --- the harness's own code, unchanged ---------------------------------------------------------
def splitmix64(seed, n):
    state = seed & MASK64
    out = []
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        out.append(z ^ (z >> 31))
    return out


def init_buffer(spec):
    t = spec["type"]
    dt = np.dtype(DTYPES[t])
    if "values" in spec:
        return np.array(spec["values"], dtype=dt)
    n = int(spec["count"])
    init = spec.get("init", 0)
    if init == "iota":
        return np.arange(n).astype(dt)
    if isinstance(init, dict) and "random" in init:
        raw = splitmix64(int(init["random"]), n)
        if dt.kind == "f":
            return np.array([(x >> 40) * 2.0 ** -24 for x in raw], dtype=dt)
        bits = dt.itemsize * 8
        return np.array([x & ((1 << bits) - 1) for x in raw], dtype=np.uint64).astype(
            np.dtype(f"u{dt.itemsize}")).view(dt)
    return np.full(n, init, dtype=dt)


def to_json_values(arr, t):
    if np.dtype(DTYPES[t]).kind == "f":
        return [float(str(x)) if np.isfinite(x) else ("NaN" if np.isnan(x) else ("Infinity" if x > 0 else "-Infinity"))
                for x in arr]
    return [int(x) for x in arr]
# ------------------------------------------------------------------------------------------------


def init_cases():
    cases = []
    int_types = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "b8", "b16", "b32", "b64"]
    float_types = ["f32", "f64"]
    for t in int_types + float_types:
        info = np.iinfo(DTYPES[t]) if t not in float_types else None
        specs = [
            {"type": t, "count": 300, "init": "iota"},
            {"type": t, "count": 5},
            {"type": t, "count": 0, "init": "iota"},
            {"type": t, "count": 100, "init": {"random": 0}},
            {"type": t, "count": 100, "init": {"random": 7}},
            {"type": t, "count": 50, "init": {"random": 12345678901234567890}},
            {"type": t, "count": 50, "init": {"random": -1}},
            {"type": t, "count": 3, "init": 0},
            {"type": t, "count": 3, "init": 1},
            {"type": t, "values": []},
        ]
        if info is not None:
            specs += [
                {"type": t, "count": 4, "init": int(info.max)},
                {"type": t, "count": 4, "init": int(info.min)},
                {"type": t, "count": 2, "init": 100.0},
                {"type": t, "values": [int(info.min), 0, 1, int(info.max), 42, 7.0]},
            ]
            if info.min < 0:
                specs.append({"type": t, "count": 3, "init": -1})
        else:
            specs += [
                {"type": t, "count": 2, "init": v}
                for v in [2.5, 0.1, -0.0, 1e-45, 3.4e38, 1e-320, 16777217, 2 ** 60 + 2 ** 36 + 1,
                          0.30000000000000004, 1.00000001, -123456.789, 1e300 if t == "f64" else 1e30,
                          float("nan"), float("inf"), float("-inf"), "NaN", "-Infinity"]
            ]
            specs += [
                {"type": t, "values": [1.0, 2.5, -3.0, 0.1, 1, -0.0, 1e-40, 2 ** 60 + 2 ** 36 + 1, "NaN", "Infinity",
                                       3.4028235e38, 3.4028235677973362e38, 5e-324, 1.1754942e-38]},
                {"type": t, "count": 3000, "init": "iota"},
            ]
        specs += [{"type": t, "count": 70000, "init": "iota"}] if t in ("u16", "s16") else []
        for spec in specs:
            arr = init_buffer(spec)
            data = arr.tobytes()
            case = {"spec": spec, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            if len(data) <= 4096:
                case["hex"] = data.hex()
                case["values"] = to_json_values(arr, t)
            cases.append(case)
    return cases


def shortest_floats():
    rng = random.Random(20240601)
    f32 = [0x00000001, 0x00000002, 0x00000003, 0x00000007, 0x00800000, 0x007FFFFF, 0x7F7FFFFF, 0x3DCCCCCD,
           0x80000000, 0x00000000, 0x3F800000, 0x4B800001, 0x5E9A4A4D]
    f64 = [0x0000000000000001, 0x0000000000000002, 0x0000000000000003, 0x7FEFFFFFFFFFFFFF, 0x0010000000000000,
           0x3F60624DD2F1A9FC, 0x44B52D02C7E14AF6, 0x44C52D02C7E14AF6, 0x8000000000000000, 0x3FB999999999999A]
    # hard cases named by value
    f32 += [struct.unpack("<I", struct.pack("<f", v))[0] for v in (1e-45, 3.4028235e38, 1e10, 8.41e21, 2.82879384806159e17)]
    f64 += [struct.unpack("<Q", struct.pack("<d", v))[0] for v in (2.0e-3, 1.0e23, 2e23, 5e-324, 9.9e-324, 1e16, 1e-5, 123456789012345680.0)]
    for _ in range(3000):
        f32.append(rng.getrandbits(32))
        f64.append(rng.getrandbits(64))
    for _ in range(1000):  # short decimals, where ties between candidates are likeliest
        v = rng.randint(1, 99999) * 10.0 ** rng.randint(-45, 33)
        f32.append(struct.unpack("<I", struct.pack("<f", np.float32(v)))[0])
        w = rng.randint(1, 99999) * 10.0 ** rng.randint(-320, 300)
        f64.append(struct.unpack("<Q", struct.pack("<d", w))[0])
    out = []
    for bits in f32:
        x = np.frombuffer(struct.pack("<I", bits), dtype=np.float32)[0]
        if np.isfinite(x):
            out.append({"type": "f32", "bits": f"{bits:08x}", "text": repr(float(str(x)))})
    for bits in f64:
        x = struct.unpack("<d", struct.pack("<Q", bits))[0]
        if math.isfinite(x):
            out.append({"type": "f64", "bits": f"{bits:016x}", "text": repr(x)})
    return out


def main():
    with open(os.path.join(HERE, "init-cases.json"), "w") as f:
        json.dump(init_cases(), f, indent=1)
        f.write("\n")
    with open(os.path.join(HERE, "splitmix64.json"), "w") as f:
        seeds = [0, 1, 7, 1234567, 2 ** 63, MASK64, -1]
        json.dump([{"seed": str(s), "outputs": [str(x) for x in splitmix64(s, 5)]} for s in seeds], f, indent=1)
        f.write("\n")
    with open(os.path.join(HERE, "shortest-floats.json"), "w") as f:
        json.dump(shortest_floats(), f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
