/* Global settings, problem selection (--start, --match, --shard, --impl),
 * result lines, the closing summary and the token loop drivers share. */
#define _GNU_SOURCE /* strdup, strndup, sysconf(_SC_AVPHYS_PAGES) */
#include "benchdnn.h"

#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "parser.h"
#include "perf_report.h"

bench_settings_t bench_settings;
bench_stats_t bench_stats;

/* The compiled --match expression; bench_settings.match keeps its text. */
static regex_t match_regex;
static int match_regex_set;

/* Problems that failed, listed again at the end (--summary=failures). */
#define MAX_FAILED_LISTED 10
static char *failed_lines[MAX_FAILED_LISTED];
static int n_failed_lines;

static int next_problem_index;

void bench_settings_init(void) {
    bench_settings_free();
    memset(&bench_settings, 0, sizeof(bench_settings));
    bench_settings.mode = MODE_CORR;
    bench_settings.max_ms_per_prb = 3000;
    bench_settings.repeats_per_prb = 1;
    perf_template_set_try("def", NULL);
    bench_settings.mem_check = 1;
    bench_settings.cold_cache = COLD_CACHE_NONE;
    bench_settings.summary = 1;
    bench_settings.shard_index = 0;
    bench_settings.shard_count = 1;
    bench_settings.libs = BENCH_LIB_TESSERA;
    memset(&bench_stats, 0, sizeof(bench_stats));
    next_problem_index = 0;
}

static void free_impl_list(int skip) {
    int *n = skip ? &bench_settings.n_skip_impl : &bench_settings.n_impl;
    const char **names = skip ? bench_settings.skip_impl : bench_settings.impl;
    for (int i = 0; i < *n; i++)
        free((void *)names[i]);
    *n = 0;
}

void bench_settings_free(void) {
    free_impl_list(0);
    free_impl_list(1);
    if (match_regex_set)
        regfree(&match_regex);
    match_regex_set = 0;
    free((void *)bench_settings.match);
    bench_settings.match = NULL;
    for (int i = 0; i < n_failed_lines; i++)
        free(failed_lines[i]);
    n_failed_lines = 0;
    perf_template_set_try("def", NULL); /* frees a custom template */
}

void bench_set_err(char *err, const char *fmt, ...) {
    if (!err)
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(err, BENCH_ERR_LEN, fmt, args);
    va_end(args);
}

const char *bench_current_token;

void bench_usage_error(const char *fmt, ...) {
    fflush(stdout);
    fprintf(stderr, "benchdnn: ERROR: ");
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    const char *origin = batch_token_origin(bench_current_token);
    if (origin)
        fprintf(stderr, " (in %s)", origin);
    fprintf(stderr, "\n");
    bench_usage_exit(BENCHDNN_EXIT_USAGE);
}

static bench_exit_hook_t exit_hook;

/* Deep enough for main, a driver and its loop. */
#define MAX_CLEANUPS 16
static struct {
    void (*fn)(void *);
    void *arg;
} cleanups[MAX_CLEANUPS];
static int n_cleanups;

void bench_set_exit_hook(bench_exit_hook_t hook) {
    exit_hook = hook;
}

void bench_cleanup_push(void (*fn)(void *), void *arg) {
    if (n_cleanups == MAX_CLEANUPS) {
        fprintf(stderr, "benchdnn: ERROR: more than %d cleanups\n",
                MAX_CLEANUPS);
        abort(); /* a programming error, not a usage error */
    }
    cleanups[n_cleanups].fn = fn;
    cleanups[n_cleanups].arg = arg;
    n_cleanups++;
}

void bench_cleanup_pop(int run) {
    if (n_cleanups == 0)
        return;
    n_cleanups--;
    if (run)
        cleanups[n_cleanups].fn(cleanups[n_cleanups].arg);
}

void bench_usage_exit(int code) {
    fflush(stdout);
    if (exit_hook) {
        while (n_cleanups > 0)
            bench_cleanup_pop(1);
        exit_hook(code);
    }
    exit(code);
}

int bench_set_match_try(const char *regex, char *err) {
    regex_t compiled;
    if (regex && *regex) {
        int rc = regcomp(&compiled, regex, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char why[128];
            regerror(rc, &compiled, why, sizeof(why));
            bench_set_err(err, "--match: bad regular expression '%s': %s",
                          regex, why);
            return -1;
        }
    }
    if (match_regex_set)
        regfree(&match_regex);
    free((void *)bench_settings.match);
    bench_settings.match = NULL;
    match_regex_set = 0;
    if (regex && *regex) {
        match_regex = compiled;
        match_regex_set = 1;
        bench_settings.match = strdup(regex);
    }
    return 0;
}

