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

#endif
