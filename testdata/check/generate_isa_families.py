#!/usr/bin/env python3
"""Generate one ptxas-labelled JSON Lines file per instruction family that the validator models
beyond core-isa-arith: call, membar-fence, shf, testp, prefetch, createpolicy, cvt-pack,
cache-priority (applypriority, discard), tensormap, wmma, wgmma, setmaxnreg.

Usage: generate_isa_families.py [--jobs N] [family ...]   (N <= 2; ptxas runs under nice)
Each case is a form of the instruction's Syntax block (spec/isa/<op>.md) over its qualifier
values, at and around the first PTX ISA version and target that accept it, or a mutation that
must be rejected: wrong type, wrong operand count or kind, constant out of range, a qualifier of
another form. Cases already labelled with the same module text are kept. Same format as
testdata/conformance: id, target, version, ptx, ptxas (accept/reject), message, about.
"""
import argparse, concurrent.futures as cf, json, os, re, subprocess, tempfile, zlib
from casefiles import read_lines, write_gz

HERE = os.path.dirname(os.path.abspath(__file__))
PROLOGUE = (".reg .pred %p<3>; .reg .b16 %h<3>; .reg .b32 %b<3>; .reg .u32 %u<3>; .reg .s32 %s<3>; "
            ".reg .f32 %f<130>; .reg .b64 %rd<3>; .reg .f64 %fd<9>; .reg .u64 %ul<3>; .reg .s64 %sl<3>; "
            ".reg .b32 %r<130>;\n.shared .align 128 .b8 smem[1024];\n.global .align 128 .b8 gmem[1024];\nL1:\n")

CASES = {}  # family -> id -> (instr, version, target, decls)


def module(instr, version, target, decls="", address_size=64):
    return (f".version {version}\n.target {target}\n.address_size {address_size}\n{decls}.visible .entry k() {{\n"
            f"{PROLOGUE}{instr}\nret;\n}}\n")


def case(family, instr, version="8.0", target="sm_90", decls="", unique=False):
    """unique: a long instruction's id keeps a checksum of all of it, not only its length."""
    instr = instr.strip()
    if not instr.endswith(";"):
        instr += ";"
    key = instr.split("\n")[-1][:-1].replace(' ', '_')
    if len(key) > 120:
        key = key[:100] + (f"..{zlib.crc32(key.encode()):08x}" if unique else f"..{len(key)}")
    # Cases with declarations before the instruction (call) are told apart by a checksum of them.
    context = decls + instr if "\n" in instr or decls else ""
    cid = f"{family}/{key}{'/' + format(zlib.crc32(context.encode()), '08x') if context else ''}/{version}/{target}"
    CASES.setdefault(family, {}).setdefault(cid, (instr, version, target, decls))


def around(family, instr, version, target, earlier_version, lower_target):
    """A feature at its first version and target, one version earlier, one target lower."""
    case(family, instr, version, target)
    case(family, instr, earlier_version, target)
    if lower_target:
        case(family, instr, version, lower_target)


# ---------------------------------------------------------------- membar / fence
def membar_fence():
    F = "membar-fence"
    for lvl in (".cta", ".gl", ".sys", ".gpu", ".cluster", ""):
        for v, t in (("8.0", "sm_90"), ("6.0", "sm_75"), ("7.0", "sm_80"), ("1.4", "sm_75"), ("8.8", "sm_100")):
            case(F, f"membar{lvl}", v, t)
    case(F, "membar.gl %r1")
    case(F, "membar.cta.sys")
    case(F, "membar.sync.cta")
    for pk in (".alias", ".async", ".async.global", ".async.shared::cta", ".async.shared::cluster",
               ".async::generic", ".tensormap::generic", ".texture"):
        for v, t in (("8.0", "sm_90"), ("7.5", "sm_75"), ("7.4", "sm_75"), ("8.0", "sm_89"), ("7.8", "sm_90")):
            case(F, f"membar.proxy{pk}", v, t)
            case(F, f"fence.proxy{pk}", v, t)
    case(F, "membar.proxy")
    case(F, "membar.proxy.alias.cta")
    for sem in ("", ".sc", ".acq_rel", ".acquire", ".release", ".relaxed", ".weak"):
        for sc in ("", ".cta", ".cluster", ".gpu", ".sys", ".gl"):
            case(F, f"fence{sem}{sc}")
            case(F, f"fence{sem}{sc}", "8.6", "sm_90")
            case(F, f"fence{sem}{sc}", "7.8", "sm_89")
    for sem in (".acquire", ".release"):
        for sc in (".cta", ".cluster", ".gpu", ".sys"):
            case(F, f"fence{sem}{sc}", "8.6", "sm_90")
            case(F, f"fence{sem}{sc}", "8.5", "sm_90")
            case(F, f"fence{sem}{sc}", "8.6", "sm_89")
    for sr in (".sync_restrict::shared::cluster", ".sync_restrict::shared::cta"):
        for sem in (".acquire", ".release", ".acq_rel", ""):
            for sc in (".cluster", ".cta", ".gpu"):
                for pre in ("fence", "fence.proxy.async::generic"):
                    case(F, f"{pre}{sem}{sr}{sc}", "8.6", "sm_90")
        case(F, f"fence.acquire{sr}.cluster", "8.5", "sm_90")
        case(F, f"fence.release{sr}.cluster", "8.6", "sm_89")
    for sem in (".release", ".acquire", ""):
        for sc in (".cluster", ".cta", ".gpu"):
            case(F, f"fence.mbarrier_init{sem}{sc}")
            case(F, f"fence.op_restrict{sem}{sc}", "8.6", "sm_90")
    case(F, "fence.mbarrier_init.release.cluster", "7.8", "sm_90")
    case(F, "fence.mbarrier_init.release.cluster", "8.0", "sm_89")
    # fence.proxy.tensormap::generic (uni-directional proxy fence)
    for sc in (".cta", ".cluster", ".gpu", ".sys"):
        for v, t in (("8.3", "sm_90"), ("8.2", "sm_90"), ("8.3", "sm_89"), ("8.0", "sm_90a")):
            case(F, f"fence.proxy.tensormap::generic.release{sc}", v, t)
            case(F, f"fence.proxy.tensormap::generic.acquire{sc} [%rd1], 128", v, t)
        case(F, f"fence.proxy.tensormap::generic.acquire{sc} [%rd1], 64", "8.3")
        case(F, f"fence.proxy.tensormap::generic.acquire{sc} [%rd1], %r1", "8.3")
        case(F, f"fence.proxy.tensormap::generic.acquire{sc} [%rd1]", "8.3")
        case(F, f"fence.proxy.tensormap::generic.acquire{sc} [gmem], 128", "8.3")
        case(F, f"fence.proxy.tensormap::generic.acquire{sc} %rd1, 128", "8.3")
        case(F, f"fence.proxy.tensormap::generic.release{sc} [%rd1], 128", "8.3")
        case(F, f"fence.proxy.tensormap::generic{sc}", "8.3")
        case(F, f"fence.proxy.tensormap::generic.acq_rel{sc}", "8.3")
        case(F, f"fence.proxy.tensormap::generic.acquire.global{sc} [%rd1], 128", "8.3")
    case(F, "fence.proxy.tensormap::generic.release", "8.3")
    case(F, "fence.sc.cta %r1")


# ---------------------------------------------------------------- shf
def shf():
    F = "shf"
    for d in (".l", ".r", ""):
        for m in (".clamp", ".wrap", ""):
            for t in (".b32", ".u32", ".s32", ".b64", ".f32", ""):
                case(F, f"shf{d}{m}{t} %b1, %b1, %b1, %b1")
    for d in (".l", ".r"):
        for m in (".clamp", ".wrap"):
            i = f"shf{d}{m}.b32"
            case(F, f"{i} %b1, %b1, %b1, 5")
            case(F, f"{i} %b1, %b1, %b1, 40")
            case(F, f"{i} %b1, 3, %b1, %b1")
            case(F, f"{i} %b1, %b1, 3, %b1")
            case(F, f"{i} 1, %b1, %b1, %b1")
            case(F, f"{i} %u1, %s1, %u1, %s1")
            case(F, f"{i} %f1, %b1, %b1, %b1")
            case(F, f"{i} %b1, %f1, %b1, %b1")
            case(F, f"{i} %b1, %b1, %b1, %f1")
            case(F, f"{i} %rd1, %b1, %b1, %b1")
            case(F, f"{i} %b1, %rd1, %b1, %b1")
            case(F, f"{i} %b1, %b1, %b1, %rd1")
            case(F, f"{i} %b1, %b1, %b1, %h1")
            case(F, f"{i} %b1, %b1, %b1, %p1")
            case(F, f"{i} %b1, %b1, %b1")
            case(F, f"{i} %b1, %b1, %b1, %b1, %b1")
            case(F, f"{i} %b1, %b1, %b1, 0f3F800000")
            case(F, f"{i} %b1, %b1, %b1, [%rd1]")
            for v, t in (("3.1", "sm_75"), ("3.0", "sm_75"), ("8.0", "sm_90"), ("6.0", "sm_75")):
                case(F, f"{i} %b1, %b1, %b1, %b1", v, t)
    case(F, "shf.l.wrap.clamp.b32 %b1, %b1, %b1, %b1")
    case(F, "shf.l.r.wrap.b32 %b1, %b1, %b1, %b1")
    case(F, "shf.l.wrap.b32.b32 %b1, %b1, %b1, %b1")
    case(F, "shf.wrap.l.b32 %b1, %b1, %b1, %b1")
    case(F, "shf.b32.l.wrap %b1, %b1, %b1, %b1")
    case(F, "shf.l.wrap.sat.b32 %b1, %b1, %b1, %b1")


# ---------------------------------------------------------------- testp
def testp():
    F = "testp"
    for op in (".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal", ".nan", ""):
        for t in (".f32", ".f64", ".f16", ".u32", ".b32", ".b64", ".bf16", ""):
            reg = {".f32": "%f1", ".f64": "%fd1", ".u32": "%u1", ".b32": "%b1", ".b64": "%rd1"}.get(t, "%h1")
            case(F, f"testp{op}{t} %p1, {reg}")
        case(F, f"testp{op}.f32 %p1, %f1", "2.0", "sm_75")
        case(F, f"testp{op}.f32 %p1, %b1")
        case(F, f"testp{op}.f32 %p1, %fd1")
        case(F, f"testp{op}.f64 %p1, %f1")
        case(F, f"testp{op}.f64 %p1, %rd1")
        case(F, f"testp{op}.f32 %b1, %f1")
        case(F, f"testp{op}.f32 %p1, 0f3F800000")
        case(F, f"testp{op}.f32 %p1, 1")
        case(F, f"testp{op}.f32 %p1")
        case(F, f"testp{op}.f32 %p1, %f1, %f1")
        case(F, f"testp{op}.f32 %p1|%p2, %f1")
        case(F, f"testp{op}.f32 _, %f1")
        case(F, f"testp{op}.f64 %p1, 0d3FF0000000000000")
        case(F, f"testp{op}.ftz.f32 %p1, %f1")
    case(F, "testp.finite.normal.f32 %p1, %f1")
    case(F, "testp.f32.finite %p1, %f1")


