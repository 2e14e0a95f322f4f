#!/usr/bin/env python3
"""Generate core-isa-arith.jsonl.gz: one-instruction modules for the arithmetic, conversion,
bit-manipulation and miscellaneous instructions, labelled by the installed ptxas.

Usage: generate_core_isa_arith.py [--jobs N]   (N <= 2; ptxas runs under nice)
Each case is a positive form from the spec's Syntax block (spec/isa/<op>.md) or a mutation of
one (wrong type, missing or misplaced rounding, .ftz on f64, wrong operand count, constant
where a register is required, ...), at .version 8.0 / sm_90 unless it probes a version or
target boundary. Same JSON Lines format as testdata/conformance.
"""
import argparse, concurrent.futures as cf, json, os, re, subprocess, tempfile
from casefiles import read_lines, write_gz

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILY = "core-isa-arith"
PROLOGUE = (".reg .pred %p<3>; .reg .b16 %h<3>; .reg .b32 %b<3>; .reg .u32 %u<3>; .reg .s32 %s<3>; "
            ".reg .f32 %f<3>; .reg .b64 %rd<3>; .reg .f64 %fd<3>; .reg .u64 %ul<3>; .reg .s64 %sl<3>; "
            ".reg .u16 %us<3>; .reg .s16 %ss<3>;\n.shared .align 8 .b8 smem[64];\nL1:\n")

# A register of each instruction type (16-bit floats and packed halves live in bit-size registers).
REG = {".b16": "%h1", ".u16": "%us1", ".s16": "%ss1", ".f16": "%h1", ".bf16": "%h1",
       ".b32": "%b1", ".u32": "%u1", ".s32": "%s1", ".f32": "%f1", ".f16x2": "%b1", ".bf16x2": "%b1",
       ".b64": "%rd1", ".u64": "%ul1", ".s64": "%sl1", ".f64": "%fd1",
       ".u8": "%us1", ".s8": "%ss1", ".pred": "%p1"}
# A register of the same size but the wrong kind (6.4.1), and one of the wrong size.
WRONG_KIND = {".u32": "%f1", ".s32": "%f1", ".b32": "%fd1", ".f32": "%u1", ".f64": "%ul1", ".u64": "%fd1",
              ".s64": "%fd1", ".u16": "%f1", ".s16": "%f1", ".f16": "%f1", ".b64": "%f1"}
WRONG_SIZE = {".u32": "%ul1", ".s32": "%sl1", ".b32": "%rd1", ".f32": "%fd1", ".f64": "%f1",
              ".u64": "%u1", ".s64": "%s1", ".b64": "%b1", ".u16": "%u1", ".s16": "%s1", ".f16": "%f1"}


def module(instr, version, target):
    return (f".version {version}\n.target {target}\n.address_size 64\n.visible .entry k() {{\n"
            f"{PROLOGUE}{instr}\nret;\n}}\n")


CASES = {}


def case(instr, version="8.0", target="sm_90"):
    instr = instr.strip()
    if not instr.endswith(";"):
        instr += ";"
    cid = f"{FAMILY}/{instr[:-1].replace(' ', '_')}/{version}/{target}"
    CASES.setdefault(cid, (instr, version, target))


def typed(op, quals, ty, n, extra=""):
    """op.quals.ty d, a, b.. with n operands of the type, and its operand mutations."""
    r = REG[ty]
    head = f"{op}{quals}{ty}"
    ops = [r] * n
    case(f"{head} {', '.join(ops)}{extra}")
    if n > 1:
        case(f"{head} {', '.join(ops[:-1])}{extra}")                  # one operand too few
        case(f"{head} {', '.join(ops + [r])}{extra}")                 # one too many
        case(f"{head} 1, {', '.join(ops[1:])}{extra}")                # constant destination
        if ty in WRONG_KIND:
            case(f"{head} {', '.join(ops[:-1] + [WRONG_KIND[ty]])}{extra}")
        if ty in WRONG_SIZE:
            case(f"{head} {', '.join([WRONG_SIZE[ty]] + ops[1:])}{extra}")
        const = "0f3F800000" if ty in (".f32",) else "0d3FF0000000000000" if ty == ".f64" else "7"
        case(f"{head} {', '.join(ops[:-1] + [const])}{extra}")
        if ty in (".f32", ".f64"):
            case(f"{head} {', '.join(ops[:-1] + ['1'])}{extra}")     # integer constant in float op


INTS = [".u16", ".u32", ".u64", ".s16", ".s32", ".s64"]


