/* The harness' own timer: monotonic clock, a warm-up run, then runs until
 * --fix-times-per-prb or --max-ms-per-prb (and at least 5 runs when time
 * allows), keeping min, average, max and the first
 * BENCH_TIMER_MAX_SAMPLES run times (bench_timer_t in benchdnn.h). */
#ifndef BENCHDNN_COMMON_TIMER_H
#define BENCHDNN_COMMON_TIMER_H

#include "benchdnn.h"

double bench_now_ms(void);

/* Times `exec(ctx)` (returns 0 on success) per the global settings.
 * Returns the first non-zero exec result, or 0. */
int bench_time(bench_timer_t *t, int (*exec)(void *ctx), void *ctx);

/* Paired timing, for --lib=both --mode=P: the two libraries' executions of
 * one problem timed in turns, one run each, so that a machine whose speed
 * changes from one second to the next slows both alike. After
 * bench_time_pair_begin, the next bench_time call parks its execution and
 * calls second(arg), which runs the other library's problem; the
 * bench_time call in there times both, in the budget of both, each timer
 * getting its own runs. If the second stops before its timing, or one
 * side fails, the other is timed alone. bench_time_pair_end disarms it
 * and returns 1 when second was called. */
void bench_time_pair_begin(void (*second)(void *arg), void *arg);
int bench_time_pair_end(void);

#endif
