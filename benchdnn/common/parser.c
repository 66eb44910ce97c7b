/* Common options and the small parsing helpers drivers share. */
#define _POSIX_C_SOURCE 200809L /* strndup, strcasecmp */
#include "parser.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench_lib.h"
#include "benchdnn.h"
#include "cli_help.h"
#include "perf_report.h"

const char *parse_option_value(const char *tok, const char *name) {
    if (!tok || !name)
        return NULL;
    while (*name == '-')
        name++;
    if (strncmp(tok, "--", 2) != 0)
        return NULL;
    size_t len = strlen(name);
    if (strncmp(tok + 2, name, len) != 0)
        return NULL;
    const char *rest = tok + 2 + len;
    if (*rest == '=')
        return rest + 1;
    if (*rest == '\0')
        return rest;
    return NULL;
}

int parse_int_try(const char *s, int64_t *value) {
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *value = (int64_t)v;
    return 0;
}

int parse_float_try(const char *s, float *value) {
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    char *end = NULL;
    errno = 0;
    float v = strtof(s, &end);
    if (errno == ERANGE && isinf(v))
        return -1;
    if (*end != '\0' || isnan(v))
        return -1;
    *value = v;
    return 0;
}

int parse_bool_try(const char *s, int *value) {
    if (!s)
        return -1;
    if (!*s || !strcasecmp(s, "true") || !strcmp(s, "1")) {
        *value = 1;
        return 0;
    }
    if (!strcasecmp(s, "false") || !strcmp(s, "0")) {
        *value = 0;
        return 0;
    }
    return -1;
}

int64_t parse_int_or_die(const char *s, const char *option) {
    int64_t v;
    if (parse_int_try(s, &v) != 0)
        bench_usage_error("%s: '%s' is not an integer", option, s);
    return v;
}

float parse_float_or_die(const char *s, const char *option) {
    float v;
    if (parse_float_try(s, &v) != 0)
        bench_usage_error("%s: '%s' is not a number", option, s);
    return v;
}

int parse_split_list(const char *value, char **items, int max,
                     const char *option) {
    int n = 0;
    const char *p = value;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) {
            for (int i = 0; i < n; i++)
                free(items[i]);
            bench_usage_error("%s: empty item in '%s'", option, value);
        }
        if (n == max) {
            for (int i = 0; i < n; i++)
                free(items[i]);
            bench_usage_error("%s: more than %d items in '%s'", option, max,
                              value);
        }
        items[n++] = strndup(p, len);
        if (!comma)
            break;
        p = comma + 1;
    }
    return n;
}

void parse_warn_trailing_options(int count) {
    if (count <= 0)
        return;
    fflush(stdout);
    fprintf(stderr,
            "benchdnn: WARNING: %d option(s) after the last problem "
            "descriptor have no effect\n",
            count);
}

/* Parses "I/N" of --shard. */
static int parse_shard_try(const char *v, char *err) {
    const char *slash = strchr(v, '/');
    int64_t index, count;
    char head[32];
    size_t head_len = slash ? (size_t)(slash - v) : 0;
    if (!slash || head_len == 0 || head_len >= sizeof(head)) {
        bench_set_err(err, "--shard: expected I/N, got '%s'", v);
        return -1;
    }
    memcpy(head, v, head_len);
    head[head_len] = '\0';
    if (parse_int_try(head, &index) != 0 || parse_int_try(slash + 1, &count) ||
        count < 1 || index < 0 || index >= count || count > 1000000) {
        bench_set_err(err, "--shard: expected I/N with 0 <= I < N, got '%s'",
                      v);
        return -1;
    }
    bench_settings.shard_index = (int)index;
    bench_settings.shard_count = (int)count;
    return 0;
}

static int parse_mode_try(const char *v, char *err) {
    static const struct {
        const char *name;
        int mode;
    } modes[] = {
            {"c", MODE_CORR},
            {"p", MODE_PERF},
            {"cp", MODE_CORR | MODE_PERF},
            {"pc", MODE_CORR | MODE_PERF},
            {"l", MODE_LIST},
            {"i", MODE_INIT},
            {"b", MODE_BITWISE},
            {"f", MODE_PERF}, /* fast performance: P with a 10 ms budget */
    };
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        if (strcasecmp(v, modes[i].name) == 0) {
            bench_settings.mode = modes[i].mode;
            if (tolower((unsigned char)v[0]) == 'f')
                bench_settings.max_ms_per_prb = 10;
            return 0;
        }
    }
    bench_set_err(err,
                  "--mode: unknown mode '%s' (expected C, P, CP, L, I, "
                  "B or F)",
                  v);
    return -1;
}

