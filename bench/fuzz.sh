#!/usr/bin/env bash
# The fuzzing campaign (not part of the test suite; CI runs the stored findings and a seeded smoke
# run, see src/test/java/io/ptxrun/fuzz). For each target it prints the inputs tried, crashes
# (any input that did not end in diagnostics or a result), hangs and, for the coverage-guided
# part, the coverage Jazzer reached.
#
#   bench/fuzz.sh [SECONDS-PER-TARGET] [random|guided|both] [SEED] [TARGET...]
#
# random: seeded inputs without coverage feedback (structured mutations of the testdata corpora),
#   fast, in one JVM; findings go to target/fuzz-findings/TARGET/.
# guided: Jazzer (libFuzzer, coverage of io.ptxrun) on each @FuzzTest of TargetsFuzzTest, one
#   Maven run per target, an input over 30 s counting as a hang (a JUnit timeout would instead
#   bound the whole session); its corpus grows in .cifuzz-corpus/, findings land as crash-* files in the
#   project root. Turn a finding into a regression case with its materialised files (Targets.materialise)
#   under testdata/fuzz/regressions/TARGET/NAME/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
mode="${2:-both}"
seed="${3:-1}"
shift $(( $# < 3 ? $# : 3 ))
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(parse-bytes parse-mutated check-mutated launch-bytes launch-mutated launch-args run-mutated)
cd "$root"
mvn -q -B test-compile
mvn -q -B dependency:build-classpath -Dmdep.outputFile=target/fuzz-classpath.txt >/dev/null
status=0
findings() { find . -maxdepth 1 -name 'crash-*' | wc -l; }

if [[ $mode == random || $mode == both ]]; then
  echo "== random inputs, ${seconds}s per target, seed $seed"
  java -Xss16m -Xmx2g -cp "target/test-classes:target/classes:$(cat target/fuzz-classpath.txt)" \
    io.ptxrun.fuzz.FuzzCampaign "$seconds" "$seed" "${targets[@]}" || status=1
fi

if [[ $mode == guided || $mode == both ]]; then
  echo "== coverage-guided (Jazzer), ${seconds}s per target"
  printf '%-16s %10s %8s %6s %8s\n' target inputs crashes hangs coverage
  for t in "${targets[@]}"; do
    method=$(echo "$t" | sed -E 's/-(.)/\U\1/g')
    log="target/fuzz-$t.log"
    before=$(findings)
    JAZZER_FUZZ=1 mvn -B test -Dtest="TargetsFuzzTest#$method" -Dsurefire.failIfNoSpecifiedTests=false \
      -Djazzer.instrumentation_includes='io.ptxrun.**' -Djazzer.custom_hook_includes='io.ptxrun.**' \
      -Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1="-max_total_time=$seconds" \
      -Djazzer.internal.arg.2=-print_final_stats=1 -Djazzer.internal.arg.3=-timeout=30 > "$log" 2>&1 || status=1
    inputs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    cov=$(grep -o 'DONE *cov: [0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    crashes=$(( $(findings) - before ))
    hangs=$(grep -c 'ERROR: libFuzzer: timeout' "$log" || true)
    printf '%-16s %10s %8s %6s %8s\n' "$t" "${inputs:-?}" "$crashes" "$hangs" "${cov:-?}"
  done
fi
exit $status