# ---------------------------------------------------------------- prefetch / prefetchu
def prefetch():
    F = "prefetch"
    addrs = ("[%rd1]", "[gmem]", "[gmem+64]", "[%rd1+8]", "[smem]", "%rd1", "[%r1]")
    for sp in ("", ".global", ".local", ".shared", ".const", ".param", ".shared::cta"):
        for lvl in (".L1", ".L2", ".L2::evict_last", ".L2::evict_normal", ".L2::evict_first",
                    ".L2::evict_unchanged", ".L1::evict_last", ".tensormap", ""):
            case(F, f"prefetch{sp}{lvl} [%rd1]")
    for a in addrs:
        case(F, f"prefetch.global.L2 {a}")
        case(F, f"prefetchu.L1 {a}")
        case(F, f"prefetch.L1 {a}")
        case(F, f"prefetch.const.tensormap {a}", "8.0", "sm_90")
        case(F, f"prefetch.global.L2::evict_last {a}")
    case(F, "prefetch.global.L2 [%rd1], 128")
    case(F, "prefetch.global.L2")
    case(F, "prefetch.global.L1.L2 [%rd1]")
    case(F, "prefetch.L2.global [%rd1]")
    case(F, "prefetch.global.L2.L2::evict_last [%rd1]")
    for lvl in ("", ".L1", ".L2", ".global.L1", ".global"):
        case(F, f"prefetchu{lvl} [%rd1]")
    for v, t in (("2.0", "sm_75"), ("1.4", "sm_75"), ("8.0", "sm_90")):
        case(F, "prefetch.global.L1 [%rd1]", v, t)
        case(F, "prefetchu.L1 [%rd1]", v, t)
    for pr in (".L2::evict_last", ".L2::evict_normal"):
        for v, t in (("7.4", "sm_80"), ("7.3", "sm_80"), ("7.4", "sm_75"), ("8.0", "sm_90"), ("7.4", "sm_86")):
            case(F, f"prefetch.global{pr} [%rd1]", v, t)
            case(F, f"prefetch{pr} [%rd1]", v, t)
    for sp in (".const", ".param", "", ".global"):
        for v, t in (("8.0", "sm_90"), ("7.8", "sm_90"), ("8.0", "sm_89"), ("8.0", "sm_90a"), ("8.3", "sm_100")):
            case(F, f"prefetch{sp}.tensormap [%rd1]", v, t)
    decls = ".visible .entry kp(.param .align 64 .b8 tmap[128]) { prefetch.param.tensormap [tmap]; ret; }\n"
    case(F, "prefetch.const.tensormap [%rd1]", "8.0", "sm_90", decls)


# ---------------------------------------------------------------- createpolicy
def createpolicy():
    F = "createpolicy"
    pri = (".L2::evict_last", ".L2::evict_normal", ".L2::evict_first", ".L2::evict_unchanged")
    sec = ("", ".L2::evict_first", ".L2::evict_unchanged", ".L2::evict_last", ".L2::evict_normal")
    for p in pri:
        for s in sec:
            case(F, f"createpolicy.fractional{p}{s}.b64 %rd1, 0f3F000000")
            case(F, f"createpolicy.range{p}{s}.b64 %rd1, [%rd1], %b1, %b1")
        case(F, f"createpolicy.range.global{p}.b64 %rd1, [%rd1], 4096, 8192")
        case(F, f"createpolicy.fractional{p}.b64 %rd1")
    for frac in ("1.0", "0.5", "0f3F800000", "0f3F000000", "0f00000000", "0f3FC00000", "0fBF000000", "1", "0",
                 "%f1", "%b1", "2.0", "0d3FE0000000000000"):
        case(F, f"createpolicy.fractional.L2::evict_last.b64 %rd1, {frac}")
        case(F, f"createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd1, {frac}")
    for ops in ("%rd1, [%rd1], %b1, %b1", "%rd1, [%rd1], 0x100000, 0x200000", "%rd1, [%rd1], %rd1, %rd1",
                "%rd1, [%rd1], %b1", "%rd1, %rd1, %b1, %b1", "%b1, [%rd1], %b1, %b1", "%rd1, [gmem], 128, 256",
                "%rd1, [%rd1], %f1, %b1", "%rd1, [%rd1], -1, 256", "%rd1, [%rd1], %b1, %b1, %b1",
                "%rd1, [smem], 128, 128"):
        case(F, f"createpolicy.range.L2::evict_last.L2::evict_first.b64 {ops}")
        case(F, f"createpolicy.range.global.L2::evict_last.b64 {ops}")
    for ops in ("%rd1, %rd1", "%rd1, %b1", "%b1, %rd1", "%rd1", "%rd1, 5", "%rd1, %rd1, %rd1"):
        case(F, f"createpolicy.cvt.L2.b64 {ops}")
    case(F, "createpolicy.cvt.b64 %rd1, %rd1")
    case(F, "createpolicy.cvt.L1.b64 %rd1, %rd1")
    case(F, "createpolicy.cvt.L2.u64 %rd1, %rd1")
    case(F, "createpolicy.fractional.L2::evict_last.b32 %b1, 0f3F000000")
    case(F, "createpolicy.fractional.L2::evict_last.u64 %rd1, 0f3F000000")
    case(F, "createpolicy.fractional.L2::evict_last %rd1, 0f3F000000")
    case(F, "createpolicy.fractional.b64 %rd1, 0f3F000000")
    case(F, "createpolicy.L2::evict_last.b64 %rd1, 0f3F000000")
    case(F, "createpolicy.fractional.range.L2::evict_last.b64 %rd1, 0f3F000000")
    case(F, "createpolicy.fractional.global.L2::evict_last.b64 %rd1, 0f3F000000")
    case(F, "createpolicy.fractional.L2::evict_last.b64 %ul1, 0f3F000000")
    case(F, "createpolicy.fractional.L2::evict_last.b64 %fd1, 0f3F000000")
    for v, t in (("7.4", "sm_80"), ("7.3", "sm_80"), ("7.4", "sm_75"), ("8.0", "sm_90"), ("7.4", "sm_86")):
        case(F, "createpolicy.fractional.L2::evict_last.b64 %rd1, 1.0", v, t)
        case(F, "createpolicy.range.L2::evict_last.b64 %rd1, [%rd1], %b1, %b1", v, t)
        case(F, "createpolicy.cvt.L2.b64 %rd1, %rd1", v, t)


# ---------------------------------------------------------------- cvt.pack
def cvt_pack():
    F = "cvt-pack"
    for ct in (".u16", ".s16", ".u8", ".s8", ".u4", ".s4", ".u2", ".s2", ".u32", ".b16", ".f16"):
        for sat in (".sat", ""):
            case(F, f"cvt.pack{sat}{ct}.s32 %b1, %s1, %s1")
            case(F, f"cvt.pack{sat}{ct}.s32.b32 %b1, %s1, %s1, %b1")
        case(F, f"cvt.pack.sat{ct}.u32 %b1, %s1, %s1")
        case(F, f"cvt.pack.sat{ct}.s32.u32 %b1, %s1, %s1, %b1")
        case(F, f"cvt.pack.sat{ct}.u32.b32 %b1, %s1, %s1, %b1")
    for ops in ("%b1, %s1, %s1", "%u1, %s1, %s1", "%h1, %s1, %s1", "%b1, %f1, %s1", "%b1, %s1, 5", "%b1, 5, %s1",
                "%b1, %s1", "%b1, %s1, %s1, %b1", "%rd1, %s1, %s1", "%b1, %sl1, %s1", "5, %s1, %s1"):
        case(F, f"cvt.pack.sat.u16.s32 {ops}")
        case(F, f"cvt.pack.sat.s16.s32 {ops}")
    for ops in ("%b1, %s1, %s1, %b1", "%b1, %s1, %s1, %u1", "%b1, %s1, %s1, %f1", "%b1, %s1, %s1, 0",
                "%b1, %s1, %s1", "%b1, %s1, %s1, %b1, %b1", "%h1, %s1, %s1, %b1", "%b1, %s1, %s1, %rd1",
                "%b1, %f1, %s1, %b1", "%b1, 1, 2, %b1"):
        case(F, f"cvt.pack.sat.u8.s32.b32 {ops}")
        case(F, f"cvt.pack.sat.s4.s32.b32 {ops}")
        case(F, f"cvt.pack.sat.u2.s32.b32 {ops}")
    for v, t in (("6.5", "sm_75"), ("6.4", "sm_75"), ("8.0", "sm_90"), ("7.0", "sm_80")):
        case(F, "cvt.pack.sat.u16.s32 %b1, %s1, %s1", v, t)
        case(F, "cvt.pack.sat.u8.s32.b32 %b1, %s1, %s1, %b1", v, t)
        case(F, "cvt.pack.sat.s4.s32.b32 %b1, %s1, %s1, %b1", v, t)
    case(F, "cvt.pack.rn.sat.u16.s32 %b1, %s1, %s1")
    case(F, "cvt.pack.sat.sat.u16.s32 %b1, %s1, %s1")
    case(F, "cvt.pack.sat.s32.u16 %b1, %s1, %s1")


# ---------------------------------------------------------------- applypriority / discard
def cache_priority():
    F = "cache-priority"
    for sp in ("", ".global", ".shared", ".local", ".const"):
        for lvl in (".L2::evict_normal", ".L2::evict_last", ".L2::evict_first", ".L2::evict_unchanged", ".L2", ".L1", ""):
            case(F, f"applypriority{sp}{lvl} [%rd1], 128")
        for lvl in (".L2", ".L1", ".L2::evict_normal", ""):
            case(F, f"discard{sp}{lvl} [%rd1], 128")
    for op in ("applypriority.global.L2::evict_normal", "applypriority.L2::evict_normal", "discard.global.L2", "discard.L2"):
        for ops in ("[%rd1], 128", "[%rd1], 64", "[%rd1], 256", "[%rd1], 0", "[%rd1], %b1", "[%rd1], %rd1",
                    "[%rd1]", "[%rd1], 128, 128", "%rd1, 128", "[gmem], 128", "[gmem+128], 128", "[%rd1+128], 128",
                    "[smem], 128", "[%r1], 128"):
            case(F, f"{op} {ops}")
        for v, t in (("7.4", "sm_80"), ("7.3", "sm_80"), ("7.4", "sm_75"), ("8.0", "sm_90"), ("7.4", "sm_86")):
            case(F, f"{op} [%rd1], 128", v, t)


# ---------------------------------------------------------------- tensormap
def tensormap():
    F = "tensormap"
    fields1 = (".global_address", ".rank")
    fields2 = (".box_dim", ".global_dim", ".global_stride", ".element_stride")
    fields3 = (".elemtype", ".interleave_layout", ".swizzle_mode", ".swizzle_atomicity", ".fill_mode")
    V, T = "8.3", "sm_90a"
    for ss in ("", ".global", ".shared::cta", ".shared", ".shared::cluster", ".local"):
        for f in fields1 + fields2 + fields3:
            for ty in (".b32", ".b64"):
                reg = "%b1" if ty == ".b32" else "%rd1"
                base = f"tensormap.replace.tile{f}{ss}.b1024{ty}"
                if f in fields2:
                    case(F, f"{base} [%rd1], 0, {reg}", V, T)
                elif f in fields3:
                    case(F, f"{base} [%rd1], 1", V, T)
                else:
                    case(F, f"{base} [%rd1], {reg}", V, T)
    for f in fields1 + fields2 + fields3:
        ty = ".b64" if f in (".global_address", ".global_stride") else ".b32"
        reg = "%b1" if ty == ".b32" else "%rd1"
        base = f"tensormap.replace.tile{f}.global.b1024{ty}"
        if f in fields2:
            for ops in (f"[%rd1], 4, {reg}", f"[%rd1], 5, {reg}", f"[%rd1], %b1, {reg}", f"[%rd1], {reg}",
                        f"[%rd1], -1, {reg}", f"[%rd1], 0, 7", f"[%rd1], 0, {reg}, {reg}", f"[gmem], 0, {reg}",
                        f"%rd1, 0, {reg}", f"[%rd1], 0, %f1"):
                case(F, f"{base} {ops}", V, T)
        elif f in fields3:
            for ops in ("[%rd1], 0", "[%rd1], 3", "[%rd1], 15", "[%rd1], 16", "[%rd1], 100", "[%rd1], %b1",
                        "[%rd1], 0, 1", "[%rd1]", "[gmem], 1"):
                case(F, f"{base} {ops}", V, T)
        else:
            for ops in (f"[%rd1], {reg}", "[%rd1], 5", f"[%rd1], 0, {reg}", "[%rd1]", f"[gmem], {reg}",
                        "[%rd1], %f1", "[%rd1], %h1"):
                case(F, f"{base} {ops}", V, T)
        for v, t in (("8.3", "sm_90a"), ("8.2", "sm_90a"), ("8.3", "sm_90"), ("8.6", "sm_100a"), ("8.8", "sm_100f"),
                     ("8.7", "sm_100f"), ("8.6", "sm_100"), ("8.6", "sm_120a"), ("8.8", "sm_120f")):
            ops = f"[%rd1], 0, {reg}" if f in fields2 else "[%rd1], 1" if f in fields3 else f"[%rd1], {reg}"
            case(F, f"{base} {ops}", v, t)
    case(F, "tensormap.replace.global_address.global.b1024.b64 [%rd1], %rd1", V, T)
    case(F, "tensormap.replace.im2col.global_address.global.b1024.b64 [%rd1], %rd1", V, T)
    case(F, "tensormap.replace.tile.global_address.global.b64 [%rd1], %rd1", V, T)
    case(F, "tensormap.replace.tile.global.b1024.b64 [%rd1], %rd1", V, T)
    case(F, "tensormap.replace.tile.rank.box_dim.global.b1024.b32 [%rd1], %b1", V, T)
    # tensormap.cp_fenceproxy
    for sc in (".cta", ".cluster", ".gpu", ".sys", ""):
        for sem in (".release", ".acquire", ""):
            case(F, f"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic{sem}{sc}.sync.aligned [%rd1], [%rd1], 128", V, "sm_90")
    base = "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
    for ops in ("[%rd1], [%rd1], 128", "[%rd1], [%rd1], 64", "[%rd1], [%rd1], 256", "[%rd1], [%rd1], %b1",
                "[%rd1], [%rd1]", "[gmem], [smem], 128", "%rd1, [%rd1], 128", "[%rd1], %rd1, 128",
                "[%rd1], [%rd1], 128, 128"):
        case(F, f"{base} {ops}", V, "sm_90")
    for q in ("tensormap.cp_fenceproxy.shared::cta.global.tensormap::generic.release.gpu.sync.aligned",
              "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync",
              "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.aligned",
              "tensormap.cp_fenceproxy.global.shared::cta.release.gpu.sync.aligned",
              "tensormap.cp_fenceproxy.global.shared.tensormap::generic.release.gpu.sync.aligned",
              "tensormap.cp_fenceproxy.tensormap::generic.release.gpu.sync.aligned",
              "tensormap.cp_fenceproxy.global.shared::cta.async::generic.release.gpu.sync.aligned"):
        case(F, f"{q} [%rd1], [%rd1], 128", V, "sm_90")
    for v, t in (("8.3", "sm_90"), ("8.2", "sm_90"), ("8.3", "sm_89"), ("8.3", "sm_90a"), ("8.6", "sm_100"),
                 ("8.0", "sm_90")):
        case(F, f"{base} [%rd1], [%rd1], 128", v, t)


