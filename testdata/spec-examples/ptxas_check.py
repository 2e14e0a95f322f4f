#!/usr/bin/env python3
"""Rough syntax check of the extracted examples with ptxas.

Usage:
    python3 ptxas_check.py [--ptxas PTXAS] [--gpu sm_100a] [--version 9.0]

Each ``*.stmts.ptx`` file is wrapped in a kernel (no extra declarations, so
ptxas reports undeclared names, which is expected and ignored) and each
``*.module.ptx`` file gets a ``.version``/``.target`` header.  ptxas stops at
the first parse error; the offending line is then commented out and ptxas is
run again, so that every line ptxas cannot parse is found.  Messages other
than the expected ones for undeclared operands are recorded as well.

Writes ``ptxas-notes.tsv`` next to this script: file, line (in the .ptx
file), line text, kind (``syntax`` for parse errors, ``other`` for further
diagnostics), ptxas message.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

# Consequences of the missing declarations of the wrapped statements.
EXPECTED = (
    "Unknown symbol",
    "Arguments mismatch",
    "Illegal expression",
    "Unable to infer type",
    "Unknown field",
    "Illegal operand type to instruction",
    "Predicate expression expected",
    "Ptx assembly aborted",
)
MSG = re.compile(r"^ptxas [^,]*, line (\d+); (\w+)\s*: (.*)$")


def wrap(text, module, version, gpu):
    head = ".version %s\n.target %s\n.address_size 64\n" % (version, gpu)
    if module:
        return head, 3
    return head + ".visible .entry spec_example()\n{\n", 5


def run_ptxas(ptxas, gpu, source):
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as fh:
        fh.write(source)
        name = fh.name
    try:
        proc = subprocess.run(["nice", ptxas, "--gpu-name", gpu, "-o", os.devnull, name],
                              capture_output=True, text=True)
    finally:
        os.remove(name)
    msgs = []
    for line in (proc.stdout + proc.stderr).splitlines():
        m = MSG.match(line.strip())
        if m:
            msgs.append((int(m.group(1)), m.group(2), m.group(3).strip()))
    return msgs


def check(path, ptxas, gpu, version):
    module = path.endswith(".module.ptx")
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    head, offset = wrap("", module, version, gpu)
    tail = "" if module else "\n}\n"
    notes = []
    for _ in range(len(lines)):
        msgs = run_ptxas(ptxas, gpu, head + "\n".join(lines) + tail)
        fatal = [m for m in msgs if m[1] == "fatal" and "Parsing error" in m[2]]
        if fatal:
            n = fatal[0][0] - offset - 1
            if 0 <= n < len(lines):
                with open(path, encoding="utf-8") as fh:
                    original = fh.read().split("\n")[n]
                notes.append((n + 1, original.strip(), "syntax", fatal[0][2]))
                lines[n] = "// " + lines[n]
                continue
            notes.append((0, "", "syntax", fatal[0][2]))
            break
        seen = set()
        for ln, _, text in msgs:
            if text.startswith(EXPECTED):
                continue
            n = ln - offset - 1
            if (n, text) in seen:
                continue
            seen.add((n, text))
            src = lines[n].strip() if 0 <= n < len(lines) else ""
            notes.append((n + 1, src, "other", text))
        break
    return notes


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptxas", default="ptxas")
    ap.add_argument("--gpu", default="sm_100a")
    ap.add_argument("--version", default="9.0")
    args = ap.parse_args(argv)

    files = sorted(glob.glob(os.path.join(here, "**", "*.ptx"), recursive=True))
    rows = []
    n_syntax_files = 0
    for path in files:
        rel = os.path.relpath(path, here)
        notes = check(path, args.ptxas, args.gpu, args.version)
        if any(k == "syntax" for _, _, k, _ in notes):
            n_syntax_files += 1
        for ln, src, kind, msg in notes:
            rows.append((rel, str(ln), src, kind, msg))
    with open(os.path.join(here, "ptxas-notes.tsv"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write("file\tline\ttext\tkind\tptxas_message\n")
        for row in rows:
            fh.write("\t".join(x.replace("\t", " ") for x in row) + "\n")
    print("%d files checked with %s (%s, PTX %s): %d with lines ptxas cannot parse, "
          "%d notes" % (len(files), args.ptxas, args.gpu, args.version, n_syntax_files, len(rows)),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
