#!/usr/bin/env python3
"""Sweep every instruction form over every ptxas target and the PTX ISA versions where its legality
changes, labelled by ptxas.

The forms are the distinct instruction shapes of the ptxas-labelled corpora (testdata/conformance
and testdata/check, special registers excepted: they have their own sweep): a shape is the
opcode with all its qualifiers and the kinds of its operands (register, constant, address,
vector, name), for each instruction of the module. Each form is represented by the first module
of that shape that ptxas accepted, or, for shapes ptxas rejected for their target or version
only, by the first such module. Every form is then assembled

  * at .version 9.0 for each target of TARGETS (the ptxas --gpu-name list of CUDA 13.0, and
    sm_50, sm_60 and sm_70 as .target under --gpu-name sm_75), and
  * at the first PTX ISA version that accepts it and the one before, for the lowest target that
    accepts it (and the lowest plain target, if that is another one). The first version is found
    by binary search over the versions that know the target, parsed only (--gpu-name compute_XY,
    fast; legality is decided before code generation); the two versions kept are then assembled
    for the real GPU.

Files written next to this script:
  forms.jsonl     {"form": id, "source": corpus case id, "ptx": module} (.version/.target are
                  replaced by each case's)
  verdicts.tsv    form, version, then one column per target: A (accepted), R<n> (rejected with
                  message n) or empty (not assembled)
  messages.tsv    n, first ptxas error line (file and line number removed)

ptxas runs on up to 100 modules of one .version and .target at once (each in its own file, the
entry renamed so the files link), under nice, with --jobs (default 2) processes. A module's verdict is the first error
ptxas reports in its file; modules without an error are run again without the failing ones
until ptxas succeeds, so errors found only after parsing are attributed too; modules with
declarations that could clash across files (.extern, .func, module-scope variables) and 32-bit
modules run alone.

Usage: generate.py [--jobs N] [--limit N]
"""
import argparse, collections, concurrent.futures as cf, glob, json, os, re, subprocess, tempfile, zlib
import gzip

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PTXAS = os.environ.get("PTXAS", "ptxas")
GPU_NAMES = ["sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
             "sm_100f", "sm_103", "sm_103a", "sm_103f", "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a",
             "sm_120f", "sm_121", "sm_121a", "sm_121f"]
TARGETS = ["sm_50", "sm_60", "sm_70"] + GPU_NAMES
# ptxas 13.0 versions and the first version of each target (isa/Target.java, measured).
VERSIONS = ["2.3", "3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "6.1", "6.2", "6.3", "6.4",
            "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1", "8.2", "8.3",
            "8.4", "8.5", "8.6", "8.7", "8.8", "9.0"]
TARGET_INTRODUCED = {"sm_50": "4.0", "sm_60": "5.0", "sm_70": "6.0", "sm_75": "6.3", "sm_80": "7.0",
                     "sm_86": "7.1", "sm_87": "7.4", "sm_88": "7.3", "sm_89": "7.8", "sm_90": "7.8",
                     "sm_90a": "8.0", "sm_100": "8.6", "sm_100a": "8.6", "sm_100f": "8.8", "sm_103": "8.8",
                     "sm_103a": "8.8", "sm_103f": "8.8", "sm_110": "9.0", "sm_110a": "9.0", "sm_110f": "9.0",
                     "sm_120": "8.7", "sm_120a": "8.7", "sm_120f": "8.8", "sm_121": "8.8", "sm_121a": "8.8",
                     "sm_121f": "8.8"}
LATEST = "9.0"
# A rejection for the module's target or version only: the form may exist elsewhere.
TARGET_OR_VERSION = re.compile(r"requires (PTX ISA|\.target)|not supported on|\.target sm_|PTX ISA version|"
                               r"requires sm_|or later|or higher|\.version")
BATCH = 100


def vkey(v):
    return tuple(int(x) for x in v.split("."))


def gpu_for(target):
    return target if target in GPU_NAMES else "sm_75"


def shape(ptx):
    """The instructions of a module, each as its opcode and qualifiers and its operands' kinds."""
    body = ptx.split("{", 1)[1] if "{" in ptx else ptx
    out = []
    for s in body.split(";"):
        s = re.sub(r"^[A-Za-z_$][\w$]*:\s*", "", s.strip())
        if not s or s[0] in ".{}/":
            continue
        s = re.sub(r"^@!?%\w+\s+", "", s)
        mnemonic, _, ops = s.partition(" ")
        ops = re.sub(r"%[\w$]+(\.[xyzw])?", "r", ops)
        ops = re.sub(r"\b(0[fFdD][0-9a-fA-F]+|0x[0-9a-fA-F]+|\d+)\b", "i", ops)
        ops = re.sub(r"[A-Za-z_$][\w$]*", "s", ops)
        out.append(mnemonic + " " + re.sub(r"\s+", "", ops))
    return "\n".join(out)


