#!/usr/bin/env bash
# Nightly performance tracking (see scripts/README.md).
#
#   ci/nightly.sh          build, run every set (or NIGHTLY_SHARD of it),
#                          then what `merge` does
#   ci/nightly.sh run      build and run only (one shard of a CI matrix)
#   ci/nightly.sh merge    import $NIGHTLY_OUT/runs/*.txt as one run (the
#                          shards) into the history, judge it against the
#                          history (change points over the whole series,
#                          the pinned run, the window of recent runs),
#                          write $NIGHTLY_OUT/report/report.{md,html}
#   ci/nightly.sh ab BASE NEW
#                          A/B in one job: BASE and NEW are git revisions
#                          (each built from `git archive` in its own folder)
#                          or benchdnn binaries; every problem runs on both
#                          in turns, round by round; candidate changes run
#                          again; $NIGHTLY_OUT/ab/ab.{md,html,json}
#
# Exit status: 0 fine, 1 a performance regression (or a benchdnn failure),
# 2 bad setup, 3 the environments compared differ (ISA, threads, compiler,
# build options, CPU): the verdicts are not to be trusted.
#
# Environment (all optional):
#   NIGHTLY_SETS     space-separated DRIVER:BATCH sets; default every
#                    inputs/perf/perf_<driver>_* set (ab: conv:inputs/alexnet)
#   NIGHTLY_SHARD    I/N: run every N-th problem from I (benchdnn --shard)
#   NIGHTLY_ARGS     more benchdnn options, e.g. "--max-ms-per-prb=1000"
#   NIGHTLY_OUT      output folder (default perf-out/nightly)
#   NIGHTLY_DB       history database (default $NIGHTLY_OUT/history.db)
#   NIGHTLY_MACHINE  machine name in the history (default: the host name);
#                    give one name to all shards of a CI matrix
#   NIGHTLY_RUN      run label shared by the shards (default COMMIT@DATE)
#   NIGHTLY_BUILD    build folder (default build-nightly)
#   NIGHTLY_THRESHOLDS  threshold options, e.g. "--min-effect 0.08"
#   NIGHTLY_HTML_URL where the HTML report will be published (linked from
#                    the Markdown summary)
#   NIGHTLY_AB_ARGS  perf_ab.py options, default "--rounds 5 --max-ms 300"
#   NIGHTLY_AB_WORK  where ab builds revisions (default a folder in $TMPDIR,
#                    outside the checkout so each build names its own commit)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
case "$mode" in all | run | merge) ;; ab) [ $# -eq 3 ] || mode=usage ;; *) mode=usage ;; esac
if [ "$mode" = usage ]; then
    echo "usage: ci/nightly.sh [run|merge|ab BASE NEW]" >&2
    exit 2
fi

out=${NIGHTLY_OUT:-perf-out/nightly}
db=${NIGHTLY_DB:-$out/history.db}
machine=${NIGHTLY_MACHINE:-$(hostname)}
build=${NIGHTLY_BUILD:-build-nightly}
shard=${NIGHTLY_SHARD:-0/1}
# Every timed run time goes out with %samples%; bytes for GB/s.
template='perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%,%Gibytes%,%Gobytes%,%samples%'
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)

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

# Builds benchdnn (Release) from source folder $1 into $2, printing a
# progress line at every tenth of the build; $4 and on: more CMake options.
build_benchdnn() {
    local src=$1 dir=$2 what=$3
    shift 3
    echo "nightly: configuring $what ($dir)" >&2
    # --no-warn-unused-cli: revisions older than TSR_BUILD_COMMIT ignore it.
    cmake -B "$dir" -S "$src" --no-warn-unused-cli -DCMAKE_BUILD_TYPE=Release \
        -DTSR_BUILD_TESTS=OFF "${launcher[@]}" "$@" >/dev/null
    echo "nightly: building $what" >&2
    local start=$SECONDS
    cmake --build "$dir" -j"$(nproc)" --target benchdnn 2>&1 |
        awk -v what="$what" '
            match($0, /^\[ *[0-9]+%\]/) {
                pct = substr($0, RSTART + 1, RLENGTH - 3) + 0
                if (pct >= next_pct) {
                    printf "nightly: building %s: %d%%\n", what, pct > "/dev/stderr"
                    fflush("/dev/stderr")
                    next_pct = pct - pct % 10 + 10
                }
            }
            /error|Error/ { print > "/dev/stderr" }' || true
    [ -x "$dir/benchdnn" ] || {
        echo "nightly: the build of $what failed" >&2
        exit 2
    }
    echo "nightly: built $what in $((SECONDS - start)) s" >&2
}

