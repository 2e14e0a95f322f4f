#!/usr/bin/env bash
# Parser benchmarks (not part of CI):
#  1. steady-state parse rate, lines/s, one core (taskset), on the large nvcc module, by wall time
#     and by the parsing thread's CPU time (less sensitive to other load);
#  2. `ptxrun check` vs `ptxas --gpu-name sm_90` on the same file, whole processes, JVM start-up
#     included (best of 5 each), and their ratio.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-$root/testdata/nvcc/large/radix_sort_many.sm_90.ptx}"
"$root/ptxrun" --version >/dev/null            # builds the jar and the start-up archive if needed
out="$root/target/bench-classes"
mkdir -p "$out"
javac -d "$out" -cp "$root/target/ptxrun.jar" "$root/bench/src/io/ptxrun/bench/ParseRate.java"
taskset -c 0 java -XX:+UseSerialGC -Xmn600m -Xss16m -cp "$root/target/ptxrun.jar:$out" io.ptxrun.bench.ParseRate "$file" 20

best() {  # best wall time in seconds of 5 runs of a command
  local b=999
  for _ in 1 2 3 4 5; do
    local s e
    s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    b=$(echo "$b $s $e" | awk '{t=$3-$2; print (t<$1)?t:$1}')
  done
  echo "$b"
}
t_ptxrun=$(best "$root/ptxrun" check "$file")
if command -v ptxas >/dev/null; then
  t_ptxas=$(best ptxas --gpu-name sm_90 -o /dev/null "$file")
  echo "$t_ptxrun $t_ptxas" | awk '{printf "ptxrun check: %.3f s, ptxas: %.3f s, ptxas/ptxrun = %.2fx\n", $1, $2, $2/$1}'
else
  echo "ptxrun check: $t_ptxrun s (ptxas not installed)"
fi
