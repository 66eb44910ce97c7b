/* The convolution driver's options as an opt_lists table (see
 * common/opt_driver.h). Lists multiply in table order, the later option
 * varying faster: dir, cfg/dt, bia-dt, stag, wtag, dtag, alg, attr-fpmath,
 * the --attr-* lists, then mb. --cfg and --dt are two spellings of one
 * list, parsed as v2.x names and v3.x types: the last one given wins. */
#define _POSIX_C_SOURCE 200809L /* strncasecmp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/layout_tag.h"
#include "common/parser.h"
#include "conv/conv.h"

/* ------------------------------------------------------------------------ */
/* Option values */

static int validate_dir(const char *option, const char *value, char *err) {
    if (conv_str2dir(value) >= 0)
        return 0;
    bench_set_err(err, "--%s: unknown direction '%s'", option, value);
    return -1;
}

/* --cfg takes v2.x names (u8s8u8), --dt v3.x types (u8:s8:u8). */
static int validate_dt_cfg(const char *option, const char *value, char *err) {
    bench_dt_cfg_t cfg;
    return bench_dt_cfg_parse_try(value, strcmp(option, "cfg") == 0, &cfg, err);
}

static int validate_bia_dt(const char *option, const char *value, char *err) {
    bench_bia_dt_t bia;
    (void)option;
    return bench_bia_dt_parse_try(value, &bia, err);
}

static int validate_tag(const char *option, const char *value, char *err) {
    if (strlen(value) < CONV_TAG_LEN && bench_tag_is_valid(value))
        return 0;
    return bench_tag_error(err, option, value);
}

static int validate_alg(const char *option, const char *value, char *err) {
    if (conv_str2alg(value) >= 0)
        return 0;
    bench_set_err(err, "--%s: unknown algorithm '%s'", option, value);
    return -1;
}

/* MODE[:true|false], the mode in any case: the flag lets integer weights
 * be up-converted. */
static int validate_fpmath(const char *option, const char *value, char *err) {
    static const char *const modes[] = {"strict", "bf16", "f16", "tf32", "any"};
    const size_t len = strcspn(value, ":");
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        int flag;
        if (strlen(modes[i]) == len && strncasecmp(value, modes[i], len) == 0 &&
            (value[len] == '\0' ||
             parse_bool_try(value + len + 1, &flag) == 0) &&
            strlen(value) < CONV_FPMATH_LEN)
            return 0;
    }
    bench_set_err(err, "--%s: unknown mode '%s'", option, value);
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

enum {
    OPT_DIR = 0,
    OPT_CFG,
    OPT_DT,
    OPT_BIA_DT,
    OPT_STAG,
    OPT_WTAG,
    OPT_DTAG,
    OPT_ALG,
    OPT_FPMATH,
    OPT_MB, /* 0: the descriptor's */
    OPT_COUNT
};

/* Defaults as oneDNN's conv driver has them; the data types default to
 * --dt=f32 (--cfg's default only shows in --help). */
static const opt_def_t options[OPT_COUNT] = {
        {"dir", NULL, "FWD_B", validate_dir},
        {"cfg", NULL, "f32", validate_dt_cfg},
        {"dt", NULL, "f32", validate_dt_cfg},
        {"bia-dt", "bia_dt", "f32", validate_bia_dt},
        {"stag", NULL, "any", validate_tag},
        {"wtag", NULL, "any", validate_tag},
        {"dtag", NULL, "any", validate_tag},
        {"alg", NULL, "direct", validate_alg},
        {"attr-fpmath", NULL, "strict", validate_fpmath},
        {"mb", NULL, "0", validate_mb},
};

/* ------------------------------------------------------------------------ */
/* Problems */

/* The problem of one option combination, and its repro line. */
static void make_prb(const void *desc, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    conv_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *(const conv_desc_t *)desc;
    int64_t mb = 0;
    parse_int_try(v[OPT_MB], &mb);
    if (mb > 0)
        p->desc.mb = mb;
    p->dir = (conv_dir_t)conv_str2dir(v[OPT_DIR]);
    const int legacy = v[OPT_CFG] != NULL;
    bench_dt_cfg_parse_try(legacy ? v[OPT_CFG] : v[OPT_DT], legacy, &p->cfg,
                           NULL);
    bench_bia_dt_parse_try(v[OPT_BIA_DT], &p->bia, NULL);
    snprintf(p->stag, CONV_TAG_LEN, "%s", v[OPT_STAG]);
    snprintf(p->wtag, CONV_TAG_LEN, "%s", v[OPT_WTAG]);
    snprintf(p->dtag, CONV_TAG_LEN, "%s", v[OPT_DTAG]);
    p->alg = (conv_alg_t)conv_str2alg(v[OPT_ALG]);
    snprintf(p->fpmath, CONV_FPMATH_LEN, "%s", v[OPT_FPMATH]);
    p->attr = *attr;
    conv_prb_repro(p, bench_settings.canonical, repro, len);
}

static int parse_desc(const char *text, void *desc, char *err) {
    return conv_desc_parse_try(text, desc, err);
}

static void run_problem(const void *prb, bench_lib_t lib, const char *repro,
                        res_t *res) {
    conv_run_problem(prb, lib, repro, res);
}

const opt_driver_t conv_driver = {
        .name = "conv",
        .defs = options,
        .ndefs = OPT_COUNT,
        .after_attr_from = OPT_MB,
        .shared = {{OPT_CFG, OPT_DT}},
        .n_shared = 1,
        .desc_size = sizeof(conv_desc_t),
        .prb_size = sizeof(conv_prb_t),
        .parse_desc = parse_desc,
        .make_prb = make_prb,
        .run = run_problem,
};

int conv_prb_from_args_try(int n, char **toks, conv_prb_t *p, char *err) {
    opt_lists_t *lists = malloc(sizeof(*lists));
    if (!lists) {
        bench_set_err(err, "out of memory");
        return -1;
    }
    opt_driver_lists_init(&conv_driver, lists);
    const char *desc_text = NULL;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if (!strcmp(toks[i], "--conv"))
            continue;
        const int consumed = opt_lists_parse_try(lists, toks[i], err);
        if (consumed < 0)
            rc = -1;
        else if (consumed == 0 && toks[i][0] == '-') {
            bench_set_err(err, "unknown option '%s'", toks[i]);
            rc = -1;
        } else if (consumed == 0) {
            desc_text = toks[i];
        }
    }
    conv_desc_t desc;
    if (rc == 0 && !desc_text) {
        bench_set_err(err, "no convolution descriptor");
        rc = -1;
    }
    if (rc == 0)
        rc = conv_desc_parse_try(desc_text, &desc, err);
    if (rc == 0) {
        const char *values[OPT_MAX];
        bench_attr_t attr;
        char repro[2048];
        opt_lists_get(lists, 0, values, &attr);
        make_prb(&desc, values, &attr, p, repro, sizeof(repro));
    }
    opt_lists_reset(lists);
    free(lists);
    return rc;
}

int conv_bench(int ntokens, char **tokens) {
    return opt_driver_bench(&conv_driver, ntokens, tokens);
}
