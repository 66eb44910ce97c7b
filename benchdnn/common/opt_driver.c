/* The token loop of an opt_lists_t driver (see opt_driver.h). */
#include "common/opt_driver.h"

#include <stdlib.h>
#include <string.h>

#include "common/bench_lib.h"
#include "common/cli_help.h"

typedef struct {
    const opt_driver_t *drv;
    opt_lists_t lists;
    void *desc, *prb; /* the driver's, desc_size and prb_size bytes */
} loop_state_t;

static void loop_state_free(void *state) {
    loop_state_t *s = state;
    opt_lists_reset(&s->lists);
    free(s->prb);
    free(s->desc);
    free(s);
}

static void run_on_lib(void *ctx, bench_lib_t lib, const char *repro,
                       res_t *res) {
    const loop_state_t *s = ctx;
    s->drv->run(s->prb, lib, repro, res);
}

/* bench_driver_loop asks the driver last: a "-" token it does not take
 * is unknown. */
static int loop_parse_option(void *state, const char *tok) {
    loop_state_t *s = state;
    char err[BENCH_ERR_LEN];
    int rc = opt_lists_parse_try(&s->lists, tok, err);
    if (rc < 0)
        bench_option_value_error(tok, err);
    if (rc == 0 && tok[0] == '-')
        opt_driver_unknown_option(tok, s->drv->name, s->drv->defs,
                                  s->drv->ndefs, NULL, 0);
    return rc;
}

static void loop_reset(void *state) {
    loop_state_t *s = state;
    opt_lists_reset(&s->lists);
}

static void loop_check_descriptor(void *state, const char *text) {
    loop_state_t *s = state;
    char err[BENCH_ERR_LEN];
    if (s->drv->parse_desc(text, s->desc, err) != 0)
        bench_usage_error("%s", err);
}

static void loop_run_descriptor(void *state, const char *text) {
    loop_state_t *s = state;
    loop_check_descriptor(s, text);
    const int count = opt_lists_count(&s->lists);
    for (int i = 0; i < count; i++) {
        const char *values[OPT_MAX];
        bench_attr_t attr;
        opt_lists_get(&s->lists, i, values, &attr);
        char repro[2048];
        s->drv->make_prb(s->desc, values, &attr, s->prb, repro, sizeof(repro));
        const int idx = bench_next_index();
        if (!bench_should_run(idx, repro))
            continue;
        bench_run_libs(idx, repro, run_on_lib, s);
    }
}

void opt_driver_lists_init(const opt_driver_t *drv, opt_lists_t *lists) {
    opt_lists_init(lists, drv->defs, drv->ndefs);
    if (drv->after_attr_from > 0)
        lists->after_attr_from = drv->after_attr_from;
    for (int i = 0; i < drv->n_shared; i++)
        opt_lists_share(lists, drv->shared[i][0], drv->shared[i][1]);
}

void opt_driver_print_options(FILE *f, const opt_def_t *defs, int ndefs) {
    fprintf(f,
            "Options (a comma list runs every value; default in brackets):\n");
    for (int k = 0; k < ndefs; k++) {
        char head[64], help[160];
        snprintf(head, sizeof(head), "--%s=...", defs[k].name);
        snprintf(help, sizeof(help), "[%s]%s%s",
                 defs[k].dflt[0] ? defs[k].dflt : "none",
                 defs[k].alias ? " also --" : "",
                 defs[k].alias ? defs[k].alias : "");
        bench_print_option_line(f, head, help);
    }
    fprintf(f, "Attributes (a comma list runs every value; default none):\n");
    bench_print_option_docs(f, bench_attr_option_docs,
                            bench_n_attr_option_docs);
}

void opt_driver_unknown_option(const char *tok, const char *driver,
                               const opt_def_t *defs, int ndefs,
                               const char *const *extra, int n_extra) {
    enum { MAX_EXTRA = 8 };
    const char *names[2 * OPT_MAX + MAX_EXTRA];
    int n = 0;
    for (int k = 0; k < ndefs && k < OPT_MAX; k++) {
        names[n++] = defs[k].name;
        if (defs[k].alias)
            names[n++] = defs[k].alias;
    }
    for (int k = 0; k < n_extra && k < MAX_EXTRA; k++)
        names[n++] = extra[k];
    bench_unknown_option_error(tok, driver, names, n);
}

/* A loop state on the cleanup stack (pop it with bench_cleanup_pop). */
static loop_state_t *loop_state_new(const opt_driver_t *drv) {
    loop_state_t *s = calloc(1, sizeof(*s));
    if (!s)
        bench_usage_error("out of memory");
    bench_cleanup_push(loop_state_free, s);
    s->drv = drv;
    s->desc = calloc(1, drv->desc_size);
    s->prb = calloc(1, drv->prb_size);
    if (!s->desc || !s->prb)
        bench_usage_error("out of memory");
    opt_driver_lists_init(drv, &s->lists);
    return s;
}

int opt_driver_bench(const opt_driver_t *drv, int ntokens, char **tokens) {
    if (ntokens == 1 && strcmp(tokens[0], "--help") == 0) {
        opt_driver_print_options(stdout, drv->defs, drv->ndefs);
        return 0;
    }
    loop_state_t *s = loop_state_new(drv);
    loop_state_t *check = loop_state_new(drv);
    const bench_driver_loop_t loop = {
            .state = s,
            .parse_option = loop_parse_option,
            .reset = loop_reset,
            .run_descriptor = loop_run_descriptor,
            .check_state = check,
            .check_descriptor = loop_check_descriptor,
    };
    bench_driver_loop(ntokens, tokens, &loop);
    bench_cleanup_pop(1);
    bench_cleanup_pop(1);
    return 0;
}
