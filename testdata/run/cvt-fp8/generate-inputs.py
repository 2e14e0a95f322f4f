# Writes launch.json of the run case cvt-fp8 (python3 generate-inputs.py > launch.json): the f32
# pairs, f16x2 words and e4m3x2/e5m2x2 words that kernel.ptx converts. Its expected.json is what an
# H100 printed for them (tools/gpu-reference), never derived from this script or from ptxrun.
#
# Inputs of thread g (2048 threads): f32 a[g], b[g] (bit patterns); f16x2 h[g]; b16 p[g].
# The f32 and f16 inputs hold every e4m3 and e5m2 value, every midpoint between two neighbours
# (a rounding tie) and the value one ulp of the source format either side of it, of both signs;
# the largest finite values, the overflow thresholds and beyond; zeros, infinities, NaNs with
# several payloads, subnormal sources; then random values over the formats' ranges and random
# bit patterns. p holds every byte value in both halves.
import json, random, struct

N = 2048
r = random.Random(20261126)

def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]

def f16_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]

def values(ebits, mbits, bias, e4m3):
    """The positive finite values of a format, in increasing order."""
    out = []
    for code in range(1 << (ebits + mbits)):
        e, m = code >> mbits, code & ((1 << mbits) - 1)
        if e4m3 and code == 0x7f:
            continue
        if not e4m3 and e == (1 << ebits) - 1:
            continue
        out.append(m * 2.0 ** (1 - bias - mbits) if e == 0 else (1 + m / 2 ** mbits) * 2.0 ** (e - bias))
    return out

E4M3 = values(4, 3, 7, True)
E5M2 = values(5, 2, 15, False)

def ties(vals):
    """Every value, every midpoint between neighbours, and the midpoint above the largest."""
    out = list(vals)
    for lo, hi in zip(vals, vals[1:]):
        out.append((lo + hi) / 2)
    top = vals[-1] + (vals[-1] - vals[-2]) / 2
    out += [top, 2 * top, vals[-1] * 2]
    return out

def around(bits, step_bits_max):
    return [bits - 1, bits, bits + 1]

# f32 inputs: 4096 slots.
f32 = []
for x in ties(E4M3) + ties(E5M2):
    for s in (1.0, -1.0):
        b = f32_bits(s * x)
        f32 += around(b, 0x7f800000) if x != 0 else [b]
special = [0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
           0x7fffffff, 0xffffffff, 0x7fa00000, 0x7f812345, 0xffc12345, 0x00000001, 0x80000001, 0x007fffff,
           0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
           f32_bits(2.0 ** -10), f32_bits(2.0 ** -17), f32_bits(2.0 ** -18), f32_bits(448.0), f32_bits(464.0),
           f32_bits(57344.0), f32_bits(61440.0), f32_bits(65504.0), f32_bits(65520.0), f32_bits(1e10)]
f32 += special
f32 = [b & 0xffffffff for b in f32 if b >= 0]
while len(f32) < 2 * N - 512:
    e = r.randint(-22, 17)
    m = r.getrandbits(23)
    if r.random() < 0.3:
        m &= ~((1 << r.randint(16, 22)) - 1)  # few mantissa bits: ties and exact values
    f32.append((r.getrandbits(1) << 31) | ((e + 127) << 23) | m)
while len(f32) < 2 * N:
    f32.append(r.getrandbits(32))
assert len(f32) == 2 * N, len(f32)
r.shuffle(f32)
a, b = f32[:N], f32[N:]

# f16 inputs: 4096 slots, paired into f16x2 words.
f16 = []
for x in ties(E4M3) + ties(E5M2):
    if x >= 65520:
        continue
    for s in (1.0, -1.0):
        h = f16_bits(s * x)
        f16 += [h - 1, h, h + 1] if (h & 0x7fff) not in (0, 0x7c00) else [h]
f16 += [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7fff, 0xffff, 0x7d55, 0x0001, 0x8001,
        0x03ff, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00]
f16 = sorted(set(h & 0xffff for h in f16 if h >= 0))
while len(f16) < 2 * N - 512:
    e = r.randint(-24, 15)
    h = r.getrandbits(16) & 0x83ff if e < -14 else (r.getrandbits(1) << 15) | ((e + 15) << 10) | r.getrandbits(10)
    f16.append(h)
while len(f16) < 2 * N:
    f16.append(r.getrandbits(16))
assert len(f16) == 2 * N, len(f16)
r.shuffle(f16)
h = [(f16[2 * g + 1] << 16) | f16[2 * g] for g in range(N)]

# e4m3x2 / e5m2x2 words: every byte value in the upper and in the lower half.
p = [((g & 255) << 8) | ((g * 73 + (g >> 8) * 29 + 5) & 255) for g in range(N)]
assert {x >> 8 for x in p} == set(range(256)) and {x & 255 for x in p} == set(range(256))

launch = {
    "about": "cvt to and from e4m3x2 / e5m2x2 (sm_89+): f32 pairs and f16x2 to e4m3x2 and e5m2x2 (.rn.satfinite, "
             "with and without .relu), e4m3x2 and e5m2x2 to f16x2 (with and without .relu), on every fp8 value, every "
             "rounding tie and its neighbours, zeros, infinities, NaNs, subnormals, overflow and random inputs "
             "(generate-inputs.py); 16-bit result k of thread g at out16[k*2048+g], 32-bit result k at "
             "out32[k*2048+g]; expected.json recorded on an H100 (sm_90)",
    "kernel": "cvt_fp8",
    "grid": [16],
    "block": [128],
    "buffers": {
        "a": {"type": "u32", "values": a},
        "b": {"type": "u32", "values": b},
        "h": {"type": "u32", "values": h},
        "p": {"type": "u32", "values": p},
        "out16": {"type": "u16", "count": 8 * N, "init": 0},
        "out32": {"type": "u32", "count": 4 * N, "init": 0},
    },
    "params": ["a", "b", "h", "p", "out16", "out32"],
    "dump": ["out16", "out32"],
}
text = json.dumps(launch, indent=1)
# One line per buffer of values, as the other cases have them.
import re
text = re.sub(r'\[\s+([-0-9.,\s]+?)\s+\]', lambda m: '[' + ', '.join(m.group(1).split()).replace(',,', ',') + ']', text)
print(text)