int bench_set_impl_list_try(int skip, const char *list, char *err) {
    const char *option = skip ? "--skip-impl" : "--impl";
    const char *names[BENCHDNN_MAX_IMPL_NAMES];
    size_t lens[BENCHDNN_MAX_IMPL_NAMES];
    int count = 0;
    /* Split and validate before touching the current list. */
    for (const char *p = list; *list;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) {
            bench_set_err(err, "%s: empty name in '%s'", option, list);
            return -1;
        }
        if (count == BENCHDNN_MAX_IMPL_NAMES) {
            bench_set_err(err, "%s: more than %d names in '%s'", option,
                          BENCHDNN_MAX_IMPL_NAMES, list);
            return -1;
        }
        names[count] = p;
        lens[count++] = len;
        if (!comma)
            break;
        p = comma + 1;
    }
    /* --impl and --skip-impl are opposites: the latest one wins. */
    free_impl_list(0);
    free_impl_list(1);
    int *n = skip ? &bench_settings.n_skip_impl : &bench_settings.n_impl;
    const char **kept = skip ? bench_settings.skip_impl : bench_settings.impl;
    for (int i = 0; i < count; i++)
        kept[(*n)++] = strndup(names[i], lens[i]);
    return 0;
}

const char *res_state2str(res_state_t s) {
    switch (s) {
    case STATE_UNTESTED:
        return "UNTESTED";
    case STATE_PASSED:
        return "PASSED";
    case STATE_SKIPPED:
        return "SKIPPED";
    case STATE_MISTRUSTED:
        return "MISTRUSTED";
    case STATE_UNIMPLEMENTED:
        return "UNIMPLEMENTED";
    case STATE_INVALID_ARGUMENTS:
        return "INVALID_ARGUMENTS";
    case STATE_FAILED:
        return "FAILED";
    case STATE_LISTED:
        return "LISTED";
    case STATE_EXECUTED:
        return "EXECUTED";
    case STATE_INITIALIZED:
        return "INITIALIZED";
    default:
        return "UNKNOWN";
    }
}

/* States that make the run fail (exit status 1). */
static int state_is_failure(res_state_t s) {
    if (s == STATE_UNIMPLEMENTED)
        return !bench_settings.allow_unimpl;
    return s == STATE_FAILED || s == STATE_INVALID_ARGUMENTS ||
           s == STATE_UNTESTED;
}

static void format_result_line(int idx, const res_t *res, const char *repro,
                               char *buf, size_t len) {
    int n = snprintf(buf, len, "%d:%s", idx, res_state2str(res->state));
    if (res->reason[0] && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - n, " (%s)", res->reason);
    if ((res->state == STATE_FAILED || res->errors > 0) && n >= 0 &&
        (size_t)n < len)
        n += snprintf(buf + n, len - n, " (errors:%lld total:%lld)",
                      (long long)res->errors, (long long)res->total);
    if (n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - n, " __REPRO: %s", repro ? repro : "");
}

void report_result(int idx, const res_t *res, const char *repro) {
    char line[4096];
    format_result_line(idx, res, repro, line, sizeof(line));
    printf("%s\n", line);
    fflush(stdout);

    res_state_t state = res->state < STATE_COUNT ? res->state : STATE_UNTESTED;
    bench_stats.tests++;
    bench_stats.count[state]++;
    if ((bench_settings.mode & MODE_PERF) && res->timer.times > 0) {
        bench_stats.total_min_ms += res->timer.min_ms;
        bench_stats.total_avg_ms += res->timer.avg_ms;
    }
    if (state_is_failure(state) && n_failed_lines < MAX_FAILED_LISTED)
        failed_lines[n_failed_lines++] = strdup(line);
}

