#!/usr/bin/env bash
# Parser benchmarks (not part of CI):
#  1. steady-state parse rate, lines/s, one core (taskset), on the large nvcc module, by wall time
#     and by the parsing thread's CPU time (less sensitive to other load);
#  2. `ptxrun check` vs `ptxas --gpu-name sm_90` on the same file, whole processes, JVM start-up
#     included (best and median of RUNS=10 interleaved runs each), and their ratio.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-$root/testdata/nvcc/large/radix_sort_many.sm_90.ptx}"
"$root/ptxrun" --version >/dev/null            # builds the jar and the start-up archive if needed
out="$root/target/bench-classes"
mkdir -p "$out"
javac -d "$out" -cp "$root/target/ptxrun.jar" "$root/bench/src/io/ptxrun/bench/ParseRate.java"
taskset -c 0 java -XX:+UseSerialGC -Xmn600m -Xss16m -cp "$root/target/ptxrun.jar:$out" io.ptxrun.bench.ParseRate "$file" 20

# Whole processes, JVM start-up included, interleaved so that both see the same machine state;
# best and median of N runs each.
runs="${RUNS:-10}"
times_ptxrun=(); times_ptxas=()
elapsed() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc; }
for _ in $(seq "$runs"); do
  times_ptxrun+=("$(elapsed "$root/ptxrun" check "$file")")
  if command -v ptxas >/dev/null; then
    times_ptxas+=("$(elapsed ptxas --gpu-name sm_90 -o /dev/null "$file")")
  fi
done
stats() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END{printf "%.3f %.3f", v[1], v[int((NR+1)/2)]}'; }
read -r best_r med_r <<<"$(stats "${times_ptxrun[@]}")"
if [[ ${#times_ptxas[@]} -gt 0 ]]; then
  read -r best_a med_a <<<"$(stats "${times_ptxas[@]}")"
  echo "$best_r $med_r $best_a $med_a $runs" | awk '{printf "ptxrun check: best %.3f s, median %.3f s; ptxas: best %.3f s, median %.3f s (%d runs each, interleaved)\nptxas/ptxrun: %.2fx by best, %.2fx by median\n", $1, $2, $3, $4, $5, $3/$1, $4/$2}'
else
  echo "ptxrun check: best $best_r s, median $med_r s (ptxas not installed)"
fi
