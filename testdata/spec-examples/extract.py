#!/usr/bin/env python3
"""Extract the PTX code examples of the PTX ISA markdown text into test data.

Usage:
    python3 extract.py [SPEC_DIR] [-o OUT_DIR]

SPEC_DIR is the folder holding the spec markdown (``*.md`` and ``isa/*.md``);
it defaults to /work/shared/spec.  OUT_DIR defaults to the folder of this
script.  Python 3 standard library only.

For every code block of an *Examples* part of a markdown file the script
writes ``OUT_DIR/<md-path>/<NN>.<kind>.ptx`` where <md-path> is the markdown
path relative to SPEC_DIR without ``.md`` (``isa/add``, ``mbarrier``), NN is the 1-based index of
the example block within that markdown file and kind is ``module`` (the block
defines functions/entries or carries module directives) or ``stmts`` (a list
of statements).  The first line of each file is a comment naming the source.

Lines that are not valid PTX as printed (ellipses, preprocessor lines,
placeholder operands, known typos that no PTX grammar accepts, statements
without their terminating ';') are left out and listed in
``OUT_DIR/excluded.tsv`` together with the reason.  Nothing else is changed.
"""

import argparse
import os
import re
import shutil
import sys

SECTION_NAMES = {
    "Syntax", "Description", "Semantics", "Examples", "PTX ISA Notes",
    "Target ISA Notes", "Notes", "Note",
}
# Lines of the rendered HTML that are noise, not section markers.
IGNORED_MARKERS = {"Copy to clipboard"}

# Lines that no PTX grammar accepts but that the generic rules below do not
# describe well.  Keyed by (markdown path relative to SPEC_DIR, stripped
# line text); applies to every example block of that file.
OVERRIDES = {
    ("isa/brx.md", ".function foo () {"):
        "'.function' is not a PTX directive (the function header of this "
        "example; its body is kept as statements)",
    ("isa/brx.md", "}"):
        "closing brace of the left-out '.function' header",
    ("isa/call.md", ".func dispatch (.reg .u32 fptr, .reg .u32 idx)"):
        "function header whose body is elided with '...' and never closed",
    ("isa/call.md", "{"):
        "opening brace of the left-out '.func dispatch' body (never closed)",
    ("isa/cvt.md",
     "cvt.rz.relu.satfinite.bf16.f3 2    b, f;        "
     "// convert fp32 to bf16 with .relu and .satfinite saturation"):
        "typo: '.f3 2' (space inside the type '.f32')",
    ("async-copy.md",
     "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint} "
     "[dstMem], [srcMem], size, cache-policy;"):
        "typo: stray '}' after the opcode; placeholder operand 'cache-policy'",
}

R_ELLIPSIS_ONLY = "ellipsis line (elided code)"
R_ELLIPSIS_IN = "ellipsis inside a statement (elided operand or body)"
R_PREPROC = "C preprocessor directive"
R_HYPHEN = "placeholder operand name containing '-' (not a PTX identifier)"
R_ANGLE = "placeholder in angle brackets"
R_NOSEMI = "statement not terminated by ';'"
R_NOCOMMA = "operands not separated by ','"
R_CONT = "part of a left-out multi-line statement"
R_PSEUDO = "C code or pseudo-code, not a PTX statement"

FUNC_HEADER = re.compile(
    r"^\s*(?:\.(?:visible|extern|weak|common)\s+)*\.(?:entry|func)\b")
# Directives complete without a ';'.
LINE_DIRECTIVE = re.compile(r"^\s*\.(?:version|target|address_size|file|loc|section)\b")
MODULE_DIRECTIVE = re.compile(
    r"^\s*(?:\.(?:visible|extern|weak|common)\s+)*"
    r"\.(?:entry|func|version|target|address_size|file|section)\b")


# ---------------------------------------------------------------------------
# markdown scanning

def example_blocks(text):
    """Yield (first line number, list of lines) of each Examples code block."""
    lines = text.split("\n")
    section = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^#+\s*(.*?)\s*$", line)
        if m and not line.startswith("#define") and not line.startswith("#include"):
            title = m.group(1)
            section = title if title in SECTION_NAMES else "heading"
            i += 1
            continue
        if line.strip() in IGNORED_MARKERS:
            i += 1
            continue
        if line == line.lstrip() and line.strip() in SECTION_NAMES:
            section = line.strip()
            i += 1
            continue
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            if section == "Examples":
                yield i + 2, lines[i + 1:j]
            i = j + 1
            continue
        if line.startswith("    ") and (i == 0 or lines[i - 1].strip() == ""):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or lines[j].strip() == ""):
                j += 1
            if section == "Examples":
                yield i + 1, [x[4:] if x.startswith("    ") else x.strip() for x in lines[i:j]]
            i = j
            continue
        i += 1


