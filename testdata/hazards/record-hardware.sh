#!/bin/bash
# Runs every case's bug.ptx (twice) and fixed.ptx on the GPU through the gpu-reference harness,
# and each of them under compute-sanitizer's racecheck, synccheck and initcheck; writes the raw
# output to OUTDIR/raw/<case>-<twin>.{run1,run2}.json and .{racecheck,synccheck,initcheck}.txt.
# summarize-hardware.py turns that into each case's hardware.json.
#   record-hardware.sh HAZARDS_DIR HARNESS_PY OUTDIR [PARALLEL]
set -u
hazards=$1 harness=$2 out=$3 parallel=${4:-8}
sanitizer=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
mkdir -p "$out/raw" "$out/cases"
{
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader |
        awk -F', ' '{ printf "%s (compute capability %s), driver %s", $1, $3, $2 }'
    printf ', compute-sanitizer %s' "$("$sanitizer" --version | sed -n 's/^Version \([^ ]*\).*/\1/p')"
    python3 -c 'import cuda.bindings; print(", cuda-bindings", cuda.bindings.__version__)'
} > "$out/raw/environment.txt" 2>&1
for dir in "$hazards"/*/; do
    case=$(basename "$dir")
    [ -f "$dir/bug.ptx" ] || continue
    for twin in bug fixed; do
        mkdir -p "$out/cases/$case-$twin"
        cp "$dir/$twin.ptx" "$out/cases/$case-$twin/kernel.ptx"
        cp "$dir/launch.json" "$out/cases/$case-$twin/launch.json"
    done
done
# One line per job: what to run, the case folder, where the output goes.
jobs=$out/jobs.txt
: > "$jobs"
for d in "$out"/cases/*; do
    name=$(basename "$d")
    echo "run $d $out/raw/$name.run1.json" >> "$jobs"
    case $name in *-bug) echo "run $d $out/raw/$name.run2.json" >> "$jobs" ;; esac
done
for tool in synccheck initcheck racecheck; do
    for d in "$out"/cases/*; do
        echo "$tool $d $out/raw/$(basename "$d").$tool.txt" >> "$jobs"
    done
done
export harness sanitizer
# The sanitizer command lines (see README.md):
#   compute-sanitizer --tool racecheck --racecheck-report all --show-backtrace device --print-limit 100000 python3 harness.py DIR
#   compute-sanitizer --tool synccheck --show-backtrace device --print-limit 100000 python3 harness.py DIR
#   compute-sanitizer --tool initcheck --show-backtrace device --print-limit 100000 python3 harness.py DIR
one() {
    what=$1 dir=$2 dest=$3
    case $what in
        run) HARNESS_TIMEOUT_S=5 timeout -k 5 30 python3 "$harness" "$dir" > "$dest" 2>&1 ;;
        racecheck) HARNESS_TIMEOUT_S=20 timeout -k 5 60 "$sanitizer" --tool racecheck --racecheck-report all \
                       --show-backtrace device --print-limit 100000 python3 "$harness" "$dir" > "$dest" 2>&1 ;;
        *) HARNESS_TIMEOUT_S=20 timeout -k 5 60 "$sanitizer" --tool "$what" --show-backtrace device \
               --print-limit 100000 python3 "$harness" "$dir" > "$dest" 2>&1 ;;
    esac
    echo "exit $?" >> "$dest"
}
export -f one
xargs -P "$parallel" -L 1 bash -c 'one "$@"' _ < "$jobs"