static int parse_cold_cache_try(const char *v, char *err) {
    if (!strcmp(v, "none"))
        bench_settings.cold_cache = COLD_CACHE_NONE;
    else if (!strcmp(v, "wei"))
        bench_settings.cold_cache = COLD_CACHE_WEI;
    else if (!strcmp(v, "all"))
        bench_settings.cold_cache = COLD_CACHE_ALL;
    else {
        bench_set_err(
                err,
                "--cold-cache: unknown mode '%s' (expected none, wei or all)",
                v);
        return -1;
    }
    return 0;
}

/* --summary=[no-]failures[+...] or a boolean. */
static int parse_summary_try(const char *v, char *err) {
    int on;
    if (parse_bool_try(v, &on) == 0) {
        bench_settings.summary = on;
        return 0;
    }
    int summary = bench_settings.summary;
    const char *p = v;
    while (*p) {
        const char *plus = strchr(p, '+');
        size_t len = plus ? (size_t)(plus - p) : strlen(p);
        if (len == 8 && !strncmp(p, "failures", len))
            summary = 1;
        else if (len == 11 && !strncmp(p, "no-failures", len))
            summary = 0;
        else {
            bench_set_err(err, "--summary: unknown setting in '%s'", v);
            return -1;
        }
        p += len + (plus ? 1 : 0);
    }
    bench_settings.summary = summary;
    return 0;
}

static int parse_nonneg_int_try(const char *v, const char *option, int64_t min,
                                int64_t *out, char *err) {
    if (parse_int_try(v, out) != 0 || *out < min || *out > 1000000000) {
        bench_set_err(err, "%s: expected an integer >= %lld, got '%s'", option,
                      (long long)min, v);
        return -1;
    }
    return 0;
}

static int parse_bool_option_try(const char *v, const char *option, int *out,
                                 char *err) {
    if (parse_bool_try(v, out) != 0) {
        bench_set_err(err, "%s: expected true or false, got '%s'", option, v);
        return -1;
    }
    return 0;
}

/* oneDNN options that have nothing to act on here (GPU, tag checks):
 * accepted so that oneDNN batch files run, and ignored. */
