/* The matmul driver: options, problems, the repro line, and the loop. Lists
 * multiply in the order of the option table, the later option varying
 * faster, the --attr-* lists fastest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked_math.h"
#include "common/opt_driver.h"
#include "common/parser.h"
#include "matmul/matmul.h"

static int validate_bia_mask(const char *option, const char *value, char *err) {
    int64_t v;
    if (parse_int_try(value, &v) == 0 && v >= 0 && v < (1 << MM_MAX_NDIMS))
        return 0;
    bench_set_err(err, "--%s: '%s' is not a mask of dims", option, value);
    return -1;
}

static int validate_strides(const char *option, const char *value, char *err) {
    matmul_strides_t s;
    (void)option;
    return matmul_strides_parse_try(value, &s, err);
}

/* [INT][:INT]: masks of runtime dims for src and weights. */
static int parse_runtime_masks(const char *value, int64_t masks[2]) {
    masks[0] = masks[1] = 0;
    const char *colon = strchr(value, ':');
    char part[2][OPT_VALUE_LEN] = {"", ""};
    const size_t n0 = colon ? (size_t)(colon - value) : strlen(value);
    if (n0 >= OPT_VALUE_LEN)
        return -1;
    memcpy(part[0], value, n0);
    if (colon)
        snprintf(part[1], OPT_VALUE_LEN, "%s", colon + 1);
    for (int i = 0; i < 2; i++)
        if (part[i][0] &&
            (parse_int_try(part[i], &masks[i]) != 0 || masks[i] < 0))
            return -1;
    return 0;
}

