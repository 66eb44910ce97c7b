/* benchdnn common state: global settings set by the common options, the
 * result of one problem, the states it can end in, and the report lines.
 *
 * Flow: main.c picks the driver from argv[1] (--conv ...), expands the
 * remaining arguments (batch files inline, see batch.h) into a token list,
 * and hands it to the driver's `bench` function. The driver walks the
 * tokens: common options go through parse_common_option(), its own options
 * through its parser, and every other token is a problem descriptor, run
 * for each combination of the current option lists. */
#ifndef BENCHDNN_COMMON_BENCHDNN_H
#define BENCHDNN_COMMON_BENCHDNN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes. */
#define BENCHDNN_EXIT_OK 0
#define BENCHDNN_EXIT_FAILED 1
#define BENCHDNN_EXIT_USAGE 2

typedef enum {
    MODE_CORR = 1,     /* C */
    MODE_PERF = 2,     /* P */
    MODE_LIST = 4,     /* L: print the problems, run nothing */
    MODE_INIT = 8,     /* I: create primitives only */
    MODE_BITWISE = 16, /* B: run twice, compare bit for bit */
} bench_mode_t;

typedef enum {
    COLD_CACHE_NONE = 0,
    COLD_CACHE_WEI,
    COLD_CACHE_ALL,
} cold_cache_t;

#define BENCHDNN_MAX_IMPL_NAMES 16

/* --lib: the libraries that run each problem, as bits (both: Tessera, then
 * oneDNN, each with its own result line; see common/bench_lib.h). */
typedef enum {
    BENCH_LIB_TESSERA = 1,
    BENCH_LIB_ONEDNN = 2,
    BENCH_LIB_BOTH = BENCH_LIB_TESSERA | BENCH_LIB_ONEDNN,
} bench_lib_t;

/* Settings of the common options; they persist across problems. --reset
 * does not touch them (it resets driver options only). */
typedef struct {
    int mode;          /* bench_mode_t bits; default MODE_CORR */
    int verbose;       /* -vN */
    const char *match; /* POSIX extended regex on the repro string, or NULL */
    int n_skip_impl;
    const char *skip_impl[BENCHDNN_MAX_IMPL_NAMES];
    int n_impl;
    const char *impl[BENCHDNN_MAX_IMPL_NAMES];
    int start;                 /* skip problems with index < start */
    int fix_times_per_prb;     /* 0: time budget instead */
    double max_ms_per_prb;     /* default 3000, clipped to [10, 60000] */
    int repeats_per_prb;       /* default 1 */
    const char *perf_template; /* expanded template string */
    int perf_template_is_csv;
    int canonical; /* print every option in repro lines */
    int mem_check; /* skip problems that do not fit in memory */
    cold_cache_t cold_cache;
    int summary; /* print the summary block at the end (default on) */
    int shard_index, shard_count; /* --shard=I/N, 0/1 means all */
    int allow_unimpl; /* --allow-unimpl: UNIMPLEMENTED is not a failure */
    int libs;         /* bench_lib_t bits; default BENCH_LIB_TESSERA */
} bench_settings_t;

extern bench_settings_t bench_settings;
void bench_settings_init(void);

/* Problem states, printed in upper case. */
typedef enum {
    STATE_UNTESTED = 0,
    STATE_PASSED,
    STATE_SKIPPED,
    STATE_MISTRUSTED,
    STATE_UNIMPLEMENTED,
    STATE_INVALID_ARGUMENTS,
    STATE_FAILED,
    STATE_LISTED,
    STATE_EXECUTED,    /* performance-only runs */
    STATE_INITIALIZED, /* --mode=I */
    STATE_COUNT,
} res_state_t;

const char *res_state2str(res_state_t s);

/* Timed runs kept one by one (the first ones) for the %samples% perf
 * field: enough for a rank test between runs, bounded so res_t stays
 * small; min, average and max still cover every run. */
#define BENCH_TIMER_MAX_SAMPLES 256

/* Timing of one problem: min and average over the timed runs, in ms. */
typedef struct {
    int times;
    double min_ms, avg_ms, max_ms, sum_ms;
    double ctime_ms; /* primitive creation time */
    int n_samples;   /* min(times, BENCH_TIMER_MAX_SAMPLES) */
    double samples_ms[BENCH_TIMER_MAX_SAMPLES];
} bench_timer_t;

typedef struct {
    res_state_t state;
    int64_t errors, total;
    char reason[256]; /* why SKIPPED/UNIMPLEMENTED/INVALID_ARGUMENTS */
    char impl_name[64];
    bench_timer_t timer;
} res_t;