def with_header(ptx, version, target):
    ptx = re.sub(r"(?m)^\.version \S+$", ".version " + version, ptx, count=1)
    return re.sub(r"(?m)^\.target \S+$", ".target " + target, ptx, count=1)


def representatives():
    files = sorted(glob.glob(os.path.join(ROOT, "conformance", "*.jsonl.gz")))
    files += sorted(f for f in glob.glob(os.path.join(ROOT, "check", "*.jsonl.gz")) if "special-registers" not in f)
    accepted, target_rejected = {}, {}
    for fn in files:
        for line in gzip.decompress(open(fn, "rb").read()).decode().splitlines():
            c = json.loads(line)
            if not re.search(r"(?m)^\.version \S+$", c["ptx"]) or not re.search(r"(?m)^\.target \S+$", c["ptx"]):
                continue
            k = shape(c["ptx"])
            if c["ptxas"] == "accept":
                accepted.setdefault(k, c)
            elif TARGET_OR_VERSION.search(c["message"]):
                target_rejected.setdefault(k, c)
    forms = {}
    for k, c in list(accepted.items()) + [(k, c) for k, c in target_rejected.items() if k not in accepted]:
        fid = format(zlib.crc32(k.encode()), "08x")
        assert fid not in forms, "form id collision " + fid
        forms[fid] = {"form": fid, "source": c["id"], "ptx": c["ptx"]}
    return forms


def runs_alone(ptx):
    module_scope = ptx.split("{", 1)[0]
    # A 32-bit module makes ptxas give up on every file of the run (32-bit addressing is not
    # supported on sm_90 or higher), without naming the file.
    return ".address_size 64" not in module_scope or ".extern" in ptx or ".func" in ptx or re.search(r"(?m)^\.(global|const|shared)\b", module_scope) is not None


LINE = re.compile(r"^ptxas (\S+), line \d+; (?:error|fatal)\s*: (.*)$")
OTHER = re.compile(r"^ptxas (?:error|fatal)\s*: (.*)$")


CACHE_FILE = os.environ.get("SWEEP_CACHE", os.path.join(tempfile.gettempdir(), "ptx-sweep-cache.jsonl"))
CACHE = {}
CACHE_LOCK = __import__("threading").Lock()


def cache_key(gpu, text):
    return gpu + ":" + format(zlib.crc32(text.encode()), "08x") + format(len(text), "x")


def ptxas(gpu, modules):
    """modules: list of (key, text). Returns {key: (accepted, first message)}, from the cache where
    the same module was assembled for the same GPU before (an interrupted run resumes)."""
    out = {k: tuple(CACHE[cache_key(gpu, t)]) for k, t in modules if cache_key(gpu, t) in CACHE}
    todo = [(k, t) for k, t in modules if k not in out]
    fresh = assemble_now(gpu, todo)
    texts = dict(todo)
    with CACHE_LOCK, open(CACHE_FILE, "a") as f:
        for k, v in fresh.items():
            CACHE[cache_key(gpu, texts[k])] = v
            f.write(json.dumps([cache_key(gpu, texts[k]), v]) + "\n")
    out.update(fresh)
    return out


def assemble_now(gpu, modules):
    if not modules:
        return {}
    with tempfile.TemporaryDirectory() as d:
        names = {}
        for i, (key, text) in enumerate(modules):
            name = f"m{i}.ptx"
            names[name] = key
            if len(modules) > 1:
                text = re.sub(r"\.entry k\b", f".entry k_{i}", text)
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        r = subprocess.run(["nice", PTXAS, "--gpu-name", gpu, "-o", "/dev/null"] + list(names), cwd=d,
                           capture_output=True, text=True)
    first, unattributed = {}, False
    for line in (r.stdout + r.stderr).splitlines():
        m = LINE.match(line)
        if m and m.group(1) in names:
            msg = re.sub(r"\bk_\d+\b", "k", line.split("; ", 1)[1])
            first.setdefault(names[m.group(1)], msg)
        elif OTHER.match(line) and "Ptx assembly aborted due to errors" not in line:
            unattributed = True
    if r.returncode == 0 and not first:
        return {k: (True, "") for k, _ in modules}
    if len(modules) == 1:
        k = modules[0][0]
        return {k: (False, first.get(k) or (r.stdout + r.stderr).strip().splitlines()[0])}
    out = {k: (False, m) for k, m in first.items() if "Duplicate definition" not in m}
    rest = [(k, t) for k, t in modules if k not in out]
    if unattributed or len(rest) == len(modules):
        half = len(rest) // 2
        out.update(assemble_now(gpu, rest[:half]))
        out.update(assemble_now(gpu, rest[half:]))
    else:
        out.update(assemble_now(gpu, rest))
    return out


