#!/usr/bin/env bash
# Sanitizer runs: the suite under ASan + UBSan; the fuzz targets; the
# library's tests under ThreadSanitizer (clang with LLVM's libomp and its
# Archer tool: GCC's libgomp would make every OpenMP barrier a false race).
#
#   ci/sanitizers.sh quick   the CI gate (.ci/run): the default compiler's
#                            ASan + UBSan build, every test but the
#                            ISA-capped convolution batches (the Release
#                            pass runs them); then clang's fuzz build (the
#                            fuzz targets only) and each fuzz target over
#                            its seed corpus and FUZZ_RUNS (default 6000)
#                            inputs from a fixed seed
#   ci/sanitizers.sh full    nightly or by hand: the default compiler's
#                            ASan + UBSan build with every test; clang's
#                            ASan + UBSan build with the fuzz targets,
#                            every test again, each fuzz target
#                            FUZZ_SECONDS (default 3600); then tsan
#   ci/sanitizers.sh tsan    the library's tests under ThreadSanitizer
#                            (test_concurrent_execute: one primitive from
#                            several threads with user scratchpads)
#
# The clang fuzz build leaves the ISA kernels (*_avx2.c, *_avx512*.c)
# uninstrumented, as clang's sanitized build of them is very slow: the
# default compiler's pass is the one that sanitizes them, in both modes.
# clang and its fuzzer runtime are installed when missing.
#
# Environment: ASAN_BUILD (default build-asan), FUZZ_BUILD (build-fuzz),
# TSAN_BUILD (build-tsan), FUZZ_SECONDS, FUZZ_RUNS, FUZZ_OUT (see
# ci/fuzz.sh). Exit status: non-zero when a build, a test or a fuzz target
# fails.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-quick}
case "$mode" in
quick)
    # The ISA-capped convolution batches ran in the Release pass; the
    # tests labelled long (whole batches whose paths shorter ones cover)
    # are for nightly and by-hand runs.
    asan_exclude='^(install_package|scripts_pytest|perf_ab|benchdnn_cli_conv_.*_(batch|paths)_isa_.*)$'
    asan_labels=(-LE long)
    # Each target over its seed corpus (the regression cases), then
    # FUZZ_RUNS inputs from a fixed seed (about a minute in all): nearly
    # the same inputs for the same code, so the gate does not fail at
    # random; `full` fuzzes for time.
    fuzz_seconds=0
    fuzz_runs=${FUZZ_RUNS:-6000}
    ;;
full)
    fuzz_seconds=${FUZZ_SECONDS:-3600}
    fuzz_runs=0
    asan_exclude='^(install_package|scripts_pytest|perf_ab)$'
    asan_labels=()
    ;;
tsan) ;;
*)
    echo "usage: ci/sanitizers.sh [quick|full|tsan]" >&2
    exit 2
    ;;
esac
jobs=$(nproc)
# At -O1: ASan and UBSan at -O2 triple the compile time of the kernels'
# inlined loop nests (the largest file: 90 s at -O1, 290 s at -O2), for
# the same checks.
opt=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG")
asan=${ASAN_BUILD:-build-asan}
fuzz=${FUZZ_BUILD:-build-fuzz}
tsan=${TSAN_BUILD:-build-tsan}

# install_package links a plain program against the sanitized library,
# which cannot work by design; the scripts' tests (perf_ab among them)
# hold no C code. All ran in the Release pass.
asan_tests() {
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --test-dir "$1" --output-on-failure -j"$jobs" -E "$asan_exclude" \
        "${asan_labels[@]}"
}

# clang with its sanitizer and libFuzzer runtimes: a target that links
# them is the check, as the packages' file lists differ between releases.
need_clang_fuzzer() {
    local probe
    probe=$(mktemp -d)
    printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return (int)(d && !n); }' \
        >"$probe/t.c"
    if ! command -v clang >/dev/null ||
        ! clang -fsanitize=fuzzer,address,undefined "$probe/t.c" \
            -o "$probe/t" >/dev/null 2>&1; then
        echo "== Installing clang and its fuzzer runtime"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q clang libclang-rt-14-dev
    fi
    rm -rf "$probe"
}

if [ "$mode" != tsan ]; then
    echo "== ASan + UBSan build"
    cmake -B "$asan" -S . -DTSR_SANITIZE=ON "${opt[@]}" >/dev/null
    cmake --build "$asan" -j"$jobs"
    echo "== ASan + UBSan tests"
    asan_tests "$asan"

    need_clang_fuzzer
    echo "== clang ASan + UBSan build with the fuzz targets"
    cmake -B "$fuzz" -S . -DCMAKE_C_COMPILER=clang -DTSR_FUZZ=ON \
        -DTSR_SANITIZE=ON "${opt[@]}" >/dev/null
    if [ "$mode" = quick ]; then
        cmake --build "$fuzz" -j"$jobs" --target tsr_fuzz_targets
    else
        cmake --build "$fuzz" -j"$jobs"
        echo "== clang ASan + UBSan tests (ISA kernels not instrumented)"
        asan_tests "$fuzz"
    fi
    echo "== Fuzz targets"
    FUZZ_RUNS=$fuzz_runs ci/fuzz.sh "$fuzz" "$fuzz_seconds"
fi
[ "$mode" = quick ] && exit 0

echo "== ThreadSanitizer build and tests"
cmake -B "$tsan" -S . -DCMAKE_C_COMPILER=clang -DTSR_SANITIZE_THREAD=ON \
    -DTSR_BUILD_BENCHDNN=OFF "${opt[@]}" >/dev/null
cmake --build "$tsan" -j"$jobs"
# Archer reports OpenMP's synchronisation to TSan; the runtime itself is not
# instrumented, so its own accesses are left out.
TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1 ${TSAN_OPTIONS:-}" \
    ctest --test-dir "$tsan" --output-on-failure -j"$jobs" -R '^test_'