def remove_lines(lines, drop):
    """Drop the lines whose index is in `drop`; a dropped line that follows a
    blank line takes the blank lines after it along, so that the spacing
    reads as if the statement had not been there."""
    out = []
    skip_blank = False
    for idx, line in enumerate(lines):
        if idx in drop:
            skip_blank = skip_blank or not out or out[-1].strip() == ""
            continue
        if line.strip() == "" and skip_blank:
            continue
        skip_blank = False
        out.append(line)
    return out


def trim_blank(lines):
    start, end = 0, len(lines)
    while start < end and lines[start].strip() == "":
        start += 1
    while end > start and lines[end - 1].strip() == "":
        end -= 1
    return lines[start:end]


# ---------------------------------------------------------------------------
# line analysis

def code_parts(lines):
    """Return, per line, the text with comments removed (block comments may span lines)."""
    out = []
    in_block = False
    for line in lines:
        code = []
        k = 0
        while k < len(line):
            if in_block:
                end = line.find("*/", k)
                if end < 0:
                    k = len(line)
                else:
                    in_block = False
                    k = end + 2
                continue
            if line.startswith("//", k):
                break
            if line.startswith("/*", k):
                in_block = True
                k += 2
                continue
            if line[k] == '"':
                end = line.find('"', k + 1)
                end = len(line) if end < 0 else end + 1
                code.append(line[k:end])
                k = end
                continue
            code.append(line[k])
            k += 1
        out.append("".join(code).rstrip())
    return out


LABEL_ONLY = re.compile(r"^[A-Za-z_$%][\w$]*\s*:$")
LABEL_PREFIX = re.compile(r"^[A-Za-z_$%][\w$]*\s*:(?!:)\s*")
GUARD = re.compile(r"^@!?%?[\w$]+\s+")
OPCODE = re.compile(r"^[A-Za-z_][\w$]*(?:\.[\w:]+)*")


def is_continuation(code):
    """Whether a line's code looks like the rest of the previous statement."""
    s = code.strip()
    if s.startswith("[") or (s.startswith("{") and s != "{"):
        return True
    return re.match(r"^[%A-Za-z_$][\w$]*\s*,", s) is not None


def terminated(code):
    s = code.strip()
    return (s.endswith(";") or LINE_DIRECTIVE.match(s) is not None or s in ("{", "}") or s.endswith("{") or s.endswith("..")
            or LABEL_ONLY.match(s) is not None)


def line_rules(code):
    """Reasons that apply to one line's code on its own."""
    s = code.strip()
    reasons = []
    if re.match(r"^#\s*[a-z]+", s):
        reasons.append(R_PREPROC)
    elif re.fullmatch(r"\.{2,}", s):
        reasons.append(R_ELLIPSIS_ONLY)
    elif re.search(r"\.{2,}(?![\w])", s) or re.search(r"(?:^|[\s,(\[{])\.{2,}", s):
        reasons.append(R_ELLIPSIS_IN)
    if re.search(r"(?<![\w$%.])[A-Za-z_][\w$]*-[A-Za-z_][\w$]*", s):
        reasons.append(R_HYPHEN)
    if re.search(r"<[^>0-9][^>]*>", s):
        reasons.append(R_ANGLE)
    return reasons


def statement_rules(code):
    """Reasons that apply to a whole (joined) instruction statement."""
    s = code.strip()
    s = LABEL_PREFIX.sub("", s, count=1) if not s.startswith(".") else s
    s = GUARD.sub("", s, count=1)
    if not s or s.startswith((".", "{", "}", "#")):
        return []
    m = OPCODE.match(s)
    if not m:
        return []
    rest = s[m.end():]
    rest = rest.strip().rstrip(";")
    if "=" in rest or re.search(r"\+\+|--|&&|\|\||\+=|-=|<<|>>", rest):
        return [R_PSEUDO]
    if re.search(r"[\w$\])}]\s+[%\w$\[{(]", rest):
        return [R_NOCOMMA]
    return []