int report_summary(void) {
    const int *c = bench_stats.count;
    if (bench_settings.summary && n_failed_lines > 0) {
        printf("===================================================\n");
        printf("= Failed cases summary (--summary=no-failures to disable) =\n");
        printf("===================================================\n");
        for (int i = 0; i < n_failed_lines; i++)
            printf("%s\n", failed_lines[i]);
        int n_failed_total = 0;
        for (int st = 0; st < STATE_COUNT; st++)
            n_failed_total += state_is_failure((res_state_t)st) ? c[st] : 0;
        if (n_failed_total > n_failed_lines)
            printf("(and %d more)\n", n_failed_total - n_failed_lines);
        printf("============================\n");
    }
    /* Performance-only and init-only problems ran as asked: they count as
     * passed, as oneDNN counts them. */
    printf("tests:%d passed:%d skipped:%d mistrusted:%d unimplemented:%d "
           "invalid_arguments:%d failed:%d listed:%d\n",
           bench_stats.tests,
           c[STATE_PASSED] + c[STATE_EXECUTED] + c[STATE_INITIALIZED],
           c[STATE_SKIPPED], c[STATE_MISTRUSTED], c[STATE_UNIMPLEMENTED],
           c[STATE_INVALID_ARGUMENTS], c[STATE_FAILED], c[STATE_LISTED]);
    if (bench_settings.mode & MODE_PERF)
        printf("total perf: min(ms):%g avg(ms):%g\n", bench_stats.total_min_ms,
               bench_stats.total_avg_ms);
    fflush(stdout);
    for (int s = 0; s < STATE_COUNT; s++)
        if (state_is_failure((res_state_t)s) && c[s] > 0)
            return BENCHDNN_EXIT_FAILED;
    return BENCHDNN_EXIT_OK;
}

int bench_should_run(int idx, const char *repro) {
    if (idx < bench_settings.start)
        return 0;
    if (bench_settings.shard_count > 1 &&
        idx % bench_settings.shard_count != bench_settings.shard_index)
        return 0;
    if (match_regex_set &&
        regexec(&match_regex, repro ? repro : "", 0, NULL, 0) != 0)
        return 0;
    return 1;
}

int bench_impl_allowed(const char *impl_name) {
    const char *name = impl_name ? impl_name : "";
    if (bench_settings.n_impl > 0) {
        for (int i = 0; i < bench_settings.n_impl; i++)
            if (strstr(name, bench_settings.impl[i]))
                return 1;
        return 0;
    }
    for (int i = 0; i < bench_settings.n_skip_impl; i++)
        if (strstr(name, bench_settings.skip_impl[i]))
            return 0;
    return 1;
}

int bench_mem_check(size_t bytes, res_t *res) {
    if (!bench_settings.mem_check)
        return 1;
    long pages = sysconf(_SC_AVPHYS_PAGES);
    long page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0)
        return 1; /* unknown: let the allocation decide */
    /* Keep a margin for the library's scratchpad and the system. */
    double available = 0.75 * (double)pages * (double)page_size;
    if ((double)bytes <= available)
        return 1;
    res->state = STATE_SKIPPED;
    snprintf(res->reason, sizeof(res->reason),
             "not enough memory: needs %.1f MB, %.1f MB available",
             (double)bytes / (1 << 20), available / (1 << 20));
    return 0;
}

int bench_next_index(void) {
    return next_problem_index++;
}

/* One pass over the tokens. `check`: the pass before the first run, into
 * the scratch state, descriptors only parsed, common options left for the
 * run to apply. */
static void walk_tokens(int ntokens, char **tokens,
                        const bench_driver_loop_t *loop, int check) {
    void *state = check ? loop->check_state : loop->state;
    int options_since_problem = 0;
    for (int i = 0; i < ntokens; i++) {
        const char *tok = tokens[i];
        bench_current_token = tok;
        if (check ? parse_is_common_option(tok) : parse_common_option(tok)) {
            options_since_problem++;
        } else if (strcmp(tok, "--reset") == 0) {
            if (loop->reset)
                loop->reset(state);
            options_since_problem++;
        } else if (loop->parse_option && loop->parse_option(state, tok)) {
            options_since_problem++;
        } else if (tok[0] == '-') {
            bench_usage_error("unknown option '%s'", tok);
        } else if (check) {
            loop->check_descriptor(state, tok);
            options_since_problem = 0;
        } else {
            /* --repeats-per-prb repeats the whole problem, correctness
             * included, to catch sporadic failures. */
            for (int r = 0; r < bench_settings.repeats_per_prb; r++)
                loop->run_descriptor(state, tok);
            options_since_problem = 0;
        }
    }
    bench_current_token = NULL;
    if (!check)
        parse_warn_trailing_options(options_since_problem);
}

int bench_driver_loop(int ntokens, char **tokens,
                      const bench_driver_loop_t *loop) {
    if (loop->check_descriptor)
        walk_tokens(ntokens, tokens, loop, 1);
    walk_tokens(ntokens, tokens, loop, 0);
    return 0;
}
