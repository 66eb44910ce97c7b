/* --lib=tessera|onednn|both: which library runs each problem. With both,
 * every problem runs on Tessera and then on oneDNN (same settings, same
 * thread count), each run giving its own result and performance lines. A
 * oneDNN run's repro string starts with "--lib=onednn" so that it
 * reproduces that run; Tessera's is the driver's usual one.
 *
 * A driver calls bench_run_libs() once per selected problem instead of
 * running and reporting it itself; its `run` callback dispatches on the
 * library (bench_args_lib.h; onednn/onednn_args.h for the oneDNN side). */
#ifndef BENCHDNN_COMMON_BENCH_LIB_H
#define BENCHDNN_COMMON_BENCH_LIB_H

#include <stddef.h>

#include "benchdnn.h"

/* 1 when this benchdnn was built with oneDNN (BENCHDNN_WITH_ONEDNN). */
int bench_onednn_available(void);

/* Sets bench_settings.libs from --lib's value. Returns 0, or -1 with a
 * message in `err` for an unknown value or for oneDNN in a build without
 * it (settings untouched then). */
int bench_lib_parse_try(const char *value, char *err);

/* The repro string of `lib`'s run of a problem whose driver repro is
 * `repro`: "--lib=onednn " + repro for oneDNN, repro for Tessera. */
void bench_lib_repro(bench_lib_t lib, const char *repro, char *buf, size_t len);

/* Creates, runs, checks and times the problem on `lib`, per
 * bench_settings.mode, and fills `res`. `repro` is that run's repro. */
typedef void (*bench_lib_run_fn)(void *prb, bench_lib_t lib, const char *repro,
                                 res_t *res);

/* Runs problem `idx` on each library --lib selects, Tessera first, and
 * prints a result line for each (LISTED without running in --mode=L). */
void bench_run_libs(int idx, const char *repro, bench_lib_run_fn run,
                    void *prb);

#endif
