#!/usr/bin/env python3
"""Generate the ptxas-labelled PTX conformance corpus.

Usage: generate.py [--family NAME]... [--jobs N] [--tables-only]
Each family is written to <family>.jsonl.gz (gzipped, reproducibly) next to this script.  Results of
earlier runs (same id and same module text) are reused, and a family in
progress keeps its finished cases in .<family>.partial, so an interrupted
run resumes where it stopped.
"""
import argparse, concurrent.futures as cf, json, os, re, subprocess, tempfile
import gzip

HERE = os.path.dirname(os.path.abspath(__file__))
PTXAS = os.environ.get("PTXAS", "ptxas")
GPU_NAMES = {"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a",
             "sm_100", "sm_100a", "sm_100f", "sm_103", "sm_103a", "sm_103f", "sm_110",
             "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f"}
VERSIONS = ["2.0", "2.3", "3.0", "4.0", "5.0", "6.0", "6.5", "7.0", "7.1", "7.5", "7.7",
            "7.8", "8.0", "8.3", "8.5", "8.6", "8.7", "8.8", "9.0"]
TARGETS = ["sm_30", "sm_50", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a",
           "sm_100", "sm_100a", "sm_100f", "sm_103a", "sm_120", "sm_120a"]
# lowest .version each .target needs (used to pick sweep companions)
TARGET_MIN_VERSION = {"sm_20": "2.0", "sm_30": "2.3", "sm_50": "4.0", "sm_70": "6.0", "sm_75": "6.3",
                      "sm_80": "7.0", "sm_86": "7.1", "sm_89": "7.8", "sm_90": "7.8",
                      "sm_90a": "8.0", "sm_100": "8.6", "sm_100a": "8.6", "sm_100f": "8.8",
                      "sm_103a": "8.8", "sm_120": "8.7", "sm_120a": "8.7"}

PROLOGUE = """\
.reg .pred %p<4>; .reg .b16 %h<4>; .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<4>; .reg .f64 %fd<4>;
.shared .align 16 .b8 smem[4096]; .shared .align 8 .b64 mbar;
mov.u32 %r1, 1;
mov.u32 %r2, 64;
mov.u32 %r3, 128;
mov.b16 %h1, 3;
mov.f32 %f1, 0f3F800000;
mov.u64 %rd1, smem;
mov.u64 %rd2, mbar;
ld.param.u64 %rd3, [p];
mov.u64 %rd4, 0;
setp.ne.u32 %p1, %r1, 0;
"""


def vkey(v):
    a, b = v.split(".")
    return (int(a), int(b))


def module(body, version, target):
    return (f".version {version}\n.target {target}\n.address_size 64\n\n"
            f".visible .entry k(.param .u64 p, .param .align 64 .b8 tmap[128])\n{{\n"
            f"{PROLOGUE}{body.rstrip()}\nret;\n}}\n")


class Fam:
    def __init__(self, name):
        self.name, self.cases, self.ids, self.features = name, [], set(), {}

    def add(self, uid, body, about, version="8.0", target="sm_90", feature=None, kind=None):
        cid = f"{self.name}/{uid}"
        if cid in self.ids:
            return
        self.ids.add(cid)
        self.cases.append({"id": cid, "target": target, "version": version,
                           "ptx": module(body, version, target), "about": about})
        if feature:
            self.features.setdefault(feature, []).append((cid, kind))

    def sweep(self, feat, body, spec_ver, spec_tgt, section, vtarget=None, ttarget_ver="9.0"):
        """Version sweep at a fixed target and target sweep at a fixed version."""
        self.features.setdefault(feat, [])
        self.features[feat + "\x00meta"] = (spec_ver, spec_tgt, section)
        vt = vtarget or spec_tgt
        for v in VERSIONS:
            if vkey(v) < vkey(TARGET_MIN_VERSION.get(vt, "2.3")) and v not in ("2.0",):
                pass
            self.add(f"ver/{slug(feat)}/{v}", body, f"{feat}: .version {v} on {vt} (spec: PTX {spec_ver})",
                     v, vt, feat, "ver")
        for t in TARGETS:
            tv = max(ttarget_ver, TARGET_MIN_VERSION[t], key=vkey)
            self.add(f"tgt/{slug(feat)}/{t}", body, f"{feat}: .target {t} at .version {tv} (spec: {spec_tgt})",
                     tv, t, feat, "tgt")


def slug(s):
    return re.sub(r"[^A-Za-z0-9_.:-]+", "_", s).strip("_")