check_sets() {
    local set
    for set in "$@"; do
        local driver=${set%%:*} batch=${set#*:}
        if [ "$driver" = "$set" ] || [ ! -f "$batch" ]; then
            echo "nightly: bad set '$set' (DRIVER:BATCH with an existing batch file)" >&2
            exit 2
        fi
    done
}

run_sets() {
    local sets i=0 status=0
    read -r -a sets <<<"${NIGHTLY_SETS:-$(default_sets)}"
    check_sets "${sets[@]}"
    build_benchdnn . "$build" "$(git describe --always --dirty 2>/dev/null || echo HEAD)"
    mkdir -p "$out/runs"
    local index=${shard%/*} count=${shard#*/}
    for set in "${sets[@]}"; do
        i=$((i + 1))
        local driver=${set%%:*} batch=${set#*:}
        local name
        name=$(basename "$batch")
        local file="$out/runs/$name.shard${index}of${count}.txt"
        echo "nightly: [$i/${#sets[@]}] --$driver --batch=$batch (shard $shard) -> $file" >&2
        local start=$SECONDS
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
        echo "nightly: [$i/${#sets[@]}] $(grep -c '^perf,' "$file") problems in" \
            "$((SECONDS - start)) s" >&2
    done
    return $status
}

need_matplotlib() {
    python3 -c "import matplotlib" 2>/dev/null || {
        echo "nightly: matplotlib missing: apt-get install python3-matplotlib" \
            "(Debian/Ubuntu), or python3 -m venv .venv &&" \
            ".venv/bin/pip install -r scripts/requirements.txt" >&2
        exit 2
    }
}

merge_runs() {
    need_matplotlib
    local files=("$out"/runs/*.txt)
    [ -f "${files[0]}" ] || {
        echo "nightly: no run files in $out/runs" >&2
        exit 2
    }
    mkdir -p "$(dirname "$db")"
    local label=() thresholds=() link=()
    [ -z "${NIGHTLY_RUN:-}" ] || label=(--run "$NIGHTLY_RUN")
    [ -z "${NIGHTLY_HTML_URL:-}" ] || link=(--html-link "$NIGHTLY_HTML_URL")
    read -r -a thresholds <<<"${NIGHTLY_THRESHOLDS:-}"
    python3 scripts/perf_history.py import "${files[@]}" --db "$db" \
        --machine "$machine" "${label[@]}"
    local status=0
    python3 scripts/perf_history.py report --db "$db" --out "$out/report" \
        --machine "$machine" "${label[@]}" "${thresholds[@]}" "${link[@]}" ||
        status=$?
    summary "$out/report/report.md"
    verdict $status "$out/report/report.html"
}

summary() {
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$1" ]; then
        cat "$1" >>"$GITHUB_STEP_SUMMARY"
    fi
}

verdict() {
    case $1 in
    0) echo "nightly: no regression (report: $2)" ;;
    1) echo "nightly: PERFORMANCE REGRESSION (report: $2)" >&2 ;;
    3) echo "nightly: ENVIRONMENTS DIFFER, verdicts not trusted (report: $2)" >&2 ;;
    *) echo "nightly: comparison failed" >&2 ;;
    esac
    return "$1"
}

# The benchdnn binary of BASE or NEW: the file itself, or a build of the
# git revision. Prints "BINARY<TAB>LABEL".
ab_side() {
    local arg=$1 side=$2 work=$3
    if [ -f "$arg" ] && [ -x "$arg" ]; then
        printf '%s\t%s\n' "$(realpath "$arg")" "binary $arg"
        return
    fi
    local rev
    rev=$(git rev-parse --short "$arg^{commit}" 2>/dev/null) || {
        echo "nightly: '$arg' is neither a benchdnn binary nor a git revision" >&2
        exit 2
    }
    # The build inside its sources, and ccache told so: the paths ccache
    # sees are alike for every revision, unchanged files hit the cache.
    local src="$work/$rev" dir="$work/$rev/build-ab"
    if [ ! -x "$dir/benchdnn" ]; then
        echo "nightly: $side: exporting $arg ($rev) to $src" >&2
        rm -rf "$src"
        mkdir -p "$src"
        git archive "$rev" | tar -x -C "$src"
        # An export has no git history: the run header gets the commit here.
        CCACHE_BASEDIR=$src build_benchdnn "$src" "$dir" "$side ($rev)" \
            "-DTSR_BUILD_COMMIT=$rev"
    fi
    printf '%s\t%s\n' "$dir/benchdnn" "$arg ($rev)"
}

run_ab() {
    need_matplotlib
    local work=${NIGHTLY_AB_WORK:-${TMPDIR:-/tmp}/tessera-ab}
    mkdir -p "$work"
    local base new base_label new_label sets=() set_args=() ab_args=() thresholds=()
    local line
    line=$(ab_side "$1" base "$work") || exit 2
    IFS=$'\t' read -r base base_label <<<"$line"
    line=$(ab_side "$2" new "$work") || exit 2
    IFS=$'\t' read -r new new_label <<<"$line"
    read -r -a sets <<<"${NIGHTLY_SETS:-conv:inputs/alexnet}"
    check_sets "${sets[@]}"
    for set in "${sets[@]}"; do set_args+=(--set "$set"); done
    read -r -a ab_args <<<"${NIGHTLY_AB_ARGS:---rounds 5 --max-ms 300}"
    read -r -a thresholds <<<"${NIGHTLY_THRESHOLDS:-}"
    local link=()
    [ -z "${NIGHTLY_HTML_URL:-}" ] || link=(--html-link "$NIGHTLY_HTML_URL")
    local status=0
    python3 scripts/perf_ab.py --base "$base" --new "$new" \
        --base-label "$base_label" --new-label "$new_label" "${set_args[@]}" \
        --out "$out/ab" "${ab_args[@]}" "${thresholds[@]}" "${link[@]}" \
        >/dev/null || status=$?
    [ $status -ne 2 ] || { echo "nightly: A/B failed" >&2; return 2; }
    summary "$out/ab/ab.md"
    verdict $status "$out/ab/ab.html"
}

status=0
case "$mode" in
run) run_sets || status=$? ;;
merge) merge_runs || status=$? ;;
ab) run_ab "$2" "$3" || status=$? ;;
all)
    rm -f "$out"/runs/*.txt
    run_sets || status=$?
    merge_runs || { s=$?; [ $status -ne 0 ] || status=$s; }
    ;;
esac
exit $status