/* Global counters for the summary line. */
typedef struct {
    int tests;
    int count[STATE_COUNT];
    double total_min_ms, total_avg_ms;
} bench_stats_t;

extern bench_stats_t bench_stats;

/* Prints "IDX:STATE[ (reason)][ (errors:E total:T)] __REPRO: REPRO" and
 * counts the state. `repro` is the full argument string after "benchdnn". */
void report_result(int idx, const res_t *res, const char *repro);

/* Closing lines: "tests:N passed:N ..." and, with MODE_PERF,
 * "total perf: min(ms):X avg(ms):Y". Returns the exit code. */
int report_summary(void);

/* 1 when the problem `idx` with repro string `repro` is to be run
 * (honours --start, --match and --shard); otherwise counts nothing. */
int bench_should_run(int idx, const char *repro);

/* 1 when the implementation name passes --impl / --skip-impl. */
int bench_impl_allowed(const char *impl_name);

/* Usage error: prints "benchdnn: ERROR: <message>" to stderr, then
 * bench_usage_exit(BENCHDNN_EXIT_USAGE). */
void bench_usage_error(const char *fmt, ...)
        __attribute__((format(printf, 1, 2), noreturn));

/* Every exit of benchdnn's code goes through here: exit(code), unless a
 * hook is set. A program that runs benchdnn in its own process (a fuzz
 * target) sets a hook that does not return (it longjmps back); the
 * cleanups pushed by the abandoned run are run first, newest first, so
 * that the run leaks nothing. NULL restores exit(). */
typedef void (*bench_exit_hook_t)(int code);
void bench_set_exit_hook(bench_exit_hook_t hook);
void bench_usage_exit(int code) __attribute__((noreturn));

/* What a hooked exit must release of a run in progress: push after the
 * allocation, pop (running it when `run`) where the run frees it. */
void bench_cleanup_push(void (*fn)(void *), void *arg);
void bench_cleanup_pop(int run);

/* Error messages of the *_try functions (which return -1 instead of
 * exiting, so the harness' own tests can check rejections). */
#define BENCH_ERR_LEN 256
void bench_set_err(char *err, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

/* --match: compiles REGEX (POSIX extended); NULL or "" clears it.
 * Returns 0, or -1 with a message for a bad expression. */
int bench_set_match_try(const char *regex, char *err);
/* --impl / --skip-impl: a comma list of names; "" clears it. */
int bench_set_impl_list_try(int skip, const char *list, char *err);

/* --mem-check: 1 when `bytes` fit in the available memory (or the check
 * is off); otherwise marks res SKIPPED with the reason and returns 0. */
int bench_mem_check(size_t bytes, res_t *res);

/* Releases what the settings own (end of main). */
void bench_settings_free(void);

/* The token loop every driver shares: common options update
 * bench_settings, "--reset" calls reset(), the driver's own options go to
 * parse_option() (1 = consumed), any other "--..." token is a usage error
 * naming it, and every other token is a problem descriptor handed to
 * run_descriptor(), which parses it (usage error on bad text) and runs it
 * for every combination of the current option lists. Options after the
 * last descriptor give a warning. Returns 0. */
typedef struct {
    void *state;
    int (*parse_option)(void *state, const char *tok);
    void (*reset)(void *state);
    void (*run_descriptor)(void *state, const char *desc);
    /* Optional, for a pass over every token before the first problem
     * runs, so that a bad token anywhere (a batch file's last line) stops
     * the run before anything ran: the driver's options go into the
     * scratch `check_state`, check_descriptor() parses a descriptor there
     * (usage error on bad text). Common options are checked where they
     * stand, as they set the run's settings. */
    void *check_state;
    void (*check_descriptor)(void *state, const char *desc);
} bench_driver_loop_t;

int bench_driver_loop(int ntokens, char **tokens,
                      const bench_driver_loop_t *loop);
/* The token bench_driver_loop is at, NULL outside it: a usage error names
 * the batch file and line it came from (batch_token_origin). */
extern const char *bench_current_token;

/* Index for the next problem line (0, 1, 2, ... across the whole run). */
int bench_next_index(void);

/* A driver: its name ("conv"), and the function that consumes the tokens
 * and runs the problems. Returns 0 on success (failures are counted in
 * bench_stats, not returned). */
typedef struct {
    const char *name;
    int (*bench)(int ntokens, char **tokens);
} bench_driver_t;

#endif
