/* The reorder driver: options, problems, the repro line, and its token
 * loop. The loop is its own rather than opt_driver's because an oscale of
 * 0 expands into one problem per --def-scales value, an iteration no
 * other driver has. */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/bench_args.h"
#include "common/bench_lib.h"
#include "common/cli_help.h"
#include "common/dt_cfg.h"
#include "common/layout_tag.h"
#include "common/opt_driver.h"
#include "common/parser.h"
#include "reorder/reorder.h"

static const char *const oflag_names[REORDER_OFLAG_COUNT] = {"s8s8_comp",
                                                             "zp_comp"};

int reorder_oflag_parse_try(const char *value, int comp_mask[], char *err) {
    int masks[REORDER_OFLAG_COUNT];
    for (int f = 0; f < REORDER_OFLAG_COUNT; f++)
        masks[f] = -1;
    const char *p = value;
    while (*p) {
        const size_t len = strcspn(p, "+");
        char item[OPT_VALUE_LEN];
        if (len == 0 || len >= sizeof(item))
            goto bad;
        memcpy(item, p, len);
        item[len] = '\0';
        char *colon = strchr(item, ':');
        int64_t mask;
        if (!colon || parse_int_try(colon + 1, &mask) != 0 || mask < 0 ||
            mask >= (1 << TSR_MAX_NDIMS))
            goto bad;
        *colon = '\0';
        int f = 0;
        while (f < REORDER_OFLAG_COUNT && strcasecmp(item, oflag_names[f]))
            f++;
        if (f == REORDER_OFLAG_COUNT)
            goto bad;
        masks[f] = (int)mask;
        p += len;
        if (*p == '+' && *++p == '\0')
            goto bad;
    }
    memcpy(comp_mask, masks, sizeof(masks));
    return 0;
bad:
    bench_set_err(err,
                  "--oflag: expected FLAG:MASK[+...] with FLAG s8s8_comp or "
                  "zp_comp, got '%s'",
                  value);
    return -1;
}

/* One data type (oneDNN's f64, f8_* parse and report UNIMPLEMENTED). */
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

static int validate_oflag(const char *option, const char *value, char *err) {
    int masks[REORDER_OFLAG_COUNT];
    (void)option;
    return reorder_oflag_parse_try(value, masks, err);
}

static int validate_cross_engine(const char *option, const char *value,
                                 char *err) {
    if (strcasecmp(value, "none") == 0)
        return 0;
    if (strcasecmp(value, "cpu2gpu") == 0 || strcasecmp(value, "gpu2cpu") == 0)
        bench_set_err(err, "--%s=%s: the cpu engine takes none only", option,
                      value);
    else
        bench_set_err(err, "--%s: unknown value '%s'", option, value);
    return -1;
}

static int validate_mask(const char *option, const char *value, char *err) {
    int64_t mask;
    if (parse_int_try(value, &mask) == 0 && mask >= 0 &&
        mask < (1 << TSR_MAX_NDIMS))
        return 0;
    bench_set_err(err, "--%s: '%s' is not a dims mask", option, value);
    return -1;
}

enum {
    OPT_SDT = 0,
    OPT_DDT,
    OPT_STAG,
    OPT_DTAG,
    OPT_OFLAG,
    OPT_CROSS_ENGINE,
    OPT_RUNTIME_DIM_MASK,
    OPT_COUNT
};

/* In oneDNN's iteration order; the runtime dims mask varies after the
 * attributes. v2.6.3 spells it with dashes only; its doc's underscores
 * are accepted too. */
static const opt_def_t options[OPT_COUNT] = {
        {"sdt", NULL, "f32", validate_dt},
        {"ddt", NULL, "f32", validate_dt},
        {"stag", NULL, "abx", validate_tag},
        {"dtag", NULL, "abx", validate_tag},
        {"oflag", NULL, "", validate_oflag},
        {"cross-engine", "cross_engine", "none", validate_cross_engine},
        {"runtime-dim-mask", "runtime_dim_mask", "0", validate_mask},
};

#define DEF_SCALES "0.125,0.25,0.5,1,2,4,8"

static void lower_copy(char *dst, size_t len, const char *src) {
    snprintf(dst, len, "%s", src);
    for (char *c = dst; *c; c++)
        *c = (char)tolower((unsigned char)*c);
}

static void make_prb(reorder_prb_t *p, const dims_desc_t *desc,
                     const char *const *v, const bench_attr_t *attr,
                     float oscale) {
    memset(p, 0, sizeof(*p));
    p->desc = *desc;
    bench_dt_cfg_t cfg;
    parse_dt(v[OPT_SDT], &cfg);
    p->sdt = cfg.src;
    parse_dt(v[OPT_DDT], &cfg);
    p->ddt = cfg.src;
    lower_copy(p->sdt_text, sizeof(p->sdt_text), v[OPT_SDT]);
    lower_copy(p->ddt_text, sizeof(p->ddt_text), v[OPT_DDT]);
    snprintf(p->stag, sizeof(p->stag), "%s", v[OPT_STAG]);
    snprintf(p->dtag, sizeof(p->dtag), "%s", v[OPT_DTAG]);
    reorder_oflag_parse_try(v[OPT_OFLAG], p->comp_mask, NULL);
    int64_t mask = 0;
    parse_int_try(v[OPT_RUNTIME_DIM_MASK], &mask);
    p->runtime_dim_mask = (int)mask;
    lower_copy(p->cross_engine, sizeof(p->cross_engine), v[OPT_CROSS_ENGINE]);
    p->attr = *attr;
    if (p->attr.oscale.set)
        p->attr.oscale.scale = oscale;
}

