#!/usr/bin/env bash
# ptxrun on the GPU Ocelot side-by-side kernels (PEER_DIR, default /work/shared/bench/peer-ocelot):
# launch rates per compilation mode, worker count and hazard detector setting next to the figures
# recorded there for Ocelot's LLVM JIT, then whole-process times of the command line (JVM start,
# parse, launch, output) per compilation mode. Not part of the test suite; best of N (default 3).
# Usage: peer-ocelot.sh [REPS [KERNEL]] (KERNEL: arith, sgemm or diverge; all three when absent).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
peer="${PEER_DIR:-/work/shared/bench/peer-ocelot}"
reps="${1:-3}"
only="${2:-}"
(cd "$root" && mvn -q -DskipTests package)
out="$root/target/bench-classes"
mkdir -p "$out"
javac -d "$out" -cp "$root/target/ptxrun.jar" "$root/bench/src/io/ptxrun/bench/PeerOcelotRate.java" \
  "$root/bench/src/io/ptxrun/bench/Measure.java"
java -XX:+UseSerialGC -Xss16m -cp "$root/target/ptxrun.jar:$out" io.ptxrun.bench.PeerOcelotRate "$peer" "$reps" $only

# Whole process, as the command line runs it (./ptxrun: its Java, start-up cache and compiler
# choice): one worker and two, hazard detector on (the default), and off for --compile hot.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
java -cp "$root/target/ptxrun.jar:$out" io.ptxrun.bench.PeerOcelotRate --sgemm-launch > "$tmp/sgemm.json"
echo "whole process (best of $reps): seconds wall, CPU seconds (user+sys), the launch's thread-instructions per second"
for k in ${only:-arith sgemm diverge}; do
  launch="$peer/kernels/$k.json"
  [[ $k == sgemm ]] && launch="$tmp/sgemm.json"
  # The compilation modes with the detector on (the default), then hot with it off.
  for run in none hot all "hot --no-hazards"; do
    read -r mode hazards <<< "$run"
    for workers in 1 2; do
      best=""
      for ((r = 0; r < reps; r++)); do
        /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$root/ptxrun" \
          "$peer/kernels/$k.sm90.ptx" --launch "$launch" --json --cta-threads "$workers" --compile "$mode" $hazards \
          > "$tmp/out"
        # The launch's own rate in this fresh process (as bench.py measures it), from the result's stats.
        rate="$(grep -o '"instructions":[0-9]*,"wallMillis":[0-9]*' "$tmp/out" \
          | awk -F'[:,]' '{printf "%.3g", $2 / ($4 > 0 ? $4 : 1) * 1000}')"
        t="$(awk -v r="$rate" '{printf "%.2f %.2f %s", $1, $2 + $3, r}' "$tmp/time")"
        if [[ -z "$best" ]] || awk -v a="${t%% *}" -v b="${best%% *}" 'BEGIN{exit !(a < b)}'; then best="$t"; fi
      done
      read -r wall cpu rate <<< "$best"
      printf '%-8s --compile %-4s %-12s %d worker(s): %s s wall, %s CPU-s, launch %s /s\n' "$k" "$mode" \
        "${hazards:-}" "$workers" "$wall" "$cpu" "$rate"
    done
  done
done