static int is_ignored_onednn_option(const char *tok) {
    static const char *const names[] = {"allow-enum-tags-only",
                                        "attr-same-pd-check", "fast-ref-gpu",
                                        "cpu-isa-hints"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (parse_option_value(tok, names[i]))
            return 1;
    return 0;
}

/* Batch files quote some values (--skip-impl="ref:gemm"): the value
 * without one layer of matching quotes, in buf. */
static const char *unquote(const char *v, char *buf, size_t len) {
    const size_t n = strlen(v);
    if (n >= 2 && n < len && (v[0] == '"' || v[0] == '\'') &&
        v[n - 1] == v[0]) {
        memcpy(buf, v + 1, n - 2);
        buf[n - 2] = '\0';
        return buf;
    }
    return v;
}

int parse_common_option_try(const char *tok, char *err) {
    char buf[1024];
    const char *v;
    int64_t n;
    bench_settings_t *s = &bench_settings;

    if (tok[0] == '-' && tok[1] == 'v' && tok[2] != '\0' &&
        isdigit((unsigned char)tok[2])) {
        if (parse_nonneg_int_try(tok + 2, "-v", 0, &n, err))
            return -1;
        s->verbose = (int)n;
        return 1;
    }
    if ((v = parse_option_value(tok, "verbose"))) {
        if (parse_nonneg_int_try(v, "--verbose", 0, &n, err))
            return -1;
        s->verbose = (int)n;
        return 1;
    }
    if ((v = parse_option_value(tok, "mode")))
        return parse_mode_try(v, err) ? -1 : 1;
    if ((v = parse_option_value(tok, "match")))
        return bench_set_match_try(unquote(v, buf, sizeof(buf)), err) ? -1 : 1;
    if ((v = parse_option_value(tok, "skip-impl")))
        return bench_set_impl_list_try(1, unquote(v, buf, sizeof(buf)), err)
                       ? -1
                       : 1;
    if ((v = parse_option_value(tok, "impl")))
        return bench_set_impl_list_try(0, unquote(v, buf, sizeof(buf)), err)
                       ? -1
                       : 1;
    if ((v = parse_option_value(tok, "start"))) {
        if (parse_nonneg_int_try(v, "--start", 0, &n, err))
            return -1;
        s->start = (int)n;
        return 1;
    }
    if ((v = parse_option_value(tok, "fix-times-per-prb"))) {
        if (parse_nonneg_int_try(v, "--fix-times-per-prb", 0, &n, err))
            return -1;
        s->fix_times_per_prb = (int)n;
        return 1;
    }
    if ((v = parse_option_value(tok, "max-ms-per-prb"))) {
        float ms;
        if (parse_float_try(v, &ms) != 0 || !(ms > 0)) {
            bench_set_err(err,
                          "--max-ms-per-prb: expected a positive "
                          "number, got '%s'",
                          v);
            return -1;
        }
        /* Saturated to the documented range, as oneDNN does. */
        s->max_ms_per_prb = ms < 10 ? 10 : ms > 60000 ? 60000 : ms;
        return 1;
    }
    if ((v = parse_option_value(tok, "repeats-per-prb"))) {
        if (parse_nonneg_int_try(v, "--repeats-per-prb", 1, &n, err))
            return -1;
        s->repeats_per_prb = (int)n;
        return 1;
    }
    if ((v = parse_option_value(tok, "perf-template")))
        return perf_template_set_try(unquote(v, buf, sizeof(buf)), err) ? -1
                                                                        : 1;
    if ((v = parse_option_value(tok, "canonical")))
        return parse_bool_option_try(v, "--canonical", &s->canonical, err) ? -1
                                                                           : 1;
    if ((v = parse_option_value(tok, "allow-unimpl")))
        return parse_bool_option_try(v, "--allow-unimpl", &s->allow_unimpl, err)
                       ? -1
                       : 1;
    if ((v = parse_option_value(tok, "mem-check")))
        return parse_bool_option_try(v, "--mem-check", &s->mem_check, err) ? -1
                                                                           : 1;
    if ((v = parse_option_value(tok, "cold-cache")))
        return parse_cold_cache_try(v, err) ? -1 : 1;
    if ((v = parse_option_value(tok, "summary")))
        return parse_summary_try(v, err) ? -1 : 1;
    if ((v = parse_option_value(tok, "engine"))) {
        if (strcmp(v, "cpu") != 0 && strcmp(v, "cpu:0") != 0) {
            bench_set_err(err, "--engine: only 'cpu' is available, got '%s'",
                          v);
            return -1;
        }
        return 1;
    }
    if ((v = parse_option_value(tok, "shard")))
        return parse_shard_try(v, err) ? -1 : 1;
    if ((v = parse_option_value(tok, "lib")))
        return bench_lib_parse_try(v, err) ? -1 : 1;
    if (is_ignored_onednn_option(tok))
        return 1;
    return 0;
}

int parse_is_common_option(const char *tok) {
    if (tok[0] == '-' && tok[1] == 'v' && isdigit((unsigned char)tok[2]))
        return 1;
    if (is_ignored_onednn_option(tok))
        return 1;
    for (int i = 0; i < bench_n_common_option_docs; i++) {
        const bench_option_doc_t *d = &bench_common_option_docs[i];
        if (d->value && parse_option_value(tok, d->name))
            return 1;
    }
    return 0;
}

int parse_common_option(const char *tok) {
    char err[BENCH_ERR_LEN];
    int rc = parse_common_option_try(tok, err);
    if (rc < 0)
        bench_usage_error("%s", err);
    return rc;
}

void bench_appendf(bench_line_t *l, const char *fmt, ...) {
    if (!l->buf || l->used + 1 >= l->len)
        return;
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(l->buf + l->used, l->len - l->used, fmt, args);
    va_end(args);
    if (n > 0)
        l->used += (size_t)n;
    if (l->used >= l->len)
        l->used = l->len - 1;
}