void reorder_prb_repro(const reorder_prb_t *p, int canonical, char *buf,
                       size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    /* The data types and tags always, as oneDNN prints them. */
    bench_appendf(&l, "--reorder --sdt=%s --ddt=%s --stag=%s --dtag=%s",
                  p->sdt_text, p->ddt_text, p->stag, p->dtag);
    const char *sep = " --oflag=";
    for (int f = 0; f < REORDER_OFLAG_COUNT; f++) {
        if (p->comp_mask[f] < 0)
            continue;
        bench_appendf(&l, "%s%s:%d", sep, oflag_names[f], p->comp_mask[f]);
        sep = "+";
    }
    if (canonical || strcmp(p->cross_engine, "none") != 0)
        bench_appendf(&l, " --cross-engine=%s", p->cross_engine);
    if (canonical || p->runtime_dim_mask != 0)
        bench_appendf(&l, " --runtime-dim-mask=%d", p->runtime_dim_mask);
    char attr[1024] = "";
    attr_to_repro(&p->attr, canonical, attr, sizeof(attr));
    bench_appendf(&l, "%s", attr);
    char desc[512];
    dims_desc_print(&p->desc, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}

/* ------------------------------------------------------------------------ */
/* The token loop */

typedef struct {
    opt_lists_t lists;
    int n_def_scales;
    float def_scales[BENCH_MAX_LIST];
    dims_desc_t desc;
    reorder_prb_t prb;
} loop_state_t;

static int parse_def_scales_try(loop_state_t *s, const char *value, char *err) {
    float scales[BENCH_MAX_LIST];
    int n = 0;
    for (const char *p = value;; p++) {
        const size_t len = strcspn(p, ",");
        char item[64];
        if (len == 0 || len >= sizeof(item) || n == BENCH_MAX_LIST) {
            bench_set_err(err, "--def-scales: bad scale list '%s'", value);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (parse_float_try(item, &scales[n]) != 0 || !isfinite(scales[n])) {
            bench_set_err(err, "--def-scales: '%s' is not a number", item);
            return -1;
        }
        n++;
        p += len;
        if (*p == '\0')
            break;
    }
    s->n_def_scales = n;
    memcpy(s->def_scales, scales, sizeof(float) * (size_t)n);
    return 0;
}

static int loop_parse_option(void *state, const char *tok) {
    loop_state_t *s = state;
    char err[BENCH_ERR_LEN];
    int rc;
    const char *value = parse_option_value(tok, "def-scales");
    if (value)
        rc = parse_def_scales_try(s, *value ? value : DEF_SCALES, err) ? -1 : 1;
    else
        rc = opt_lists_parse_try(&s->lists, tok, err);
    if (rc < 0)
        bench_option_value_error(tok, err);
    if (rc == 0 && tok[0] == '-') /* the loop asks the driver last */
        opt_driver_unknown_option(tok, "reorder", options, OPT_COUNT,
                                  (const char *const[]){"def-scales"}, 1);
    return rc;
}

void reorder_print_options(FILE *f) {
    opt_driver_print_options(f, options, OPT_COUNT);
    bench_print_option_line(f, "--def-scales=S[,S...]",
                            "the scales an oscale of 0 runs, "
                            "default " DEF_SCALES);
}

static void loop_reset(void *state) {
    loop_state_t *s = state;
    opt_lists_reset(&s->lists);
    parse_def_scales_try(s, DEF_SCALES, NULL);
}

static void run_on_lib(void *ctx, bench_lib_t lib, const char *repro,
                       res_t *res) {
    const loop_state_t *s = ctx;
    reorder_run_problem(&s->prb, lib, repro, res);
}

static void loop_check_descriptor(void *state, const char *text) {
    loop_state_t *s = state;
    char err[BENCH_ERR_LEN];
    if (dims_desc_parse_try(text, "reorder", &s->desc, err) != 0)
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
        if (attr.oscale.set && attr.oscale.policy == POLICY_PER_OC)
            bench_usage_error("--attr-oscale: per_oc is ambiguous for a "
                              "reorder, use per_dim_0 or per_dim_1");
        /* The scale trap: an oscale of 0 stands for every default scale. */
        const int trap = attr.oscale.set && attr.oscale.scale == 0;
        const int n_scales = trap ? s->n_def_scales : 1;
        for (int k = 0; k < n_scales; k++) {
            make_prb(&s->prb, &s->desc, values, &attr,
                     trap ? s->def_scales[k] : attr.oscale.scale);
            char repro[2048];
            reorder_prb_repro(&s->prb, bench_settings.canonical, repro,
                              sizeof(repro));
            const int idx = bench_next_index();
            if (!bench_should_run(idx, repro))
                continue;
            bench_run_libs(idx, repro, run_on_lib, s);
        }
    }
}

static void loop_state_free(void *state) {
    loop_state_t *s = state;
    opt_lists_reset(&s->lists);
    free(s);
}

/* A loop state on the cleanup stack (pop it with bench_cleanup_pop). */
static loop_state_t *loop_state_new(void) {
    loop_state_t *s = calloc(1, sizeof(*s));
    if (!s)
        bench_usage_error("out of memory");
    bench_cleanup_push(loop_state_free, s);
    opt_lists_init(&s->lists, options, OPT_COUNT);
    s->lists.after_attr_from = OPT_RUNTIME_DIM_MASK;
    parse_def_scales_try(s, DEF_SCALES, NULL);
    return s;
}

int reorder_bench(int ntokens, char **tokens) {
    loop_state_t *s = loop_state_new();
    loop_state_t *check = loop_state_new();
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
