#!/usr/bin/env bash
# Start-up benchmark (not part of CI), whole processes as a user runs them:
#  1. `./ptxrun check` on a small nvcc module and on a tiny one, against
#     `ptxas --gpu-name sm_90a -o /dev/null` on the same file: median and best wall time and the
#     median CPU time (user + system, all threads) of RUNS interleaved runs each, and the ratios;
#     for the Java the launcher picks with its start-up cache, without it
#     (PTXRUN_STARTUP_CACHE=off), and with every other Java 17+ under /usr/lib/jvm. On a machine
#     that others load, the CPU time varies less than the wall time;
#  2. many files in one `ptxrun check` process against one ptxas process per file: WILD modules
#     of testdata/wild (spread over its projects) and CASES small modules of the conformance
#     corpus; time per file and the ratio.
# Usage: bench/startup.sh [RUNS]   (env WILD=60 CASES=200)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-15}"
small="$root/testdata/nvcc/reduce.sm_90.ptx"
tiny="$root/testdata/limits/count.ptx"
command -v ptxas >/dev/null || { echo "ptxas is not installed: nothing to compare with" >&2; exit 1; }
# Builds the jar and the start-up caches of check and of a run if needed.
"$root/ptxrun" --version >/dev/null
"$root/ptxrun" check "$tiny" >/dev/null 2>&1 || true

# Wall and CPU time (user + system, the command's and its children's) of one run in
# milliseconds, "WALL CPU": the shell's own `time`, so that no clock process is started in the
# measured interval.
run_ms() {
  local TIMEFORMAT='%3R %3U %3S' t
  t="$( { time "$@" >/dev/null 2>&1; } 2>&1 )" || true
  awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' <<<"$t"
}
ms() { local w c; read -r w c <<<"$(run_ms "$@")"; echo "$w"; }
stats() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END{printf "%d %d", v[int((NR+1)/2)], v[1]}'; }

# The variants of ptxrun: a label and the environment it runs with.
labels=("default") envs=("")
labels+=("no cache") envs+=("PTXRUN_STARTUP_CACHE=off")
chosen="$(PTXRUN_JAVA_OPTS=-XshowSettings:properties "$root/ptxrun" --version 2>&1 | awk '/java.home =/{print $3}')"
for java in /usr/lib/jvm/*/bin/java; do
  home="$(readlink -f "${java%/bin/java}")"
  major="$("$java" -XshowSettings:properties -version 2>&1 | awk '/java.specification.version =/{print $3}')"
  if [[ "$home" != "$chosen" && "${major:-0}" -ge 17 && ! " ${seen:-} " =~ " $home " ]]; then
    seen="${seen:-} $home"
    # The first check makes this Java's cache.
    PTXRUN_JAVA="$java" "$root/ptxrun" check "$tiny" >/dev/null 2>&1 || true
    labels+=("Java $major") envs+=("PTXRUN_JAVA=$java")
  fi
done
echo "ptxrun runs on $chosen by default; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

for file in "$small" "$tiny"; do
  lines=$(wc -l < "$file")
  declare -A times=() cpus=()
  ptxas_times=() ptxas_cpus=()
  for _ in $(seq "$runs"); do
    for k in "${!labels[@]}"; do
      # The variant's environment is set in a subshell, outside the measured interval.
      read -r w c <<<"$( [[ -z "${envs[$k]}" ]] || export "${envs[$k]}"; run_ms "$root/ptxrun" check "$file")"
      times[$k]+="$w " cpus[$k]+="$c "
    done
    read -r w c <<<"$(run_ms ptxas --gpu-name sm_90a -o /dev/null "$file")"
    ptxas_times+=("$w") ptxas_cpus+=("$c")
  done
  read -r pm pb <<<"$(stats "${ptxas_times[@]}")"
  read -r pc _ <<<"$(stats "${ptxas_cpus[@]}")"
  echo "${file#"$root"/} ($lines lines), $runs interleaved runs:   wall median, best;  CPU median"
  printf '  %-26s %5d ms %5d ms   %5d ms\n' "ptxas" "$pm" "$pb" "$pc"
  for k in "${!labels[@]}"; do
    # shellcheck disable=SC2086
    read -r m b <<<"$(stats ${times[$k]})"
    # shellcheck disable=SC2086
    read -r c _ <<<"$(stats ${cpus[$k]})"
    printf '  %-26s %5d ms %5d ms   %5d ms   %.1fx ptxas (wall median)\n' "ptxrun check, ${labels[$k]}" "$m" "$b" \
      "$c" "$(echo "$m $pm" | awk '{print $1/$2}')"
  done
  unset times cpus
done

# Many files: one ptxrun process against one ptxas process per file, each for the GPU of its module.
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 - "$root" "$dir" "${WILD:-60}" "${CASES:-200}" <<'PY'
import csv, gzip, json, glob, os, sys
root, out, wild, cases = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = list(csv.DictReader(open(os.path.join(root, "testdata/wild/manifest.tsv")), delimiter="\t"))
rows = [r for r in rows if r["ptxas"] == "accept"]
step = max(1, len(rows) // max(1, wild))
with open(os.path.join(out, "wild.list"), "w") as f:
    for r in rows[::step][:wild]:
        path = os.path.join(root, "testdata/wild", r["file"])
        if path.endswith(".gz"):  # large modules are stored gzipped: both tools read the plain text
            plain = os.path.join(out, os.path.basename(path)[:-3])
            open(plain, "wb").write(gzip.decompress(open(path, "rb").read()))
            path = plain
        f.write(f"{path}\t{r['gpu']}\n")
os.makedirs(os.path.join(out, "cases"))
k = 0
with open(os.path.join(out, "cases.list"), "w") as f:
    for path in sorted(glob.glob(os.path.join(root, "testdata/conformance/*.jsonl.gz"))):
        for line in gzip.decompress(open(path, "rb").read()).decode().splitlines():
            c = json.loads(line)
            if c["ptxas"] == "accept" and k < cases:
                p = os.path.join(out, "cases", f"case{k:04d}.ptx")
                open(p, "w").write(c["ptx"])
                f.write(f"{p}\t{c['target']}\n")
                k += 1
PY
for set in wild cases; do
  files=(); gpus=()
  while IFS=$'\t' read -r f g; do files+=("$f"); gpus+=("$g"); done < "$dir/$set.list"
  n=${#files[@]}
  lines=$(cat "${files[@]}" | wc -l)
  t_ptxrun=$(ms "$root/ptxrun" check "${files[@]}")
  s=$(date +%s%N)
  for i in "${!files[@]}"; do ptxas --gpu-name "${gpus[$i]}" -o /dev/null "${files[$i]}" >/dev/null 2>&1 || true; done
  t_ptxas=$(( ($(date +%s%N) - s) / 1000000 ))
  echo "$set: $n files, $lines lines: ptxrun check (one process) $t_ptxrun ms ($(echo "$t_ptxrun $n" | awk '{printf "%.1f", $1/$2}') ms/file)," \
    "ptxas (one process each) $t_ptxas ms ($(echo "$t_ptxas $n" | awk '{printf "%.1f", $1/$2}') ms/file)," \
    "ptxas/ptxrun $(echo "$t_ptxas $t_ptxrun" | awk '{printf "%.1f", $1/$2}')x"
done
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
