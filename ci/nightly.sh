#!/usr/bin/env bash
# Nightly performance tracking: build Release, time the performance sets
# with benchdnn (every timed sample kept), store the run in the SQLite
# history, compare it with the machine's previous run, write the reports.
# Exit status: 0 fine, 1 a performance regression (or a benchdnn failure),
# 2 bad setup.
#
#   ci/nightly.sh          build, run every set (or NIGHTLY_SHARD of it),
#                          then what `merge` does
#   ci/nightly.sh run      build and run only (one shard of a CI matrix)
#   ci/nightly.sh merge    import $NIGHTLY_OUT/runs/*.txt as one run (the
#                          shards), compare with the baseline, report
#
# Environment (all optional):
#   NIGHTLY_SETS     space-separated DRIVER:BATCH sets; default every
#                    inputs/perf/perf_<driver>_* set, else conv:inputs/alexnet
#   NIGHTLY_SHARD    I/N: run every N-th problem from I (benchdnn --shard)
#   NIGHTLY_ARGS     more benchdnn options, e.g. "--lib=both --allow-unimpl"
#   NIGHTLY_OUT      output folder (default perf-out/nightly): runs/,
#                    compare.md, report/
#   NIGHTLY_DB       history database (default $NIGHTLY_OUT/history.db)
#   NIGHTLY_MACHINE  machine name in the history (default: the host name);
#                    give one name to all shards of a CI matrix
#   NIGHTLY_RUN      run label shared by the shards (default COMMIT@DATE)
#   NIGHTLY_BUILD    build folder (default build-nightly)
#   NIGHTLY_THRESHOLDS  perf_history.py options, e.g. "--min-effect 0.08"
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
case "$mode" in all | run | merge) ;; *)
    echo "usage: ci/nightly.sh [run|merge]" >&2
    exit 2
    ;;
esac

out=${NIGHTLY_OUT:-perf-out/nightly}
db=${NIGHTLY_DB:-$out/history.db}
machine=${NIGHTLY_MACHINE:-$(hostname)}
build=${NIGHTLY_BUILD:-build-nightly}
shard=${NIGHTLY_SHARD:-0/1}
# Every timed run time goes out with %samples%, for the rank test.
template='perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%,%samples%'

default_sets() {
    local f sets=()
    for f in inputs/perf/perf_*; do
        [ -f "$f" ] || continue
        local name=${f##*/perf_}
        sets+=("${name%%_*}:$f")
    done
    [ ${#sets[@]} -gt 0 ] || sets=(conv:inputs/alexnet)
    echo "${sets[*]}"
}

run_sets() {
    cmake -B "$build" -S . -DCMAKE_BUILD_TYPE=Release -DTSR_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target benchdnn >/dev/null
    mkdir -p "$out/runs"
    local sets i=0 status=0
    read -r -a sets <<<"${NIGHTLY_SETS:-$(default_sets)}"
    local index=${shard%/*} count=${shard#*/}
    for set in "${sets[@]}"; do
        i=$((i + 1))
        local driver=${set%%:*} batch=${set#*:}
        if [ "$driver" = "$set" ] || [ ! -f "$batch" ]; then
            echo "nightly: bad set '$set' (DRIVER:BATCH with an existing batch file)" >&2
            exit 2
        fi
        local name
        name=$(basename "$batch")
        local file="$out/runs/$name.shard${index}of${count}.txt"
        echo "nightly: [$i/${#sets[@]}] --$driver --batch=$batch (shard $shard) -> $file" >&2
        # The batch name goes in the run header; benchdnn adds the rest.
        {
            echo "# batch=$name"
            # shellcheck disable=SC2086 # NIGHTLY_ARGS is a list of options
            "./$build/benchdnn" "--$driver" --mode=P "--perf-template=$template" \
                "--shard=$shard" ${NIGHTLY_ARGS:-} "--batch=$batch"
        } >"$file" || {
            echo "nightly: benchdnn failed on $batch (see $file)" >&2
            status=1
        }
    done
    return $status
}

merge_runs() {
    python3 -c "import matplotlib" 2>/dev/null || {
        echo "nightly: matplotlib missing: pip install -r scripts/requirements.txt" >&2
        exit 2
    }
    local files=("$out"/runs/*.txt)
    [ -f "${files[0]}" ] || {
        echo "nightly: no run files in $out/runs" >&2
        exit 2
    }
    mkdir -p "$(dirname "$db")"
    local label=() thresholds=()
    [ -z "${NIGHTLY_RUN:-}" ] || label=(--run "$NIGHTLY_RUN")
    read -r -a thresholds <<<"${NIGHTLY_THRESHOLDS:-}"
    python3 scripts/perf_history.py import "${files[@]}" --db "$db" \
        --machine "$machine" "${label[@]}"
    local joined
    joined=$(IFS=,; echo "${files[*]}")
    local status=0
    python3 scripts/perf_history.py compare "$joined" --baseline history \
        --db "$db" --machine "$machine" "${label[@]}" "${thresholds[@]}" \
        --markdown "$out/compare.md" >/dev/null || status=$?
    python3 scripts/perf_history.py report --db "$db" --out "$out/report" \
        --machine "$machine" "${label[@]}" "${thresholds[@]}"
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
        cat "$out/report/report.md" >>"$GITHUB_STEP_SUMMARY"
    fi
    case $status in
    0) echo "nightly: no regression (report: $out/report/report.html)" ;;
    1) echo "nightly: PERFORMANCE REGRESSION (report: $out/report/report.html)" >&2 ;;
    *) echo "nightly: comparison failed" >&2 ;;
    esac
    return $status
}

status=0
case "$mode" in
run) run_sets || status=$? ;;
merge) merge_runs || status=$? ;;
all)
    rm -f "$out"/runs/*.txt
    run_sets || status=$?
    merge_runs || { s=$?; [ $status -ne 0 ] || status=$s; }
    ;;
esac
exit $status
