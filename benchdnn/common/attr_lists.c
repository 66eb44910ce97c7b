/* Option lists of the --attr-* options: each option holds a comma list of
 * values (validated when given) and a driver runs every combination. */
#define _POSIX_C_SOURCE 200809L /* strdup, strndup */
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "benchdnn.h"
#include "parser.h"

typedef int (*attr_try_fn)(bench_attr_t *, const char *, char *);
typedef void (*attr_parse_fn)(bench_attr_t *, const char *);

enum { ATTR_LIST_COUNT = 6 };

/* In the order of bench_attr_lists_t.values. */
static const char *const list_options[ATTR_LIST_COUNT] = {
        "attr-scratchpad",  "attr-oscale",   "attr-scales",
        "attr-zero-points", "attr-post-ops", "attr-round-mode"};
/* Validation (non-exiting) and application of one value, per option. */
static const attr_try_fn list_validators[ATTR_LIST_COUNT] = {
        attr_try_parse_scratchpad, attr_try_parse_oscale,
        attr_try_parse_scales,     attr_try_parse_zero_points,
        attr_try_parse_post_ops,   attr_try_parse_round_mode};
static const attr_parse_fn list_parsers[ATTR_LIST_COUNT] = {
        attr_parse_scratchpad,  attr_parse_oscale,   attr_parse_scales,
        attr_parse_zero_points, attr_parse_post_ops, attr_parse_round_mode};

static void free_list(bench_attr_lists_t *lists, int k) {
    for (int j = 0; j < lists->n[k]; j++)
        free(lists->values[k][j]);
    lists->n[k] = 0;
}

void attr_lists_reset(bench_attr_lists_t *lists) {
    for (int k = 0; k < ATTR_LIST_COUNT; k++)
        free_list(lists, k);
}

/* Validates the comma list `value` of option k, then replaces its list. */
static int parse_list_option(bench_attr_lists_t *lists, int k,
                             const char *value, char *err) {
    char *items[BENCH_MAX_LIST];
    int n = 0, rc = 0;
    /* Empty items are allowed: they stand for the default. */
    for (const char *p = value; rc == 0;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (n == BENCH_MAX_LIST) {
            bench_set_err(err, "--%s: more than %d values", list_options[k],
                          BENCH_MAX_LIST);
            rc = -1;
            break;
        }
        items[n++] = strndup(p, len);
        bench_attr_t scratch;
        bench_attr_init(&scratch);
        rc = list_validators[k](&scratch, items[n - 1], err);
        if (!comma)
            break;
        p = comma + 1;
    }
    if (rc != 0) {
        for (int j = 0; j < n; j++)
            free(items[j]);
        return -1;
    }
    free_list(lists, k);
    for (int j = 0; j < n; j++)
        lists->values[k][j] = items[j];
    lists->n[k] = n;
    return 0;
}

/* One "key=value" piece of the legacy --attr form: validates the value and
 * records it in pieces[list]. */
static int parse_legacy_piece(char *piece, char **pieces, char *err) {
    static const struct {
        const char *key;
        int list;
    } keys[] = {
            {"oscale", 1}, {"scales", 2}, {"zero_points", 3}, {"post_ops", 4}};
    char *eq = strchr(piece, '=');
    for (size_t i = 0; eq && i < sizeof(keys) / sizeof(keys[0]); i++) {
        const size_t key_len = strlen(keys[i].key);
        if ((size_t)(eq - piece) != key_len ||
            strncmp(piece, keys[i].key, key_len) != 0)
            continue;
        bench_attr_t scratch;
        bench_attr_init(&scratch);
        if (list_validators[keys[i].list](&scratch, eq + 1, err) != 0)
            return -1;
        pieces[keys[i].list] = eq + 1;
        return 0;
    }
    bench_set_err(err, "--attr: unknown attribute '%s'", piece);
    return -1;
}

/* The v1.x/v2.0 form --attr="oscale=P:S;scales=...;zero_points=...;
 * post_ops='sum;relu'": one combination; what it does not name returns to
 * the default. */
static int parse_legacy_attr(bench_attr_lists_t *lists, const char *value,
                             char *err) {
    char buf[1024];
    char *pieces[ATTR_LIST_COUNT] = {0};
    size_t len = strlen(value);
    if (len >= sizeof(buf)) {
        bench_set_err(err, "--attr: value too long");
        return -1;
    }
    if (len >= 2 && value[0] == '"' && value[len - 1] == '"') {
        value++;
        len -= 2;
    }
    memcpy(buf, value, len);
    buf[len] = '\0';
    /* Split at ';' outside quotes: post_ops='sum;relu' is one piece. */
    char quote = 0, *start = buf;
    for (char *p = buf;; p++) {
        if (!quote && (*p == '\'' || *p == '"'))
            quote = *p;
        else if (quote && *p == quote)
            quote = 0;
        if (*p != '\0' && (*p != ';' || quote))
            continue;
        const int last = *p == '\0';
        *p = '\0';
        if (*start && parse_legacy_piece(start, pieces, err) != 0)
            return -1;
        if (last)
            break;
        start = p + 1;
    }
    attr_lists_reset(lists);
    for (int k = 0; k < ATTR_LIST_COUNT; k++) {
        if (pieces[k]) {
            lists->values[k][0] = strdup(pieces[k]);
            lists->n[k] = 1;
        }
    }
    return 0;
}

int attr_lists_try_parse(bench_attr_lists_t *lists, const char *tok,
                         char *err) {
    const char *value = parse_option_value(tok, "attr");
    if (value)
        return parse_legacy_attr(lists, value, err) ? -1 : 1;
    for (int k = 0; k < ATTR_LIST_COUNT; k++) {
        value = parse_option_value(tok, list_options[k]);
        if (value)
            return parse_list_option(lists, k, value, err) ? -1 : 1;
    }
    return 0;
}

int attr_lists_parse(bench_attr_lists_t *lists, const char *tok) {
    char err[BENCH_ERR_LEN];
    int rc = attr_lists_try_parse(lists, tok, err);
    if (rc < 0)
        bench_usage_error("%s", err);
    return rc;
}

int attr_lists_count(const bench_attr_lists_t *lists) {
    int count = 1;
    for (int k = 0; k < ATTR_LIST_COUNT; k++)
        count *= lists->n[k] > 0 ? lists->n[k] : 1;
    return count;
}

void attr_lists_get(const bench_attr_lists_t *lists, int i,
                    bench_attr_t *attr) {
    bench_attr_init(attr);
    /* Mixed radix, the last option varying fastest. */
    for (int k = ATTR_LIST_COUNT - 1; k >= 0; k--) {
        const int n = lists->n[k];
        if (n == 0)
            continue;
        list_parsers[k](attr, lists->values[k][i % n]);
        i /= n;
    }
}
