#!/usr/bin/env bash
# TMA pipeline benchmark (not part of CI): the warp-specialised, 4-stage TMA + mbarrier SGEMM of
# testdata/run/tma-gemm-pipeline (producer warp, full/empty mbarrier ring, TMA store epilogue) at
# M x N x K (default 512 x 512 x 512: 64 CTAs x 160 threads, about 1.6e8 thread-instructions), on
# one thread: thread-instructions per second by wall clock and per CPU-second (process CPU time,
# JIT and GC included; on a shared machine the CPU-time rate is the one to compare), and the peak
# heap. The result of the last run is checked against numpy (A and B rebuilt from the launch
# file's SplitMix64 seeds), so a kernel that computes something else fails the benchmark.
# Usage: bench/tma-gemm.sh [M N K [REPETITIONS]]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
m="${1:-512}"; n="${2:-512}"; k="${3:-512}"; reps="${4:-3}"
"$root/ptxrun" --version >/dev/null            # builds the jar if needed
out="$root/target/bench-classes"
mkdir -p "$out"
javac -d "$out" -cp "$root/target/ptxrun.jar" "$root/bench/src/io/ptxrun/bench/TmaGemmRate.java" "$root/bench/src/io/ptxrun/bench/Measure.java"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/gemm_launch.py" "$m" "$n" "$k" >"$work/launch.json"
echo "tma-gemm-pipeline ${m}x${n}x${k}: $((n / 64 * m / 64)) CTAs x 160 threads, one interpreter thread"
java -XX:+UseSerialGC -Xss16m -cp "$root/target/ptxrun.jar:$out" io.ptxrun.bench.TmaGemmRate \
  "$root/testdata/run/tma-gemm-pipeline/kernel.ptx" "$work/launch.json" "$work/result.json" "$reps"
python3 "$root/bench/gemm_reference.py" "$work/launch.json" "$work/result.json" "$m" "$n" "$k"
