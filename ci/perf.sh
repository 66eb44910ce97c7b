#!/usr/bin/env bash
# Performance run: builds Release, times a batch with benchdnn --mode=P and
# writes the raw output and a Markdown table next to each other.
#   ci/perf.sh [BATCH] [OUT_DIR] [extra benchdnn options...]
# Default: the AlexNet convolutions at mb256 into perf-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
batch=${1:-inputs/alexnet}
out=${2:-perf-out}
shift $(( $# > 2 ? 2 : $# ))
mkdir -p "$out"
cmake -B build -S . -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
name=$(basename "$batch")
./build/benchdnn --conv --mode=P "$@" --batch="$batch" | tee "$out/$name.txt"
python3 scripts/perf_table.py "$out/$name.txt" > "$out/$name.md"
echo "table: $out/$name.md"
