# Writes kernel.ptx and launch.json of the run cases mma-sync-m16n8k16-f16, -m16n8k16-bf16, -m16n8k8,
# -int8, -f64, -fp8 and -f64-m16n8 (python3 generate-inputs.py testdata/run); their expected.json is what an H100-class
# GPU printed for them (tools/gpu-reference), never derived from this script or from ptxrun.
# Generates testdata/run/mma-sync-*/ (kernel.ptx + launch.json): per variant, every lane of every CTA
# loads its A, B and C fragment registers from buffers (register j of lane l of CTA c at
# [(c*32+l)*regs + j]), runs one mma.sync and stores D the same way.
import json, random, struct, math, os, sys

ROOT = sys.argv[1]
CTAS = 8
LANES = CTAS * 32

def f16_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]

def rand_f16(r, lo, hi, zeros=0.15):
    if r.random() < zeros: return 0
    while True:
        e = r.randint(lo, hi)
        m = r.randint(0, 1023)
        if e < -14:  # subnormal region: pick a subnormal pattern
            bits = r.randint(1, 1023)
        else:
            bits = ((e + 15) << 10) | m
        if (bits >> 10) & 31 == 31: continue
        return bits | (0x8000 if r.random() < 0.5 else 0)

def rand_bf16(r, lo, hi, zeros=0.15):
    if r.random() < zeros: return 0
    e = r.randint(lo, hi)
    return ((e + 127) << 7) | r.randint(0, 127) | (0x8000 if r.random() < 0.5 else 0)

def rand_f32bits(r, lo, hi, zeros=0.1):
    if r.random() < zeros: return 0
    e = r.randint(lo, hi)
    return ((e + 127) << 23) | r.randint(0, (1 << 23) - 1) | (0x80000000 if r.random() < 0.5 else 0)

def bits_to_f32(b): return struct.unpack('<f', struct.pack('<I', b))[0]

def rand_f64(r, lo, hi, zeros=0.1):
    if r.random() < zeros: return 0.0
    return math.ldexp(1 + r.random(), r.randint(lo, hi)) * (1 if r.random() < 0.5 else -1)

def cancel(vals, r, pairs):
    """Makes pairs of neighbouring elements equal or opposite so that products cancel."""
    for i in range(0, len(vals) - 1, 2):
        if r.random() < pairs:
            vals[i + 1] = vals[i] ^ (0x8000 if vals[i] < 0x10000 else 0) if r.random() < 0.5 else vals[i]
    return vals

def pack16(vals):  # list of 16-bit patterns -> u32 words, low half first
    return [vals[i] | (vals[i + 1] << 16) for i in range(0, len(vals), 2)]

def pack8(vals):
    return [vals[i] | vals[i+1] << 8 | vals[i+2] << 16 | vals[i+3] << 24 for i in range(0, len(vals), 4)]

REGTYPE = {'f32': 'f32', 'f16': 'b32', 's32': 's32', 'f64': 'f64'}


def variant_ptx(v, idx):
    """PTX for one variant: loads, mma, store; registers named per variant."""
    p = f'v{idx}'
    lines = []
    ld = {'b32': 'u32', 'f32': 'f32', 's32': 's32', 'f64': 'f64'}
    def load(name, regs, rtype, param):
        size = 8 if rtype == 'f64' else 4
        lines.append(f'\tld.param.u64 %rd_{p}{name}, [{param}];')
        lines.append(f'\tcvta.to.global.u64 %rd_{p}{name}, %rd_{p}{name};')
        lines.append(f'\tmul.wide.u32 %rd_off, %r_lane, {regs * size};')
        lines.append(f'\tadd.s64 %rd_{p}{name}, %rd_{p}{name}, %rd_off;')
        for j in range(regs):
            lines.append(f'\tld.global.{ld[rtype]} %{p}{name}{j}, [%rd_{p}{name}+{j * size}];')
    at = REGTYPE.get(v['ab'], 'b32') if v['ab'] == 'f64' else 'b32'
    ct, dt = REGTYPE[v['c']], REGTYPE[v['d']]
    decl = [f'\t.reg .{at} %{p}a<{v["ra"]}>;', f'\t.reg .{at} %{p}b<{v["rb"]}>;',
            f'\t.reg .{ct} %{p}c<{v["rc"]}>;', f'\t.reg .{dt} %{p}d<{v["rd"]}>;',
            f'\t.reg .b64 %rd_{p}a, %rd_{p}b, %rd_{p}c, %rd_{p}d;']
    load('a', v['ra'], at, f'p{idx}_a')
    load('b', v['rb'], at, f'p{idx}_b')
    load('c', v['rc'], ct, f'p{idx}_c')
    def vec(n, k): return '{' + ', '.join(f'%{p}{n}{j}' for j in range(k)) + '}'
    lines.append(f'\t{v["instr"]} {vec("d", v["rd"])}, {vec("a", v["ra"])}, {vec("b", v["rb"])}, {vec("c", v["rc"])};')
    size = 8 if dt == 'f64' else 4
    lines.append(f'\tld.param.u64 %rd_{p}d, [p{idx}_d];')
    lines.append(f'\tcvta.to.global.u64 %rd_{p}d, %rd_{p}d;')
    lines.append(f'\tmul.wide.u32 %rd_off, %r_lane, {v["rd"] * size};')
    lines.append(f'\tadd.s64 %rd_{p}d, %rd_{p}d, %rd_off;')
    for j in range(v['rd']):
        lines.append(f'\tst.global.{ld[dt]} [%rd_{p}d+{j * size}], %{p}d{j};')
    return decl, lines