# ---------------------------------------------------------------- families
def fam_bar():
    f = Fam("bar")
    sec = "9.7.13.1 bar, barrier"
    for i in list(range(0, 17)) + [-1, 255]:
        f.add(f"id/bar.sync/{i}", f"bar.sync {i};", f"bar.sync with barrier id {i}")
        f.add(f"id/barrier.sync/{i}", f"barrier.sync {i};", f"barrier.sync with barrier id {i}")
        f.add(f"id/bar.arrive/{i}", f"bar.arrive {i}, 64;", f"bar.arrive with barrier id {i}")
        f.add(f"id/bar.red/{i}", f"bar.red.popc.u32 %r5, {i}, %p1;", f"bar.red.popc with barrier id {i}")
    for b in ["0", "1", "31", "32", "33", "64", "96", "100", "992", "1024", "1056", "2048", "-32", "%r3", "%rd3", "%h1"]:
        f.add(f"count/bar.sync/{b}", f"bar.sync 1, {b};", f"bar.sync thread count {b}")
        f.add(f"count/barrier.sync.aligned/{b}", f"barrier.sync.aligned 1, {b};", f"barrier.sync.aligned thread count {b}")
        f.add(f"count/bar.arrive/{b}", f"bar.arrive 1, {b};", f"bar.arrive thread count {b}")
        f.add(f"count/bar.red.and/{b}", f"bar.red.and.pred %p2, 1, {b}, %p1;", f"bar.red.and thread count {b}")
    for a in ["%r1", "%r2", "%rd1", "%h1", "%f1", "%p1", "smem", "0x3", "1.0"]:
        f.add(f"idop/bar.sync/{slug(a)}", f"bar.sync {a};", f"bar.sync barrier id operand {a}")
        f.add(f"idop/barrier.cta.arrive/{slug(a)}", f"barrier.cta.arrive {a}, 32;", f"barrier.cta.arrive barrier id operand {a}")
    heads = ["bar", "bar.cta", "barrier", "barrier.cta"]
    ops = {"sync": ["0", "1, 64", "%r1", "%r1, %r3", "", "1, 64, 1"],
           "arrive": ["1, 64", "%r1, %r3", "1", "", "1, 64, 1"],
           "red.popc.u32": ["%r5, 1, %p1", "%r5, 1, 64, %p1", "%r5, 1, !%p1", "%r5, 1, 64, !%p1", "%r5, %r1, %r3, %p1",
                             "%r5, 1", "%p2, 1, %p1", "%rd5, 1, %p1", "%r5, 1, %r1", "%r5, 1, 64, %p1, %p1"],
           "red.and.pred": ["%p2, 1, %p1", "%p2, 1, 64, !%p1", "%r5, 1, %p1", "%p2, 1, %r1", "%p2, 1"],
           "red.or.pred": ["%p2, 1, %p1", "%p2, 1, 64, !%p1", "%p2, %r1, %r3, %p1", "%r5, 1, %p1"],
           "red.popc.b32": ["%r5, 1, %p1"], "red.add.u32": ["%r5, 1, %p1"], "red.and.u32": ["%r5, 1, %p1"],
           "red.popc.u64": ["%rd5, 1, %p1"], "red.xor.pred": ["%p2, 1, %p1"], "red.popc": ["%r5, 1, %p1"],
           "red.and": ["%p2, 1, %p1"], "wait": ["1"], "sync.arrive": ["1, 64"]}
    for h in heads:
        for op, operands in ops.items():
            for al in ["", ".aligned"]:
                parts = op.split(".")
                # .aligned goes after the operation, before the .op/.type of red
                ins = f"{h}.{parts[0]}{al}" + "".join("." + x for x in parts[1:])
                for o in operands:
                    f.add(f"form/{ins}/{slug(o) or 'none'}", f"{ins} {o};".replace(" ;", ";"),
                          f"{ins} with operands ({o})")
    # qualifier order / duplicates
    for ins in ["bar.sync.cta 0", "barrier.aligned.sync 0", "barrier.sync.aligned.aligned 0", "bar.cta.cta.sync 0",
                "barrier.cta.cta.sync 0", "barrier.red.aligned.popc.u32 %r5, 1, %p1", "barrier.red.popc.u32.aligned %r5, 1, %p1",
                "bar.red.u32.popc %r5, 1, %p1", "bar.red.pred.and %p2, 1, %p1", "barrier.sync.cta 0", "bar.cta.aligned.sync 0",
                "barrier.cta.aligned.sync 0", "bar.sync.sync 0", "bar.gpu.sync 0", "bar.cluster.sync 0", "barrier.cluster.sync 0",
                "barrier.cluster.arrive 0", "barrier.cluster.arrive.aligned", "barrier.cluster.wait", "bar.warp.sync 0xffffffff",
                "bar.warp.sync %r1", "bar.warp.sync -1", "bar.warp.sync %rd1", "bar.warp.sync", "bar.warp.sync.aligned 1",
                "@%p1 bar.sync 0", "@!%p1 barrier.sync 0", "@%p1 bar.red.popc.u32 %r5, 1, %p1", "bar.sync 0 , 32"]:
        f.add(f"misc/{slug(ins)}", ins + ";", f"qualifier order/duplicate/neighbour form: {ins}")
    sw = [("bar.sync id", "bar.sync 0;", "1.0", "sm_30"),
          ("bar.sync register id", "bar.sync %r1;", "2.0", "sm_30"),
          ("bar.sync thread count", "bar.sync 1, 64;", "2.0", "sm_30"),
          ("bar.arrive", "bar.arrive 1, 64;", "2.0", "sm_30"),
          ("bar.red.popc", "bar.red.popc.u32 %r5, 1, %p1;", "2.0", "sm_30"),
          ("bar.red.and", "bar.red.and.pred %p2, 1, %p1;", "2.0", "sm_30"),
          ("barrier.sync", "barrier.sync 0;", "6.0", "sm_30"),
          ("barrier.sync.aligned", "barrier.sync.aligned 0;", "6.0", "sm_30"),
          ("barrier.arrive", "barrier.arrive 1, 64;", "6.0", "sm_30"),
          ("barrier.red.or", "barrier.red.or.pred %p2, 1, %p1;", "6.0", "sm_30"),
          ("bar.cta.sync", "bar.cta.sync 0;", "7.8", "sm_30"),
          ("bar.cta.arrive", "bar.cta.arrive 1, 64;", "7.8", "sm_30"),
          ("barrier.cta.sync.aligned", "barrier.cta.sync.aligned 0;", "7.8", "sm_30"),
          ("barrier.cta.red.popc", "barrier.cta.red.popc.u32 %r5, 1, %p1;", "7.8", "sm_30"),
          ("bar.warp.sync", "bar.warp.sync 0xffffffff;", "6.0", "sm_30")]
    for feat, body, v, t in sw:
        f.sweep(feat, body, v, t, sec, vtarget="sm_70" if vkey(v) >= (6, 0) else "sm_20")
    return f


SEMS_ARRIVE = ["", ".release.cta", ".release.cluster", ".relaxed.cta", ".relaxed.cluster", ".release",
               ".relaxed", ".cta", ".cluster", ".acquire.cta", ".release.gpu", ".release.sys", ".cta.release",
               ".release.cta.release.cta", ".acq_rel.cta", ".sc.cta"]
SEMS_WAIT = ["", ".acquire.cta", ".acquire.cluster", ".relaxed.cta", ".relaxed.cluster", ".acquire", ".relaxed",
             ".cta", ".cluster", ".release.cta", ".acquire.gpu", ".cta.acquire", ".acquire.sys"]
SEMS_TX = ["", ".relaxed.cta", ".relaxed.cluster", ".relaxed", ".cta", ".release.cta", ".acquire.cta",
           ".relaxed.gpu", ".cluster.relaxed"]
SPACES = ["", ".shared", ".shared::cta", ".shared::cluster", ".global"]


