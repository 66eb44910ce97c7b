/* Driver options kept as comma lists of validated strings, multiplied into
 * problems: a driver describes its options in a table (name, alias,
 * default, validator), the token loop feeds tokens to opt_lists_parse_try,
 * and combination i picks one value per option (the later option in the
 * table varying faster, --attr-* lists faster still, and the options from
 * after_attr_from on fastest). An empty value (--alpha=) sets the
 * default. */
#ifndef BENCHDNN_COMMON_OPT_LISTS_H
#define BENCHDNN_COMMON_OPT_LISTS_H

#include "attr.h"
#include "benchdnn.h"

#define OPT_VALUE_LEN 96
#define OPT_MAX 16

typedef struct {
    const char *name;  /* "dt" for --dt= */
    const char *alias; /* another spelling ("bia_dt"), or NULL */
    const char *dflt;  /* the value(s) before any option and after --reset:
                          a comma list multiplies as given ones do */
    /* 0 when `value` is acceptable for --`option`, else -1 with a message
     * naming both in err. */
    int (*validate)(const char *option, const char *value, char *err);
} opt_def_t;

typedef struct {
    const opt_def_t *defs;
    int ndefs; /* <= OPT_MAX */
    /* defs[k] with k >= this vary faster than the --attr-* lists (oneDNN
     * drivers iterate --inplace after the attributes); ndefs by default. */
    int after_attr_from;
    /* list_of[k]: the option whose list defs[k] sets, k itself unless
     * opt_lists_share made defs[k] another spelling of that list. */
    int list_of[OPT_MAX];
    /* For a list: the option that set it last (the list's own after a
     * reset). */
    int set_by[OPT_MAX];
    int n[OPT_MAX];
    char values[OPT_MAX][BENCH_MAX_LIST][OPT_VALUE_LEN];
    bench_attr_lists_t attr;
} opt_lists_t;

/* Starts with every option at its default (`lists` zeroed or reset). */
void opt_lists_init(opt_lists_t *lists, const opt_def_t *defs, int ndefs);
/* Makes option `k` set option `owner`'s list instead of a list of its own:
 * a second spelling with its own validator (--cfg, parsed as v2.x names,
 * for --dt), the last one given replacing the list. defs[k].dflt is then
 * only documentation; the list's default is the owner's. In a
 * combination, the option that set the list last gets the value and the
 * other spellings NULL. */
void opt_lists_share(opt_lists_t *lists, int k, int owner);
/* Back to the defaults (--reset); also releases the attribute lists. */
void opt_lists_reset(opt_lists_t *lists);
/* 1 consumed, 0 not one of the options, -1 bad value (message in err;
 * the lists are left as they were). */
int opt_lists_parse_try(opt_lists_t *lists, const char *tok, char *err);
int opt_lists_count(const opt_lists_t *lists);
/* For combination i: the value of each option (values[k] for defs[k]; NULL
 * for a spelling that did not set its shared list) and the attributes. */
void opt_lists_get(const opt_lists_t *lists, int i, const char *values[OPT_MAX],
                   bench_attr_t *attr);

#endif
