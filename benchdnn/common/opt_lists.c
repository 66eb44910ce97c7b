/* Driver options as multiplied comma lists (see opt_lists.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_lists.h"
#include "parser.h"

/* Option k's default, itself a comma list ("0,0.25,-0.25"). */
static void set_default(opt_lists_t *l, int k) {
    const char *p = l->defs[k].dflt;
    int n = 0;
    do {
        const size_t len = strcspn(p, ",");
        snprintf(l->values[k][n++], OPT_VALUE_LEN, "%.*s", (int)len, p);
        p += len;
    } while (*p++ == ',' && n < BENCH_MAX_LIST);
    l->n[k] = n;
    l->set_by[k] = k;
}

static int owns_list(const opt_lists_t *l, int k) {
    return l->list_of[k] == k;
}

static void set_defaults(opt_lists_t *l) {
    for (int k = 0; k < l->ndefs; k++)
        if (owns_list(l, k))
            set_default(l, k);
}

void opt_lists_init(opt_lists_t *lists, const opt_def_t *defs, int ndefs) {
    memset(lists, 0, sizeof(*lists));
    lists->defs = defs;
    lists->ndefs = ndefs < OPT_MAX ? ndefs : OPT_MAX;
    lists->after_attr_from = lists->ndefs;
    for (int k = 0; k < lists->ndefs; k++)
        lists->list_of[k] = k;
    set_defaults(lists);
}

void opt_lists_share(opt_lists_t *lists, int k, int owner) {
    lists->list_of[k] = owner;
    lists->n[k] = 0;
}

void opt_lists_reset(opt_lists_t *lists) {
    attr_lists_reset(&lists->attr);
    set_defaults(lists);
}

/* The option `tok` sets, with its value; -1 when none. */
static int find_option(const opt_lists_t *l, const char *tok,
                       const char **value) {
    for (int k = 0; k < l->ndefs; k++) {
        *value = parse_option_value(tok, l->defs[k].name);
        if (!*value && l->defs[k].alias)
            *value = parse_option_value(tok, l->defs[k].alias);
        if (*value)
            return k;
    }
    return -1;
}

int opt_lists_parse_try(opt_lists_t *lists, const char *tok, char *err) {
    int rc = attr_lists_try_parse(&lists->attr, tok, err);
    if (rc != 0)
        return rc;
    const char *value;
    const int k = find_option(lists, tok, &value);
    if (k < 0)
        return 0;
    const opt_def_t *def = &lists->defs[k];
    const int list = lists->list_of[k];
    if (value[0] == '\0' && !strchr(tok, '='))
        value = "true";     /* a bare flag: --inplace */
    if (value[0] == '\0') { /* the default */
        set_default(lists, list);
        return 1;
    }
    char items[BENCH_MAX_LIST][OPT_VALUE_LEN];
    int n = 0;
    for (const char *p = value;; n++) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) {
            bench_set_err(err, "--%s: empty item in '%s'", def->name, value);
            return -1;
        }
        if (len >= OPT_VALUE_LEN || n == BENCH_MAX_LIST) {
            bench_set_err(err,
                          len >= OPT_VALUE_LEN
                                  ? "--%s: a value longer than %d characters "
                                    "in '%s'"
                                  : "--%s: more than %d values in '%s'",
                          def->name,
                          len >= OPT_VALUE_LEN ? OPT_VALUE_LEN - 1
                                               : BENCH_MAX_LIST,
                          value);
            return -1;
        }
        memcpy(items[n], p, len);
        items[n][len] = '\0';
        if (def->validate && def->validate(def->name, items[n], err) != 0)
            return -1;
        if (!comma)
            break;
        p = comma + 1;
    }
    lists->n[list] = n + 1;
    memcpy(lists->values[list], items, sizeof(items[0]) * (size_t)(n + 1));
    lists->set_by[list] = k;
    return 1;
}

int opt_lists_count(const opt_lists_t *lists) {
    int count = attr_lists_count(&lists->attr);
    for (int k = 0; k < lists->ndefs; k++)
        if (owns_list(lists, k))
            count *= lists->n[k];
    return count;
}

void opt_lists_get(const opt_lists_t *lists, int i, const char *values[OPT_MAX],
                   bench_attr_t *attr) {
    const char *picked[OPT_MAX]; /* per list */
    for (int k = lists->ndefs - 1; k >= 0; k--) {
        if (k < lists->after_attr_from || !owns_list(lists, k))
            continue;
        picked[k] = lists->values[k][i % lists->n[k]];
        i /= lists->n[k];
    }
    const int n_attr = attr_lists_count(&lists->attr);
    attr_lists_get(&lists->attr, i % n_attr, attr);
    i /= n_attr;
    for (int k = lists->ndefs - 1; k >= 0; k--) {
        if (k >= lists->after_attr_from || !owns_list(lists, k))
            continue;
        picked[k] = lists->values[k][i % lists->n[k]];
        i /= lists->n[k];
    }
    for (int k = 0; k < lists->ndefs; k++) {
        const int list = lists->list_of[k];
        values[k] = lists->set_by[list] == k ? picked[list] : NULL;
    }
}
