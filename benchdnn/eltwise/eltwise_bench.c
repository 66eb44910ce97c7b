/* The eltwise driver: options, problems, the repro line, and the loop
 * (common/opt_driver.h). */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/dt_cfg.h"
#include "common/layout_tag.h"
#include "common/opt_driver.h"
#include "common/parser.h"
#include "eltwise/eltwise.h"

/* v2.6.3 takes any direction and acts on its forward / inference bits. */
static const char *const dir_names[] = {"FWD_D", "FWD_I",  "FWD_B", "BWD_D",
                                        "BWD_W", "BWD_WB", "BWD_DW"};
#define N_DIRS ((int)(sizeof(dir_names) / sizeof(dir_names[0])))

static int str2dir(const char *s) {
    for (int i = 0; i < N_DIRS; i++)
        if (strcasecmp(s, dir_names[i]) == 0)
            return i;
    return -1;
}

static int validate_dir(const char *option, const char *value, char *err) {
    if (str2dir(value) >= 0)
        return 0;
    bench_set_err(err, "--%s: unknown direction '%s'", option, value);
    return -1;
}

/* One data type (f64 and other oneDNN types parse and report
 * UNIMPLEMENTED). */
static int parse_dt(const char *value, bench_dt_cfg_t *cfg) {
    return strchr(value, ':') ? -1
                              : bench_dt_cfg_parse_try(value, 0, cfg, NULL);
}

static int validate_dt(const char *option, const char *value, char *err) {
    bench_dt_cfg_t cfg;
    if (parse_dt(value, &cfg) == 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a data type", option, value);
    return -1;
}

static int validate_tag(const char *option, const char *value, char *err) {
    if (strcmp(value, "any") != 0 && bench_tag_is_valid(value))
        return 0;
    return bench_tag_error(err, option, value);
}

static int validate_alg(const char *option, const char *value, char *err) {
    if (eltwise_alg_find(value))
        return 0;
    bench_set_err(err, "--%s: unknown eltwise algorithm '%s'", option, value);
    attr_append_alg_hint(err, value, ALG_HINT_ELTWISE);
    return -1;
}

static int validate_float(const char *option, const char *value, char *err) {
    float v;
    if (parse_float_try(value, &v) == 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a number", option, value);
    return -1;
}

static int validate_mb(const char *option, const char *value, char *err) {
    int64_t mb;
    if (parse_int_try(value, &mb) == 0 && mb >= 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a non-negative integer", option,
                  value);
    return -1;
}

static int validate_bool(const char *option, const char *value, char *err) {
    int b;
    if (parse_bool_try(value, &b) == 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not true or false", option, value);
    return -1;
}

enum {
    OPT_DIR = 0,
    OPT_DT,
    OPT_TAG,
    OPT_ALG,
    OPT_ALPHA,
    OPT_BETA,
    OPT_MB,
    OPT_INPLACE,
    OPT_COUNT
};

/* In oneDNN's iteration order; --inplace varies after the attributes. */
static const opt_def_t options[OPT_COUNT] = {
        {"dir", NULL, "FWD_D", validate_dir},
        {"dt", NULL, "f32", validate_dt},
        {"tag", NULL, "abx", validate_tag},
        {"alg", NULL, "relu", validate_alg},
        {"alpha", NULL, "0,0.25,-0.25", validate_float},
        {"beta", NULL, "0,0.25,-0.25", validate_float},
        {"mb", NULL, "0", validate_mb},
        {"inplace", NULL, "false", validate_bool},
};

static void make_prb(const void *desc_v, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    eltwise_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *(const dims_desc_t *)desc_v;
    int64_t mb = 0;
    parse_int_try(v[OPT_MB], &mb);
    if (mb > 0)
        p->desc.dims[0] = mb;
    const int dir = str2dir(v[OPT_DIR]);
    snprintf(p->dir, sizeof(p->dir), "%s", dir_names[dir]);
    p->is_fwd = dir_names[dir][0] == 'F';
    p->is_inference = dir == 1;
    bench_dt_cfg_t cfg;
    parse_dt(v[OPT_DT], &cfg);
    p->dt = cfg.src;
    snprintf(p->dt_text, sizeof(p->dt_text), "%s", v[OPT_DT]);
    for (char *c = p->dt_text; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    snprintf(p->tag, sizeof(p->tag), "%s", v[OPT_TAG]);
    p->alg = eltwise_alg_find(v[OPT_ALG]);
    parse_float_try(v[OPT_ALPHA], &p->alpha);
    parse_float_try(v[OPT_BETA], &p->beta);
    parse_bool_try(v[OPT_INPLACE], &p->inplace);
    p->attr = *attr;
    eltwise_prb_repro(p, bench_settings.canonical, repro, len);
}

/* The shortest text that reads back as `v`. */
static void print_float(char *buf, size_t len, float v) {
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(buf, len, "%.*g", digits, (double)v);
        float back;
        if (parse_float_try(buf, &back) == 0 && back == v)
            return;
    }
}

void eltwise_prb_repro(const eltwise_prb_t *p, int canonical, char *buf,
                       size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--eltwise");
    if (canonical || strcmp(p->dir, "FWD_D") != 0)
        bench_appendf(&l, " --dir=%s", p->dir);
    if (canonical || strcmp(p->dt_text, "f32") != 0)
        bench_appendf(&l, " --dt=%s", p->dt_text);
    if (canonical || strcmp(p->tag, "abx") != 0)
        bench_appendf(&l, " --tag=%s", p->tag);
    char alpha[32], beta[32];
    print_float(alpha, sizeof(alpha), p->alpha);
    print_float(beta, sizeof(beta), p->beta);
    /* Always, as oneDNN prints them. */
    bench_appendf(&l, " --alg=%s --alpha=%s --beta=%s", p->alg->name, alpha,
                  beta);
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
    eltwise_run_problem(prb, lib, repro, res);
}

static int parse_desc(const char *text, void *desc, char *err) {
    return dims_desc_parse_try(text, "eltwise", desc, err);
}

int eltwise_bench(int ntokens, char **tokens) {
    static const opt_driver_t driver = {
            .name = "eltwise",
            .defs = options,
            .ndefs = OPT_COUNT,
            .after_attr_from = OPT_INPLACE,
            .desc_size = sizeof(dims_desc_t),
            .prb_size = sizeof(eltwise_prb_t),
            .parse_desc = parse_desc,
            .make_prb = make_prb,
            .run = run_problem,
    };
    return opt_driver_bench(&driver, ntokens, tokens);
}