def build():
    # mul / mad: integer modes, float roundings
    for op, n in (("mul", 3), ("mad", 4)):
        for ty in INTS:
            typed(op, ".lo", ty, n)
            case(f"{op}.hi{ty} {', '.join([REG[ty]] * n)}")
            case(f"{op}{ty} {', '.join([REG[ty]] * n)}")                       # no mode
            case(f"{op}.rn{ty} {', '.join([REG[ty]] * n)}")                    # rounding on int
        for ty, wide in ((".u16", "%u1"), (".s16", "%s1"), (".u32", "%ul1"), (".s32", "%sl1")):
            r = REG[ty]
            if op == "mul":
                case(f"mul.wide{ty} {wide}, {r}, {r}")
                case(f"mul.wide{ty} {r}, {r}, {r}")                            # narrow destination
                case(f"mul.wide{ty} {wide}, {r}, 3")
            else:
                case(f"mad.wide{ty} {wide}, {r}, {r}, {wide}")
                case(f"mad.wide{ty} {wide}, {r}, {r}, {r}")
        case(f"{op}.wide.u64 %ul1, %ul1, %ul1{', %ul1' if n == 4 else ''}")
        case(f"{op}.lo.f32 %f1, %f1, %f1{', %f1' if n == 4 else ''}")
        case(f"{op}.lo.b32 %b1, %b1, %b1{', %b1' if n == 4 else ''}")
        for rnd in ("", ".rn", ".rz", ".rm", ".rp"):
            typed(op, rnd, ".f32", n) if rnd in ("", ".rn") else case(f"{op}{rnd}.f32 {', '.join(['%f1'] * n)}")
            case(f"{op}{rnd}.ftz.sat.f32 {', '.join(['%f1'] * n)}")
            case(f"{op}{rnd}.f64 {', '.join(['%fd1'] * n)}")
        typed(op, ".rn", ".f64", n)
        case(f"{op}.rn.ftz.f64 {', '.join(['%fd1'] * n)}")
        case(f"{op}.rn.sat.f64 {', '.join(['%fd1'] * n)}")
        case(f"{op}.rni.f32 {', '.join(['%f1'] * n)}")
        for t in (".f16", ".f16x2", ".bf16", ".bf16x2"):
            case(f"{op}.rn{t} {', '.join([REG[t]] * n)}")
            case(f"{op}{t} {', '.join([REG[t]] * n)}")
            case(f"{op}.rn.ftz{t} {', '.join([REG[t]] * n)}")
        case(f"{op}.rn.bf16 %h1, %h1, %h1{', %h1' if n == 4 else ''}", "7.0", "sm_80")
        case(f"{op}.rn.bf16 %h1, %h1, %h1{', %h1' if n == 4 else ''}", "7.8", "sm_90")
        case(f"{op}.rn.bf16 %h1, %h1, %h1{', %h1' if n == 4 else ''}", "7.8", "sm_80")
    case("mad.hi.sat.s32 %s1, %s1, %s1, %s1")
    case("mad.lo.sat.s32 %s1, %s1, %s1, %s1")
    case("mad.hi.sat.u32 %u1, %u1, %u1, %u1")
    case("mul.sat.s32 %s1, %s1, %s1")
    case("mad.lo.cc.u32 %u1, %u1, %u1, %u1")
    case("mad.hi.cc.s64 %sl1, %sl1, %sl1, %sl1")
    case("mad.lo.cc.u16 %us1, %us1, %us1, %us1")
    case("mad.cc.f32 %f1, %f1, %f1, %f1")
    # madc / addc / subc
    for ty in (".u32", ".s32", ".u64", ".s64"):
        r = REG[ty]
        for mode in (".lo", ".hi"):
            case(f"madc{mode}{ty} {r}, {r}, {r}, {r}")
            case(f"madc{mode}.cc{ty} {r}, {r}, {r}, {r}")
        for op in ("addc", "subc"):
            typed(op, "", ty, 3)
            case(f"{op}.cc{ty} {r}, {r}, {r}")
    case("madc.u32 %u1, %u1, %u1, %u1")
    case("madc.lo.u16 %us1, %us1, %us1, %us1")
    case("madc.lo.f32 %f1, %f1, %f1, %f1")
    case("madc.lo.u32 %u1, %u1, %u1")
    for op in ("addc", "subc"):
        case(f"{op}.u16 %us1, %us1, %us1")
        case(f"{op}.f32 %f1, %f1, %f1")
        case(f"{op}.b32 %b1, %b1, %b1")
        case(f"{op}.sat.s32 %s1, %s1, %s1")
    # fma
    for rnd in ("", ".rn", ".rz", ".rm", ".rp", ".rni"):
        case(f"fma{rnd}.f32 %f1, %f1, %f1, %f1")
        case(f"fma{rnd}.ftz.sat.f32 %f1, %f1, %f1, %f1")
        case(f"fma{rnd}.f64 %fd1, %fd1, %fd1, %fd1")
    typed("fma", ".rn", ".f32", 4)
    typed("fma", ".rn", ".f64", 4)
    case("fma.rn.ftz.f64 %fd1, %fd1, %fd1, %fd1")
    case("fma.rn.u32 %u1, %u1, %u1, %u1")
    case("fma.rn.sat.f64 %fd1, %fd1, %fd1, %fd1")
    for t in (".f16", ".f16x2", ".bf16", ".bf16x2"):
        case(f"fma.rn{t} {', '.join([REG[t]] * 4)}")
        case(f"fma{t} {', '.join([REG[t]] * 4)}")
        case(f"fma.rn.relu{t} {', '.join([REG[t]] * 4)}")
        case(f"fma.rn.ftz.sat{t} {', '.join([REG[t]] * 4)}")
        case(f"fma.rz{t} {', '.join([REG[t]] * 4)}")
    case("fma.rn.bf16 %h1, %h1, %h1, %h1", "7.0", "sm_80")
    case("fma.rn.bf16 %h1, %h1, %h1, %h1", "6.5", "sm_80")
    case("fma.rn.bf16 %h1, %h1, %h1, %h1", "7.0", "sm_75")
    case("fma.rn.relu.f16 %h1, %h1, %h1, %h1", "7.0", "sm_80")
    case("fma.rn.relu.f16 %h1, %h1, %h1, %h1", "6.5", "sm_80")
    case("fma.rn.relu.f16 %h1, %h1, %h1, %h1", "7.0", "sm_75")
    # div / rem
    for ty in INTS:
        typed("div", "", ty, 3)
        typed("rem", "", ty, 3) if ty in (".s32", ".u32") else case(f"rem{ty} {', '.join([REG[ty]] * 3)}")
        case(f"div.rn{ty} {', '.join([REG[ty]] * 3)}")
    for q in ("", ".approx", ".full", ".rn", ".rz", ".rm", ".rp", ".approx.ftz", ".full.ftz", ".rn.ftz", ".rni"):
        case(f"div{q}.f32 %f1, %f1, %f1")
        case(f"div{q}.f64 %fd1, %fd1, %fd1")
    typed("div", ".rn", ".f32", 3)
    typed("div", ".rn", ".f64", 3)
    case("div.rn.sat.f32 %f1, %f1, %f1")
    case("rem.f32 %f1, %f1, %f1")
    case("rem.b32 %b1, %b1, %b1")
    case("div.b32 %b1, %b1, %b1")
    # abs / neg
    for op in ("abs", "neg"):
        for ty in (".s16", ".s32", ".s64", ".f32", ".f64"):
            typed(op, "", ty, 2)
        for ty in (".u32", ".b32", ".u16", ".u64"):
            case(f"{op}{ty} {REG[ty]}, {REG[ty]}")
        case(f"{op}.ftz.f32 %f1, %f1")
        case(f"{op}.ftz.f64 %fd1, %fd1")
        case(f"{op}.rn.f32 %f1, %f1")
        case(f"{op}.sat.s32 %s1, %s1")
        for t in (".f16", ".f16x2", ".bf16", ".bf16x2"):
            case(f"{op}{t} {REG[t]}, {REG[t]}")
            case(f"{op}.ftz{t} {REG[t]}, {REG[t]}")
        case(f"{op}.f32 %f1, %f1, %f1")
    # min / max
    for op in ("min", "max"):
        for ty in INTS + [".f32", ".f64"]:
            typed(op, "", ty, 3)
        case(f"{op}.b32 %b1, %b1, %b1")
        case(f"{op}.ftz.f32 %f1, %f1, %f1")
        case(f"{op}.ftz.f64 %fd1, %fd1, %fd1")
        case(f"{op}.rn.f32 %f1, %f1, %f1")
        case(f"{op}.relu.s32 %s1, %s1, %s1")
        case(f"{op}.relu.u32 %u1, %u1, %u1")
        case(f"{op}.xorsign.abs.f32 %f1, %f1, %f1")
        case(f"{op}.f32 %f1, %f1, %f1, %f1")
        for t in (".f16", ".f16x2", ".bf16", ".bf16x2", ".u16x2", ".s16x2"):
            case(f"{op}{t} {REG.get(t, '%b1')}, {REG.get(t, '%b1')}, {REG.get(t, '%b1')}")
        case(f"{op}.ftz.f16 %h1, %h1, %h1")
        case(f"{op}.relu.s32 %s1, %s1, %s1", "7.9", "sm_90")
    # sqrt / rcp / rsqrt / ex2 / lg2 / sin / cos / tanh
    for op in ("sqrt", "rcp"):
        for q in ("", ".approx", ".approx.ftz", ".rn", ".rz", ".rm", ".rp", ".rn.ftz", ".full", ".rni"):
            case(f"{op}{q}.f32 %f1, %f1")
            case(f"{op}{q}.f64 %fd1, %fd1")
        typed(op, ".rn", ".f32", 2)
        typed(op, ".rn", ".f64", 2)
        case(f"{op}.rn.u32 %u1, %u1")
        case(f"{op}.approx.f16 %h1, %h1")
    case("rcp.approx.ftz.f64 %fd1, %fd1", "3.0", "sm_30")
    for op in ("rsqrt", "ex2", "lg2", "sin", "cos", "tanh"):
        for q in ("", ".approx", ".approx.ftz", ".rn", ".ftz"):
            case(f"{op}{q}.f32 %f1, %f1")
            case(f"{op}{q}.f64 %fd1, %fd1")
        typed(op, ".approx", ".f32", 2)
        case(f"{op}.approx.u32 %u1, %u1")
        for t in (".f16", ".f16x2", ".bf16", ".bf16x2"):
            case(f"{op}.approx{t} {REG[t]}, {REG[t]}")
            case(f"{op}.approx.ftz{t} {REG[t]}, {REG[t]}")
    case("rsqrt.approx.ftz.f64 %fd1, %fd1")
    case("tanh.approx.f32 %f1, %f1", "7.0", "sm_75")
    case("tanh.approx.f32 %f1, %f1", "6.5", "sm_75")
    case("tanh.approx.f32 %f1, %f1", "7.0", "sm_70")
    case("ex2.approx.f16 %h1, %h1", "7.0", "sm_75")
    case("ex2.approx.f16 %h1, %h1", "6.5", "sm_75")
    case("ex2.approx.f16 %h1, %h1", "7.0", "sm_70")
    case("ex2.approx.ftz.bf16 %h1, %h1", "7.8", "sm_90")
    case("ex2.approx.ftz.bf16 %h1, %h1", "7.8", "sm_89")
    # copysign
    for ty in (".f32", ".f64"):
        typed("copysign", "", ty, 3)
    case("copysign.f16 %h1, %h1, %h1")
    case("copysign.u32 %u1, %u1, %u1")
    case("copysign.ftz.f32 %f1, %f1, %f1")
    # bit-field and bit manipulation
    for ty in (".u32", ".u64", ".s32", ".s64"):
        r = REG[ty]
        case(f"bfe{ty} {r}, {r}, %u1, %u1")
        case(f"bfe{ty} {r}, {r}, 8, 4")
        case(f"bfind{ty} %u1, {r}")
        case(f"bfind.shiftamt{ty} %u1, {r}")
        case(f"bfind{ty} %ul1, {r}")
        case(f"bfind{ty} %u1, 5")
    case("bfe.u32 %u1, %u1, %ul1, %u1")
    case("bfe.b32 %b1, %b1, %u1, %u1")
    case("bfe.u16 %us1, %us1, %u1, %u1")
    case("bfe.u32 %u1, %u1, %u1")
    case("bfe.f32 %f1, %f1, %u1, %u1")
    case("bfind.b32 %u1, %b1")
    case("bfind.u16 %u1, %us1")
    for ty in (".b32", ".b64"):
        r = REG[ty]
        case(f"bfi{ty} {r}, {r}, {r}, %u1, %u1")
        case(f"bfi{ty} {r}, {r}, {r}, 8, 4")
        case(f"bfi{ty} {r}, {r}, {r}, %u1")
        case(f"bfi{ty} {r}, {r}, {r}, %rd1, %u1")
    case("bfi.u32 %u1, %u1, %u1, %u1, %u1")
    for m in ("", ".clamp", ".wrap"):
        case(f"bmsk{m}.b32 %b1, %b1, %b1")
        case(f"bmsk{m}.b64 %rd1, %rd1, %rd1")
    case("bmsk.clamp.b32 %b1, %b1, 5")
    case("bmsk.clamp.b32 %b1, %b1")
    case("bmsk.clamp.u32 %u1, %u1, %u1")
    case("bmsk.clamp.b32 %b1, %b1, %b1", "7.6", "sm_70")
    case("bmsk.clamp.b32 %b1, %b1, %b1", "7.5", "sm_70")
    case("bmsk.clamp.b32 %b1, %b1, %b1", "7.6", "sm_50")
    case("fns.b32 %b1, %b1, %b1, %b1")
    case("fns.b32 %b1, %b1, %b1, 1")
    case("fns.b32 %b1, %b1, %b1")
    case("fns.u32 %u1, %u1, %u1, %u1")
    case("fns.b64 %rd1, %rd1, %rd1, %rd1")
    case("fns.b32 %b1, %b1, %b1, %b1", "6.0", "sm_30")
    case("fns.b32 %b1, %b1, %b1, %b1", "5.0", "sm_30")
    for m in ("", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"):
        case(f"prmt.b32{m} %b1, %b1, %b1, %b1")
    case("prmt.b32 %b1, %b1, %b1, 0x3210")
    case("prmt.b32 %b1, %b1, %b1")
    case("prmt.u32 %u1, %u1, %u1, %u1")
    case("prmt.b64 %rd1, %rd1, %rd1, %rd1")
    case("prmt.b32.f4e %b1, %b1, %b1, %b1, %b1")
    case("lop3.b32 %b1, %b1, %b1, %b1, 0x96")
    case("lop3.b32 %b1, %b1, %b1, %b1, 256")
    case("lop3.b32 %b1, %b1, %b1, %b1, %b1")
    case("lop3.b64 %rd1, %rd1, %rd1, %rd1, 0x80")
    case("lop3.u32 %u1, %u1, %u1, %u1, 0x80")
    case("lop3.b32 %b1, %b1, %b1, 0x80")
    case("lop3.b32 %b1, %b1, %b1, %b1, 0x96", "4.3", "sm_50")
    case("lop3.b32 %b1, %b1, %b1, %b1, 0x96", "4.2", "sm_50")
    # sad, mul24/mad24, dp4a/dp2a
    for ty in INTS:
        r = REG[ty]
        case(f"sad{ty} {r}, {r}, {r}, {r}")
    case("sad.f32 %f1, %f1, %f1, %f1")
    case("sad.u32 %u1, %u1, %u1")
    for ty in (".u32", ".s32"):
        r = REG[ty]
        for m in (".lo", ".hi"):
            case(f"mul24{m}{ty} {r}, {r}, {r}")
            case(f"mad24{m}{ty} {r}, {r}, {r}, {r}")
        case(f"mul24{ty} {r}, {r}, {r}")
    case("mad24.hi.sat.s32 %s1, %s1, %s1, %s1")
    case("mad24.lo.sat.u32 %u1, %u1, %u1, %u1")
    case("mul24.lo.u64 %ul1, %ul1, %ul1")
    case("mul24.lo.u32 %u1, %u1, %ul1")
    for a in (".u32", ".s32"):
        for b in (".u32", ".s32"):
            case(f"dp4a{a}{b} %b1, %b1, %b1, %b1")
            case(f"dp2a.lo{a}{b} %b1, %b1, %b1, %b1")
            case(f"dp2a.hi{a}{b} %b1, %b1, %b1, %b1")
    case("dp2a.u32.u32 %b1, %b1, %b1, %b1")
    case("dp4a.u32 %b1, %b1, %b1, %b1")
    case("dp4a.u32.u32 %b1, %b1, %b1")
    case("dp4a.u64.u64 %rd1, %rd1, %rd1, %rd1")
    case("dp4a.u32.u32 %b1, %b1, %b1, %b1", "5.0", "sm_61")
    case("dp4a.u32.u32 %b1, %b1, %b1, %b1", "5.0", "sm_60")
    case("dp4a.u32.u32 %b1, %b1, %b1, %b1", "4.3", "sm_61")
    # match / redux
    for ty in (".b32", ".b64"):
        r = REG[ty]
        case(f"match.any.sync{ty} %b1, {r}, -1")
        case(f"match.any.sync{ty} %b1, {r}, %b1")
        case(f"match.all.sync{ty} %b1, {r}, -1")
        case(f"match.all.sync{ty} %b1|%p1, {r}, -1")
        case(f"match.any.sync{ty} %b1|%p1, {r}, -1")
        case(f"match.any.sync{ty} %rd1, {r}, -1")
    case("match.any{0} %b1, %b1, -1".format(".b32"))
    case("match.any.sync.u32 %b1, %u1, -1")
    case("match.any.sync.b32 %b1, %b1")
    case("match.any.sync.b32 %b1, %b1, -1", "6.0", "sm_70")
    case("match.any.sync.b32 %b1, %b1, -1", "6.0", "sm_60")
    case("match.any.sync.b32 %b1, %b1, -1", "5.0", "sm_70")
    for o, ts in ((".add", (".u32", ".s32")), (".min", (".u32", ".s32")), (".max", (".u32", ".s32")),
                  (".and", (".b32",)), (".or", (".b32",)), (".xor", (".b32",))):
        for ty in ts:
            case(f"redux.sync{o}{ty} {REG[ty]}, {REG[ty]}, -1")
        case(f"redux.sync{o}.u64 %ul1, %ul1, -1")
    case("redux.sync.and.u32 %u1, %u1, -1")
    case("redux.sync.add.b32 %b1, %b1, -1")
    case("redux.sync.add.u32 %u1, %u1")
    case("redux.add.u32 %u1, %u1, -1")
    case("redux.sync.add.u32 %u1, %u1, %u1")
    case("redux.sync.add.u32 %u1, 3, -1")
    case("redux.sync.add.f32 %f1, %f1, -1")
    case("redux.sync.add.u32 %u1, %u1, -1", "7.0", "sm_80")
    case("redux.sync.add.u32 %u1, %u1, -1", "6.5", "sm_80")
    case("redux.sync.add.u32 %u1, %u1, -1", "7.0", "sm_75")
    # isspacep
    for sp in (".const", ".global", ".local", ".shared", ".shared::cta", ".shared::cluster", ".param",
               ".param::entry", ".tex"):
        case(f"isspacep{sp} %p1, %rd1")
    case("isspacep.global %p1, %b1")
    case("isspacep.global %b1, %rd1")
    case("isspacep.global %p1, 0")
    case("isspacep %p1, %rd1")
    case("isspacep.global.u64 %p1, %rd1")
    case("isspacep.shared::cluster %p1, %rd1", "7.8", "sm_90")
    case("isspacep.shared::cluster %p1, %rd1", "7.7", "sm_90")
    case("isspacep.shared::cluster %p1, %rd1", "7.8", "sm_89")
    # fence
    for s in ("", ".sc", ".acq_rel"):
        for sc in ("", ".cta", ".cluster", ".gpu", ".sys"):
            case(f"fence{s}{sc}")
    case("fence.release.gpu")
    case("fence.acquire.gpu")
    case("fence.sc.cta %b1")
    case("fence.mbarrier_init.release.cluster")
    case("fence.mbarrier_init.release.cta")
    case("fence.mbarrier_init.acq_rel.cluster")
    for pk in (".alias", ".async", ".async.global", ".async.shared::cta", ".async.shared::cluster",
               ".async::generic"):
        case(f"fence.proxy{pk}")
    case("fence.proxy")
    case("fence.proxy.async.cta")
    case("fence.proxy.tensormap::generic.release.cta")
    case("fence.proxy.tensormap::generic.release.gpu")
    case("fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128")
    case("fence.proxy.tensormap::generic.acquire.cta [%rd1], 64")
    case("fence.proxy.tensormap::generic.acquire.gpu [%rd1]")
    case("fence.proxy.tensormap::generic.release.gpu [%rd1], 128")
    case("fence.sc.cta", "6.0", "sm_70")
    case("fence.sc.cta", "5.0", "sm_70")
    case("fence.sc.cta", "6.0", "sm_60")
    case("fence.acq_rel.cluster", "7.8", "sm_89")
    case("fence.proxy.async", "8.0", "sm_89")
    case("fence.proxy.async", "7.8", "sm_90")
    case("fence.proxy.alias", "7.5", "sm_70")
    case("fence.proxy.alias", "7.4", "sm_75")
    case("fence.mbarrier_init.release.cluster", "7.8", "sm_90")
    case("fence.mbarrier_init.release.cluster", "8.0", "sm_89")
    case("fence.proxy.tensormap::generic.release.gpu", "8.3", "sm_90")
    case("fence.proxy.tensormap::generic.release.gpu", "8.0", "sm_90")
    # setmaxnreg, griddepcontrol, trap, brkpt
    for a in (".inc", ".dec"):
        case(f"setmaxnreg{a}.sync.aligned.u32 240", "8.0", "sm_90a")
        case(f"setmaxnreg{a}.sync.aligned.u32 240", "8.0", "sm_90")
        case(f"setmaxnreg{a}.sync.aligned.u32 240", "7.8", "sm_90a")
        case(f"setmaxnreg{a}.sync.aligned.u32 241", "8.0", "sm_90a")
        case(f"setmaxnreg{a}.sync.aligned.u32 16", "8.0", "sm_90a")
        case(f"setmaxnreg{a}.sync.aligned.u32 264", "8.0", "sm_90a")
        case(f"setmaxnreg{a}.sync.aligned.u32 %u1", "8.0", "sm_90a")
        case(f"setmaxnreg{a}.sync.u32 240", "8.0", "sm_90a")
        case(f"setmaxnreg{a}.sync.aligned.u32 240", "8.6", "sm_100a")
    case("setmaxnreg.sync.aligned.u32 240", "8.0", "sm_90a")
    for g in ("griddepcontrol.launch_dependents", "griddepcontrol.wait"):
        case(g)
        case(g, "7.8", "sm_89")
        case(g, "7.7", "sm_90")
        case(f"{g} %b1")
    case("trap")
    case("trap %b1")
    case("trap.uni")
    case("brkpt")
    case("brkpt %b1")
    # cvt: integer <-> integer, float <-> integer, float <-> float
    ints8 = [".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64"]
    for d in ints8:
        for a in ints8:
            if (d[1:] in ("u8", "s8") or a[1:] in ("u8", "s8")) and d[2:] != a[2:] and (d, a) not in (
                    (".s32", ".s8"), (".u32", ".u8"), (".s16", ".s8"), (".u8", ".u32")):
                continue
            case(f"cvt{d}{a} {REG[d]}, {REG[a]}")
    for q in (".sat", ".rni", ".rn", ".ftz"):
        case(f"cvt{q}.s32.s64 %s1, %sl1")
        case(f"cvt{q}.u16.u32 %us1, %u1")
    case("cvt.u32.u64 %ul1, %ul1")       # destination wider than the type
    case("cvt.u64.u32 %ul1, %ul1")       # source wider than the type
    case("cvt.u64.u32 %u1, %u1")         # destination narrower
    case("cvt.u32.u16 %u1, %u1")
    case("cvt.u16.u32 %u1, %u1")
    case("cvt.s64.s32 %sl1, %u1")
    case("cvt.s64.s32 %sl1, %f1")
    case("cvt.s64.s32 %sl1, 5")
    case("cvt.s64.s32 5, %s1")
    case("cvt.s64.s32 %sl1")
    case("cvt.s64.s32 %sl1, %s1, %s1")
    case("cvt.s64 %sl1, %s1")
    case("cvt.b32.u16 %b1, %us1")
    case("cvt.pred.u32 %p1, %u1")
    floats = [".f16", ".bf16", ".f32", ".f64"]
    for f in floats:
        for i in (".s32", ".u32", ".s64", ".u16", ".s8"):
            for q in ("", ".rni", ".rzi", ".rmi", ".rpi", ".rn", ".rni.sat", ".rzi.ftz"):
                if q in (".rmi", ".rpi") and i not in (".s32",):
                    continue
                case(f"cvt{q}{i}{f} {REG[i]}, {REG[f]}")
            for q in ("", ".rn", ".rz", ".rm", ".rp", ".rni", ".rn.sat", ".rn.ftz"):
                if q in (".rm", ".rp") and i not in (".s32",):
                    continue
                case(f"cvt{q}{f}{i} {REG[f]}, {REG[i]}")
    for d in floats:
        for a in floats:
            for q in ("", ".rn", ".rz", ".rni", ".rzi", ".ftz", ".sat", ".rn.ftz", ".rn.sat", ".rni.ftz"):
                case(f"cvt{q}{d}{a} {REG[d]}, {REG[a]}")
    case("cvt.f32.f16 %f1, %f1")
    case("cvt.f64.f32 %fd1, %u1")
    case("cvt.rn.f32.f64 %f1, %rd1")
    case("cvt.rn.f32.s32 %f1, %f1")
    case("cvt.rn.relu.f16.f32 %h1, %f1")
    case("cvt.rn.satfinite.f16.f32 %h1, %f1")
    case("cvt.rn.relu.f32.f16 %f1, %h1")
    case("cvt.rn.f16x2.f32 %b1, %f1, %f1")
    case("cvt.rn.f16x2.f32 %b1, %f1")
    case("cvt.rn.bf16x2.f32 %b1, %f1, %f1")
    case("cvt.rz.relu.bf16x2.f32 %b1, %f1, %f1")
    case("cvt.f16x2.f32 %b1, %f1, %f1")
    case("cvt.rn.f16x2.f32 %b1, %f1, %f1", "7.0", "sm_80")
    case("cvt.rn.f16x2.f32 %b1, %f1, %f1", "6.5", "sm_80")
    case("cvt.rn.f16x2.f32 %b1, %f1, %f1", "7.0", "sm_75")
    case("cvt.rn.bf16.f32 %h1, %f1", "7.0", "sm_80")
    case("cvt.rn.bf16.f32 %h1, %f1", "7.0", "sm_75")
    case("cvt.rn.bf16.f32 %h1, %f1", "6.5", "sm_80")
    case("cvt.rn.f32.bf16 %f1, %h1", "7.8", "sm_90")
    case("cvt.f32.bf16 %f1, %h1", "7.8", "sm_90")
    case("cvt.f32.bf16 %f1, %h1", "7.8", "sm_89")
    case("cvt.rni.f32.f32 %f1, %f1", "6.0", "sm_50")
    case("cvt.rn.f16.f32 %h1, %f1", "4.0", "sm_50")

    boundaries()
    selects()


def boundary(instr, version, target, earlier_version, lower_target):
    """A feature at its first version and target, one version earlier, one target lower."""
    case(instr, version, target)
    case(instr, earlier_version, target)
    case(instr, version, lower_target)


def boundaries():
    for op in ("min", "max", "abs", "neg"):
        two = ", %h1" if op in ("min", "max") else ""
        boundary(f"{op}.bf16 %h1, %h1{two}", "7.0", "sm_80", "6.5", "sm_75")
        boundary(f"{op}.bf16x2 %b1, %b1{two.replace('h', 'b')}", "7.0", "sm_80", "6.5", "sm_75")
    for op in ("min", "max"):
        boundary(f"{op}.xorsign.abs.f32 %f1, %f1, %f1", "7.2", "sm_86", "7.1", "sm_80")
        boundary(f"{op}.relu.s32 %s1, %s1, %s1", "8.0", "sm_90", "7.8", "sm_89")
        boundary(f"{op}.u16x2 %b1, %b1, %b1", "8.0", "sm_90", "7.8", "sm_89")
        boundary(f"{op}.s16x2 %b1, %b1, %b1", "8.0", "sm_90", "7.8", "sm_89")
    boundary("tanh.approx.bf16 %h1, %h1", "7.8", "sm_90", "7.7", "sm_89")
    boundary("tanh.approx.bf16x2 %b1, %b1", "7.8", "sm_90", "7.7", "sm_89")
    boundary("ex2.approx.ftz.bf16x2 %b1, %b1", "7.8", "sm_90", "7.7", "sm_89")
    boundary("ex2.approx.f16x2 %b1, %b1", "7.0", "sm_75", "6.5", "sm_70")
    boundary("fma.rn.bf16x2 %b1, %b1, %b1, %b1", "7.0", "sm_80", "6.5", "sm_75")
    boundary("mul.rn.bf16x2 %b1, %b1, %b1", "7.8", "sm_90", "7.7", "sm_89")
    boundary("copysign.f32 %f1, %f1, %f1", "4.2", "sm_50", "4.1", "sm_50")
    boundary("dp2a.lo.u32.u32 %b1, %b1, %b1, %b1", "5.0", "sm_61", "4.3", "sm_60")
    boundary("cvt.rn.bf16.s32 %h1, %s1", "7.8", "sm_90", "7.0", "sm_80")
    boundary("cvt.rzi.s32.bf16 %s1, %h1", "7.8", "sm_90", "7.0", "sm_80")
    boundary("cvt.rn.bf16.f16 %h1, %h1", "7.8", "sm_90", "7.0", "sm_80")
    boundary("cvt.f64.bf16 %fd1, %h1", "7.8", "sm_90", "7.0", "sm_80")
    boundary("cvt.rn.bf16.f64 %h1, %fd1", "7.8", "sm_90", "7.0", "sm_80")
    boundary("cvt.rn.relu.bf16.f32 %h1, %f1", "7.0", "sm_80", "6.5", "sm_75")
    boundary("cvt.rn.bf16x2.f32 %b1, %f1, %f1", "7.0", "sm_80", "6.5", "sm_75")
    boundary("cvt.rn.satfinite.f16.f32 %h1, %f1", "8.1", "sm_80", "8.0", "sm_75")
    boundary("cvt.rn.relu.satfinite.f16x2.f32 %b1, %f1, %f1", "8.1", "sm_80", "8.0", "sm_75")
    boundary("cvt.rna.tf32.f32 %b1, %f1", "7.0", "sm_80", "6.5", "sm_75")
    boundary("cvt.rn.tf32.f32 %b1, %f1", "7.8", "sm_90", "7.7", "sm_89")
    boundary("cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f1", "7.8", "sm_89", "7.7", "sm_86")
    boundary("cvt.rn.satfinite.e5m2x2.f16x2 %h1, %b1", "7.8", "sm_89", "7.7", "sm_86")
    boundary("cvt.rn.f16x2.e4m3x2 %b1, %h1", "7.8", "sm_89", "7.7", "sm_86")
    boundary("cvt.rs.f16x2.f32 %b1, %f1, %f1, %b1", "8.7", "sm_100a", "8.6", "sm_90a")
    boundary("cvt.rz.satfinite.ue8m0x2.f32 %h1, %f1, %f1", "8.6", "sm_100a", "8.5", "sm_90a")
    boundary("cvt.rn.satfinite.e2m3x2.f32 %h1, %f1, %f1", "8.6", "sm_100a", "8.5", "sm_90a")
    case("cvt.rna.satfinite.tf32.f32 %b1, %f1", "8.0", "sm_90")
    case("cvt.rna.satfinite.tf32.f32 %b1, %f1", "8.1", "sm_80")
    for v in ("8.0", "8.1"):
        case("cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f1", v, "sm_89")
        case("cvt.rn.f16x2.e4m3x2 %b1, %h1", v, "sm_89")
    case("cvt.rn.tf32.f32 %f1, %f1", "8.0", "sm_90")
    case("cvt.rn.satfinite.e4m3x2.f32 %h1, %f1", "8.0", "sm_90")
    case("cvt.rn.e4m3x2.f32 %h1, %f1, %f1", "8.0", "sm_90")
    case("cvt.rn.satfinite.relu.e4m3x2.f32 %h1, %f1, %f1", "8.0", "sm_90")
    case("cvt.rz.f16x2.e4m3x2 %b1, %h1", "8.0", "sm_90")
    case("cvt.rs.f16x2.f32 %b1, %f1, %f1", "8.7", "sm_100a")
    boundary("isspacep.shared::cta %p1, %rd1", "7.8", "sm_80", "7.7", "sm_75")
    boundary("isspacep.param::entry %p1, %rd1", "8.3", "sm_80", "8.2", "sm_75")
    boundary("isspacep.param %p1, %rd1", "7.7", "sm_80", "7.6", "sm_75")
    for f in ("fence.acquire.gpu", "fence.release.gpu", "fence.sc.cluster", "fence.acq_rel.sys"):
        boundary(f, "7.8", "sm_90", "7.0", "sm_80")
        case(f, "6.0", "sm_70")
    boundary("fence.proxy.tensormap::generic.release.gpu", "8.3", "sm_90", "8.2", "sm_89")
    boundary("fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128", "8.3", "sm_90", "8.2", "sm_89")
    for v, t in (("8.6", "sm_100"), ("8.8", "sm_100f"), ("8.7", "sm_120a"), ("8.8", "sm_103a"),
                 ("9.0", "sm_110a"), ("9.0", "sm_110f"), ("9.0", "sm_120f"), ("8.7", "sm_100f"),
                 ("9.0", "sm_121a")):
        case("setmaxnreg.inc.sync.aligned.u32 240", v, t)
    boundary("griddepcontrol.wait", "7.8", "sm_90", "7.7", "sm_89")
    boundary("lop3.or.b32 %b1|%p1, %b1, %b1, %b1, 0x3f, %p2", "8.2", "sm_70", "8.1", "sm_61")
    case("lop3.and.b32 _|%p1, %b1, %b1, %b1, 0x3f, !%p2")
    case("lop3.and.b32 %b1, %b1, %b1, %b1, 0x3f, %p2")
    case("lop3.xor.b32 %b1|%p1, %b1, %b1, %b1, 0x3f, %p2")
    case("lop3.or.b32 %b1|%p1, %b1, %b1, %b1, 0x3f")
    boundary("fence.acquire.sync_restrict::shared::cluster.cluster", "8.6", "sm_90", "8.5", "sm_89")
    boundary("fence.release.sync_restrict::shared::cta.cluster", "8.6", "sm_90", "8.5", "sm_89")
    boundary("fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster", "8.6", "sm_90", "8.5",
             "sm_89")
    case("fence.release.sync_restrict::shared::cluster.cluster", "8.6", "sm_90")
    case("fence.acquire.sync_restrict::shared::cluster.gpu", "8.6", "sm_90")
    for op, n in (("mul", 3), ("fma", 4)):
        rnd = ".rn" if op == "fma" else ""
        boundary(f"{op}{rnd}.f32x2 {', '.join(['%rd1'] * n)}", "8.6", "sm_100", "8.5", "sm_90")
        case(f"{op}{rnd}.ftz.f32x2 {', '.join(['%rd1'] * n)}", "8.6", "sm_100")
        case(f"{op}{rnd}.sat.f32x2 {', '.join(['%rd1'] * n)}", "8.6", "sm_100")
    case("fma.f32x2 %rd1, %rd1, %rd1, %rd1", "8.6", "sm_100")
    boundary("fma.rn.oob.f16 %h1, %h1, %h1, %h1", "8.1", "sm_90", "8.0", "sm_89")
    boundary("fma.rn.oob.relu.bf16x2 %b1, %b1, %b1, %b1", "8.1", "sm_90", "8.0", "sm_89")
    case("fma.rz.oob.f16 %h1, %h1, %h1, %h1", "8.1", "sm_90")
    case("fma.rn.oob.f32 %f1, %f1, %f1, %f1", "8.1", "sm_90")
    # special registers as sources (compiler output moves them first; older code converts them)
    case("cvt.u64.u32 %ul1, %tid.x")
    case("cvt.u32.u16 %u1, %tid.x")
    case("mul.wide.u32 %ul1, %tid.x, 4")
    case("mad.lo.s32 %s1, %ctaid.x, %ntid.x, %tid.x")
    case("min.u32 %u1, %tid.x, 4")
    case("bfe.u32 %u1, %laneid, 0, 4")
    case("cvt.rn.f32.u32 %f1, %tid.x")


def selects():
    for d in (".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".f32", ".f64"):
        r = REG[d]
        case(f"slct{d}.s32 {r}, {r}, {r}, %s1")
        case(f"slct{d}.f32 {r}, {r}, {r}, %f1")
    case("slct.ftz.f32.f32 %f1, %f1, %f1, %f1")
    case("slct.ftz.u32.s32 %u1, %u1, %u1, %s1")
    case("slct.u32.u32 %u1, %u1, %u1, %u1")
    case("slct.u32.s32 %u1, %u1, %u1, %f1")
    case("slct.u32.s32 %u1, %u1, %u1")
    case("slct.u32.s32 %f1, %u1, %u1, %s1")
    case("slct.u32.s32 %u1, %u1, 5, -1")
    case("slct.u32 %u1, %u1, %u1, %s1")
    case("slct.s32.u32 %u1, %u1, %u1, %s1")
    for d in (".u32", ".s32", ".f32"):
        r = REG[d]
        for s2, cmp in ((".s32", ".lt"), (".u32", ".lo"), (".f32", ".ltu"), (".f64", ".gt"), (".b32", ".eq"),
                        (".u64", ".hs"), (".s16", ".ge")):
            case(f"set{cmp}{d}{s2} {r}, {REG[s2]}, {REG[s2]}")
        case(f"set.lt.and{d}.s32 {r}, %s1, %s1, %p1")
        case(f"set.lt.or{d}.s32 {r}, %s1, %s1, !%p1")
        case(f"set.lt.ftz{d}.f32 {r}, %f1, %f1")
    case("set.lt.f64.s32 %fd1, %s1, %s1")
    case("set.lt.u32 %u1, %s1, %s1")
    case("set.lo.u32.s32 %u1, %s1, %s1")
    case("set.ltu.u32.s32 %u1, %s1, %s1")
    case("set.lt.u32.s32 %u1, %s1")
    case("set.lt.and.u32.s32 %u1, %s1, %s1")
    case("set.lt.u32.s32 %f1, %s1, %s1")
    case("set.lt.ftz.u32.f64 %u1, %fd1, %fd1")
    case("set.lt.u32.f16 %u1, %h1, %h1")
    case("set.lt.f16.f16 %h1, %h1, %h1")
    case("set.lt.u32.f16x2 %u1, %b1, %b1")
    case("set.lt.f16x2.f16x2 %b1, %b1, %b1")
    case("set.lt.bf16.bf16 %h1, %h1, %h1")
    case("set.lt.u32.s32 %u1, %s1, 5")
    boundary("set.lt.u32.f16 %u1, %h1, %h1", "4.2", "sm_53", "4.1", "sm_52")
    boundary("set.lt.u32.f16x2 %u1, %b1, %b1", "4.2", "sm_53", "4.1", "sm_52")
    boundary("set.lt.bf16.bf16 %h1, %h1, %h1", "7.8", "sm_90", "7.7", "sm_89")
    boundary("set.lt.u32.bf16x2 %u1, %b1, %b1", "7.8", "sm_90", "7.7", "sm_89")
    case("set.lt.f32.f16 %f1, %h1, %h1")
    case("set.lt.f16.f32 %h1, %f1, %f1")
    case("set.lt.u16.f16 %us1, %h1, %h1")
    case("set.lt.u16.s32 %us1, %s1, %s1")
    case("set.lt.ftz.f16.f16 %h1, %h1, %h1")
    case("set.lt.ftz.bf16.bf16 %h1, %h1, %h1")
    case("set.lt.f16x2.f16 %b1, %h1, %h1")
    case("set.lt.f32.bf16 %f1, %h1, %h1")
    case("set.lt.s16.bf16 %ss1, %h1, %h1")


def label(item):
    cid, (instr, version, target) = item
    ptx = module(instr, version, target)
    gpu = target if int(re.sub(r"\D", "", target)) >= 75 else "sm_75"
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "case.ptx")
        with open(src, "w") as fh:
            fh.write(ptx)
        p = subprocess.run(["nice", "ptxas", "--gpu-name", gpu, src, "-o", os.path.join(d, "case.cubin")],
                           capture_output=True, text=True, timeout=120)
    out = (p.stdout + p.stderr).splitlines()
    errors = [re.sub(r"^ptxas [^:]*?(, line \d+)?; error\s*: ", "", l) for l in out if "error" in l]
    message = errors[0] if errors and p.returncode != 0 else ""
    return {"id": cid, "target": target, "version": version, "ptx": ptx,
            "ptxas": "accept" if p.returncode == 0 else "reject", "message": message, "about": instr}




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    build()
    out = os.path.join(HERE, FAMILY + ".jsonl.gz")
    previous = {}
    if os.path.exists(out):
        for line in read_lines(out):
            c = json.loads(line)
            previous[c["id"]] = c
    todo = [(k, v) for k, v in CASES.items() if k not in previous or previous[k]["ptx"] != module(*v)]
    with cf.ThreadPoolExecutor(max_workers=min(2, args.jobs)) as ex:
        done = {c["id"]: c for c in ex.map(label, todo)}
    write_gz(out, "".join(json.dumps(done.get(k) or previous[k]) + "\n" for k in CASES))
    print(f"{len(CASES)} cases, {len(todo)} labelled now")


if __name__ == "__main__":
    main()
