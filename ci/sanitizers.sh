#!/usr/bin/env bash
# Sanitizer runs: the suite under ASan + UBSan; the fuzz targets; the
# library's tests under ThreadSanitizer (clang with LLVM's libomp and its
# Archer tool: GCC's libgomp would make every OpenMP barrier a false race).
#
#   ci/sanitizers.sh quick   the CI gate (.ci/run): the default compiler's
#                            ASan + UBSan build, every test but the
#                            ISA-capped convolution batches (the Release
#                            pass runs them)
#   ci/sanitizers.sh full    nightly or by hand: clang's ASan + UBSan build
#                            with the fuzz targets, every test, each fuzz
#                            target FUZZ_SECONDS (default 3600), then tsan
#   ci/sanitizers.sh tsan    the library's tests under ThreadSanitizer
#                            (test_concurrent_execute: one primitive from
#                            several threads with user scratchpads)
#
# The fuzz targets are not in the quick pass yet: clang's sanitized build
# of the ISA kernels takes several minutes per file on two cores.
#
# Environment: ASAN_BUILD (default build-asan), FUZZ_BUILD (build-fuzz),
# TSAN_BUILD (build-tsan), FUZZ_SECONDS, FUZZ_OUT (see ci/fuzz.sh). Exit
# status: non-zero when a build, a test or a fuzz target fails.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-quick}
case "$mode" in
quick)
    asan_exclude='^(install_package|scripts_pytest|perf_ab|benchdnn_cli_conv_.*_batch_isa_.*)$'
    ;;
full)
    fuzz_seconds=${FUZZ_SECONDS:-3600}
    asan_exclude='^(install_package|scripts_pytest|perf_ab)$'
    ;;
tsan) ;;
*)
    echo "usage: ci/sanitizers.sh [quick|full|tsan]" >&2
    exit 2
    ;;
esac
jobs=$(nproc)
asan=${ASAN_BUILD:-build-asan}
if [ "$mode" = full ]; then
    asan=${FUZZ_BUILD:-build-fuzz}
    compiler=(-DCMAKE_C_COMPILER=clang -DTSR_FUZZ=ON)
else
    compiler=()
fi
tsan=${TSAN_BUILD:-build-tsan}

if [ "$mode" != tsan ]; then
    echo "== ASan + UBSan build ${compiler[*]}"
    cmake -B "$asan" -S . "${compiler[@]}" -DTSR_SANITIZE=ON \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$asan" -j"$jobs"
    echo "== ASan + UBSan tests"
    # install_package links a plain program against the sanitized library,
    # which cannot work by design; the scripts' tests (perf_ab among them)
    # hold no C code. All ran in the Release pass.
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --test-dir "$asan" --output-on-failure -j"$jobs" -E "$asan_exclude"
fi
[ "$mode" = quick ] && exit 0

if [ "$mode" = full ]; then
    echo "== Fuzz targets, ${fuzz_seconds} s each"
    ci/fuzz.sh "$asan" "$fuzz_seconds"
fi

echo "== ThreadSanitizer build and tests"
cmake -B "$tsan" -S . -DCMAKE_C_COMPILER=clang -DTSR_SANITIZE_THREAD=ON \
    -DTSR_BUILD_BENCHDNN=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$tsan" -j"$jobs"
# Archer reports OpenMP's synchronisation to TSan; the runtime itself is not
# instrumented, so its own accesses are left out.
TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1 ${TSAN_OPTIONS:-}" \
    ctest --test-dir "$tsan" --output-on-failure -j"$jobs" -R '^test_'
