/* The concat driver: options, problems, the repro line, and the loop
 * (common/opt_driver.h). */
#define _POSIX_C_SOURCE 200809L /* strncasecmp */

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/checked_math.h"
#include "common/opt_driver.h"
#include "common/parser.h"
#include "concat/concat.h"

static int validate_axis(const char *option, const char *value, char *err) {
    int64_t axis;
    if (parse_int_try(value, &axis) == 0 && axis >= 0 && axis < TSR_MAX_NDIMS)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a dimension index", option, value);
    return -1;
}

enum { OPT_SDT = 0, OPT_DDT, OPT_STAG, OPT_DTAG, OPT_AXIS, OPT_COUNT };

/* In oneDNN's iteration order. */
static const opt_def_t options[OPT_COUNT] = {
        {"sdt", NULL, "f32", multi_src_validate_dt},
        {"ddt", NULL, "f32", multi_src_validate_dt},
        {"stag", NULL, "abx", multi_src_validate_tags},
        {"dtag", NULL, "undef", multi_src_validate_dtag},
        {"axis", NULL, "1", validate_axis},
};

/* Every dim but the axis agrees; dst's axis is the sum of the sources'. */
static void check_dims(concat_prb_t *p, const char *axis_text) {
    const concat_desc_t *d = &p->desc;
    char desc[1024];
    concat_desc_print(d, desc, sizeof(desc));
    if (p->axis >= d->ndims)
        bench_usage_error("--axis=%s is out of range for concat descriptor "
                          "'%s' of %d dims",
                          axis_text, desc, d->ndims);
    for (int k = 0; k < d->ndims; k++)
        p->dst_dims[k] = k == p->axis ? 0 : d->dims[0][k];
    for (int i = 0; i < d->n; i++) {
        for (int k = 0; k < d->ndims; k++)
            if (k != p->axis && d->dims[i][k] != d->dims[0][k])
                bench_usage_error("bad concat descriptor '%s': tensor %d "
                                  "differs from tensor 0 in dim %d, which is "
                                  "not the axis %d",
                                  desc, i, k, p->axis);
        if (!bench_add_i64(p->dst_dims[p->axis], d->dims[i][p->axis],
                           &p->dst_dims[p->axis]))
            bench_usage_error("bad concat descriptor '%s': the sizes along "
                              "the axis %d overflow 64-bit arithmetic",
                              desc, p->axis);
    }
}

static void make_prb(const void *desc_v, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    concat_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *(const concat_desc_t *)desc_v;
    int64_t axis = 0;
    parse_int_try(v[OPT_AXIS], &axis);
    p->axis = (int)axis;
    check_dims(p, v[OPT_AXIS]);
    char unsupported[16];
    multi_src_dt(v[OPT_SDT], &p->sdt_dt, p->sdt, p->unsupported);
    multi_src_split(v[OPT_STAG], &p->stag);
    if (multi_src_broadcast(&p->stag, p->desc.n) != 0)
        bench_usage_error("--stag=%s: %d tags for %d sources", v[OPT_STAG],
                          p->stag.n, p->desc.n);
    snprintf(p->dtag, sizeof(p->dtag), "%s", v[OPT_DTAG]);
    multi_src_dt(v[OPT_DDT], &p->ddt_dt, p->ddt, unsupported);
    /* Without a dst descriptor dst is the sources' type: --ddt is reset. */
    if (strcmp(p->dtag, "undef") == 0) {
        p->ddt_dt = p->sdt_dt;
        p->ddt[0] = '\0';
    } else if (unsupported[0] && !p->unsupported[0]) {
        snprintf(p->unsupported, sizeof(p->unsupported), "%s", unsupported);
    }
    p->attr = *attr;
    concat_prb_repro(p, bench_settings.canonical, repro, len);
}

void concat_prb_repro(const concat_prb_t *p, int canonical, char *buf,
                      size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--concat");
    if (canonical || strcmp(p->sdt, "f32") != 0)
        bench_appendf(&l, " --sdt=%s", p->sdt);
    if (p->ddt[0] && (canonical || strcmp(p->ddt, "f32") != 0))
        bench_appendf(&l, " --ddt=%s", p->ddt);
    char list[OPT_VALUE_LEN * 2];
    multi_src_join(&p->stag, list, sizeof(list));
    if (canonical || !multi_src_all_equal(&p->stag, "abx"))
        bench_appendf(&l, " --stag=%s", list);
    if (canonical || strcmp(p->dtag, "undef") != 0)
        bench_appendf(&l, " --dtag=%s", p->dtag);
    if (canonical || p->axis != 1)
        bench_appendf(&l, " --axis=%d", p->axis);
    char attr[1024] = "";
    attr_to_repro(&p->attr, canonical, attr, sizeof(attr));
    bench_appendf(&l, "%s", attr);
    char desc[1024];
    concat_desc_print(&p->desc, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}

static void run_problem(const void *prb, bench_lib_t lib, const char *repro,
                        res_t *res) {
    concat_run_problem(prb, lib, repro, res);
}

static int parse_desc(const char *text, void *desc, char *err) {
    return concat_desc_parse_try(text, "concat", desc, err);
}

/* oneDNN v3's per-source scales: the library's concat takes no scales. */
static void reject_source_scales(int ntokens, char **tokens) {
    static const char option[] = "--attr-scales=";
    for (int i = 0; i < ntokens; i++) {
        const char *tok = tokens[i];
        if (strncmp(tok, option, sizeof(option) - 1) != 0)
            continue;
        for (const char *s = tok + sizeof(option) - 1; *s; s++)
            if (strncasecmp(s, "msrc", 4) == 0)
                bench_usage_error("%s: per-source scales are not supported "
                                  "by Tessera's concat",
                                  tok);
    }
}

int concat_bench(int ntokens, char **tokens) {
    static const opt_driver_t driver = {
            .name = "concat",
            .defs = options,
            .ndefs = OPT_COUNT,
            .desc_size = sizeof(concat_desc_t),
            .prb_size = sizeof(concat_prb_t),
            .parse_desc = parse_desc,
            .make_prb = make_prb,
            .run = run_problem,
    };
    reject_source_scales(ntokens, tokens);
    return opt_driver_bench(&driver, ntokens, tokens);
}
