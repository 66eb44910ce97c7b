/* The harness' timer. Stop rule: --fix-times-per-prb runs when given;
 * otherwise run until --max-ms-per-prb of wall time has passed and at
 * least MIN_RUNS runs were timed, or until twice the budget has passed
 * (so one huge problem does not run MIN_RUNS times). */
#define _GNU_SOURCE /* clock_gettime, sysconf(_SC_LEVEL3_CACHE_SIZE) */
#include "timer.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MIN_RUNS 5

double bench_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* --cold-cache: before each timed run every thread rewrites a buffer
 * twice the size of the last-level cache, so the problem's data (weights
 * or all of it: both are evicted) comes from memory. The buffer is global
 * so the compiler cannot drop the stores. */
static unsigned char *cold_buffer;
static size_t cold_buffer_size;

static void cold_cache_prepare(void) {
    long llc = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    if (llc <= 0)
        llc = 32L << 20;
    cold_buffer_size = 2 * (size_t)llc;
    if (cold_buffer_size < (16u << 20))
        cold_buffer_size = 16u << 20;
    cold_buffer = calloc(cold_buffer_size, 1);
}

static void cold_cache_flush(void) {
    if (!cold_buffer)
        return;
    const long lines = (long)(cold_buffer_size / 64);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < lines; i++)
        cold_buffer[i * 64] += 1;
}

static void cold_cache_release(void) {
    free(cold_buffer);
    cold_buffer = NULL;
    cold_buffer_size = 0;
}

static int should_stop(const bench_timer_t *t, double wall_ms) {
    const bench_settings_t *s = &bench_settings;
    if (s->fix_times_per_prb > 0)
        return t->times >= s->fix_times_per_prb;
    if (wall_ms >= s->max_ms_per_prb && t->times >= MIN_RUNS)
        return 1;
    return wall_ms >= 2 * s->max_ms_per_prb && t->times >= 1;
}

int bench_time(bench_timer_t *t, int (*exec)(void *ctx), void *ctx) {
    const double ctime_ms = t->ctime_ms; /* set by the driver */
    t->times = 0;
    t->min_ms = t->avg_ms = t->max_ms = t->sum_ms = 0;
    t->ctime_ms = ctime_ms;
    t->n_samples = 0;

    /* Warm-up: first-touch page faults and lazy initialization. */
    int rc = exec(ctx);
    if (rc != 0)
        return rc;

    const int cold = bench_settings.cold_cache != COLD_CACHE_NONE;
    if (cold)
        cold_cache_prepare();
    const double start = bench_now_ms();
    do {
        if (cold)
            cold_cache_flush();
        const double t0 = bench_now_ms();
        rc = exec(ctx);
        const double ms = bench_now_ms() - t0;
        if (rc != 0)
            break;
        if (t->times == 0 || ms < t->min_ms)
            t->min_ms = ms;
        if (t->times == 0 || ms > t->max_ms)
            t->max_ms = ms;
        t->sum_ms += ms;
        if (t->n_samples < BENCH_TIMER_MAX_SAMPLES)
            t->samples_ms[t->n_samples++] = ms;
        t->times++;
    } while (!should_stop(t, bench_now_ms() - start));
    if (cold)
        cold_cache_release();
    if (t->times > 0)
        t->avg_ms = t->sum_ms / t->times;
    return rc;
}