def analyse_block(md, lines):
    """Return {line index: [reasons]} for the lines to leave out."""
    codes = code_parts(lines)
    reasons = {}

    def add(idx, reason):
        lst = reasons.setdefault(idx, [])
        if reason not in lst:
            lst.append(reason)

    for idx, line in enumerate(lines):
        key = (md, line.strip())
        if key in OVERRIDES:
            add(idx, OVERRIDES[key])
            continue
        for r in line_rules(codes[idx]):
            add(idx, r)

    # Group code lines into statements.  A statement ends at ';', '{', '}' or
    # a label; an unterminated statement followed by a line that does not
    # look like a continuation lacks its ';'.
    groups = []
    current = []
    for idx, code in enumerate(codes):
        if not code.strip():
            continue
        if idx in reasons and (codes[idx].strip() == "" or
                               R_ELLIPSIS_ONLY in reasons[idx] or
                               R_PREPROC in reasons[idx] or
                               (md, lines[idx].strip()) in OVERRIDES):
            if current:
                groups.append((current, False))
                current = []
            groups.append(([idx], True))
            continue
        header = bool(current) and FUNC_HEADER.match(codes[current[0]]) is not None
        if current and not header and not is_continuation(code):
            groups.append((current, False))
            current = []
        current.append(idx)
        if terminated(code) or (header and code.strip().endswith("{")):
            groups.append((current, True))
            current = []
    if current:
        groups.append((current, False))

    for members, ok in groups:
        if any((md, lines[i].strip()) in OVERRIDES for i in members):
            continue
        bad = []
        if not ok:
            bad.append(R_NOSEMI)
        bad += statement_rules(" ".join(codes[i].strip() for i in members))
        for r in bad:
            for i in members:
                add(i, r)
        if any(i in reasons for i in members):
            for i in members:
                if i not in reasons:
                    add(i, R_CONT)
    return reasons


def is_module(kept_codes):
    return any(MODULE_DIRECTIVE.match(c) for c in kept_codes)


# ---------------------------------------------------------------------------

def md_files(spec_dir):
    top = sorted(f for f in os.listdir(spec_dir)
                 if f.endswith(".md") and f != "README.md")
    isa_dir = os.path.join(spec_dir, "isa")
    isa = sorted(f for f in os.listdir(isa_dir) if f.endswith(".md")) \
        if os.path.isdir(isa_dir) else []
    return top + ["isa/" + f for f in isa]


def only_ptx(path):
    for root, _, files in os.walk(path):
        if any(not f.endswith(".ptx") for f in files):
            return False
    return True


def clean_out_dir(out_dir):
    """Remove what an earlier run generated (folders holding only .ptx files, excluded.tsv)."""
    for name in os.listdir(out_dir):
        path = os.path.join(out_dir, name)
        if os.path.isdir(path) and only_ptx(path):
            shutil.rmtree(path)
    tsv = os.path.join(out_dir, "excluded.tsv")
    if os.path.exists(tsv):
        os.remove(tsv)


def tsv_field(s):
    return s.replace("\t", "\\t").replace("\n", "\\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec_dir", nargs="?", default="/work/shared/spec")
    ap.add_argument("-o", "--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args(argv)

    clean_out_dir(args.out)
    excluded = []
    n_blocks = n_files = n_module = n_lines_out = 0
    for md in md_files(args.spec_dir):
        with open(os.path.join(args.spec_dir, md), encoding="utf-8") as fh:
            text = fh.read()
        stem = os.path.splitext(md)[0]
        for number, (_, raw) in enumerate(example_blocks(text), start=1):
            n_blocks += 1
            lines = trim_blank(raw)
            reasons = analyse_block(md, lines)
            kept_codes = [c for i, c in enumerate(code_parts(lines)) if i not in reasons]
            if not any(c.strip() for c in kept_codes):
                excluded.append((md, str(number), "(whole block)",
                                 "no PTX statement left: " +
                                 "; ".join(sorted({r for v in reasons.values() for r in v}))
                                 if reasons else "no PTX statement"))
                continue
            for i in sorted(reasons):
                excluded.append((md, str(number), lines[i].strip(), "; ".join(reasons[i])))
                n_lines_out += 1
            kind = "module" if is_module(kept_codes) else "stmts"
            n_module += kind == "module"
            folder = os.path.join(args.out, stem)
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, "%02d.%s.ptx" % (number, kind))
            body = "\n".join(trim_blank(remove_lines(lines, reasons)))
            with open(path, "w", encoding="utf-8", newline="\n") as fh:
                fh.write("// from %s, example block %d\n%s\n" % (md, number, body))
            n_files += 1

    with open(os.path.join(args.out, "excluded.tsv"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write("md_file\tblock\tline\treason\n")
        for row in excluded:
            fh.write("\t".join(tsv_field(x) for x in row) + "\n")
    print("%d example blocks, %d files written (%d module, %d stmts), "
          "%d lines left out" % (n_blocks, n_files, n_module, n_files - n_module, n_lines_out),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