# ---------------------------------------------------------------- setmaxnreg
def setmaxnreg():
    F = "setmaxnreg"
    for n in (0, 8, 16, 23, 24, 25, 32, 100, 104, 128, 200, 232, 240, 248, 255, 256, 257, 264, -8):
        for d in (".inc", ".dec"):
            case(F, f"setmaxnreg{d}.sync.aligned.u32 {n}", "8.0", "sm_90a")
    for d in (".inc", ".dec"):
        for q in (".sync.aligned.u32", ".sync.u32", ".aligned.u32", ".sync.aligned", ".sync.aligned.s32",
                  ".sync.aligned.b32", ".aligned.sync.u32", ".sync.aligned.u32.u32"):
            case(F, f"setmaxnreg{d}{q} 64", "8.0", "sm_90a")
        for ops in ("%u1", "%r1", "64, 64", ""):
            case(F, f"setmaxnreg{d}.sync.aligned.u32 {ops}", "8.0", "sm_90a")
        for v, t in (("8.0", "sm_90a"), ("7.8", "sm_90a"), ("8.0", "sm_90"), ("8.6", "sm_100a"), ("8.6", "sm_100"),
                     ("8.8", "sm_100f"), ("8.7", "sm_100f"), ("8.8", "sm_120f"), ("8.6", "sm_120a"),
                     ("8.8", "sm_103a"), ("8.8", "sm_110a"), ("9.0", "sm_110f"), ("8.8", "sm_121a"), ("8.8", "sm_89")):
            case(F, f"setmaxnreg{d}.sync.aligned.u32 64", v, t)
    case(F, "setmaxnreg.sync.aligned.u32 64", "8.0", "sm_90a")
    case(F, "setmaxnreg.inc.dec.sync.aligned.u32 64", "8.0", "sm_90a")


# ---------------------------------------------------------------- wgmma
def vec(prefix, n, start=0):
    return "{" + ", ".join(f"{prefix}{start + i}" for i in range(n)) + "}"


def wgmma():
    F = "wgmma"
    V, T = "8.0", "sm_90a"
    for op in ("wgmma.fence", "wgmma.commit_group"):
        for q in (".sync.aligned", ".sync", ".aligned", "", ".aligned.sync"):
            case(F, f"{op}{q}", V, T)
        case(F, f"{op}.sync.aligned %r1", V, T)
        for v, t in (("8.0", "sm_90a"), ("7.8", "sm_90a"), ("8.0", "sm_90"), ("8.6", "sm_100a"), ("8.8", "sm_100f"),
                     ("8.6", "sm_120a"), ("8.0", "sm_89")):
            case(F, f"{op}.sync.aligned", v, t)
    for n in ("0", "1", "7", "8", "-1", "%r1", "", "1, 2"):
        case(F, f"wgmma.wait_group.sync.aligned {n}", V, T)
    case(F, "wgmma.wait_group.sync 0", V, T)
    case(F, "wgmma.wait_group 0", V, T)
    for v, t in (("8.0", "sm_90a"), ("7.8", "sm_90a"), ("8.0", "sm_90"), ("8.6", "sm_100a")):
        case(F, "wgmma.wait_group.sync.aligned 0", v, t)
    # mma_async: dtype, atype, k, scale/transposition immediates, regA allowed
    combos = [(".f16", ".f16", ".f16", 16, True), (".f32", ".f16", ".f16", 16, True),
              (".f32", ".bf16", ".bf16", 16, True), (".f32", ".tf32", ".tf32", 8, False),
              (".f32", ".e4m3", ".e4m3", 32, False), (".f16", ".e5m2", ".e4m3", 32, False),
              (".f32", ".e5m2", ".e5m2", 32, False), (".s32", ".s8", ".s8", 32, None), (".s32", ".u8", ".s8", 32, None),
              (".s32", ".b1", ".b1", 256, None)]
    head = "wgmma.mma_async.sync.aligned"
    for dt, at, bt, k, trans in combos:
        for n in (8, 16, 24, 64, 128, 256, 12, 264, 40, 48, 240):
            shape = f".m64n{n}k{k}"
            nd = n // 4 if dt == ".f16" else n // 2
            dreg = "%r" if dt in (".f16", ".s32") else "%f"
            dv = vec(dreg, nd) if nd <= 128 else vec(dreg, 128)
            # scale-d (%p1) is followed by imm-scale-a, imm-scale-b and, for .f16/.bf16, the transpositions
            tail = ", 1, 1, 0, 0" if trans else ", 1, 1" if trans is False else ""
            tail_reg = ", 1, 1, 0" if trans else ", 1, 1" if trans is False else ""
            extra = ".and.popc" if at == ".b1" else ""
            q = f"{head}{shape}{dt}{at}{bt}{extra}"
            case(F, f"{q} {dv}, %rd1, %rd2, %p1{tail}", V, T)
            if n in (8, 64, 256, 12):
                case(F, f"{q} {dv}, {{%r100, %r101, %r102, %r103}}, %rd2, %p1{tail_reg}", V, T)
            if n in (8, 64):
                case(F, f"{q} {vec(dreg, nd + 1)}, %rd1, %rd2, %p1{tail}", V, T)
                case(F, f"{q} {vec(dreg, max(1, nd - 1))}, %rd1, %rd2, %p1{tail}", V, T)
                case(F, f"{q} {dv}, %rd1, %rd2, %p1{tail}, 1", V, T)
                case(F, f"{q} {dv}, %rd1, %rd2, %p1", V, T) if trans is not None else None
                case(F, f"{q} {dv}, %r1, %rd2, %p1{tail}", V, T)
                case(F, f"{q} {dv}, %rd1, %r2, %p1{tail}", V, T)
                case(F, f"{q} {dv}, %rd1, %rd2, 1{tail}", V, T)
                case(F, f"{q} {dv}, %rd1, %rd2, %r1{tail}", V, T)
                case(F, f"{q} {dv}, {{%r100, %r101}}, %rd2, %p1{tail_reg}", V, T)
                case(F, f"{q} {vec('%fd', 2)}, %rd1, %rd2, %p1{tail}", V, T)
                if trans is not None:
                    case(F, f"{q} {dv}, %rd1, %rd2, %p1, 2, 1" + (", 0, 0" if trans else ""), V, T)
                    case(F, f"{q} {dv}, %rd1, %rd2, %p1, -1, 1" + (", 0, 0" if trans else ""), V, T)
                    case(F, f"{q} {dv}, %rd1, %rd2, %p1, %r1, 1" + (", 0, 0" if trans else ""), V, T)
                if trans:
                    case(F, f"{q} {dv}, %rd1, %rd2, %p1, 1, 1, 2, 0", V, T)
                    case(F, f"{q} {dv}, %rd1, %rd2, %p1, 1, 1, 1, 1", V, T)
                if n == 8:
                    for v, t in (("8.0", "sm_90a"), ("7.8", "sm_90a"), ("8.0", "sm_90"), ("8.6", "sm_100a"),
                                 ("8.8", "sm_100f"), ("8.0", "sm_89")):
                        case(F, f"{q} {dv}, %rd1, %rd2, %p1{tail}", v, t)
        if dt == ".s32":
            case(F, f"{head}.m64n8k32.satfinite{dt}{at}{bt} {vec('%r', 4)}, %rd1, %rd2, %p1", V, T)
    for bad in (".m64n8k16.f32.f16.bf16", ".m64n8k16.f16.bf16.bf16", ".m64n8k16.s32.f16.f16",
                ".m64n8k32.f32.s8.s8", ".m64n8k16.f32.f16", ".m64n8k16.f64.f16.f16", ".m32n8k16.f32.f16.f16",
                ".m64n8k32.f32.e4m3.f16", ".m64n8k16.satfinite.f32.f16.f16", ".m64n8k8.f16.tf32.tf32"):
        case(F, f"{head}{bad} {vec('%f', 4)}, %rd1, %rd2, %p1, 1, 1, 0, 0", V, T)
        case(F, f"{head}{bad} {vec('%f', 4)}, %rd1, %rd2, %p1, 1, 1", V, T)
    case(F, f"wgmma.mma_async.sync.m64n8k16.f32.f16.f16 {vec('%f', 4)}, %rd1, %rd2, %p1, 1, 1, 0, 0", V, T)
    case(F, f"wgmma.mma_async.aligned.m64n8k16.f32.f16.f16 {vec('%f', 4)}, %rd1, %rd2, %p1, 1, 1, 0, 0", V, T)
    case(F, f"{head}.m64n8k256.s32.b1.b1.xor.popc {vec('%r', 4)}, %rd1, %rd2, %p1", V, T)
    case(F, f"{head}.m64n8k256.s32.b1.b1.and {vec('%r', 4)}, %rd1, %rd2, %p1", V, T)
    case(F, f"{head}.m64n8k256.s32.b1.b1 {vec('%r', 4)}, %rd1, %rd2, %p1", V, T)


# ---------------------------------------------------------------- wmma
WMMA_A = {  # (shape, atype) -> registers of the a, b fragments
    (".m16n16k16", ".f16"): (8, 8), (".m8n32k16", ".f16"): (8, 8), (".m32n8k16", ".f16"): (8, 8),
    (".m16n16k16", ".s8"): (2, 2), (".m8n32k16", ".s8"): (1, 4), (".m32n8k16", ".s8"): (4, 1),
    (".m16n16k16", ".u8"): (2, 2), (".m8n32k16", ".u8"): (1, 4), (".m32n8k16", ".u8"): (4, 1),
    (".m16n16k16", ".bf16"): (4, 4), (".m8n32k16", ".bf16"): (2, 8), (".m32n8k16", ".bf16"): (8, 2),
    (".m16n16k8", ".tf32"): (4, 4), (".m8n8k4", ".f64"): (1, 1), (".m8n8k32", ".s4"): (1, 1),
    (".m8n8k32", ".u4"): (1, 1), (".m8n8k128", ".b1"): (1, 1)}


