#!/usr/bin/env bash
# Regenerates the corpus of real nvcc output in testdata/nvcc/ from the CUDA sources in src/ and large/.
#
# For every src/<name>.cu the line "// nvcc-targets: ..." lists its targets (sm_80, sm_90, sm_90a):
#   <name>.<target>.ptx            nvcc -ptx -arch=<target>                  (every listed target)
#   <name>.<target>.lineinfo.ptx   the same with -lineinfo                   (sm_90 / sm_90a only)
#   <name>.<target>.G.ptx          the same with -G (device debug info)      (sm_90 / sm_90a only)
# large/radix_sort_many.cu gives large/radix_sort_many.sm_90.ptx (the parser benchmark input).
#
# Every .ptx is then assembled with `ptxas --gpu-name <target> -o /dev/null`; the verdicts go to
# ptxas-verdicts.tsv (file, target, verdict accept/reject, first message of ptxas or "-").
# The script fails if any file is rejected.
#
# Output is deterministic: nvcc writes the source path (and a hash of it, in the names of internal
# functions and variables) into the PTX, so the sources are compiled from a fixed staging directory,
# not from wherever this checkout lives; and -frandom-seed=<name> replaces the random part nvcc
# otherwise puts into those names (without it they change from one compile to the next).
#
# Usage: testdata/nvcc/regen.sh [--time-large | --time-only]
#   --time-large  also measure ptxas on the large file (/usr/bin/time -v, 3 runs) into large/ptxas-time.txt
#   --time-only   only that measurement, on the large PTX as it is
# Environment: NVCC, PTXAS (tools, default from PATH), JOBS (parallel compiles, default 2).
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NVCC=${NVCC:-nvcc}
PTXAS=${PTXAS:-ptxas}
JOBS=${JOBS:-2}
STAGE=/tmp/ptxrun-nvcc-regen
TIME_LARGE=0
[[ "${1:-}" == "--time-large" ]] && TIME_LARGE=1

time_large() {
    local big="$HERE/large/radix_sort_many.sm_90.ptx" i
    {
        echo "# /usr/bin/time -v $PTXAS --gpu-name sm_90 -o /dev/null large/radix_sort_many.sm_90.ptx, 3 runs"
        echo "# input: $(wc -l <"$big") lines, $(wc -c <"$big") bytes; $("$PTXAS" --version | sed -n "s/^Cuda compilation tools, /ptxas /p")"
        echo "# host: $(nproc) CPU cores shared with other work; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
        for i in 1 2 3; do
            echo "## run $i"
            (cd "$HERE" && /usr/bin/time -v "$PTXAS" --gpu-name sm_90 -o /dev/null large/radix_sort_many.sm_90.ptx 2>&1) |
                grep -E 'Elapsed \(wall clock\)|User time|System time|Maximum resident set size|Exit status'
        done
    } >"$HERE/large/ptxas-time.txt"
    cat "$HERE/large/ptxas-time.txt"
}

if [[ "${1:-}" == "--time-only" ]]; then
    time_large
    exit 0
fi

exec 9>"/tmp/ptxrun-nvcc-regen.lock"
flock 9

rm -rf "$STAGE"
mkdir -p "$STAGE/src" "$STAGE/large" "$STAGE/out/large"
cp "$HERE"/src/*.cu "$STAGE/src/"
cp "$HERE"/large/*.cu "$STAGE/large/"
touch -d '2000-01-01 00:00:00 UTC' "$STAGE"/src/*.cu "$STAGE"/large/*.cu
OUTDIR="$STAGE/out"

targets_of() {
    local t
    t=$(sed -n 's|^// nvcc-targets:[[:space:]]*||p' "$1" | head -n 1)
    if [[ -z "$t" ]]; then
        echo "regen.sh: $1 has no '// nvcc-targets:' line" >&2
        return 1
    fi
    echo "$t"
}

# Job lines: <stage dir> <source file> <target> <variant> <output path>
jobs_file="$STAGE/jobs.txt"
: >"$jobs_file"
for src in "$HERE"/src/*.cu; do
    name=$(basename "$src" .cu)
    for target in $(targets_of "$src"); do
        echo "$STAGE/src $name.cu $target plain $OUTDIR/$name.$target.ptx" >>"$jobs_file"
        case "$target" in
            sm_90|sm_90a)
                echo "$STAGE/src $name.cu $target lineinfo $OUTDIR/$name.$target.lineinfo.ptx" >>"$jobs_file"
                echo "$STAGE/src $name.cu $target G $OUTDIR/$name.$target.G.ptx" >>"$jobs_file"
                ;;
        esac
    done
done
echo "$STAGE/large radix_sort_many.cu sm_90 plain $OUTDIR/large/radix_sort_many.sm_90.ptx" >>"$jobs_file"

compile_one() {
    local dir=$1 file=$2 target=$3 variant=$4 out=$5
    local extra=()
    case "$variant" in
        lineinfo) extra=(-lineinfo) ;;
        G) extra=(-G) ;;
    esac
    (cd "$dir" && "$NVCC" -std=c++17 -arch="$target" -ptx -frandom-seed="${file%.cu}" "${extra[@]}" "$file" -o "$out.tmp" 2>"$out.log") || {
        echo "regen.sh: nvcc failed for $file ($target, $variant):" >&2
        cat "$out.log" >&2
        rm -f "$out.log" "$out.tmp"
        return 1
    }
    rm -f "$out.log"
    mv "$out.tmp" "$out"
    echo "  $(basename "$out")"
}
export -f compile_one
export NVCC

echo "compiling with $("$NVCC" --version | tail -n 1)"
xargs -P "$JOBS" -L 1 bash -c 'compile_one "$@"' _ <"$jobs_file"

# Everything compiled: replace the previous outputs (files of deleted sources do not linger).
rm -f "$HERE"/*.ptx "$HERE"/large/*.ptx
mv "$OUTDIR"/*.ptx "$HERE/"
mv "$OUTDIR"/large/*.ptx "$HERE/large/"

# ptxas verdicts
verdicts="$HERE/ptxas-verdicts.tsv"
printf 'file\ttarget\tverdict\tfirst_message\n' >"$verdicts.tmp"
rejected=0
while IFS= read -r rel; do
    f="$HERE/$rel"
    target=$(sed -n 's|^\.target[[:space:]]*\([a-z0-9_]*\).*|\1|p' "$f" | head -n 1)
    if msg=$("$PTXAS" --gpu-name "$target" -o /dev/null "$f" 2>&1); then
        verdict=accept
    else
        verdict=reject
        rejected=$((rejected + 1))
    fi
    first=$(printf '%s\n' "$msg" | sed '/^[[:space:]]*$/d' | head -n 1 | tr '\t' ' ')
    # ptxas names the file it read; keep the path relative so the table does not depend on the checkout
    first=${first//"$HERE/"/}
    printf '%s\t%s\t%s\t%s\n' "$rel" "$target" "$verdict" "${first:--}" >>"$verdicts.tmp"
done < <(cd "$HERE" && find . -name '*.ptx' -printf '%P\n' | sort)
mv "$verdicts.tmp" "$verdicts"
echo "ptxas: $(($(wc -l <"$verdicts") - 1)) files, $rejected rejected (see $(basename "$verdicts"))"

{
    "$NVCC" --version | sed -n 's/^Cuda compilation tools, //p; s/^Build //p'
    "$PTXAS" --version | sed -n 's/^Cuda compilation tools, /ptxas /p'
} >"$HERE/toolchain.txt"

[[ $TIME_LARGE == 1 ]] && time_large

rm -rf "$STAGE"
[[ $rejected == 0 ]]
