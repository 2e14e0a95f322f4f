#!/usr/bin/env python3
"""Generate special-registers.jsonl.gz: every special register of PTX ISA chapter 10, read by a mov of
its width (and of the wrong width), at PTX ISA versions and targets from sm_75 to sm_120a, each
labelled by ptxas. Same format as testdata/conformance: id, target, version, ptx, ptxas
(accept/reject), message, about.

Usage: generate_special_registers.py   (runs ptxas once per case, under nice)
"""
import json, os, re, subprocess, tempfile
from casefiles import write_gz

HERE = os.path.dirname(os.path.abspath(__file__))
PROLOGUE = ".reg .pred %p<3>; .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .b16 %h<3>;\n"

# register -> its width (1 = predicate)
REGISTERS = {}
for axis in "xyz":
    for r in ["%tid", "%ntid", "%ctaid", "%nctaid", "%cluster_ctaid", "%cluster_nctaid", "%clusterid",
              "%nclusterid"]:
        REGISTERS[f"{r}.{axis}"] = 32
for r in ["%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt",
          "%lanemask_ge", "%lanemask_gt", "%clock", "%clock_hi", "%globaltimer_lo", "%globaltimer_hi",
          "%total_smem_size", "%aggr_smem_size", "%dynamic_smem_size", "%reserved_smem_offset_begin",
          "%reserved_smem_offset_end", "%reserved_smem_offset_cap", "%reserved_smem_offset_0",
          "%reserved_smem_offset_1", "%cluster_ctarank", "%cluster_nctarank", "%pm0", "%pm7", "%envreg0",
          "%envreg31"]:
    REGISTERS[r] = 32
for r in ["%gridid", "%clock64", "%globaltimer", "%pm0_64", "%pm7_64", "%current_graph_exec"]:
    REGISTERS[r] = 64
REGISTERS["%is_explicit_cluster"] = 1

COMBOS = [("6.3", "sm_75"), ("7.0", "sm_80"), ("7.7", "sm_86"), ("7.8", "sm_89"), ("7.8", "sm_90"),
          ("8.0", "sm_90"), ("8.0", "sm_90a"), ("8.6", "sm_100a"), ("8.7", "sm_120a"), ("9.0", "sm_120")]

MOV = {1: "mov.pred %p1", 16: "mov.u16 %h1", 32: "mov.u32 %r1", 64: "mov.u64 %rd1"}


def module(instr, version, target):
    return (f".version {version}\n.target {target}\n.address_size 64\n.visible .entry k() {{\n"
            f"{PROLOGUE}{instr}\nret;\n}}\n")


def ptxas(ptx, target):
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(ptx)
    try:
        r = subprocess.run(["nice", "ptxas", "--gpu-name", target, "-o", "/dev/null", f.name],
                           capture_output=True, text=True)
        msgs = [l for l in (r.stdout + r.stderr).splitlines() if re.search(r"(error|fatal)\s*:", l)]
        msg = re.sub(r"^ptxas \S+, line \d+; ", "", msgs[0]) if msgs else ""
        return ("accept" if r.returncode == 0 else "reject"), msg.replace(f.name, "FILE")
    finally:
        os.unlink(f.name)


def main():
    out = []
    for reg, width in REGISTERS.items():
        reads = [MOV[width]]
        # The wrong width: a 64-bit register read into 32 bits and the other way round.
        reads.append(MOV[{1: 32, 32: 64, 64: 32}[width]])
        for version, target in COMBOS:
            for head in reads:
                instr = f"{head}, {reg};"
                verdict, message = ptxas(module(instr, version, target), target)
                out.append({"id": f"special-registers/{instr[:-1].replace(' ', '_')}/{version}/{target}",
                            "target": target, "version": version, "ptx": module(instr, version, target),
                            "ptxas": verdict, "message": message, "about": instr})
    write_gz(os.path.join(HERE, "special-registers.jsonl.gz"), "".join(json.dumps(c) + "\n" for c in out))
    print(len(out), "cases,", sum(c["ptxas"] == "accept" for c in out), "accepted")


if __name__ == "__main__":
    main()
