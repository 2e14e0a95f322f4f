#!/usr/bin/env python3
"""Condenses what record-hardware.sh wrote, and writes each case's hardware.json.

    summarize-hardware.py parse RAWDIR > parsed.json
        every run result, and per compute-sanitizer run: its summary line, exit status, and each
        distinct report (message with addresses and thread numbers removed, and the source
        lines it names) with how often it occurred
    summarize-hardware.py write HAZARDS_DIR parsed.json [parsed.json ...]
        writes HAZARDS_DIR/<case>/hardware.json from one or more recordings (their bug runs are
        compared with each other)
"""
import collections, json, os, re, sys

TOOLS = ("racecheck", "synccheck", "initcheck")
PREFIX = "========= "


def parse_sanitizer(text):
    """Distinct reports of one compute-sanitizer output: [(signature, lines, count)], summary."""
    blocks, cur = [], []
    for raw in text.splitlines():
        if not raw.startswith("========="):
            continue
        line = raw[len(PREFIX):] if raw.startswith(PREFIX) else ""
        if not line.strip():
            if cur:
                blocks.append(cur)
            cur = []
        elif not line.startswith(" "):  # a new report starts at column 0
            if cur:
                blocks.append(cur)
            cur = [line]
        else:
            cur.append(line.strip())
    if cur:
        blocks.append(cur)
    summary, reports = [], collections.Counter()
    for b in blocks:
        head = b[0]
        if head.startswith(("ERROR SUMMARY", "RACECHECK SUMMARY", "COMPUTE-SANITIZER", "Target application", "Program hit", "Internal")):
            if "SUMMARY" in head or "Internal" in head or "Program hit" in head:
                summary.append(head)
            continue
        msg = re.sub(r"0x[0-9a-f]+", "ADDR", head)
        msg = re.sub(r"\(\d+,\d+,\d+\)", "(..)", msg)
        sites = []
        for l in b[1:]:
            m = re.search(r"(Write|Read|at|by).*? in ([\w./+-]+:\d+)", l)
            if m and not l.startswith("by thread"):
                sites.append((m.group(1) if m.group(1) in ("Write", "Read") else "at") + " " + m.group(2))
            elif l.startswith("Device Frame:"):
                f = re.search(r" in ([\w./+-]+:\d+)", l)
                if f:
                    sites.append("frame " + f.group(1))
        reports[(msg, tuple(sites))] += 1
    return [{"message": m, "sites": list(s), "count": n} for (m, s), n in reports.most_common()], summary


def parse(rawdir):
    out = {}
    for name in sorted(os.listdir(rawdir)):
        m = re.match(r"(.+)-(bug|fixed)\.(run\d|racecheck|synccheck|initcheck)\.(json|txt)$", name)
        if not m:
            continue
        case, twin, what = m.group(1), m.group(2), m.group(3)
        text = open(os.path.join(rawdir, name), errors="replace").read()
        exit_line = re.findall(r"^exit (\d+)$", text, re.M)
        entry = out.setdefault(case, {}).setdefault(twin, {})
        if what.startswith("run"):
            first = next((l for l in text.splitlines() if l.startswith("{")), None)
            entry[what] = json.loads(first) if first else {"status": "no result", "output": text[-2000:]}
        else:
            reports, summary = parse_sanitizer(text)
            entry[what] = {"exit": int(exit_line[-1]) if exit_line else None, "summary": summary, "reports": reports}
            if not summary:
                entry[what]["tail"] = text[-1500:]
    env = os.path.join(rawdir, "environment.txt")
    return {"environment": open(env).read().strip() if os.path.exists(env) else "", "cases": out}


def cuda_lines(reports, source):
    lines = set()
    for r in reports:
        for s in r["sites"]:
            f, _, n = s.split(" ", 1)[1].rpartition(":")
            if f == source:
                lines.add(int(n))
    return sorted(lines)


def write(hazards_dir, parsed_files):
    recs = [json.load(open(p)) for p in parsed_files]
    for case in sorted(os.listdir(hazards_dir)):
        exp_path = os.path.join(hazards_dir, case, "expected.json")
        if not os.path.exists(exp_path):
            continue
        expected = json.load(open(exp_path))
        have = [r for r in recs if case in r["cases"]]
        if not have:
            continue
        last = have[-1]["cases"][case]
        bug_runs = [r["cases"][case]["bug"][k] for r in have for k in ("run1", "run2") if k in r["cases"][case]["bug"]]
        fixed_runs = [r["cases"][case]["fixed"]["run1"] for r in have if "run1" in r["cases"][case]["fixed"]]
        strip = lambda r: {k: r[k] for k in ("status", "buffers", "diagnostics") if k in r}
        hw = {"recordedOn": have[-1]["environment"],
              "bug": strip(bug_runs[0]),
              "bugRuns": len(bug_runs),
              "bugRunsAgree": all(strip(r) == strip(bug_runs[0]) for r in bug_runs),
              "fixed": strip(fixed_runs[0]),
              "fixedRuns": len(fixed_runs),
              "fixedRunsAgree": all(strip(r) == strip(fixed_runs[0]) for r in fixed_runs),
              "bugResultDiffersFromFixed": [strip(r) != strip(fixed_runs[0]) for r in bug_runs]}
        if not hw["bugRunsAgree"]:
            # only what differs from the first run
            first = strip(bug_runs[0])
            hw["bugOtherResults"] = [
                {"status": r.get("status"), "buffers": {k: b for k, b in r.get("buffers", {}).items() if first.get("buffers", {}).get(k) != b}}
                for r in map(strip, bug_runs[1:]) if r != first][:3]
        want = sorted({l for h in expected["hazards"] for l in h["cuda"]})
        san = {}
        for tool in TOOLS:
            t = {}
            for twin in ("bug", "fixed"):
                s = last[twin].get(tool)
                if s is None:
                    continue
                found = bool(s["reports"])
                lines = cuda_lines(s["reports"], twin + ".cu")
                t[twin] = {"reported": found,
                           "summary": "; ".join(s["summary"]) if s["summary"] else "no summary (exit %s)" % s["exit"],
                           "cudaLines": lines,
                           "first": s["reports"][:3] if found else "no hazard found"}
                other = sorted({x.split(" ", 1)[1] for r in s["reports"] for x in r["sites"]} - {"%s.cu:%d" % (twin, l) for l in lines})
                if other:
                    t[twin]["otherSites"] = other  # frames in headers (inlined library code) or helper lines
                if twin == "bug":
                    t[twin]["expectedLinesNamed"] = [l for l in want if l in lines]
                if "tail" in s:
                    t[twin]["outputTail"] = s["tail"]
            san[tool] = t
        hw["computeSanitizer"] = san
        with open(os.path.join(hazards_dir, case, "hardware.json"), "w") as f:
            f.write(compact(hw) + "\n")


def compact(v, ind=0):
    """JSON with one key per line, but lists of numbers and small objects on one line."""
    pad = " " * (ind + 1)
    if isinstance(v, dict) and len(json.dumps(v)) > 100 and not ("type" in v and "values" in v):
        return "{\n" + ",\n".join(pad + json.dumps(k) + ": " + compact(x, ind + 1) for k, x in v.items()) + "\n" + " " * ind + "}"
    if isinstance(v, list) and len(json.dumps(v)) > 100 and any(isinstance(x, (dict, list)) for x in v):
        return "[\n" + ",\n".join(pad + compact(x, ind + 1) for x in v) + "\n" + " " * ind + "]"
    return json.dumps(v)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "parse":
        json.dump(parse(sys.argv[2]), sys.stdout, indent=1)
    elif len(sys.argv) >= 4 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
