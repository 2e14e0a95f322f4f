#!/usr/bin/env bash
# Rebuilds kernel.ptx of the run, bug and spin cases written in CUDA (a kernel.cu beside launch.json):
# nvcc -ptx -arch=sm_90 -lineinfo, from the fixed directory /tmp/ptxrun-nvcc-cases/<case>/ so that
# the .file path in the PTX does not depend on where this checkout lives, then ptxas checks it.
# (The larger corpus of testdata/nvcc has its own regen.sh.)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NVCC=${NVCC:-nvcc}
PTXAS=${PTXAS:-ptxas}
STAGE=/tmp/ptxrun-nvcc-cases
for cu in "$HERE"/run/*/kernel.cu "$HERE"/bugs/*/kernel.cu "$HERE"/spin/*/kernel.cu; do
    dir=$(dirname "$cu")
    name=$(basename "$dir")
    arch=$(sed -n 's|^// nvcc-arch: *||p' "$cu")
    arch=${arch:-sm_90}
    rm -rf "${STAGE:?}/$name" && mkdir -p "$STAGE/$name"
    cp "$cu" "$STAGE/$name/kernel.cu"
    (cd "$STAGE/$name" && "$NVCC" -ptx -arch="$arch" -lineinfo -o kernel.ptx kernel.cu)
    "$PTXAS" --gpu-name "$arch" -o /dev/null "$STAGE/$name/kernel.ptx"
    cp "$STAGE/$name/kernel.ptx" "$dir/kernel.ptx"
    echo "$name"
done
