/* The token loop of an opt_lists_t driver (see opt_driver.h). */
#include "common/opt_driver.h"

#include <stdlib.h>

#include "common/bench_lib.h"

typedef struct {
    const opt_driver_t *drv;
    opt_lists_t lists;
    void *desc, *prb; /* the driver's, desc_size and prb_size bytes */
} loop_state_t;

static void run_on_lib(void *ctx, bench_lib_t lib, const char *repro,
                       res_t *res) {
    const loop_state_t *s = ctx;
    s->drv->run(s->prb, lib, repro, res);
}

static int loop_parse_option(void *state, const char *tok) {
    loop_state_t *s = state;
    char err[BENCH_ERR_LEN];
    int rc = opt_lists_parse_try(&s->lists, tok, err);
    if (rc < 0)
        bench_usage_error("%s", err);
    return rc;
}

static void loop_reset(void *state) {
    loop_state_t *s = state;
    opt_lists_reset(&s->lists);
}

static void loop_run_descriptor(void *state, const char *text) {
    loop_state_t *s = state;
    char err[BENCH_ERR_LEN];
    if (s->drv->parse_desc(text, s->desc, err) != 0)
        bench_usage_error("%s", err);
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

int opt_driver_bench(const opt_driver_t *drv, int ntokens, char **tokens) {
    loop_state_t *s = calloc(1, sizeof(*s));
    void *desc = calloc(1, drv->desc_size), *prb = calloc(1, drv->prb_size);
    if (!s || !desc || !prb)
        bench_usage_error("out of memory");
    s->drv = drv;
    s->desc = desc;
    s->prb = prb;
    opt_lists_init(&s->lists, drv->defs, drv->ndefs);
    if (drv->after_attr_from > 0)
        s->lists.after_attr_from = drv->after_attr_from;
    const bench_driver_loop_t loop = {
            .state = s,
            .parse_option = loop_parse_option,
            .reset = loop_reset,
            .run_descriptor = loop_run_descriptor,
    };
    bench_driver_loop(ntokens, tokens, &loop);
    opt_lists_reset(&s->lists);
    free(prb);
    free(desc);
    free(s);
    return 0;
}