def fam_mbarrier():
    f = Fam("mbarrier")
    sec = "9.7.13.15 mbarrier"
    addr = {"": "[%rd2]", ".shared": "[mbar]", ".shared::cta": "[mbar]", ".shared::cluster": "[%rd2]",
            ".global": "[%rd3]", ".local": "[%rd3]", ".shared::cta.shared": "[mbar]"}
    for sp in SPACES:
        a = addr[sp]
        for c in ["1", "0", "32", "1048575", "1048576", "-1", "%r1", "%rd1", "%h1"]:
            f.add(f"init/{sp or 'generic'}/{slug(c)}", f"mbarrier.init{sp}.b64 {a}, {c};", f"mbarrier.init{sp} count {c}")
        for ty in [".b32", ".u64", ".s64", ""]:
            f.add(f"init/type/{sp or 'generic'}/{ty or 'none'}", f"mbarrier.init{sp}{ty} {a}, 1;", f"mbarrier.init{sp} type {ty or 'missing'}")
        f.add(f"inval/{sp or 'generic'}", f"mbarrier.inval{sp}.b64 {a};", f"mbarrier.inval{sp}")
        f.add(f"inval/extra/{sp or 'generic'}", f"mbarrier.inval{sp}.b64 {a}, 1;", f"mbarrier.inval{sp} extra operand")
        f.add(f"pending/{sp or 'generic'}", f"mbarrier.pending_count{sp}.b64 %r5, %rd4;", f"mbarrier.pending_count with space {sp}")
        for op in ["expect_tx", "complete_tx"]:
            for sem in SEMS_TX:
                for tx in ["512", "%r1", "%rd1"]:
                    f.add(f"{op}/{sem or 'nosem'}/{sp or 'generic'}/{slug(tx)}", f"mbarrier.{op}{sem}{sp}.b64 {a}, {tx};",
                          f"mbarrier.{op} sem/scope {sem or 'none'} space {sp or 'generic'} txCount {tx}")
                    if sem:
                        f.add(f"{op}/{sem}/{sp or 'generic'}/{slug(tx)}/v8.6", f"mbarrier.{op}{sem}{sp}.b64 {a}, {tx};",
                              f"mbarrier.{op} sem/scope {sem} space {sp or 'generic'} txCount {tx} at .version 8.6", "8.6")
            f.add(f"{op}/missing-tx/{sp or 'generic'}", f"mbarrier.{op}{sp}.b64 {a};", f"mbarrier.{op} without txCount")
        for sem in SEMS_ARRIVE:
            for kind, ops in [("arrive", ["%rd5, A", "_, A", "%rd5, A, 1", "_, A, %r1", "%r5, A", "%rd5, A, %rd1", "%p2, A"]),
                              ("arrive.expect_tx", ["%rd5, A, 512", "_, A, %r1", "%rd5, A", "%rd5, A, 512, 1"]),
                              ("arrive.noComplete", ["%rd5, A, 1", "%rd5, A", "_, A, 1"]),
                              ("arrive_drop", ["%rd5, A", "_, A", "%rd5, A, 1"]),
                              ("arrive_drop.expect_tx", ["%rd5, A, 512", "_, A, 512"]),
                              ("arrive_drop.noComplete", ["%rd5, A, 1", "%rd5, A"]),
                              ("arrive.expect_tx.noComplete", ["%rd5, A, 512"])]:
                for o in ops:
                    o2 = o.replace("A", a)
                    f.add(f"{kind}/{sem or 'nosem'}/{sp or 'generic'}/{slug(o)}", f"mbarrier.{kind}{sem}{sp}.b64 {o2};",
                          f"mbarrier.{kind} sem/scope {sem or 'none'} space {sp or 'generic'} operands ({o})")
                    if "relaxed" in sem:
                        f.add(f"{kind}/{sem}/{sp or 'generic'}/{slug(o)}/v8.6", f"mbarrier.{kind}{sem}{sp}.b64 {o2};",
                              f"mbarrier.{kind} sem/scope {sem} space {sp or 'generic'} operands ({o}) at .version 8.6", "8.6")
        for sem in SEMS_WAIT:
            for kind, ops in [("test_wait", ["%p2, A, %rd4", "%r5, A, %rd4", "_, A, %rd4", "%p2, A"]),
                              ("test_wait.parity", ["%p2, A, %r1", "%p2, A, %rd4", "%p2, A, 1"]),
                              ("try_wait", ["%p2, A, %rd4", "%p2, A, %rd4, %r2", "%p2, A, %rd4, 1000", "%p2, A, %rd4, %rd1"]),
                              ("try_wait.parity", ["%p2, A, %r1", "%p2, A, %r1, %r2", "%p2, A, %r1, 1000"])]:
                for o in ops:
                    o2 = o.replace("A", a)
                    f.add(f"{kind}/{sem or 'nosem'}/{sp or 'generic'}/{slug(o)}", f"mbarrier.{kind}{sem}{sp}.b64 {o2};",
                          f"mbarrier.{kind} sem/scope {sem or 'none'} space {sp or 'generic'} operands ({o})")
                    if "relaxed" in sem:
                        f.add(f"{kind}/{sem}/{sp or 'generic'}/{slug(o)}/v8.6", f"mbarrier.{kind}{sem}{sp}.b64 {o2};",
                              f"mbarrier.{kind} sem/scope {sem} space {sp or 'generic'} operands ({o}) at .version 8.6", "8.6")
    for ins in ["mbarrier.arrive.shared.release.cta.b64 %rd5, [mbar]", "mbarrier.noComplete.arrive.shared.b64 %rd5, [mbar], 1",
                "mbarrier.arrive.arrive.shared.b64 %rd5, [mbar]", "mbarrier.arrive.shared.b64.b64 %rd5, [mbar]",
                "mbarrier.arrive.expect_tx.expect_tx.shared.b64 %rd5, [mbar], 1", "mbarrier.test_wait.parity.parity.shared.b64 %p2, [mbar], %r1",
                "mbarrier.parity.test_wait.shared.b64 %p2, [mbar], %r1", "mbarrier.try_wait.shared.acquire.cta.b64 %p2, [mbar], %rd4",
                "mbarrier.init.shared.b64 [mbar+8], 1", "mbarrier.init.shared.b64 [smem+8], 1", "mbarrier.init.shared.b64 [smem+4], 1",
                "mbarrier.init.shared.b64 mbar, 1", "mbarrier.init.shared.b64 [%r1], 1", "mbarrier.arrive.shared.b64 %rd5, mbar",
                "mbarrier.arrive.shared::cluster.b64 _, [%r1]", "mbarrier.init.shared::cta.b64 [%rd1], %r1",
                "mbarrier.expect_tx.shared::cta.b64 [mbar], -1", "mbarrier.expect_tx.shared::cta.b64 [mbar], 1048576",
                "mbarrier.arrive.expect_tx.shared::cta.b64 _, [mbar], 4294967295", "mbarrier.pending_count.b64 %r5, %r1",
                "mbarrier.pending_count.b64 %rd5, %rd4", "mbarrier.pending_count.b64 %r5", "mbarrier.pending_count.b32 %r5, %rd4",
                "mbarrier.try_wait.parity.shared::cta.b64 %p2, [mbar], %p1", "mbarrier.test_wait.shared::cta.b64 %p2, [mbar], %r1",
                "@%p1 mbarrier.arrive.shared.b64 %rd5, [mbar]", "mbarrier.arrive.release.cta.shared::cta.b64 _, [%rd2+0]",
                "mbarrier.arrive.release.cta.shared::cta.b64 _, [mbar+0]"]:
        f.add(f"misc/{slug(ins)}", ins + ";", f"neighbour form: {ins}")
    sw = [("mbarrier.init", "mbarrier.init.shared.b64 [mbar], 1;", "7.0", "sm_80"),
          ("mbarrier.init.shared::cta", "mbarrier.init.shared::cta.b64 [mbar], 1;", "7.8", "sm_80"),
          ("mbarrier.inval", "mbarrier.inval.shared.b64 [mbar];", "7.0", "sm_80"),
          ("mbarrier.expect_tx", "mbarrier.expect_tx.shared.b64 [mbar], 16;", "8.0", "sm_90"),
          ("mbarrier.complete_tx", "mbarrier.complete_tx.shared.b64 [mbar], 16;", "8.0", "sm_90"),
          ("mbarrier.expect_tx.relaxed", "mbarrier.expect_tx.relaxed.cta.shared.b64 [mbar], 16;", "8.0", "sm_90"),
          ("mbarrier.arrive", "mbarrier.arrive.shared.b64 %rd5, [mbar];", "7.0", "sm_80"),
          ("mbarrier.arrive sink", "mbarrier.arrive.shared.b64 _, [mbar];", "7.1", "sm_80"),
          ("mbarrier.arrive count", "mbarrier.arrive.shared.b64 %rd5, [mbar], 2;", "7.8", "sm_90"),
          ("mbarrier.arrive.noComplete", "mbarrier.arrive.noComplete.shared.b64 %rd5, [mbar], 1;", "7.0", "sm_80"),
          ("mbarrier.arrive.shared::cluster", "mbarrier.arrive.shared::cluster.b64 _, [%rd2];", "8.0", "sm_90"),
          ("mbarrier.arrive.expect_tx", "mbarrier.arrive.expect_tx.shared.b64 %rd5, [mbar], 16;", "8.0", "sm_90"),
          ("mbarrier.arrive.release.cta", "mbarrier.arrive.release.cta.shared.b64 %rd5, [mbar];", "8.0", "sm_80"),
          ("mbarrier.arrive.release.cluster", "mbarrier.arrive.release.cluster.shared.b64 %rd5, [mbar];", "8.0", "sm_90"),
          ("mbarrier.arrive.relaxed.cta", "mbarrier.arrive.relaxed.cta.shared.b64 %rd5, [mbar];", "8.6", "sm_90"),
          ("mbarrier.arrive_drop", "mbarrier.arrive_drop.shared.b64 %rd5, [mbar];", "7.0", "sm_80"),
          ("mbarrier.arrive_drop.expect_tx", "mbarrier.arrive_drop.expect_tx.shared.b64 %rd5, [mbar], 16;", "8.0", "sm_90"),
          ("mbarrier.arrive_drop.relaxed", "mbarrier.arrive_drop.relaxed.cta.shared.b64 %rd5, [mbar];", "8.6", "sm_90"),
          ("mbarrier.test_wait", "mbarrier.test_wait.shared.b64 %p2, [mbar], %rd4;", "7.0", "sm_80"),
          ("mbarrier.test_wait.parity", "mbarrier.test_wait.parity.shared.b64 %p2, [mbar], %r1;", "7.1", "sm_80"),
          ("mbarrier.test_wait.acquire.cta", "mbarrier.test_wait.acquire.cta.shared.b64 %p2, [mbar], %rd4;", "8.0", "sm_80"),
          ("mbarrier.test_wait.acquire.cluster", "mbarrier.test_wait.acquire.cluster.shared.b64 %p2, [mbar], %rd4;", "8.0", "sm_90"),
          ("mbarrier.test_wait.relaxed", "mbarrier.test_wait.relaxed.cta.shared.b64 %p2, [mbar], %rd4;", "8.6", "sm_90"),
          ("mbarrier.try_wait", "mbarrier.try_wait.shared.b64 %p2, [mbar], %rd4;", "7.8", "sm_90"),
          ("mbarrier.try_wait hint", "mbarrier.try_wait.shared.b64 %p2, [mbar], %rd4, %r2;", "7.8", "sm_90"),
          ("mbarrier.try_wait.parity", "mbarrier.try_wait.parity.shared.b64 %p2, [mbar], %r1;", "7.8", "sm_90"),
          ("mbarrier.try_wait.relaxed", "mbarrier.try_wait.relaxed.cluster.shared.b64 %p2, [mbar], %rd4;", "8.6", "sm_90"),
          ("mbarrier.pending_count", "mbarrier.pending_count.b64 %r5, %rd4;", "7.0", "sm_80")]
    for feat, body, v, t in sw:
        f.sweep(feat, body, v, t, sec, vtarget="sm_80" if t == "sm_80" and vkey(v) < (7, 8) else "sm_90")
    return f


