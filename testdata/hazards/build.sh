#!/bin/sh
# Regenerates bug.ptx and fixed.ptx of every case (or of the cases named) from its CUDA source,
#   nvcc -ptx -arch=sm_90a -lineinfo -o <twin>.ptx <twin>.cu
# and checks that ptxas assembles each for sm_90a. Needs nvcc and ptxas (CUDA 13.0 made the
# committed files). The sources are compiled in /tmp/ptxrun-hazards/<case>/ so that the source
# path nvcc writes into the .file directive does not depend on where this checkout lives.
set -eu
cd "$(dirname "$0")"
here=$(pwd)
stage=/tmp/ptxrun-hazards
status=0
if [ $# -eq 0 ]; then set -- */; fi
for dir in "$@"; do
    case=$(basename "$dir")
    [ -f "$case/bug.cu" ] || continue
    rm -rf "${stage:?}/$case" && mkdir -p "$stage/$case"
    for twin in bug fixed; do
        cp "$case/$twin.cu" "$stage/$case/"
        (cd "$stage/$case" && nvcc -ptx -arch=sm_90a -lineinfo -frandom-seed="$case" -o "$twin.ptx" "$twin.cu")
        cp "$stage/$case/$twin.ptx" "$here/$case/$twin.ptx"
        if ! ptxas --gpu-name sm_90a -o /dev/null "$case/$twin.ptx"; then
            echo "$case/$twin.ptx: ptxas rejects it" >&2
            status=1
        fi
    done
done
exit $status
