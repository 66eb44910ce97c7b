/* The sum driver: options, problems, the repro line, and the loop
 * (common/opt_driver.h). */
#include <stdio.h>
#include <string.h>

#include "common/opt_driver.h"
#include "common/parser.h"
#include "sum/sum.h"

static int validate_scales(const char *option, const char *value, char *err) {
    multi_src_list_t l;
    if (multi_src_split(value, &l) != 0) {
        bench_set_err(err, "--%s: bad list of scales '%s'", option, value);
        return -1;
    }
    for (int i = 0; i < l.n; i++) {
        float v;
        if (parse_float_try(l.item[i], &v) != 0) {
            bench_set_err(err, "--%s: '%s' is not a number", option, l.item[i]);
            return -1;
        }
    }
    return 0;
}

static int validate_bool(const char *option, const char *value, char *err) {
    int b;
    if (parse_bool_try(value, &b) == 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not true or false", option, value);
    return -1;
}

enum {
    OPT_SDT = 0,
    OPT_DDT,
    OPT_STAG,
    OPT_DTAG,
    OPT_SCALES,
    OPT_INPLACE,
    OPT_COUNT
};

/* In oneDNN's iteration order; scales and inplace vary after the
 * attributes. */
static const opt_def_t options[OPT_COUNT] = {
        {"sdt", NULL, "f32:f32", multi_src_validate_dts},
        {"ddt", NULL, "f32", multi_src_validate_dt},
        {"stag", NULL, "abx", multi_src_validate_tags},
        {"dtag", NULL, "undef", multi_src_validate_dtag},
        {"scales", NULL, "1", validate_scales},
        {"inplace", NULL, "false", validate_bool},
};

static void make_prb(const void *desc_v, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    sum_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *(const dims_desc_t *)desc_v;
    /* The validators accepted every value. */
    multi_src_split(v[OPT_SDT], &p->sdt);
    p->n = p->sdt.n;
    if (p->n < 2)
        bench_usage_error("--sdt=%s: sum needs at least 2 sources", v[OPT_SDT]);
    for (int i = 0; i < p->n; i++) {
        char unsupported[16];
        multi_src_dt(p->sdt.item[i], &p->sdt_dt[i], p->sdt.item[i],
                     unsupported);
        if (unsupported[0] && !p->unsupported[0])
            snprintf(p->unsupported, sizeof(p->unsupported), "%s", unsupported);
    }
    multi_src_split(v[OPT_STAG], &p->stag);
    if (multi_src_broadcast(&p->stag, p->n) != 0)
        bench_usage_error("--stag=%s: %d tags for %d sources", v[OPT_STAG],
                          p->stag.n, p->n);
    multi_src_split(v[OPT_SCALES], &p->scale);
    if (multi_src_broadcast(&p->scale, p->n) != 0)
        bench_usage_error("--scales=%s: %d scales for %d sources",
                          v[OPT_SCALES], p->scale.n, p->n);
    for (int i = 0; i < p->n; i++)
        parse_float_try(p->scale.item[i], &p->scales[i]);
    snprintf(p->dtag, sizeof(p->dtag), "%s", v[OPT_DTAG]);
    char unsupported[16];
    multi_src_dt(v[OPT_DDT], &p->ddt_dt, p->ddt, unsupported);
    /* Without a dst descriptor, dst is src 0's type. */
    if (strcmp(p->dtag, "undef") == 0) {
        p->ddt_dt = p->sdt_dt[0];
        snprintf(p->ddt, sizeof(p->ddt), "%s", p->sdt.item[0]);
    } else if (unsupported[0] && !p->unsupported[0]) {
        snprintf(p->unsupported, sizeof(p->unsupported), "%s", unsupported);
    }
    parse_bool_try(v[OPT_INPLACE], &p->inplace);
    p->attr = *attr;
    sum_prb_repro(p, bench_settings.canonical, repro, len);
}

void sum_prb_repro(const sum_prb_t *p, int canonical, char *buf, size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--sum");
    char list[OPT_VALUE_LEN * 2];
    multi_src_join(&p->sdt, list, sizeof(list));
    if (canonical || strcmp(list, "f32:f32") != 0)
        bench_appendf(&l, " --sdt=%s", list);
    const int has_dtag = strcmp(p->dtag, "undef") != 0;
    if (has_dtag && (canonical || strcmp(p->ddt, "f32") != 0))
        bench_appendf(&l, " --ddt=%s", p->ddt);
    multi_src_join(&p->stag, list, sizeof(list));
    if (canonical || !multi_src_all_equal(&p->stag, "abx"))
        bench_appendf(&l, " --stag=%s", list);
    if (canonical || has_dtag)
        bench_appendf(&l, " --dtag=%s", p->dtag);
    /* Always, one per source, as oneDNN prints them. */
    multi_src_join(&p->scale, list, sizeof(list));
    bench_appendf(&l, " --scales=%s", list);
    if (canonical || p->inplace)
        bench_appendf(&l, " --inplace=%s", p->inplace ? "true" : "false");
    char attr[1024] = "";
    attr_to_repro(&p->attr, canonical, attr, sizeof(attr));
    bench_appendf(&l, "%s", attr);
    char desc[512];
    dims_desc_print(&p->desc, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}

static void run_problem(const void *prb, bench_lib_t lib, const char *repro,
                        res_t *res) {
    sum_run_problem(prb, lib, repro, res);
}

static int parse_desc(const char *text, void *desc, char *err) {
    return dims_desc_parse_try(text, "sum", desc, err);
}

int sum_bench(int ntokens, char **tokens) {
    static const opt_driver_t driver = {
            .name = "sum",
            .defs = options,
            .ndefs = OPT_COUNT,
            .after_attr_from = OPT_SCALES,
            .desc_size = sizeof(dims_desc_t),
            .prb_size = sizeof(sum_prb_t),
            .parse_desc = parse_desc,
            .make_prb = make_prb,
            .run = run_problem,
    };
    return opt_driver_bench(&driver, ntokens, tokens);
}