def fam_cp_async():
    f = Fam("cp-async")
    sec = "9.7.9.25.3 cp.async"
    for lvl in [".ca", ".cg", "", ".cs", ".lu"]:
        for dst in [".shared.global", ".shared::cta.global", ".global.shared", ".shared::cluster.global", ".shared"]:
            for sz in ["4", "8", "16", "2", "32", "%r1"]:
                for extra in ["", ", 4", ", %r1", ", %p1", ", !%p1", ", 4, %p1", ", 0"]:
                    f.add(f"copy/{lvl or 'nolvl'}/{dst}/{sz}/{slug(extra) or 'none'}",
                          f"cp.async{lvl}{dst} [%rd1], [%rd3], {sz}{extra};",
                          f"cp.async{lvl}{dst} cp-size {sz} extra ({extra.strip(', ')})")
    for lvl in [".ca", ".cg"]:
        for hint in ["", ".L2::cache_hint", ".L2::64B", ".L2::128B", ".L2::256B", ".L2::32B", ".L2::cache_hint.L2::128B",
                     ".L2::128B.L2::cache_hint", ".L1::no_allocate", ".L2::cache_hint.L2::cache_hint"]:
            for sz in ["4", "16"]:
                for extra in ["", ", %rd4", ", 4, %rd4", ", %p1, %rd4", ", %r1"]:
                    f.add(f"hint/{lvl}/{hint or 'none'}/{sz}/{slug(extra) or 'none'}",
                          f"cp.async{lvl}.shared.global{hint} [%rd1], [%rd3], {sz}{extra};",
                          f"cp.async{lvl} hint {hint or 'none'} size {sz} extra ({extra.strip(', ')})")
    for ins in ["cp.async.commit_group", "cp.async.commit_group 0", "cp.async.wait_group 0", "cp.async.wait_group 1",
                "cp.async.wait_group 31", "cp.async.wait_group -1", "cp.async.wait_group %r1", "cp.async.wait_group",
                "cp.async.wait_all", "cp.async.wait_all 0", "cp.async.wait_group.read 0", "cp.async.commit_group.bulk_group",
                "cp.async.ca.shared.global [smem], [%rd3], 16", "cp.async.ca.shared.global [smem+16], [%rd3+16], 16",
                "cp.async.ca.shared.global [%r1], [%rd3], 16", "cp.async.ca.shared.global [%rd1], [%r1], 16",
                "cp.async.ca.shared.global [%rd1], [%rd3], 16, 32", "cp.async.ca.shared.global [%rd1], [%rd3], 16, -1",
                "cp.async.ca.shared.global [%rd1], [%rd3], 16, %rd1", "cp.async.ca.shared.global [%rd1], [%rd3]",
                "cp.async.ca.global.shared.global [%rd1], [%rd3], 16", "cp.async.ca.ca.shared.global [%rd1], [%rd3], 16",
                "cp.async.shared.global.ca [%rd1], [%rd3], 16", "@%p1 cp.async.ca.shared.global [%rd1], [%rd3], 16"]:
        f.add(f"misc/{slug(ins)}", ins + ";", f"form: {ins}")
    for noinc in ["", ".noinc"]:
        for sp in ["", ".shared", ".shared::cta", ".shared::cluster", ".global"]:
            for ty in [".b64", ".b32", ""]:
                a = "[mbar]" if sp.startswith(".shared") else "[%rd2]"
                f.add(f"mbarrier.arrive/{noinc or 'inc'}/{sp or 'generic'}/{ty or 'none'}",
                      f"cp.async.mbarrier.arrive{noinc}{sp}{ty} {a};", f"cp.async.mbarrier.arrive{noinc}{sp}{ty}")
    for ins in ["cp.async.mbarrier.arrive.shared.b64 %rd5, [mbar]", "cp.async.mbarrier.arrive.shared.b64 [mbar], 1",
                "cp.async.mbarrier.arrive.noinc.noinc.shared.b64 [mbar]", "cp.async.mbarrier.noinc.arrive.shared.b64 [mbar]",
                "cp.async.mbarrier.arrive.shared.noinc.b64 [mbar]", "cp.async.mbarrier.arrive.shared.b64 mbar"]:
        f.add(f"misc/{slug(ins)}", ins + ";", f"form: {ins}")
    sw = [("cp.async.ca", "cp.async.ca.shared.global [%rd1], [%rd3], 4;", "7.0", "sm_80"),
          ("cp.async.cg", "cp.async.cg.shared.global [%rd1], [%rd3], 16;", "7.0", "sm_80"),
          ("cp.async src-size", "cp.async.ca.shared.global [%rd1], [%rd3], 16, %r1;", "7.0", "sm_80"),
          ("cp.async cache_hint", "cp.async.cg.shared.global.L2::cache_hint [%rd1], [%rd3], 16, %rd4;", "7.4", "sm_80"),
          ("cp.async prefetch_size", "cp.async.ca.shared.global.L2::128B [%rd1], [%rd3], 16;", "7.4", "sm_80"),
          ("cp.async ignore-src", "cp.async.ca.shared.global [%rd1], [%rd3], 16, %p1;", "7.5", "sm_80"),
          ("cp.async .shared::cta", "cp.async.ca.shared::cta.global [%rd1], [%rd3], 16;", "7.8", "sm_80"),
          ("cp.async.commit_group", "cp.async.commit_group;", "7.0", "sm_80"),
          ("cp.async.wait_group", "cp.async.wait_group 0;", "7.0", "sm_80"),
          ("cp.async.wait_all", "cp.async.wait_all;", "7.0", "sm_80"),
          ("cp.async.mbarrier.arrive", "cp.async.mbarrier.arrive.shared.b64 [mbar];", "7.0", "sm_80"),
          ("cp.async.mbarrier.arrive.noinc", "cp.async.mbarrier.arrive.noinc.shared.b64 [mbar];", "7.0", "sm_80"),
          ("cp.async.mbarrier.arrive.shared::cta", "cp.async.mbarrier.arrive.shared::cta.b64 [mbar];", "7.8", "sm_80")]
    for feat, body, v, t in sw:
        f.sweep(feat, body, v, t, sec, vtarget="sm_80")
    return f


