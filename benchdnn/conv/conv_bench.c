/* The convolution driver: its options, the cross product of their comma
 * lists, and the loop over problems. Lists multiply in a fixed order, the
 * later option varying faster: dir, cfg/dt, bia-dt, stag, wtag, dtag, alg,
 * attr-fpmath, the --attr-* lists, mb. */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/bench_lib.h"
#include "common/cli_help.h"
#include "common/parser.h"
#include "conv/conv.h"

/* Defaults, as oneDNN's conv driver has them. */
static void settings_defaults(conv_settings_t *s) {
    bench_attr_lists_t attr = s->attr;
    memset(s, 0, sizeof(*s));
    s->attr = attr;
    attr_lists_reset(&s->attr);
    s->n_dir = s->n_cfg = s->n_bia = s->n_stag = s->n_wtag = s->n_dtag = 1;
    s->n_alg = s->n_fpmath = s->n_mb = 1;
    s->dir[0] = CONV_FWD_B;
    bench_dt_cfg_parse_try("f32", 0, &s->cfg[0], NULL);
    s->bia[0].dt = tsr_f32;
    strcpy(s->stag[0], "any");
    strcpy(s->wtag[0], "any");
    strcpy(s->dtag[0], "any");
    s->alg[0] = CONV_ALG_DIRECT;
    strcpy(s->fpmath[0], "strict");
    s->mb[0] = 0;
}

void conv_settings_init(conv_settings_t *s) {
    memset(s, 0, sizeof(*s));
    settings_defaults(s);
}

void conv_settings_fini(conv_settings_t *s) {
    attr_lists_reset(&s->attr);
}

/* ------------------------------------------------------------------------ */
/* Option values */

static int parse_fpmath(const char *v, char *out, char *err) {
    static const char *const modes[] = {"strict", "bf16", "f16", "tf32", "any"};
    /* MODE[:true|false]: the flag lets integer weights be up-converted. */
    size_t len = strcspn(v, ":");
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        int flag;
        if (strlen(modes[i]) == len && strncasecmp(v, modes[i], len) == 0 &&
            (v[len] == '\0' || parse_bool_try(v + len + 1, &flag) == 0) &&
            strlen(v) < CONV_FPMATH_LEN) {
            snprintf(out, CONV_FPMATH_LEN, "%s", v);
            return 0;
        }
    }
    bench_set_err(err, "--attr-fpmath: unknown mode '%s'", v);
    return -1;
}

/* Parses item `v` of option `opt` into slot `i` of the matching list. */
static int parse_item(conv_settings_t *s, const char *opt, const char *v, int i,
                      char *err) {
    if (!strcmp(opt, "dir")) {
        int dir = conv_str2dir(v);
        if (dir < 0) {
            bench_set_err(err, "--dir: unknown direction '%s'", v);
            return -1;
        }
        s->dir[i] = (conv_dir_t)dir;
        return 0;
    }
    if (!strcmp(opt, "cfg") || !strcmp(opt, "dt"))
        return bench_dt_cfg_parse_try(v, !strcmp(opt, "cfg"), &s->cfg[i], err);
    if (!strcmp(opt, "bia-dt") || !strcmp(opt, "bia_dt"))
        return bench_bia_dt_parse_try(v, &s->bia[i], err);
    if (!strcmp(opt, "stag") || !strcmp(opt, "wtag") || !strcmp(opt, "dtag")) {
        char(*tags)[CONV_TAG_LEN] = opt[0] == 's'   ? s->stag
                                    : opt[0] == 'w' ? s->wtag
                                                    : s->dtag;
        if (strlen(v) >= CONV_TAG_LEN || !bench_tag_is_valid(v)) {
            bench_set_err(err, "--%s: unknown tag '%s'", opt, v);
            return -1;
        }
        strcpy(tags[i], v);
        return 0;
    }
    if (!strcmp(opt, "alg")) {
        int alg = conv_str2alg(v);
        if (alg < 0) {
            bench_set_err(err, "--alg: unknown algorithm '%s'", v);
            return -1;
        }
        s->alg[i] = (conv_alg_t)alg;
        return 0;
    }
    if (!strcmp(opt, "mb")) {
        int64_t mb;
        if (parse_int_try(v, &mb) != 0 || mb < 0) {
            bench_set_err(err, "--mb: '%s' is not a non-negative integer", v);
            return -1;
        }
        s->mb[i] = mb;
        return 0;
    }
    return parse_fpmath(v, s->fpmath[i], err);
}