def wmma():
    F = "wmma"
    V, T = "8.0", "sm_90"
    ld = "wmma.load"
    for (shape, at), (na, nb) in WMMA_A.items():
        reg = "%fd" if at == ".f64" else "%r"
        for frag, n in ((".a", na), (".b", nb)):
            for lay in (".row", ".col"):
                for ss in ("", ".global", ".shared", ".shared::cta"):
                    if ss and lay == ".col":
                        continue
                    case(F, f"{ld}{frag}.sync.aligned{lay}{shape}{ss}{at} {vec(reg, n)}, [%rd1]", V, T)
                case(F, f"{ld}{frag}.sync.aligned{lay}{shape}{at} {vec(reg, n)}, [%rd1], %b1", V, T)
            case(F, f"{ld}{frag}.sync.aligned.row{shape}{at} {vec(reg, n + 1)}, [%rd1]", V, T)
            case(F, f"{ld}{frag}.sync.aligned.row{shape}{at} {vec(reg, n)}, [%rd1], 16", V, T)
            case(F, f"{ld}{frag}.sync.aligned.row{shape}{at} {vec(reg, n)}", V, T)
            case(F, f"{ld}{frag}.sync.aligned{shape}{at} {vec(reg, n)}, [%rd1]", V, T)
            case(F, f"{ld}{frag}.sync.aligned.row{shape}.local{at} {vec(reg, n)}, [%rd1]", V, T)
            case(F, f"{ld}{frag}.sync.aligned.row{shape}{at} {vec('%f' if at != '.f64' else '%r', n)}, [%rd1]", V, T)
        for v, t in (("6.0", "sm_75"), ("6.3", "sm_75"), ("6.4", "sm_75"), ("6.5", "sm_75"), ("7.0", "sm_80"),
                     ("6.9", "sm_80"), ("7.0", "sm_75"), ("8.0", "sm_90")):
            case(F, f"{ld}.a.sync.aligned.row{shape}{at} {vec(reg, na)}, [%rd1]", v, t)
    for shape, ct, n in ((".m16n16k16", ".f16", 4), (".m16n16k16", ".f32", 8), (".m16n16k16", ".s32", 8),
                         (".m8n32k16", ".f32", 8), (".m32n8k16", ".f16", 4), (".m16n16k8", ".f32", 8),
                         (".m8n8k4", ".f64", 2), (".m8n8k32", ".s32", 2), (".m8n8k128", ".s32", 2),
                         (".m16n16k8", ".f16", 4), (".m8n8k4", ".f32", 2), (".m16n16k16", ".bf16", 4)):
        reg = "%fd" if ct == ".f64" else "%f" if ct == ".f32" else "%r"
        for lay in (".row", ".col"):
            case(F, f"{ld}.c.sync.aligned{lay}{shape}{ct} {vec(reg, n)}, [%rd1]", V, T)
            case(F, f"wmma.store.d.sync.aligned{lay}{shape}{ct} [%rd1], {vec(reg, n)}", V, T)
            case(F, f"wmma.store.d.sync.aligned{lay}{shape}.shared{ct} [%rd1], {vec(reg, n)}, %b1", V, T)
        case(F, f"wmma.store.d.sync.aligned.row{shape}{ct} [%rd1], {vec(reg, n + 1)}", V, T)
        case(F, f"wmma.store.d.sync.aligned.row{shape}{ct} {vec(reg, n)}, [%rd1]", V, T)
        case(F, f"wmma.store.c.sync.aligned.row{shape}{ct} [%rd1], {vec(reg, n)}", V, T)
        case(F, f"wmma.load.d.sync.aligned.row{shape}{ct} {vec(reg, n)}, [%rd1]", V, T)
    case(F, f"wmma.load.a.sync.aligned.col.m8n8k32.s4 {{%r1}}, [%rd1]", V, T)
    case(F, f"wmma.load.b.sync.aligned.row.m8n8k128.b1 {{%r1}}, [%rd1]", V, T)
    case(F, f"wmma.load.a.sync.aligned.row.m16n16k16.f32 {vec('%f', 8)}, [%rd1]", V, T)
    case(F, f"wmma.load.a.sync.aligned.row.m16n16k16.tf32 {vec('%r', 4)}, [%rd1]", V, T)
    case(F, f"wmma.load.a.row.m16n16k16.f16 {vec('%r', 8)}, [%rd1]", V, T)
    case(F, f"wmma.load.a.sync.row.m16n16k16.f16 {vec('%r', 8)}, [%rd1]", V, T)
    case(F, f"wmma.load.a.sync.aligned.row.m16n16k16.f16 %r1, [%rd1]", V, T)
    # mma
    mm = "wmma.mma.sync.aligned"
    for shape in (".m16n16k16", ".m8n32k16", ".m32n8k16"):
        for dt, ct in ((".f16", ".f16"), (".f32", ".f16"), (".f16", ".f32"), (".f32", ".f32")):
            dn = 4 if dt == ".f16" else 8
            cn = 4 if ct == ".f16" else 8
            dr = "%r" if dt == ".f16" else "%f"
            cr = "%r" if ct == ".f16" else "%f"
            for la in (".row", ".col"):
                for lb in (".row", ".col"):
                    case(F, f"{mm}{la}{lb}{shape}{dt}{ct} {vec(dr, dn)}, {vec('%r', 8)}, {vec('%r', 8, 8)}, {vec(cr, cn, 16)}", V, T)
            case(F, f"{mm}.row.col{shape}{dt}{ct}.satfinite {vec(dr, dn)}, {vec('%r', 8)}, {vec('%r', 8, 8)}, {vec(cr, cn, 16)}", V, T)
        na, nb = WMMA_A[(shape, ".s8")]
        for at in (".s8", ".u8"):
            for sat in ("", ".satfinite"):
                case(F, f"{mm}.row.col{shape}.s32{at}{at}.s32{sat} {vec('%r', 8)}, {vec('%r', na, 20)}, {vec('%r', nb, 30)}, {vec('%r', 8, 40)}", V, T)
        case(F, f"{mm}.row.col{shape}.s32.s8.u8.s32 {vec('%r', 8)}, {vec('%r', na, 20)}, {vec('%r', nb, 30)}, {vec('%r', 8, 40)}", V, T)
        na, nb = WMMA_A[(shape, ".bf16")]
        case(F, f"{mm}.row.col{shape}.f32.bf16.bf16.f32 {vec('%f', 8)}, {vec('%r', na, 20)}, {vec('%r', nb, 30)}, {vec('%f', 8, 40)}", V, T)
        case(F, f"{mm}.row.col{shape}.f32.bf16.bf16.f32 {vec('%f', 8)}, {vec('%r', na + 1, 20)}, {vec('%r', nb, 30)}, {vec('%f', 8, 40)}", V, T)
        case(F, f"{mm}.row.col{shape}.f16.f16 {vec('%r', 3)}, {vec('%r', 8)}, {vec('%r', 8, 8)}, {vec('%r', 4, 16)}", V, T)
        case(F, f"{mm}.row.col{shape}.f16.f16 {vec('%r', 4)}, {vec('%r', 8)}, {vec('%r', 8, 8)}", V, T)
    case(F, f"{mm}.row.col.m16n16k8.f32.tf32.tf32.f32 {vec('%f', 8)}, {vec('%r', 4, 20)}, {vec('%r', 4, 30)}, {vec('%f', 8, 40)}", V, T)
    case(F, f"{mm}.row.row.m16n16k8.f32.tf32.tf32.f32 {vec('%f', 8)}, {vec('%r', 4, 20)}, {vec('%r', 4, 30)}, {vec('%f', 8, 40)}", V, T)
    for rnd in ("", ".rn", ".rz", ".rm", ".rp", ".rni"):
        case(F, f"{mm}.row.col.m8n8k4{rnd}.f64.f64.f64.f64 {vec('%fd', 2)}, {{%fd2}}, {{%fd3}}, {vec('%fd', 2, 4)}", V, T)
    for la, lb in ((".row", ".col"), (".col", ".row"), (".row", ".row")):
        case(F, f"{mm}{la}{lb}.m8n8k32.s32.s4.s4.s32 {vec('%r', 2)}, {{%r2}}, {{%r3}}, {vec('%r', 2, 4)}", V, T)
        case(F, f"{mm}.xor.popc{la}{lb}.m8n8k128.s32.b1.b1.s32 {vec('%r', 2)}, {{%r2}}, {{%r3}}, {vec('%r', 2, 4)}", V, T)
    case(F, f"{mm}.row.col.m8n8k32.s32.u4.u4.s32.satfinite {vec('%r', 2)}, {{%r2}}, {{%r3}}, {vec('%r', 2, 4)}", V, T)
    case(F, f"{mm}.and.popc.row.col.m8n8k128.s32.b1.b1.s32 {vec('%r', 2)}, {{%r2}}, {{%r3}}, {vec('%r', 2, 4)}", V, T)
    case(F, f"{mm}.row.col.m8n8k128.s32.b1.b1.s32 {vec('%r', 2)}, {{%r2}}, {{%r3}}, {vec('%r', 2, 4)}", V, T)
    for v, t in (("6.0", "sm_75"), ("6.3", "sm_75"), ("6.4", "sm_75"), ("7.0", "sm_80"), ("6.9", "sm_80"),
                 ("7.0", "sm_75"), ("7.1", "sm_80"), ("6.5", "sm_75")):
        case(F, f"{mm}.row.col.m16n16k16.f32.f32 {vec('%f', 8)}, {vec('%r', 8)}, {vec('%r', 8, 8)}, {vec('%f', 8, 16)}", v, t)
        case(F, f"{mm}.row.col.m16n16k16.f32.bf16.bf16.f32 {vec('%f', 8)}, {vec('%r', 4, 20)}, {vec('%r', 4, 30)}, {vec('%f', 8, 40)}", v, t)
        case(F, f"{mm}.row.col.m16n16k8.f32.tf32.tf32.f32 {vec('%f', 8)}, {vec('%r', 4, 20)}, {vec('%r', 4, 30)}, {vec('%f', 8, 40)}", v, t)
        case(F, f"{mm}.row.col.m8n8k4.f64.f64.f64.f64 {vec('%fd', 2)}, {{%fd2}}, {{%fd3}}, {vec('%fd', 2, 4)}", v, t)
        case(F, f"{mm}.row.col.m16n16k16.s32.s8.s8.s32 {vec('%r', 8)}, {vec('%r', 2, 20)}, {vec('%r', 2, 30)}, {vec('%r', 8, 40)}", v, t)
        case(F, f"{mm}.row.col.m8n8k32.s32.s4.s4.s32 {vec('%r', 2)}, {{%r2}}, {{%r3}}, {vec('%r', 2, 4)}", v, t)
        case(F, f"{mm}.xor.popc.row.col.m8n8k128.s32.b1.b1.s32 {vec('%r', 2)}, {{%r2}}, {{%r3}}, {vec('%r', 2, 4)}", v, t)
        case(F, f"{mm}.and.popc.row.col.m8n8k128.s32.b1.b1.s32 {vec('%r', 2)}, {{%r2}}, {{%r3}}, {vec('%r', 2, 4)}", v, t)