def fam_cp_async_bulk():
    f = Fam("cp-async-bulk")
    sec = "9.7.9.25.4.1 cp.async.bulk"
    g2s_dst = [".shared::cluster", ".shared::cta", ".shared", ".global", ".shared::cluster.shared::cta"]
    comps = [".mbarrier::complete_tx::bytes", ".bulk_group", "", ".mbarrier", ".mbarrier::complete_tx"]
    mods = ["", ".multicast::cluster", ".L2::cache_hint", ".multicast::cluster.L2::cache_hint", ".L2::cache_hint.multicast::cluster",
            ".cp_mask", ".multicast::cluster.multicast::cluster"]
    for d in g2s_dst:
        for c in comps:
            for m in mods:
                for tail in ["", ", %h1", ", %rd4", ", %h1, %rd4"]:
                    src = ".global"
                    ops = f"[%rd1], [%rd3], 16, [mbar]{tail}" if "mbarrier" in c else f"[%rd1], [%rd3], 16{tail}"
                    f.add(f"g2s/{d}/{c or 'nocomp'}/{m or 'nomod'}/{slug(tail) or 'none'}",
                          f"cp.async.bulk{d}{src}{c}{m} {ops};", f"cp.async.bulk{d}.global{c}{m} operands tail ({tail.strip(', ')})")
    for c in comps:
        for m in ["", ".multicast::cluster", ".L2::cache_hint"]:
            ops = "[%rd1], [smem], 16, [mbar]" if "mbarrier" in c else "[%rd1], [smem], 16"
            f.add(f"s2s/{c or 'nocomp'}/{m or 'nomod'}", f"cp.async.bulk.shared::cluster.shared::cta{c}{m} {ops};",
                  f"cp.async.bulk.shared::cluster.shared::cta{c}{m}")
    for src in [".shared::cta", ".shared", ".shared::cluster", ".global"]:
        for c in [".bulk_group", "", ".mbarrier::complete_tx::bytes"]:
            for m in ["", ".L2::cache_hint", ".cp_mask", ".L2::cache_hint.cp_mask", ".cp_mask.L2::cache_hint", ".multicast::cluster"]:
                for tail in ["", ", %rd4", ", %h1", ", %rd4, %h1"]:
                    f.add(f"s2g/{src}/{c or 'nocomp'}/{m or 'nomod'}/{slug(tail) or 'none'}",
                          f"cp.async.bulk.global{src}{c}{m} [%rd3], [%rd1], 16{tail};",
                          f"cp.async.bulk.global{src}{c}{m} operands tail ({tail.strip(', ')})")
    for sz in ["16", "32", "17", "8", "0", "1048576", "%r3", "%rd3", "-16"]:
        f.add(f"size/g2s/{slug(sz)}", f"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd3], {sz}, [mbar];",
              f"cp.async.bulk global->shared size {sz}")
        f.add(f"size/s2g/{slug(sz)}", f"cp.async.bulk.global.shared::cta.bulk_group [%rd3], [%rd1], {sz};", f"cp.async.bulk shared->global size {sz}")
        f.add(f"size/prefetch/{slug(sz)}", f"cp.async.bulk.prefetch.L2.global [%rd3], {sz};", f"cp.async.bulk.prefetch size {sz}")
    for ins in ["cp.async.bulk.prefetch.L2.global [%rd3], 16", "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd3], 16, %rd4",
                "cp.async.bulk.prefetch.L2.global [%rd3], 16, %rd4", "cp.async.bulk.prefetch.global [%rd3], 16",
                "cp.async.bulk.prefetch.L2 [%rd3], 16", "cp.async.bulk.prefetch.L2.shared [%rd1], 16",
                "cp.async.bulk.prefetch.L1.global [%rd3], 16", "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd3], 16",
                "cp.async.bulk.commit_group", "cp.async.bulk.commit_group 0", "cp.async.bulk.wait_group 0", "cp.async.bulk.wait_group 7",
                "cp.async.bulk.wait_group.read 0", "cp.async.bulk.wait_group.read 3", "cp.async.bulk.wait_group %r1",
                "cp.async.bulk.wait_group", "cp.async.bulk.wait_group -1", "cp.async.bulk.wait_group.read.read 0",
                "cp.async.bulk.wait_group.write 0", "cp.async.bulk.wait_all", "cp.async.bulk.read.wait_group 0",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [smem], [%rd3], 16, [mbar]",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd3], 16, [%rd2]",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd3], 16, [%r1]",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd3], 16",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%rd1], [%rd3], 16, [mbar], %r1",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%rd1], [%rd3], 16, [mbar], 3",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%rd1], [%rd3], 16, [mbar], %r1",
                "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd3], [%rd1], 16, %h1",
                "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd3], [%rd1], 16, %r1",
                "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd3], [%rd1], 16, 65535",
                "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask [%rd3], [%rd1], 16, %rd4, %h1"]:
        f.add(f"misc/{slug(ins)}", ins + ";", f"form: {ins}")
    G2S = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
    sw = [("cp.async.bulk global->shared::cluster", f"{G2S} [%rd1], [%rd3], 16, [mbar];", "8.0", "sm_90"),
          ("cp.async.bulk multicast", f"{G2S}.multicast::cluster [%rd1], [%rd3], 16, [mbar], %h1;", "8.0", "sm_90"),
          ("cp.async.bulk cache_hint", f"{G2S}.L2::cache_hint [%rd1], [%rd3], 16, [mbar], %rd4;", "8.0", "sm_90"),
          ("cp.async.bulk global->shared::cta", "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%rd1], [%rd3], 16, [mbar];", "8.6", "sm_90"),
          ("cp.async.bulk shared::cta->shared::cluster", "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%rd1], [smem], 16, [mbar];", "8.0", "sm_90"),
          ("cp.async.bulk shared->global", "cp.async.bulk.global.shared::cta.bulk_group [%rd3], [%rd1], 16;", "8.0", "sm_90"),
          ("cp.async.bulk shared->global cache_hint", "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd3], [%rd1], 16, %rd4;", "8.0", "sm_90"),
          ("cp.async.bulk.cp_mask", "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd3], [%rd1], 16, %h1;", "8.6", "sm_100"),
          ("cp.async.bulk.prefetch", "cp.async.bulk.prefetch.L2.global [%rd3], 16;", "8.0", "sm_90"),
          ("cp.async.bulk.commit_group", "cp.async.bulk.commit_group;", "8.0", "sm_90"),
          ("cp.async.bulk.wait_group", "cp.async.bulk.wait_group 0;", "8.0", "sm_90"),
          ("cp.async.bulk.wait_group.read", "cp.async.bulk.wait_group.read 0;", "8.0", "sm_90")]
    for feat, body, v, t in sw:
        f.sweep(feat, body, v, t, sec, vtarget="sm_90")
    return f


