#!/usr/bin/env bash
# Tessera against oneDNN: builds Release with the oneDNN comparison mode,
# runs each batch with --lib=both --mode=P and writes the raw output and a
# Markdown table (scripts/compare_libs.py) per batch, plus all tables in
# one file.
#   ci/compare_onednn.sh [OUT_DIR] [BATCH...] [-- extra benchdnn options...]
# Default: inputs/perf/perf_conv_f32_any, perf_conv_f32_nhwc, perf_conv_dw
# into compare-out/. PEAK_GFLOPS=N adds fraction-of-peak columns.
# Needs oneDNN (Debian: libdnnl-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-compare-out}
[ $# -gt 0 ] && shift
batches=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do batches+=("$1"); shift; done
[ $# -gt 0 ] && shift # the "--"
[ ${#batches[@]} -gt 0 ] || batches=(inputs/perf/perf_conv_f32_any
                                     inputs/perf/perf_conv_f32_nhwc
                                     inputs/perf/perf_conv_dw)
mkdir -p "$out"
cmake -B build -S . -DCMAKE_BUILD_TYPE=Release -DTSR_WITH_ONEDNN=ON >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
peak=()
[ -n "${PEAK_GFLOPS:-}" ] && peak=(--peak-gflops "$PEAK_GFLOPS")
runs=()
for batch in "${batches[@]}"; do
    name=$(basename "$batch")
    # Exit 1 means a problem did not run on one library (oneDNN 2.6 lacks
    # some types on this CPU): the table shows it without a ratio. Usage
    # errors (2) stop the script.
    rc=0
    ./build/benchdnn --conv --lib=both --mode=P "$@" --batch="$batch" \
        > "$out/$name.txt" || rc=$?
    [ "$rc" -le 1 ] || { echo "benchdnn failed ($rc) on $batch" >&2; exit "$rc"; }
    python3 scripts/compare_libs.py "${peak[@]}" "$out/$name.txt" > "$out/$name.md"
    runs+=("$out/$name.txt")
done
python3 scripts/compare_libs.py "${peak[@]}" "${runs[@]}" > "$out/compare_onednn.md"
cat "$out/compare_onednn.md"
echo "tables: $out/compare_onednn.md"