# ---------------------------------------------------------------- mma (mma.sync, mma.sp)
# (shape, dtype, atype, btype, ctype, registers of a, b, d/c, layouts all?) per the Syntax block
# of spec/isa/mma.md and the fragment tables of 9.7.14.5.
def mma_forms():
    forms = []
    for d in (".f16", ".f32"):
        for c in (".f16", ".f32"):
            forms.append((".m8n8k4", d, ".f16", ".f16", c, 2, 2, True))
            forms.append((".m16n8k8", d, ".f16", ".f16", c, 2, 1, False))
            forms.append((".m16n8k16", d, ".f16", ".f16", c, 4, 2, False))
    forms += [(".m16n8k4", ".f32", ".tf32", ".tf32", ".f32", 2, 1, False),
              (".m16n8k8", ".f32", ".tf32", ".tf32", ".f32", 4, 2, False),
              (".m16n8k8", ".f32", ".bf16", ".bf16", ".f32", 2, 1, False),
              (".m16n8k16", ".f32", ".bf16", ".bf16", ".f32", 4, 2, False)]
    for a in (".e4m3", ".e5m2"):
        for b in (".e4m3", ".e5m2"):
            for d in (".f16", ".f32"):
                forms.append((".m16n8k16", d, a, b, d, 2, 1, False))
                forms.append((".m16n8k32", d, a, b, d, 4, 2, False))
    for shape, na, nb in ((".m8n8k4", 1, 1), (".m16n8k4", 2, 1), (".m16n8k8", 4, 2), (".m16n8k16", 8, 4)):
        forms.append((shape, ".f64", ".f64", ".f64", ".f64", na, nb, False))
    for a in (".s8", ".u8"):
        for b in (".s8", ".u8"):
            for shape, na, nb in ((".m8n8k16", 1, 1), (".m16n8k16", 2, 1), (".m16n8k32", 4, 2)):
                forms.append((shape, ".s32", a, b, ".s32", na, nb, False))
    for a in (".s4", ".u4"):
        for b in (".s4", ".u4"):
            for shape, na, nb in ((".m8n8k32", 1, 1), (".m16n8k32", 2, 1), (".m16n8k64", 4, 2)):
                forms.append((shape, ".s32", a, b, ".s32", na, nb, False))
    for shape, na, nb in ((".m8n8k128", 1, 1), (".m16n8k128", 2, 1), (".m16n8k256", 4, 2)):
        forms.append((shape, ".s32", ".b1", ".b1", ".s32", na, nb, False))
    return forms


MMA_SHAPES = (".m8n8k4", ".m8n8k16", ".m8n8k32", ".m8n8k128", ".m16n8k4", ".m16n8k8", ".m16n8k16", ".m16n8k32",
              ".m16n8k64", ".m16n8k128", ".m16n8k256", ".m16n16k16", ".m16n8k17", ".m8n8k8")
MMA_SWEEP = (("6.4", "sm_70"), ("6.4", "sm_75"), ("6.5", "sm_75"), ("6.5", "sm_80"), ("7.0", "sm_80"),
             ("7.0", "sm_75"), ("7.1", "sm_80"), ("7.7", "sm_90"), ("7.8", "sm_90"), ("7.8", "sm_89"),
             ("8.3", "sm_89"), ("8.4", "sm_89"), ("8.4", "sm_86"), ("8.6", "sm_89"), ("8.7", "sm_89"),
             ("8.7", "sm_90a"), ("8.6", "sm_120a"), ("8.7", "sm_120a"), ("8.7", "sm_120"), ("8.7", "sm_100a"),
             ("8.8", "sm_120f"), ("8.8", "sm_121a"), ("9.0", "sm_100a"), ("9.0", "sm_103a"))


# Registers of every type a fragment might be given (ptxas takes some other than the spec's).
MMA_REGISTERS = (".reg .b32 %xb<9>; .reg .u32 %xu<9>; .reg .s32 %xs<9>; .reg .f32 %xf<9>; .reg .f16x2 %xh<9>; "
                 ".reg .b64 %xl<9>; .reg .u64 %xv<9>; .reg .f64 %xd<9>; .reg .b16 %xw<9>;\n")
MMA_REGISTER_CLASSES = ("%xb", "%xu", "%xs", "%xf", "%xh", "%xl", "%xv", "%xd", "%xw")


def mma_regs(t, n, start=0):
    """A fragment of n registers for elements of type t (d and c: .f32/.f64 registers, else .b32)."""
    return vec("%fd" if t == ".f64" else "%f" if t == ".f32" else "%r", n, start)


def mma_cd(t, shape):
    if t == ".f64":
        return 2 if shape == ".m8n8k4" else 4
    if shape == ".m8n8k4":
        return 4 if t == ".f16" else 8
    if t == ".s32":
        return 2 if shape.startswith(".m8n8") else 4
    return 2 if t == ".f16" else 4


def mcase(family, instr, version, target):
    case(family, instr, version, target, unique=True)