def fam_cp_reduce_async_bulk():
    f = Fam("cp-reduce-async-bulk")
    sec = "9.7.9.25.4.2 cp.reduce.async.bulk"
    ops = ["and", "or", "xor", "add", "inc", "dec", "min", "max", "mul", "sub"]
    types = ["b32", "u32", "s32", "b64", "u64", "s64", "f32", "f64", "f16", "bf16", "f16x2", "bf16x2", "u16", "e4m3"]
    dests = {"s2c": ("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes", "[%rd1], [smem], 16, [mbar]"),
             "s2g": ("cp.reduce.async.bulk.global.shared::cta.bulk_group", "[%rd3], [%rd1], 16"),
             "s2g-hint": ("cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint", "[%rd3], [%rd1], 16, %rd4")}
    for dk, (pre, opnds) in dests.items():
        for op in ops:
            for ty in types:
                for nf in ["", ".noftz"]:
                    if nf and ty not in ("f16", "bf16", "f32"):
                        continue
                    f.add(f"{dk}/{op}{nf}.{ty}", f"{pre}.{op}{nf}.{ty} {opnds};", f"{dk} redOp .{op}{nf} type .{ty}")
        f.add(f"{dk}/missing-op", f"{pre}.u32 {opnds};", f"{dk} without redOp")
        f.add(f"{dk}/missing-type", f"{pre}.add {opnds};", f"{dk} without type")
        f.add(f"{dk}/swapped", f"{pre}.u32.add {opnds};", f"{dk} type before redOp")
        f.add(f"{dk}/dup-op", f"{pre}.add.add.u32 {opnds};", f"{dk} duplicated redOp")
    for ins in ["cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%rd1], [smem], 16",
                "cp.reduce.async.bulk.shared::cluster.shared::cta.bulk_group.add.u32 [%rd1], [smem], 16",
                "cp.reduce.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%rd3], [%rd1], 16, [mbar]",
                "cp.reduce.async.bulk.shared::cta.global.bulk_group.add.u32 [%rd1], [%rd3], 16",
                "cp.reduce.async.bulk.global.shared::cta.add.u32 [%rd3], [%rd1], 16",
                "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd3], [%rd1], 17",
                "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd3], [%rd1], %r3",
                "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.u32 [%rd3], [%rd1], 16",
                "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32.L2::cache_hint [%rd3], [%rd1], 16, %rd4",
                "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%rd3], [%rd1], 16",
                "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd3], [%rd1], 16",
                "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f16 [%rd3], [%rd1], 16"]:
        f.add(f"misc/{slug(ins)}", ins + ";", f"form: {ins}")
    sw = [("cp.reduce.async.bulk shared::cluster", dests["s2c"][0] + ".add.u32 " + dests["s2c"][1] + ";", "8.0", "sm_90"),
          ("cp.reduce.async.bulk global", dests["s2g"][0] + ".add.u32 " + dests["s2g"][1] + ";", "8.0", "sm_90"),
          ("cp.reduce.async.bulk global cache_hint", dests["s2g-hint"][0] + ".add.u32 " + dests["s2g-hint"][1] + ";", "8.0", "sm_90"),
          ("cp.reduce.async.bulk add.noftz.f16", dests["s2g"][0] + ".add.noftz.f16 " + dests["s2g"][1] + ";", "8.0", "sm_90")]
    for feat, body, v, t in sw:
        f.sweep(feat, body, v, t, sec, vtarget="sm_90")
    return f


