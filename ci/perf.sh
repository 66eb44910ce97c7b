#!/usr/bin/env bash
# Performance run: builds benchdnn (Release), times a batch with --mode=P
# and writes the raw output and a Markdown table next to each other.
#   ci/perf.sh [BATCH] [OUT_DIR] [extra benchdnn options...]
# Default: the AlexNet convolutions into perf-out/. The driver is read from
# a perf_<driver>_* file name (inputs/perf/), else DRIVER (default conv).
# BUILD_DIR (default build) is the build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
batch=${1:-inputs/alexnet}
out=${2:-perf-out}
shift $(($# > 2 ? 2 : $#))
build=${BUILD_DIR:-build}
name=$(basename "$batch")
driver=${DRIVER:-conv}
case "$name" in perf_*) driver=${name#perf_} driver=${driver%%_*} ;; esac
mkdir -p "$out"
echo "perf: building benchdnn in $build" >&2
cmake -B "$build" -S . -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target benchdnn >/dev/null
echo "perf: --$driver --batch=$batch" >&2
"./$build/benchdnn" "--$driver" --mode=P "$@" --batch="$batch" | tee "$out/$name.txt"
python3 scripts/perf_table.py "$out/$name.txt" >"$out/$name.md"
echo "table: $out/$name.md"
