#!/usr/bin/env bash
# Validator benchmark (not part of CI): checks N small modules (the first N accepted cases of the
# ptxas-labelled conformance corpus) in one `ptxrun check` invocation, and runs `ptxas` once per
# module, as a CI job would; prints both wall times and their ratio.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-200}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 - "$root/testdata/conformance" "$dir" "$n" <<'PY'
import json, os, sys, glob, gzip
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
k = 0
for f in sorted(glob.glob(os.path.join(src, "*.jsonl.gz"))):
    for line in gzip.decompress(open(f, "rb").read()).decode().splitlines():
        c = json.loads(line)
        if c["ptxas"] == "accept" and k < n:
            open(os.path.join(out, f"case{k:04d}--{c['target']}.ptx"), "w").write(c["ptx"])
            k += 1
PY
"$root/ptxrun" --version >/dev/null
s=$(date +%s.%N); "$root/ptxrun" check "$dir"/*.ptx; e=$(date +%s.%N)
t_ptxrun=$(echo "$s $e" | awk '{print $2-$1}')
if ! command -v ptxas >/dev/null; then echo "ptxrun check, $n files: $t_ptxrun s (ptxas not installed)"; exit 0; fi
s=$(date +%s.%N)
for f in "$dir"/*.ptx; do t=${f##*--}; ptxas --gpu-name "${t%.ptx}" -o /dev/null "$f"; done
e=$(date +%s.%N)
t_ptxas=$(echo "$s $e" | awk '{print $2-$1}')
echo "$t_ptxrun $t_ptxas $n" | awk '{printf "%d files: ptxrun check (one process) %.2f s, ptxas (one process each) %.2f s, ratio %.1fx\n", $3, $1, $2, $2/$1}'