def fam_cp_async_bulk_tensor():
    f = Fam("cp-async-bulk-tensor")
    sec = "9.7.9.25.5.2 cp.async.bulk.tensor"
    G = "cp.async.bulk.tensor.{d}d.shared::cluster.global.{mode}.mbarrier::complete_tx::bytes{mods}"
    coords = ["%r1", "%r1, %r2", "%r1, %r2, %r3", "%r1, %r2, %r3, %r4", "%r1, %r2, %r3, %r4, %r5", "%r1, %r2, %r3, %r4, %r5, %r6"]
    offs = {0: "", 1: "%h1", 2: "%h1, %h2", 3: "%h1, %h2, %h3", 4: "%h1, %h2, %h3, %h0", 5: "%h1, %h2, %h3, %h0, %h1"}
    for d in range(1, 7):
        for n in range(1, 7):
            for mode in ["tile", "im2col"]:
                for noff in ([0] if mode == "tile" else [max(d - 2, 0), max(d - 2, 0) + 1, max(d - 3, 0)]):
                    o = f", {{{offs[noff]}}}" if mode == "im2col" else ""
                    ins = G.format(d=d, mode=mode, mods="") + f" [%rd1], [%rd3, {{{coords[n-1]}}}], [mbar]{o};"
                    f.add(f"g2s/{d}d/{mode}/c{n}/o{noff}", ins, f".{d}d {mode} with {n} coordinates and {noff} im2col offsets")
        for n in [d, d + 1]:
            ins = f"cp.async.bulk.tensor.{d}d.global.shared::cta.tile.bulk_group [%rd3, {{{coords[min(n,6)-1]}}}], [%rd1];"
            f.add(f"s2g/{d}d/tile/c{n}", ins, f"shared->global .{d}d tile with {n} coordinates")
            ins = f"cp.async.bulk.tensor.{d}d.global.shared::cta.im2col_no_offs.bulk_group [%rd3, {{{coords[min(n,6)-1]}}}], [%rd1];"
            f.add(f"s2g/{d}d/im2col_no_offs/c{n}", ins, f"shared->global .{d}d im2col_no_offs with {n} coordinates")
            ins = f"cp.async.bulk.prefetch.tensor.{d}d.L2.global.tile [%rd3, {{{coords[min(n,6)-1]}}}];"
            f.add(f"prefetch/{d}d/tile/c{n}", ins, f"prefetch.tensor .{d}d tile with {n} coordinates")
    mods = ["", ".multicast::cluster", ".L2::cache_hint", ".multicast::cluster.L2::cache_hint", ".cta_group::1", ".cta_group::2",
            ".multicast::cluster.cta_group::2", ".cta_group::3", ".L2::cache_hint.multicast::cluster", ".cta_group::2.multicast::cluster"]
    tails = ["", ", %h1", ", %rd4", ", %h1, %rd4"]
    for tgt in ["sm_90", "sm_90a", "sm_100a", "sm_100f", "sm_120a"]:
        ver = "8.8" if tgt in ("sm_100f",) else ("8.7" if tgt == "sm_120a" else ("8.6" if tgt == "sm_100a" else "8.0"))
        for m in mods:
            for t in tails:
                ins = G.format(d=2, mode="tile", mods=m) + f" [%rd1], [%rd3, {{%r1, %r2}}], [mbar]{t};"
                f.add(f"mods/{tgt}/{m or 'nomod'}/{slug(t) or 'none'}", ins, f".2d tile {m or 'no modifiers'} tail ({t.strip(', ')}) on {tgt}", ver, tgt)
        for mode in [".tile::gather4", ".tile::scatter4", ".im2col::w", ".im2col::w::128", ".tile", ".im2col_no_offs"]:
            dd = 2 if "gather" in mode or "scatter" in mode else 3
            c = "%r1, %r2, %r3, %r4, %r5" if "gather" in mode else ("%r1, %r2, %r3" if dd == 3 else "%r1, %r2")
            o = ", {%h1, %h2}" if "im2col::w" in mode else ""
            ins = f"cp.async.bulk.tensor.{dd}d.shared::cluster.global{mode}.mbarrier::complete_tx::bytes [%rd1], [%rd3, {{{c}}}], [mbar]{o};"
            f.add(f"modes/{tgt}/{mode}", ins, f"load mode {mode} on {tgt}", ver, tgt)
            ins = f"cp.async.bulk.tensor.{dd}d.shared::cta.global{mode}.mbarrier::complete_tx::bytes [%rd1], [%rd3, {{{c}}}], [mbar]{o};"
            f.add(f"modes-cta/{tgt}/{mode}", ins, f"load mode {mode} into .shared::cta on {tgt}", ver, tgt)
    for ins in ["cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2}], [mbar]",
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile [%rd1], [%rd3, {%r1, %r2}], [mbar]",
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2}]",
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [tmap, {%r1, %r2}], [mbar]",
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%rd1, %rd2}], [mbar]",
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {1, 2}], [mbar]",
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%h1, %h2}], [mbar]",
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem], [%rd3, {%r1, %r2}], [mbar]",
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3], [mbar]",
                "cp.async.bulk.tensor.2d.global.shared::cluster.tile.bulk_group [%rd3, {%r1, %r2}], [%rd1]",
                "cp.async.bulk.tensor.2d.global.shared::cta.tile.mbarrier::complete_tx::bytes [%rd3, {%r1, %r2}], [%rd1], [mbar]",
                "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd3, {%r1, %r2}], [%rd1]",
                "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.L2::cache_hint [%rd3, {%r1, %r2}], [%rd1], %rd4",
                "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.L2::cache_hint [%rd3, {%r1, %r2}], [%rd1]",
                "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2, %r3}], [mbar], {%r1}",
                "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2, %r3}], [mbar], {1}",
                "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2, %r3}], [mbar]",
                "cp.async.bulk.tensor.1d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1}], [mbar], {}",
                "cp.async.bulk.tensor.6d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2, %r3, %r4, %r5, %r6}], [mbar]",
                "cp.async.bulk.tensor.0d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1}], [mbar]",
                "cp.async.bulk.tensor.2d.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2}], [mbar]",
                "cp.async.bulk.tensor.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2}], [mbar]",
                "cp.async.bulk.tensor.2d.global.shared::cluster.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2}], [mbar]",
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2}], [mbar]",
                "cp.async.bulk.prefetch.tensor.2d.L2.global.tile.L2::cache_hint [%rd3, {%r1, %r2}], %rd4",
                "cp.async.bulk.prefetch.tensor.2d.L2.global [%rd3, {%r1, %r2}]",
                "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd3, {%r1, %r2, %r3}], {%h1}",
                "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd3, {%r1, %r2, %r3}]"]:
        f.add(f"misc/{slug(ins)}", ins + ";", f"form: {ins}")
    T2 = G.format(d=2, mode="tile", mods="")
    sw = [("cp.async.bulk.tensor tile load", f"{T2} [%rd1], [%rd3, {{%r1, %r2}}], [mbar];", "8.0", "sm_90"),
          ("cp.async.bulk.tensor im2col load", "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2, %r3}], [mbar], {%h1};", "8.0", "sm_90"),
          ("cp.async.bulk.tensor multicast", G.format(d=2, mode="tile", mods=".multicast::cluster") + " [%rd1], [%rd3, {%r1, %r2}], [mbar], %h1;", "8.0", "sm_90"),
          ("cp.async.bulk.tensor store", "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd3, {%r1, %r2}], [%rd1];", "8.0", "sm_90"),
          ("cp.async.bulk.tensor .shared::cta dst", "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2}], [mbar];", "8.6", "sm_90"),
          ("cp.async.bulk.tensor .cta_group::1", G.format(d=2, mode="tile", mods=".cta_group::1") + " [%rd1], [%rd3, {%r1, %r2}], [mbar];", "8.6", "sm_100a"),
          ("cp.async.bulk.tensor .tile::gather4", "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2, %r3, %r4, %r5}], [mbar];", "8.6", "sm_100a"),
          ("cp.async.bulk.tensor .im2col::w", "cp.async.bulk.tensor.3d.shared::cluster.global.im2col::w.mbarrier::complete_tx::bytes [%rd1], [%rd3, {%r1, %r2, %r3}], [mbar], {%h1, %h2};", "8.6", "sm_100a"),
          ("cp.async.bulk.prefetch.tensor", "cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd3, {%r1, %r2}];", "8.0", "sm_90")]
    for feat, body, v, t in sw:
        f.sweep(feat, body, v, t, sec, vtarget=t)
    return f