def mma():
    F = "mma"
    V, T = "8.7", "sm_90a"
    head = "mma.sync.aligned"
    for shape, dt, at, bt, ct, na, nb, all_layouts in mma_forms():
        nd, nc = mma_cd(dt, shape), mma_cd(ct, shape)
        a = mma_regs(at, na, 20) if at == ".f64" else vec("%r", na, 20)
        b = mma_regs(bt, nb, 0) if bt == ".f64" else vec("%r", nb, 30)
        d = mma_regs(dt, nd)
        c = mma_regs(ct, nc, 4 if dt == ".f64" else 40)
        if at == ".f64":
            a, b = vec("%fd", na, 0), vec("%fd", nb, 0)
            c = vec("%fd", nc, 4)
        bit = ".xor.popc" if at == ".b1" else ""
        types = f"{dt}{at}{bt}{ct}"
        q = f"{head}{shape}.row.col{types}{bit}"
        ops = f"{d}, {a}, {b}, {c}"
        mcase(F, f"{q} {ops}", V, T)
        first = (at, bt, dt, ct) in ((".f16", ".f16", ".f32", ".f32"), (".e4m3", ".e4m3", ".f32", ".f32")) or \
            at in (".tf32", ".bf16", ".f64", ".b1") or (at, bt) in ((".s8", ".s8"), (".s4", ".s4"), (".u8", ".s8"))
        if first or dt != ct:
            for v, t in MMA_SWEEP:
                mcase(F, f"{q} {ops}", v, t)
        # layouts
        for la, lb in ((".row", ".row"), (".col", ".col"), (".col", ".row")):
            mcase(F, f"{head}{shape}{la}{lb}{types}{bit} {ops}", V, T)
            if all_layouts and first:
                mcase(F, f"{head}{shape}{la}{lb}{types}{bit} {ops}", "6.4", "sm_70")
        mcase(F, f"{head}{shape}.row{types}{bit} {ops}", V, T)
        mcase(F, f"{head}{shape}{types}{bit} {ops}", V, T)
        mcase(F, f"{head}.col.row{shape}{types}{bit} {ops}", V, T)
        # fragment lengths and register types
        regs = {"d": d, "a": a, "b": b, "c": c}
        counts = {"d": nd, "a": na, "b": nb, "c": nc}
        ttypes = {"d": dt, "a": at, "b": bt, "c": ct}
        for k in regs:
            for n in (counts[k] - 1, counts[k] + 1, counts[k] * 2):
                if n < 1 or n > 8 and ttypes[k] == ".f64":
                    continue
                r = dict(regs)
                r[k] = mma_regs(ttypes[k] if k in "dc" or at == ".f64" else ".b32", n, 0 if k == "d" or at == ".f64" else 50)
                mcase(F, f"{q} {r['d']}, {r['a']}, {r['b']}, {r['c']}", V, T)
            if k in "ab" and not first:
                continue
            for pre in MMA_REGISTER_CLASSES:
                r = dict(regs)
                r[k] = vec(pre, counts[k])
                if r[k] != regs[k]:
                    mcase(F, MMA_REGISTERS + f"{q} {r['d']}, {r['a']}, {r['b']}, {r['c']}", V, T)
            r = dict(regs)
            r[k] = regs[k][1:-1].split(",")[0]
            mcase(F, f"{q} {r['d']}, {r['a']}, {r['b']}, {r['c']}", V, T)
        if not first:
            continue
        # qualifier mutations
        mcase(F, f"{q}.satfinite {ops}", V, T)
        mcase(F, f"{head}{shape}.row.col.satfinite{types}{bit} {ops}", V, T)
        mcase(F, f"mma.sync{shape}.row.col{types}{bit} {ops}", V, T)
        mcase(F, f"mma.aligned{shape}.row.col{types}{bit} {ops}", V, T)
        mcase(F, f"mma{shape}.row.col{types}{bit} {ops}", V, T)
        mcase(F, f"{head}{shape}.row.col.rn{types}{bit} {ops}", V, T)
        mcase(F, f"{head}{shape}.row.col{dt}{at}{bt}{bit} {d}, {a}, {b}, {c}", V, T)
        mcase(F, f"{head}{shape}.row.col{at}{bt}{ct}{bit} {d}, {a}, {b}, {c}", V, T)
        mcase(F, f"{head}{shape}.row.col{dt}{at}{ct}{bit} {d}, {a}, {b}, {c}", V, T)
        if at == ".b1":
            for op in (".and.popc", ".xor", ".and", ".popc", ".or.popc", ".popc.xor", ""):
                mcase(F, f"{head}{shape}.row.col{types}{op} {ops}", V, T)
            for v, t in (("7.0", "sm_80"), ("7.1", "sm_80"), ("7.1", "sm_75"), ("6.5", "sm_75"), ("8.7", "sm_120a")):
                mcase(F, f"{head}{shape}.row.col{types}.and.popc {ops}", v, t)
            mcase(F, f"{head}{shape}.row.col.satfinite{types}.xor.popc {ops}", V, T)
        else:
            mcase(F, f"{head}{shape}.row.col{types}.xor.popc {ops}", V, T)
        # every shape for these types
        for s in MMA_SHAPES:
            if s != shape:
                mcase(F, f"{head}{s}.row.col{types}{bit} {ops}", V, T)
        # other accumulator types
        for dd in (".f16", ".f32", ".s32", ".f64", ".bf16"):
            for cc in (dd, ct):
                if (dd, cc) != (dt, ct):
                    dreg = mma_regs(dd, mma_cd(dd, shape))
                    creg = mma_regs(cc, mma_cd(cc, shape), 4 if cc == ".f64" else 40)
                    mcase(F, f"{head}{shape}.row.col{dd}{at}{bt}{cc}{bit} {dreg}, {a}, {b}, {creg}", V, T)
        mcase(F, f"{q} {d}, {a}, {b}", V, T)
        mcase(F, f"{q} {d}, {a}, {b}, {c}, {c}", V, T)
        mcase(F, f"{q} {d}, {a}, {b}, 0", V, T)
    # mixed input types
    for at, bt in ((".f16", ".bf16"), (".bf16", ".f16"), (".bf16", ".tf32"), (".tf32", ".bf16"), (".f16", ".e4m3"),
                   (".s8", ".s4"), (".u4", ".u8"), (".e4m3", ".s8")):
        for shape, na, nb in ((".m16n8k16", 4, 2), (".m16n8k8", 2, 1), (".m16n8k32", 4, 2)):
            mcase(F, f"{head}{shape}.row.col.f32{at}{bt}.f32 {vec('%f', 4)}, {vec('%r', na, 20)}, {vec('%r', nb, 30)}, "
                    f"{vec('%f', 4, 40)}", V, T)
    # .kind::f8f6f4 (sm_120a)
    f6 = (".e4m3", ".e5m2", ".e3m2", ".e2m3", ".e2m1")
    for at in f6:
        for bt in f6:
            for dt in (".f16", ".f32"):
                d = mma_regs(dt, 2 if dt == ".f16" else 4)
                c = mma_regs(dt, 2 if dt == ".f16" else 4, 40)
                q = f"{head}.m16n8k32.row.col.kind::f8f6f4{dt}{at}{bt}{dt}"
                mcase(F, f"{q} {d}, {vec('%r', 4, 20)}, {vec('%r', 2, 30)}, {c}", "8.7", "sm_120a")
                if at == bt == ".e2m1" or at == bt == ".e4m3":
                    for v, t in MMA_SWEEP:
                        mcase(F, f"{q} {d}, {vec('%r', 4, 20)}, {vec('%r', 2, 30)}, {c}", v, t)
    kq = f"{head}.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32"
    kops = f"{vec('%f', 4)}, {vec('%r', 4, 20)}, {vec('%r', 2, 30)}, {vec('%f', 4, 40)}"
    for bad in (".m16n8k16.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32", ".m16n8k64.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32",
                ".m16n8k32.row.col.kind::f8f6f4.f32.f16.f16.f32", ".m16n8k32.row.col.kind::f8f6f4.f16.e2m1.e2m1.f32",
                ".m16n8k32.row.col.kind::f8f6f4.satfinite.f32.e4m3.e4m3.f32", ".m16n8k32.col.row.kind::f8f6f4.f32.e4m3.e4m3.f32",
                ".m16n8k32.row.col.kind::f16.f32.e4m3.e4m3.f32", ".m16n8k32.row.col.kind::mxf4.f32.e4m3.e4m3.f32",
                ".m16n8k32.row.col.f32.e2m1.e2m1.f32", ".m16n8k32.row.col.kind::f8f6f4.kind::f8f6f4.f32.e4m3.e4m3.f32"):
        mcase(F, f"{head}{bad} {kops}", "8.7", "sm_120a")
    mcase(F, f"{kq} {vec('%f', 4)}, {vec('%r', 2, 20)}, {vec('%r', 2, 30)}, {vec('%f', 4, 40)}", "8.7", "sm_120a")
    mcase(F, f"{kq} {vec('%f', 4)}, {vec('%r', 4, 20)}, {vec('%r', 1, 30)}, {vec('%f', 4, 40)}", "8.7", "sm_120a")
    mcase(F, f"{kq} {vec('%r', 4)}, {vec('%r', 4, 20)}, {vec('%r', 2, 30)}, {vec('%f', 4, 40)}", "8.7", "sm_120a")
    # block scaling (sm_120a)
    sel = ("{0, 0}", "{%h1, %h2}", "{1, 3}", "{4, 0}", "{0, 4}", "{%r1, %r2}", "{0}", "0")
    bs = [(".kind::mxf4", ".m16n8k64", (".e2m1",), ("", ".scale_vec::2X"), (".ue8m0",), 4, 2),
          (".kind::mxf4nvf4", ".m16n8k64", (".e2m1",), (".scale_vec::2X", ".scale_vec::4X"), (".ue8m0", ".ue4m3"), 4, 2),
          (".kind::mxf8f6f4", ".m16n8k32", f6, ("", ".scale_vec::1X"), (".ue8m0",), 4, 2)]
    for kind, shape, ts, vecs, stypes, na, nb in bs:
        base_ops = f"{vec('%f', 4)}, {vec('%r', na, 20)}, {vec('%r', nb, 30)}, {vec('%f', 4, 40)}"
        for at in ts:
            for bt in (ts if len(ts) == 1 else (".e4m3", ".e2m1")):
                for sv in vecs:
                    for st in stypes:
                        q = f"{head}{shape}.row.col{kind}.block_scale{sv}.f32{at}{bt}.f32{st}"
                        mcase(F, f"{q} {base_ops}, %r10, {{0, 0}}, %r11, {{0, 0}}", "8.7", "sm_120a")
                        if at == bt:
                            for v, t in MMA_SWEEP:
                                mcase(F, f"{q} {base_ops}, %r10, {{0, 0}}, %r11, {{0, 0}}", v, t)
        q = f"{head}{shape}.row.col{kind}.block_scale{vecs[-1]}.f32{ts[0]}{ts[0]}.f32{stypes[0]}"
        for s in sel:
            mcase(F, f"{q} {base_ops}, %r10, {s}, %r11, {{0, 0}}", "8.7", "sm_120a")
            mcase(F, f"{q} {base_ops}, %r10, {{0, 0}}, %r11, {s}", "8.7", "sm_120a")
        # the selectors' constants per scale vector size
        for sv, st in ((vecs[0], stypes[0]), (vecs[-1], stypes[-1])):
            q2 = f"{head}{shape}.row.col{kind}.block_scale{sv}.f32{ts[0]}{ts[0]}.f32{st}"
            for s in ("{0, 0}", "{1, 0}", "{2, 0}", "{3, 0}", "{0, 1}", "{0, 2}", "{0, 3}", "{2, 1}", "{-1, 0}"):
                mcase(F, f"{q2} {base_ops}, %r10, {s}, %r11, {{0, 0}}", "8.7", "sm_120a")
                mcase(F, f"{q2} {base_ops}, %r10, {{0, 0}}, %r11, {s}", "8.7", "sm_120a")
        for sv in (".scale_vec::1X", ".scale_vec::2X", ".scale_vec::4X", ""):
            for st in (".ue8m0", ".ue4m3", ""):
                mcase(F, f"{head}{shape}.row.col{kind}.block_scale{sv}.f32{ts[0]}{ts[0]}.f32{st} {base_ops}, "
                        f"%r10, {{0, 0}}, %r11, {{0, 0}}", "8.7", "sm_120a")
        mcase(F, f"{q} {base_ops}, %rd1, {{0, 0}}, %r11, {{0, 0}}", "8.7", "sm_120a")
        mcase(F, f"{q} {base_ops}, %f1, {{0, 0}}, %r11, {{0, 0}}", "8.7", "sm_120a")
        mcase(F, f"{q} {base_ops}, 5, {{0, 0}}, %r11, {{0, 0}}", "8.7", "sm_120a")
        mcase(F, f"{q} {base_ops}, %r10, {{0, 0}}, %r11", "8.7", "sm_120a")
        mcase(F, f"{q} {base_ops}", "8.7", "sm_120a")
        mcase(F, f"{head}{shape}.row.col{kind}{vecs[-1]}.f32{ts[0]}{ts[0]}.f32{stypes[0]} {base_ops}, "
                f"%r10, {{0, 0}}, %r11, {{0, 0}}", "8.7", "sm_120a")
        mcase(F, f"{head}{shape}.row.col{kind}.block_scale{vecs[-1]}.f16{ts[0]}{ts[0]}.f16{stypes[0]} "
                f"{vec('%r', 2)}, {vec('%r', na, 20)}, {vec('%r', nb, 30)}, {vec('%r', 2, 40)}, "
                f"%r10, {{0, 0}}, %r11, {{0, 0}}", "8.7", "sm_120a")
        mcase(F, f"{head}{shape}.row.col.block_scale{vecs[-1]}.f32{ts[0]}{ts[0]}.f32{stypes[0]} {base_ops}, "
                f"%r10, {{0, 0}}, %r11, {{0, 0}}", "8.7", "sm_120a")
    # what ptxas takes beyond the Syntax block: bit operations on sub-byte integers, rounding on
    # .f64, the block-scaling kinds without .block_scale on 8-bit inputs
    for op in (".xor", ".and", ".popc", ".xor.popc", ".and.popc", ".popc.and", ".or.popc"):
        for shape, n in ((".m8n8k32", (2, 1, 1, 2)), (".m16n8k64", (4, 4, 2, 4))):
            for t in (".s32.u4.s4.s32", ".s32.s8.s8.s32"):
                mcase(F, f"{head}{shape}.row.col{t}{op} {vec('%r', n[0])}, {vec('%r', n[1], 20)}, {vec('%r', n[2], 30)}, "
                         f"{vec('%r', n[3], 40)}", V, T)
    for rnd in (".rn", ".rz", ".rm", ".rp", ".rni", ".rna", ".sat"):
        mcase(F, f"{head}.m16n8k8.row.col{rnd}.f64.f64.f64.f64 {vec('%fd', 4)}, {vec('%fd', 4)}, {vec('%fd', 2)}, "
                 f"{vec('%fd', 4, 4)}", V, T)
        mcase(F, f"{head}.m16n8k8.row.col{rnd}.f32.f16.f16.f32 {vec('%f', 4)}, {vec('%r', 2)}, {vec('%r', 1)}, "
                 f"{vec('%f', 4, 4)}", V, T)
    for v, t in (("7.0", "sm_80"), ("7.8", "sm_90")):
        mcase(F, f"{head}.m8n8k4.row.col.rn.f64.f64.f64.f64 {vec('%fd', 2)}, {{%fd2}}, {{%fd3}}, {vec('%fd', 2, 4)}", v, t)
    for kind in (".kind::mxf4", ".kind::mxf8f6f4", ".kind::mxf4nvf4", ".kind::f16", ".kind::i8"):
        for at in (".e4m3", ".e2m1"):
            q = f"{head}.m16n8k32.row.col{kind}.f32{at}{at}.f32 {vec('%f', 4)}, {vec('%r', 4, 20)}, {vec('%r', 2, 30)}, {vec('%f', 4, 40)}"
            for v, t in (("8.7", "sm_120a"), ("8.7", "sm_100a"), ("8.6", "sm_100a"), ("8.8", "sm_120f"), ("8.7", "sm_90a"),
                         ("8.8", "sm_103a"), ("9.0", "sm_110a")):
                mcase(F, q, v, t)
    for v, t in (("8.8", "sm_100f"), ("9.0", "sm_110f"), ("8.8", "sm_121f"), ("8.8", "sm_103f"), ("8.6", "sm_100a")):
        mcase(F, f"{head}.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32 {vec('%f', 4)}, {vec('%r', 4, 20)}, "
                 f"{vec('%r', 2, 30)}, {vec('%f', 4, 40)}", v, t)
        mcase(F, f"{head}.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32 {vec('%f', 4)}, {vec('%r', 4, 20)}, "
                 f"{vec('%r', 2, 30)}, {vec('%f', 4, 40)}", v, t)
        mcase(F, f"{head}.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0 {vec('%f', 4)}, "
                 f"{vec('%r', 4, 20)}, {vec('%r', 2, 30)}, {vec('%f', 4, 40)}, %r10, {{0, 0}}, %r11, {{0, 0}}", v, t)


# ---------------------------------------------------------------- mma.sp (sparse A)
# (shape, dtype, atype, btype, ctype, registers of a and b) per the Syntax block of mma.sp
# (PTX ISA 9.7.14.6): A holds half of its K elements, so its fragment is as large as B's.
def mma_sp_forms():
    forms = []
    for d in (".f16", ".f32"):
        for c in (".f16", ".f32"):
            forms += [(".m16n8k16", d, ".f16", ".f16", c, 2, 2), (".m16n8k32", d, ".f16", ".f16", c, 4, 4)]
    forms += [(".m16n8k16", ".f32", ".bf16", ".bf16", ".f32", 2, 2), (".m16n8k32", ".f32", ".bf16", ".bf16", ".f32", 4, 4),
              (".m16n8k8", ".f32", ".tf32", ".tf32", ".f32", 2, 2), (".m16n8k16", ".f32", ".tf32", ".tf32", ".f32", 4, 4)]
    for a, b in ((".s8", ".s8"), (".u8", ".s8")):
        forms += [(".m16n8k32", ".s32", a, b, ".s32", 2, 2), (".m16n8k64", ".s32", a, b, ".s32", 4, 4)]
    for a, b in ((".s4", ".s4"), (".s4", ".u4")):
        forms += [(".m16n8k64", ".s32", a, b, ".s32", 2, 2), (".m16n8k128", ".s32", a, b, ".s32", 4, 4)]
    for a, b in ((".e4m3", ".e4m3"), (".e5m2", ".e4m3")):
        for d in (".f16", ".f32"):
            forms.append((".m16n8k64", d, a, b, d, 4, 4))
    return forms


MMA_SP_SWEEP = (("7.0", "sm_80"), ("7.1", "sm_80"), ("7.1", "sm_75"), ("8.4", "sm_89"), ("8.4", "sm_90"), ("8.5", "sm_80"),
                ("8.5", "sm_89"), ("8.5", "sm_86"), ("8.7", "sm_90a"), ("8.7", "sm_120a"), ("8.6", "sm_100a"),
                ("8.8", "sm_120f"), ("9.0", "sm_103a"))


