#!/usr/bin/env bash
# Records ptxas's verdict on every run, bug and spin kernel (for the GPU its .target names) into
# ptxas-verdicts.tsv, so that tests can compare `ptxrun check` with it where CUDA is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
{
  printf '# kernel\tgpu\tptxas\n'
  for f in run/*/kernel.ptx bugs/*/kernel.ptx spin/*/kernel.ptx; do
    gpu=$(grep -m1 '^[[:space:]]*\.target' "$f" | sed 's/.*\.target[[:space:]]*//; s/[,;[:space:]].*//')
    if ptxas --gpu-name "$gpu" -o /dev/null "$f" >/dev/null 2>&1; then v=accept; else v=reject; fi
    printf '%s\t%s\t%s\n' "$f" "$gpu" "$v"
  done
} > run/ptxas-verdicts.tsv