def write_case(name, about, variants, version='8.0', target='sm_80'):
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    kernel = name.replace('-', '_')
    params, decls, body = [], [], []
    for i, v in enumerate(variants):
        params += [f'\t.param .u64 p{i}_{x}' for x in 'abcd']
        dc, ln = variant_ptx(v, i)
        decls += dc
        body += [f'\t// {v["instr"]}'] + ln
    ptx = ['//', f'// {about}', '//', '.version ' + version, '.target ' + target, '.address_size 64', '',
           f'.visible .entry {kernel}(', ',\n'.join(params), ')', '{',
           '\t.reg .b32 %r_lane, %r_tid, %r_cta;', '\t.reg .b64 %rd_off;'] + decls + [
           '\tmov.u32 %r_tid, %tid.x;', '\tmov.u32 %r_cta, %ctaid.x;',
           '\tmad.lo.u32 %r_lane, %r_cta, 32, %r_tid;'] + body + ['\tret;', '}', '']
    open(os.path.join(d, 'kernel.ptx'), 'w').write('\n'.join(ptx))
    bufs, plist = {}, []
    for i, v in enumerate(variants):
        for x in 'abc':
            t, vals = v['buf_' + x]
            bufs[f'v{i}_{x}'] = {'type': t, 'values': vals}
        t = {'f32': 'f32', 'f16': 'u32', 's32': 's32', 'f64': 'f64'}[v['d']]
        bufs[f'v{i}_d'] = {'type': t, 'count': LANES * v['rd'], 'init': 0}
        plist += [f'v{i}_{x}' for x in 'abcd']
    launch = {'about': about, 'kernel': kernel, 'grid': [CTAS, 1, 1], 'block': [32, 1, 1],
              'buffers': bufs, 'params': plist, 'dump': [f'v{i}_d' for i in range(len(variants))]}
    open(os.path.join(d, 'launch.json'), 'w').write(json.dumps(launch, indent=1) + '\n')

def floatvariant(r, instr, ab, k, c, dty, elo, ehi, clo, chi):
    """A floating-point m16n8kK variant: A is 16 x K, B is K x 8 elements over all lanes."""
    bits = 32 if ab == 'tf32' else 16
    ra, rb = 16 * k * bits // 1024, 8 * k * bits // 1024
    gen = {'f16': lambda: rand_f16(r, elo, ehi), 'bf16': lambda: rand_bf16(r, elo, ehi),
           'tf32': lambda: rand_f32bits(r, elo, ehi)}[ab]
    per = 32 // bits
    def regs(n):
        out = []
        for _ in range(LANES):
            vals = cancel([gen() for _ in range(n * per)], r, 0.3) if bits == 16 else [gen() for _ in range(n)]
            out += pack16(vals) if bits == 16 else vals
        return out
    A, B = regs(ra), regs(rb)
    if c == 'f32':
        C = ('f32', [bits_to_f32(rand_f32bits(r, clo, chi)) for _ in range(LANES * 4)])
        rc = 4
    else:
        C = ('u32', pack16([rand_f16(r, max(clo, -14), min(chi, 15)) for _ in range(LANES * 4)]))
        rc = 2
    rd = 4 if dty == 'f32' else 2
    return {'instr': instr, 'ab': ab, 'c': c, 'd': dty, 'ra': ra, 'rb': rb, 'rc': rc, 'rd': rd,
            'buf_a': ('u32', A), 'buf_b': ('u32', B), 'buf_c': C}

