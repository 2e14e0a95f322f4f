#!/usr/bin/env bash
# Synchronization benchmarks (not part of CI), 64 CTAs x 256 threads each, one core, each with the
# hazard detector off and on, and the detector's overhead (ratio of the two):
#  1. cp.async double-buffered pipeline (commit_group / wait_group 1 / bar.sync), thread-instructions/s;
#  2. mbarrier producer/consumer ring (try_wait.parity loops), thread-instructions/s;
#  3. time until a deadlocked kernel (half the arrivals missing, try_wait polling) is reported.
# Each is the best of 12 launches in one JVM: on one core the optimizing compiler shares it with
# the launches, and with 5 the detector's overhead moved between 1.1x and 2.2x from run to run.
# Optional argument: the --async-copies timing (default lazy).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
timing="${1:-lazy}"
"$root/ptxrun" --version >/dev/null            # builds the jar if needed
out="$root/target/bench-classes"
mkdir -p "$out"
javac -d "$out" -cp "$root/target/ptxrun.jar" "$root/bench/src/io/ptxrun/bench/SyncRate.java"
k="$root/bench/kernels"
taskset -c 0 java -XX:+UseSerialGC -Xss16m -cp "$root/target/ptxrun.jar:$out" io.ptxrun.bench.SyncRate 12 "$timing" \
  "$k/cpasync-pipeline" "$k/mbarrier-prodcons" "$k/mbarrier-deadlock"
