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

/* Two timers that share the wall time of one loop (paired timing): the
 * budget of both, each with at least as many runs as alone. */
static int pair_should_stop(const bench_timer_t *a, const bench_timer_t *b,
                            double wall_ms) {
    const bench_settings_t *s = &bench_settings;
    const int fewest = a->times < b->times ? a->times : b->times;
    if (s->fix_times_per_prb > 0)
        return fewest >= s->fix_times_per_prb;
    if (wall_ms >= 2 * s->max_ms_per_prb && fewest >= MIN_RUNS)
        return 1;
    return wall_ms >= 4 * s->max_ms_per_prb && fewest >= 1;
}

static void timer_reset(bench_timer_t *t) {
    const double ctime_ms = t->ctime_ms; /* set by the driver */
    t->times = 0;
    t->min_ms = t->avg_ms = t->max_ms = t->sum_ms = 0;
    t->ctime_ms = ctime_ms;
    t->n_samples = 0;
}

/* Times one run of exec(ctx) into t (cache flushed first with `cold`);
 * returns exec's result. */
static int timed_run(bench_timer_t *t, int (*exec)(void *ctx), void *ctx,
                     int cold) {
    if (cold)
        cold_cache_flush();
    const double t0 = bench_now_ms();
    const int rc = exec(ctx);
    const double ms = bench_now_ms() - t0;
    if (rc != 0)
        return rc;
    if (t->times == 0 || ms < t->min_ms)
        t->min_ms = ms;
    if (t->times == 0 || ms > t->max_ms)
        t->max_ms = ms;
    t->sum_ms += ms;
    if (t->n_samples < BENCH_TIMER_MAX_SAMPLES)
        t->samples_ms[t->n_samples++] = ms;
    t->times++;
    return 0;
}

/* One execution and its timer. */
typedef struct {
    bench_timer_t *t;
    int (*exec)(void *ctx);
    void *ctx;
    int rc; /* the first failure, or 0 */
} timed_exec_t;

/* The timed runs of `a`, or of `a` and `b` in turns (b NULL: a alone),
 * after their warm-ups, until the stop rule or a failure. */
static void time_runs(timed_exec_t *a, timed_exec_t *b) {
    const int cold = bench_settings.cold_cache != COLD_CACHE_NONE;
    if (cold)
        cold_cache_prepare();
    const double start = bench_now_ms();
    int stop;
    do {
        a->rc = timed_run(a->t, a->exec, a->ctx, cold);
        if (b)
            b->rc = timed_run(b->t, b->exec, b->ctx, cold);
        const double wall_ms = bench_now_ms() - start;
        stop = a->rc != 0 || (b && b->rc != 0) ||
               (b ? pair_should_stop(a->t, b->t, wall_ms)
                  : should_stop(a->t, wall_ms));
    } while (!stop);
    if (cold)
        cold_cache_release();
    timed_exec_t *both[] = {a, b};
    for (int i = 0; i < 2; i++)
        if (both[i] && both[i]->t->times > 0)
            both[i]->t->avg_ms = both[i]->t->sum_ms / both[i]->t->times;
}

/* Paired timing (see timer.h): OFF, ARMED by bench_time_pair_begin, the
 * first execution PARKED while the second library's problem runs, TIMED
 * once the second's bench_time has timed both. */
enum { PAIR_OFF, PAIR_ARMED, PAIR_PARKED, PAIR_TIMED };
static struct {
    int state, second_called;
    void (*second)(void *arg);
    void *arg;
    timed_exec_t first;
} pair;

void bench_time_pair_begin(void (*second)(void *arg), void *arg) {
    pair.state = PAIR_ARMED;
    pair.second_called = 0;
    pair.second = second;
    pair.arg = arg;
}

int bench_time_pair_end(void) {
    pair.state = PAIR_OFF;
    return pair.second_called;
}

int bench_time(bench_timer_t *t, int (*exec)(void *ctx), void *ctx) {
    timed_exec_t self = {t, exec, ctx, 0};
    timer_reset(t);
    if (pair.state == PAIR_ARMED) {
        /* The first library's execution waits for the second's. */
        pair.state = PAIR_PARKED;
        pair.first = self;
        pair.second_called = 1;
        pair.second(pair.arg);
        const int timed = pair.state == PAIR_TIMED;
        pair.state = PAIR_OFF;
        if (timed || pair.first.rc != 0)
            return pair.first.rc;
        /* The second stopped before its timing: this one alone. */
    } else if (pair.state == PAIR_PARKED) {
        /* Both warmed up, the parked one first, then timed in turns. */
        pair.first.rc = pair.first.exec(pair.first.ctx);
        if (pair.first.rc == 0) {
            self.rc = exec(ctx);
            if (self.rc != 0)
                return self.rc; /* the parked one is then timed alone */
            time_runs(&pair.first, &self);
            pair.state = PAIR_TIMED;
            return self.rc;
        }
        pair.state = PAIR_OFF; /* the parked one failed: this one alone */
    }

    /* Warm-up: first-touch page faults and lazy initialization. */
    self.rc = exec(ctx);
    if (self.rc == 0)
        time_runs(&self, NULL);
    return self.rc;
}