def intvariant(r, instr, k, wide_c):
    ra, rb = 16 * k * 8 // 1024, 8 * k * 8 // 1024
    A = [r.getrandbits(32) for _ in range(LANES * ra)]
    B = [r.getrandbits(32) for _ in range(LANES * rb)]
    C = []
    for _ in range(LANES * 4):
        if wide_c and r.random() < 0.5:
            C.append(r.choice([2**31 - 1 - r.randint(0, 200000), -2**31 + r.randint(0, 200000)]))
        else:
            C.append(r.randint(-2**20, 2**20))
    return {'instr': instr, 'ab': 'i8', 'c': 's32', 'd': 's32', 'ra': ra, 'rb': rb, 'rc': 4, 'rd': 4,
            'buf_a': ('u32', A), 'buf_b': ('u32', B), 'buf_c': ('s32', C)}

def f64variant(r):
    A, B, C = [], [], []
    for _ in range(LANES):
        A.append(rand_f64(r, -60, 60)); B.append(rand_f64(r, -60, 60))
        C += [rand_f64(r, -100, 100), rand_f64(r, -100, 100)]
    # cancellation: some lanes' values repeat another lane's with the sign flipped
    for i in range(0, LANES, 3):
        A[i] = A[i ^ 1] if r.random() < 0.5 else -A[i ^ 1]
    return {'instr': 'mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64', 'ab': 'f64', 'c': 'f64', 'd': 'f64',
            'ra': 1, 'rb': 1, 'rc': 2, 'rd': 2, 'buf_a': ('f64', A), 'buf_b': ('f64', B), 'buf_c': ('f64', C)}

r = random.Random(2026)
M = 'mma.sync.aligned.'
write_case('mma-sync-m16n8k16-f16',
    'mma.sync m16n8k16 with .f16 inputs spread over 2^-24..2^15 (15% zeros, neighbouring pairs equal or opposite, so products cancel) and C over 2^-30..2^30 (.f32) or the f16 range (.f16, sums overflowing to infinity): D .f32 from C .f32, and D .f16 from C .f16 twice (one with small inputs, subnormals included); 8 warps',
    [floatvariant(r, M + 'm16n8k16.row.col.f32.f16.f16.f32', 'f16', 16, 'f32', 'f32', -24, 15, -30, 30),
     floatvariant(r, M + 'm16n8k16.row.col.f16.f16.f16.f16', 'f16', 16, 'f16', 'f16', -16, 7, -14, 15),
     floatvariant(r, M + 'm16n8k16.row.col.f16.f16.f16.f16', 'f16', 16, 'f16', 'f16', -24, 4, -24, 6)])
write_case('mma-sync-m16n8k16-bf16',
    'mma.sync m16n8k16 .f32.bf16.bf16.f32 with inputs spread over 2^-40..2^41 (15% zeros, neighbouring pairs equal or opposite) and C over 2^-30..2^30; 8 warps',
    [floatvariant(r, M + 'm16n8k16.row.col.f32.bf16.bf16.f32', 'bf16', 16, 'f32', 'f32', -40, 41, -30, 30),
     floatvariant(r, M + 'm16n8k16.row.col.f32.bf16.bf16.f32', 'bf16', 16, 'f32', 'f32', -6, 6, -8, 8)])
write_case('mma-sync-m16n8k8',
    'mma.sync m16n8k8 with .f16 (D .f32 and .f16), .bf16 and .tf32 inputs (tf32 as full f32 patterns: the low 13 bits must be ignored), and m16n8k4 .tf32; wide ranges, cancelling pairs of 16-bit inputs; 8 warps',
    [floatvariant(r, M + 'm16n8k8.row.col.f32.f16.f16.f32', 'f16', 8, 'f32', 'f32', -24, 15, -30, 30),
     floatvariant(r, M + 'm16n8k8.row.col.f16.f16.f16.f16', 'f16', 8, 'f16', 'f16', -16, 7, -14, 15),
     floatvariant(r, M + 'm16n8k8.row.col.f32.bf16.bf16.f32', 'bf16', 8, 'f32', 'f32', -40, 41, -30, 30),
     floatvariant(r, M + 'm16n8k8.row.col.f32.tf32.tf32.f32', 'tf32', 8, 'f32', 'f32', -40, 40, -30, 30),
     floatvariant(r, M + 'm16n8k4.row.col.f32.tf32.tf32.f32', 'tf32', 4, 'f32', 'f32', -40, 40, -30, 30)])
