/* Option parsing helpers. Every parse_* function returns 1 when it
 * consumed the token, 0 when the token is not its option; a malformed
 * value of a recognized option is a usage error (exit 2, message naming
 * the text). */
#ifndef BENCHDNN_COMMON_PARSER_H
#define BENCHDNN_COMMON_PARSER_H

#include <stddef.h>
#include <stdint.h>

/* Common options: --mode, -vN/--verbose, --match, --skip-impl, --impl,
 * --start, --fix-times-per-prb, --max-ms-per-prb, --repeats-per-prb,
 * --perf-template, --canonical, --mem-check, --cold-cache, --summary,
 * --engine, --shard, --lib. Updates bench_settings. */
int parse_common_option(const char *tok);
/* The same, returning -1 with a message in `err` (BENCH_ERR_LEN bytes)
 * instead of exiting on a malformed value. */
int parse_common_option_try(const char *tok, char *err);
/* 1 when `tok` is a common option (any value), without parsing it. */
int parse_is_common_option(const char *tok);

/* If tok is "--NAME=VALUE" (or "--NAME" when value_optional), returns
 * VALUE (or "" for a bare flag); NULL otherwise. */
const char *parse_option_value(const char *tok, const char *name);

/* Splits a comma list into at most `max` owned strings; returns count.
 * An empty item is a usage error naming `option`. */
int parse_split_list(const char *value, char **items, int max,
                     const char *option);

/* Strict integer / float parsing of the whole string; a usage error
 * naming `option` and the text when it is not a number. */
int64_t parse_int_or_die(const char *s, const char *option);
float parse_float_or_die(const char *s, const char *option);
/* Non-exiting forms: 0 on success, -1 when `s` is not entirely a number. */
int parse_int_try(const char *s, int64_t *value);
int parse_float_try(const char *s, float *value);
/* "true"/"false"/"1"/"0", and "" (a bare flag) as true. */
int parse_bool_try(const char *s, int *value);

/* Prints a warning when options followed the last problem. Drivers call it
 * after the loop with the number of trailing option tokens. */
void parse_warn_trailing_options(int count);

/* Bounded appending to a buffer (always NUL-terminated, truncates). */
typedef struct {
    char *buf;
    size_t len, used;
} bench_line_t;
void bench_appendf(bench_line_t *l, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

#endif