def assemble(jobs, cases, parse_only=False):
    """cases: {(form, target, version): text} -> {(form, target, version): (accepted, message)}.
    parse_only: for the virtual architecture (compute_XY), which ptxas checks without generating
    code; used only to find where a verdict changes, never as a label."""
    gpu_for_target = (lambda t: gpu_for(t).replace("sm_", "compute_")) if parse_only else gpu_for
    batches = []
    # ptxas links the files of one run into one program: they must share .version and .target.
    groups = collections.defaultdict(list)
    for key, text in sorted(cases.items()):
        if runs_alone(text):
            batches.append((gpu_for_target(key[1]), [(key, text)]))
        else:
            groups[(key[1], key[2])].append((key, text))
    for (target, _), items in sorted(groups.items(), key=lambda e: (TARGETS.index(e[0][0]), vkey(e[0][1]))):
        for i in range(0, len(items), BATCH):
            batches.append((gpu_for_target(target), items[i:i + BATCH]))
    out = {}
    print(f"  {len(cases)} modules in {len(batches)} runs of ptxas", flush=True)
    with cf.ThreadPoolExecutor(jobs) as ex:
        for done, res in enumerate(ex.map(lambda b: ptxas(*b), batches)):
            out.update(res)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="only the first N forms (a trial run)")
    args = ap.parse_args()
    if os.path.exists(CACHE_FILE):
        for line in open(CACHE_FILE):
            k, v = json.loads(line)
            CACHE[k] = v
    forms = representatives()
    ids = sorted(forms)[:args.limit] if args.limit else sorted(forms)
    print(len(ids), "forms")

    # 1. Every target at the latest version.
    results = assemble(args.jobs, {(f, t, LATEST): with_header(forms[f]["ptx"], LATEST, t)
                                   for f in ids for t in TARGETS})
    # 2. The first version, at the lowest accepting target and the lowest accepting plain target.
    sweep_at = {}
    for f in ids:
        ok = [t for t in TARGETS if results[(f, t, LATEST)][0]]
        sweep_at[f] = sorted({t for t in ok[:1] + [t for t in ok if t[-1].isdigit()][:1]}, key=TARGETS.index)
    # Binary search for the first accepted version, parsed only; 9.0 is accepted.
    ladder = {}
    for f in ids:
        for t in sweep_at[f]:
            lo = vkey(TARGET_INTRODUCED[t])
            ladder[(f, t)] = [v for v in VERSIONS if vkey(v) >= lo]
    bounds = {p: [0, len(vs) - 1] for p, vs in ladder.items()}
    while True:
        probe = {}
        for (f, t), (a, b) in bounds.items():
            if a < b:
                v = ladder[(f, t)][(a + b) // 2]
                probe[(f, t, v)] = with_header(forms[f]["ptx"], v, t)
        if not probe:
            break
        print(len(probe), "version probes")
        found = assemble(args.jobs, probe, parse_only=True)
        for (f, t, v), (ok, _) in found.items():
            a, b = bounds[(f, t)]
            mid = (a + b) // 2
            bounds[(f, t)] = [a, mid] if ok else [mid + 1, b]
    # Keep the first accepted version and the one before it (below the target's first version,
    # that is the version that does not know the target), assembled for the real GPU.
    kept = {}
    for (f, t), (a, _) in bounds.items():
        first = ladder[(f, t)][a]
        before = VERSIONS[VERSIONS.index(first) - 1] if VERSIONS.index(first) > 0 else None
        for v in (first, before):
            if v and v != LATEST:
                kept[(f, t, v)] = with_header(forms[f]["ptx"], v, t)
    print(len(kept), "modules at the first version and the one before")
    results.update(assemble(args.jobs, kept))

    messages = {}
    rows = collections.defaultdict(dict)
    for (f, t, v), (ok, msg) in sorted(results.items(), key=lambda e: (e[0][0], vkey(e[0][2]), TARGETS.index(e[0][1]))):
        rows[(f, v)][t] = "A" if ok else "R" + str(messages.setdefault(msg, len(messages) + 1))
    with open(os.path.join(HERE, "forms.jsonl"), "w") as out:
        for f in ids:
            out.write(json.dumps(forms[f]) + "\n")
    with open(os.path.join(HERE, "verdicts.tsv"), "w") as out:
        out.write("form\tversion\t" + "\t".join(TARGETS) + "\n")
        for (f, v) in sorted(rows, key=lambda k: (k[0], vkey(k[1]))):
            out.write(f + "\t" + v + "\t" + "\t".join(rows[(f, v)].get(t, "") for t in TARGETS) + "\n")
    with open(os.path.join(HERE, "messages.tsv"), "w") as out:
        out.write("n\tmessage\n")
        for msg, n in sorted(messages.items(), key=lambda e: e[1]):
            out.write(f"{n}\t{msg}\n")
    n = len(results)
    print(f"{len(ids)} forms, {n} modules, {sum(ok for ok, _ in results.values())} accepted")


if __name__ == "__main__":
    main()