write_case('mma-sync-int8',
    'mma.sync m16n8k32 and m16n8k16 with .s8/.u8 inputs and .s32 C near the s32 limits in half the elements: wrapping, and saturating with .satfinite; 8 warps',
    [intvariant(r, M + 'm16n8k32.row.col.s32.s8.s8.s32', 32, True),
     intvariant(r, M + 'm16n8k32.row.col.satfinite.s32.s8.u8.s32', 32, True),
     intvariant(r, M + 'm16n8k16.row.col.s32.u8.u8.s32', 16, True),
     intvariant(r, M + 'm16n8k16.row.col.satfinite.s32.u8.s8.s32', 16, True)])
write_case('mma-sync-f64',
    'mma.sync m8n8k4 .f64 with inputs over 2^-60..2^61 and C over 2^-100..2^101, a third of the A values the negated or equal value of a neighbour lane (cancellation); 8 warps',
    [f64variant(r), f64variant(r)])

def rand_fp8(r, t, zeros=0.1):
    """A finite e4m3 or e5m2 byte (subnormals included)."""
    if r.random() < zeros: return 0
    while True:
        b = r.getrandbits(8)
        if t == 'e4m3' and b & 0x7f == 0x7f: continue
        if t == 'e5m2' and (b >> 2) & 31 == 31: continue
        return b

def fp8variant(r, instr, at, bt, k, acc, clo, chi):
    ra, rb = 16 * k * 8 // 1024, 8 * k * 8 // 1024
    A = [pack8([rand_fp8(r, at) for _ in range(4)])[0] for _ in range(LANES * ra)]
    B = [pack8([rand_fp8(r, bt) for _ in range(4)])[0] for _ in range(LANES * rb)]
    if acc == 'f32':
        C, rc = ('f32', [bits_to_f32(rand_f32bits(r, clo, chi)) for _ in range(LANES * 4)]), 4
    else:
        C, rc = ('u32', pack16([rand_f16(r, max(clo, -24), min(chi, 15)) for _ in range(LANES * 4)])), 2
    return {'instr': instr, 'ab': 'fp8', 'c': acc, 'd': acc, 'ra': ra, 'rb': rb, 'rc': rc, 'rd': rc,
            'buf_a': ('u32', A), 'buf_b': ('u32', B), 'buf_c': C}

def f64m16n8(r, k):
    ra, rb = 16 * k // 32, 8 * k // 32
    A = [rand_f64(r, -60, 60) for _ in range(LANES * ra)]
    B = [rand_f64(r, -60, 60) for _ in range(LANES * rb)]
    for i in range(0, len(A), 3):
        A[i] = A[i ^ 1] if r.random() < 0.5 else -A[i ^ 1]
    C = [rand_f64(r, -100, 100) for _ in range(LANES * 4)]
    return {'instr': M + f'm16n8k{k}.row.col.f64.f64.f64.f64', 'ab': 'f64', 'c': 'f64', 'd': 'f64',
            'ra': ra, 'rb': rb, 'rc': 4, 'rd': 4, 'buf_a': ('f64', A), 'buf_b': ('f64', B), 'buf_c': ('f64', C)}

r = random.Random(2027)
write_case('mma-sync-fp8',
    'mma.sync with .e4m3/.e5m2 inputs (every finite byte, subnormals included, 10% zeros): m16n8k32 .f32 from e4m3 x e4m3 and e5m2 x e4m3 with C over 2^-30..2^30, m16n8k32 .f16 from e4m3 x e5m2, and m16n8k16 .f32 from e4m3 x e4m3; 8 warps',
    [fp8variant(r, M + 'm16n8k32.row.col.f32.e4m3.e4m3.f32', 'e4m3', 'e4m3', 32, 'f32', -30, 30),
     fp8variant(r, M + 'm16n8k32.row.col.f32.e5m2.e4m3.f32', 'e5m2', 'e4m3', 32, 'f32', -30, 30),
     fp8variant(r, M + 'm16n8k32.row.col.f16.e4m3.e5m2.f16', 'e4m3', 'e5m2', 32, 'f16', -14, 15),
     fp8variant(r, M + 'm16n8k16.row.col.f32.e4m3.e4m3.f32', 'e4m3', 'e4m3', 16, 'f32', -30, 30)],
    version='8.7', target='sm_90')
write_case('mma-sync-f64-m16n8',
    'mma.sync m16n8k4, m16n8k8 and m16n8k16 .f64 (sm_90) with inputs over 2^-60..2^61, a third of the A values the negated or equal value of a neighbour (cancellation), C over 2^-100..2^101; 8 warps',
    [f64m16n8(r, 4), f64m16n8(r, 8), f64m16n8(r, 16)], version='7.8', target='sm_90')
