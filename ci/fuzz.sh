#!/usr/bin/env bash
# Runs the libFuzzer targets of a TSR_FUZZ=ON build (fuzz/README.md):
# each target over its seed corpus (fuzz/corpus/<name>/, the regression
# cases), then fuzzes it for SECONDS_PER_TARGET seconds. Builds nothing.
#
#   ci/fuzz.sh BUILD_DIR SECONDS_PER_TARGET
#   FUZZ_RUNS=N ci/fuzz.sh BUILD_DIR 0
#                 N inputs per target from a fixed seed instead: for the
#                 same code nearly the same inputs every run (they differ
#                 only where coverage depends on timing), so that a gate
#                 fails at the commit that brings a defect, not at random
#
# Exit status: 0 no finding, 1 a finding (crash, sanitizer report, leak,
# an input over the time or memory limits), 2 bad setup. Findings and the
# inputs the run discovered go to $FUZZ_OUT (default: a tessera-fuzz
# folder under $TMPDIR or /tmp, outside the source tree): crashes/ holds
# the reproducers (TARGET-crash-..., -timeout-, -oom-, -leak-), logs/ the
# output, corpus/<name>/ the new inputs. Environment: FUZZ_OUT,
# FUZZ_TARGETS (space-separated names, default every built target).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

runs=${FUZZ_RUNS:-0}
if [ $# -ne 2 ] || ! [[ $2 =~ ^[0-9]+$ ]] || ! [[ $runs =~ ^[0-9]+$ ]]; then
    echo "usage: ci/fuzz.sh BUILD_DIR SECONDS_PER_TARGET" >&2
    exit 2
fi
build=$1
seconds=$2
out=${FUZZ_OUT:-${TMPDIR:-/tmp}/tessera-fuzz}

targets=()
if [ -n "${FUZZ_TARGETS:-}" ]; then
    read -r -a targets <<<"$FUZZ_TARGETS"
else
    for f in "$build"/fuzz/fuzz_*; do
        [ -f "$f" ] && [ -x "$f" ] && targets+=("$(basename "$f")")
    done
fi
if [ ${#targets[@]} -eq 0 ]; then
    echo "fuzz: no fuzz targets in $build/fuzz (configure with" \
        "-DCMAKE_C_COMPILER=clang -DTSR_FUZZ=ON -DTSR_SANITIZE=ON and build)" >&2
    exit 2
fi
mkdir -p "$out/crashes" "$out/logs"

# A second or 100 MB for one input is already a defect; the limits leave
# room for the sanitizers' own cost.
limits=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=128
    -max_len=4096 -print_final_stats=1)
# Leaks are findings; the stack of a UBSan report is the useful part.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One thread: the inputs are small, and results must not depend on it.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

status=0
for t in "${targets[@]}"; do
    bin=$build/fuzz/$t
    seeds=fuzz/corpus/${t#fuzz_}
    if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
        echo "fuzz: $t: no binary $bin or no corpus $seeds" >&2
        exit 2
    fi
    mkdir -p "$out/corpus/${t#fuzz_}"
    prefix=$out/crashes/$t-
    echo "== $t: the seed corpus ($(find "$seeds" -type f | wc -l) inputs)"
    if ! "$bin" "${limits[@]}" -artifact_prefix="$prefix" -runs=0 \
        "$seeds" >"$out/logs/$t.seeds.log" 2>&1; then
        echo "fuzz: $t FAILED on its seed corpus (log: $out/logs/$t.seeds.log)" >&2
        tail -n 40 "$out/logs/$t.seeds.log" >&2
        status=1
        continue
    fi
    if [ "$runs" -gt 0 ]; then
        # A fresh folder for new inputs: earlier runs' inputs would change
        # what a fixed seed explores.
        echo "== $t: fuzzing $runs inputs from seed 1"
        work=$(mktemp -d)
        budget=(-runs="$runs" -seed=1)
    elif [ "$seconds" -gt 0 ]; then
        echo "== $t: fuzzing ${seconds}s"
        work=$out/corpus/${t#fuzz_}
        budget=(-max_total_time="$seconds")
    else
        continue
    fi
    # New inputs go to the first folder (outside the tree); the seeds
    # are read only.
    "$bin" "${limits[@]}" -artifact_prefix="$prefix" "${budget[@]}" \
        "$work" "$seeds" >"$out/logs/$t.log" 2>&1
    found=$?
    [ "$runs" -gt 0 ] && rm -rf "$work"
    if [ $found -ne 0 ]; then
        echo "fuzz: $t FOUND A DEFECT (reproducer: ${prefix}*, log: $out/logs/$t.log)" >&2
        tail -n 40 "$out/logs/$t.log" >&2
        status=1
        continue
    fi
    grep -h "stat::number_of_executed_units\|INFO: Loaded\|DONE" \
        "$out/logs/$t.log" | sed "s/^/  /" || true
done
if [ $status -eq 0 ]; then
    echo "fuzz: no finding (${targets[*]})"
fi
exit $status