def mma_sp():
    F = "mma-sp"
    V, T = "8.7", "sm_90a"

    def c_(instr, v=V, t=T):
        case(F, instr, v, t, unique=True)
    for shape, dt, at, bt, ct, na, nb in mma_sp_forms():
        nd, nc = mma_cd(dt, shape), mma_cd(ct, shape)
        d, c = mma_regs(dt, nd), mma_regs(ct, nc, 40)
        a, b = vec("%r", na, 20), vec("%r", nb, 30)
        types = f"{dt}{at}{bt}{ct}"
        ops = f"{d}, {a}, {b}, {c}, %r9"
        first = dt == ct and (at == bt or at == ".u8")
        for sp in ("mma.sp::ordered_metadata", "mma.sp"):
            q = f"{sp}.sync.aligned{shape}.row.col{types}"
            for f in ("0", "1", "2", "3", "4", "%r8"):
                c_(f"{q} {ops}, {f}")
            if first:
                for v, t in MMA_SP_SWEEP:
                    c_(f"{q} {ops}, 0", v, t)
        q = f"mma.sp::ordered_metadata.sync.aligned{shape}.row.col{types}"
        if not first:
            continue
        c_(f"mma.sync.aligned.sp::ordered_metadata{shape}.row.col{types} {ops}, 0")
        c_(f"mma.sync.aligned.sp{shape}.row.col{types} {ops}, 0")
        c_(f"{q}.satfinite {ops}, 0")
        c_(f"mma.sp::ordered_metadata.sync.aligned{shape}.col.row{types} {ops}, 0")
        c_(f"{q} {ops}")
        c_(f"{q} {d}, {a}, {b}, {c}, 0, 0")
        c_(f"{q} {d}, {a}, {b}, {c}, %rd1, 0")
        c_(f"{q} {d}, {a}, {b}, {c}, %f1, 0")
        c_(f"{q} {d}, {a}, {b}, {c}, %h1, 0")
        for s in MMA_SHAPES:
            if s != shape:
                c_(f"mma.sp::ordered_metadata.sync.aligned{s}.row.col{types} {ops}, 0")
        regs = {"d": d, "a": a, "b": b, "c": c}
        counts = {"d": nd, "a": na, "b": nb, "c": nc}
        ttypes = {"d": dt, "a": at, "b": bt, "c": ct}
        for k in regs:
            for n in (counts[k] - 1, counts[k] + 1, counts[k] * 2):
                if n < 1:
                    continue
                r = dict(regs)
                r[k] = mma_regs(ttypes[k] if k in "dc" else ".b32", n, 0 if k == "d" else 50)
                c_(f"{q} {r['d']}, {r['a']}, {r['b']}, {r['c']}, %r9, 0")
            for pre in MMA_REGISTER_CLASSES:
                r = dict(regs)
                r[k] = vec(pre, counts[k])
                c_(MMA_REGISTERS + f"{q} {r['d']}, {r['a']}, {r['b']}, {r['c']}, %r9, 0")
    # .kind::f8f6f4 (sm_120a)
    for at, bt in ((".e4m3", ".e4m3"), (".e2m1", ".e2m1"), (".e3m2", ".e2m3")):
        for dt in (".f16", ".f32"):
            d, c = mma_regs(dt, mma_cd(dt, ".m16n8k64")), mma_regs(dt, mma_cd(dt, ".m16n8k64"), 40)
            q = f"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4{dt}{at}{bt}{dt}"
            for f in ("0", "1"):
                for v, t in (("8.7", "sm_120a"), ("8.7", "sm_90a"), ("8.7", "sm_100a"), ("8.6", "sm_120a"), ("8.8", "sm_120f")):
                    c_(f"{q} {d}, {vec('%r', 4, 20)}, {vec('%r', 4, 30)}, {c}, %r9, {f}", v, t)
            c_(f"{q.replace('.sp::ordered_metadata', '.sp')} {d}, {vec('%r', 4, 20)}, {vec('%r', 4, 30)}, {c}, %r9, 0",
               "8.7", "sm_120a")
            c_(f"{q} {d}, {vec('%r', 4, 20)}, {vec('%r', 4, 30)}, {c}, %f9, 0", "8.7", "sm_120a")
            c_(f"{q} {d}, {vec('%f', 4, 20)}, {vec('%r', 4, 30)}, {c}, %r9, 0", "8.7", "sm_120a")
            c_(f"{q} {vec('%f', 4) if dt == '.f16' else vec('%r', 2)}, {vec('%r', 4, 20)}, {vec('%r', 4, 30)}, {c}, %r9, 0",
               "8.7", "sm_120a")

# ---------------------------------------------------------------- ldmatrix / stmatrix / movmatrix
MATRIX_MOVE_SWEEP = (("6.4", "sm_75"), ("6.5", "sm_75"), ("6.5", "sm_70"), ("7.7", "sm_80"), ("7.8", "sm_80"), ("7.8", "sm_75"),
                     ("7.8", "sm_89"), ("7.8", "sm_90"), ("8.0", "sm_90a"), ("8.6", "sm_90a"), ("8.6", "sm_100a"),
                     ("8.6", "sm_100"), ("8.7", "sm_120a"), ("8.7", "sm_120"), ("8.8", "sm_100f"), ("8.8", "sm_103a"),
                     ("8.8", "sm_120f"), ("9.0", "sm_110a"))


def matrix_move():
    F = "matrix-move"
    V, T = "8.7", "sm_120a"

    def c_(instr, v=V, t=T):
        case(F, instr, v, t, unique=True)
    ld = "ldmatrix.sync.aligned"
    st = "stmatrix.sync.aligned"
    # (opcode, shape, qualifiers between num and type, type, registers per .x1)
    forms = [(ld, ".m8n8", "", ".b16", 1), (ld, ".m8n8", ".trans", ".b16", 1), (ld, ".m8n8", "", ".b8", 1),
             (ld, ".m16n16", ".trans", ".b8", 2), (ld, ".m16n16", "", ".b8", 2),
             (ld, ".m16n16", ".trans", ".b8x16.b6x16_p32", 2), (ld, ".m16n16", ".trans", ".b8x16.b4x16_p64", 2),
             (ld, ".m8n16", "", ".b8x16.b6x16_p32", 1), (ld, ".m8n16", "", ".b8x16.b4x16_p64", 1),
             (ld, ".m8n16", ".trans", ".b8x16.b6x16_p32", 1), (ld, ".m16n16", ".trans", ".b16", 2),
             (st, ".m8n8", "", ".b16", 1), (st, ".m8n8", ".trans", ".b16", 1), (st, ".m16n8", ".trans", ".b8", 1),
             (st, ".m16n8", "", ".b8", 1), (st, ".m8n8", "", ".b8", 1), (st, ".m16n8", ".trans", ".b16", 1)]
    for op, shape, mid, ty, per in forms:
        for num, mult in ((".x1", 1), (".x2", 2), (".x4", 4)):
            n = per * mult
            for ss in ("", ".shared", ".shared::cta"):
                q = f"{op}{shape}{num}{mid}{ss}{ty}"
                ops = (f"{vec('%r', n)}, [%rd1]" if op == ld else f"[%rd1], {vec('%r', n)}")
                c_(f"{q} {ops}")
                if ss == ".shared" and num == ".x2":
                    for v, t in MATRIX_MOVE_SWEEP:
                        c_(f"{q} {ops}", v, t)
            q = f"{op}{shape}{num}{mid}.shared{ty}"
            if num != ".x2":
                continue
            for k in (n - 1, n + 1):
                if k >= 1:
                    c_(f"{q} {vec('%r', k)}, [%rd1]" if op == ld else f"{q} [%rd1], {vec('%r', k)}")
            for pre in MMA_REGISTER_CLASSES:
                c_(MMA_REGISTERS + (f"{q} {vec(pre, n)}, [%rd1]" if op == ld else f"{q} [%rd1], {vec(pre, n)}"))
            for addr in ("[%b1]", "[smem]", "[smem+16]", "[%rd1+32]", "[gmem]", "%rd1"):
                c_(f"{q} {vec('%r', n)}, {addr}" if op == ld else f"{q} {addr}, {vec('%r', n)}")
            for sp in (".global", ".local", ".shared::cluster", ".const"):
                q2 = f"{op}{shape}{num}{mid}{sp}{ty}"
                c_(f"{q2} {vec('%r', n)}, [%rd1]" if op == ld else f"{q2} [%rd1], {vec('%r', n)}")
            base = f"{vec('%r', n)}, [%rd1]" if op == ld else f"[%rd1], {vec('%r', n)}"
            c_(f"{op.replace('.sync.aligned', '.sync')}{shape}{num}{mid}.shared{ty} {base}")
            c_(f"{op.replace('.sync.aligned', '.aligned')}{shape}{num}{mid}.shared{ty} {base}")
            c_(f"{op.replace('.sync.aligned', '')}{shape}{num}{mid}.shared{ty} {base}")
            c_(f"{op}{num}{mid}.shared{ty} {base}")
            c_(f"{op}{shape}{mid}.shared{ty} {base}")
            c_(f"{op}{shape}.x8{mid}.shared{ty} {vec('%r', 8)}, [%rd1]" if op == ld else
               f"{op}{shape}.x8{mid}.shared{ty} [%rd1], {vec('%r', 8)}")
            c_(f"{op}{shape}.x3{mid}.shared{ty} {base}")
            c_(f"{op}{shape}{num}{mid}.shared {base}")
            c_(f"{op}{shape}{num}{mid}.shared.b32 {base}")
            c_(f"{op}{shape}{num}{mid}.shared{ty} %r1, [%rd1]" if op == ld else f"{q} [%rd1], %r1")
            c_(f"{op}{shape}{num}{mid}.shared{ty} [%rd1], {vec('%r', n)}" if op == ld else
               f"{q} {vec('%r', n)}, [%rd1]")
    for v, t in MATRIX_MOVE_SWEEP:
        c_("ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {%r1}, [%rd1]", v, t)
        c_("stmatrix.sync.aligned.m8n8.x1.shared::cta.b16 [%rd1], {%r1}", v, t)
    for addr in ("[gmem]", "[smem]", "[%b1]", "[%rd1]"):
        c_(f"ldmatrix.sync.aligned.m8n8.x1.b16 {{%r1}}, {addr}")
        c_(f"stmatrix.sync.aligned.m8n8.x1.b16 {addr}, {{%r1}}")
    # movmatrix
    mm = "movmatrix.sync.aligned"
    for q in (f"{mm}.m8n8.trans.b16", f"{mm}.m8n8.b16", f"{mm}.m16n16.trans.b16", f"{mm}.m8n8.trans.b8",
              "movmatrix.sync.m8n8.trans.b16", "movmatrix.aligned.m8n8.trans.b16", f"{mm}.m8n8.trans.b32"):
        c_(f"{q} %r1, %r2")
    q = f"{mm}.m8n8.trans.b16"
    for v, t in MATRIX_MOVE_SWEEP:
        c_(f"{q} %r1, %r2", v, t)
    for ops in ("{%r1}, {%r2}", "%r1, 1", "%r1", "%r1, %r2, %r3", "%rd1, %r2", "%r1, %rd1", "%f1, %r2", "%r1, %f2",
                "%h1, %r2", "%u1, %s2", "%r1, [%rd1]"):
        c_(f"{q} {ops}")
    for pre in ("%xb", "%xu", "%xs", "%xf", "%xh"):
        c_(MMA_REGISTERS + f"{q} {pre}1, {pre}2")

# ---------------------------------------------------------------- call
CALLEES = (
    ".func f0() { ret; }\n"
    ".func (.param .b32 r) f1(.param .b32 a, .param .b64 b) { st.param.b32 [r], 0; ret; }\n"
    ".func (.param .f32 r) ff(.param .f32 a) { st.param.f32 [r], 0f00000000; ret; }\n"
    ".func fa(.param .align 8 .b8 s[16]) { ret; }\n"
    ".func (.reg .b32 r) fr(.reg .b32 a) { mov.b32 r, a; ret; }\n"
    ".extern .func (.param .b32 r) ext(.param .b32 a);\n")