/* The list options and where their lengths live. */
static int *list_length(conv_settings_t *s, const char *opt) {
    if (!strcmp(opt, "dir"))
        return &s->n_dir;
    if (!strcmp(opt, "cfg") || !strcmp(opt, "dt"))
        return &s->n_cfg;
    if (!strcmp(opt, "bia-dt") || !strcmp(opt, "bia_dt"))
        return &s->n_bia;
    if (!strcmp(opt, "stag"))
        return &s->n_stag;
    if (!strcmp(opt, "wtag"))
        return &s->n_wtag;
    if (!strcmp(opt, "dtag"))
        return &s->n_dtag;
    if (!strcmp(opt, "alg"))
        return &s->n_alg;
    if (!strcmp(opt, "mb"))
        return &s->n_mb;
    return &s->n_fpmath;
}

int conv_settings_parse_try(conv_settings_t *s, const char *tok, char *err) {
    static const char *const options[] = {
            "dir",  "cfg",  "dt",  "bia-dt", "bia_dt",     "stag",
            "wtag", "dtag", "alg", "mb",     "attr-fpmath"};
    int rc = attr_lists_try_parse(&s->attr, tok, err);
    if (rc != 0)
        return rc;
    for (size_t k = 0; k < sizeof(options) / sizeof(options[0]); k++) {
        const char *value = parse_option_value(tok, options[k]);
        if (!value)
            continue;
        /* Parse into a copy so a bad item leaves the settings as they
         * were. */
        conv_settings_t *next = malloc(sizeof(*next));
        if (!next) {
            bench_set_err(err, "out of memory");
            return -1;
        }
        *next = *s;
        int n = 0;
        for (const char *p = value;; n++) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            char item[64];
            if (len == 0 || len >= sizeof(item) || n == BENCH_MAX_LIST) {
                bench_set_err(err,
                              len == 0 ? "--%s: empty item in '%s'"
                                       : "--%s: bad value list '%s'",
                              options[k], value);
                free(next);
                return -1;
            }
            memcpy(item, p, len);
            item[len] = '\0';
            if (parse_item(next, options[k], item, n, err) != 0) {
                free(next);
                return -1;
            }
            if (!comma)
                break;
            p = comma + 1;
        }
        *list_length(next, options[k]) = n + 1;
        *s = *next;
        free(next);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Combinations */

int conv_settings_count(const conv_settings_t *s) {
    return s->n_dir * s->n_cfg * s->n_bia * s->n_stag * s->n_wtag * s->n_dtag *
           s->n_alg * s->n_fpmath * attr_lists_count(&s->attr) * s->n_mb;
}

/* Takes the next digit of mixed-radix index *i (the last list varies
 * fastest, so digits come off from the end). */
static int digit(int *i, int n) {
    int d = *i % n;
    *i /= n;
    return d;
}

void conv_settings_get(const conv_settings_t *s, const conv_desc_t *desc, int i,
                       conv_prb_t *p) {
    memset(p, 0, sizeof(*p));
    p->desc = *desc;
    const int64_t mb = s->mb[digit(&i, s->n_mb)];
    if (mb > 0)
        p->desc.mb = mb;
    const int n_attr = attr_lists_count(&s->attr);
    attr_lists_get(&s->attr, digit(&i, n_attr), &p->attr);
    strcpy(p->fpmath, s->fpmath[digit(&i, s->n_fpmath)]);
    p->alg = s->alg[digit(&i, s->n_alg)];
    strcpy(p->dtag, s->dtag[digit(&i, s->n_dtag)]);
    strcpy(p->wtag, s->wtag[digit(&i, s->n_wtag)]);
    strcpy(p->stag, s->stag[digit(&i, s->n_stag)]);
    p->bia = s->bia[digit(&i, s->n_bia)];
    p->cfg = s->cfg[digit(&i, s->n_cfg)];
    p->dir = s->dir[digit(&i, s->n_dir)];
}

int conv_prb_from_args_try(int n, char **toks, conv_prb_t *p, char *err) {
    conv_settings_t *s = malloc(sizeof(*s));
    if (!s) {
        bench_set_err(err, "out of memory");
        return -1;
    }
    conv_settings_init(s);
    const char *desc_text = NULL;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if (!strcmp(toks[i], "--conv"))
            continue;
        int consumed = conv_settings_parse_try(s, toks[i], err);
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
    if (rc == 0)
        conv_settings_get(s, &desc, 0, p);
    conv_settings_fini(s);
    free(s);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The loop */

/* The options and defaults of settings_defaults, for --conv --help and
 * the "did you mean" of a misspelt option. */
static const bench_option_doc_t option_docs[] = {
        {"dir", "FWD_B|FWD_D|FWD_I|BWD_D|BWD_W|BWD_WB", "direction [FWD_B]"},
        {"cfg", "f32|u8s8u8|...", "data types, v2.x (see --dt) [f32]"},
        {"dt", "DT|SRC:WEI:DST", "data types, v3.x: f32, u8:s8:u8, ... [f32]"},
        {"bia-dt", "DT", "bias data type, also --bia_dt [f32]"},
        {"stag", "TAG", "source layout: any, nchw, nhwc, ... [any]"},
        {"wtag", "TAG", "weights layout: any, oihw, ... [any]"},
        {"dtag", "TAG", "destination layout [any]"},
        {"alg", "direct|wino|auto", "algorithm [direct]"},
        {"mb", "N", "minibatch, 0: the descriptor's [0]"},
        {"attr-fpmath", "strict|bf16|f16|tf32|any[:BOOL]",
         "floating-point math mode [strict]"},
};
#define N_OPTION_DOCS ((int)(sizeof(option_docs) / sizeof(option_docs[0])))

void conv_print_options(FILE *f) {
    fprintf(f, "Options (a comma list runs every value; default in "
               "brackets):\n");
    bench_print_option_docs(f, option_docs, N_OPTION_DOCS);
    fprintf(f, "Attributes (a comma list runs every value; default none):\n");
    bench_print_option_docs(f, bench_attr_option_docs,
                            bench_n_attr_option_docs);
}

static void unknown_option(const char *tok) {
    const char *names[N_OPTION_DOCS + 1];
    for (int i = 0; i < N_OPTION_DOCS; i++)
        names[i] = option_docs[i].name;
    names[N_OPTION_DOCS] = "bia_dt";
    bench_unknown_option_error(tok, "conv", names, N_OPTION_DOCS + 1);
}

/* bench_driver_loop asks the driver last: a "-" token it does not take
 * is unknown. */
static int loop_parse_option(void *state, const char *tok) {
    char err[BENCH_ERR_LEN];
    int rc = conv_settings_parse_try(state, tok, err);
    if (rc < 0)
        bench_option_value_error(tok, err);
    if (rc == 0 && tok[0] == '-')
        unknown_option(tok);
    return rc;
}

static void loop_reset(void *state) {
    settings_defaults(state);
}

/* One problem on one library (--lib). */
static void run_on_lib(void *prb, bench_lib_t lib, const char *repro,
                       res_t *res) {
    conv_run_problem(prb, lib, repro, res);
}

static void loop_run_descriptor(void *state, const char *text) {
    const conv_settings_t *s = state;
    char err[BENCH_ERR_LEN];
    conv_desc_t desc;
    if (conv_desc_parse_try(text, &desc, err) != 0)
        bench_usage_error("%s", err);
    const int count = conv_settings_count(s);
    for (int i = 0; i < count; i++) {
        conv_prb_t p;
        conv_settings_get(s, &desc, i, &p);
        char repro[2048];
        conv_prb_repro(&p, bench_settings.canonical, repro, sizeof(repro));
        const int idx = bench_next_index();
        if (!bench_should_run(idx, repro))
            continue;
        bench_run_libs(idx, repro, run_on_lib, &p);
    }
}

static void settings_free(void *s) {
    conv_settings_fini(s);
    free(s);
}

int conv_bench(int ntokens, char **tokens) {
    conv_settings_t *s = malloc(sizeof(*s));
    if (!s)
        bench_usage_error("out of memory");
    conv_settings_init(s);
    bench_cleanup_push(settings_free, s);
    const bench_driver_loop_t loop = {
            .state = s,
            .parse_option = loop_parse_option,
            .reset = loop_reset,
            .run_descriptor = loop_run_descriptor,
    };
    bench_driver_loop(ntokens, tokens, &loop);
    bench_cleanup_pop(1);
    return 0;
}