FAMILIES = {"bar": fam_bar, "mbarrier": fam_mbarrier, "cp-async": fam_cp_async, "cp-async-bulk": fam_cp_async_bulk,
            "cp-reduce-async-bulk": fam_cp_reduce_async_bulk, "cp-async-bulk-tensor": fam_cp_async_bulk_tensor}


# ---------------------------------------------------------------- oracle
ERR_RE = re.compile(r"^ptxas[^,]*, line \d+; (error|fatal)\s*:\s*(.*)$")


def run_ptxas(case):
    t = case["target"]
    gpu = t if t in GPU_NAMES else "sm_75"
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as fh:
        fh.write(case["ptx"])
        path = fh.name
    try:
        p = subprocess.run(["nice", PTXAS, "--gpu-name", gpu, "-o", "/dev/null", path],
                           capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(path)
    msg = ""
    if p.returncode != 0:
        lines = (p.stdout + p.stderr).splitlines()
        for ln in lines:
            m = ERR_RE.match(ln)
            if m and m.group(1) == "error":
                msg = m.group(2).strip(); break
        if not msg:
            for ln in lines:
                if "fatal" in ln or "error" in ln:
                    msg = re.sub(r"^ptxas[^:]*?(fatal|error)\s*:\s*", "", ln).strip(); break
    return ("accept" if p.returncode == 0 else "reject"), msg


def load_jsonl(path):
    out = {}
    if os.path.exists(path):
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as fh:
            for ln in fh:
                ln = ln.strip()
                if ln:
                    try:
                        r = json.loads(ln); out[r["id"]] = r
                    except ValueError:
                        pass
    return out


def build(name, jobs):
    fam = FAMILIES[name]()
    final = os.path.join(HERE, f"{name}.jsonl.gz")
    partial = os.path.join(HERE, f".{name}.partial")
    done = load_jsonl(final); done.update(load_jsonl(partial))
    todo = [c for c in fam.cases if not (c["id"] in done and done[c["id"]]["ptx"] == c["ptx"])]
    with open(partial, "a") as ph, cf.ThreadPoolExecutor(jobs) as ex:
        for c, (verdict, msg) in zip(todo, ex.map(run_ptxas, todo)):
            r = dict(c); r["ptxas"], r["message"] = verdict, msg
            done[c["id"]] = r
            ph.write(json.dumps(r) + "\n"); ph.flush()
    keys = ["id", "target", "version", "ptx", "ptxas", "message", "about"]
    with open(final + ".tmp", "wb") as fh:
        # Stored gzipped, without a name or time in the header: the bytes depend on the text alone.
        fh.write(gzip.compress("".join(json.dumps({k: done[c["id"]][k] for k in keys}) + "\n"
                                       for c in fam.cases).encode(), mtime=0))
    os.replace(final + ".tmp", final)
    os.unlink(partial)
    return fam


def template(msg):
    s = re.sub(r"'[^']*'", "'%s'", msg)
    s = re.sub(r"\b\d+(\.\d+)?\b", "%d", s)
    s = re.sub(r"sm_%d[a-z]?", "sm_%d", s)
    return s


def tables():
    reqs, msgs = [], {}
    for name, fn in FAMILIES.items():
        path = os.path.join(HERE, f"{name}.jsonl.gz")
        if not os.path.exists(path):
            continue
        rows = load_jsonl(path)
        for r in rows.values():
            if r["ptxas"] == "reject":
                t = template(r["message"])
                n, ex = msgs.get(t, (0, r["id"]))
                msgs[t] = (n + 1, ex)
        fam = fn()
        for feat, lst in fam.features.items():
            if feat.endswith("\x00meta"):
                continue
            spec_ver, spec_tgt, sec = fam.features[feat + "\x00meta"]
            vers = [rows[c] for c, k in lst if k == "ver" and c in rows]
            tgts = [rows[c] for c, k in lst if k == "tgt" and c in rows]
            minv = next((r["version"] for r in vers if r["ptxas"] == "accept"), "-")
            mint = next((r["target"] for r in tgts if r["ptxas"] == "accept"), "-")
            # message just below each boundary
            vmsg = next((vers[i - 1]["message"] for i, r in enumerate(vers) if r["ptxas"] == "accept" and i > 0), "")
            tmsg = next((tgts[i - 1]["message"] for i, r in enumerate(tgts) if r["ptxas"] == "accept" and i > 0), "")
            reqs.append((feat, minv, mint, vmsg, tmsg, f"{sec} (spec: PTX {spec_ver}, {spec_tgt})", name))
    with open(os.path.join(HERE, "requirements.tsv"), "w") as fh:
        fh.write("feature\tmin_version\tmin_target\tmessage_below_min_version\tmessage_below_min_target\tspec_section\tfamily\n")
        for r in reqs:
            fh.write("\t".join(x.replace("\t", " ") for x in r) + "\n")
    with open(os.path.join(HERE, "messages.tsv"), "w") as fh:
        fh.write("template\tcount\texample_id\n")
        for t, (n, ex) in sorted(msgs.items(), key=lambda kv: -kv[1][0]):
            fh.write(f"{t}\t{n}\t{ex}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--family", action="append", choices=list(FAMILIES))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tables-only", action="store_true")
    a = ap.parse_args()
    if not a.tables_only:
        for name in a.family or list(FAMILIES):
            fam = build(name, a.jobs)
            print(name, len(fam.cases), flush=True)
    tables()


if __name__ == "__main__":
    main()