static int validate_runtime_masks(const char *option, const char *value,
                                  char *err) {
    int64_t masks[2];
    if (parse_runtime_masks(value, masks) == 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not [INT][:INT]", option, value);
    return -1;
}

enum {
    OPT_DT = 0,
    OPT_BIA_DT,
    OPT_BIA_MASK,
    OPT_STAG,
    OPT_WTAG,
    OPT_DTAG,
    OPT_STRIDES,
    OPT_RUNTIME_DIMS,
    OPT_FPMATH,
    OPT_COUNT
};

/* Defaults as oneDNN's matmul driver has them: plain layouts, no bias. */
static const opt_def_t options[OPT_COUNT] = {
        {"dt", "cfg", "f32", mm_validate_dt},
        {"bia-dt", "bia_dt", "undef", mm_validate_data_type},
        {"bia_mask", "bia-mask", "2", validate_bia_mask},
        {"stag", NULL, "ab", mm_validate_tag},
        {"wtag", NULL, "ab", mm_validate_tag},
        {"dtag", NULL, "ab", mm_validate_tag},
        {"strides", NULL, "::", validate_strides},
        {"runtime_dims_masks", "runtime-dims-masks", "0:0",
         validate_runtime_masks},
        {"attr-fpmath", NULL, "strict", mm_validate_fpmath},
};

/* The problem of combination values `v` and attributes for `desc`. */
/* The problem of one option combination, and its repro line. */
static void make_prb(const void *desc_v, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    const matmul_desc_t *desc = desc_v;
    matmul_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *desc;
    mm_dt_cfg_parse_try(v[OPT_DT], &p->cfg, NULL);
    p->bia_dt = tsr_str2data_type(v[OPT_BIA_DT]);
    if (strcmp(v[OPT_BIA_DT], "undef") != 0 && p->bia_dt == tsr_data_type_undef)
        snprintf(p->bia_unsupported, sizeof(p->bia_unsupported), "%s",
                 v[OPT_BIA_DT]);
    int64_t mask = 0;
    parse_int_try(v[OPT_BIA_MASK], &mask);
    p->bia_mask = (int)mask;
    for (int t = 0; t < 3; t++)
        snprintf(p->tag[t], OPT_VALUE_LEN, "%s", v[OPT_STAG + t]);
    snprintf(p->strides_text, OPT_VALUE_LEN, "%s", v[OPT_STRIDES]);
    matmul_strides_parse_try(v[OPT_STRIDES], &p->strides, NULL);
    snprintf(p->runtime_dims_masks, OPT_VALUE_LEN, "%s", v[OPT_RUNTIME_DIMS]);
    snprintf(p->fpmath, OPT_VALUE_LEN, "%s", v[OPT_FPMATH]);
    p->attr = *attr;
    matmul_prb_repro(p, bench_settings.canonical, repro, len);
}

static int with_bias(const matmul_prb_t *p) {
    return p->bia_dt != tsr_data_type_undef || p->bia_unsupported[0];
}

void matmul_prb_repro(const matmul_prb_t *p, int canonical, char *buf,
                      size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--matmul");
    if (canonical || !bench_dt_cfg_is_default(&p->cfg))
        bench_appendf(&l, " --%s=%s", p->cfg.legacy ? "cfg" : "dt",
                      p->cfg.text);
    const char *bia = p->bia_unsupported[0] ? p->bia_unsupported
                      : with_bias(p)        ? tsr_data_type2str(p->bia_dt)
                                            : "undef";
    if (canonical || with_bias(p))
        bench_appendf(&l, " --bia-dt=%s", bia);
    char mask[16];
    snprintf(mask, sizeof(mask), "%d", p->bia_mask);
    if (canonical || (with_bias(p) && p->bia_mask != 2))
        bench_appendf(&l, " --bia_mask=%s", mask);
    static const char *const tag_opts[3] = {"stag", "wtag", "dtag"};
    for (int t = 0; t < 3; t++)
        if (canonical || strcmp(p->tag[t], "ab") != 0)
            bench_appendf(&l, " --%s=%s", tag_opts[t], p->tag[t]);
    if (canonical || strcmp(p->strides_text, "::") != 0)
        bench_appendf(&l, " --strides=%s", p->strides_text);
    if (canonical || strcmp(p->runtime_dims_masks, "0:0") != 0)
        bench_appendf(&l, " --runtime_dims_masks=%s", p->runtime_dims_masks);
    if (canonical || strcmp(p->fpmath, "strict") != 0)
        bench_appendf(&l, " --attr-fpmath=%s", p->fpmath);
    char attr[1024] = "";
    attr_to_repro(&p->attr, canonical, attr, sizeof(attr));
    bench_appendf(&l, "%s", attr);
    char desc[512];
    matmul_desc_print(&p->desc, canonical, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}

/* "ab" and "ba" name the plain and transposed layouts of any rank. */
static void rank_tag(const char *tag, int ndims, char *out, size_t len) {
    if (strcmp(tag, "ab") == 0 || strcmp(tag, "ba") == 0) {
        for (int d = 0; d < ndims && (size_t)d + 1 < len; d++)
            out[d] = (char)('a' + d);
        if (tag[0] == 'b' && ndims >= 2) {
            out[ndims - 2] = (char)('a' + ndims - 1);
            out[ndims - 1] = (char)('a' + ndims - 2);
        }
        out[ndims] = '\0';
        return;
    }
    snprintf(out, len, "%s", tag);
}

/* The problem on `lib`. */
static void run_problem(const void *prb, bench_lib_t lib, const char *repro,
                        res_t *res) {
    const matmul_prb_t *p = prb;
    const matmul_desc_t *d = &p->desc;
    int64_t masks[2] = {0, 0};
    parse_runtime_masks(p->runtime_dims_masks, masks);
    if (masks[0] || masks[1]) {
        res->state = STATE_UNIMPLEMENTED;
        snprintf(res->reason, sizeof(res->reason),
                 "runtime dimensions are not supported");
        return;
    }
    if (p->bia_unsupported[0]) {
        res->state = STATE_UNIMPLEMENTED;
        snprintf(res->reason, sizeof(res->reason),
                 "data type %s is not supported by the %s", p->bia_unsupported,
                 lib == BENCH_LIB_ONEDNN ? "harness" : "library");
        return;
    }
    for (int t = 0; t < 3; t++) {
        if (p->strides.has[t] && p->strides.n[t] != d->ndims) {
            res->state = STATE_INVALID_ARGUMENTS;
            snprintf(res->reason, sizeof(res->reason),
                     "--strides: %d strides for a %d-dimensional tensor",
                     p->strides.n[t], d->ndims);
            return;
        }
    }
    mm_task_t t;
    memset(&t, 0, sizeof(t));
    const int nd = d->ndims;
    t.src_ndims = t.wei_ndims = t.dst_ndims = nd;
    memcpy(t.src_dims, d->src, sizeof(d->src));
    memcpy(t.wei_dims, d->wei, sizeof(d->wei));
    memcpy(t.dst_dims, d->dst, sizeof(d->dst));
    t.with_bias = with_bias(p);
    for (int i = 0; i < nd; i++)
        t.bia_dims[i] = (p->bia_mask >> i) & 1 ? d->dst[i] : 1;
    t.cfg = p->cfg;
    t.bia_dt = p->bia_dt;
    char tags[3][OPT_VALUE_LEN];
    for (int i = 0; i < 3; i++) {
        rank_tag(p->tag[i], nd, tags[i], sizeof(tags[i]));
        t.tag[i] = tags[i];
        t.has_strides[i] = p->strides.has[i];
        memcpy(t.strides[i], p->strides.v[i], sizeof(t.strides[i]));
    }
    t.attr = &p->attr;
    t.wei_oc_mask = 1 << (nd - 1);
    t.M = d->dst[nd - 2];
    t.N = d->dst[nd - 1];
    t.K = d->src[nd - 1];
    /* Saturated: mm_task_prepare rejects a dst that overflows. */
    t.batch = bench_prod_i64_sat(d->dst, nd - 2);
    char desc[512];
    matmul_desc_print(d, bench_settings.canonical, desc, sizeof(desc));
    const char *const option_tags[3] = {p->tag[0], p->tag[1], p->tag[2]};
    mm_task_run_described(&t, &matmul_task_ops, lib, d->name, desc, "",
                          option_tags, t.batch, repro, res);
}

/* ------------------------------------------------------------------------ */
/* The loop (common/opt_driver.h) */

static int parse_desc(const char *text, void *desc, char *err) {
    return matmul_desc_parse_try(text, desc, err);
}

int matmul_bench(int ntokens, char **tokens) {
    static const opt_driver_t driver = {
            .name = "matmul",
            .defs = options,
            .ndefs = OPT_COUNT,
            .desc_size = sizeof(matmul_desc_t),
            .prb_size = sizeof(matmul_prb_t),
            .parse_desc = parse_desc,
            .make_prb = make_prb,
            .run = run_problem,
    };
    return opt_driver_bench(&driver, ntokens, tokens);
}
