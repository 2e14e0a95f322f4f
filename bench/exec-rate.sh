#!/usr/bin/env bash
# Interpreter benchmarks (not part of the test suite): thread-instructions per second for a
# converged loop, a divergent loop and a scaled-up tiled SGEMM, on one CTA thread and on one per
# processor, with peak heap. Wall-clock rates vary with machine load; the rate per CPU-second
# (process CPU time, JIT and GC included) much less so. Rates are the best of N samples (default 3),
# each at least a second of launches back to back.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
reps="${1:-3}"
(cd "$root" && mvn -q -DskipTests package)
out="$root/target/bench-classes"
mkdir -p "$out"
javac -d "$out" -cp "$root/target/ptxrun.jar" "$root/bench/src/io/ptxrun/bench/ExecRate.java" "$root/bench/src/io/ptxrun/bench/Measure.java"
java -XX:+UseParallelGC -Xmx2g -Xss16m -cp "$root/target/ptxrun.jar:$out" io.ptxrun.bench.ExecRate "$root" "$reps"
