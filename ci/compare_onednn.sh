#!/usr/bin/env bash
# Tessera against oneDNN: builds Release with the oneDNN comparison mode,
# runs each batch with --lib=both --mode=P, and prints one Markdown table
# (scripts/compare_libs.py) of every batch: problem, each library's
# implementation and GFLOPS, the ratio Tessera/oneDNN, a geomean row per
# batch and one over all. Also writes each batch's raw output and table.
#   ci/compare_onednn.sh [OUT_DIR] [BATCH...] [-- extra benchdnn options...]
# BATCH is DRIVER:PATH (conv, ip or matmul: `ip:my_batch`), or a path whose
# file name perf_<driver>_* names the driver (as ci/nightly.sh reads it).
# Default: inputs/perf/perf_conv_f32_any, perf_conv_f32_nhwc,
# perf_conv_f32_nchw, perf_conv_dw, perf_ip_f32 and perf_matmul_f32 into
# compare-out/.
# Environment: PEAK_GFLOPS=N adds fraction-of-peak columns; BUILD_DIR
# (default build) is the build folder; ROUNDS=N (default 1) runs each batch
# N times and keeps each library's best result per problem, the steadier
# figure on a noisy machine, and adds the median over rounds of each
# round's ratio, which a machine slow for minutes skews less.
# Example, quick: ci/compare_onednn.sh out -- --max-ms-per-prb=200
# Needs oneDNN (Debian: libdnnl-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-compare-out}
[ $# -gt 0 ] && shift
build=${BUILD_DIR:-build}
batches=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do batches+=("$1"); shift; done
[ $# -gt 0 ] && shift # the "--"
[ ${#batches[@]} -gt 0 ] || batches=(inputs/perf/perf_conv_f32_any
                                     inputs/perf/perf_conv_f32_nhwc
                                     inputs/perf/perf_conv_f32_nchw
                                     inputs/perf/perf_conv_dw
                                     inputs/perf/perf_ip_f32
                                     inputs/perf/perf_matmul_f32)

# "DRIVER PATH" of one BATCH argument; exits 2 when the driver is unknown.
batch_driver() {
    local arg=$1 driver path
    case "$arg" in
    conv:* | ip:* | matmul:*) driver=${arg%%:*} path=${arg#*:} ;;
    *)
        path=$arg
        driver=$(basename "$path")
        driver=${driver#perf_}
        driver=${driver%%_*}
        ;;
    esac
    case "$driver" in conv | ip | matmul) ;; *)
        echo "compare_onednn: cannot tell the driver of '$arg': name it" \
             "DRIVER:PATH (conv, ip or matmul)" >&2
        exit 2
        ;;
    esac
    [ -f "$path" ] || { echo "compare_onednn: no batch file '$path'" >&2; exit 2; }
    echo "$driver $path"
}

[[ "${ROUNDS:-1}" =~ ^[1-9][0-9]*$ ]] || {
    echo "compare_onednn: ROUNDS must be a positive integer" >&2
    exit 2
}
# Check every argument before the (long) build and runs.
for batch in "${batches[@]}"; do batch_driver "$batch" >/dev/null; done

mkdir -p "$out"
cmake -B "$build" -S . -DCMAKE_BUILD_TYPE=Release -DTSR_WITH_ONEDNN=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target benchdnn >/dev/null
peak=()
[ -n "${PEAK_GFLOPS:-}" ] && peak=(--peak-gflops "$PEAK_GFLOPS")
runs=()
for batch in "${batches[@]}"; do
    read -r driver path <<<"$(batch_driver "$batch")"
    name=$(basename "$path")
    echo "compare_onednn: --$driver --batch=$path -> $out/$name.txt" >&2
    # Exit 1 means a problem did not run on one library (oneDNN 2.6 lacks
    # some types on this CPU): the table shows it without a ratio. Usage
    # errors (2) stop the script.
    : > "$out/$name.txt"
    for _ in $(seq "${ROUNDS:-1}"); do
        rc=0
        "./$build/benchdnn" "--$driver" --lib=both --mode=P "$@" \
            --batch="$path" >> "$out/$name.txt" || rc=$?
        [ "$rc" -le 1 ] || { echo "benchdnn failed ($rc) on $path" >&2; exit "$rc"; }
    done
    python3 scripts/compare_libs.py "${peak[@]}" "$out/$name.txt" > "$out/$name.md"
    runs+=("$out/$name.txt")
done
python3 scripts/compare_libs.py "${peak[@]}" "${runs[@]}" > "$out/compare_onednn.md"
cat "$out/compare_onednn.md"
echo "table: $out/compare_onednn.md" >&2