def call():
    F = "call"
    D = CALLEES
    P = (".param .b32 pa; .param .b64 pb; .param .b32 pr; .param .f32 pf; .param .align 8 .b8 ps[16]; "
         ".param .b16 ph; .param .b64 pr64; .param .align 8 .b8 ps8[8];\n")
    calls = ["call f0", "call.uni f0", "call f0, ()", "call (), f0", "call f0, (pa)", "call (pr), f0",
             "call (pr), f1, (pa, pb)", "call.uni (pr), f1, (pa, pb)", "call f1, (pa, pb)", "call (pr), f1, (pa)",
             "call (pr), f1, (pa, pb, pa)", "call (pr), f1, (pb, pa)", "call (pr64), f1, (pa, pb)",
             "call (pr), f1, (pa, pa)", "call (pr), f1, (ph, pb)", "call (pr), f1, (pf, pb)",
             "call (pr, pr), f1, (pa, pb)", "call (pr), f1", "call (pr), f1, ()", "call (pr), f1, (%b1, %rd1)",
             "call (%b1), f1, (%b1, %rd1)", "call (%b1), f1, (pa, pb)", "call (pr), f1, (%rd1, %b1)",
             "call (pr), f1, (1, 2)", "call (pr), f1, (%f1, %rd1)", "call (pr), f1, (%h1, %rd1)",
             "call (pf), ff, (pf)", "call (pr), ff, (pf)", "call (pf), ff, (pa)", "call (pf), ff, (%f1)",
             "call (pf), ff, (%b1)", "call (pf), ff, (pb)", "call (%f1), ff, (%f1)",
             "call fa, (ps)", "call fa, (ps8)", "call fa, (pb)", "call fa, (pa)", "call fa, (%rd1)",
             "call (%b1), fr, (%b1)", "call (pr), fr, (pa)", "call (%rd1), fr, (%b1)", "call (%b1), fr, (%rd1)",
             "call fr, (%b1)", "call (%b1), fr", "call (pr), ext, (pa)", "call (pr), ext, (pa, pa)",
             "call ext, (pa)", "call (pr), nosuch, (pa)", "call (pr), L1, (pa)", "call (pr), pa, (pa)",
             "call f0, f0", "call (pr), f1, pa, pb", "call.sync f0", "call.uni.uni f0", "call f0, (pa), (pb)"]
    for c in calls:
        case(F, P + c, "8.0", "sm_90", D)
    # indirect calls: through a register with a .callprototype, or .calltargets
    protos = {
        "proto1": "proto1: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b64 _);",
        "proto0": "proto0: .callprototype _ ();",
        "protof": "protof: .callprototype (.param .f32 _) _ (.param .f32 _);",
        "protor": "protor: .callprototype (.reg .b32 _) _ (.reg .b32 _);",
    }
    ind = [("proto1", "call (pr), %rd1, (pa, pb), proto1"), ("proto1", "call (pr), %rd1, (pa), proto1"),
           ("proto1", "call (pr), %rd1, (pb, pa), proto1"), ("proto1", "call %rd1, (pa, pb), proto1"),
           ("proto1", "call (pr64), %rd1, (pa, pb), proto1"), ("proto1", "call (pr), %rd1, (pa, pb)"),
           ("proto1", "call (pr), %b1, (pa, pb), proto1"), ("proto1", "call (pr), %rd1, (pa, pb), nosuch"),
           ("proto1", "call (pr), %rd1, (pa, pb), f1"), ("proto1", "call (pr), proto1, (pa, pb)"),
           ("proto1", "call (pr), %rd1, (pa, pb, pa), proto1"), ("proto1", "call (pr), %rd1, (%b1, %rd1), proto1"),
           ("proto0", "call %rd1, proto0"), ("proto0", "call %rd1, (), proto0"), ("proto0", "call %rd1, (pa), proto0"),
           ("proto0", "call (pr), %rd1, proto0"), ("proto0", "call.uni %rd1, proto0"),
           ("protof", "call (pf), %rd1, (pf), protof"), ("protof", "call (pr), %rd1, (pa), protof"),
           ("protof", "call (pf), %rd1, (pa), protof"), ("protor", "call (%b1), %rd1, (%b1), protor"),
           ("protor", "call (pr), %rd1, (pa), protor"), ("protor", "call (%rd1), %rd1, (%b1), protor")]
    for name, c in ind:
        case(F, P + protos[name] + "\n" + c, "8.0", "sm_90", D)
    for tgt in ("Ftgt: .calltargets f1;", "Ftgt: .calltargets f1, ff;", "Ftgt: .calltargets f0;"):
        for c in ("call (pr), %rd1, (pa, pb), Ftgt", "call %rd1, Ftgt", "call (pf), %rd1, (pf), Ftgt"):
            case(F, P + tgt + "\n" + c, "8.0", "sm_90", D)
    # Every formal type against every argument type, by .param variable and by register, for
    # an argument, a return value and a prototype's parameter.
    types = {"b8": ".b8", "b16": ".b16", "b32": ".b32", "b64": ".b64", "f32": ".f32", "f64": ".f64",
             "u16": ".u16", "s32": ".s32", "u64": ".u64", "a4": ".align 4 .b8", "a8": ".align 8 .b8",
             "a12": ".align 4 .b8"}
    dims = {"a4": "[4]", "a8": "[8]", "a12": "[12]"}
    regs = {"b16": "%h1", "b32": "%b1", "b64": "%rd1", "f32": "%f1", "f64": "%fd1", "u16": "%h1", "s32": "%s1",
            "u64": "%ul1"}
    decl = "".join(f".func (.param {ty} r_{k}{dims.get(k, '')}) g_{k}(.param {ty} a_{k}{dims.get(k, '')}) {{ ret; }}\n"
                   for k, ty in types.items())
    params = " ".join(f".param {ty} q_{k}{dims.get(k, '')};" for k, ty in types.items()) + "\n"
    for formal in types:
        for actual in types:
            case(F, params + f"call (q_{formal}), g_{formal}, (q_{actual})", "8.0", "sm_90", decl)
            case(F, params + f"call (q_{actual}), g_{formal}, (q_{formal})", "8.0", "sm_90", decl)
        for actual, reg in regs.items():
            case(F, params + f"call (q_{formal}), g_{formal}, ({reg})", "8.0", "sm_90", decl)
            case(F, params + f"call ({reg}), g_{formal}, (q_{formal})", "8.0", "sm_90", decl)
        for actual in ("b32", "b64", "f32", "a8"):
            proto = (f"pt: .callprototype (.param {types[formal]} _{dims.get(formal, '')}) _ "
                     f"(.param {types[formal]} _{dims.get(formal, '')});")
            case(F, params + proto + f"\ncall (q_{formal}), %rd1, (q_{actual}), pt", "8.0", "sm_90", decl)
        case(F, params + f"call (q_{formal}), g_{formal}, (q_{formal}, q_{formal})", "8.0", "sm_90", decl)
        case(F, params + f"call g_{formal}, (q_{formal})", "8.0", "sm_90", decl)
        case(F, params + f"call (q_{formal}), g_{formal}, (1)", "8.0", "sm_90", decl)
    for v, t in (("8.0", "sm_90"), ("6.0", "sm_75"), ("2.0", "sm_75"), ("1.4", "sm_75")):
        case(F, P + "call (pr), f1, (pa, pb)", v, t, D)
        case(F, P + protos["proto1"] + "\ncall (pr), %rd1, (pa, pb), proto1", v, t, D)



# ---------------------------------------------------------------- addresses and their state spaces
def address_spaces():
    """PTX ISA 6.4.1 (addresses as operands), 5.1 (state spaces), 11.1.3 (.address_size): a named
    variable against the state space of ld/ldu/st/atom/red, generic accesses, variable addresses
    taken with mov, 32-bit address registers and cvta under .address_size 64, module-scope .local,
    and .address_size 32 itself."""
    F = "address-spaces"
    spaces = {"global": ".global .align 4 .u32 gv[4];\n", "shared": ".shared .align 4 .u32 sv[4];\n",
              "const": ".const .align 4 .u32 cv[4];\n"}
    names = {"global": "gv", "shared": "sv", "const": "cv"}
    forms = ["ld{sp}.u32 %u1, [{v}]", "ld{sp}.u32 %u1, [{v}+4]", "ld.volatile{sp}.u32 %u1, [{v}]",
             "st{sp}.u32 [{v}], %u1", "atom{sp}.add.u32 %u1, [{v}], 1", "red{sp}.add.u32 [{v}], 1",
             "ldu{sp}.u32 %u1, [{v}]", "ld{sp}.nc.u32 %u1, [{v}]"]
    for declared, decl in spaces.items():
        for sp in ("", ".global", ".shared", ".shared::cta", ".shared::cluster", ".const", ".local", ".param"):
            for f in forms:
                case(F, f.format(sp=sp, v=names[declared]), decls=decl)
    for sp in ("", ".local", ".global", ".shared"):
        case(F, f".local .align 4 .u32 lv[4];\nld{sp}.u32 %u1, [lv]")
        case(F, f".local .align 4 .u32 lv[4];\nst{sp}.u32 [lv], %u1")
    case(F, "ld.local.u32 %u1, [lv]", decls=".local .align 4 .u32 lv[4];\n")
    for declared, decl in spaces.items():
        for d in ("mov.u32 %u1", "mov.b32 %r1", "mov.u64 %rd1", "mov.b64 %rd1"):
            case(F, f"{d}, {names[declared]}", decls=decl)
            case(F, f"{d}, {names[declared]}+4", decls=decl)
    for sp in ("", ".global", ".shared", ".shared::cta", ".local", ".const", ".param"):
        for t, r in ((".u32", "%u1"), (".u64", "%rd1")):
            case(F, f"ld{sp}.u32 %u1, [{r}]")
            case(F, f"st{sp}.u32 [{r}], %u1")
            case(F, f"atom{sp}.add.u32 %u1, [{r}], 1")
    for sp in (".global", ".shared", ".shared::cta", ".shared::cluster", ".local", ".const", ".param"):
        for to in ("", ".to"):
            case(F, f"cvta{to}{sp}.u32 %u1, %u1")
            case(F, f"cvta{to}{sp}.u64 %rd1, %rd1")
    for v, t in (("8.0", "sm_90"), ("7.0", "sm_80")):
        CASES.setdefault(F, {})[f"{F}/address_size_32/{v}/{t}"] = ("mov.u32 %u1, 0;", v, t, "", 32)


FAMILIES = {"address-spaces": address_spaces, "membar-fence": membar_fence, "shf": shf, "testp": testp, "prefetch": prefetch,
            "createpolicy": createpolicy, "cvt-pack": cvt_pack, "cache-priority": cache_priority,
            "tensormap": tensormap, "setmaxnreg": setmaxnreg, "wgmma": wgmma, "wmma": wmma, "mma": mma, "mma-sp": mma_sp, "matrix-move": matrix_move, "call": call}


def label(item):
    cid, args = item
    instr, version, target = args[:3]
    ptx = module(*args)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "case.ptx")
        with open(src, "w") as fh:
            fh.write(ptx)
        gpu = target if int(re.sub(r"\D", "", target)) >= 75 else "sm_75"
        p = subprocess.run(["nice", "ptxas", "--gpu-name", gpu, src, "-o", "/dev/null"],
                           capture_output=True, text=True, timeout=120)
    out = (p.stdout + p.stderr).splitlines()
    errors = [re.sub(r"^ptxas [^:]*?(, line \d+)?; (error|fatal)\s*: ", "", l) for l in out if "error" in l or "fatal" in l]
    message = errors[0] if errors and p.returncode != 0 else ""
    return {"id": cid, "target": target, "version": version, "ptx": ptx,
            "ptxas": "accept" if p.returncode == 0 else "reject", "message": message, "about": instr}




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("families", nargs="*")
    args = ap.parse_args()
    for name in args.families or FAMILIES:
        FAMILIES[name]()
        out = os.path.join(HERE, name + ".jsonl.gz")
        previous = {}
        if os.path.exists(out):
            for line in read_lines(out):
                c = json.loads(line)
                previous[c["id"]] = c
        cases = CASES.get(name, {})
        todo = [(k, v) for k, v in cases.items() if k not in previous or previous[k]["ptx"] != module(*v)]
        with cf.ThreadPoolExecutor(max_workers=min(2, args.jobs)) as ex:
            done = {c["id"]: c for c in ex.map(label, todo)}
        write_gz(out, "".join(json.dumps(done.get(k) or previous[k]) + "\n" for k in cases))
        print(f"{name}: {len(cases)} cases, {len(todo)} labelled now", flush=True)


if __name__ == "__main__":
    main()
